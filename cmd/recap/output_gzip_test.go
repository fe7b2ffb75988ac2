package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// TestOutputGzip: --output (-o) a name ending .gz writes the output gzip'd, the
// same bytes once undone; a search of its directory leaves it out as
// recap's own output.
func TestOutputGzip(t *testing.T) {
	root := reportstest.RepoRoot(t)
	dir := t.TempDir()
	for _, format := range []string{"sarif", "json", "html"} {
		t.Run(format, func(t *testing.T) {
			plain, gz := filepath.Join(dir, "out."+format), filepath.Join(dir, "out."+format+".gz")
			for flag, out := range map[string]string{"--output": plain, "-o": gz} {
				if _, stderr, code := recap(t, root, nil, "summary", "--format", format, flag, out, "--repo", "testdata/sample", "testdata/reports"); code != 0 {
					t.Fatalf("%s %s: exit %d\n%s", flag, out, code, stderr)
				}
			}
			want, err := os.ReadFile(plain)
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(gz)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			zr, err := gzip.NewReader(f)
			if err != nil {
				t.Fatalf("%s is no gzip file: %v", gz, err)
			}
			got, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s undone: %d bytes (%v), want the %d of %s", gz, len(got), err, len(want), plain)
			}
		})
	}
	// The directory holds the sample's reports and recap's outputs: only
	// the reports are read.
	for _, name := range []string{"pmd.sarif", "checkstyle.xml", "spotbugs.xml"} {
		b, err := os.ReadFile(filepath.Join(root, "testdata", "reports", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, stderr, code := recap(t, root, nil, "summary", "--repo", "testdata/sample", dir)
	if code != 0 || !bytes.HasPrefix([]byte(out), []byte("171 findings, 115 problems (51 reported more than once) in 4 files from 3 inputs\n")) {
		t.Errorf("the directory with recap's gzip'd outputs: exit %d\n%s%s", code, out, stderr)
	}
}
