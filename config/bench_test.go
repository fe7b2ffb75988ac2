package config_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/recap-dev/recap/config"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

// cpuTime is the process's CPU time so far. The machine the benchmarks
// run on is shared, so ns/op (wall time) grows with the others' load;
// cpu-ns/op, the CPU time the loop used per op, does not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loop runs body b.N times and reports its CPU time per op.
func loop(b *testing.B, body func()) {
	runtime.GC() // the set-up's garbage is not the loop's
	var start time.Duration
	n := 0
	for b.Loop() {
		if n == 0 {
			start = cpuTime()
		}
		body()
		n++
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/op")
}

// The matching benchmarks run the configuration of testdata/recap.yml (2
// path globs, 14 rule patterns: excludes, overrides, groups) over every
// finding of a report, as the pipeline does: Excluded, then Apply. One op
// is one finding. Goal: under 200 ns a finding.

func benchConfig(b *testing.B) *config.Config {
	c, err := config.Load(filepath.Join("testdata", "recap.yml"))
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// syntheticFindings are n findings of three tools over 300 rules and
// 5,000 paths, in the order a report lists them (by file).
func syntheticFindings(n int) []reports.Finding {
	tools := []string{"Checkstyle", "PMD", "SpotBugs"}
	out := make([]reports.Finding, n)
	for i := range out {
		tool := tools[i%3]
		rule := fmt.Sprintf("Rule%d", i%100)
		if tool == "Checkstyle" {
			rule = "com.puppycrawl.tools.checkstyle.checks.coding." + rule + "Check"
		}
		out[i] = reports.Finding{Tool: tool, Rule: rule, Path: fmt.Sprintf("src/main/java/org/example/p%d/Class%d.java", i/80%50, i/80), Line: i % 500}
	}
	return out
}

// synthetic400k is syntheticFindings(400_000), made once.
var synthetic400k = sync.OnceValue(func() []reports.Finding { return syntheticFindings(400_000) })

var (
	springOnce sync.Once
	spring     []reports.Finding
)

// springFindings are the 395,900 findings of Checkstyle (sun_checks) on
// Spring Framework, from ../shared/bench.
func springFindings(b *testing.B) []reports.Finding {
	dir := reportstest.SharedDir(b, "bench")
	springOnce.Do(func() {
		_, err := parsers.ReadFile(filepath.Join(dir, "spring-framework.checkstyle-sun.xml.gz"), "s", parsers.ReadOptions{}, func(f reports.Finding) error {
			spring = append(spring, f)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	})
	if len(spring) != 395900 {
		b.Fatalf("%d findings read, want 395,900", len(spring))
	}
	return spring
}

func BenchmarkMatch(b *testing.B) {
	for _, bc := range []struct {
		name     string
		findings func(*testing.B) []reports.Finding
	}{
		{"synthetic-400k", func(*testing.B) []reports.Finding { return synthetic400k() }},
		{"spring-checkstyle", springFindings},
	} {
		b.Run(bc.name, func(b *testing.B) {
			fs := bc.findings(b)
			c := benchConfig(b)
			excluded, i, n := 0, 0, 0
			loop(b, func() {
				f := fs[i]
				if c.Excluded(&f) {
					excluded++
				} else {
					c.Apply(&f)
				}
				if i++; i == len(fs) {
					i = 0
				}
				n++
			})
			b.ReportMetric(float64(excluded)/float64(n)*100, "%excluded")
		})
	}
}

// BenchmarkMatchParallel is BenchmarkMatch from every core at once, as
// the MCP server's concurrent calls share one configuration.
func BenchmarkMatchParallel(b *testing.B) {
	fs := synthetic400k()
	c := benchConfig(b)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			f := fs[i]
			if !c.Excluded(&f) {
				c.Apply(&f)
			}
			if i++; i == len(fs) {
				i = 0
			}
		}
	})
}

// BenchmarkSameRule asks whether two neighbouring findings' rules mean the
// same, as the grouping of one line's findings does.
func BenchmarkSameRule(b *testing.B) {
	fs := synthetic400k()
	c := benchConfig(b)
	i := 0
	loop(b, func() {
		c.SameRule(&fs[i], &fs[i+1])
		if i++; i == len(fs)-1 {
			i = 0
		}
	})
}

// BenchmarkParse reads testdata/recap.yml.
func BenchmarkParse(b *testing.B) {
	loop(b, func() { benchConfig(b) })
}

// BenchmarkMatchHot is BenchmarkMatch over the first 1,000 findings only,
// which stay in the processor's cache, as a finding just parsed is.
func BenchmarkMatchHot(b *testing.B) {
	fs := syntheticFindings(1000)
	c := benchConfig(b)
	i := 0
	loop(b, func() {
		f := &fs[i]
		if !c.Excluded(f) {
			c.Apply(f)
		}
		if i++; i == len(fs) {
			i = 0
		}
	})
}

// BenchmarkMapLookup calibrates the others on a shared machine: one Go map
// lookup by a 70-byte string, the least a cache of rules could cost.
func BenchmarkMapLookup(b *testing.B) {
	m := map[string]int{}
	keys := make([]string, 300)
	for i := range keys {
		keys[i] = fmt.Sprintf("com.puppycrawl.tools.checkstyle.checks.coding.Rule%dCheck%020d", i, i)
		m[keys[i]] = i
	}
	i, sum := 0, 0
	loop(b, func() {
		sum += m[keys[i]]
		if i++; i == len(keys) {
			i = 0
		}
	})
	_ = sum
}
