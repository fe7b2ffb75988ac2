package grouping

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/reports"
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
	case "Checkstyle:CyclomaticComplexity", "PMD:CyclomaticComplexity":
		return 4
	case "Checkstyle:EqualsHashCode", "PMD:OverrideBothEqualsAndHashcode", "SpotBugs:HE_EQUALS_USE_HASHCODE":
		return 5
	}
	return -1
}

func TestGrouper(t *testing.T) {
	mk := func(tool, rule, path string, line, end, col int, imp reports.Impact) reports.Finding {
		return reports.Finding{Tool: tool, Rule: rule, Path: path, Line: line, EndLine: end, Column: col, Impact: imp,
			Quality: reports.QualityMaintainability, Severity: reports.SeverityWarning}
	}
	cs := "com.puppycrawl.tools.checkstyle.checks.FinalParametersCheck"
	tests := []struct {
		name     string
		findings []reports.Finding
		want     [][]int // groups: lead first, then the others, by index into findings
	}{
		{"two parameters of one method, each reported by two tools: two problems",
			[]reports.Finding{mk("Checkstyle", cs, "A.java", 16, 16, 18, reports.ImpactLow), mk("Checkstyle", cs, "A.java", 16, 16, 35, reports.ImpactLow),
				mk("PMD", "MethodArgumentCouldBeFinal", "A.java", 16, 16, 25, reports.ImpactLow), mk("PMD", "MethodArgumentCouldBeFinal", "A.java", 16, 16, 40, reports.ImpactLow)},
			[][]int{{0, 2}, {1, 3}}},
		{"== on strings by three rules of two tools, the most important leads",
			[]reports.Finding{mk("PMD", "CompareObjectsWithEquals", "O.java", 34, 34, 13, reports.ImpactMedium), mk("PMD", "UseEqualsToCompareStrings", "O.java", 34, 34, 13, reports.ImpactMedium),
				mk("SpotBugs", "ES_COMPARING_PARAMETER_STRING_WITH_EQ", "O.java", 34, 34, 0, reports.ImpactHigh)},
			[][]int{{2, 0, 1}}},
		{"a method-wide finding joins the one on a line inside it",
			[]reports.Finding{mk("SpotBugs", "OS_OPEN_STREAM", "S.java", 23, 23, 0, reports.ImpactLow), mk("PMD", "CloseResource", "S.java", 21, 30, 9, reports.ImpactMedium)},
			[][]int{{1, 0}}},
		{"different files, lines or classes stay apart",
			[]reports.Finding{mk("Checkstyle", "NeedBraces", "A.java", 5, 5, 9, reports.ImpactLow), mk("PMD", "ControlStatementBraces", "B.java", 5, 5, 9, reports.ImpactLow),
				mk("PMD", "ControlStatementBraces", "A.java", 6, 6, 9, reports.ImpactLow), mk("PMD", "CloseResource", "A.java", 5, 5, 9, reports.ImpactLow),
				mk("Checkstyle", "JavadocMethod", "A.java", 5, 5, 9, reports.ImpactLow)},
			nil},
		{"the same rule twice on one line is two problems",
			[]reports.Finding{mk("PMD", "ControlStatementBraces", "A.java", 5, 5, 9, reports.ImpactLow), mk("PMD", "ControlStatementBraces", "A.java", 5, 5, 20, reports.ImpactLow)},
			nil},
		{"a chain of overlapping ranges: each finding with its nearest, never the chain",
			[]reports.Finding{mk("PMD", "CloseResource", "S.java", 10, 25, 9, reports.ImpactMedium), mk("SpotBugs", "OS_OPEN_STREAM", "S.java", 20, 35, 0, reports.ImpactLow),
				mk("PMD", "CloseResource", "S.java", 30, 45, 9, reports.ImpactMedium), mk("SpotBugs", "OS_OPEN_STREAM", "S.java", 40, 55, 0, reports.ImpactLow),
				mk("PMD", "CloseResource", "S.java", 50, 65, 9, reports.ImpactMedium), mk("SpotBugs", "OS_OPEN_STREAM", "S.java", 60, 75, 0, reports.ImpactLow)},
			[][]int{{0, 1}, {2, 3}, {4, 5}}},
		{"a class-level metric over the lines of its methods' absorbs none of them",
			[]reports.Finding{mk("PMD", "CyclomaticComplexity", "C.java", 1, 100, 14, reports.ImpactMedium), mk("PMD", "CyclomaticComplexity", "C.java", 10, 20, 16, reports.ImpactLow),
				mk("PMD", "CyclomaticComplexity", "C.java", 50, 60, 16, reports.ImpactLow), mk("Checkstyle", "CyclomaticComplexity", "C.java", 10, 10, 5, reports.ImpactLow),
				mk("Checkstyle", "CyclomaticComplexity", "C.java", 50, 50, 5, reports.ImpactLow)},
			[][]int{{3, 1}, {4, 2}}},
		{"two parameters on one line, columns 21 and 31, each reported by two tools: paired by column",
			[]reports.Finding{mk("PMD", "MethodArgumentCouldBeFinal", "A.java", 7, 7, 31, reports.ImpactLow), mk("PMD", "MethodArgumentCouldBeFinal", "A.java", 7, 7, 21, reports.ImpactLow),
				mk("Checkstyle", cs, "A.java", 7, 7, 25, reports.ImpactMedium), mk("Checkstyle", cs, "A.java", 7, 7, 15, reports.ImpactLow)},
			[][]int{{2, 0}, {3, 1}}},
		{"a security finding named after a rule of the table does not hide another tool's by its CWE id",
			[]reports.Finding{{Tool: "PMD", Rule: "CloseResource", Path: "Dao.java", Line: 50, CWE: []int{89}, Quality: reports.QualitySecurity, Impact: reports.ImpactBlocker},
				{Tool: "Semgrep", Rule: "java.sql-injection", Path: "Dao.java", Line: 50, CWE: []int{89}, Quality: reports.QualitySecurity, Impact: reports.ImpactHigh},
				mk("SpotBugs", "OS_OPEN_STREAM", "Dao.java", 40, 60, 0, reports.ImpactLow)},
			[][]int{{0, 2}}},
		{"an annotation's line, the method's line and its first line of code: one problem",
			[]reports.Finding{mk("Checkstyle", "EqualsHashCode", "N.java", 29, 29, 5, reports.ImpactMedium), mk("PMD", "OverrideBothEqualsAndHashcode", "N.java", 30, 30, 20, reports.ImpactMedium),
				mk("SpotBugs", "HE_EQUALS_USE_HASHCODE", "N.java", 31, 31, 0, reports.ImpactMedium)},
			[][]int{{0, 2, 1}}},
		{"findings two lines apart, or of rules that reach no further, stay apart",
			[]reports.Finding{mk("Checkstyle", "EqualsHashCode", "N.java", 28, 28, 5, reports.ImpactMedium), mk("PMD", "OverrideBothEqualsAndHashcode", "N.java", 30, 30, 20, reports.ImpactMedium),
				mk("Checkstyle", "CyclomaticComplexity", "N.java", 40, 40, 5, reports.ImpactMedium), mk("PMD", "CyclomaticComplexity", "N.java", 41, 41, 20, reports.ImpactMedium)},
			nil},
		{"security tools: the same CWE on one line",
			[]reports.Finding{{Tool: "Semgrep", Rule: "sqli", Path: "a.py", Line: 3, CWE: []int{89}, Quality: reports.QualitySecurity, Impact: reports.ImpactHigh},
				{Tool: "CodeQL", Rule: "py/sql-injection", Path: "a.py", Line: 3, CWE: []int{89, 564}, Quality: reports.QualitySecurity, Impact: reports.ImpactBlocker},
				{Tool: "CodeQL", Rule: "py/xss", Path: "a.py", Line: 3, CWE: []int{79}, Quality: reports.QualitySecurity, Impact: reports.ImpactHigh},
				{Tool: "Semgrep", Rule: "sqli", Path: "a.py", Line: 4, CWE: []int{89}, Quality: reports.QualitySecurity, Impact: reports.ImpactHigh},
				{Tool: "SpotBugs", Rule: "DLS_DEAD_LOCAL_STORE", Path: "a.py", Line: 3, CWE: []int{89}, Quality: reports.QualityReliability}},
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
	a := reports.Finding{Tool: "Checkstyle", Rule: "NeedBraces", Path: "A.java", Line: 5, Impact: reports.ImpactLow, Quality: reports.QualityMaintainability}
	b := reports.Finding{Tool: "PMD", Rule: "ControlStatementBraces", Path: "A.java", Line: 5, Impact: reports.ImpactLow, Quality: reports.QualityMaintainability}
	g.Add(&a, Ref{1, 1})
	g.Add(&b, Ref{2, 1})
	gs := g.Resolve(func(tool, rule string) bool { return tool == "PMD" })
	if o := gs.Others(Ref{2, 1}); len(o) != 1 || o[0] != (Ref{1, 1}) {
		t.Errorf("PMD's finding, whose report explains its rule, does not lead: %v", o)
	}
}

func BenchmarkGrouper(b *testing.B) {
	fs := make([]reports.Finding, 100_000)
	for i := range fs {
		rule := []string{"MethodArgumentCouldBeFinal", "ControlStatementBraces", "CloseResource", "LongVariable"}[i%4]
		fs[i] = reports.Finding{Tool: "PMD", Rule: rule, Path: fmt.Sprintf("src/F%d.java", i%900), Line: i%300 + 1, Column: i % 7, Impact: reports.ImpactLow}
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
	mk := func(tool, rule string, line int) reports.Finding {
		return reports.Finding{Tool: tool, Rule: rule, Path: "A.java", Line: line, Impact: reports.ImpactLow, Quality: reports.QualityMaintainability}
	}
	high := func(f reports.Finding) reports.Finding {
		f.Impact = reports.ImpactHigh
		return f
	}
	tests := []struct {
		name     string
		findings []reports.Finding
		problems int
		dups     int
	}{
		{"a group of the configuration alone", []reports.Finding{mk("Checkstyle", "MagicNumber", 5), mk("PMD", "AvoidLiteralsInIfCondition", 5)}, 1, 1},
		{"a group of the configuration joins a class of recap's", []reports.Finding{mk("Checkstyle", "NeedBraces", 5), mk("PMD", "ControlStatementBraces", 5), mk("SpotBugs", "XYZ_BRACES", 5)}, 1, 2},
		{"groups are not chained", []reports.Finding{mk("PMD", "A", 5), mk("PMD", "C", 5)}, 0, 0},
		{"a rule in two groups, with one of each: A leads and matches B, not C", []reports.Finding{mk("PMD", "A", 5), mk("PMD", "B", 5), mk("PMD", "C", 5)}, 1, 1},
		{"a rule in two groups leads: it matches one of each", []reports.Finding{mk("PMD", "A", 5), high(mk("PMD", "B", 5)), mk("PMD", "C", 5)}, 1, 2},
		{"[A, B] and [B, C] do not join A and C through B", []reports.Finding{mk("PMD", "A", 5), mk("PMD", "C", 5), mk("PMD", "B", 6)}, 0, 0},
		{"other lines stay apart", []reports.Finding{mk("Checkstyle", "MagicNumber", 5), mk("PMD", "AvoidLiteralsInIfCondition", 6)}, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := NewGrouper(testClasses)
			g.More(func(f *reports.Finding) []int32 { return groups[f.Tool+":"+f.Rule] })
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

// TestGrouperEncoding: what the grouper keeps of each finding, encoded
// against the one before it, decodes to what it was, whatever the values:
// lines far apart and back, lines and columns past what is kept, ordinals
// that skip and go back, several CWE ids, further classes, files and inputs
// that alternate, across many chunks.
func TestGrouperEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rules := []string{"MethodArgumentCouldBeFinal", "ControlStatementBraces", "CloseResource", "Sqli"}
	g := NewGrouper(testClasses)
	g.More(func(f *reports.Finding) []int32 {
		if f.Rule == "CloseResource" {
			return []int32{0, 7}
		}
		return nil
	})
	type added struct {
		f   reports.Finding
		ref Ref
	}
	var all []added
	n := map[uint32]uint32{}
	for i := range 60_000 {
		f := reports.Finding{Tool: "PMD", Rule: rules[rng.IntN(len(rules))], Path: fmt.Sprintf("F%d.java", rng.IntN(3)+i/5000*3),
			Impact: reports.Impact(rng.IntN(6)), Quality: reports.Quality(rng.IntN(4)), Severity: reports.Severity(rng.IntN(4))}
		switch rng.IntN(5) {
		case 0:
			f.Line = rng.IntN(math.MaxInt32) + 1
		case 1:
			f.Line = math.MaxInt32 + rng.IntN(10) // kept as the greatest line
		default:
			f.Line = rng.IntN(300) + 1
		}
		f.EndLine = f.Line + rng.IntN(200_000) - 50_000
		f.Column = rng.IntN(100_000) - 10
		if rng.IntN(2) == 0 {
			f.Baseline = reports.BaselineNew
		}
		if f.Rule == "Sqli" {
			f.Quality = reports.QualitySecurity
			f.CWE = []int{89, rng.IntN(2000), 79, 22, 611, 94}[:rng.IntN(6)+1]
		}
		in := uint32(rng.IntN(2))
		switch rng.IntN(10) {
		case 0:
			n[in] += uint32(rng.IntN(1 << 20)) // skips
		case 1:
			n[in] -= min(n[in], uint32(rng.IntN(50))) // goes back
		default:
			n[in]++
		}
		ref := Ref{Input: in, N: n[in]}
		g.Add(&f, ref)
		all = append(all, added{f, ref})
	}
	if g.mapped == 0 {
		t.Logf("no chunk outside the heap here")
	}
	var got []member
	var cwes []cweLink
	for i := range g.runs {
		got, cwes = g.decode(&g.runs[i], got, cwes)
	}
	var want []member
	var wantCWEs []cweLink
	for _, a := range all {
		f := a.f
		class := testClasses(f.Tool, f.Rule)
		security := f.Security() && len(f.CWE) > 0
		if class < 0 && !security && f.Rule != "CloseResource" {
			continue
		}
		m := member{ref: a.ref, rule: g.rules[[2]string{f.Tool, f.Rule}], class: int32(class), line: int32(min(f.Line, math.MaxInt32)),
			span: uint16(min(max(f.EndLine-f.Line, 0), 65535)), col: uint16(min(max(f.Column, 0), 65535)),
			impact: f.Impact, quality: f.Quality, severity: f.Severity, isNew: f.Baseline == reports.BaselineNew}
		if security {
			for _, id := range f.CWE[:min(len(f.CWE), maxCWELinks)] {
				wantCWEs = append(wantCWEs, cweLink{cwe: uint32(id), member: uint32(len(want))})
			}
		}
		want = append(want, m)
		if f.Rule == "CloseResource" {
			for _, c := range []int32{0, 7} {
				a := m
				a.class, a.alias = firstMoreClass+c, true
				want = append(want, a)
			}
		}
	}
	// The runs in the order they were added are the findings in that order.
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(member{})); diff != "" {
		t.Errorf("decoded members differ (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantCWEs, cwes, cmp.AllowUnexported(cweLink{})); diff != "" {
		t.Errorf("decoded CWE ids differ (-want +got):\n%s", diff)
	}
	if len(g.chunks) < 4 || len(g.runs) < 1000 {
		t.Errorf("%d chunks and %d runs: the test does not cross chunks and runs", len(g.chunks), len(g.runs))
	}
	g.Resolve(nil)
	if g.chunks != nil || g.mapped != 0 {
		t.Errorf("the members are kept after Resolve")
	}
}

// TestGrouperAtScale: many problems, across files, inputs and the chunks of
// the groups, each found from each of its members; and one problem of
// 10,000 findings (one line, one CWE id, 10,000 rules) whose others cross
// chunks.
func TestGrouperAtScale(t *testing.T) {
	g := NewGrouper(testClasses)
	const pairs = 30_000
	mk := func(tool, rule string, i int) reports.Finding {
		return reports.Finding{Tool: tool, Rule: rule, Path: fmt.Sprintf("F%d.java", i%7), Line: i/7 + 1, Column: 3, Impact: reports.ImpactLow}
	}
	for i := range pairs { // the inputs' files alternate
		a, b := mk("Checkstyle", "FinalParameters", i), mk("PMD", "MethodArgumentCouldBeFinal", i)
		b.Impact = reports.ImpactMedium
		g.Add(&a, Ref{Input: 0, N: uint32(i)})
		g.Add(&b, Ref{Input: 1, N: uint32(i)})
	}
	const many = 10_000
	for i := range many {
		f := reports.Finding{Tool: "Scanner", Rule: fmt.Sprintf("rule%05d", i), Path: "web.py", Line: 9, Quality: reports.QualitySecurity, CWE: []int{89},
			Impact: reports.ImpactHigh}
		g.Add(&f, Ref{Input: 2, N: uint32(i)})
	}
	gs := g.Resolve(nil)
	if gs.Problems() != pairs+1 || gs.Duplicates != pairs+many-1 {
		t.Fatalf("%d problems, %d duplicates; want %d, %d", gs.Problems(), gs.Duplicates, pairs+1, pairs+many-1)
	}
	for i := range pairs {
		lead, other := Ref{Input: 1, N: uint32(i)}, Ref{Input: 0, N: uint32(i)}
		if o := gs.Others(lead); len(o) != 1 || o[0] != other {
			t.Fatalf("pair %d: others %v", i, o)
		}
		if l, ok := gs.LeadOf(other); !ok || l != lead {
			t.Fatalf("pair %d: lead %v %v", i, l, ok)
		}
		if _, ok := gs.LeadOf(lead); ok {
			t.Fatalf("pair %d: the lead follows", i)
		}
		if tool, rule := gs.Name(other); tool != "Checkstyle" || rule != "FinalParameters" {
			t.Fatalf("pair %d: named %s %s", i, tool, rule)
		}
	}
	others := gs.Others(Ref{Input: 2, N: 0})
	if len(others) != many-1 {
		t.Fatalf("the problem of %d findings has %d others", many, len(others))
	}
	for i, o := range others {
		if o != (Ref{Input: 2, N: uint32(i + 1)}) {
			t.Fatalf("other %d is %v", i, o)
		}
		if l, ok := gs.LeadOf(o); !ok || l != (Ref{Input: 2, N: 0}) {
			t.Fatalf("other %d: lead %v %v", i, l, ok)
		}
	}
	if _, ok := gs.LeadOf(Ref{Input: 3, N: 0}); ok || gs.Others(Ref{Input: 3}) != nil {
		t.Errorf("a finding of no problem has one")
	}
}

// TestGrouperKeepsLittle: of findings as reports list them (a file's
// together, line after line), the grouper keeps at most 8 bytes each.
func TestGrouperKeepsLittle(t *testing.T) {
	g := NewGrouper(testClasses)
	const files, each = 500, 200
	for i := range files * each {
		rule := []string{"MethodArgumentCouldBeFinal", "ControlStatementBraces", "CloseResource"}[i%3]
		f := reports.Finding{Tool: "PMD", Rule: rule, Path: fmt.Sprintf("src/main/java/org/example/F%d.java", i/each), Line: i%each*3 + 1,
			Column: i % 80, Impact: reports.ImpactLow, Quality: reports.QualityMaintainability, Severity: reports.SeverityWarning}
		g.Add(&f, Ref{Input: 0, N: uint32(i)})
	}
	kept := len(g.runs) * int(unsafe.Sizeof(run{}))
	for _, c := range g.chunks {
		kept += len(c)
	}
	per := float64(kept) / (files * each)
	t.Logf("%.2f bytes a finding", per)
	if per > 8 || len(g.runs) != files {
		t.Errorf("%.1f bytes a finding in %d runs; want at most 8 in %d", per, len(g.runs), files)
	}
}

// hostileShapes are the shapes of findings that once made grouping
// quadratic, at full size: findings of one class on one file with long
// overlapping ranges, distinct security rules sharing a CWE id on one
// line, and a chain of overlapping ranges of two rules.
var hostileShapes = []struct {
	name     string
	n        int
	finding  func(i int) reports.Finding
	problems int // the problems of more than one finding
}{
	{"long-ranges", 100_000, func(i int) reports.Finding {
		rule, tool := "CloseResource", "PMD"
		if i%2 == 1 {
			rule, tool = "OS_OPEN_STREAM", "SpotBugs"
		}
		return reports.Finding{Tool: tool, Rule: rule, Path: "Big.java", Line: i/2 + 1, EndLine: i/2 + 50_000, Impact: reports.ImpactMedium}
	}, 50_000},
	{"cwe-rules", 60_000, func(i int) reports.Finding {
		return reports.Finding{Tool: "Scanner", Rule: fmt.Sprintf("rule%05d", i), Path: "web.py", Line: 9, Quality: reports.QualitySecurity, CWE: []int{89},
			Impact: reports.ImpactHigh}
	}, 1},
	{"chain", 1_000, func(i int) reports.Finding {
		rule, tool := "CloseResource", "PMD"
		if i%2 == 1 {
			rule, tool = "OS_OPEN_STREAM", "SpotBugs"
		}
		return reports.Finding{Tool: tool, Rule: rule, Path: "Chain.java", Line: 10*i + 1, EndLine: 10*i + 15, Impact: reports.ImpactMedium}
	}, 500},
}

// TestGrouperHostileShapes: each hostile shape at full size gives its
// problems, each of one finding of each rule.
func TestGrouperHostileShapes(t *testing.T) {
	for _, s := range hostileShapes {
		t.Run(s.name, func(t *testing.T) {
			g := NewGrouper(testClasses)
			for i := range s.n {
				f := s.finding(i)
				g.Add(&f, Ref{Input: 1, N: uint32(i)})
			}
			gs := g.Resolve(nil)
			if gs.Problems() != s.problems {
				t.Errorf("%d problems of more than one finding; want %d", gs.Problems(), s.problems)
			}
		})
	}
}

// BenchmarkGrouperHostile groups each hostile shape at full size: each is
// n log n in its findings.
func BenchmarkGrouperHostile(b *testing.B) {
	for _, s := range hostileShapes {
		fs := make([]reports.Finding, s.n)
		for i := range fs {
			fs[i] = s.finding(i)
		}
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				g := NewGrouper(testClasses)
				for i := range fs {
					g.Add(&fs[i], Ref{Input: 1, N: uint32(i)})
				}
				g.Resolve(nil)
			}
		})
	}
}

// TestGrouperManyRulesOfAClass: a group of a configuration whose globs name
// hundreds of rules, all on one line: the first maxClassRules rules of the
// class find each other, the others stay apart.
func TestGrouperManyRulesOfAClass(t *testing.T) {
	g := NewGrouper(testClasses)
	g.More(func(f *reports.Finding) []int32 { return []int32{0} })
	const rules = 100
	for i := range rules {
		f := reports.Finding{Tool: "PMD", Rule: fmt.Sprintf("R%03d", i), Path: "A.java", Line: 5, Impact: reports.ImpactLow}
		g.Add(&f, Ref{Input: 1, N: uint32(i)})
	}
	gs := g.Resolve(nil)
	if gs.Problems() != 1 || gs.Duplicates != maxClassRules-1 {
		t.Errorf("%d problems, %d duplicates; want 1, %d", gs.Problems(), gs.Duplicates, maxClassRules-1)
	}
}

// TestResolveHalves groups findings of many files, some new against a
// baseline, with rules whose texts the reports carry or not, on one
// goroutine and in two halves, and compares the groups.
func TestResolveHalves(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var fs []reports.Finding
	for range 20_000 {
		rule := fuzzRules[r.IntN(len(fuzzRules))]
		f := reports.Finding{Tool: rule[0], Rule: rule[1], Path: fmt.Sprintf("src/F%d.java", r.IntN(300)), Line: 1 + r.IntN(60), Column: r.IntN(30),
			Impact: reports.Impact(r.IntN(6)), Quality: reports.QualityMaintainability, Severity: reports.Severity(1 + r.IntN(3))}
		f.EndLine = f.Line + r.IntN(6)
		if r.IntN(3) == 0 {
			f.Baseline = reports.BaselineNew
		}
		if r.IntN(4) == 0 {
			f.Quality, f.CWE = reports.QualitySecurity, [][]int{{89}, {79}, {89, 79}}[r.IntN(3)]
		}
		fs = append(fs, f)
	}
	asked := 0
	hasText := func(tool, rule string) bool { asked++; return len(rule)%2 == 0 }
	group := func(halves bool) *Groups {
		was := minHalves
		if halves {
			minHalves = 1
		} else {
			minHalves = math.MaxInt
		}
		defer func() { minHalves = was }()
		g := NewGrouper(testClasses)
		g.More(fuzzGroups)
		for i := range fs {
			g.Add(&fs[i], Ref{Input: uint32(1 + i%2), N: uint32(i)})
		}
		return g.Resolve(hasText)
	}
	one, two := group(false), group(true)
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one processor: Resolve does not split the files")
	}
	if one.Problems() < 1000 || one.NewOfOldProblems == 0 || one.New.Problems == 0 || asked == 0 {
		t.Fatalf("too few problems to tell: %d, %d new of old ones, %d new, texts asked %d", one.Problems(), one.NewOfOldProblems, one.New.Problems, asked)
	}
	if err := sameGroups(two, one, len(fs)); err != nil {
		t.Fatalf("in halves: %v", err)
	}
	if again := group(false); sameGroups(again, one, len(fs)) != nil {
		t.Fatal("grouped twice on one goroutine, the groups differ")
	}
}
