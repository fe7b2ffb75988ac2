package pipeline_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/triage"
)

// TestTriageSpringByClass: on Spring's reports, decisions on findings of
// problems of several findings (the whole run's, and Checkstyle's alone
// through a filter) and on findings of one class alone (the decided
// files' findings of the other classes are then not put aside), settled
// with the decided classes' findings put aside, give the view that
// settling with every finding of the decided files put aside gives, in
// as many reads of the reports, in each mode.
func TestTriageSpringByClass(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: Spring's reports, 710,826 findings")
	}
	files, all := springFindings(t)
	_, _, grouped := springKinds(all)
	// The class of the most findings: its files hold others' too.
	byClass := map[int][]int{}
	top := -1
	for i := range all {
		if c := grouping.ClassOf(all[i].Tool, reports.ShortRule(all[i].Tool, all[i].Rule)); c >= 0 {
			byClass[c] = append(byClass[c], i)
			if top < 0 || len(byClass[c]) > len(byClass[top]) {
				top = c
			}
		}
	}
	oneClass := byClass[top]
	for _, tc := range []struct {
		name   string
		picked []int
		filter reports.Filter
	}{
		{"grouped", grouped, reports.Filter{}},
		{"one class", oneClass, reports.Filter{}},
		{"grouped, Checkstyle's", grouped, reports.Filter{Tools: []string{"Checkstyle"}}},
	} {
		file, src := springEntries(t, all, tc.picked, 3000)
		for _, mode := range []pipeline.TriagedMode{pipeline.TriagedExclude, pipeline.TriagedInclude} {
			view := func(byClass bool) (string, int) {
				was := pipeline.KeepByClass(byClass)
				defer pipeline.KeepByClass(was)
				reads := &counted{Source: files}
				res, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: reads, Classes: grouping.ClassOf, Triaged: mode, Filter: tc.filter,
					Triage: triage.NewMatcher(file, src, time.Now()), Keep: pipeline.Keep{Page: &pipeline.Page{Limit: 200}}})
				if err != nil {
					t.Fatal(err)
				}
				if res.View.Summary.Triaged == nil || res.View.Summary.Triaged.Total < len(file.Entries)/2 {
					t.Fatalf("%s, %v: %d entries triaged %+v", tc.name, mode, len(file.Entries), res.View.Summary.Triaged)
				}
				j, err := json.MarshalIndent(res.View, "", " ")
				if err != nil {
					t.Fatal(err)
				}
				return string(j), reads.n
			}
			want, wantReads := view(false)
			got, gotReads := view(true)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s, %v: views differ (-every finding put aside +the decided classes'):\n%.4000s", tc.name, mode, d)
			}
			if gotReads != wantReads {
				t.Errorf("%s, %v: %d reads of the reports, %d with every finding put aside", tc.name, mode, gotReads, wantReads)
			}
			t.Logf("%s, %v: %d entries, %d reads, %d classes", tc.name, mode, len(file.Entries), gotReads, len(byClass))
		}
	}
}
