package pipeline_test

import (
	"context"
	"fmt"
	gomaps "maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/triagetest"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/triage"
)

// TestTriageCoversThroughTheFilter: a decision on one finding of a
// problem covers the problem's other findings also when a filter leaves
// the decided one out (--tool PMD where SpotBugs' finding is decided):
// under each filter, every finding it keeps is triaged exactly when the
// view without the filter triages it, and marked confirmed exactly when
// that view marks it so, and the counts and the gate say the same.
func TestTriageCoversThroughTheFilter(t *testing.T) {
	src := os.DirFS(filepath.Join(reportstest.RepoRoot(t), "testdata", "sample"))
	reportFiles := sampleReports
	// The problems several tools report: a member of each, another tool's
	// each time, is decided.
	// Also: three findings alone in their problem, and, in the first
	// problem, another member confirmed (the problem stays shown).
	pick := map[reports.FindingID]triage.State{}
	tools := map[string]bool{}
	n, alone := 0, 0
	if _, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: sampleFiles(t, reportFiles...), Classes: grouping.ClassOf,
		Keep: pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
			if f.Detail == nil || len(f.Detail.Also) == 0 {
				if alone < 3 && f.Line > 0 {
					pick[f.ID] = triage.WontFix
					alone++
				}
				return nil
			}
			members := append([]reports.Also{{Tool: f.Tool, ID: f.ID}}, f.Detail.Also...)
			m := members[n%len(members)]
			if n == 0 {
				pick[members[(n+1)%len(members)].ID] = triage.Confirmed
			}
			n++
			pick[m.ID], tools[m.Tool] = triage.FalsePositive, true
			return nil
		}}}); err != nil {
		t.Fatal(err)
	}
	if len(tools) < 2 {
		t.Fatalf("the decided findings are of %d tools, want several", len(tools))
	}
	lines := map[string]map[int]bool{} // of the findings not decided
	decidedLines := map[string]map[int]bool{}
	entries := sampleEntries(t, func(f *reports.Finding) triage.State {
		to := lines
		if pick[f.ID] != "" {
			to = decidedLines
		}
		if to[f.Path] == nil {
			to[f.Path] = map[int]bool{}
		}
		for l := f.Line; l <= max(f.Line, f.EndLine); l++ {
			to[f.Path][l] = true
		}
		return pick[f.ID]
	})
	// A change that adds the lines of the findings not decided, and none
	// of a decided one.
	var diff strings.Builder
	for _, p := range slices.Sorted(gomaps.Keys(lines)) {
		fmt.Fprintf(&diff, "diff --git a/%[1]s b/%[1]s\n--- a/%[1]s\n+++ b/%[1]s\n", p)
		k := 0
		for _, l := range slices.Sorted(gomaps.Keys(lines[p])) {
			if !decidedLines[p][l] {
				fmt.Fprintf(&diff, "@@ -%d,0 +%d @@\n+changed\n", l-1-k, l)
				k++
			}
		}
	}
	diffFile := filepath.Join(t.TempDir(), "change.diff")
	if err := os.WriteFile(diffFile, []byte(diff.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	type query struct {
		flt      reports.Filter
		changed  bool
		baseline bool
		deep     bool
	}
	confirmed := map[reports.FindingID]bool{} // of the last run: the findings marked confirmed
	run := func(qq query, mode pipeline.TriagedMode) (*pipeline.Result, map[reports.FindingID]bool) {
		triaged := map[reports.FindingID]bool{}
		clear(confirmed)
		page := &pipeline.Page{Limit: 200}
		if qq.deep {
			page.Offset = pipeline.DeepPage
		}
		q := &pipeline.Query{Reports: sampleFiles(t, reportFiles...), Filter: qq.flt, Classes: grouping.ClassOf, Triaged: mode,
			Triage: triage.NewMatcher(&triage.File{Version: 1, Entries: entries}, src, triagetest.Now),
			Keep: pipeline.Keep{Page: page, Each: func(f *reports.Finding, _ string) error {
				// Each takes each problem once: its findings share its decision.
				triaged[f.ID] = f.Triage.Suppressed()
				yes := f.Triage != nil && f.Triage.State == string(triage.Confirmed)
				confirmed[f.ID] = yes
				if f.Detail != nil {
					for _, a := range f.Detail.Also {
						triaged[a.ID] = f.Triage.Suppressed()
						confirmed[a.ID] = yes
					}
				}
				return nil
			}}}
		if qq.changed {
			q.Changes = &pipeline.Changes{DiffFile: diffFile}
		}
		if qq.baseline {
			q.Baseline = sampleFiles(t, "checkstyle.xml")
		}
		if qq.deep {
			q.Keep.Each = nil
		}
		res, err := pipeline.Run(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		return res, triaged
	}
	_, truth := run(query{}, pipeline.TriagedInclude)
	truthConfirmed := gomaps.Clone(confirmed)
	covered := 0
	for id, tr := range truth {
		if tr && pick[id] == "" {
			covered++
		}
	}
	if covered == 0 {
		t.Fatal("no finding triaged through its problem")
	}
	queries := []struct {
		name string
		q    query
	}{
		{"checkstyle", query{flt: reports.Filter{Tools: []string{"Checkstyle"}}}},
		{"pmd", query{flt: reports.Filter{Tools: []string{"PMD"}}}},
		{"spotbugs", query{flt: reports.Filter{Tools: []string{"SpotBugs"}}}},
		{"path", query{flt: reports.Filter{Paths: []string{"**/*.java"}}}},
		{"severity", query{flt: reports.Filter{MinSeverity: reports.SeverityWarning}}},
		{"changed lines", query{changed: true}},
		{"changed lines, baseline", query{changed: true, baseline: true}},
		{"pmd, changed lines", query{flt: reports.Filter{Tools: []string{"PMD"}}, changed: true}},
	}
	for _, tt := range queries {
		t.Run(tt.name, func(t *testing.T) {
			res, got := run(tt.q, pipeline.TriagedInclude)
			if len(got) == 0 {
				t.Fatal("the filter keeps no finding")
			}
			want := 0
			for id, tr := range got {
				if was, ok := truth[id]; !ok || tr != was {
					t.Errorf("%s triaged %v, without the filter %v", id, tr, was)
				}
				// A confirmation marks its problem's findings the
				// filter keeps, when it leaves the confirmed one out.
				if confirmed[id] != truthConfirmed[id] {
					t.Errorf("%s marked confirmed %v, without the filter %v", id, confirmed[id], truthConfirmed[id])
				}
				if !tr {
					want++
				}
			}
			if tr := res.View.Summary.Triaged; tr == nil && len(got) != want {
				t.Errorf("no triaged counts; %d of %d findings triaged", len(got)-want, len(got))
			}
			if tt.q.changed && len(tt.q.flt.Tools) == 0 && len(got) == want {
				t.Error("no triaged finding on the changed lines")
			}
			ex, _ := run(tt.q, pipeline.TriagedExclude)
			if ex.View.Summary.Total != want {
				t.Errorf("excluded: total %d, want %d (the findings the filter keeps that are not triaged)", ex.View.Summary.Total, want)
			}
			deep := tt.q
			deep.deep = true
			if d, _ := run(deep, pipeline.TriagedExclude); d.View.Summary.Total != want || d.View.Summary.Problems != ex.View.Summary.Problems {
				t.Errorf("excluded, a deep page: total %d, problems %d; want %d, %d", d.View.Summary.Total, d.View.Summary.Problems, want, ex.View.Summary.Problems)
			}
			only, _ := run(tt.q, pipeline.TriagedOnly)
			if only.View.Summary.Total != len(got)-want {
				t.Errorf("only: total %d, want %d", only.View.Summary.Total, len(got)-want)
			}
			if tt.q.changed && tt.q.flt.Empty() {
				// The findings off the changed lines (the review's "more
				// findings outside") are those the mode shows.
				var off, offTriaged int
				for id, tr := range truth {
					if _, on := got[id]; !on {
						off++
						if tr {
							offTriaged++
						}
					}
				}
				if offTriaged == 0 {
					t.Fatal("no triaged finding off the changed lines")
				}
				for _, c := range []struct {
					mode string
					got  int
					want int
				}{{"include", res.Outside, off}, {"exclude", ex.Outside, off - offTriaged}, {"only", only.Outside, offTriaged}} {
					if c.got != c.want {
						t.Errorf("%s: %d findings outside the changed lines, want %d", c.mode, c.got, c.want)
					}
				}
			}
			for _, fv := range ex.View.Findings {
				if truth[fv.ID] {
					t.Errorf("excluded: %s, triaged, on the page", fv.ID)
				}
			}
			if tr := ex.View.Summary.Triaged; len(got) > want && (tr == nil || tr.Total != len(got)-want) {
				t.Errorf("excluded: triaged %+v, want %d findings", tr, len(got)-want)
			}
		})
	}
}

// TestTriageEveryFindingDecided: a problem whose findings are each
// decided (a decision of its own on every finding, or on every one the
// filter keeps) is one triaged problem: the counts of problems, of
// duplicates and of the triaged are those of one decision on it.
func TestTriageEveryFindingDecided(t *testing.T) {
	src := os.DirFS(filepath.Join(reportstest.RepoRoot(t), "testdata", "sample"))
	reportFiles := sampleReports
	members := firstProblemOfThree(t)
	one := sampleEntries(t, decideIDs(triage.WontFix, members[0].ID))
	every := sampleEntries(t, decideIDs(triage.WontFix, members[0].ID, members[1].ID, members[2].ID))
	two := sampleEntries(t, decideIDs(triage.WontFix, members[0].ID, members[1].ID))
	type counts struct {
		Total, Problems, Duplicates, Triaged, TriagedFindings, Page int
	}
	run := func(entries []triage.Entry, flt reports.Filter, mode pipeline.TriagedMode, deep bool) counts {
		page := &pipeline.Page{Limit: 200}
		if deep {
			page.Offset = pipeline.DeepPage
		}
		q := &pipeline.Query{Reports: sampleFiles(t, reportFiles...), Filter: flt, Classes: grouping.ClassOf, Triaged: mode,
			Triage: triage.NewMatcher(&triage.File{Version: 1, Entries: entries}, src, triagetest.Now), Keep: pipeline.Keep{Page: page}}
		res, err := pipeline.Run(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		s := res.View.Summary
		c := counts{Total: s.Total, Problems: s.Problems, Page: res.View.Page.Total}
		if s.Duplicates != nil {
			c.Duplicates = s.Duplicates.Findings
		}
		if s.Triaged != nil {
			c.Triaged, c.TriagedFindings = s.Triaged.Problems, s.Triaged.Total
		}
		return c
	}
	filters := []struct {
		name string
		flt  reports.Filter
		// the decisions that are every decided finding the filter keeps
		entries []triage.Entry
	}{
		{"every finding", reports.Filter{}, every},
		{"both the filter keeps", reports.Filter{Tools: []string{members[0].Tool, members[1].Tool}}, two},
	}
	for _, tt := range filters {
		for _, mode := range []pipeline.TriagedMode{pipeline.TriagedExclude, pipeline.TriagedInclude, pipeline.TriagedOnly} {
			for _, deep := range []bool{false, true} {
				want := run(one, tt.flt, mode, deep)
				got := run(tt.entries, tt.flt, mode, deep)
				if got != want {
					t.Errorf("%s, %v, deep %v: %+v; with one decision on the problem %+v", tt.name, mode, deep, got, want)
				}
			}
		}
	}
}

// TestTriageOldProblemNotNew: against a baseline that had a problem (one
// of its findings unchanged), a decision on the problem makes no new
// triaged problem: without new only, the triaged problems count none new;
// with it, the view leaves the problem's new findings out, and the
// triaged counts leave them out too. Whether the decision is on the
// unchanged finding or on a new one, covered or decided, alike.
func TestTriageOldProblemNotNew(t *testing.T) {
	src := os.DirFS(filepath.Join(reportstest.RepoRoot(t), "testdata", "sample"))
	reportFiles := sampleReports
	// The problems SpotBugs reports with another tool: old against a
	// baseline of SpotBugs' report, with new findings.
	var old, fresh []reports.FindingID // a SpotBugs member of each; another tool's
	if _, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: sampleFiles(t, reportFiles...), Classes: grouping.ClassOf,
		Keep: pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
			if f.Detail == nil || len(f.Detail.Also) == 0 {
				return nil
			}
			var sb, other reports.FindingID
			for _, a := range append([]reports.Also{{Tool: f.Tool, ID: f.ID}}, f.Detail.Also...) {
				if a.Tool == "SpotBugs" {
					sb = a.ID
				} else {
					other = a.ID
				}
			}
			if !sb.IsZero() && !other.IsZero() {
				old, fresh = append(old, sb), append(fresh, other)
			}
			return nil
		}}}); err != nil {
		t.Fatal(err)
	}
	if len(old) < 2 {
		t.Fatalf("%d problems of SpotBugs and another tool", len(old))
	}
	entriesOf := func(ids []reports.FindingID) []triage.Entry {
		return sampleEntries(t, decideIDs(triage.FalsePositive, ids...))
	}
	for _, tt := range []struct {
		name    string
		entries []triage.Entry
	}{
		{"on the unchanged finding", entriesOf(old)},
		{"on a new finding", entriesOf(fresh)},
		{"on both", entriesOf(append(slices.Clone(old), fresh...))},
	} {
		for _, mode := range []pipeline.TriagedMode{pipeline.TriagedExclude, pipeline.TriagedInclude, pipeline.TriagedOnly} {
			for _, newOnly := range []bool{false, true} {
				q := &pipeline.Query{Reports: sampleFiles(t, reportFiles...), Baseline: sampleFiles(t, "spotbugs.xml"), NewOnly: newOnly,
					Classes: grouping.ClassOf, Triaged: mode, Keep: pipeline.Keep{Page: &pipeline.Page{Limit: 200}},
					Triage: triage.NewMatcher(&triage.File{Version: 1, Entries: tt.entries}, src, triagetest.Now)}
				res, err := pipeline.Run(context.Background(), q)
				if err != nil {
					t.Fatal(err)
				}
				tr := res.View.Summary.Triaged
				switch {
				case newOnly && tr != nil && (tr.Total != 0 || tr.Problems != 0 || tr.New != 0):
					t.Errorf("%s, %v, new only: triaged %+v; want none (their problems are old)", tt.name, mode, tr)
				case !newOnly && (tr == nil || tr.Problems != len(old) || tr.New != 0):
					t.Errorf("%s, %v: triaged %+v; want %d problems, none new", tt.name, mode, tr, len(old))
				}
			}
		}
	}
}

