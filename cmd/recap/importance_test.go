package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/recap-dev/recap/reports/reportstest"
)

// sqlInjection is the sample's SQL injection, which FindBugs reports as a
// note (rank 10, SECURITY) while Checkstyle writes every nit as an error.
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
		Findings []struct{ Rule, Quality, Impact, Severity string }
	}
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || len(v.Findings) != 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if f := v.Findings[0]; f.Rule != sqlInjection || f.Quality != "security" || f.Impact != "high" || f.Severity != "note" {
		t.Errorf("first finding %+v, want the SQL injection: security, high, as FindBugs' note", f)
	}
	text, _, _ := recap(t, root, nil, "findings", "--limit", "1", "--repo", "testdata/sample", "testdata/reports")
	if i := strings.Index(text, "\nhigh    src/main/java/com/example/shop/OrderRepository.java:31  SpotBugs "+sqlInjection+" [security, Security, note]"); i < 0 {
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
			if !strings.HasPrefix(c.Body, "🔴 **high** security, note · SpotBugs ") {
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
	if !strings.Contains(js, "🔴 **high** security, note") || !strings.Contains(js, "**1** high · ") {
		t.Errorf("job summary:\n%.1500s", js)
	}
}
