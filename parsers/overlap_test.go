package parsers

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/recap-dev/recap/reports"
)

// TestSameFilesSampled: two reports of one tool on 10,000 files each,
// 6,000 of them the same, hold a sample of their files (at most
// maxFileSet each), and the later says so, with the files in common
// counted among the sample: at least some, never more than there are.
// Of other tools, or other files, nothing is said.
func TestSameFilesSampled(t *testing.T) {
	dir := t.TempDir()
	write := func(name, tool string, from, n int, msg string) string {
		t.Helper()
		var b strings.Builder
		fmt.Fprintf(&b, `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":%q}},"results":[`, tool)
		for i := from; i < from+n; i++ {
			if i > from {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"ruleId":"R","message":{"text":%q},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/f%d.java"},"region":{"startLine":1}}}]}`, msg, i)
		}
		b.WriteString(`]}]}`)
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.sarif", "T", 0, 10_000, "old")
	b := write("b.sarif", "T", 4_000, 10_000, "new")
	c := write("c.sarif", "U", 0, 10_000, "other tool")
	d := write("d.sarif", "T", 50_000, 100, "other files")
	inputs, err := ReadAll([]string{a, b, c, d}, ReadOptions{}, func(reports.Finding) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	said := regexp.MustCompile(`^(.*) is a report of T on the same files too \(at least (\d+) files in common\)`)
	var got []string
	for _, in := range inputs {
		for _, w := range in.Warnings {
			if strings.Contains(w, "same files") {
				got = append(got, filepath.Base(in.Path))
				m := said.FindStringSubmatch(w)
				var n int
				if m != nil {
					fmt.Sscan(m[2], &n)
				}
				if m == nil || m[1] != a || n < 100 || n > 6000 {
					t.Errorf("%s: %q", in.Path, w)
				}
			}
		}
	}
	if strings.Join(got, " ") != "b.sarif" {
		t.Errorf("said by %v, want b.sarif alone", got)
	}
	// The files held of a report of 100,000 files: a sample, bounded.
	var s fileSets
	for i := range 100_000 {
		s.note(0, &reports.Finding{Path: fmt.Sprintf("src/f%d.java", i)})
	}
	if n := len(s.files[0]); n > maxFileSet || n < maxFileSet/4 {
		t.Errorf("%d files held of 100,000, want at most %d and most of that", n, maxFileSet)
	}
}

// TestSameFilesManyInputs: a tool's report for each of 20,000 files (one
// report a file) is looked at once each, not once a pair: nothing is said
// of them, and the one that names a file another names is told, naming
// the first.
func TestSameFilesManyInputs(t *testing.T) {
	const n = 20_000
	inputs := make([]reports.Input, n+1)
	for i := range inputs {
		inputs[i] = reports.Input{Path: fmt.Sprintf("r%d.sarif", i), Tool: "ESLint", Findings: 1}
	}
	asked := 0
	files := func(i int) ([]string, bool) {
		asked++
		if i == n {
			return []string{"src/f7.js"}, false // r7's file
		}
		return []string{fmt.Sprintf("src/f%d.js", i)}, false
	}
	WarnSameFiles(inputs, files)
	if asked != n+1 {
		t.Errorf("the files of %d inputs asked %d times", n+1, asked)
	}
	for i, in := range inputs {
		want := 0
		if i == n {
			want = 1
		}
		if len(in.Warnings) != want {
			t.Fatalf("%s: %q", in.Path, in.Warnings)
		}
	}
	if w := inputs[n].Warnings[0]; !strings.HasPrefix(w, "r7.sarif is a report of ESLint on the same files too (1 file in common)") {
		t.Errorf("the warning: %q", w)
	}
}
