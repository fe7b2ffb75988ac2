package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// A --path, --tool or --rule that matches no finding of the inputs is
// warned of on stderr, also when it decides a gate: a typo would otherwise
// pass the gate without a word.
func TestUnmatchedFilters(t *testing.T) {
	root := reportstest.RepoRoot(t)
	reports := []string{"--repo", "testdata/sample", "testdata/reports"}
	tests := []struct {
		name string
		args []string
		want []string // lines of stderr that start so, in order; nil: no warning
		code int
	}{
		{"path in the gate", []string{"summary", "--fail-on", "error", "--path", "src/**/*.jav"},
			[]string{"recap: warning: --path src/**/*.jav matches no finding of the inputs"}, 0},
		{"path with --max-new", []string{"summary", "--max-new", "0", "--baseline", "testdata/reports/pmd.sarif", "--path", "src/**/*.jav", "--path", "**/Order.java"},
			[]string{"recap: warning: --path src/**/*.jav matches no finding of the inputs"}, 1},
		{"path in annotations", []string{"findings", "--format", "github", "--fail-on", "note", "--path", "test/**"},
			[]string{"recap: warning: --path test/** matches no finding of the inputs"}, 0},
		{"path that matches", []string{"summary", "--fail-on", "error", "--path", "src/**/*.java"}, nil, 1},
		{"path that matches findings the other filters leave out", []string{"summary", "--fail-on", "error", "--tool", "SpotBugs", "--path", "**/Order.java"}, nil, 0},
		{"tool in the gate", []string{"summary", "--fail-on", "error", "--tool", "SpotBug"},
			[]string{"recap: warning: --tool SpotBug matches no finding of the inputs; closest: SpotBugs"}, 0},
		{"rule and path", []string{"summary", "--fail-on", "error", "--rule", "NoSuchRule", "--path", "docs/*"},
			[]string{"recap: warning: --rule NoSuchRule matches no finding of the inputs", "recap: warning: --path docs/* matches no finding of the inputs"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, append(tc.args, reports...)...)
			cmd.Dir = root
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code {
				t.Errorf("exit code %d, want %d\nstderr:\n%s", code, tc.code, stderr.String())
			}
			var got []string
			for _, line := range strings.Split(stderr.String(), "\n") {
				if strings.Contains(line, "matches no finding") {
					got = append(got, line)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("warnings %q, want %q", got, tc.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("warning %q, want %q…", got[i], tc.want[i])
				}
			}
		})
	}
}
