package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// actionlint finds rhysd/actionlint (scripts/test installs it with go
// install), or skips the test.
func actionlint(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("actionlint"); err == nil {
		return p
	}
	if gopath, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(gopath)), "bin", "actionlint")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("actionlint not found (go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.7)")
	return ""
}

var (
	yamlBlock = regexp.MustCompile("(?ms)^```ya?ml\n(.*?)^```")
	workflow  = regexp.MustCompile(`(?m)^on:[\s\S]*^jobs:`)
)

// TestDocumentedWorkflows: every GitHub Actions workflow of the docs and the
// README passes actionlint.
func TestDocumentedWorkflows(t *testing.T) {
	bin := actionlint(t)
	root := reportstest.RepoRoot(t)
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append(docs, filepath.Join(root, "README.md"))
	n := 0
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range yamlBlock.FindAllStringSubmatch(string(b), -1) {
			if !workflow.MatchString(m[1]) {
				continue // not a GitHub Actions workflow (GitLab CI, a config)
			}
			n++
			name := strings.TrimSuffix(filepath.Base(doc), ".md") + "-" + itoa(i+1) + ".yml"
			dir := t.TempDir()
			file := filepath.Join(dir, ".github", "workflows", name)
			os.MkdirAll(filepath.Dir(file), 0o755)
			if err := os.WriteFile(file, []byte(m[1]), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "-no-color", file)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s, workflow %d: actionlint: %v\n%s", filepath.Base(doc), i+1, err, out)
			}
		}
	}
	if n < 3 {
		t.Errorf("%d workflows found in the docs, want the 3 of docs/ci.md at least", n)
	}
}
