package pipeline

import (
	"errors"
	"fmt"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/triage"
)

// TriagedMode says what a query does with the findings that triage
// decisions leave out (docs/triage.md, "How decisions are honoured").
type TriagedMode int

const (
	// TriagedExclude leaves them out of the page, the counts and the
	// gates, and counts them apart (Summary.Triaged): the default.
	TriagedExclude TriagedMode = iota
	// TriagedInclude shows them among the others, marked; the gates still
	// leave them out.
	TriagedInclude
	// TriagedOnly shows them alone.
	TriagedOnly
)

// TriagedModes are the modes' words, as --triaged and the MCP argument
// take them.
var TriagedModes = []string{"exclude", "include", "only"}

func (m TriagedMode) String() string {
	if m >= 0 && int(m) < len(TriagedModes) {
		return TriagedModes[m]
	}
	return fmt.Sprintf("TriagedMode(%d)", int(m))
}

// ParseTriagedMode reads a mode's word; "" is TriagedExclude.
func ParseTriagedMode(s string) (TriagedMode, error) {
	if s == "" {
		return TriagedExclude, nil
	}
	for i, w := range TriagedModes {
		if s == w {
			return TriagedMode(i), nil
		}
	}
	return 0, fmt.Errorf("triaged must be exclude, include or only, not %q", s)
}

// errRegroup stops a run whose triage decisions cover problems reported
// by several findings: the run is made again, each such problem's
// findings all triaged from the start.
var errRegroup = errors.New("triaged problems to regroup")

// triaging is what a run does with the triage decisions: it decides each
// finding, marks it, hides it or not by the mode, and counts.
type triaging struct {
	m    *triage.Matcher
	mode TriagedMode
	// problems are the decisions that cover a problem's other findings,
	// by their ids, found by an earlier run (nil in the first); prior is
	// that run's groups, which say which triaged findings are duplicates.
	problems map[string]*reports.Triage
	prior    *Grouped
	// decided are the ids of the findings a decision hides, in the first
	// run, to find their problems.
	decided map[string]*reports.Triage
	counts  summarize.TriagedCounts
	// regroup says the run may be made again (its reports can be read
	// again); false in the second run.
	regroup bool
}

func newTriaging(q *Query, prior *triaging, regroup bool) *triaging {
	if q.Triage == nil || q.Triage.Len() == 0 {
		return nil
	}
	t := &triaging{m: q.Triage, mode: q.Triaged, regroup: regroup && q.Classes != nil && prior == nil}
	if prior != nil {
		t.problems, t.prior = prior.problems, prior.prior
	}
	t.counts.ByState = map[string]int{}
	t.counts.Shown = q.Triaged != TriagedExclude
	return t
}

// decide marks f with the decision that covers it, its own or its
// problem's, and reports whether the mode hides it.
func (t *triaging) decide(f *reports.Finding) (hide bool) {
	if t == nil || f.Uncounted() {
		return false
	}
	f.Triage = nil
	f.Triage = t.m.Decide(f).Mark()
	if !f.Triage.Suppressed() {
		if p := t.problems[f.ID]; p != nil {
			f.Triage = p
		}
	}
	switch t.mode {
	case TriagedInclude:
		return false
	case TriagedOnly:
		return !f.Triage.Suppressed()
	}
	return f.Triage.Suppressed()
}

// grouped says whether the first pass hands f, hidden or not, to the
// grouper: every finding in the first run (to find the problems decisions
// cover), those shown in the second (to count their problems).
func (t *triaging) grouped(hide bool) bool {
	return t == nil || t.problems == nil || !hide
}

// count counts f, marked, in the first pass (state: against the baseline).
func (t *triaging) count(f *reports.Finding, state string) {
	if t == nil || f.Triage == nil {
		return
	}
	c := &t.counts
	switch {
	case f.Triage.Expired:
		c.Expired++
		return
	case !f.Triage.Suppressed():
		c.Confirmed++
		return
	}
	c.Total++
	if t.problems == nil {
		if t.decided == nil {
			t.decided = map[string]*reports.Triage{}
		}
		t.decided[f.ID] = f.Triage
	}
	if t.prior.Duplicate(f) {
		return
	}
	c.Problems++
	c.ByState[f.Triage.State]++
	switch f.Severity {
	case reports.SeverityError:
		c.BySeverity.Error++
	case reports.SeverityWarning:
		c.BySeverity.Warning++
	case reports.SeverityNote:
		c.BySeverity.Note++
	}
	if p := impactCount(&c.ByImpact, f.Impact); p != nil {
		*p++
	}
	if state == reports.BaselineNew {
		c.New++
	}
}

func impactCount(c *summarize.ImpactCounts, i reports.Impact) *int {
	switch i {
	case reports.ImpactBlocker:
		return &c.Blocker
	case reports.ImpactHigh:
		return &c.High
	case reports.ImpactMedium:
		return &c.Medium
	case reports.ImpactLow:
		return &c.Low
	case reports.ImpactInfo:
		return &c.Info
	}
	return nil
}

// spread finds, once the first run's problems are known, the findings
// that a decision on another finding of their problem covers; it reports
// whether the run must be made again for them (errRegroup), which it
// prepares in t.
func (t *triaging) spread(g *Grouped) bool {
	if t == nil || !t.regroup || g == nil || !g.groups.Grouped() {
		return false
	}
	problems := map[string]*reports.Triage{}
	for id, d := range t.decided {
		f := &reports.Finding{ID: id}
		lead := id
		if l, dup := g.LeadID(f); dup {
			lead = l
		}
		others := g.Others(&reports.Finding{ID: lead})
		if len(others) == 0 {
			continue
		}
		via := *d
		via.Via = id
		for _, id := range append([]string{lead}, alsoIDs(others)...) {
			if _, own := t.decided[id]; !own {
				if _, done := problems[id]; !done {
					problems[id] = &via
				}
			}
		}
	}
	// Only the mode that shows the triaged alone counts other problems
	// than theirs: it regroups whenever there are problems.
	if len(problems) == 0 && t.mode != TriagedOnly {
		return false
	}
	t.problems, t.prior = problems, g
	return true
}

func alsoIDs(as []summarize.AlsoReported) []string {
	ids := make([]string, len(as))
	for i, a := range as {
		ids[i] = a.ID
	}
	return ids
}

// show puts the counts in v's summary.
func (t *triaging) show(v *summarize.View) {
	if t == nil {
		return
	}
	c := t.counts
	if c.Total+c.Confirmed+c.Expired == 0 {
		return
	}
	v.Summary.Triaged = &c
}
