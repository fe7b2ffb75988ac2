package grouping

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/reports"
)

// TestGroupsDrop: a problem dropped leaves the groups' counts (duplicates
// by impact and severity, new problems, new findings of old problems) what
// a grouper that never saw its findings counts, and SameFor tells the
// findings left grouped alike from grouped otherwise.
func TestGroupsDrop(t *testing.T) {
	cs, pmd := "Checkstyle", "PMD"
	mk := func(tool, rule string, line, col int, imp reports.Impact, isNew bool) reports.Finding {
		f := reports.Finding{Tool: tool, Rule: rule, Path: "A.java", Line: line, Column: col, Impact: imp, Quality: reports.QualityMaintainability,
			Severity: reports.SeverityWarning}
		if isNew {
			f.Baseline = reports.BaselineNew
		}
		return f
	}
	fs := []reports.Finding{
		// line 10: two parameters, each reported by both tools: two problems, by rank
		mk(cs, "FinalParameters", 10, 5, reports.ImpactLow, true),                // 0
		mk(cs, "FinalParameters", 10, 15, reports.ImpactLow, true),               // 1
		mk(pmd, "MethodArgumentCouldBeFinal", 10, 5, reports.ImpactMedium, true), // 2
		mk(pmd, "MethodArgumentCouldBeFinal", 10, 15, reports.ImpactLow, false),  // 3
		// line 20: braces, one new, one not: a new finding of an old problem
		mk(cs, "NeedBraces", 20, 1, reports.ImpactHigh, true),              // 4
		mk(pmd, "ControlStatementBraces", 20, 1, reports.ImpactLow, false), // 5
	}
	group := func(keep func(n int) bool) *Groups {
		g := NewGrouper(testClasses)
		for n := range fs {
			if keep(n) {
				g.Add(&fs[n], Ref{N: uint32(n)})
			}
		}
		return g.Resolve(nil)
	}
	type counts struct {
		Problems, Duplicates, NewNotProblems, NewOfOldProblems int
		ByImpact                                               [6]int
		BySeverity                                             [4]int
		New                                                    NewDuplicates
	}
	of := func(gs *Groups) counts {
		return counts{gs.Problems(), gs.Duplicates, gs.NewNotProblems, gs.NewOfOldProblems, gs.ByImpact, gs.BySeverity, gs.New}
	}
	all := func(int) bool { return true }
	if gs := group(all); gs.Problems() != 3 {
		t.Fatalf("%d problems, want 3", gs.Problems())
	}
	tests := []struct {
		name    string
		drop    []uint32 // a member of each problem dropped
		left    []uint32 // the findings left
		same    bool     // they group alone as before
		grouped bool
	}{
		{"the first parameter's problem", []uint32{2}, []uint32{1, 3, 4, 5}, true, true},
		{"the old problem, by its lead", []uint32{4}, []uint32{0, 1, 2, 3}, true, true},
		{"every problem", []uint32{0, 3, 5}, nil, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gs := group(all)
			for _, n := range tt.drop {
				if !gs.Drop(Ref{N: n}) {
					t.Fatalf("Drop(%d): not in a problem", n)
				}
				if gs.Drop(Ref{N: n}) {
					t.Fatalf("Drop(%d) twice", n)
				}
			}
			left := map[int]bool{}
			var refs []Ref
			for _, n := range tt.left {
				left[int(n)] = true
				refs = append(refs, Ref{N: n})
			}
			never := group(func(n int) bool { return left[n] })
			if d := cmp.Diff(of(never), of(gs)); d != "" {
				t.Errorf("counts (-never saw +dropped):\n%s", d)
			}
			if gs.Grouped() != tt.grouped {
				t.Errorf("Grouped() = %v", gs.Grouped())
			}
			if got := gs.SameFor(never, refs); got != tt.same {
				t.Errorf("SameFor = %v, want %v", got, tt.same)
			}
			for _, n := range tt.drop {
				if _, dup := gs.LeadOf(Ref{N: n}); dup || len(gs.Others(Ref{N: n})) > 0 || gs.OfOldProblem(Ref{N: n}) {
					t.Errorf("%d still in a problem", n)
				}
			}
		})
	}
	// Without the first parameter's Checkstyle finding and the second's
	// PMD one, the two left are each the first of their rule on the line:
	// they make one problem, which the first grouping did not have.
	gs := group(all)
	other := group(func(n int) bool { return n == 1 || n == 2 })
	if gs.SameFor(other, []Ref{{N: 1}, {N: 2}}) {
		t.Error("SameFor: the findings left grouped otherwise, said the same")
	}
}
