package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// sqlInjection is the sample's SQL injection, which FindBugs ranks 10 (a
// warning, as SpotBugs' SARIF maps it; SECURITY) while Checkstyle writes every nit as an error.
const sqlInjection = "SQL_NONCONSTANT_STRING_PASSED_TO_EXECUTE"

// TestWhatMattersFirst: on the sample (Checkstyle's sun_checks, PMD 7,
// FindBugs), the first thing each door shows is the SQL injection, not the
// configurable style errors: the first finding of recap findings, a
// comment of the review (of 30, the most important), the check run's first
// annotation, and the counts of the review's body, by impact first.
func TestWhatMattersFirst(t *testing.T) {
	root := reportstest.RepoRoot(t)
	out, errOut, code := recap(t, root, nil, "findings", "--format", "json", "--limit", "1", "--repo", "testdata/sample", "testdata/reports")
	var v struct {
		Findings []struct{ Rule, Quality, Impact, Severity, Level string }
	}
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || len(v.Findings) != 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if f := v.Findings[0]; f.Rule != sqlInjection || f.Quality != "security" || f.Impact != "high" || f.Severity != "warning" || f.Level != "error" {
		t.Errorf("first finding %+v, want the SQL injection: security, high, level error, as FindBugs' warning (rank 10)", f)
	}
	text, _, _ := recap(t, root, nil, "findings", "--limit", "1", "--repo", "testdata/sample", "testdata/reports")
	if i := strings.Index(text, "\nhigh    src/main/java/com/example/shop/OrderRepository.java:31  SpotBugs "+sqlInjection+" [security, Security, warning]"); i < 0 {
		t.Errorf("text: the first finding is not the SQL injection:\n%s", text)
	}

	pr := newSamplePR(t)
	out, errOut, code = recap(t, pr.g.Dir, pr.env, "review", "--post", "--checks", "--job-summary", "--api-url", pr.s.URL, pr.reports)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	comments, summaries, _, _ := pr.s.Snapshot()
	found := false
	for _, c := range comments {
		if strings.Contains(c.Body, "SQL&#95;NONCONSTANT&#95;STRING&#95;PASSED&#95;TO&#95;EXECUTE") {
			found = true
			if !strings.HasPrefix(c.Body, "🔴 **high** security (tool's severity: warning) · SpotBugs ") {
				t.Errorf("the SQL injection's comment begins %.80q", c.Body)
			}
		}
	}
	if !found || len(comments) != 30 {
		t.Errorf("%d comments, the SQL injection among them: %v", len(comments), found)
	}
	if len(summaries) != 1 || !strings.Contains(summaries[0].Body, "\n\n**1** high · ") || !strings.Contains(summaries[0].Body, "; **1** about security") {
		t.Errorf("the review's body does not count by impact first:\n%.600s", summaries[0].Body)
	}
	checks := pr.s.Checks()
	if len(checks) != 1 || len(checks[0].Annotations) == 0 || !strings.Contains(checks[0].Annotations[0].Title, sqlInjection) {
		t.Errorf("the check run's first annotation is not the SQL injection: %+v", checks)
	}
	js := readFile(t, pr.summary)
	// The counts by impact, then by the levels the annotations show (the
	// impact's), not the tools' words (71 error, 84 warning, 16 note).
	if !strings.Contains(js, "🔴 **high** security (tool's severity: warning)") || !strings.Contains(js, "**1** high · **34** medium · **136** low (as levels: 1 error, 34 warning, 136 note) in 4 files") ||
		!strings.Contains(js, "<code>src/main/java/com/example/shop/OrderRepository.java</code>: 1 error, 9 warning, 24 note</summary>") {
		t.Errorf("job summary:\n%.1500s", js)
	}
}

// TestImportanceOfSecurityTools: through the command line, a secret
// gitleaks found fails --fail-on high, Flawfinder's lowest-risk note does
// not (its CWE-119 raises nothing above the tool's word), and --cwe 79
// finds Snyk Code's findings of a rule whose CWE ids are in properties.cwe.
func TestImportanceOfSecurityTools(t *testing.T) {
	root := reportstest.RepoRoot(t)
	corpus := filepath.Join(reportstest.SharedDir(t, "corpus"), "sarif-other")
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		findings int
	}{
		{"gitleaks: a secret is high", []string{"--fail-on", "high", filepath.Join(corpus, "gitleaks-8-snippet.sarif")}, 1, 1},
		{"Flawfinder: high and above are its three risk 4–5 hits", []string{"--impact", "high", filepath.Join(corpus, "flawfinder-2.0.20.sarif")}, 0, 3},
		{"Flawfinder: the risk 2 note fails no --fail-on high", []string{"--rule", "FF1013", "--fail-on", "high", filepath.Join(corpus, "flawfinder-2.0.20.sarif")}, 0, 1},
		{"Snyk Code: --cwe 79", []string{"--cwe", "79", filepath.Join(corpus, "snyk-code-categories.sarif")}, 0, 10},
		{"Snyk Code: --cwe CWE-918", []string{"--cwe", "CWE-918", filepath.Join(corpus, "snyk-code-categories.sarif")}, 0, 1},
		{"ESLint: reliability is its problem rules", []string{"--quality", "reliability", filepath.Join(corpus, "eslint-9.36.0-large.sarif")}, 0, 25},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"findings", "--format", "json", "--no-group", "--limit", "1", "--no-context", "--repo", root}, tc.args...)
			out, errOut, code := recap(t, root, nil, args...)
			var v struct {
				Summary struct{ Total int }
			}
			if err := json.Unmarshal([]byte(out), &v); err != nil || code != tc.code || v.Summary.Total != tc.findings {
				t.Errorf("exit %d (want %d), %d findings (want %d), %v\n%s%.400s", code, tc.code, v.Summary.Total, tc.findings, err, errOut, out)
			}
		})
	}
}
