package summarize_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// TestCollectorRemove: a collector that counted every finding of a corpus
// report and then took some back with Remove gives the same JSON summary,
// every count of it, as one that never saw those: the first finding, the
// last, every other one, every finding of the report's most frequent rule
// (its name then leaves the top lists), those about security (their CWE
// ids), and all of them.
func TestCollectorRemove(t *testing.T) {
	dir, files := reportstest.Corpus(t)
	top := reportstest.RepoRoot(t)
	paths := []string{filepath.Join(top, "testdata", "reports", "pmd.sarif"), filepath.Join(top, "testdata", "reports", "checkstyle.xml"),
		filepath.Join(top, "testdata", "reports", "spotbugs.xml")}
	for _, cf := range files {
		if d := cf.Dir(); d == "pmd-sarif" || d == "spotbugs-sarif" || d == "sarif-other" || d == "checkstyle-xml" {
			paths = append(paths, filepath.Join(dir, cf.Path))
		}
	}
	removes := []struct {
		name string
		pick func(i, n int, f *reports.Finding, first string) bool
	}{
		{"first", func(i, _ int, _ *reports.Finding, _ string) bool { return i == 0 }},
		{"last", func(i, n int, _ *reports.Finding, _ string) bool { return i == n-1 }},
		{"every other", func(i, _ int, _ *reports.Finding, _ string) bool { return i%2 == 1 }},
		{"a whole rule", func(_, _ int, f *reports.Finding, rule string) bool { return f.Rule == rule }},
		{"security", func(_, _ int, f *reports.Finding, _ string) bool { return f.Security() }},
		{"all", func(int, int, *reports.Finding, string) bool { return true }},
	}
	tested := 0
	for _, p := range paths {
		var fs []reports.Finding
		if _, err := parsers.ReadAll([]string{p}, parsers.ReadOptions{}, func(f reports.Finding) error {
			fs = append(fs, f)
			return nil
		}); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if len(fs) == 0 || len(fs) > 200_000 {
			continue
		}
		tested++
		byRule := map[string]int{}
		for i := range fs {
			byRule[fs[i].Rule]++
		}
		most := fs[0].Rule
		for r, n := range byRule {
			if n > byRule[most] || n == byRule[most] && r < most {
				most = r
			}
		}
		for _, rm := range removes {
			all, without := summarize.NewCollector(), summarize.NewCollector()
			var gone []reports.Finding
			for i := range fs {
				all.Add(fs[i])
				if rm.pick(i, len(fs), &fs[i], most) {
					gone = append(gone, fs[i])
				} else {
					without.Add(fs[i])
				}
			}
			if !all.Exact() {
				t.Fatalf("%s: not exact", p)
			}
			for _, f := range gone {
				all.Remove(f)
			}
			got, _ := json.Marshal(all.Summary())
			want, _ := json.Marshal(without.Summary())
			if d := cmp.Diff(string(want), string(got)); d != "" {
				t.Errorf("%s, %s removed (%d of %d): summary differs (-never saw +removed):\n%s", filepath.Base(p), rm.name, len(gone), len(fs), d)
			}
		}
	}
	if tested < 5 {
		t.Errorf("%d reports tested", tested)
	}
}

// TestCollectorExact: a collector is exact until a tally passes
// MaxDistinct names.
func TestCollectorExact(t *testing.T) {
	c := summarize.NewCollector()
	for i := range summarize.MaxDistinct {
		c.Add(reports.Finding{Tool: "t", Rule: "r", Path: "f" + string(rune('a'+i%26)) + itoa(i)})
	}
	if !c.Exact() {
		t.Fatalf("not exact at %d files", summarize.MaxDistinct)
	}
	c.Add(reports.Finding{Tool: "t", Rule: "r", Path: "one more"})
	if c.Exact() {
		t.Errorf("exact past %d files", summarize.MaxDistinct)
	}
}

func itoa(i int) string {
	b := []byte{}
	for {
		b = append([]byte{byte('0' + i%10)}, b...)
		if i /= 10; i == 0 {
			return string(b)
		}
	}
}
