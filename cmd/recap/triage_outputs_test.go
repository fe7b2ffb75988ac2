package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/internal/triagetest"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/triage"
)

// sampleTriage writes the triage file of five decisions on the first five
// problems of the sample's first page (internal/triagetest) and returns
// its path and the decided findings by findingKey.
func sampleTriage(t *testing.T) (string, map[string]reports.Finding) {
	t.Helper()
	f, found := triagetest.Sample(t)
	p := filepath.Join(t.TempDir(), "triage.yml")
	if err := triage.WriteFile(p, f); err != nil {
		t.Fatal(err)
	}
	byKey := map[string]reports.Finding{}
	for _, d := range found {
		byKey[findingKey(&d)] = d
	}
	return p, byKey
}

// findingKey names a finding by tool, rule and place (ids depend on how
// the reports are named).
func findingKey(f *reports.Finding) string {
	return f.Tool + " " + f.Rule + " " + f.Path + ":" + strconv.Itoa(f.Line)
}

// The sample's five triaged problems hold nine findings (one reported by
// three tools, three by two); one of them is the sample's only problem of
// high impact.
const (
	triagedProblems = 5
	triagedFindings = 9
	triagedLine     = "5 problems triaged (9 findings; 1 high): 3 false positive, 1 won't fix, 1 accepted risk, not counted"
	// The text summary's first line with them: the sample's 171 findings
	// of 115 problems less the nine of the five.
	triagedHead = "162 findings, 110 problems (49 reported more than once) in 4 files from 3 inputs"
)

// TestTriageHonouredByOutputs: the five decisions of the sample's triage
// file are honoured by every output: none on the first page, counted
// apart, the gate they failed passes, SARIF carries five accepted external
// suppressions and the SARIF Multitool validates it, Code Quality and the
// annotations leave them out, the review neither comments nor lists them.
func TestTriageHonouredByOutputs(t *testing.T) {
	root := reportstest.RepoRoot(t)
	file, decided := sampleTriage(t)
	sample := []string{"--repo", "testdata/sample", "testdata/reports"}
	run := func(t *testing.T, args ...string) (string, string, int) {
		t.Helper()
		return recap(t, root, nil, append(args, sample...)...)
	}
	tests := []struct {
		name  string
		args  []string
		code  int
		check func(t *testing.T, out string)
	}{
		{"summary json", []string{"summary", "--format", "json", "--triage", file}, 0, func(t *testing.T, out string) {
			var v struct {
				Summary struct {
					Total, Problems int
					Triaged         struct {
						Total, Problems int
						ByState         map[string]int
					}
				}
			}
			mustJSON(t, out, &v)
			s := v.Summary
			if s.Total != sampleFindings-triagedFindings || s.Problems != sampleProblems-triagedProblems || s.Triaged.Total != triagedFindings ||
				s.Triaged.Problems != triagedProblems || s.Triaged.ByState["false-positive"] != 3 || s.Triaged.ByState["wont-fix"] != 1 || s.Triaged.ByState["accepted-risk"] != 1 {
				t.Errorf("summary %+v", s)
			}
		}},
		{"summary text", []string{"summary", "--triage", file}, 0, func(t *testing.T, out string) {
			if !strings.HasPrefix(out, triagedHead+"\n"+triagedLine+"\n") {
				t.Errorf("the summary does not begin with %q, then %q:\n%s", triagedHead, triagedLine, out)
			}
			// docs/triage.md shows these two lines.
			doc, err := os.ReadFile(filepath.Join(root, "docs", "triage.md"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(doc), triagedHead+"\n"+triagedLine+"\n") {
				t.Errorf("docs/triage.md does not show the summary's first lines:\n%s\n%s", triagedHead, triagedLine)
			}
		}},
		{"findings first page", []string{"findings", "--format", "json", "--no-context", "--triage", file}, 0, func(t *testing.T, out string) {
			if n := decidedOnPage(t, out, decided, ""); n != 0 {
				t.Errorf("%d triaged findings on the first page", n)
			}
		}},
		{"findings include", []string{"findings", "--format", "json", "--no-context", "--triaged", "include", "--triage", file}, 0, func(t *testing.T, out string) {
			if n := decidedOnPage(t, out, decided, "decided in review"); n != triagedProblems {
				t.Errorf("%d triaged findings marked on the first page, want %d", n, triagedProblems)
			}
		}},
		{"findings only", []string{"findings", "--format", "json", "--no-context", "--triaged", "only", "--triage", file}, 0, func(t *testing.T, out string) {
			var v struct{ Page struct{ Total int } }
			mustJSON(t, out, &v)
			if n := decidedOnPage(t, out, decided, "decided in review"); n != triagedProblems || v.Page.Total != triagedProblems {
				t.Errorf("%d triaged findings of %d on the page, want %d", n, v.Page.Total, triagedProblems)
			}
		}},
		{"gate without triage fails", []string{"summary", "--fail-on", "high"}, 1, nil},
		{"gate passes", []string{"summary", "--fail-on", "high", "--triage", file}, 0, nil},
		{"gate passes with include", []string{"summary", "--fail-on", "high", "--triaged", "include", "--triage", file}, 0, nil},
		{"codeclimate", []string{"summary", "--format", "codeclimate", "--triage", file}, 0, func(t *testing.T, out string) {
			var issues []struct{ Location struct{ Path string } }
			mustJSON(t, out, &issues)
			if len(issues) != sampleProblems-triagedProblems {
				t.Errorf("%d issues, want %d", len(issues), sampleProblems-triagedProblems)
			}
		}},
		{"annotations", []string{"findings", "--format", "github", "--triage", file}, 0, func(t *testing.T, out string) {
			for _, line := range strings.Split(out, "\n") {
				for _, d := range decided {
					if strings.Contains(line, "title="+d.Tool+" ") && strings.Contains(line, "file="+d.Path+",line="+strconv.Itoa(d.Line)+",") {
						t.Errorf("annotation of triaged %s at %s:%d", d.ID, d.Path, d.Line)
					}
				}
			}
			if !strings.Contains(out, triagedLine) {
				t.Errorf("the notice does not say %q:\n%s", triagedLine, out)
			}
		}},
		{"annotations include", []string{"findings", "--format", "github", "--triaged", "include", "--triage", file}, 0, func(t *testing.T, out string) {
			if strings.Contains(out, "decided in review") {
				t.Errorf("a triaged finding annotated:\n%s", out)
			}
			if want := fmt.Sprintf("The %d triaged problems are not annotated.", triagedProblems); !strings.Contains(out, want) {
				t.Errorf("the notice does not say %q:\n%s", want, out)
			}
		}},
		{"annotations only", []string{"findings", "--format", "github", "--triaged", "only", "--triage", file}, 0, func(t *testing.T, out string) {
			// Nothing to annotate: the notice says why, and no "first 0".
			if n := strings.Count(out, "\n"); n != 1 || strings.Contains(out, "Annotated: the first") ||
				!strings.Contains(out, fmt.Sprintf("The %d triaged problems are not annotated.", triagedProblems)) {
				t.Errorf("only the triaged: %d lines\n%s", n, out)
			}
		}},
		{"review", []string{"review", "--format", "json", "--filter-mode", "nofilter", "--fail-on", "high", "--triage", file}, 0, func(t *testing.T, out string) {
			var req struct {
				Body     string
				Comments []struct{ Body string }
			}
			mustJSON(t, out, &req)
			for _, d := range decided {
				if strings.Contains(req.Body, d.Path+":"+strconv.Itoa(d.Line)+"</code> "+d.Tool+" <code>"+reports.ShortRule(d.Tool, d.Rule)+"</code>") {
					t.Errorf("the review lists triaged %s", d.ID)
				}
			}
			if !strings.Contains(req.Body, triagedLine) || len(req.Comments) != 0 {
				t.Errorf("the review's body does not say %q, or it comments (%d):\n%s", triagedLine, len(req.Comments), req.Body)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, errOut)
			}
			if tt.check != nil {
				tt.check(t, out)
			}
		})
	}
}

