package parsers_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

// gosecPath is gosec on PATH or in GOPATH/bin, or skips the test.
func gosecPath(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("gosec"); err == nil {
		return p
	}
	if gopath, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(gopath)), "bin", "gosec")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("gosec not found (go install github.com/securego/gosec/v2/cmd/gosec@v2.30.0)")
	return ""
}

// TestGosecImportance runs the real gosec (2.30.0) on testdata/gosec and
// reads its SARIF: each rule's impact is gosec's severity, its tag (MEDIUM,
// which gosec writes as an error, is medium: G304's path of CWE-22, a Top
// 25 weakness, stays medium), never raised by the CWE floor; the CWE ids
// come from the rules' relationships.
func TestGosecImportance(t *testing.T) {
	gosec := gosecPath(t)
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "gosec", "main.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"main.go": src, "go.mod": []byte("module example.com/faulty\n\ngo 1.22\n")} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "gosec.sarif")
	cmd := exec.Command(gosec, "-quiet", "-no-fail", "-fmt", "sarif", "-out", out, "./...")
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gosec: %v\n%s", err, b)
	}
	got := map[string]string{}
	_, err = parsers.ReadAll([]string{out}, parsers.ReadOptions{Root: dir}, func(f reports.Finding) error {
		got[f.Rule] = fmt.Sprintf("%s %s %s CWE%v", f.Severity, f.Quality, f.Impact, f.CWE)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{ // as gosec 2.30.0 reports testdata/gosec
		"G101": "error security high CWE[798]",   // HIGH
		"G304": "error security medium CWE[22]",  // MEDIUM
		"G401": "error security medium CWE[328]", // MEDIUM
		"G404": "error security high CWE[338]",   // HIGH
		"G501": "error security medium CWE[327]", // MEDIUM: the md5 import
		"G701": "error security high CWE[89]",    // HIGH: the SQL of a tainted name
		"G703": "error security high CWE[22]",    // HIGH: the tainted path
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("gosec's findings (-want +got):\n%s", diff)
	}
}