// TestTriageConfirmedKeepsTheProblem: a problem one of whose findings is
// decided confirmed stays shown and counted, whole, also when another of
// its findings is decided false positive (the confirmation marks that
// one too), with or without a filter that leaves out the confirmed
// finding.
func TestTriageConfirmedKeepsTheProblem(t *testing.T) {
	src := os.DirFS(filepath.Join(reportstest.RepoRoot(t), "testdata", "sample"))
	reportFiles := sampleReports
	members := firstProblemOfThree(t)
	confirmed, decided, other := members[1], members[0], members[2]
	var decidedPath string
	entries := sampleEntries(t, func(f *reports.Finding) triage.State {
		switch f.ID {
		case confirmed.ID:
			return triage.Confirmed
		case decided.ID:
			decidedPath = f.Path
			return triage.FalsePositive
		}
		return ""
	})
	// Against a baseline that had the problem by the decided finding alone.
	baseline := map[string]string{"Checkstyle": "checkstyle.xml", "PMD": "pmd.sarif", "SpotBugs": "spotbugs.xml"}[decided.Tool]
	// Without a filter; one that leaves out the confirmed finding; one that
	// keeps the decided finding alone (the query's grouper makes no problem).
	for _, flt := range []reports.Filter{{}, {Tools: []string{decided.Tool, other.Tool}}, {Rules: []string{decided.Rule}, Paths: []string{decidedPath}}} {
		plain, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: sampleFiles(t, reportFiles...), Baseline: sampleFiles(t, baseline),
			Filter: flt, Classes: grouping.ClassOf})
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range []pipeline.TriagedMode{pipeline.TriagedExclude, pipeline.TriagedInclude} {
			states := map[reports.FindingID]string{}
			q := &pipeline.Query{Reports: sampleFiles(t, reportFiles...), Baseline: sampleFiles(t, baseline), Filter: flt, Classes: grouping.ClassOf, Triaged: mode,
				Triage: triage.NewMatcher(&triage.File{Version: 1, Entries: entries}, src, triagetest.Now),
				Keep: pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
					s := "shown"
					if f.Triage != nil {
						s = f.Triage.State
					}
					states[f.ID] = s
					if f.Detail != nil {
						for _, a := range f.Detail.Also {
							states[a.ID] = s + " (with " + f.ID.String() + ")"
						}
					}
					return nil
				}}}
			res, err := pipeline.Run(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range []reports.Also{decided, other} {
				if len(flt.Tools) > 0 && !slices.Contains(flt.Tools, m.Tool) || len(flt.Rules) > 0 && m != decided {
					continue
				}
				if got := states[m.ID]; got == "" || strings.HasPrefix(got, "false-positive") {
					t.Errorf("filter %v, %v: the problem's finding %s is %q; want it shown, its problem confirmed", flt.Tools, mode, m.ID, got)
				}
			}
			if tr := res.View.Summary.Triaged; tr != nil && (tr.Problems != 0 || tr.Total != 0) {
				t.Errorf("filter %v, %v: triaged %+v; want nothing triaged", flt.Tools, mode, tr)
			}
			got, want := res.View.Summary, plain.View.Summary
			if got.Total != want.Total || got.Problems != want.Problems || *got.Baseline.NewProblems != *want.Baseline.NewProblems {
				t.Errorf("filter %v, %v: %d findings, %d problems, %d new; without the decisions %d, %d, %d", flt.Tools, mode,
					got.Total, got.Problems, *got.Baseline.NewProblems, want.Total, want.Problems, *want.Baseline.NewProblems)
			}
			if err := (pipeline.Gate{FailOn: reports.SeverityNote, MaxNew: -1}).Check(res.View); err == nil {
				t.Errorf("filter %v, %v: the gate passes", flt.Tools, mode)
			}
		}
	}
}