func mustJSON(t *testing.T, out string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
}

// decidedOnPage counts the decided findings on the page of a findings
// view; with mark, only those whose triage's reason holds it.
func decidedOnPage(t *testing.T, out string, decided map[string]reports.Finding, mark string) int {
	t.Helper()
	var v struct{ Findings []reports.Finding }
	mustJSON(t, out, &v)
	n := 0
	for _, f := range v.Findings {
		if _, ok := decided[findingKey(&f)]; ok && (mark == "" || f.Triage != nil && strings.Contains(f.Triage.Reason, mark)) {
			n++
		}
	}
	return n
}

// TestTriageSARIF: recap's SARIF carries every problem, the five triaged
// as results with an accepted external suppression whose justification is
// the decision's reason; the SARIF Multitool validates it; read back, the
// five are suppressed results, not findings.
func TestTriageSARIF(t *testing.T) {
	root := reportstest.RepoRoot(t)
	file, decided := sampleTriage(t)
	out, errOut, code := recap(t, root, nil, "summary", "--format", "sarif", "--triage", file, "--repo", "testdata/sample", "testdata/reports")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID       string `json:"ruleId"`
				Suppressions []struct {
					Kind, Status, Justification string
					Properties                  map[string]string
				}
			}
		}
	}
	mustJSON(t, out, &log)
	results, suppressed := 0, 0
	for _, r := range log.Runs {
		for _, res := range r.Results {
			results++
			for _, s := range res.Suppressions {
				if s.Kind != "external" || s.Status != "accepted" || !strings.HasPrefix(s.Justification, "decided in review ") || s.Properties["by"] != "octocat" {
					t.Errorf("suppression %+v", s)
				}
				suppressed++
			}
		}
	}
	if results != sampleProblems || suppressed != len(decided) {
		t.Errorf("%d results, %d suppressed; want %d, %d", results, suppressed, sampleProblems, len(decided))
	}
	p := filepath.Join(t.TempDir(), "triaged.sarif")
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	back, errOut, code := recap(t, root, nil, "summary", "--no-group", "--format", "json", p)
	var v struct{ Summary struct{ Total int } }
	if code != 0 || json.Unmarshal([]byte(back), &v) != nil || v.Summary.Total != sampleProblems-len(decided) {
		t.Errorf("read back: exit %d, %d findings, want %d: %s", code, v.Summary.Total, sampleProblems-len(decided), errOut)
	}
	if errs := tooltest.ValidateSARIF(t, p); len(errs) > 0 {
		t.Errorf("Sarif.Multitool validate: %d results, first:\n%s", len(errs), strings.Join(errs[:min(len(errs), 10)], "\n"))
	}
}

