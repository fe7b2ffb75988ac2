package review

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/githubtest"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

const headSHA = "3f9a1c2b7d10e4f5a6b7c8d9e0f1a2b3c4d5e6f7"

// checkFixture is n findings (a third of each severity) kept by a filter
// mode, collected as the command line collects them.
func checkFixture(n, max int) CheckInput {
	c := summarize.NewCollector()
	ann := &Annotated{Max: max}
	for i := 0; i < n; i++ {
		f := reports.Finding{ID: reports.ID("t", i), Tool: "PMD", Rule: fmt.Sprintf("R%03d", i), Category: "Design",
			Severity: reports.Severities[i%3], Path: fmt.Sprintf("src/F%d.java", i%7), Line: 10 + i, Column: 5, EndColumn: 9,
			Message: fmt.Sprintf("problem %d for @param #12", i), HelpURI: "https://pmd.example/r", Fingerprint: fmt.Sprintf("%016x", i)}
		c.Add(f)
		ann.Add(&f)
	}
	noFile := reports.Finding{ID: reports.ID("tx", 1), Tool: "PMD", Rule: "X", Severity: reports.SeverityError, Message: "no file"}
	c.Add(noFile)
	ann.Add(&noFile)
	kept, omitted, nf := ann.Findings()
	return CheckInput{View: c.View([]reports.Input{{Tool: "PMD"}, {Tool: "Checkstyle"}, {Tool: "PMD"}}), Findings: kept, Omitted: omitted, NoFile: nf,
		Outside: 4, Where: "on changed lines", Name: "recap: PMD, Checkstyle", HeadSHA: headSHA, Conclusion: ConclusionFailure}
}

// TestBuildCheck: the check run's name, title, summary, and each
// annotation's fields; the cap keeps the first in view order; a file-level finding
// is on line 1 without columns; a multi-line one has no columns.
func TestBuildCheck(t *testing.T) {
	in := checkFixture(7, 0)
	if got := CheckName(in.View.Inputs); got != "recap: PMD, Checkstyle" {
		t.Errorf("name %q", got)
	}
	if got := CheckName(nil); got != "recap" {
		t.Errorf("name without tools %q", got)
	}
	run := BuildCheck(in)
	if run.Title != "8 findings on changed lines: 4 error, 2 warning, 2 note" || len(run.Annotations) != 7 {
		t.Errorf("title %q, %d annotations", run.Title, len(run.Annotations))
	}
	want := Annotation{Path: "src/F0.java", StartLine: 10, EndLine: 10, StartColumn: 5, EndColumn: 9, Level: "failure",
		Title: "PMD R000", Message: "problem 0 for @param #12",
		RawDetails: "error PMD: R000 rule, category Design\nHelp: https://pmd.example/r\nFingerprint: 0000000000000000"}
	if diff := cmp.Diff(want, run.Annotations[0]); diff != "" {
		t.Errorf("first annotation (-want +got):\n%s", diff)
	}
	levels := map[string]int{}
	for _, a := range run.Annotations {
		levels[a.Level]++
	}
	if diff := cmp.Diff(map[string]int{"failure": 3, "warning": 2, "notice": 2}, levels); diff != "" {
		t.Errorf("levels (-want +got):\n%s", diff)
	}
	for _, s := range []string{"### recap: 8 findings on changed lines", "7 annotations", "4 more findings in the reports are not on changed lines",
		"1 finding is without a file", "| Design | 7 |", "Conclusion: **failure**"} {
		if !strings.Contains(run.Summary, s) {
			t.Errorf("summary has no %q:\n%s", s, run.Summary)
		}
	}
	if a := annotation(&reports.Finding{Tool: "T", Rule: "r", Severity: reports.SeverityNote, Path: "a", Column: 3, Message: "m"}); a.StartLine != 1 || a.EndLine != 1 || a.StartColumn != 0 ||
		!strings.Contains(a.RawDetails, "about the whole file") {
		t.Errorf("file-level annotation %+v", a)
	}
	if a := annotation(&reports.Finding{Tool: "T", Rule: "r", Severity: reports.SeverityWarning, Path: "a", Line: 4, EndLine: 9, Column: 3, EndColumn: 2, Message: "m"}); a.StartLine != 4 || a.EndLine != 9 || a.StartColumn != 0 || a.EndColumn != 0 {
		t.Errorf("multi-line annotation %+v", a)
	}
	long := annotation(&reports.Finding{Tool: strings.Repeat("t", 300), Rule: "r", Path: "a", Line: 1, Message: strings.Repeat("é", 40000) + "\x1b[31m"})
	if len([]rune(long.Title)) > 255 || len(long.Message) > 64<<10 || strings.Contains(long.Message, "\x1b") {
		t.Errorf("bounds: title %d characters, message %d bytes", len([]rune(long.Title)), len(long.Message))
	}

	capped := checkFixture(30, 10)
	if len(capped.Findings) != 10 || capped.Omitted != 20 || capped.NoFile != 1 {
		t.Fatalf("cap: %d kept, %d omitted, %d without a file", len(capped.Findings), capped.Omitted, capped.NoFile)
	}
	for i, f := range capped.Findings {
		if f.Severity != reports.SeverityError || i > 0 && !reports.Less(&capped.Findings[i-1], &f) {
			t.Errorf("kept %d: %s %s, not the first in view order", i, f.Severity, f.Rule)
		}
	}
	if run := BuildCheck(capped); !strings.Contains(run.Summary, "20 findings are not annotated: the first 10 (most important first) are") {
		t.Errorf("summary of a capped run:\n%s", run.Summary)
	}
}

