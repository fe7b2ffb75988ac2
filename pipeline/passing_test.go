package pipeline

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// listed is a Source of findings given as a list: keep, then emit, as the
// parsers do.
type listed []reports.Finding

func (l listed) Read(_ context.Context, keep func(*reports.Finding) bool, emit func(*reports.Finding) error) ([]reports.Input, error) {
	for _, f := range l {
		if !keep(&f) {
			continue
		}
		if err := emit(&f); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// TestPassSteps: a pass takes each finding through passing's steps in
// their order: the filter before the baseline's mark (a finding it refuses
// leaves its match to be counted fixed), the mark before new only (which
// keeps the new), the first pass alone counting the states, a finding that
// is no finding (uncounted) visited without a state or a count.
func TestPassSteps(t *testing.T) {
	old := reports.Finding{Tool: "PMD", Rule: "R", Path: "A.java", Line: 3, Severity: reports.SeverityError, Fingerprint: "old"}
	fresh := reports.Finding{Tool: "PMD", Rule: "R", Path: "A.java", Line: 9, Severity: reports.SeverityWarning, Fingerprint: "fresh"}
	quiet := reports.Finding{Tool: "PMD", Rule: "R", Path: "A.java", Line: 5, Severity: reports.SeverityError, Fingerprint: "quiet", Detail: &reports.Detail{Kind: "pass"}}
	base := reports.NewBaseline()
	base.Add(old)
	for _, tc := range []struct {
		name      string
		q         Query
		base      *reports.Baseline
		later     bool // a pass after the first
		want      []string
		counts    summarize.BaselineCounts
		fixedLeft int
	}{
		{name: "no baseline", want: []string{"old:", "fresh:", "quiet:"}},
		{name: "baseline marks", base: base, want: []string{"old:unchanged", "fresh:new", "quiet:"}, counts: summarize.BaselineCounts{New: 1, Unchanged: 1}},
		{name: "new only after the mark", q: Query{NewOnly: true}, base: base, want: []string{"fresh:new", "quiet:"}, counts: summarize.BaselineCounts{New: 1, Unchanged: 1}},
		{name: "later pass counts nothing", base: base, later: true, want: []string{"old:unchanged", "fresh:new", "quiet:"}},
		{name: "filter before the mark", q: Query{Filter: reports.Filter{MinSeverity: reports.SeverityWarning, Rules: []string{"R"}, Paths: []string{"B.java"}}}, base: base, fixedLeft: 1},
		{name: "severity filter", q: Query{Filter: reports.Filter{MinSeverity: reports.SeverityError}}, base: base, want: []string{"old:unchanged", "quiet:"}, counts: summarize.BaselineCounts{Unchanged: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &scan{q: &tc.q, flt: tc.q.Filter, base: tc.base, res: &Result{}}
			if err := s.flt.Compile(); err != nil {
				t.Fatal(err)
			}
			var counts *summarize.BaselineCounts
			if !tc.later {
				counts = &summarize.BaselineCounts{}
			}
			var got []string
			_, marked, err := s.pass(context.Background(), listed{old, fresh, quiet}, counts, func(f *reports.Finding, state string) error {
				got = append(got, f.Fingerprint+":"+state)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("visited (-want +got):\n%s", diff)
			}
			if counts != nil && *counts != tc.counts {
				t.Errorf("counts %+v, want %+v", *counts, tc.counts)
			}
			if marked != nil && marked.Fixed() != tc.fixedLeft {
				t.Errorf("%d fixed, want %d", marked.Fixed(), tc.fixedLeft)
			}
		})
	}
}
