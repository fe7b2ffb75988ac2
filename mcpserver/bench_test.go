package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/triagetest"
	"github.com/recap-dev/recap/mcpserver"
	"github.com/recap-dev/recap/triage"
)

// benchRoot is a root holding a copy of the largest bench report (the PMD 7
// SARIF of Spring Framework, 314,926 results, gzip).
func benchRoot(b *testing.B) string {
	b.Helper()
	src := filepath.Join(reportstest.SharedDir(b, "bench"), "spring-framework.pmd7-all.sarif.gz")
	in, err := os.Open(src)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	dir := b.TempDir()
	out, err := os.Create(filepath.Join(dir, "pmd.sarif.gz"))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		b.Fatal(err)
	}
	if err := out.Close(); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkGetReports: analysis.getReports over the largest bench report,
// through an in-memory client: the first call (parse) once, then warm pages
// (default limit and budget, with context) by bufferId and by the same
// query; reports p50 and p95 of the warm calls. The goal is a warm p95
// under 20 ms.
func BenchmarkGetReports(b *testing.B) {
	dir := benchRoot(b)
	cs, _ := connect(b, mcpserver.Options{Root: dir})
	ctx := context.Background()
	start := time.Now()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "analysis.getReports", Arguments: map[string]any{"summaryOnly": true}})
	if err != nil || res.IsError {
		b.Fatalf("%v %v", err, res)
	}
	first := time.Since(start)
	var v view
	result{text: res.Content[0].(*mcp.TextContent).Text, raw: mustJSON(b, res.StructuredContent)}.decode(b, &v)
	if v.Summary.Total != 314926 {
		b.Fatalf("%d findings", v.Summary.Total)
	}
	b.ResetTimer()
	pages(b, cs, func(i int) map[string]any {
		if i%2 == 1 {
			return map[string]any{"offset": (i * 50) % 300000}
		}
		return map[string]any{"bufferId": v.BufferID, "offset": (i * 50) % 300000}
	})
	b.ReportMetric(float64(first.Milliseconds()), "first-ms") // after ResetTimer, which drops the metrics reported before it
}

// pages calls analysis.getReports b.N times with the arguments of each
// call, and reports the calls' p50 and p95.
func pages(b *testing.B, cs *mcp.ClientSession, args func(i int) map[string]any) {
	b.Helper()
	var durs []time.Duration
	for i := 0; i < b.N; i++ {
		t := time.Now()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "analysis.getReports", Arguments: args(i)})
		durs = append(durs, time.Since(t))
		if err != nil || res.IsError {
			b.Fatalf("%v %v", err, res)
		}
	}
	sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
	b.ReportMetric(float64(durs[len(durs)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(durs[(len(durs)*95+99)/100-1].Microseconds())/1000, "p95-ms")
}

// BenchmarkGlobPaths: analysis.getReports with a paths filter on a warm
// cache of the largest bench report, a glob anchored at a directory
// against **/util/**, which may begin anywhere. Each call is a new query
// (a second glob that matches nothing varies), so that none is a cached
// answer. The goal: **/x/** within twice the anchored glob.
func BenchmarkGlobPaths(b *testing.B) {
	dir := benchRoot(b)
	cs, _ := connect(b, mcpserver.Options{Root: dir})
	ctx := context.Background()
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "analysis.getReports", Arguments: map[string]any{"summaryOnly": true}}); err != nil || res.IsError {
		b.Fatalf("%v %v", err, res)
	}
	n := 0
	for _, glob := range []string{"/home/runner/work/spring-framework/spring-framework/spring-core/src/main/java/org/springframework/util/**", "**/util/**"} {
		b.Run(glob, func(b *testing.B) {
			var v view
			for b.Loop() {
				n++
				args := map[string]any{"summaryOnly": true, "paths": []string{glob, fmt.Sprintf("none%d/**", n)}}
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "analysis.getReports", Arguments: args})
				if err != nil || res.IsError {
					b.Fatalf("%v %v", err, res)
				}
				v = view{}
				result{text: res.Content[0].(*mcp.TextContent).Text, raw: mustJSON(b, res.StructuredContent)}.decode(b, &v)
			}
			b.ReportMetric(float64(v.Summary.Total), "findings")
		})
	}
}

// BenchmarkWarmPageTriaged: pages of a kept result (by the same query at
// another offset) on the sample with a triage file of 10,000 decisions
// (the sample's five, and made-up ones on its files), written an hour
// before: the goal of a warm page, p95 under 20 ms, holds with it as
// without it. Each call looks at the file; it is read, parsed and matched
// only when it changed or a result is made.
func BenchmarkWarmPageTriaged(b *testing.B) {
	_, g := sampleReports(b)
	file, _ := triagetest.Sample(b)
	paths := []string{}
	for _, e := range file.Entries {
		paths = append(paths, e.Path)
	}
	for i := 0; len(file.Entries) < 10_000; i++ {
		file.Put(triage.Entry{Tool: "PMD", Rule: fmt.Sprintf("MadeUp%d", i), Path: paths[i%len(paths)], Line: "int x = 0;",
			Message: fmt.Sprintf("made up %d", i), State: triage.FalsePositive, Reason: "bench", By: "bench", Date: "2026-11-01"})
	}
	p := triagetest.Write(b, g.Dir, file)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		b.Fatal(err)
	}
	cs, _ := connect(b, mcpserver.Options{Root: g.Dir})
	ctx := context.Background()
	var v view
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "analysis.getReports", Arguments: map[string]any{"limit": 5}})
	if err != nil || res.IsError {
		b.Fatalf("%v %v", err, res)
	}
	result{text: res.Content[0].(*mcp.TextContent).Text, raw: mustJSON(b, res.StructuredContent)}.decode(b, &v)
	if v.Summary.Triaged == nil || v.Summary.Triaged.Problems != 5 {
		b.Fatalf("triaged %+v, want the sample's 5 problems", v.Summary.Triaged)
	}
	b.ResetTimer()
	pages(b, cs, func(i int) map[string]any { return map[string]any{"limit": 5, "offset": (i * 5) % 100} })
}
