package main

import (
	"os"
	"os/exec"
	"path/filepath"
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
// the page does. Whole processes, as a user runs them.
func BenchmarkHTMLWrite(b *testing.B) {
	in := springReports(b)
	out := filepath.Join(b.TempDir(), "report.html")
	for _, bc := range []struct {
		name string
		args []string
	}{
		{"json", []string{"summary", "--format", "json"}},
		{"sarif", []string{"summary", "--format", "sarif", "--output", out}},
		{"codeclimate", []string{"summary", "--format", "codeclimate", "--output", out}},
		{"html", []string{"summary", "--format", "html", "--output", out}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(bin, append(bc.args, in...)...)
				if err := cmd.Run(); err != nil {
					b.Fatalf("recap %v: %v", bc.args, err)
				}
			}
			if bc.name == "html" {
				if st, err := os.Stat(out); err == nil {
					b.ReportMetric(float64(st.Size())/1e6, "MB-page")
				}
			}
		})
	}
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