// sampleReports are the sample's three reports.
var sampleReports = []string{"checkstyle.xml", "pmd.sarif", "spotbugs.xml"}

// firstProblemOfThree returns the findings of the sample's first problem
// of three findings, the one that shows it first.
func firstProblemOfThree(t *testing.T) []reports.Also {
	t.Helper()
	var members []reports.Also
	if _, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: sampleFiles(t, sampleReports...), Classes: grouping.ClassOf,
		Keep: pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
			if members == nil && f.Detail != nil && len(f.Detail.Also) == 2 {
				members = append([]reports.Also{{Tool: f.Tool, Rule: f.Rule, ID: f.ID}}, f.Detail.Also...)
			}
			return nil
		}}}); err != nil {
		t.Fatal(err)
	}
	if members == nil {
		t.Fatal("no problem of three findings")
	}
	return members
}

// sampleEntries returns an entry for each finding of the sample's three
// reports, ungrouped, that decide gives a state ("": none), with the
// reason "decided on ID"; decide sees every finding.
func sampleEntries(t *testing.T, decide func(f *reports.Finding) triage.State) []triage.Entry {
	t.Helper()
	src := os.DirFS(filepath.Join(reportstest.RepoRoot(t), "testdata", "sample"))
	var entries []triage.Entry
	if _, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: sampleFiles(t, sampleReports...), Keep: pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
		if state := decide(f); state != "" {
			e := triage.EntryFor(f, src)
			e.State, e.Reason = state, "decided on "+f.ID.String()
			entries = append(entries, e)
		}
		return nil
	}}}); err != nil {
		t.Fatal(err)
	}
	return entries
}