// TestTriageReviewReporters: recap review's workflow annotations leave
// the triaged findings out, its job summary counts them apart and lists
// none of them, and its gate passes where they failed it.
func TestTriageReviewReporters(t *testing.T) {
	root := reportstest.RepoRoot(t)
	file, decided := sampleTriage(t)
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"untriaged", nil, 1},
		{"triaged", []string{"--triage", file}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			summary := filepath.Join(t.TempDir(), "summary.md")
			args := append([]string{"review", "--annotations", "--job-summary", "--filter-mode", "nofilter", "--fail-on", "high", "--repo", "testdata/sample"}, tc.args...)
			out, errOut, code := recap(t, root, []string{"GITHUB_STEP_SUMMARY=" + summary}, append(args, "testdata/reports")...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errOut)
			}
			b, err := os.ReadFile(summary)
			if err != nil {
				t.Fatal(err)
			}
			annotated, listed := 0, 0
			for _, d := range decided {
				for _, line := range strings.Split(out, "\n") {
					if strings.Contains(line, "file="+d.Path+",line="+strconv.Itoa(d.Line)+",") && strings.Contains(line, "title="+d.Tool+" ") {
						annotated++
					}
				}
				if strings.Contains(string(b), "line "+strconv.Itoa(d.Line)+" · "+d.Tool+" <code>"+reports.ShortRule(d.Tool, d.Rule)+"</code>") {
					listed++
				}
			}
			triaged := tc.args != nil
			if triaged && (annotated > 0 || listed > 0 || !strings.Contains(string(b), triagedLine)) {
				t.Errorf("%d triaged findings annotated, %d listed in the job summary; it says %q: %v", annotated, listed, triagedLine, strings.Contains(string(b), triagedLine))
			}
			if !triaged && listed == 0 {
				t.Errorf("without triage the job summary lists none of the five findings")
			}
		})
	}
}

// TestTriageDefaultFile: without --triage, the report commands read
// .recap/triage.yml at the repository root; a broken one is a usage
// error naming it.
func TestTriageDefaultFile(t *testing.T) {
	root := reportstest.RepoRoot(t)
	f, _ := triagetest.Sample(t)
	repo := t.TempDir()
	if err := os.CopyFS(repo, os.DirFS(filepath.Join(root, "testdata", "sample"))); err != nil {
		t.Fatal(err)
	}
	p := triagetest.Write(t, repo, f)
	out, errOut, code := recap(t, root, nil, "summary", "--repo", repo, "testdata/reports")
	if code != 0 || !strings.Contains(out, triagedLine) {
		t.Errorf("exit %d, want 0 and %q:\n%s%s", code, triagedLine, out, errOut)
	}
	if err := os.WriteFile(p, []byte("entries:\n  - tool: PMD\n    state: maybe\n    reason: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = recap(t, root, nil, "summary", "--repo", repo, "testdata/reports")
	if code != 2 || !strings.Contains(errOut, ".recap/triage.yml") || !strings.Contains(errOut, "maybe") {
		t.Errorf("a broken triage file: exit %d, want 2 naming it: %s", code, errOut)
	}
}

// TestTriageConfirmedAndExpired: a confirmed decision keeps its finding,
// counted, gated and marked in every output; an expired one brings it
// back, marked expired.
func TestTriageConfirmedAndExpired(t *testing.T) {
	root := reportstest.RepoRoot(t)
	f, _ := triagetest.Sample(t)
	for _, tc := range []struct {
		name string
		edit func(e *triage.Entry)
		mark string
	}{
		{"confirmed", func(e *triage.Entry) { e.State = triage.Confirmed }, "(confirmed: decided in review "},
		{"expired", func(e *triage.Entry) { e.Until = "2000-01-01" }, "(triage expired 2000-01-01: decided in review "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &triage.File{Version: 1, Entries: append([]triage.Entry(nil), f.Entries...)}
			for i := range g.Entries {
				tc.edit(&g.Entries[i])
			}
			p := filepath.Join(t.TempDir(), "triage.yml")
			if err := triage.WriteFile(p, g); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"findings", "--format", "github"},
				{"findings", "--no-context"},
				{"findings", "--format", "markdown", "--no-context"},
				{"review", "--format", "markdown", "--filter-mode", "nofilter"},
			} {
				out, errOut, code := recap(t, root, nil, append(args, "--triage", p, "--fail-on", "high", "--repo", "testdata/sample", "testdata/reports")...)
				if code != 1 {
					t.Errorf("%v: exit %d, want 1 (the gate counts them): %s", args, code, errOut)
				}
				if !strings.Contains(out, tc.mark) {
					t.Errorf("%v: no %q in\n%s", args, tc.mark, out)
				}
			}
			out, _, _ := recap(t, root, nil, "summary", "--format", "json", "--triage", p, "--repo", "testdata/sample", "testdata/reports")
			var v struct {
				Summary struct {
					Total   int
					Triaged struct{ Total, Confirmed, Expired int }
				}
			}
			mustJSON(t, out, &v)
			if n := v.Summary.Triaged.Confirmed + v.Summary.Triaged.Expired; v.Summary.Total != sampleFindings || v.Summary.Triaged.Total != 0 || n != triagedProblems {
				t.Errorf("summary %+v; want every finding counted, %d marked", v.Summary, triagedProblems)
			}
		})
	}
}

