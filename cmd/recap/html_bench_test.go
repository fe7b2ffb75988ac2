package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// springReports are the Spring Framework bench's Checkstyle and PMD
// reports (710,826 findings), or a skip without ../shared.
func springReports(b testing.TB) []string {
	dir := reportstest.SharedDir(b, "bench")
	return []string{filepath.Join(dir, "spring-framework.pmd7-all.sarif.gz"), filepath.Join(dir, "spring-framework.checkstyle-sun.xml.gz")}
}

// BenchmarkHTMLWrite writes the HTML report of Spring's reports, against
// recap summary --format json of the same reports (the goal: at most
// 1.5×), with --format sarif (everything as SARIF, the goal: at most 1.3×
// the json summary) and --format codeclimate, which take every problem as
// the page does. Whole processes, as a user runs them: each reports its
// CPU time (user and system, cpu-s) and peak RSS (MiB-rss);
// html-per-json runs the json summary and the page in turns, as another
// load on the machine shares it alike, and reports the page's CPU time
// over the summary's (x-json, of their medians: the goal).
func BenchmarkHTMLWrite(b *testing.B) {
	in := springReports(b)
	out := filepath.Join(b.TempDir(), "report.html")
	jsonArgs := []string{"summary", "--format", "json"}
	htmlArgs := []string{"summary", "--format", "html", "--output", out}
	for _, bc := range []struct {
		name string
		args []string
	}{
		{"json", jsonArgs},
		{"sarif", []string{"summary", "--format", "sarif", "--output", out}},
		{"codeclimate", []string{"summary", "--format", "codeclimate", "--output", out}},
		{"html", htmlArgs},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var cpu, rss []float64
			for b.Loop() {
				c, r := runCPU(b, append(bc.args, in...))
				cpu, rss = append(cpu, c), append(rss, r)
			}
			b.ReportMetric(median(cpu), "cpu-s")
			b.ReportMetric(median(rss), "MiB-rss")
			if bc.name == "html" {
				if st, err := os.Stat(out); err == nil {
					b.ReportMetric(float64(st.Size())/1e6, "MB-page")
				}
			}
		})
	}
	b.Run("html-per-json", func(b *testing.B) {
		var js, hs []float64
		for b.Loop() {
			j, _ := runCPU(b, append(jsonArgs, in...))
			h, _ := runCPU(b, append(htmlArgs, in...))
			js, hs = append(js, j), append(hs, h)
		}
		b.ReportMetric(median(hs)/median(js), "x-json")
	})
}

// runCPU runs recap with args and returns its CPU time, user and system,
// in seconds, and its peak RSS in MiB.
func runCPU(b *testing.B, args []string) (float64, float64) {
	cmd := exec.Command(bin, args...)
	if err := cmd.Run(); err != nil {
		b.Fatalf("recap %v: %v", args, err)
	}
	st := cmd.ProcessState
	var rss float64
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		rss = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	return (st.UserTime() + st.SystemTime()).Seconds(), rss
}

// median is the median of xs (sorted in place).
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// BenchmarkHTMLBrowser opens the HTML report in headless Chromium: the
// time to the first contentful paint and to the headline and charts drawn
// (goal ≤ 2 s), to the list of every problem ready, and of a filter
// change, painted (goal ≤ 200 ms), on the sample and on Spring's reports.
func BenchmarkHTMLBrowser(b *testing.B) {
	root := reportstest.RepoRoot(b)
	for _, bc := range []struct {
		name string
		args []string
	}{
		{"sample", []string{"summary", "--repo", filepath.Join(root, "testdata", "sample"), filepath.Join(root, "testdata", "reports")}},
		{"spring", append([]string{"summary"}, springReports(b)...)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			page := filepath.Join(b.TempDir(), "report.html")
			cmd := exec.Command(bin, append(append([]string{}, bc.args...), "--format", "html", "--output", page)...)
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("recap: %v\n%s", err, out)
			}
			br := newBrowser(b, false)
			var paint, charts, ready, filter, rows float64
			for b.Loop() {
				br.open(b, page)
				var m struct{ Paint, Charts, Ready, Filter, Rows float64 }
				br.eval(b, `(async () => {
  const fcp = performance.getEntriesByType('paint').find(e => e.name === 'first-contentful-paint');
  const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const c = document.getElementById('filter-impact');
  const t0 = performance.now();
  c.value = c.options[c.options.length - 1].value;
  c.dispatchEvent(new Event('change'));
  await frame();
  const filter = performance.now() - t0;
  c.value = '';
  c.dispatchEvent(new Event('change'));
  return {paint: fcp ? fcp.startTime : -1, charts: window.recapReport.painted, ready: window.recapReport.loaded, filter, rows: window.recapReport.rows};
})()`, &m)
				paint += m.Paint
				charts += m.Charts
				ready += m.Ready
				filter += m.Filter
				rows = m.Rows
			}
			n := float64(b.N)
			b.ReportMetric(paint/n, "ms-first-paint")
			b.ReportMetric(charts/n, "ms-charts")
			b.ReportMetric(ready/n, "ms-ready")
			b.ReportMetric(filter/n, "ms-filter")
			b.ReportMetric(rows, "problems")
			br.quiet(b, page)
		})
	}
}
