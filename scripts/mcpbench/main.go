// Command mcpbench measures recap mcp as an agent meets it: it starts the
// server as a subprocess over stdio on a root holding REPORT, calls
// analysis.getReports once (the parse), then -calls warm pages (half by
// bufferId, half by the same query at another offset), and prints the
// first call's time, the warm p50/p95/max and the server's peak RSS (from
// /proc, Linux).
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
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	recap := flag.String("recap", "recap", "the recap binary")
	calls := flag.Int("calls", 200, "warm calls")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: mcpbench [-recap BIN] [-calls N] REPORT")
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
	cmd := exec.Command(*recap, "mcp", "--root", dir)
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcpbench"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	call := func(args map[string]any) (*mcp.CallToolResult, time.Duration) {
		t := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "analysis.getReports", Arguments: args})
		if err != nil || res.IsError {
			log.Fatalf("%v %v", err, res)
		}
		return res, time.Since(t)
	}
	res, first := call(map[string]any{"summaryOnly": true})
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
	fmt.Printf("warm getReports pages (%d): p50 %v, p95 %v, max %v\n", len(warm), pct(50).Round(100*time.Microsecond), pct(95).Round(100*time.Microsecond), warm[len(warm)-1].Round(100*time.Microsecond))
	if cmd.Process != nil {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)); err == nil {
			for _, l := range strings.Split(string(b), "\n") {
				if strings.HasPrefix(l, "VmHWM:") {
					fmt.Printf("server peak RSS: %s\n", strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:")))
				}
			}
		}
	}
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