// TestTriageReviewPosted: recap review of a pull request that adds the
// sample, posted to GitHub's stand-in (OpenAPI-validated) with the
// repository's triage file: no inline comment and no check-run annotation
// of a triaged finding, the summary comment and the check run count them
// apart, and the gate (--fail-on high: the check run's conclusion too)
// passes where they failed it.
func TestTriageReviewPosted(t *testing.T) {
	pr := newSamplePR(t)
	f, found := triagetest.Sample(t)
	triagetest.Write(t, pr.g.Dir, f)
	out, errOut, code := recap(t, pr.g.Dir, pr.env, "review", "--post", "--checks", "--job-summary", "--fail-on", "high", "--api-url", pr.s.URL, pr.reports)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	rc, ic, _, errs := pr.s.Snapshot()
	if len(errs) > 0 {
		t.Fatalf("protocol errors: %v", errs)
	}
	at := func(path string, line int, title string) bool {
		for _, d := range found {
			if d.Path == path && d.Line == line && strings.Contains(title, reports.ShortRule(d.Tool, d.Rule)) {
				return true
			}
		}
		return false
	}
	for _, c := range rc {
		if at(c.Path, c.Line, c.Body) {
			t.Errorf("an inline comment of a triaged finding at %s:%d:\n%s", c.Path, c.Line, c.Body)
		}
	}
	if len(rc) != 30 || len(ic) != 1 || !strings.Contains(ic[0].Body, triagedLine) {
		t.Fatalf("%d comments, %d summaries; want 30 and one saying %q", len(rc), len(ic), triagedLine)
	}
	checks := pr.s.Checks()
	if len(checks) != 1 || len(checks[0].Annotations) != sampleProblems-triagedProblems || checks[0].Conclusion != "success" ||
		!strings.Contains(checks[0].Summary, triagedLine) {
		t.Fatalf("check runs %d: %d annotations, conclusion %q; want %d, success, and %q", len(checks), len(checks[0].Annotations), checks[0].Conclusion,
			sampleProblems-triagedProblems, triagedLine)
	}
	for _, a := range checks[0].Annotations {
		if at(a.Path, a.StartLine, a.Title) {
			t.Errorf("an annotation of a triaged finding at %s:%d: %s", a.Path, a.StartLine, a.Title)
		}
	}
}

// TestTriageConfirmedDuplicate: a finding decided confirmed that is a
// duplicate in its problem (PMD's UseEqualsToCompareStrings at
// Order.java:34, whose problem SpotBugs' finding leads) marks the problem
// shown, through it (via), in every output that shows the lead: the
// page, JSON, the annotations and recap's SARIF.
func TestTriageConfirmedDuplicate(t *testing.T) {
	root := reportstest.RepoRoot(t)
	p, ids := order34Triage(t, [3]string{"UseEqualsToCompareStrings", "confirmed", "must fix"})
	pmd := ids["UseEqualsToCompareStrings"]
	args := func(a ...string) []string {
		return append(a, "--triage", p, "--repo", "testdata/sample", "testdata/reports")
	}
	out, _, _ := recap(t, root, nil, args("findings", "--format", "json", "--no-context", "--limit", "200", "--max-tokens", "25000")...)
	var v struct{ Findings []map[string]any }
	mustJSON(t, out, &v)
	lead := findingAt(t, v.Findings, "ES_COMPARING_PARAMETER_STRING_WITH_EQ", "Order.java", 34)
	if tr, _ := lead["triage"].(map[string]any); tr == nil || tr["state"] != "confirmed" || tr["via"] != pmd {
		t.Errorf("the problem's lead: triage %v, want confirmed via %s", lead["triage"], pmd)
	}
	for _, format := range []string{"text", "github"} {
		out, _, _ := recap(t, root, nil, args("findings", "--format", format, "--no-context")...)
		// Named by its tool and rule: the id of the finding decided
		// would change with the reports, and the note with it.
		if want := "(confirmed: must fix (decided on the problem's PMD UseEqualsToCompareStrings finding))"; !strings.Contains(out, want) {
			t.Errorf("--format %s: no %s in\n%s", format, want, out)
		}
	}
	out, _, _ = recap(t, root, nil, args("findings", "--format", "sarif")...)
	if n := strings.Count(out, `"state":"confirmed"`) + strings.Count(out, `"state": "confirmed"`); n != 1 {
		t.Errorf("recap's SARIF: %d results marked confirmed, want 1", n)
	}
}

