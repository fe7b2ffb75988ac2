package pipeline

import (
	"fmt"
	"strings"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// A Gate is a quality gate on a result's counts: it fails when a finding at
// or above FailOn (a severity) or FailOnImpact remains, or when more than
// MaxNew findings are new against the baseline. The zero values of FailOn
// and FailOnImpact and a negative MaxNew check nothing.
type Gate struct {
	FailOn       reports.Severity
	FailOnImpact reports.Impact
	MaxNew       int
}

// GateError says which checks of a gate failed.
type GateError struct {
	// AtOrAbove counts the findings at or above the gate's FailOn or
	// FailOnImpact when that check failed (0: it passed); FailOn names
	// the level ("error", "high").
	AtOrAbove int
	FailOn    string
	// New counts the new findings when there were more than MaxNew (0: passed).
	New, MaxNew int
	// Problems says that the counts are of problems, each counted once
	// however many findings report it (docs/formats.md, "Duplicates").
	Problems bool
}

func (e *GateError) one() string {
	if e.Problems {
		return "problem"
	}
	return "finding"
}

func (e *GateError) many() string {
	if e.Problems {
		return "problems"
	}
	return "findings"
}

func (e *GateError) Error() string {
	var failed []string
	if e.AtOrAbove > 0 {
		failed = append(failed, fmt.Sprintf("%s at or above %s", english.Plural(e.AtOrAbove, e.one(), e.many()), e.FailOn))
	}
	if e.New > 0 {
		failed = append(failed, fmt.Sprintf("%d new against the baseline, more than %d", e.New, e.MaxNew))
	}
	return "quality gate failed: " + strings.Join(failed, "; ")
}

// Check runs the gate on v's counts (after the filters and new-only); nil
// when it passes. The findings triage decisions leave out never count,
// also when the view shows them (Summary.Triaged.Shown).
func (g Gate) Check(v *summarize.View) error {
	e := &GateError{MaxNew: g.MaxNew, Problems: v.Summary.Duplicates != nil}
	var tri summarize.TriagedCounts // what the counts hold of the triaged
	if t := v.Summary.Triaged; t != nil && t.Shown {
		tri = *t
	}
	switch {
	case g.FailOnImpact.Valid():
		e.FailOn = g.FailOnImpact.String()
		for _, i := range reports.Impacts {
			if i >= g.FailOnImpact {
				e.AtOrAbove += v.Summary.ByImpact.Of(i) - tri.ByImpact.Of(i)
				if d := v.Summary.Duplicates; d != nil {
					e.AtOrAbove -= d.ByImpact.Of(i)
				}
			}
		}
	case g.FailOn.Valid():
		e.FailOn = g.FailOn.String()
		for _, s := range reports.Severities {
			if s >= g.FailOn {
				e.AtOrAbove += v.Summary.BySeverity.Of(s) - tri.BySeverity.Of(s)
				if d := v.Summary.Duplicates; d != nil {
					e.AtOrAbove -= d.BySeverity.Of(s)
				}
			}
		}
	}
	if b := v.Summary.Baseline; g.MaxNew >= 0 && b != nil {
		n := b.New
		if b.NewProblems != nil {
			n, e.Problems = *b.NewProblems, true
		}
		n -= tri.New
		if n > g.MaxNew {
			e.New = n
		}
	}
	if e.AtOrAbove == 0 && e.New == 0 {
		return nil
	}
	return e
}
