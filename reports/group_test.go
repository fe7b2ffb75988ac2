package reports

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testClasses is a small table of equivalent rules for the grouper's tests.
func testClasses(tool, rule string) int {
	switch tool + ":" + rule {
	case "Checkstyle:FinalParameters", "PMD:MethodArgumentCouldBeFinal":
		return 0
	case "Checkstyle:NeedBraces", "PMD:ControlStatementBraces":
		return 1
	case "PMD:CompareObjectsWithEquals", "PMD:UseEqualsToCompareStrings", "SpotBugs:ES_COMPARING_PARAMETER_STRING_WITH_EQ":
		return 2
	case "PMD:CloseResource", "SpotBugs:OS_OPEN_STREAM":
		return 3
	}
	return -1
}

func TestGrouper(t *testing.T) {
	mk := func(tool, rule, path string, line, end, col int, imp Impact) Finding {
		return Finding{Tool: tool, Rule: rule, Path: path, Line: line, EndLine: end, Column: col, Impact: imp,
			Quality: QualityMaintainability, Severity: SeverityWarning}
	}
	cs := "com.puppycrawl.tools.checkstyle.checks.FinalParametersCheck"
	tests := []struct {
		name     string
		findings []Finding
		want     [][]int // groups: lead first, then the others, by index into findings
	}{
		{"two parameters of one method, each reported by two tools: two problems",
			[]Finding{mk("Checkstyle", cs, "A.java", 16, 16, 18, ImpactLow), mk("Checkstyle", cs, "A.java", 16, 16, 35, ImpactLow),
				mk("PMD", "MethodArgumentCouldBeFinal", "A.java", 16, 16, 25, ImpactLow), mk("PMD", "MethodArgumentCouldBeFinal", "A.java", 16, 16, 40, ImpactLow)},
			[][]int{{0, 2}, {1, 3}}},
		{"== on strings by three rules of two tools, the most important leads",
			[]Finding{mk("PMD", "CompareObjectsWithEquals", "O.java", 34, 34, 13, ImpactMedium), mk("PMD", "UseEqualsToCompareStrings", "O.java", 34, 34, 13, ImpactMedium),
				mk("SpotBugs", "ES_COMPARING_PARAMETER_STRING_WITH_EQ", "O.java", 34, 34, 0, ImpactHigh)},
			[][]int{{2, 0, 1}}},
		{"a method-wide finding joins the one on a line inside it",
			[]Finding{mk("SpotBugs", "OS_OPEN_STREAM", "S.java", 23, 23, 0, ImpactLow), mk("PMD", "CloseResource", "S.java", 21, 30, 9, ImpactMedium)},
			[][]int{{1, 0}}},
		{"different files, lines or classes stay apart",
			[]Finding{mk("Checkstyle", "NeedBraces", "A.java", 5, 5, 9, ImpactLow), mk("PMD", "ControlStatementBraces", "B.java", 5, 5, 9, ImpactLow),
				mk("PMD", "ControlStatementBraces", "A.java", 6, 6, 9, ImpactLow), mk("PMD", "CloseResource", "A.java", 5, 5, 9, ImpactLow),
				mk("Checkstyle", "JavadocMethod", "A.java", 5, 5, 9, ImpactLow)},
			nil},
		{"the same rule twice on one line is two problems",
			[]Finding{mk("PMD", "ControlStatementBraces", "A.java", 5, 5, 9, ImpactLow), mk("PMD", "ControlStatementBraces", "A.java", 5, 5, 20, ImpactLow)},
			nil},
		{"security tools: the same CWE on one line",
			[]Finding{{Tool: "Semgrep", Rule: "sqli", Path: "a.py", Line: 3, CWE: []int{89}, Quality: QualitySecurity, Impact: ImpactHigh},
				{Tool: "CodeQL", Rule: "py/sql-injection", Path: "a.py", Line: 3, CWE: []int{89, 564}, Quality: QualitySecurity, Impact: ImpactBlocker},
				{Tool: "CodeQL", Rule: "py/xss", Path: "a.py", Line: 3, CWE: []int{79}, Quality: QualitySecurity, Impact: ImpactHigh},
				{Tool: "Semgrep", Rule: "sqli", Path: "a.py", Line: 4, CWE: []int{89}, Quality: QualitySecurity, Impact: ImpactHigh},
				{Tool: "SpotBugs", Rule: "DLS_DEAD_LOCAL_STORE", Path: "a.py", Line: 3, CWE: []int{89}, Quality: QualityReliability}},
			[][]int{{1, 0}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := NewGrouper(testClasses)
			for i := range tc.findings {
				g.Add(&tc.findings[i], Ref{Input: 1, N: uint32(i)})
			}
			gs := g.Resolve(nil)
			var got [][]int
			for i := range tc.findings {
				others := gs.Others(Ref{Input: 1, N: uint32(i)})
				if len(others) == 0 {
					continue
				}
				grp := []int{i}
				for _, o := range others {
					grp = append(grp, int(o.N))
					if l, ok := gs.LeadOf(o); !ok || l.N != uint32(i) {
						t.Errorf("LeadOf(%d) = %v, %v", o.N, l, ok)
					}
				}
				got = append(got, grp)
			}
			slices.SortFunc(got, func(a, b []int) int { return a[0] - b[0] })
			want := slices.Clone(tc.want)
			slices.SortFunc(want, func(a, b []int) int { return a[0] - b[0] })
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("groups (-want +got):\n%s", diff)
			}
			n := 0
			for _, grp := range tc.want {
				n += len(grp) - 1
			}
			if gs.Duplicates != n || gs.Problems() != len(tc.want) {
				t.Errorf("duplicates %d, problems %d; want %d, %d", gs.Duplicates, gs.Problems(), n, len(tc.want))
			}
		})
	}
}