// order34Triage writes a triage file of the decisions given ({rule,
// state, reason}) on the findings of the sample's problem at
// Order.java:34 (SpotBugs' ES_COMPARING_PARAMETER_STRING_WITH_EQ, PMD's
// UseEqualsToCompareStrings), each made with recap triage by the
// finding's id. It returns the file and the findings' ids by rule.
func order34Triage(t *testing.T, decisions ...[3]string) (file string, ids map[string]string) {
	t.Helper()
	root := reportstest.RepoRoot(t)
	p := filepath.Join(t.TempDir(), "triage.yml")
	if err := triage.WriteFile(p, &triage.File{Version: 1}); err != nil {
		t.Fatal(err)
	}
	args := func(a ...string) []string {
		return append(a, "--triage", p, "--repo", "testdata/sample", "testdata/reports")
	}
	out, errOut, code := recap(t, root, nil, args("findings", "--format", "json", "--no-group", "--no-context", "--limit", "200", "--max-tokens", "25000")...)
	if code != 0 {
		t.Fatalf("findings: exit %d\n%s", code, errOut)
	}
	var v struct{ Findings []map[string]any }
	mustJSON(t, out, &v)
	ids = map[string]string{}
	for _, rule := range []string{"UseEqualsToCompareStrings", "ES_COMPARING_PARAMETER_STRING_WITH_EQ"} {
		ids[rule] = findingAt(t, v.Findings, rule, "Order.java", 34)["id"].(string)
	}
	for _, d := range decisions {
		if out, errOut, code := recap(t, root, nil, args("triage", ids[d[0]], "--as", d[1], "--reason", d[2])...); code != 0 {
			t.Fatalf("triage %s: exit %d\n%s%s", ids[d[0]], code, out, errOut)
		}
	}
	return p, ids
}

// overruledTriage writes a triage file that decides the two findings of
// the sample's problem at Order.java:34 apart: the SpotBugs one a false
// positive, the PMD one confirmed. It returns the file and the PMD
// finding's id.
func overruledTriage(t *testing.T) (file, confirmed string) {
	t.Helper()
	p, ids := order34Triage(t, [3]string{"ES_COMPARING_PARAMETER_STRING_WITH_EQ", "false-positive", "the values are interned"},
		[3]string{"UseEqualsToCompareStrings", "confirmed", "must fix"})
	return p, ids["UseEqualsToCompareStrings"]
}

// TestTriageOverruled: two findings of one problem decided apart (the
// SpotBugs one a false positive, the PMD one confirmed) show the problem,
// and say on the finding and in the summary that the decisions disagree.
func TestTriageOverruled(t *testing.T) {
	root := reportstest.RepoRoot(t)
	p, pmd := overruledTriage(t)
	out, _, _ := recap(t, root, nil, "findings", "--format", "json", "--no-context", "--limit", "200", "--max-tokens", "25000", "--triage", p, "--repo", "testdata/sample", "testdata/reports")
	var w struct {
		Summary struct {
			Triaged struct{ Total, Confirmed, Overruled int }
		}
		Findings []map[string]any
	}
	mustJSON(t, out, &w)
	if got := w.Summary.Triaged; got.Total != 0 || got.Confirmed != 2 || got.Overruled != 1 {
		t.Errorf("summary.triaged %+v, want none left out, 2 confirmed, 1 overruled", got)
	}
	lead := findingAt(t, w.Findings, "ES_COMPARING_PARAMETER_STRING_WITH_EQ", "Order.java", 34)
	if tr, _ := lead["triage"].(map[string]any); tr == nil || tr["state"] != "confirmed" || tr["via"] != pmd || tr["overrules"] != "false-positive" {
		t.Errorf("the problem's lead: triage %v, want confirmed via %s overruling false-positive", lead["triage"], pmd)
	}
	// recap's SARIF says it as JSON does, on the result's triage property.
	out, _, _ = recap(t, root, nil, "findings", "--format", "sarif", "--triage", p, "--repo", "testdata/sample", "testdata/reports")
	if n := strings.Count(out, `"overrules":"false-positive"`) + strings.Count(out, `"overrules": "false-positive"`); n != 1 {
		t.Errorf("recap's SARIF: %d results with overrules false-positive, want 1", n)
	}
	out, _, _ = recap(t, root, nil, "findings", "--format", "text", "--no-context", "--triage", p, "--repo", "testdata/sample", "testdata/reports")
	for _, want := range []string{"(confirmed: must fix (decided on the problem's PMD UseEqualsToCompareStrings finding; over its own decision: false positive))", "1 finding decided otherwise too"} {
		if !strings.Contains(out, want) {
			t.Errorf("text: no %q in\n%s", want, out)
		}
	}
}