// decideIDs decides the findings of ids as state.
func decideIDs(state triage.State, ids ...reports.FindingID) func(f *reports.Finding) triage.State {
	return func(f *reports.Finding) triage.State {
		if slices.Contains(ids, f.ID) {
			return state
		}
		return ""
	}
}

// TestTriagedOnlyWithoutDecisions: the triaged alone, with no decision
// (no triage file, or one without entries), are none: an empty view that
// no gate fails.
func TestTriagedOnlyWithoutDecisions(t *testing.T) {
	src := os.DirFS(filepath.Join(reportstest.RepoRoot(t), "testdata", "sample"))
	for _, m := range []*triage.Matcher{nil, triage.NewMatcher(&triage.File{Version: 1}, src, triagetest.Now)} {
		for _, deep := range []bool{false, true} {
			page := &pipeline.Page{Limit: 10}
			if deep {
				page.Offset = pipeline.DeepPage
			}
			res, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: sampleFiles(t, sampleReports...), Classes: grouping.ClassOf,
				Triage: m, Triaged: pipeline.TriagedOnly, Keep: pipeline.Keep{Page: page}})
			if err != nil {
				t.Fatal(err)
			}
			s := res.View.Summary
			if s.Total != 0 || s.Problems != 0 || len(res.View.Findings) != 0 || s.Duplicates != nil && s.Duplicates.Findings != 0 {
				t.Errorf("matcher %v, deep %v: %d findings, %d problems, %d on the page, duplicates %+v; want none", m != nil, deep, s.Total, s.Problems, len(res.View.Findings), s.Duplicates)
			}
			if err := (pipeline.Gate{FailOn: reports.SeverityNote, MaxNew: -1}).Check(res.View); err != nil {
				t.Errorf("matcher %v, deep %v: %v", m != nil, deep, err)
			}
		}
	}
}