// TestPostCheck: against GitHub's stand-in, which checks each request
// against the OpenAPI description: a run of up to 50 annotations is one
// request; 120 are a create and two updates that add 50 and 20; a re-run
// makes a second check run (the Checks API's way: the latest of a name is
// shown); the annotations arrive in order and whole.
func TestPostCheck(t *testing.T) {
	for _, tc := range []struct {
		n, requests int
	}{{0, 1}, {50, 1}, {51, 2}, {120, 3}} {
		t.Run(fmt.Sprint(tc.n), func(t *testing.T) {
			s := githubtest.New(t, "acme", "shop", 0, nil)
			run := BuildCheck(checkFixture(tc.n, 0))
			c := newClient(s)
			done, err := c.PostCheck(context.Background(), run, "https://github.com/acme/shop/actions/runs/42")
			if err != nil {
				t.Fatal(err)
			}
			if done.Annotations != tc.n || done.Requests != tc.requests || done.HTMLURL == "" {
				t.Errorf("posted %+v, want %d annotations in %d requests", done, tc.n, tc.requests)
			}
			again, err := c.PostCheck(context.Background(), run, "")
			if err != nil {
				t.Fatal(err)
			}
			checks := s.Checks()
			_, _, _, errs := s.Snapshot()
			if len(errs) > 0 {
				t.Fatalf("protocol errors: %v", errs)
			}
			if len(checks) != 2 || again.ID == done.ID {
				t.Fatalf("%d check runs after a re-run, want 2", len(checks))
			}
			got := checks[0]
			if got.Name != "recap: PMD, Checkstyle" || got.HeadSHA != headSHA || got.Status != "completed" || got.Conclusion != "failure" ||
				got.Updates != tc.requests-1 || got.Summary != run.Summary || got.DetailsURL != "https://github.com/acme/shop/actions/runs/42" {
				t.Errorf("check run %+v", got)
			}
			if len(got.Annotations) != tc.n {
				t.Fatalf("%d annotations, want %d", len(got.Annotations), tc.n)
			}
			for i, a := range got.Annotations {
				if w := run.Annotations[i]; a.Path != w.Path || a.StartLine != w.StartLine || a.Title != w.Title || a.Message != w.Message {
					t.Fatalf("annotation %d: %+v, want %+v", i, a, w)
				}
			}
		})
	}
}

