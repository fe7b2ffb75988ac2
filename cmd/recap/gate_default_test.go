package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/recap-dev/recap/internal/reportstest"
)

// TestActionGatesOnImpact: the Action's fail-on is high by default; on the
// sample that gate fails on the SQL injection (impact high, SpotBugs'
// warning) alone, and passes when the configuration excludes it.
func TestActionGatesOnImpact(t *testing.T) {
	root := reportstest.RepoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Inputs map[string]struct {
			Default string `yaml:"default"`
		} `yaml:"inputs"`
	}
	if err := yaml.Unmarshal(b, &meta); err != nil {
		t.Fatal(err)
	}
	failOn := meta.Inputs["fail-on"].Default
	if failOn != "high" {
		t.Fatalf("the Action's fail-on defaults to %q, want high", failOn)
	}
	conf := filepath.Join(t.TempDir(), "recap.yml")
	if err := os.WriteFile(conf, []byte("version: 1\nexclude:\n  rules:\n    - SpotBugs:"+sqlRule+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		says string
	}{
		{"the default gate", []string{"--fail-on", failOn}, 1, "1 problem at or above high"},
		{"the SQL injection excluded", []string{"--fail-on", failOn, "--config", conf}, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"summary", "--repo", "testdata/sample"}, tc.args...)
			_, stderr, code := recap(t, root, nil, append(args, "testdata/reports")...)
			if code != tc.code || !strings.Contains(stderr, tc.says) {
				t.Errorf("exit %d, want %d (%q):\n%s", code, tc.code, tc.says, stderr)
			}
		})
	}
}

// TestActionScriptDefaultGate: action/run.sh gates on high when the
// fail-on input is not set at all (as action.yml's default, for a step
// that runs the script without it), on nothing when it is set and empty
// (a workflow's fail-on set to the empty string), and on what it names;
// on the sample, the SQL injection (impact high, SpotBugs' warning) fails
// the default gate and a configuration that excludes it passes it.
func TestActionScriptDefaultGate(t *testing.T) {
	root := reportstest.RepoRoot(t)
	script := filepath.Join(root, "action", "run.sh")
	conf := filepath.Join(t.TempDir(), "recap.yml")
	if err := os.WriteFile(conf, []byte("version: 1\nexclude:\n  rules:\n    - SpotBugs:"+sqlRule+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unset := "unset"
	tests := []struct {
		name   string
		failOn string // unset: no INPUT_FAIL_ON at all
		config string
		code   int
		says   string
	}{
		{"not set: high", unset, "", 1, "quality gate failed: 1 problem at or above high (--fail-on high)"},
		{"not set, the SQL injection excluded", unset, conf, 0, ""},
		{"set and empty: no gate", "", "", 0, ""},
		{"high", "high", "", 1, "1 problem at or above high"},
		{"error, the tool's word (Checkstyle's errors)", "error", "", 1, "at or above error"},
		{"blocker", "blocker", "", 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var env []string
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "INPUT_") && !strings.HasPrefix(kv, "GITHUB_") {
					env = append(env, kv)
				}
			}
			env = append(env, "RECAP_BIN="+bin, "INPUT_REPORTS=../reports", "INPUT_SUMMARY=false", "INPUT_ANNOTATIONS=false", "INPUT_CONFIG="+tc.config)
			if tc.failOn != unset {
				env = append(env, "INPUT_FAIL_ON="+tc.failOn)
			}
			cmd := exec.Command("bash", script, "run")
			cmd.Dir = filepath.Join(root, "testdata", "sample")
			cmd.Env = env
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code || !strings.Contains(stderr.String(), tc.says) || tc.code == 0 && strings.Contains(stderr.String(), "quality gate") {
				t.Errorf("exit %d, want %d (%q):\n%s", code, tc.code, tc.says, stderr.String())
			}
		})
	}
}