// TestTriageNewOnlyLeavesOldMarksOut: with new only, a confirmed or an
// expired decision on a new finding of a problem the baseline had is not
// counted (summary.triaged.confirmed, .expired): the view leaves the
// finding out.
func TestTriageNewOnlyLeavesOldMarksOut(t *testing.T) {
	src := os.DirFS(filepath.Join(reportstest.RepoRoot(t), "testdata", "sample"))
	// New findings (not SpotBugs') of problems SpotBugs reports too: old
	// against a baseline of SpotBugs' report.
	var fresh []reports.FindingID
	if _, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: sampleFiles(t, sampleReports...), Classes: grouping.ClassOf,
		Keep: pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
			if f.Detail == nil || len(f.Detail.Also) == 0 {
				return nil
			}
			members := append([]reports.Also{{Tool: f.Tool, ID: f.ID}}, f.Detail.Also...)
			if !slices.ContainsFunc(members, func(a reports.Also) bool { return a.Tool == "SpotBugs" }) {
				return nil
			}
			for _, a := range members {
				if a.Tool != "SpotBugs" {
					fresh = append(fresh, a.ID)
					break
				}
			}
			return nil
		}}}); err != nil {
		t.Fatal(err)
	}
	if len(fresh) < 2 {
		t.Fatalf("%d problems of SpotBugs and another tool", len(fresh))
	}
	entries := sampleEntries(t, func(f *reports.Finding) triage.State {
		switch f.ID {
		case fresh[0]:
			return triage.Confirmed
		case fresh[1]:
			return triage.FalsePositive // expired below
		}
		return ""
	})
	for i := range entries {
		if entries[i].State == triage.FalsePositive {
			entries[i].Until = "2020-01-01"
		}
	}
	// (only: the run is made again, which counts them from the start)
	for _, mode := range []pipeline.TriagedMode{pipeline.TriagedExclude, pipeline.TriagedInclude, pipeline.TriagedOnly} {
		for _, newOnly := range []bool{false, true} {
			res, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: sampleFiles(t, sampleReports...), Baseline: sampleFiles(t, "spotbugs.xml"),
				NewOnly: newOnly, Classes: grouping.ClassOf, Triaged: mode, Keep: pipeline.Keep{Page: &pipeline.Page{Limit: 200}},
				Triage: triage.NewMatcher(&triage.File{Version: 1, Entries: entries}, src, triagetest.Now)})
			if err != nil {
				t.Fatal(err)
			}
			tr := res.View.Summary.Triaged
			switch {
			case newOnly && tr != nil && (tr.Confirmed != 0 || tr.Expired != 0):
				t.Errorf("%v, new only: triaged %+v; want no confirmed or expired finding counted (the view leaves them out)", mode, tr)
			case !newOnly && (tr == nil || tr.Confirmed != 1 || tr.Expired != 1):
				t.Errorf("%v: triaged %+v; want one confirmed, one expired", mode, tr)
			}
		}
	}
}

