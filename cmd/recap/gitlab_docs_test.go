package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"gopkg.in/yaml.v3"
)

// TestDocumentedGitLabPipelines: every GitLab CI job of the docs and the
// README parses as YAML and has the shape GitLab reads: a script of
// commands (strings), rules of conditions, and a Code Quality report
// artifact where the job writes one.
func TestDocumentedGitLabPipelines(t *testing.T) {
	root := reportstest.RepoRoot(t)
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	n, codequality := 0, 0
	for _, doc := range append(docs, filepath.Join(root, "README.md")) {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range yamlBlock.FindAllStringSubmatch(string(b), -1) {
			if workflow.MatchString(m[1]) || !strings.Contains(m[1], "script:") {
				continue // a GitHub workflow, or no GitLab job
			}
			n++
			where := filepath.Base(doc) + ", YAML block " + itoa(i+1)
			var jobs map[string]struct {
				Image     string              `yaml:"image"`
				Script    []string            `yaml:"script"`
				Rules     []map[string]string `yaml:"rules"`
				Variables map[string]string   `yaml:"variables"`
				Artifacts struct {
					When    string            `yaml:"when"`
					Reports map[string]string `yaml:"reports"`
					Paths   []string          `yaml:"paths"`
				} `yaml:"artifacts"`
			}
			if err := yaml.Unmarshal([]byte(m[1]), &jobs); err != nil {
				t.Errorf("%s: not a GitLab CI job: %v", where, err)
				continue
			}
			for name, job := range jobs {
				if len(job.Script) == 0 || job.Image == "" {
					t.Errorf("%s: job %s has no script or image", where, name)
				}
				for _, r := range job.Rules {
					if r["if"] == "" {
						t.Errorf("%s: job %s: a rule without if: %v", where, name, r)
					}
				}
				script := strings.Join(job.Script, "\n")
				if strings.Contains(script, "--format codeclimate") {
					codequality++
					if f := job.Artifacts.Reports["codequality"]; f == "" || !strings.Contains(script, "> "+f) || job.Artifacts.When != "always" {
						t.Errorf("%s: job %s writes a Code Quality report but artifacts: reports: codequality: is %q (when %q)", where, name, f, job.Artifacts.When)
					}
				}
			}
		}
	}
	if n == 0 || codequality == 0 {
		t.Errorf("%d GitLab jobs in the docs, %d with a Code Quality report", n, codequality)
	}
}
