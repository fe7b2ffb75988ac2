//go:build unix

package mcpserver_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/mcpserver"
)

// springRoot is a root holding copies of the Spring bench's two reports:
// Checkstyle's XML (395,900 findings) and PMD 7's SARIF (314,926), gzip.
func springRoot(b testing.TB) string {
	b.Helper()
	bench := reportstest.SharedDir(b, "bench")
	dir := b.TempDir()
	for _, name := range []string{"spring-framework.checkstyle-sun.xml.gz", "spring-framework.pmd7-all.sarif.gz"} {
		in, err := os.Open(filepath.Join(bench, name))
		if err != nil {
			b.Fatal(err)
		}
		out, err := os.Create(filepath.Join(dir, name))
		if err == nil {
			_, err = io.Copy(out, in)
		}
		in.Close()
		if err == nil {
			err = out.Close()
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// loadFilters are n different filters of analysis.getReports, as agents
// narrowing the Spring reports would give them: by impact, quality,
// category, tool, severity and path, alone and together.
func loadFilters(n int) []map[string]any {
	impacts := []string{"blocker", "high", "medium", "low", "info"}
	qualities := []string{"security", "reliability", "maintainability"}
	categories := []string{"Best Practices", "Code Style", "Design", "Documentation", "Error Prone", "Multithreading", "Performance", "Security"}
	tools := []string{"PMD", "Checkstyle"}
	paths := []string{"**/util/**", "**/core/**", "**/web/**", "**/test/**", "**/*Utils.java"}
	var out []map[string]any
	for i := 0; len(out) < n; i++ {
		var f map[string]any
		switch i % 6 {
		case 0:
			f = map[string]any{"impact": impacts[i/6%len(impacts)]}
		case 1:
			f = map[string]any{"qualities": []string{qualities[i/6%len(qualities)]}}
		case 2:
			f = map[string]any{"categories": []string{categories[i/6%len(categories)]}}
		case 3:
			f = map[string]any{"paths": []string{paths[i/6%len(paths)]}}
		case 4:
			f = map[string]any{"tools": []string{tools[i/6%len(tools)]}, "severity": []string{"error", "warning", "note"}[i/6%3]}
		case 5:
			f = map[string]any{"categories": []string{categories[i/6%len(categories)]}, "impact": impacts[i/6%len(impacts)], "paths": []string{paths[i/6%len(paths)]}}
		}
		f["offset"] = i // each a different query even when its filter repeats one
		out = append(out, f)
	}
	return out
}

// loadRun is one round of concurrent calls on a cold server: each call's
// time, how many were answered BUSY or failed otherwise, and the peak of
// the process's memory from the runtime (about its resident set).
type loadRun struct {
	times       []time.Duration
	busy, fails int
	failure     string
	peak        uint64
	cpu         time.Duration // the process's CPU time during the round
}

func (r loadRun) slowest() time.Duration { return slices.Max(r.times) }

// runLoad starts a server over dir with the command line's memory limit,
// connects a session per call (agents each have their own) and sends the
// calls at once.
func runLoad(b testing.TB, dir string, calls []map[string]any) loadRun {
	b.Helper()
	runtime.GC()
	s := newServer(b, mcpserver.Options{Root: dir})
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(s.RuntimeMemoryLimit()))
	sessions := make([]*mcp.ClientSession, len(calls))
	for i := range calls {
		sessions[i] = connectAs(b, s, "claude-code", nil)
	}
	stop := make(chan struct{})
	peak := make(chan uint64)
	go func() { peak <- memoryPeak(stop) }()
	var run loadRun
	cpu0 := cpuTime(b)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, args := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.Now()
			res, err := sessions[i].CallTool(context.Background(), &mcp.CallToolParams{Name: "analysis.getReports", Arguments: args})
			d := time.Since(t)
			mu.Lock()
			defer mu.Unlock()
			run.times = append(run.times, d)
			switch {
			case err != nil:
				run.fails++
				run.failure = err.Error()
			case res.IsError && strings.Contains(res.Content[0].(*mcp.TextContent).Text, "BUSY"):
				run.busy++
			case res.IsError:
				run.fails++
				run.failure = res.Content[0].(*mcp.TextContent).Text
			}
		}()
	}
	wg.Wait()
	run.cpu = cpuTime(b) - cpu0
	close(stop)
	run.peak = <-peak
	for _, cs := range sessions {
		cs.Close()
	}
	return run
}

// memoryPeak samples what the runtime holds from the system and has not
// given back until stop, and returns its peak.
func memoryPeak(stop chan struct{}) uint64 {
	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	var peak uint64
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for {
		metrics.Read(samples)
		peak = max(peak, samples[0].Value.Uint64()-samples[1].Value.Uint64())
		select {
		case <-stop:
			return peak
		case <-t.C:
		}
	}
}

// BenchmarkLoad: analysis.getReports on a cold server over the Spring
// bench's two reports (710,826 findings): one call alone, 50 identical
// calls at once, and 50 calls at once with different filters, each from
// its own session. It reports the slowest call, the calls answered BUSY,
// and the memory's peak. The goals: none BUSY, the slowest of the 50
// within 2× the one call alone, the peak within the server's bound
// (256 MiB).
func BenchmarkLoad(b *testing.B) {
	dir := springRoot(b)
	same := make([]map[string]any, 50)
	for i := range same {
		same[i] = map[string]any{}
	}
	for _, c := range []struct {
		name  string
		calls []map[string]any
	}{
		{"one", same[:1]},
		{"identical-50", same},
		{"filters-50", loadFilters(50)},
	} {
		b.Run(c.name, func(b *testing.B) {
			var worst loadRun
			for b.Loop() {
				run := runLoad(b, dir, c.calls)
				if run.fails > 0 {
					b.Fatalf("%d calls failed: %s", run.fails, run.failure)
				}
				if worst.times == nil || run.slowest() > worst.slowest() {
					worst.times = run.times
				}
				worst.busy, worst.peak, worst.cpu = max(worst.busy, run.busy), max(worst.peak, run.peak), max(worst.cpu, run.cpu)
			}
			b.ReportMetric(float64(worst.slowest().Milliseconds()), "slowest-ms")
			b.ReportMetric(float64(worst.busy), "busy")
			b.ReportMetric(float64(worst.peak>>20), "peak-MiB")
			b.ReportMetric(float64(worst.cpu.Milliseconds()), "cpu-ms")
		})
	}
}