// TestTriageListOverruled: recap triage list says of an entry that a
// confirmation of another finding of its problem overrules it, and names
// the confirmation, whichever of the two findings leads the problem;
// check, which judges entries alone, says nothing of it.
func TestTriageListOverruled(t *testing.T) {
	root := reportstest.RepoRoot(t)
	const spotbugs, pmd = "ES_COMPARING_PARAMETER_STRING_WITH_EQ", "UseEqualsToCompareStrings"
	for _, tc := range []struct{ suppressed, confirmed string }{
		{suppressed: spotbugs, confirmed: pmd}, // the overruled finding leads the problem
		{suppressed: pmd, confirmed: spotbugs}, // the overruled finding is its duplicate
	} {
		t.Run(tc.suppressed+" overruled", func(t *testing.T) {
			p, ids := order34Triage(t, [3]string{tc.suppressed, "false-positive", "the values are interned"}, [3]string{tc.confirmed, "confirmed", "must fix"})
			out, errOut, code := recap(t, root, nil, "triage", "list", "--format", "json", "--triage", p, "--repo", "testdata/sample", "testdata/reports")
			if code != 0 {
				t.Fatalf("list: exit %d\n%s", code, errOut)
			}
			var l struct {
				Overruled int
				Entries   []struct {
					Rule, State string
					Matches     int
					OverruledBy *struct{ Rule, State, Reason string }
					Finding     *struct {
						ID, Path string
						Line     int
					}
				}
			}
			mustJSON(t, out, &l)
			for _, e := range l.Entries {
				// Where each matches now: the finding decided, by the id
				// recap findings shows.
				if f := e.Finding; f == nil || f.ID != ids[e.Rule] || f.Line != 34 || f.Path != "src/main/java/com/example/shop/Order.java" {
					t.Errorf("%s: finding %+v, want %s at Order.java:34", e.Rule, f, ids[e.Rule])
				}
			}
			if l.Overruled != 1 || len(l.Entries) != 2 {
				t.Fatalf("list: %d entries, %d overruled; want 2 entries, 1 overruled\n%s", len(l.Entries), l.Overruled, out)
			}
			for _, e := range l.Entries {
				switch {
				case e.Matches != 1:
					t.Errorf("%s matches %d, want 1", e.Rule, e.Matches)
				case e.Rule == tc.suppressed && (e.OverruledBy == nil || e.OverruledBy.Rule != tc.confirmed || e.OverruledBy.State != "confirmed" || e.OverruledBy.Reason != "must fix"):
					t.Errorf("%s overruledBy %+v, want the %s confirmation", e.Rule, e.OverruledBy, tc.confirmed)
				case e.Rule == tc.confirmed && e.OverruledBy != nil:
					t.Errorf("the confirmation %s overruledBy %+v, want none", e.Rule, e.OverruledBy)
				}
			}
			out, _, _ = recap(t, root, nil, "triage", "list", "--triage", p, "--repo", "testdata/sample", "testdata/reports")
			for _, want := range []string{"0 expired, 1 overruled", "matches 1, overruled  false-positive", "overruled: SpotBugs " + spotbugs, "(confirmed: \"must fix\") reports the same problem: the problem is shown, marked confirmed"} {
				if tc.suppressed == pmd {
					want = strings.Replace(want, "overruled: SpotBugs "+spotbugs, "overruled: PMD "+pmd, 1)
				}
				if !strings.Contains(out, want) {
					t.Errorf("list: no %q in\n%s", want, out)
				}
			}
			out, _, code = recap(t, root, nil, "triage", "check", "--triage", p, "--repo", "testdata/sample", "testdata/reports")
			if code != 0 || strings.Contains(out, ", overruled") || strings.Contains(out, "\noverruled: ") {
				t.Errorf("check: exit %d\n%s", code, out)
			}
			if out, _, _ = recap(t, root, nil, "triage", "check", "--format", "json", "--triage", p, "--repo", "testdata/sample", "testdata/reports"); strings.Contains(out, `"overruled`) {
				t.Errorf("check's JSON counts what check does not look at:\n%s", out)
			}
			// One pass over the inputs: a report on standard input, read
			// once, tells it as a file does.
			out, _, code = recapStdin(t, root, nil, "testdata/reports/pmd.sarif", "triage", "list", "--triage", p, "--repo", "testdata/sample", "testdata/reports/spotbugs.xml", "-")
			if code != 0 || !strings.Contains(out, "0 expired, 1 overruled") || !strings.Contains(out, "\noverruled: ") {
				t.Errorf("list with standard input: exit %d\n%s", code, out)
			}
		})
	}
}

// TestTriageListOverruledNot: decisions that agree, or a confirmation
// and a suppression of two problems, overrule nothing.
func TestTriageListOverruledNot(t *testing.T) {
	root := reportstest.RepoRoot(t)
	for name, d := range map[string][2][3]string{
		"both suppress": {{"ES_COMPARING_PARAMETER_STRING_WITH_EQ", "false-positive", "interned"}, {"UseEqualsToCompareStrings", "wont-fix", "legacy"}},
		"both confirm":  {{"ES_COMPARING_PARAMETER_STRING_WITH_EQ", "confirmed", "must fix"}, {"UseEqualsToCompareStrings", "confirmed", "must fix"}},
	} {
		t.Run(name, func(t *testing.T) {
			p, _ := order34Triage(t, d[0], d[1])
			out, errOut, code := recap(t, root, nil, "triage", "list", "--format", "json", "--triage", p, "--repo", "testdata/sample", "testdata/reports")
			if code != 0 || strings.Contains(out, `"overruledBy"`) || !strings.Contains(out, `"overruled": 0`) {
				t.Errorf("list: exit %d, want none overruled\n%s%s", code, out, errOut)
			}
		})
	}
}

