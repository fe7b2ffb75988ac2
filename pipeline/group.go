package pipeline

import (
	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// ids maps findings' ids to refs and back: the tag of each input numbered
// as it is first seen.
type ids struct {
	byTag map[string]uint32
	tags  []string
	last  uint32 // the input of the last id
}

func newIDs() *ids { return &ids{byTag: map[string]uint32{}} }

// ref returns the ref of the finding id; false for no id.
func (x *ids) ref(id reports.FindingID) (grouping.Ref, bool) {
	if id.IsZero() {
		return grouping.Ref{}, false
	}
	in, ok := x.last, len(x.tags) > 0 && x.tags[x.last] == id.Tag // one input's findings come together
	if !ok {
		if in, ok = x.byTag[id.Tag]; !ok {
			in = uint32(len(x.tags))
			x.byTag[id.Tag] = in
			x.tags = append(x.tags, id.Tag)
		}
		x.last = in
	}
	return grouping.Ref{Input: in, N: id.N}, true
}

// id returns the id of ref.
func (x *ids) id(r grouping.Ref) reports.FindingID {
	if int(r.Input) >= len(x.tags) {
		return reports.FindingID{}
	}
	return reports.FindingID{Tag: x.tags[r.Input], N: r.N}
}

// Grouped is what a query found of the findings that report one problem:
// the groups, and the findings' ids.
type Grouped struct {
	groups *grouping.Groups
	ids    *ids
}

// ref returns the ref of f when some problem has several findings.
func (g *Grouped) ref(f *reports.Finding) (grouping.Ref, bool) {
	if g == nil || !g.groups.Grouped() {
		return grouping.Ref{}, false
	}
	return g.ids.ref(f.ID)
}

// Duplicate reports whether f repeats another finding's problem (which
// views show instead of f).
func (g *Grouped) Duplicate(f *reports.Finding) bool {
	r, ok := g.ref(f)
	if !ok {
		return false
	}
	_, dup := g.groups.LeadOf(r)
	return dup
}

// Others names the other findings of the problem f leads, most important
// first; nil when it leads none.
func (g *Grouped) Others(f *reports.Finding) []summarize.AlsoReported {
	r, ok := g.ref(f)
	if !ok {
		return nil
	}
	return g.named(g.groups.Others(r))
}

// othersFrom is Others for the findings of a pass, in the order of their
// refs: c, of g's groups (cursor), walks on from the finding before.
func (g *Grouped) othersFrom(f *reports.Finding, c *grouping.Cursor) []summarize.AlsoReported {
	r, ok := g.ref(f)
	if !ok {
		return nil
	}
	_, others := c.Role(r)
	return g.named(others)
}

// cursor returns a cursor over g's groups (nil for no groups).
func (g *Grouped) cursor() *grouping.Cursor {
	if g == nil {
		return nil
	}
	return g.groups.Cursor()
}

// named names the findings of refs.
func (g *Grouped) named(refs []grouping.Ref) []summarize.AlsoReported {
	var out []summarize.AlsoReported
	for _, o := range refs {
		tool, rule := g.groups.Name(o)
		out = append(out, summarize.AlsoReported{Tool: tool, Rule: rule, ID: g.ids.id(o)})
	}
	return out
}

// Known reports whether f, new against a baseline, shows a problem the
// baseline had: another finding of the problem is not new (a tool added to
// the pipeline reports an old problem). The problem is then unchanged.
func (g *Grouped) Known(f *reports.Finding) bool {
	r, ok := g.ref(f)
	return ok && g.groups.Known(r)
}

// OfOldProblem reports whether f is a finding of a problem the baseline
// had that has new findings too: a new finding of it makes no new problem.
func (g *Grouped) OfOldProblem(f *reports.Finding) bool {
	r, ok := g.ref(f)
	return ok && g.groups.OfOldProblem(r)
}

// Name names f, a finding of a problem several report: its tool, its
// rule's short name and its id; false when f is in no such problem.
func (g *Grouped) Name(f *reports.Finding) (reports.Also, bool) {
	r, ok := g.ref(f)
	if !ok {
		return reports.Also{}, false
	}
	tool, rule := g.groups.Name(r)
	return reports.Also{Tool: tool, Rule: rule, ID: f.ID}, tool != ""
}

// LeadID returns the id of the finding that shows f's problem, when f is a
// duplicate of it.
func (g *Grouped) LeadID(f *reports.Finding) (reports.FindingID, bool) {
	r, ok := g.ref(f)
	if !ok {
		return reports.FindingID{}, false
	}
	l, dup := g.groups.LeadOf(r)
	if !dup {
		return reports.FindingID{}, false
	}
	return g.ids.id(l), true
}

// Groups are the groups found.
func (g *Grouped) Groups() *grouping.Groups {
	if g == nil {
		return nil
	}
	return g.groups
}

// counts returns the view's counts of duplicates; nil when none. With
// newOnly, those of the new problems (the view of the new findings).
func (g *Grouped) counts(newOnly bool) *summarize.DuplicateCounts {
	gs := g.Groups()
	if !gs.Grouped() {
		return nil
	}
	n, problems, byImpact, bySeverity := gs.Duplicates, gs.Problems(), &gs.ByImpact, &gs.BySeverity
	if newOnly {
		n, problems, byImpact, bySeverity = gs.New.Findings, gs.New.Problems, &gs.New.ByImpact, &gs.New.BySeverity
		if problems == 0 {
			return nil
		}
	}
	d := &summarize.DuplicateCounts{Findings: n, Problems: problems}
	for _, i := range reports.Impacts {
		switch i {
		case reports.ImpactBlocker:
			d.ByImpact.Blocker = byImpact[i]
		case reports.ImpactHigh:
			d.ByImpact.High = byImpact[i]
		case reports.ImpactMedium:
			d.ByImpact.Medium = byImpact[i]
		case reports.ImpactLow:
			d.ByImpact.Low = byImpact[i]
		case reports.ImpactInfo:
			d.ByImpact.Info = byImpact[i]
		}
	}
	d.BySeverity = summarize.SeverityCounts{Error: bySeverity[reports.SeverityError], Warning: bySeverity[reports.SeverityWarning],
		Note: bySeverity[reports.SeverityNote]}
	return d
}

// hasText says whether the inputs explain the rule of tool (by short name).
func hasText(inputs []reports.Input) func(tool, rule string) bool {
	var explained map[[2]string]bool
	return func(tool, rule string) bool {
		if explained == nil {
			explained = map[[2]string]bool{}
			for i := range inputs {
				for _, r := range inputs[i].Rules.List() {
					if r.Rule.Short != "" || r.Rule.Full != "" || r.Rule.Help != "" {
						explained[[2]string{r.Tool, reports.ShortRule(r.Tool, r.Rule.ID)}] = true
					}
				}
			}
		}
		return explained[[2]string{tool, rule}]
	}
}