// TestTriageOutsideNoGroup: without grouping (--no-group), the findings off
// the changed lines that their own decision suppresses are not counted
// outside them; nothing else is.
func TestTriageOutsideNoGroup(t *testing.T) {
	src := os.DirFS(filepath.Join(reportstest.RepoRoot(t), "testdata", "sample"))
	var all []reports.Finding
	if _, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: sampleFiles(t, sampleReports...), Keep: pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
		all = append(all, *f)
		return nil
	}}}); err != nil {
		t.Fatal(err)
	}
	// Decide every third finding with a line; change the line of the first
	// undecided one.
	decided := map[reports.FindingID]bool{}
	var on *reports.Finding
	for i := range all {
		switch f := &all[i]; {
		case f.Line < 1:
		case i%3 == 0:
			decided[f.ID] = true
		case on == nil:
			on = f
		}
	}
	entries := sampleEntries(t, func(f *reports.Finding) triage.State {
		if decided[f.ID] {
			return triage.FalsePositive
		}
		return ""
	})
	diff := fmt.Sprintf("diff --git a/%[1]s b/%[1]s\n--- a/%[1]s\n+++ b/%[1]s\n@@ -%[2]d,0 +%[3]d @@\n+changed\n", on.Path, on.Line-1, on.Line)
	diffFile := filepath.Join(t.TempDir(), "change.diff")
	if err := os.WriteFile(diffFile, []byte(diff), 0o644); err != nil {
		t.Fatal(err)
	}
	onLine := 0
	offDecided := 0
	for i := range all {
		f := &all[i]
		if f.Path == on.Path && f.Line <= on.Line && on.Line <= max(f.Line, f.EndLine) {
			onLine++
		} else if decided[f.ID] {
			offDecided++
		}
	}
	for _, tc := range []struct {
		mode pipeline.TriagedMode
		want int
	}{{pipeline.TriagedExclude, len(all) - onLine - offDecided}, {pipeline.TriagedInclude, len(all) - onLine}, {pipeline.TriagedOnly, offDecided}} {
		res, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: sampleFiles(t, sampleReports...), Changes: &pipeline.Changes{DiffFile: diffFile},
			Triaged: tc.mode, Triage: triage.NewMatcher(&triage.File{Version: 1, Entries: entries}, src, triagetest.Now)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outside != tc.want {
			t.Errorf("%v: %d findings outside the changed lines, want %d", tc.mode, res.Outside, tc.want)
		}
	}
}

