package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/recap-dev/recap/reports/reportstest"
)

// TestActionGatesOnImpact: the Action's fail-on is high by default; on the
// sample that gate fails on the SQL injection (impact high, SpotBugs'
// note) alone, and passes when the configuration excludes it.
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
