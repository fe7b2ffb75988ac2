package review

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/gfmtest"
	"github.com/recap-dev/recap/internal/githubtest"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// groupedInput is a review of problems that several findings report
// (docs/formats.md, "Duplicates"), as the pipeline hands them: on A.java's
// changed lines, Checkstyle's FinalParameters that PMD reports too, a
// problem eleven findings report (their names Markdown, mentions and HTML),
// and a finding alone; the duplicates are counted in the summary and left
// out of the page. leads are the findings of the page as the pipeline
// streams them to the check run and the job summary (the others in the
// detail's Also).
func groupedInput() (in Input, leads []reports.Finding) {
	files := []diff.File{{OldPath: "A.java", NewPath: "A.java", Status: diff.Modified, Changed: []int{10, 11, 12},
		Hunks: []diff.Hunk{{OldStart: 4, OldLines: 9, NewStart: 4, NewLines: 12}}}}
	first := []summarize.AlsoReported{{Tool: "PMD", Rule: "MethodArgumentCouldBeFinal", ID: reports.ID("pmd", 1)}}
	second := []summarize.AlsoReported{{Tool: "PMD", Rule: "UseEqualsToCompareStrings", ID: reports.ID("pmd", 2)},
		{Tool: "SpotBugs", Rule: "ES_COMPARING_STRINGS_WITH_EQ", ID: reports.ID("sb", 1)}}
	for j := 0; j < 9; j++ {
		second = append(second, summarize.AlsoReported{Tool: "@team #1", Rule: fmt.Sprintf("[x](javascript:1)<b>R%d</b>", j), ID: reports.ID("x", j+1)})
	}
	dup := map[string]bool{}
	c := summarize.NewCollector()
	c.KeepPage(0, summarize.MaxLimit)
	c.Skip(func(f *reports.Finding) bool { return dup[f.ID.String()] }, len(first)+len(second))
	add := func(f reports.Finding) {
		f.Fingerprint = reports.Fingerprint(f, nil)
		c.Add(f)
	}
	add(reports.Finding{ID: reports.ID("cs", 1), Tool: "Checkstyle", Rule: "FinalParameters", Category: "Code Style", Severity: reports.SeverityError,
		Path: "A.java", Line: 10, Column: 18, Message: "Parameter customer should be final."})
	add(reports.Finding{ID: reports.ID("cs", 2), Tool: "Checkstyle", Rule: "StringLiteralEquality", Category: "Error Prone", Severity: reports.SeverityError,
		Path: "A.java", Line: 11, Column: 9, Message: "Literal Strings should be compared using equals(), not '=='."})
	add(reports.Finding{ID: reports.ID("pmd", 9), Tool: "PMD", Rule: "SystemPrintln", Category: "Best Practices", Severity: reports.SeverityWarning,
		Path: "A.java", Line: 12, Message: "Usage of System.out/err"})
	for _, a := range append(append([]summarize.AlsoReported(nil), first...), second...) {
		dup[a.ID.String()] = true
		add(reports.Finding{ID: a.ID, Tool: a.Tool, Rule: a.Rule, Severity: reports.SeverityNote, Path: "A.java", Line: 10, Message: "the same"})
	}
	v := c.View([]reports.Input{{Tool: "Checkstyle"}, {Tool: "PMD"}})
	n := len(first) + len(second)
	v.Summary.Problems = v.Summary.Total - n
	v.Summary.Duplicates = &summarize.DuplicateCounts{Findings: n, Problems: 2, BySeverity: summarize.SeverityCounts{Note: n}}
	for i := range v.Findings {
		f := &v.Findings[i]
		switch f.ID {
		case reports.ID("cs", 1):
			f.AlsoReportedBy = first
		case reports.ID("cs", 2):
			f.AlsoReportedBy = second
		}
		g := f.Finding
		if len(f.AlsoReportedBy) > 0 {
			g.Detail = &reports.Detail{Also: f.AlsoReportedBy}
		}
		leads = append(leads, g)
	}
	return Input{View: v, Files: files, Index: diff.NewIndex(files)}, leads
}

