// Command mcpbench measures recap mcp as an agent meets it: it runs
// `recap summary REPORT` once (the command line's time on the same file, in
// the same root),
// starts the server as a subprocess over stdio on a root holding REPORT,
// calls analysis.getReports once (the parse), then -calls warm pages (half
// by bufferId, half by the same query at another offset), and prints the
// first call's time and its ratio to the summary's, the warm p50/p95/max,
// the server's RSS before the first call and at its peak (from /proc,
// Linux), and the bytes per finding held: the peak less the RSS before the
// first call, divided by the findings.
//
// Several reports are read together (the root holds them all).
//
// With -concurrent N it measures a cold server under load instead: on a
// new server each time, one call alone, N identical calls at once, and N
// calls at once with different filters (impact, quality, category, tool
// and severity, paths), and prints for each the slowest call, its ratio
// to the call alone, the calls answered BUSY, and the server's peak RSS.
//
//	go build -o /tmp/recap ./cmd/recap
//	go run ./scripts/mcpbench -recap /tmp/recap ../shared/bench/spring-framework.pmd7-all.sarif.gz
//	go run ./scripts/mcpbench -recap /tmp/recap -concurrent 50 ../shared/bench/spring-framework.{checkstyle-sun.xml,pmd7-all.sarif}.gz
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
	concurrent := flag.Int("concurrent", 0, "measure N cold calls at once instead")
	flag.Parse()
	if flag.NArg() < 1 {
		log.Fatal("usage: mcpbench [-recap BIN] [-calls N] [-concurrent N] REPORT...")
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
	var names []string
	for _, arg := range flag.Args() {
		name := filepath.Base(arg)
		if err := copyFile(arg, filepath.Join(dir, name)); err != nil {
			log.Fatal(err)
		}
		names = append(names, name)
	}
	name := strings.Join(names, " + ")
	sum := exec.Command(*recap, append([]string{"summary", "--repo", dir}, names...)...) // the server's root: the same paths to place
	sum.Dir = dir
	t := time.Now()
	if out, err := sum.CombinedOutput(); err != nil {
		log.Fatalf("recap summary: %v\n%s", err, out)
	}
	summary := time.Since(t)
	if *concurrent > 0 {
		fmt.Printf("%s\nrecap summary: %v\n", name, summary.Round(time.Millisecond))
		load(*recap, dir, *concurrent)
		return
	}
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
}

// load starts a new server for each round of calls at once and prints
// what it took.
func load(recap, dir string, n int) {
	same := make([]map[string]any, n)
	for i := range same {
		same[i] = map[string]any{}
	}
	var alone, aloneCPU time.Duration
	for _, round := range []struct {
		name  string
		calls []map[string]any
	}{{"one call", same[:1]}, {fmt.Sprintf("%d identical calls", n), same}, {fmt.Sprintf("%d calls, different filters", n), filters(n)}} {
		cmd := exec.Command(recap, "mcp", "--root", dir)
		ctx := context.Background()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcpbench"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			log.Fatal(err)
		}
		var mu sync.Mutex
		var wg sync.WaitGroup
		var slowest time.Duration
		codes := map[string]int{}
		for _, args := range round.calls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				t := time.Now()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "analysis.getReports", Arguments: args})
				d := time.Since(t)
				k := "ok"
				switch {
				case err != nil:
					k = "failed"
				case res.IsError:
					k, _, _ = strings.Cut(res.Content[0].(*mcp.TextContent).Text, ":")
				}
				mu.Lock()
				defer mu.Unlock()
				codes[k]++
				slowest = max(slowest, d)
			}()
		}
		wg.Wait()
		peak, cpu := procStatus(cmd, "VmHWM:"), procCPU(cmd)
		cs.Close()
		if alone == 0 {
			alone, aloneCPU = slowest, cpu
		}
		fmt.Printf("%s: slowest %v (%.2f × one call), server CPU %v (%.2f × one call), answers %v, server peak RSS %d kB\n", round.name, slowest.Round(time.Millisecond), slowest.Seconds()/alone.Seconds(),
			cpu.Round(time.Millisecond), cpu.Seconds()/aloneCPU.Seconds(), codes, peak)
	}
}

// filters are n different filters, as agents narrowing the reports give
// them.
func filters(n int) []map[string]any {
	impacts := []string{"blocker", "high", "medium", "low", "info"}
	qualities := []string{"security", "reliability", "maintainability"}
	categories := []string{"Best Practices", "Code Style", "Design", "Documentation", "Error Prone", "Multithreading", "Performance", "Security"}
	paths := []string{"**/util/**", "**/core/**", "**/web/**", "**/test/**", "**/*Utils.java"}
	var out []map[string]any
	for i := 0; len(out) < n; i++ {
		var f map[string]any
		switch j := i / 6; i % 6 {
		case 0:
			f = map[string]any{"impact": impacts[j%len(impacts)]}
		case 1:
			f = map[string]any{"qualities": []string{qualities[j%len(qualities)]}}
		case 2:
			f = map[string]any{"categories": []string{categories[j%len(categories)]}}
		case 3:
			f = map[string]any{"paths": []string{paths[j%len(paths)]}}
		case 4:
			f = map[string]any{"tools": []string{[]string{"PMD", "Checkstyle"}[j%2]}, "severity": []string{"error", "warning", "note"}[j%3]}
		case 5:
			f = map[string]any{"categories": []string{categories[j%len(categories)]}, "impact": impacts[j%len(impacts)], "paths": []string{paths[j%len(paths)]}}
		}
		f["offset"] = i
		out = append(out, f)
	}
	return out
}

// procCPU is the CPU time the server has used (user and system, from
// /proc, Linux; 0 elsewhere): on a machine shared with other work it
// varies less than the wall clock.
func procCPU(cmd *exec.Cmd) time.Duration {
	if cmd.Process == nil {
		return 0
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid))
	if err != nil {
		return 0
	}
	_, rest, _ := strings.Cut(string(b), ") ") // past the command's name
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond // clock ticks of 1/100 s
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
