package pipeline_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/config"
	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
)

// sampleFiles are the sample's reports (testdata/reports), placed in the
// sample's checkout.
func sampleFiles(t *testing.T, names ...string) pipeline.Files {
	root := reportstest.RepoRoot(t)
	var paths []string
	for _, n := range names {
		paths = append(paths, filepath.Join(root, "testdata", "reports", n))
	}
	return pipeline.Files{Paths: paths, Options: parsers.ReadOptions{Root: filepath.Join(root, "testdata", "sample")}}
}

// TestSampleProblems: on the sample's three reports, the problems are
// counted once, every output that takes each finding (Keep.Each) gets each
// problem once, naming the others, and --no-group keeps all.
func TestSampleProblems(t *testing.T) {
	all := sampleFiles(t, "checkstyle.xml", "pmd.sarif", "spotbugs.xml")
	var each, also, named int
	q := &pipeline.Query{Reports: all, Classes: grouping.ClassOf, Keep: pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
		each++
		if f.Detail != nil && len(f.Detail.Also) > 0 {
			also++
			named += len(f.Detail.Also)
		}
		return nil
	}}}
	res, err := pipeline.Run(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	s := res.View.Summary
	if s.Total != tooltest.SampleFindings || s.Problems != tooltest.SampleProblems || s.Duplicates == nil || s.Duplicates.Findings != tooltest.SampleFindings-tooltest.SampleProblems {
		t.Fatalf("total %d, problems %d, duplicates %+v; want %d, %d, %d", s.Total, s.Problems, s.Duplicates, tooltest.SampleFindings, tooltest.SampleProblems, tooltest.SampleFindings-tooltest.SampleProblems)
	}
	if each != s.Problems || named != s.Duplicates.Findings || also != s.Duplicates.Problems {
		t.Errorf("Each got %d findings, %d naming %d others; want %d, %d naming %d", each, also, named, s.Problems, s.Duplicates.Problems, s.Duplicates.Findings)
	}

	each = 0
	q.Classes = nil
	if res, err = pipeline.Run(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	if each != tooltest.SampleFindings || res.View.Summary.Duplicates != nil {
		t.Errorf("without groups: Each got %d, duplicates %+v; want %d and none", each, res.View.Summary.Duplicates, tooltest.SampleFindings)
	}
}

// TestProblemsAgainstABaseline: a tool added to the pipeline does not make
// the problems it shares with the tools run before new. The baseline is
// Checkstyle's report alone; the run adds PMD's: PMD's findings are new,
// but those of a problem Checkstyle had reported are not new problems, and
// the gate counts problems.
func TestProblemsAgainstABaseline(t *testing.T) {
	q := &pipeline.Query{Reports: sampleFiles(t, "checkstyle.xml", "pmd.sarif"), Baseline: sampleFiles(t, "checkstyle.xml"),
		Classes: grouping.ClassOf, Keep: pipeline.Keep{Page: &pipeline.Page{Limit: 200}}}
	res, err := pipeline.Run(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	b := res.View.Summary.Baseline
	total := tooltest.SamplePMD + tooltest.SampleCheckstyle
	if b == nil || b.NewProblems == nil || b.New+b.Unchanged != total || b.Fixed != 0 {
		t.Fatalf("baseline counts %+v; want %d findings new or unchanged, none fixed, and the new problems", b, total)
	}
	d := res.View.Summary.Duplicates
	// PMD's findings are new, less those of a problem Checkstyle had
	// reported, which are unchanged; two new findings of one problem are
	// one new problem.
	if b.New >= tooltest.SamplePMD || *b.NewProblems > b.New || *b.NewProblems <= 0 || d == nil {
		t.Fatalf("%d new problems of %d new findings of PMD's %d (duplicates %+v)", *b.NewProblems, b.New, tooltest.SamplePMD, d)
	}
	shownNew := 0
	for _, f := range res.View.Findings {
		if f.Baseline == reports.BaselineNew {
			shownNew++
		}
	}
	if shownNew != *b.NewProblems {
		t.Errorf("%d findings shown as new, want the %d new problems", shownNew, *b.NewProblems)
	}
	err = pipeline.Gate{MaxNew: *b.NewProblems}.Check(res.View)
	if err != nil {
		t.Errorf("gate at %d new: %v", *b.NewProblems, err)
	}
	ge, ok := pipeline.Gate{MaxNew: *b.NewProblems - 1}.Check(res.View).(*pipeline.GateError)
	if !ok || ge.New != *b.NewProblems || !ge.Problems {
		t.Errorf("gate at %d new: %v", *b.NewProblems-1, ge)
	}
	t.Logf("%d new findings, %d new problems", b.New, *b.NewProblems)
}

// TestConfigInTheQuery: the configuration excludes (counted), overrides
// before the filter, and groups what recap's table does not.
func TestConfigInTheQuery(t *testing.T) {
	cfg, err := config.Parse(".recap.yml", []byte(`
exclude:
  rules: [Checkstyle:JavadocVariable]
overrides:
  - rules: [SpotBugs:SQL_NONCONSTANT_STRING_PASSED_TO_EXECUTE]
    impact: blocker
same:
  - [Checkstyle:DesignForExtension, Checkstyle:MissingJavadocMethod]
  - [Checkstyle:NoSuchRule, PMD:Nope]
`))
	if err != nil {
		t.Fatal(err)
	}
	files := sampleFiles(t, "checkstyle.xml", "pmd.sarif", "spotbugs.xml")
	base, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: files, Classes: grouping.ClassOf})
	if err != nil {
		t.Fatal(err)
	}
	q := &pipeline.Query{Reports: files, Classes: grouping.ClassOf, Config: cfg, Filter: reports.Filter{MinImpact: reports.ImpactBlocker},
		Keep: pipeline.Keep{Page: &pipeline.Page{Limit: 10}}}
	res, err := pipeline.Run(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if res.Excluded != 7 || res.View.Summary.Excluded != 7 {
		t.Errorf("%d excluded (summary %d), want the sample's 7 JavadocVariable", res.Excluded, res.View.Summary.Excluded)
	}
	if len(res.View.Findings) != 1 || res.View.Findings[0].Rule != "SQL_NONCONSTANT_STRING_PASSED_TO_EXECUTE" {
		t.Errorf("blocker findings %v, want the SQL injection alone", res.View.Findings)
	}
	var warned []string
	for _, u := range res.Unmatched {
		warned = append(warned, u.Where+" "+u.Name)
	}
	if len(warned) != 2 || warned[0] != ".recap.yml:9:6: same[1][0] Checkstyle:NoSuchRule" {
		t.Errorf("unmatched %q", warned)
	}
	q.Filter, q.Keep = reports.Filter{}, pipeline.Keep{}
	if res, err = pipeline.Run(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	if got, was := res.View.Summary.Duplicates.Findings, base.View.Summary.Duplicates.Findings; got <= was-7 {
		t.Errorf("%d duplicates with the configuration's group, %d without (7 of them excluded now)", got, was)
	}
}

// TestNewOnlyCountsProblems: with new only, a new finding of a problem the
// baseline had is no new problem, as without: the gate counts the same new
// problems, and the view of the new findings counts, pages and hands on
// (Keep.Each) those of the new problems alone, each once.
func TestNewOnlyCountsProblems(t *testing.T) {
	for name, tc := range map[string]struct{ reports, baseline []string }{
		"PMD added to Checkstyle": {[]string{"checkstyle.xml", "pmd.sarif"}, []string{"checkstyle.xml"}},
		"the sample against PMD":  {[]string{"checkstyle.xml", "pmd.sarif", "spotbugs.xml"}, []string{"pmd.sarif"}},
	} {
		t.Run(name, func(t *testing.T) {
			run := func(newOnly bool, keep pipeline.Keep) *pipeline.Result {
				t.Helper()
				q := &pipeline.Query{Reports: sampleFiles(t, tc.reports...), Baseline: sampleFiles(t, tc.baseline...),
					Classes: grouping.ClassOf, NewOnly: newOnly, Keep: keep}
				res, err := pipeline.Run(context.Background(), q)
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			all := run(false, pipeline.Keep{Page: &pipeline.Page{Limit: 200}})
			want := *all.View.Summary.Baseline.NewProblems
			if want == 0 || all.View.Summary.Baseline.New == 0 {
				t.Fatalf("no new problems: %+v", all.View.Summary.Baseline)
			}
			for keep, k := range map[string]pipeline.Keep{
				"page":         {Page: &pipeline.Page{Limit: 200}},
				"short page":   {Page: &pipeline.Page{Limit: 5}},
				"per severity": {PerSeverity: 10},
				"deep page":    {Page: &pipeline.Page{Offset: pipeline.DeepPage - 100, Limit: 200}},
			} {
				res := run(true, k)
				s := res.View.Summary
				if s.Baseline.NewProblems == nil || *s.Baseline.NewProblems != want || s.Baseline.New != all.View.Summary.Baseline.New {
					t.Errorf("%s: baseline %+v; want %d new findings, %d new problems as without new only", keep, s.Baseline, all.View.Summary.Baseline.New, want)
				}
				if s.Total != s.Baseline.New || s.Problems != want {
					t.Errorf("%s: %d findings, %d problems; want %d and %d", keep, s.Total, s.Problems, s.Baseline.New, want)
				}
				if ge, ok := (pipeline.Gate{MaxNew: 0}).Check(res.View).(*pipeline.GateError); !ok || ge.New != want {
					t.Errorf("%s: gate at 0 new: %v; want %d new problems", keep, ge, want)
				}
				for _, f := range res.View.Findings {
					if f.Baseline != reports.BaselineNew {
						t.Errorf("%s: %s shown, %s", keep, f.ID, f.Baseline)
					}
				}
				if p := res.View.Page; p != nil && p.Total != want {
					t.Errorf("%s: page of %d; want the %d new problems", keep, p.Total, want)
				}
				if keep == "deep page" && len(res.View.Findings) != 0 {
					t.Errorf("%s: %d findings shown past the %d new problems", keep, len(res.View.Findings), want)
				}
				if keep == "page" && len(res.View.Findings) != want {
					t.Errorf("%s: %d findings shown; want the %d new problems", keep, len(res.View.Findings), want)
				}
			}
			each := 0
			run(true, pipeline.Keep{Each: func(f *reports.Finding, state string) error {
				if state != reports.BaselineNew {
					t.Errorf("Each: %s %s", f.ID, state)
				}
				each++
				return nil
			}})
			if each != want {
				t.Errorf("Each got %d findings; want the %d new problems", each, want)
			}
			t.Logf("%d new findings, %d new problems", all.View.Summary.Baseline.New, want)
		})
	}
}
