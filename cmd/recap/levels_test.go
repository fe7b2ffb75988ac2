package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// The sample's SQL injection: SpotBugs rates it a warning (rank 10, as its SARIF does), recap's
// impact is high (security, CWE-89).
const sqlRule = "SQL_NONCONSTANT_STRING_PASSED_TO_EXECUTE"

// TestLevelsFollowImpact: every output with levels gives the sample's SQL
// injection its impact's level (docs/ci.md, "Levels"), not SpotBugs' warning:
// an ::error annotation, a critical Code Quality issue, a SARIF error
// whose rule has a security-severity; the SARIF keeps SpotBugs' level as
// toolLevel, and recap reads it back as the finding's severity.
func TestLevelsFollowImpact(t *testing.T) {
	root := reportstest.RepoRoot(t)
	tests := []struct {
		format string
		check  func(t *testing.T, out string)
	}{
		{"github", func(t *testing.T, out string) {
			var levels []string
			for _, line := range strings.Split(out, "\n") {
				if strings.Contains(line, "title=SpotBugs "+sqlRule+"::") {
					levels = append(levels, line[:strings.IndexByte(line, ' ')])
				}
			}
			if len(levels) != 1 || levels[0] != "::error" {
				t.Errorf("the SQL injection's annotations: %q, want one ::error\n%s", levels, out)
			}
		}},
		{"codeclimate", func(t *testing.T, out string) {
			var issues []struct {
				CheckName string `json:"check_name"`
				Severity  string `json:"severity"`
			}
			if err := json.Unmarshal([]byte(out), &issues); err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, is := range issues {
				if is.CheckName == "SpotBugs/"+sqlRule {
					n++
					if is.Severity != "critical" {
						t.Errorf("the SQL injection's Code Quality severity is %q, want critical", is.Severity)
					}
				}
			}
			if n != 1 {
				t.Errorf("%d issues of the SQL injection, want 1", n)
			}
		}},
		{"sarif", func(t *testing.T, out string) {
			var log struct {
				Runs []struct {
					Tool struct {
						Driver struct {
							Rules []struct {
								ID         string         `json:"id"`
								Properties map[string]any `json:"properties"`
							} `json:"rules"`
						} `json:"driver"`
					} `json:"tool"`
					Results []struct {
						RuleID     string         `json:"ruleId"`
						RuleIndex  int            `json:"ruleIndex"`
						Level      string         `json:"level"`
						Properties map[string]any `json:"properties"`
					} `json:"results"`
				} `json:"runs"`
			}
			if err := json.Unmarshal([]byte(out), &log); err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, run := range log.Runs {
				for _, res := range run.Results {
					if res.RuleID != sqlRule {
						continue
					}
					n++
					if res.Level != "error" || res.Properties["toolLevel"] != "warning" {
						t.Errorf("the SQL injection: level %q, toolLevel %v; want error and warning (SpotBugs' level of rank 10)", res.Level, res.Properties["toolLevel"])
					}
					rule := run.Tool.Driver.Rules[res.RuleIndex]
					if rule.ID != sqlRule || rule.Properties["security-severity"] != "8.0" || rule.Properties["securitySeverityFrom"] != "impact" {
						t.Errorf("the SQL injection's rule %s: properties %v, want security-severity 8.0 from the impact", rule.ID, rule.Properties)
					}
				}
			}
			if n != 1 {
				t.Fatalf("%d results of the SQL injection, want 1", n)
			}
			// Read back, the finding has SpotBugs' severity and recap's
			// impact, and no security severity of its own.
			file := filepath.Join(t.TempDir(), "recap.sarif")
			if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			js, stderr, code := recap(t, root, nil, "findings", "--format", "json", "--no-context", "--limit", "200", "--max-tokens", "25000", "--repo", "testdata/sample", file)
			if code != 0 {
				t.Fatalf("reading recap's SARIF back: exit %d: %s", code, stderr)
			}
			var v struct {
				Findings []struct {
					Rule             string  `json:"rule"`
					Severity         string  `json:"severity"`
					Impact           string  `json:"impact"`
					SecuritySeverity float64 `json:"securitySeverity"`
				} `json:"findings"`
			}
			if err := json.Unmarshal([]byte(js), &v); err != nil {
				t.Fatal(err)
			}
			n = 0
			for _, f := range v.Findings {
				if f.Rule == sqlRule {
					n++
					if f.Severity != "warning" || f.Impact != "high" || f.SecuritySeverity != 0 {
						t.Errorf("read back: %+v, want severity warning, impact high, no security severity", f)
					}
				}
			}
			if n != 1 {
				t.Errorf("read back: %d findings of the SQL injection, want 1", n)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.format, func(t *testing.T) {
			out, stderr, code := recap(t, root, nil, "findings", "--format", tc.format, "--repo", "testdata/sample", "testdata/reports")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			tc.check(t, out)
		})
	}
}