// TestReviewAlsoReportedBy: one inline comment per problem, which names
// the other tools that reported it, inert on GitHub (cmark-gfm) and
// accepted by GitHub's stand-in; the body counts findings and problems.
func TestReviewAlsoReportedBy(t *testing.T) {
	in, _ := groupedInput()
	req := Build(in)
	if len(req.Comments) != 3 {
		t.Fatalf("%d comments, want one per problem (3)", len(req.Comments))
	}
	texts := map[string]string{}
	for _, c := range req.Comments {
		doc := gfmtest.Render(t, c.Body)
		for _, p := range gfmtest.Problems(doc) {
			t.Errorf("comment %s: %s", c.Key, p)
		}
		// The text of a code span comes with spaces around it.
		texts[c.Key] = strings.NewReplacer(" ,", ",", " .", ".").Replace(gfmtest.Text(doc))
		for _, r := range gfmtest.GitLabReferences(gfmtest.Render(t, GitLabBody(c.Body))) {
			t.Errorf("comment %s on GitLab: %s", c.Key, r)
		}
	}
	var named, bounded int
	for _, text := range texts {
		switch {
		case strings.Contains(text, "Also reported by PMD MethodArgumentCouldBeFinal."):
			named++
		case strings.Contains(text, "Also reported by PMD UseEqualsToCompareStrings, SpotBugs ES_COMPARING_STRINGS_WITH_EQ, @team #1 [x](javascript:1)<b>R0</b>"):
			named++
			if strings.Contains(text, "R8") || !strings.Contains(text, " and 3 more.") {
				t.Errorf("eleven others: want eight named and 3 more:\n%s", text)
			}
			bounded++
		case strings.Contains(text, "Also reported"):
			t.Errorf("a problem of one finding names others:\n%s", text)
		}
	}
	if named != 2 || bounded != 1 {
		t.Errorf("%d comments name the others, want 2:\n%v", named, texts)
	}
	body := gfmtest.Text(gfmtest.Render(t, req.Body))
	if !strings.Contains(body, "15 findings on changed lines") || !strings.Contains(body, "They are 3 problems, 2 reported more than once: each problem is commented or listed once") {
		t.Errorf("body:\n%s", body)
	}
	s := githubtest.New(t, "acme", "shop", 7, hunksOf(in.Files))
	done, err := newClient(s).Post(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	rc, _, _, errs := s.Snapshot()
	if len(errs) > 0 || done.Comments != 3 || len(rc) != 3 {
		t.Fatalf("posted %+v, %d comments, protocol errors %v", done, len(rc), errs)
	}
}

// TestListedAlsoReportedBy: a problem listed in the body rather than
// commented (its line outside the diff) names the others too, inert.
func TestListedAlsoReportedBy(t *testing.T) {
	in, _ := groupedInput()
	in.Files[0].Hunks = []diff.Hunk{{OldStart: 40, OldLines: 2, NewStart: 40, NewLines: 2}}
	in.Index = diff.NewIndex(in.Files)
	req := Build(in)
	if len(req.Comments) != 0 {
		t.Fatalf("%d comments outside the hunks", len(req.Comments))
	}
	doc := gfmtest.Render(t, req.Body)
	for _, p := range gfmtest.Problems(doc) {
		t.Error(p)
	}
	text := gfmtest.Text(doc)
	if !strings.Contains(text, "Not commented inline (3)") || !strings.Contains(text, "(also reported by PMD MethodArgumentCouldBeFinal)") {
		t.Errorf("body:\n%s", text)
	}
}

// TestCheckAlsoReportedBy: one annotation per problem, its message ending
// with the tools that reported it too, its raw details listing them with
// their ids; the title counts problems; GitHub's stand-in (its OpenAPI
// description) accepts the check run.
func TestCheckAlsoReportedBy(t *testing.T) {
	in, leads := groupedInput()
	ann := &Annotated{}
	for i := range leads {
		ann.Add(&leads[i])
	}
	kept, omitted, noFile := ann.Findings()
	run := BuildCheck(CheckInput{View: in.View, Findings: kept, Omitted: omitted, NoFile: noFile, Where: "on changed lines",
		Name: "recap: Checkstyle, PMD", HeadSHA: headSHA, Conclusion: ConclusionFailure})
	if len(run.Annotations) != 3 {
		t.Fatalf("%d annotations, want 3", len(run.Annotations))
	}
	if run.Title != "3 problems (15 findings) on changed lines: 2 error, 1 warning, 0 note" {
		t.Errorf("title %q", run.Title)
	}
	if !strings.Contains(run.Summary, "They are 3 problems, 2 reported more than once: each problem is annotated once") {
		t.Errorf("summary:\n%s", run.Summary)
	}
	a := run.Annotations[0]
	if a.Message != "Parameter customer should be final. (also reported by PMD MethodArgumentCouldBeFinal)" ||
		!strings.HasSuffix(a.RawDetails, "\nThe same problem, also reported as:\n- PMD MethodArgumentCouldBeFinal (recap id pmd-1)") {
		t.Errorf("first annotation %+v", a)
	}
	if m := run.Annotations[1].Message; !strings.HasSuffix(m, " and 3 more)") || len(m) > 2000 {
		t.Errorf("second annotation's message %q", m)
	}
	if m := run.Annotations[2].Message; strings.Contains(m, "also reported") {
		t.Errorf("a problem of one finding: %q", m)
	}
	// A message at the API's limit keeps the note, within the limit.
	long := leads[0]
	long.Message = strings.Repeat("é", 40000)
	if got := annotation(&long); len(got.Message) > maxAnnotationText || !strings.HasSuffix(got.Message, "(also reported by PMD MethodArgumentCouldBeFinal)") {
		t.Errorf("long message: %d bytes, ends %q", len(got.Message), got.Message[len(got.Message)-60:])
	}
	s := githubtest.New(t, "acme", "shop", 0, nil)
	if _, err := newClient(s).PostCheck(context.Background(), run, ""); err != nil {
		t.Fatal(err)
	}
	if _, _, _, errs := s.Snapshot(); len(errs) > 0 {
		t.Fatalf("protocol errors: %v", errs)
	}
	if got := s.Checks(); len(got) != 1 || len(got[0].Annotations) != 3 || got[0].Annotations[0].Message != a.Message {
		t.Errorf("posted %+v", got)
	}
}

// TestJobSummaryAlsoReportedBy: the job summary lists each problem once,
// naming the others, inert; its headline counts the problems.
func TestJobSummaryAlsoReportedBy(t *testing.T) {
	in, leads := groupedInput()
	j := &JobSummary{}
	for i := range leads {
		j.Add(&leads[i])
	}
	var b strings.Builder
	if err := j.Write(&b, JobSummaryInput{View: in.View, Where: "in the reports", Rest: "the SARIF file"}); err != nil {
		t.Fatal(err)
	}
	doc := gfmtest.Render(t, b.String())
	for _, p := range gfmtest.Problems(doc) {
		t.Error(p)
	}
	text := gfmtest.Text(doc)
	if n := strings.Count(b.String(), "\n- "); n != 3 {
		t.Errorf("%d listed, want 3", n)
	}
	for _, s := range []string{"They are 3 problems, 2 reported more than once: each problem is listed once",
		"also reported by PMD MethodArgumentCouldBeFinal", "@team #1 [x](javascript:1)<b>R0</b>"} {
		if !strings.Contains(text, s) {
			t.Errorf("no %q in\n%s", s, text)
		}
	}
}