// TestTriageListExpiredConfirmation: a confirmation whose until has come
// hid nothing, so check does not say its findings are shown again: it
// says the mark ends, and that a decision on another finding of the
// problem covers them again (here SpotBugs' false positive, whose problem
// findings then leave out).
func TestTriageListExpiredConfirmation(t *testing.T) {
	root := reportstest.RepoRoot(t)
	p, _ := order34Triage(t, [3]string{"ES_COMPARING_PARAMETER_STRING_WITH_EQ", "false-positive", "the values are interned"}, [3]string{"UseEqualsToCompareStrings", "confirmed", "must fix"})
	b := readFile(t, p)
	expired := strings.Replace(b, "    state: confirmed\n", "    state: confirmed\n    until: 2020-01-01\n", 1)
	if expired == b {
		t.Fatalf("no confirmed entry in\n%s", b)
	}
	if err := os.WriteFile(p, []byte(expired), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := recap(t, root, nil, "triage", "check", "--triage", p, "--repo", "testdata/sample", "testdata/reports")
	if code != 1 || !strings.Contains(out, `confirmed until 2020-01-01 ("must fix"): its findings are marked confirmed no more, and a decision that suppresses another finding of their problem covers them again`) ||
		strings.Contains(out, "shown again") {
		t.Errorf("check: exit %d, want 1 and the confirmation's end said\n%s", code, out)
	}
	out, _, _ = recap(t, root, nil, "findings", "--format", "json", "--no-context", "--triage", p, "--repo", "testdata/sample", "testdata/reports")
	var w struct {
		Summary struct {
			Triaged struct{ Problems, Overruled int }
		}
	}
	mustJSON(t, out, &w)
	if got := w.Summary.Triaged; got.Problems != 1 || got.Overruled != 0 {
		t.Errorf("findings: triaged %+v, want the problem covered by the false positive again", got)
	}
}

// TestTriageDecideDisagrees: a decision that disagrees with an entry on
// another finding of its problem says so when it is taken: one that
// suppresses a finding whose problem is confirmed changes nothing shown,
// and a confirmation overrules the other finding's decision. A filter
// that leaves the other finding out (--tool) still sees it; decisions
// that agree, or an expired confirmation, say nothing.
func TestTriageDecideDisagrees(t *testing.T) {
	root := reportstest.RepoRoot(t)
	const spotbugs, pmd = "ES_COMPARING_PARAMETER_STRING_WITH_EQ", "UseEqualsToCompareStrings"
	for _, tc := range []struct {
		name          string
		first, second [3]string // rule, state, reason: the entry there, the decision taken
		until         string    // the first entry's
		bulk          bool      // the second by --tool and --rule, not by id
		dryRun        bool
		want          []string // in the warning; none when empty
	}{
		{name: "suppressing a confirmed problem", first: [3]string{pmd, "confirmed", "must fix"}, second: [3]string{spotbugs, "false-positive", "interned"},
			want: []string{"recap: warning: ", "(SpotBugs " + spotbugs + " at src/main/java/com/example/shop/Order.java:34): ", "(PMD " + pmd + " at src/main/java/com/example/shop/Order.java:34) reports the same problem and is decided confirmed (\"must fix\"): a confirmation overrules a decision that suppresses, so the problem stays shown, marked confirmed; to hide it, decide ", " again (recap triage ", " --as false-positive --reason \"…\"), or remove its entry"}},
		{name: "in bulk, the other tool filtered out", first: [3]string{pmd, "confirmed", "must fix"}, second: [3]string{spotbugs, "wont-fix", "legacy"}, bulk: true,
			want: []string{"(PMD " + pmd + " at src/main/java/com/example/shop/Order.java:34) reports the same problem and is decided confirmed"}},
		{name: "confirming a suppressed problem", first: [3]string{spotbugs, "false-positive", "interned"}, second: [3]string{pmd, "confirmed", "must fix"},
			want: []string{"(PMD " + pmd + " at src/main/java/com/example/shop/Order.java:34): ", "(SpotBugs " + spotbugs + " at src/main/java/com/example/shop/Order.java:34) reports the same problem and is decided false-positive (\"interned\"): this confirmation overrules that decision, so the problem is shown, marked confirmed; if the false-positive stands, decide ", " as false-positive instead"}},
		{name: "a dry run", first: [3]string{spotbugs, "false-positive", "interned"}, second: [3]string{pmd, "confirmed", "must fix"}, dryRun: true,
			want: []string{"reports the same problem and is decided false-positive (\"interned\"): this confirmation would overrule that decision, so the problem would be shown, marked confirmed"}},
		{name: "both suppress", first: [3]string{spotbugs, "false-positive", "interned"}, second: [3]string{pmd, "wont-fix", "legacy"}},
		{name: "both confirm", first: [3]string{spotbugs, "confirmed", "must fix"}, second: [3]string{pmd, "confirmed", "must fix"}},
		{name: "the confirmation expired", first: [3]string{pmd, "confirmed", "must fix"}, until: "2001-01-01", second: [3]string{spotbugs, "false-positive", "interned"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, ids := order34Triage(t, tc.first)
			if tc.until != "" {
				f, err := triage.LoadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				f.Entries[0].Until = tc.until
				if err := triage.WriteFile(p, f); err != nil {
					t.Fatal(err)
				}
			}
			args := []string{"triage", ids[tc.second[0]]}
			if tc.bulk {
				args = []string{"triage", "--tool", "SpotBugs", "--rule", tc.second[0]}
			}
			args = append(args, "--as", tc.second[1], "--reason", tc.second[2], "--triage", p, "--repo", "testdata/sample", "testdata/reports")
			written := "1 decision written"
			if tc.dryRun {
				args, written = append(args, "--dry-run"), "1 decision would be written"
			}
			out, errOut, code := recap(t, root, nil, args...)
			if code != 0 || !strings.Contains(out, written) {
				t.Fatalf("triage: exit %d\n%s%s", code, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("no %q in\n%s", w, errOut)
				}
			}
			if len(tc.want) == 0 && strings.Contains(errOut, "the same problem") {
				t.Errorf("a warning of decisions that do not disagree:\n%s", errOut)
			}
		})
	}
}

// TestTriageConfirmationNamesOverruled: whichever finding of a problem
// leads it, the finding shown says which decisions disagree. When the
// confirmed finding leads, its mark names the decision it overrules on
// the other finding (overrulesOthers; "over the problem's PMD … finding's
// decision: false positive"); when the overruled one leads, its mark says
// "over its own decision" and names no other.
func TestTriageConfirmationNamesOverruled(t *testing.T) {
	root := reportstest.RepoRoot(t)
	const spotbugs, pmd = "ES_COMPARING_PARAMETER_STRING_WITH_EQ", "UseEqualsToCompareStrings"
	for _, tc := range []struct {
		suppressed, confirmed string
		others                bool   // the lead's mark names the other finding's decision
		note                  string // in the text page
	}{
		{suppressed: pmd, confirmed: spotbugs, others: true, note: "(confirmed: must fix (over the problem's PMD " + pmd + " finding's decision: false positive))"},
		{suppressed: spotbugs, confirmed: pmd, note: "(confirmed: must fix (decided on the problem's PMD " + pmd + " finding; over its own decision: false positive))"},
	} {
		t.Run(tc.confirmed+" confirmed", func(t *testing.T) {
			p, ids := order34Triage(t, [3]string{tc.suppressed, "false-positive", "the values are interned"}, [3]string{tc.confirmed, "confirmed", "must fix"})
			args := []string{"--no-context", "--limit", "200", "--max-tokens", "25000", "--triage", p, "--repo", "testdata/sample", "testdata/reports"}
			out, errOut, code := recap(t, root, nil, append([]string{"findings", "--format", "json"}, args...)...)
			if code != 0 {
				t.Fatalf("findings: exit %d\n%s", code, errOut)
			}
			var v struct {
				Findings []struct {
					ID, Rule string
					Triage   *struct {
						State           string
						OverrulesOthers []struct{ ID, Tool, Rule, State string }
					}
				}
			}
			mustJSON(t, out, &v)
			var lead *struct {
				State           string
				OverrulesOthers []struct{ ID, Tool, Rule, State string }
			}
			for _, f := range v.Findings {
				if f.ID == ids[spotbugs] || f.ID == ids[pmd] {
					lead = f.Triage
				}
			}
			switch {
			case lead == nil || lead.State != "confirmed":
				t.Fatalf("the problem's finding shown is marked %+v; want confirmed", lead)
			case tc.others && (len(lead.OverrulesOthers) != 1 || lead.OverrulesOthers[0].ID != ids[pmd] || lead.OverrulesOthers[0].Tool != "PMD" ||
				lead.OverrulesOthers[0].Rule != pmd || lead.OverrulesOthers[0].State != "false-positive"):
				t.Errorf("overrulesOthers %+v; want PMD %s's false-positive (%s)", lead.OverrulesOthers, pmd, ids[pmd])
			case !tc.others && len(lead.OverrulesOthers) != 0:
				t.Errorf("overrulesOthers %+v; want none (its own decision is the one overruled)", lead.OverrulesOthers)
			}
			if out, _, _ = recap(t, root, nil, append([]string{"findings"}, args...)...); !strings.Contains(out, tc.note) {
				t.Errorf("the text page does not say %q:\n%s", tc.note, out)
			}
			// recap's SARIF and the HTML report say it too.
			sarif, _, _ := recap(t, root, nil, "summary", "--format", "sarif", "--triage", p, "--repo", "testdata/sample", "testdata/reports")
			html, _, _ := recap(t, root, nil, "summary", "--format", "html", "--triage", p, "--repo", "testdata/sample", "testdata/reports")
			others := `"overrulesOthers":[{"id":"` + ids[pmd] + `","tool":"PMD","rule":"` + pmd + `","state":"false-positive"}]`
			row := `["PMD","` + pmd + `","false-positive"]`
			if got := strings.Contains(sarif, others); got != tc.others {
				t.Errorf("recap's SARIF has %s: %v, want %v", others, got, tc.others)
			}
			if got := strings.Contains(html, row); got != tc.others {
				t.Errorf("the HTML report has %s: %v, want %v", row, got, tc.others)
			}
		})
	}
}
