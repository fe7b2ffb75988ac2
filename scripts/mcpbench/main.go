// Command mcpbench measures recap mcp as an agent meets it: it runs
// `recap summary REPORT` once (the command line's time on the same file, in
// the same root),
// starts the server as a subprocess over stdio on a root holding REPORT,
// calls analysis.getReports once (the parse), then -calls warm pages (half
// by bufferId, half by the same query at another offset), and prints the
// first call's time and its ratio to the summary's, the warm p50/p95/max,
// the server's RSS before the first call and at its peak (from /proc,
// Linux), and the bytes per finding held: the peak less the RSS before the
// first call, divided by the findings. With -concurrent N, a second server
// is then given N calls at once on the same cold report (every other one
// the same query, the others each with a filter of its own), and the
// answers, BUSY ones, the slowest call and that server's peak RSS are
// printed.
//
//	go build -o /tmp/recap ./cmd/recap
//	go run ./scripts/mcpbench -recap /tmp/recap ../shared/bench/spring-framework.pmd7-all.sarif.gz
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	recap := flag.String("recap", "recap", "the recap binary")
	calls := flag.Int("calls", 200, "warm calls")
	concurrent := flag.Int("concurrent", 0, "calls at once on a cold server, after the warm calls (0: none)")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: mcpbench [-recap BIN] [-calls N] REPORT")
	}
	if strings.ContainsRune(*recap, filepath.Separator) { // run from the temp dir too
		if abs, err := filepath.Abs(*recap); err == nil {
			*recap = abs
		}
	}
	dir, err := os.MkdirTemp("", "mcpbench")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	name := filepath.Base(flag.Arg(0))
	if err := copyFile(flag.Arg(0), filepath.Join(dir, name)); err != nil {
		log.Fatal(err)
	}
	sum := exec.Command(*recap, "summary", "--repo", dir, name) // the server's root: the same paths to place
	sum.Dir = dir
	t := time.Now()
	if out, err := sum.CombinedOutput(); err != nil {
		log.Fatalf("recap summary: %v\n%s", err, out)
	}
	summary := time.Since(t)
	cmd := exec.Command(*recap, "mcp", "--root", dir)
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcpbench"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	before := procStatus(cmd, "VmRSS:")
	call := func(args map[string]any) (*mcp.CallToolResult, time.Duration) {
		t := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "analysis.getReports", Arguments: args})
		if err != nil || res.IsError {
			log.Fatalf("%v %v", err, res)
		}
		return res, time.Since(t)
	}
	res, first := call(map[string]any{"summaryOnly": true})
	firstPeak := procStatus(cmd, "VmHWM:")
	line, _, _ := strings.Cut(res.Content[0].(*mcp.TextContent).Text, "\n")
	buf := ""
	if _, rest, ok := strings.Cut(line, "bufferId="); ok {
		buf = strings.FieldsFunc(rest, func(r rune) bool { return r == ';' || r == ' ' })[0]
	}
	var warm []time.Duration
	for i := 0; i < *calls; i++ {
		args := map[string]any{"offset": (i * 50) % 300000}
		if i%2 == 0 && buf != "" {
			args["bufferId"] = buf
		}
		_, d := call(args)
		warm = append(warm, d)
	}
	sort.Slice(warm, func(i, j int) bool { return warm[i] < warm[j] })
	pct := func(p int) time.Duration { return warm[min(len(warm)-1, (len(warm)*p+99)/100-1)] }
	fmt.Printf("%s\n%s\n", name, line)
	fmt.Printf("first call (parse): %v\n", first.Round(time.Millisecond))
	fmt.Printf("recap summary: %v; first call / summary: %.2f\n", summary.Round(time.Millisecond), first.Seconds()/summary.Seconds())
	fmt.Printf("warm getReports pages (%d): p50 %v, p95 %v, max %v\n", len(warm), pct(50).Round(100*time.Microsecond), pct(95).Round(100*time.Microsecond), warm[len(warm)-1].Round(100*time.Microsecond))
	peak := procStatus(cmd, "VmHWM:")
	if peak > 0 {
		fmt.Printf("server RSS before the first call: %d kB\n", before)
		fmt.Printf("server peak RSS after the first call: %d kB\n", firstPeak)
		fmt.Printf("server peak RSS: %d kB\n", peak)
		var findings int
		if _, err := fmt.Sscanf(line, "recap: %d findings", &findings); err == nil && findings > 0 {
			fmt.Printf("bytes per finding held: %d\n", (peak-before)*1024/int64(findings))
		}
	}
	if *concurrent > 0 {
		concurrentCalls(*recap, dir, *concurrent)
	}
}

// concurrentFilters are the filters of the concurrent calls that do not
// ask the same query.
var concurrentFilters = []map[string]any{
	{"severity": "error"}, {"categories": []string{"Design"}}, {"rules": []string{"CommentRequired"}},
	{"grep": "final"}, {"paths": []string{"**/web/**"}}, {"impact": "high"}, {"sort": "location"},
	{"categories": []string{"Documentation"}, "limit": 5}, {"grep": "variable"}, {"rules": []string{"LongVariable", "ShortVariable"}},
}

// concurrentCalls starts a server on dir and gives it n calls of
// analysis.getReports at once, on its cold cache: every other call the
// same query, the others each with a filter of its own.
func concurrentCalls(recap, dir string, n int) {
	cmd := exec.Command(recap, "mcp", "--root", dir)
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcpbench"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	var mu sync.Mutex
	var wg sync.WaitGroup
	codes := map[string]int{}
	var slowest time.Duration
	start := time.Now()
	for i := range n {
		args := map[string]any{}
		if i%2 == 1 {
			args = concurrentFilters[(i/2)%len(concurrentFilters)]
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.Now()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "analysis.getReports", Arguments: args})
			d := time.Since(t)
			k := "answered"
			switch {
			case err != nil:
				k = "failed"
			case res.IsError:
				text := ""
				if len(res.Content) > 0 {
					if tc, ok := res.Content[0].(*mcp.TextContent); ok {
						text = tc.Text
					}
				}
				if strings.Contains(text, "BUSY") {
					k = "BUSY"
				} else {
					k = "error"
				}
			}
			mu.Lock()
			codes[k]++
			slowest = max(slowest, d)
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Printf("concurrent calls (%d at once, cold): answered %d, BUSY %d, error %d, failed %d; slowest %v; all in %v\n",
		n, codes["answered"], codes["BUSY"], codes["error"], codes["failed"], slowest.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	fmt.Printf("concurrent server peak RSS: %d kB\n", procStatus(cmd, "VmHWM:"))
}

// procStatus reads a figure in kB of the server's /proc status (VmRSS,
// VmHWM); 0 when there is none (not Linux).
func procStatus(cmd *exec.Cmd, key string) int64 {
	if cmd.Process == nil {
		return 0
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, key); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
