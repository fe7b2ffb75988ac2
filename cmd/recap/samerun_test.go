package main

import (
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/hostile"
	"github.com/recap-dev/recap/internal/tooltest"
)

// TestSameRunGate: the quality gate sees every report another claims to
// be. With a SARIF log committed in the repository that claims the run of
// target/pmd.xml (hostile.ClaimedRun), the real priority-1
// HardCodedCryptoKey is listed and --fail-on high fails; two modules'
// reports (hostile.TwoModules) give both findings. One ESLint run in three
// formats side by side gives its findings once (the real ESLint, when
// installed).
func TestSameRunGate(t *testing.T) {
	tests := []struct {
		name  string
		make  func(t *testing.T, dir string)
		args  []string
		code  int
		wants []string // in standard output
		not   string   // not in standard output ("" none)
	}{
		{"a SARIF elsewhere claiming the run", claimed, []string{"findings", "--fail-on", "high", "."}, 1,
			[]string{"src/main/java/com/example/Crypto.java:12", "HardCodedCryptoKey", "Do not use hard coded encryption keys", "4 findings"}, "counted once"},
		{"two modules", func(t *testing.T, dir string) { must(t, hostile.TwoModules(dir)) }, []string{"summary", "."}, 0,
			[]string{"2 findings", "from 2 inputs"}, "counted once"},
		{"one ESLint run in three formats", func(t *testing.T, dir string) {
			tooltest.CopyESLintSample(t, dir)
			tooltest.RunESLint(t, dir, "src", "reports")
		}, []string{"summary", "reports"}, 0, []string{"8 findings", "from 1 input", "counted once"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.make(t, dir)
			stdout, stderr, code := recap(t, dir, nil, append([]string{"--repo", dir}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tt.code, stdout, stderr)
			}
			for _, w := range tt.wants {
				if !strings.Contains(stdout, w) {
					t.Errorf("no %q in:\n%s", w, stdout)
				}
			}
			if tt.not != "" && strings.Contains(stdout, tt.not) {
				t.Errorf("%q in:\n%s", tt.not, stdout)
			}
		})
	}
}

func claimed(t *testing.T, dir string) { must(t, hostile.ClaimedRun(dir)) }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
