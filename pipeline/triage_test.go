package pipeline_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/internal/triagetest"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/triage"
)

// TestTriageHonoured: five decisions on the first five problems of the
// sample's first page (one reported by several tools: the decision covers
// its other findings) leave them out of the page, the counts, Each and the
// gate by default, show them marked with include, alone with only; a
// confirmed decision keeps its finding marked, an expired one brings it
// back marked expired.
func TestTriageHonoured(t *testing.T) {
	file, decided := triagetest.Sample(t)
	src := os.DirFS(filepath.Join(reportstest.RepoRoot(t), "testdata", "sample"))
	const problems = tooltest.SampleProblems // the sample's, without triage (TestSampleProblems)
	triagedFindings := 9                     // the five problems' findings
	tests := []struct {
		name        string
		mode        pipeline.TriagedMode
		edit        func(f *triage.File)
		total       int
		problems    int
		triaged     int // problems left out
		onPage      int // of the five decided, on the first page of 10
		marked      string
		gatePasses  bool // --fail-on-impact high
		each        int
		stateCounts map[string]int
	}{
		{name: "exclude", mode: pipeline.TriagedExclude, total: tooltest.SampleFindings - triagedFindings, problems: problems - 5, triaged: 5, onPage: 0, gatePasses: true, each: problems - 5,
			stateCounts: map[string]int{"false-positive": 3, "wont-fix": 1, "accepted-risk": 1}},
		{name: "include", mode: pipeline.TriagedInclude, total: tooltest.SampleFindings, problems: problems, triaged: 5, onPage: 5, marked: "false positive: decided in review", gatePasses: true, each: problems,
			stateCounts: map[string]int{"false-positive": 3, "wont-fix": 1, "accepted-risk": 1}},
		{name: "only", mode: pipeline.TriagedOnly, total: triagedFindings, problems: 5, triaged: 5, onPage: 5, marked: "false positive: decided in review", gatePasses: true, each: 5,
			stateCounts: map[string]int{"false-positive": 3, "wont-fix": 1, "accepted-risk": 1}},
		{name: "confirmed", mode: pipeline.TriagedExclude, edit: func(f *triage.File) {
			for i := range f.Entries {
				f.Entries[i].State = triage.Confirmed
			}
		}, total: tooltest.SampleFindings, problems: problems, triaged: 0, onPage: 5, marked: "confirmed: decided in review", gatePasses: false, each: problems},
		{name: "expired", mode: pipeline.TriagedExclude, edit: func(f *triage.File) {
			for i := range f.Entries {
				f.Entries[i].Until = "2026-10-01"
			}
		}, total: tooltest.SampleFindings, problems: problems, triaged: 0, onPage: 5, marked: "triage expired 2026-10-01: decided in review", gatePasses: false, each: problems},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &triage.File{Name: file.Name, Version: 1, Entries: slices.Clone(file.Entries)}
			if tt.edit != nil {
				tt.edit(f)
			}
			each := 0
			q := &pipeline.Query{Reports: sampleFiles(t, "checkstyle.xml", "pmd.sarif", "spotbugs.xml"), Classes: grouping.ClassOf,
				Keep:   pipeline.Keep{Page: &pipeline.Page{Limit: 10}, Each: func(*reports.Finding, string) error { each++; return nil }},
				Triage: triage.NewMatcher(f, src, triagetest.Now), Triaged: tt.mode}
			res, err := pipeline.Run(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			s := res.View.Summary
			if s.Total != tt.total || s.Problems != tt.problems || each != tt.each {
				t.Errorf("total %d, problems %d, Each %d; want %d, %d, %d", s.Total, s.Problems, each, tt.total, tt.problems, tt.each)
			}
			got := 0
			if s.Triaged != nil {
				got = s.Triaged.Problems
				if tt.triaged > 0 && (s.Triaged.Total != triagedFindings || !maps(s.Triaged.ByState, tt.stateCounts) || s.Triaged.Shown != (tt.mode != pipeline.TriagedExclude)) {
					t.Errorf("triaged %+v; want %d findings, by state %v", s.Triaged, triagedFindings, tt.stateCounts)
				}
			}
			if got != tt.triaged {
				t.Errorf("%d problems triaged, want %d", got, tt.triaged)
			}
			onPage := 0
			for _, fv := range res.View.Findings {
				for _, d := range decided {
					if fv.ID == d.ID {
						onPage++
						if !strings.HasPrefix(fv.Triage.Note(), strings.SplitN(tt.marked, ":", 2)[0]) && fv.Triage.State != "wont-fix" && fv.Triage.State != "accepted-risk" {
							t.Errorf("%s marked %q, want %q", fv.ID, fv.Triage.Note(), tt.marked)
						}
					}
				}
			}
			if onPage != tt.onPage {
				t.Errorf("%d of the decided findings on the first page, want %d", onPage, tt.onPage)
			}
			err = pipeline.Gate{FailOnImpact: reports.ImpactHigh, MaxNew: -1}.Check(res.View)
			if (err == nil) != tt.gatePasses {
				t.Errorf("gate --fail-on-impact high: %v, want passing %v", err, tt.gatePasses)
			}
		})
	}
}

