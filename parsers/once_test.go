package parsers_test

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/reports/reportstest"
)

// TestReadOnce: a file named twice, a directory and a file in it, a copy
// and a gzip copy of a report are read once, the kept input naming the
// others; recap's own SARIF found by a search is left out with a warning,
// and read when named.
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
		"build/copy/pmd.sarif": {"build/old/pmd.sarif.gz has the same content: counted once", "build/pmd.sarif has the same content: counted once"},
		"build/recap.sarif":    {"recap's own SARIF, made from other reports: not read (name it to read it)"},
	}
	// The copy found first in the search's order is kept; the named file
	// after the search is the same as the search's build/pmd.sarif.
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	if n, _ := read(recapSARIF); n == 0 {
		t.Error("recap's SARIF named: no finding read")
	}
}
