package parsers_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

// TestReadOnce: a file named twice, a directory and a file in it, a copy
// and a gzip copy of a report are read once, the kept input naming the
// others; recap's own SARIF found by a search is left out with a warning,
// and read when named (but not beside other reports).
func TestReadOnce(t *testing.T) {
	root := reportstest.RepoRoot(t)
	pmd, err := os.ReadFile(filepath.Join(root, "testdata", "reports", "pmd.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	own, err := os.ReadFile(filepath.Join(root, "testdata", "golden", "findings.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("build/pmd.sarif", pmd)
	write("build/copy/pmd.sarif", pmd)
	gz, err := os.Create(filepath.Join(dir, "build", "old", "pmd.sarif.gz"))
	if err != nil {
		if err := os.MkdirAll(filepath.Join(dir, "build", "old"), 0o755); err != nil {
			t.Fatal(err)
		}
		if gz, err = os.Create(filepath.Join(dir, "build", "old", "pmd.sarif.gz")); err != nil {
			t.Fatal(err)
		}
	}
	zw := gzip.NewWriter(gz)
	zw.Write(pmd)
	zw.Close()
	gz.Close()
	recapSARIF := write("build/recap.sarif", own)
	quality, err := os.ReadFile(filepath.Join(root, "summarize", "render", "testdata", "grouped.codeclimate.golden"))
	if err != nil {
		t.Fatal(err)
	}
	recapQuality := write("build/gl-code-quality-report.json", quality)
	view, err := os.ReadFile(filepath.Join(root, "testdata", "golden", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	write("build/recap-summary.json", view)

	read := func(args ...string) (int, []reports.Input) {
		n := 0
		inputs, err := parsers.ReadAll(args, parsers.ReadOptions{}, func(reports.Finding) error { n++; return nil })
		if err != nil {
			t.Fatal(err)
		}
		return n, inputs
	}
	n, inputs := read(filepath.Join(dir, "build"), a)
	if n != tooltest.SamplePMD {
		t.Errorf("%d findings, want PMD's %d once", n, tooltest.SamplePMD)
	}
	got := map[string][]string{}
	for _, in := range inputs {
		var ws []string
		for _, w := range in.Warnings {
			if strings.Contains(w, "once") || strings.Contains(w, "recap's own") {
				ws = append(ws, strings.ReplaceAll(w, dir+string(filepath.Separator), ""))
			}
		}
		got[strings.TrimPrefix(in.Path, dir+string(filepath.Separator))] = ws
	}
	want := map[string][]string{
		"build/copy/pmd.sarif":              {"build/old/pmd.sarif.gz has the same content: counted once", "build/pmd.sarif has the same content: counted once"},
		"build/recap.sarif":                 {"recap's own SARIF, made from other reports: not read (name it alone to read it)"},
		"build/gl-code-quality-report.json": {"recap's own Code Quality report, made from other reports: not read (name it alone to read it)"},
		"build/recap-summary.json":          {"recap's own JSON output: no report, not read"},
	}
	// The copy found first in the search's order is kept; the named file
	// after the search is the same as the search's build/pmd.sarif.
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	// recap's own outputs are listed, not counted as inputs read: the
	// copy and the named file are one input, left out of the list.
	if got := reports.CountRead(inputs); got != 1 {
		t.Errorf("%d inputs read of %d listed, want 1 (the PMD report): %+v", got, len(inputs), inputs)
	}
	// Named alone, or with another of recap's outputs: read, as asked.
	// Named beside a report (a shell's glob), or beside a directory of
	// reports: left out, said so, as its findings came from reports.
	beside := map[string]string{
		recapSARIF:   "recap's own SARIF, named beside other reports: not read, as its findings came from reports and would count twice (name it alone to read it)",
		recapQuality: "recap's own Code Quality report, named beside other reports: not read, as its findings came from reports and would count twice (name it alone to read it)",
	}
	for _, own := range []string{recapSARIF, recapQuality} {
		if n, inputs := read(own); n == 0 || len(inputs) != 1 || inputs[0].LeftOut {
			t.Errorf("%s named: %d findings read, inputs %+v", own, n, inputs)
		}
		for _, other := range []string{a, filepath.Join(dir, "build", "copy")} {
			n, inputs := read(other, own)
			if n != tooltest.SamplePMD || len(inputs) != 2 || !inputs[1].LeftOut || !slices.Equal(inputs[1].Warnings, []string{beside[own]}) {
				t.Errorf("%s named beside %s: %d findings, inputs %+v", own, other, n, inputs)
			}
		}
	}
	if n, inputs := read(recapSARIF, recapQuality); n == 0 || inputs[0].LeftOut || inputs[1].LeftOut {
		t.Errorf("recap's outputs named together: %d findings, %+v", n, inputs)
	}
}

// TestRecapOutput: recap's outputs are told from the reports of the corpus
// and from other tools' Code Quality reports, gzip'd or not.
func TestRecapOutput(t *testing.T) {
	root := reportstest.RepoRoot(t)
	ownOf := func(name string, b []byte) parsers.Format {
		own, ok := parsers.RecapOutput(name, strings.NewReader(string(b)), int64(len(b)))
		if !ok {
			return "none"
		}
		return parsers.Format(own.Format)
	}
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	read := func(p string) []byte {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		path, name string
		want       parsers.Format
	}{
		{"testdata/golden/findings.sarif", "findings.sarif", parsers.FormatSARIF},
		{"summarize/render/testdata/grouped.codeclimate.golden", "gl-code-quality-report.json", parsers.FormatCodeClimate},
		{"summarize/render/testdata/detail.codeclimate.golden", "quality.json", parsers.FormatCodeClimate},
		{"summarize/render/testdata/grouped.codeclimate.golden", "quality.txt", "none"}, // a search reads .json
		{"testdata/golden/summary.json", "summary.json", ""},
		{"testdata/golden/findings.json", "findings.json", ""},
		{"testdata/golden/tokens.json", "tokens.json", "none"},
		{"testdata/reports/pmd.sarif", "pmd.sarif", "none"},
	} {
		b := read(filepath.Join(root, tc.path))
		if got := ownOf(tc.name, b); got != tc.want {
			t.Errorf("%s as %s: %q, want %q", tc.path, tc.name, got, tc.want)
		}
		if got := ownOf(tc.name+".gz", gz(b)); got != tc.want {
			t.Errorf("%s gzip'd as %s.gz: %q, want %q", tc.path, tc.name, got, tc.want)
		}
	}
	// A SARIF whose runs end with recap's conversion (as recap wrote them
	// before they began with it) is told by its last bytes, not gzip'd.
	old := []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD"}},"results":[],"conversion":{"tool":{"driver":{"informationUri":"https://github.com/recap-dev/recap","name":"recap"}}}}]}`)
	if got := ownOf("old.sarif", old); got != parsers.FormatSARIF {
		t.Errorf("a run ending with recap's conversion: %q", got)
	}
	if got := ownOf("old.sarif", gz(old)); got != "none" {
		t.Errorf("gzip bytes named .sarif: %q", got)
	}
	if got := ownOf("x.sarif.gz", []byte("not gzip")); got != "none" {
		t.Errorf("a broken gzip file: %q", got)
	}
	other := map[string]string{
		"Code Climate's engine": `[{"type":"issue","check_name":"no-unused-vars","description":"x","engine_name":"eslint","location":{"path":"a.js","lines":{"begin":1}}}]`,
		"another key order":     `[{"check_name":"eslint/no-unused-vars","type":"issue","description":"x","engine_name":"eslint"}]`,
		"no engine":             `[{"type":"issue","check_name":"eslint/no-unused-vars","description":"x"}]`,
		"the first issue cut":   `[{"type":"issue","check_name":"eslint/x","description":"` + strings.Repeat("y", 20<<10) + `","engine_name":"eslint"}]`,
		"a summary elsewhere":   `{"runs":[],"summary":{"total":1}}`,
		"recap's run second":    `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD"}},"results":[]},{"conversion":{"tool":{"driver":{"informationUri":"https://github.com/recap-dev/recap","name":"recap"}}}` + strings.Repeat(" ", 5<<10) + `}]}`,
	}
	for name, b := range other {
		if got := ownOf("r.json", []byte(b)); got != "none" {
			t.Errorf("%s: taken for recap's %q", name, got)
		}
		if got := ownOf("r.json.gz", gz([]byte(b))); got != "none" {
			t.Errorf("%s gzip'd: taken for recap's %q", name, got)
		}
	}
	// No report of the corpus is taken for one of recap's.
	corpus := reportstest.SharedDir(t, "corpus")
	n := 0
	err := filepath.WalkDir(corpus, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		b := read(p)
		if got := ownOf(p, b); got != "none" {
			t.Errorf("%s: taken for recap's %q", p, got)
		}
		if got := ownOf(p+".gz", gz(b)); got != "none" {
			t.Errorf("%s gzip'd: taken for recap's %q", p, got)
		}
		return nil
	})
	if err != nil || n < 40 {
		t.Fatalf("%v; %d corpus files", err, n)
	}
}
