package render

import (
	"io"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

var springOnce struct {
	sync.Once
	findings []reports.Finding
	view     *summarize.View
	err      error
}

// cpuTime is the CPU time of the process so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// springFindings are the findings of Spring's PMD SARIF and Checkstyle XML
// (../shared/bench, 710,826 findings), read once, with their fingerprints.
func springFindings(b *testing.B) ([]reports.Finding, *summarize.View) {
	dir := reportstest.SharedDir(b, "bench")
	springOnce.Do(func() {
		paths := []string{filepath.Join(dir, "spring-framework.pmd7-all.sarif.gz"), filepath.Join(dir, "spring-framework.checkstyle-sun.xml.gz")}
		c := summarize.NewCollector()
		inputs, err := parsers.ReadAll(paths, parsers.ReadOptions{Root: dir}, func(f reports.Finding) error {
			springOnce.findings = append(springOnce.findings, f)
			c.Add(f)
			return nil
		})
		springOnce.view, springOnce.err = c.View(inputs), err
	})
	if springOnce.err != nil {
		b.Fatal(springOnce.err)
	}
	return springOnce.findings, springOnce.view
}

// BenchmarkStreamWriters drives the writers of every finding (SARIF with
// GitHub's cap and without, Code Quality, the HTML page) over Spring's
// findings, read once before: each op adds the 710,826 findings to a new
// stream and writes it out (cpu-ns/finding: the process's CPU time a
// finding). It measures the writers alone, what `recap
// summary --format F` adds to the query (BenchmarkHTMLWrite in cmd/recap
// runs the whole commands).
func BenchmarkStreamWriters(b *testing.B) {
	fs, v := springFindings(b)
	for _, bc := range []struct {
		name string
		st   func() Stream
	}{
		{"sarif", func() Stream { return SARIF{MaxResults: MaxRunResults}.NewStream() }},
		{"sarif-all", func() Stream { return SARIF{}.NewStream() }},
		{"codeclimate", func() Stream { return CodeClimate{}.NewStream() }},
		{"html", func() Stream { return HTML{}.NewStream() }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cpu0 := cpuTime()
			for b.Loop() {
				st := bc.st()
				for i := range fs {
					if err := st.Add(&fs[i]); err != nil {
						b.Fatal(err)
					}
				}
				if err := st.Write(io.Discard, v); err != nil {
					b.Fatal(err)
				}
				st.Close()
			}
			// The process's CPU time (the collector's included): the machine
			// is shared, wall time moves with its load.
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/float64(len(fs)), "cpu-ns/finding")
		})
	}
}