func maps(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestTriageCoversTheProblem: a decision on a finding that another
// finding of its problem shows (a duplicate) leaves the whole problem out.
func TestTriageCoversTheProblem(t *testing.T) {
	src := os.DirFS(filepath.Join(reportstest.RepoRoot(t), "testdata", "sample"))
	q := &pipeline.Query{Reports: sampleFiles(t, "checkstyle.xml", "pmd.sarif", "spotbugs.xml"), Classes: grouping.ClassOf}
	var dup *reports.Finding
	var lead string
	q.Keep.Each = func(f *reports.Finding, _ string) error {
		if dup == nil && f.Detail != nil && len(f.Detail.Also) > 0 {
			lead = f.ID.String()
			dup = &reports.Finding{ID: f.Detail.Also[0].ID}
		}
		return nil
	}
	if _, err := pipeline.Run(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	// The duplicate's finding, as a page with every finding shows it.
	var entry triage.Entry
	q.Classes, q.Keep = nil, pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
		if f.ID == dup.ID {
			entry = triage.EntryFor(f, src)
		}
		return nil
	}}
	if _, err := pipeline.Run(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	entry.State, entry.Reason = triage.WontFix, "legacy API"
	q.Classes, q.Keep = grouping.ClassOf, pipeline.Keep{Page: &pipeline.Page{Limit: 200}}
	q.Triage = triage.NewMatcher(&triage.File{Entries: []triage.Entry{entry}}, src, triagetest.Now)
	res, err := pipeline.Run(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	for _, fv := range res.View.Findings {
		if fv.ID.String() == lead || fv.ID == dup.ID {
			t.Errorf("%s of the triaged problem is on the page", fv.ID)
		}
	}
	if tr := res.View.Summary.Triaged; tr == nil || tr.Problems != 1 || tr.Total < 2 || tr.ByState["wont-fix"] != 1 {
		t.Errorf("triaged %+v; want one problem of at least two findings, won't fix", tr)
	}
}

// TestTriageDeepPage: a page past DeepPage, found in passes, counts the
// triaged problems as the first page does.
func TestTriageDeepPage(t *testing.T) {
	file, _ := triagetest.Sample(t)
	src := os.DirFS(filepath.Join(reportstest.RepoRoot(t), "testdata", "sample"))
	for _, page := range []pipeline.Page{{Limit: 10}, {Offset: pipeline.DeepPage, Limit: 10}} {
		q := &pipeline.Query{Reports: sampleFiles(t, "checkstyle.xml", "pmd.sarif", "spotbugs.xml"), Classes: grouping.ClassOf,
			Keep: pipeline.Keep{Page: &page}, Triage: triage.NewMatcher(file, src, triagetest.Now)}
		res, err := pipeline.Run(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		s := res.View.Summary
		if s.Total != tooltest.SampleFindings-9 || s.Problems != tooltest.SampleProblems-5 || s.Triaged == nil || s.Triaged.Problems != 5 || s.Triaged.Total != 9 {
			t.Errorf("page %+v: total %d, problems %d, triaged %+v; want %d, %d, 5 problems of 9 findings", page, s.Total, s.Problems, s.Triaged, tooltest.SampleFindings-9, tooltest.SampleProblems-5)
		}
	}
}

// TestTriageMaxNew: against a baseline, the triaged problems are not new:
// --max-new at the untriaged new problems passes in every mode, and fails
// at one fewer.
func TestTriageMaxNew(t *testing.T) {
	file, _ := triagetest.Sample(t)
	src := os.DirFS(filepath.Join(reportstest.RepoRoot(t), "testdata", "sample"))
	run := func(m *triage.Matcher, mode pipeline.TriagedMode) *pipeline.Result {
		q := &pipeline.Query{Reports: sampleFiles(t, "checkstyle.xml", "pmd.sarif", "spotbugs.xml"), Baseline: sampleFiles(t, "checkstyle.xml"),
			Classes: grouping.ClassOf, Triage: m, Triaged: mode}
		res, err := pipeline.Run(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	all := *run(nil, pipeline.TriagedExclude).View.Summary.Baseline.NewProblems
	excl := run(triage.NewMatcher(file, src, triagetest.Now), pipeline.TriagedExclude)
	untriaged := *excl.View.Summary.Baseline.NewProblems
	if tr := excl.View.Summary.Triaged; untriaged >= all || tr == nil || tr.New != all-untriaged {
		t.Fatalf("%d new problems, %d untriaged, triaged %+v", all, untriaged, tr)
	}
	for _, mode := range []pipeline.TriagedMode{pipeline.TriagedExclude, pipeline.TriagedInclude, pipeline.TriagedOnly} {
		v := run(triage.NewMatcher(file, src, triagetest.Now), mode).View
		if err := (pipeline.Gate{MaxNew: untriaged}).Check(v); mode != pipeline.TriagedOnly && err != nil {
			t.Errorf("%v: max-new %d: %v", mode, untriaged, err)
		}
		if err := (pipeline.Gate{MaxNew: untriaged - 1}).Check(v); mode != pipeline.TriagedOnly && err == nil {
			t.Errorf("%v: max-new %d passes", mode, untriaged-1)
		}
		if err := (pipeline.Gate{MaxNew: 0}).Check(v); mode == pipeline.TriagedOnly && err != nil {
			t.Errorf("only: max-new 0: %v", err)
		}
	}
}

// TestTriageNewOnlyCountsAlike: a decision on a finding of a problem
// several findings report covers the problem whether the view is of the
// new findings or of all: the counts against the baseline are the same
// with new only as without, in each mode, when the decided finding is
// unchanged and its problem's others new or unchanged alike.
func TestTriageNewOnlyCountsAlike(t *testing.T) {
	src := os.DirFS(filepath.Join(reportstest.RepoRoot(t), "testdata", "sample"))
	reportFiles := []string{"checkstyle.xml", "pmd.sarif", "spotbugs.xml"}
	// The Checkstyle findings of problems several tools report.
	inProblem := map[reports.FindingID]bool{}
	if _, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: sampleFiles(t, reportFiles...), Classes: grouping.ClassOf,
		Keep: pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
			if f.Detail == nil || len(f.Detail.Also) == 0 {
				return nil
			}
			for _, a := range append([]reports.Also{{Tool: f.Tool, ID: f.ID}}, f.Detail.Also...) {
				if a.Tool == "Checkstyle" {
					inProblem[a.ID] = true
				}
			}
			return nil
		}}}); err != nil {
		t.Fatal(err)
	}
	entries := sampleEntries(t, func(f *reports.Finding) triage.State {
		if inProblem[f.ID] {
			return triage.FalsePositive
		}
		return ""
	})
	if len(entries) < 2 {
		t.Fatalf("%d Checkstyle findings in problems of several tools", len(entries))
	}
	for _, baseline := range [][]string{{"checkstyle.xml"}, reportFiles} {
		for _, mode := range []pipeline.TriagedMode{pipeline.TriagedExclude, pipeline.TriagedInclude} {
			counts := func(newOnly bool) summarize.BaselineCounts {
				q := &pipeline.Query{Reports: sampleFiles(t, reportFiles...), Baseline: sampleFiles(t, baseline...), NewOnly: newOnly,
					Classes: grouping.ClassOf, Triaged: mode, Triage: triage.NewMatcher(&triage.File{Version: 1, Entries: entries}, src, triagetest.Now)}
				res, err := pipeline.Run(context.Background(), q)
				if err != nil {
					t.Fatal(err)
				}
				return *res.View.Summary.Baseline
			}
			all, newOnly := counts(false), counts(true)
			if diff := cmp.Diff(all, newOnly); diff != "" {
				t.Errorf("baseline %v, %v: the counts against the baseline with new only differ (-without +with):\n%s", baseline, mode, diff)
			}
		}
	}
}
