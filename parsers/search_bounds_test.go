package parsers

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/inputs"
	"github.com/recap-dev/recap/reports"
)

// TestSearchBounds: a directory search stops at its bounds (files and
// directories visited, reports found), reads the reports found before,
// and names the directory with the bound in an input error.
func TestSearchBounds(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 10; i++ {
		log := fmt.Sprintf(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"f%d.java"},"region":{"startLine":1}}}]}]}]}`, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%02d.sarif", i)), []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name             string
		entries, reports int
		findings         int
		want             string
	}{
		{"within", 100, 100, 10, ""},
		{"entries", 5, 100, 4, "the search stopped after 5 files and directories, its bound"},
		{"reports", 100, 3, 3, "the search stopped after 3 reports, its bound"},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func(e, r int) { searchEntries, searchReports = e, r }(searchEntries, searchReports)
			searchEntries, searchReports = c.entries, c.reports
			n := 0
			ins, err := ReadAll([]string{dir}, ReadOptions{}, func(reports.Finding) error { n++; return nil })
			if err != nil {
				t.Fatal(err)
			}
			var errs []string
			for _, in := range ins {
				if in.Error != "" {
					errs = append(errs, in.Error)
				}
			}
			if n != c.findings {
				t.Errorf("%d findings, want %d", n, c.findings)
			}
			switch {
			case c.want == "" && len(errs) > 0:
				t.Errorf("errors %q", errs)
			case c.want != "" && (len(errs) != 1 || !strings.HasPrefix(errs[0], dir+": "+c.want)):
				t.Errorf("errors %q, want one naming %s with %q", errs, dir, c.want)
			}
		})
	}
}

// BenchmarkOnceOneSize: a directory of n one-finding logs of one size (each
// compared by content with the others) read once each, at n and 4n: the
// time an input stays about the same (each file was compared again with
// every earlier one of its size: 200,000 reports took 230 s of CPU).
func BenchmarkOnceOneSize(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := b.TempDir()
			var srcs []source
			for i := 0; i < n; i++ {
				p := filepath.Join(dir, fmt.Sprintf("r%07d.sarif", i))
				log := fmt.Sprintf(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"f%07d.java"}}}]}]}]}`, i)
				if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
					b.Fatal(err)
				}
				srcs = append(srcs, source{name: p, found: true})
			}
			b.ResetTimer()
			for range b.N {
				if out, _, _ := once(srcs, inputs.New(nil, Look)); len(out) != n {
					b.Fatalf("%d kept, want %d", len(out), n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/input")
		})
	}
}
