package pipeline

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/triage"
)

// The triage step of a pass costs a finding that no entry names (by its
// tool, rule and path) lookups and no allocation, in every mode.
func TestTriageUnnamedAllocatesNothing(t *testing.T) {
	src := fstest.MapFS{"src/A.java": {Data: []byte("class A {\n    int x = 1;\n}\n")}}
	e := triage.EntryFor(&reports.Finding{Tool: "PMD", Rule: "ShortVariable", Path: "src/A.java", Line: 2, Message: "short"}, src)
	e.State, e.Reason = triage.FalsePositive, "on purpose"
	m := triage.NewMatcher(&triage.File{Entries: []triage.Entry{e}}, src, time.Now())
	findings := []reports.Finding{
		{ID: reports.ID("n", 1), Tool: "PMD", Rule: "MagicNumber", Path: "src/A.java", Line: 2, Message: "magic"},
		{ID: reports.ID("n", 2), Tool: "PMD", Rule: "ShortVariable", Path: "src/B.java", Line: 2, Message: "short"},
		{ID: reports.ID("n", 3), Tool: "Checkstyle", Rule: "ShortVariable", Path: "src/A.java", Line: 2, Message: "short"},
		{ID: reports.ID("n", 4), Tool: "PMD", Rule: "ShortVariable", Path: "src/C.java", Line: 9, Message: "short"},
	}
	for _, mode := range []TriagedMode{TriagedExclude, TriagedInclude, TriagedOnly} {
		t.Run(mode.String(), func(t *testing.T) {
			tri := newTriaging(&Query{Triage: m, Triaged: mode}, nil, false)
			allocs := testing.AllocsPerRun(100, func() {
				for i := range findings {
					tri.decide(&findings[i])
					tri.count(&findings[i], reports.BaselineNew)
				}
			})
			if allocs != 0 {
				t.Errorf("%v allocations a run of %d findings, want 0", allocs, len(findings))
			}
			for _, f := range findings {
				if f.Triage != nil {
					t.Errorf("%s %s %s triaged %+v", f.Tool, f.Rule, f.Path, f.Triage)
				}
			}
		})
	}
}
