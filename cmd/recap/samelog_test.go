package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// TestWarningsOnceInOneLog: with standard output and standard error in one
// file (2>&1, a CI log), an input's warning is not written again on
// standard error when the text or Markdown view shows it; standard error
// has it when apart, when the format does not show it (json), and when a
// budget left the view's warnings out.
func TestWarningsOnceInOneLog(t *testing.T) {
	root := reportstest.RepoRoot(t)
	const line = "recap: warning: testdata/reports/checkstyle.xml: paths under /home/runner/work/shop/shop"
	for _, tc := range []struct {
		name   string
		args   []string
		oneLog bool
		want   bool // the line on standard error
	}{
		{"text, one log", nil, true, false},
		{"markdown, one log", []string{"--format", "markdown"}, true, false},
		{"text, apart", nil, false, true},
		{"json, one log", []string{"--format", "json"}, true, true},
		{"text within a budget that leaves the warnings out, one log", []string{"--max-tokens", "256"}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(bin, append(append([]string{"summary", "--repo", "testdata/sample"}, tc.args...), "testdata/reports")...)
			cmd.Dir = root
			log, err := os.Create(filepath.Join(dir, "log"))
			if err != nil {
				t.Fatal(err)
			}
			defer log.Close()
			cmd.Stdout, cmd.Stderr = log, log
			if !tc.oneLog {
				out, err := os.Create(filepath.Join(dir, "out"))
				if err != nil {
					t.Fatal(err)
				}
				defer out.Close()
				cmd.Stdout = out
			}
			if err := cmd.Run(); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(log.Name())
			if got := strings.Contains(string(b), line); got != tc.want {
				t.Errorf("standard error has the warning: %v, want %v:\n%s", got, tc.want, b)
			}
			if tc.oneLog && !tc.want && !strings.Contains(string(b), "paths under /home/runner/work/shop/shop") {
				t.Errorf("the view does not show the warning:\n%s", b)
			}
		})
	}
}