// TestPostCheckRefused: a read-only token (a fork's) is refused with 403
// and nothing is made, which ReadOnly tells; a head GitHub does not know is
// refused with 422, explained; an update refused after the create says
// what was made.
func TestPostCheckRefused(t *testing.T) {
	run := BuildCheck(checkFixture(60, 0))

	s := githubtest.New(t, "acme", "shop", 0, nil)
	s.ReadOnly = true
	done, err := newClient(s).PostCheck(context.Background(), run, "")
	if err == nil || !ReadOnly(err) || done != nil || len(s.Checks()) != 0 ||
		!strings.Contains(err.Error(), "Resource not accessible by integration; the token cannot create check runs: give the job the permission checks: write") {
		t.Errorf("read-only: %v (%+v)", err, done)
	}

	s = githubtest.New(t, "acme", "shop", 0, nil)
	s.Commits = map[string]bool{"1111111111111111111111111111111111111111": true}
	_, err = newClient(s).PostCheck(context.Background(), run, "")
	if err == nil || ReadOnly(err) || !strings.Contains(err.Error(), "GitHub answered 422 to POST") ||
		!strings.Contains(err.Error(), "No commit found for SHA: "+headSHA) || !strings.Contains(err.Error(), "nothing was posted") {
		t.Errorf("unknown head: %v", err)
	}

	s = githubtest.New(t, "acme", "shop", 0, nil)
	s.Fail = func(r *http.Request) (int, string, http.Header) {
		if r.Method == http.MethodPatch {
			return 422, `{"message":"Validation Failed","errors":[{"resource":"CheckRun","field":"output","code":"invalid"}]}`, nil
		}
		return 0, "", nil
	}
	done, err = newClient(s).PostCheck(context.Background(), run, "")
	if err == nil || done == nil || done.Annotations != 50 ||
		!strings.Contains(err.Error(), "was created with 50 annotations, but adding 10 more failed: GitHub answered 422 to PATCH") {
		t.Errorf("refused update: %v (%+v)", err, done)
	}

	if _, err := newClient(s).PostCheck(context.Background(), &CheckRun{Name: "x"}, ""); err == nil || !strings.Contains(err.Error(), "no head commit") {
		t.Errorf("no head: %v", err)
	}
}

// TestAnnotationLevelOfImpact: a check run's annotation has its finding's
// impact's level; a finding without one its tool's severity's.
func TestAnnotationLevelOfImpact(t *testing.T) {
	tests := []struct {
		sev    reports.Severity
		impact reports.Impact
		want   string
	}{
		{reports.SeverityNote, reports.ImpactBlocker, "failure"},
		{reports.SeverityNote, reports.ImpactHigh, "failure"},
		{reports.SeverityError, reports.ImpactMedium, "warning"},
		{reports.SeverityError, reports.ImpactLow, "notice"},
		{reports.SeverityWarning, reports.ImpactInfo, "notice"},
		{reports.SeverityError, 0, "failure"},
		{reports.SeverityNote, 0, "notice"},
	}
	for _, tc := range tests {
		f := reports.Finding{Tool: "SpotBugs", Rule: "R", Path: "A.java", Line: 3, Severity: tc.sev, Impact: tc.impact}
		if got := annotation(&f).Level; got != tc.want {
			t.Errorf("%s of impact %s: %q, want %q", tc.sev, tc.impact, got, tc.want)
		}
	}
}

// TestCheckTitleLevels: the check run's title counts the levels its
// annotations show (the impact's), problems when findings repeat one.
func TestCheckTitleLevels(t *testing.T) {
	tests := []struct {
		name  string
		sev   []reports.Severity
		imp   []reports.Impact
		dups  *summarize.DuplicateCounts
		title string
	}{
		{"a high warning, a low error", []reports.Severity{reports.SeverityWarning, reports.SeverityError}, []reports.Impact{reports.ImpactHigh, reports.ImpactLow}, nil,
			"2 findings on changed lines: 1 error, 0 warning, 1 note"},
		{"a low duplicate left out", []reports.Severity{reports.SeverityWarning, reports.SeverityError, reports.SeverityError}, []reports.Impact{reports.ImpactHigh, reports.ImpactLow, reports.ImpactLow},
			&summarize.DuplicateCounts{Findings: 1, Problems: 1, ByImpact: summarize.ImpactCounts{Low: 1}, BySeverity: summarize.SeverityCounts{Error: 1}},
			"2 problems (3 findings) on changed lines: 1 error, 0 warning, 1 note"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := summarize.NewCollector()
			for i := range tc.sev {
				c.Add(reports.Finding{ID: reports.ID("n", i), Tool: "T", Rule: "R", Severity: tc.sev[i], Impact: tc.imp[i], Quality: reports.QualityReliability, Path: "A.java", Line: i + 1})
			}
			v := c.View(nil)
			if tc.dups != nil {
				v.Summary.Duplicates, v.Summary.Problems = tc.dups, v.Summary.Total-tc.dups.Findings
			}
			run := BuildCheck(CheckInput{View: v, Where: "on changed lines", Name: "recap", HeadSHA: headSHA, Conclusion: ConclusionSuccess})
			if run.Title != tc.title {
				t.Errorf("title %q, want %q", run.Title, tc.title)
			}
		})
	}
}
