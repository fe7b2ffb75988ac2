package triage_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/triage"
)

// cpuTime is the process's CPU time so far: the machine is shared, and
// CPU time is not inflated by the others' load.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

const springRoot = "/home/runner/work/spring-framework/spring-framework/"

var (
	springOnce sync.Once
	spring     []reports.Finding
)

// springFindings are the 314,926 findings of PMD 7 (all eight Java
// categories) on Spring Framework, from ../shared/bench, their paths made
// relative to the repository as --repo makes them.
func springFindings(b *testing.B) []reports.Finding {
	dir := reportstest.SharedDir(b, "bench")
	springOnce.Do(func() {
		_, err := parsers.ReadFile(filepath.Join(dir, "spring-framework.pmd7-all.sarif.gz"), "s", parsers.ReadOptions{}, func(f reports.Finding) error {
			f.Path = strings.TrimPrefix(f.Path, springRoot)
			f.Detail = nil
			spring = append(spring, f)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	})
	if len(spring) != 314926 {
		b.Fatalf("%d findings read, want 314,926", len(spring))
	}
	return spring
}

// springTriage is a triage file of the findings pick picks (at most n),
// and a source of the files they name: Spring's source is not in the
// bench, so each is made up, Java-like lines as long as Spring's (38
// characters on average), each line different, as many as the report's
// findings need.
func springTriage(b *testing.B, fs []reports.Finding, n int, pick func(i int, f *reports.Finding) bool) (*triage.File, fstest.MapFS) {
	var picked []int
	for i := range fs {
		if len(picked) < n && pick(i, &fs[i]) {
			picked = append(picked, i)
		}
	}
	lines := map[string]int{}
	for _, i := range picked {
		lines[fs[i].Path] = 0
	}
	for _, f := range fs {
		if l, ok := lines[f.Path]; ok && f.Line > l {
			lines[f.Path] = f.Line
		}
	}
	src := fstest.MapFS{}
	for p, n := range lines {
		var sb strings.Builder
		for i := 1; i <= n+3; i++ {
			fmt.Fprintf(&sb, "        int v%d = compute(v%d, %d);\n", i, i-1, len(p))
		}
		src[p] = &fstest.MapFile{Data: []byte(sb.String())}
	}
	file := &triage.File{Version: 1}
	for _, i := range picked {
		e := triage.EntryFor(&fs[i], src)
		e.State, e.Reason = triage.FalsePositive, "benchmark"
		file.Put(e)
	}
	return file, src
}

// BenchmarkSpring10000: 10,000 entries matched against the 314,926
// findings of Spring's PMD report; one op is a whole run: the matcher
// made, every finding decided (the files of the entries read and their
// lines compared once each). Goal: at most 5% of recap summary on the
// same report. "spread" takes one finding in 31 of the whole report (on
// 4,808 of its 9,247 files: the worst case, every entry in a file of its
// own); "module" takes the findings of spring-web, as a decision by
// --path would (10,000 entries on fewer files). "ahead": the files read
// ahead first and decided by their digests, as the commands do.
func BenchmarkSpring10000(b *testing.B) {
	fs := springFindings(b)
	spread := func(i int, _ *reports.Finding) bool { return i%(len(fs)/10_000) == 0 }
	module := func(_ int, f *reports.Finding) bool { return strings.HasPrefix(f.Path, "spring-web/") }
	for _, bc := range []struct {
		name  string
		pick  func(i int, f *reports.Finding) bool
		ahead bool
	}{
		{"spread", spread, false},
		{"module", module, false},
		{"spread-ahead", spread, true},
		{"module-ahead", module, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			file, src := springTriage(b, fs, 10_000, bc.pick)
			now := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
			runtime.GC()
			var start time.Duration
			runs, stale := 0, 0
			for b.Loop() {
				if runs == 0 {
					start = cpuTime()
				}
				m := triage.NewMatcher(file, src, now)
				if bc.ahead {
					m.ReadAhead()
				}
				for i := range fs {
					m.Decide(&fs[i])
				}
				stale = len(m.Stale())
				runs++
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(runs)/1e6, "cpu-ms/op")
			b.ReportMetric(float64(len(file.Entries)), "entries")
			b.ReportMetric(float64(len(src)), "files")
			b.ReportMetric(float64(stale), "stale")
		})
	}
}

// BenchmarkSpringNone: the same findings, a triage file of 10,000 entries
// of rules and files the report does not have: the cost of a finding no
// entry names.
func BenchmarkSpringNone(b *testing.B) {
	fs := springFindings(b)
	file := &triage.File{Version: 1}
	for i := range 10_000 {
		file.Put(triage.Entry{Tool: "PMD", Rule: fmt.Sprintf("NoRule%d", i%50), Path: fmt.Sprintf("f%d.java", i), State: triage.WontFix, Reason: "r"})
	}
	m := triage.NewMatcher(file, fstest.MapFS{}, time.Now())
	runtime.GC()
	var start time.Duration
	runs := 0
	for b.Loop() {
		if runs == 0 {
			start = cpuTime()
		}
		for i := range fs {
			m.Decide(&fs[i])
		}
		runs++
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(runs)/float64(len(fs)), "cpu-ns/finding")
}