// TestTriageConfirmedThroughTheFilter: a confirmation marks the other
// findings of its problem, which have no decision of their own, also
// when a filter leaves the confirmed finding out (--tool Checkstyle where
// PMD's finding is confirmed): the finding the filter keeps is marked
// confirmed, through the confirmed one, and counted confirmed, as without
// the filter.
func TestTriageConfirmedThroughTheFilter(t *testing.T) {
	src := os.DirFS(filepath.Join(reportstest.RepoRoot(t), "testdata", "sample"))
	members := firstProblemOfThree(t)
	for _, confirmed := range members {
		entries := sampleEntries(t, func(f *reports.Finding) triage.State {
			if f.ID == confirmed.ID {
				return triage.Confirmed
			}
			return ""
		})
		for _, kept := range members {
			if kept.Tool == confirmed.Tool {
				continue
			}
			t.Run(confirmed.Tool+" confirmed, "+kept.Tool+" kept", func(t *testing.T) {
				// The page's findings, and each problem as Each takes it
				// (the outputs that take every problem: SARIF, the HTML
				// page).
				marks, each := map[reports.FindingID]*reports.Triage{}, map[reports.FindingID]*reports.Triage{}
				note := func(to map[reports.FindingID]*reports.Triage, f *reports.Finding) {
					d := f.Triage
					if d != nil {
						c := *d
						d = &c
					}
					to[f.ID] = d
					if f.Detail != nil {
						for _, a := range f.Detail.Also {
							to[a.ID] = d
						}
					}
				}
				q := &pipeline.Query{Reports: sampleFiles(t, sampleReports...), Filter: reports.Filter{Tools: []string{kept.Tool}}, Classes: grouping.ClassOf,
					Triage: triage.NewMatcher(&triage.File{Version: 1, Entries: entries}, src, triagetest.Now),
					Keep: pipeline.Keep{Page: &pipeline.Page{Limit: 200}, Each: func(f *reports.Finding, _ string) error {
						note(each, f)
						return nil
					}}}
				res, err := pipeline.Run(context.Background(), q)
				if err != nil {
					t.Fatal(err)
				}
				for i := range res.View.Findings {
					note(marks, &res.View.Findings[i].Finding)
				}
				if tr := res.View.Summary.Triaged; tr == nil || tr.Confirmed != 1 || tr.Total != 0 {
					t.Errorf("triaged counts %+v, want 1 confirmed, as without the filter", tr)
				}
				for name, m := range map[string]map[reports.FindingID]*reports.Triage{"page": marks, "each": each} {
					got, shown := m[kept.ID]
					if !shown || got == nil || got.State != string(triage.Confirmed) || got.Via != confirmed.ID || got.Suppressed() {
						t.Errorf("%s: %s (%s): shown %v, marked %+v; want confirmed via %s", name, kept.ID, kept.Rule, shown, got, confirmed.ID)
					}
				}
			})
		}
	}
}