// TestGrouperLeadHasText: among equally important members, the one whose
// report explains its rule leads.
func TestGrouperLeadHasText(t *testing.T) {
	g := NewGrouper(testClasses)
	a := Finding{Tool: "Checkstyle", Rule: "NeedBraces", Path: "A.java", Line: 5, Impact: ImpactLow, Quality: QualityMaintainability}
	b := Finding{Tool: "PMD", Rule: "ControlStatementBraces", Path: "A.java", Line: 5, Impact: ImpactLow, Quality: QualityMaintainability}
	g.Add(&a, Ref{1, 1})
	g.Add(&b, Ref{2, 1})
	gs := g.Resolve(func(tool, rule string) bool { return tool == "PMD" })
	if o := gs.Others(Ref{2, 1}); len(o) != 1 || o[0] != (Ref{1, 1}) {
		t.Errorf("PMD's finding, whose report explains its rule, does not lead: %v", o)
	}
}

func BenchmarkGrouper(b *testing.B) {
	fs := make([]Finding, 100_000)
	for i := range fs {
		rule := []string{"MethodArgumentCouldBeFinal", "ControlStatementBraces", "CloseResource", "LongVariable"}[i%4]
		fs[i] = Finding{Tool: "PMD", Rule: rule, Path: fmt.Sprintf("src/F%d.java", i%900), Line: i%300 + 1, Column: i % 7, Impact: ImpactLow}
	}
	b.ReportAllocs()
	for range b.N {
		g := NewGrouper(testClasses)
		for i := range fs {
			g.Add(&fs[i], Ref{1, uint32(i)})
		}
		g.Resolve(nil)
	}
}

// TestGrouperMore: the classes a configuration adds (Grouper.More) group
// rules that recap's table does not, join those it does, and are not
// chained.
func TestGrouperMore(t *testing.T) {
	groups := map[string][]int32{ // as config.Config.Groups gives them
		"Checkstyle:MagicNumber":         {0},
		"PMD:AvoidLiteralsInIfCondition": {0},
		"Checkstyle:NeedBraces":          {1},
		"SpotBugs:XYZ_BRACES":            {1},
		"PMD:A":                          {2},
		"PMD:B":                          {2, 3},
		"PMD:C":                          {3},
	}
	mk := func(tool, rule string, line int) Finding {
		return Finding{Tool: tool, Rule: rule, Path: "A.java", Line: line, Impact: ImpactLow, Quality: QualityMaintainability}
	}
	tests := []struct {
		name     string
		findings []Finding
		problems int
		dups     int
	}{
		{"a group of the configuration alone", []Finding{mk("Checkstyle", "MagicNumber", 5), mk("PMD", "AvoidLiteralsInIfCondition", 5)}, 1, 1},
		{"a group of the configuration joins a class of recap's", []Finding{mk("Checkstyle", "NeedBraces", 5), mk("PMD", "ControlStatementBraces", 5), mk("SpotBugs", "XYZ_BRACES", 5)}, 1, 2},
		{"groups are not chained", []Finding{mk("PMD", "A", 5), mk("PMD", "C", 5)}, 0, 0},
		{"a rule in two groups, with one of each", []Finding{mk("PMD", "A", 5), mk("PMD", "B", 5), mk("PMD", "C", 5)}, 1, 2},
		{"other lines stay apart", []Finding{mk("Checkstyle", "MagicNumber", 5), mk("PMD", "AvoidLiteralsInIfCondition", 6)}, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := NewGrouper(testClasses)
			g.More(func(f *Finding) []int32 { return groups[f.Tool+":"+f.Rule] })
			for i := range tc.findings {
				g.Add(&tc.findings[i], Ref{Input: 1, N: uint32(i)})
			}
			gs := g.Resolve(nil)
			if gs.Problems() != tc.problems || gs.Duplicates != tc.dups {
				t.Errorf("problems %d, duplicates %d; want %d, %d", gs.Problems(), gs.Duplicates, tc.problems, tc.dups)
			}
			for i := range tc.findings {
				if _, ok := gs.LeadOf(Ref{Input: 1, N: uint32(i)}); ok && len(gs.Others(Ref{Input: 1, N: uint32(i)})) > 0 {
					t.Errorf("finding %d both leads and follows", i)
				}
			}
		})
	}
}
