// Package grouping finds the findings of a run that report the same problem
// at the same place (docs/formats.md, "Duplicates"): the table of rules that
// report one problem and where the tools place them ([RuleClasses],
// [ClassOf], [Anchors]), and the [Grouper], which takes findings as they
// stream and resolves them into [Groups], each problem a lead and the
// findings that match the lead itself.
//
// It imports nothing of recap but package reports, whose findings it groups.
//
//	g := grouping.NewGrouper(grouping.ClassOf)
//	g.Add(&f, grouping.Ref{Input: 0, N: 1})
//	gs := g.Resolve(nil)
//	lead, ok := gs.LeadOf(grouping.Ref{Input: 0, N: 1})
package grouping
