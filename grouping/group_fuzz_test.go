package grouping

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/recap-dev/recap/reports"
)

// fuzzRules are the rules FuzzGrouper draws from: rules of testClasses'
// classes (EqualsHashCode's with their anchors), rules of a configuration's
// groups ([A, B] and [B, C]), and rules in no class.
var fuzzRules = [][2]string{
	{"Checkstyle", "FinalParameters"}, {"PMD", "MethodArgumentCouldBeFinal"},
	{"PMD", "CloseResource"}, {"SpotBugs", "OS_OPEN_STREAM"},
	{"Checkstyle", "CyclomaticComplexity"}, {"PMD", "CyclomaticComplexity"},
	{"Checkstyle", "EqualsHashCode"}, {"PMD", "OverrideBothEqualsAndHashcode"}, {"SpotBugs", "HE_EQUALS_USE_HASHCODE"},
	{"PMD", "A"}, {"PMD", "B"}, {"PMD", "C"},
	{"Semgrep", "sqli"}, {"CodeQL", "java/sql-injection"}, {"Semgrep", "xss"},
}

// fuzzGroups are the configuration's groups of FuzzGrouper: [A, B], [B, C].
func fuzzGroups(f *reports.Finding) []int32 {
	switch f.Tool + ":" + f.Rule {
	case "PMD:A":
		return []int32{0}
	case "PMD:B":
		return []int32{0, 1}
	case "PMD:C":
		return []int32{1}
	}
	return nil
}

// fuzzFindings reads findings from data, 6 bytes each: rule, file, line,
// lines after it, column, and a byte of impact, security and CWE ids.
func fuzzFindings(data []byte) []reports.Finding {
	var fs []reports.Finding
	for len(data) >= 6 && len(fs) < 200 {
		b := data[:6]
		data = data[6:]
		r := fuzzRules[int(b[0])%len(fuzzRules)]
		f := reports.Finding{Tool: r[0], Rule: r[1], Path: fmt.Sprintf("F%d.java", b[1]%2), Line: int(b[2]%40) + 1, Column: int(b[4] % 50),
			Impact: reports.Impact(b[5] % 6), Quality: reports.QualityMaintainability, Severity: reports.SeverityWarning}
		f.EndLine = f.Line + int(b[3]%8)
		if b[3]&0x80 != 0 {
			f.EndLine = f.Line + int(b[3]%64) // a long range
		}
		if b[1]&0x80 != 0 { // new against a baseline
			f.Baseline = reports.BaselineNew
		}
		if b[5]&0x08 != 0 {
			f.Quality = reports.QualitySecurity
			f.CWE = [][]int{{89}, {79}, {89, 79}, {22, 89}}[b[5]>>4%4]
		}
		fs = append(fs, f)
	}
	return fs
}

// reach is a finding's lines as the grouper matches them: its anchor's
// reach added when its rule is in a class.
func reach(f *reports.Finding, classed bool) (line, end int) {
	line, span := f.Line, min(max(f.EndLine-f.Line, 0), 1<<16-1)
	if a := anchorOf(f.Tool, f.Rule); classed && a != (Anchor{}) {
		up := min(line-1, a.Up)
		line -= up
		span = min(span+up+a.Down, 1<<16-1)
	}
	return line, line + span
}

// FuzzGrouper checks the grouper's promises on any findings: every
// finding is in one problem at most, as its lead or as one of its others;
// a problem holds one finding of each rule at most; every other finding
// matches the lead itself (never only another member); and the groups are
// the same when the findings are grouped again; against a baseline, the
// new problems and the new findings of old ones are counted as they are.
func FuzzGrouper(f *testing.F) {
	f.Add([]byte{0, 0, 5, 0, 10, 1, 1, 0, 5, 0, 20, 1})
	f.Add([]byte{0, 0x80, 5, 0, 10, 1, 1, 0, 5, 0, 20, 1})    // a new finding of an old problem
	f.Add([]byte{0, 0x80, 5, 0, 10, 1, 1, 0x80, 5, 0, 20, 1}) // a new problem
	f.Fuzz(checkGrouper)
}

// checkGrouper is FuzzGrouper's check of data.
func checkGrouper(t *testing.T, data []byte) {
	{
		fs := fuzzFindings(data)
		group := func() *Groups {
			g := NewGrouper(testClasses)
			g.More(fuzzGroups)
			for i := range fs {
				g.Add(&fs[i], Ref{Input: 1, N: uint32(i)})
			}
			return g.Resolve(nil)
		}
		gs := group()
		classes := func(i int) []int32 {
			var cs []int32
			if c := testClasses(fs[i].Tool, fs[i].Rule); c >= 0 {
				cs = append(cs, int32(c))
			}
			for _, c := range fuzzGroups(&fs[i]) {
				cs = append(cs, firstMoreClass+c)
			}
			return cs
		}
		ruleOf := func(i int) [2]string { return [2]string{fs[i].Tool, reports.ShortRule(fs[i].Tool, fs[i].Rule)} }
		lines := func(i int) (int, int) { return reach(&fs[i], len(classes(i)) > 0) }
		// rank is i's place among its rule's findings of its file and line, by column.
		rank := func(i int) int {
			li, _ := lines(i)
			n := 0
			for j := range fs {
				lj, _ := lines(j)
				if j != i && ruleOf(j) == ruleOf(i) && fs[j].Path == fs[i].Path && lj == li &&
					(fs[j].Column < fs[i].Column || fs[j].Column == fs[i].Column && j < i) {
					n++
				}
			}
			return n
		}
		// container: i's lines hold another finding's of its rule.
		container := func(i int) bool {
			li, ei := lines(i)
			for j := range fs {
				lj, ej := lines(j)
				if j != i && ruleOf(j) == ruleOf(i) && fs[j].Path == fs[i].Path && lj >= li && ej <= ei && (lj > li || ej < ei) {
					return true
				}
			}
			return false
		}
		matches := func(a, b int) bool {
			x, y := &fs[a], &fs[b]
			if x.Path != y.Path || ruleOf(a) == ruleOf(b) {
				return false
			}
			ca, cb := classes(a), classes(b)
			if len(ca) == 0 && len(cb) == 0 {
				if !x.Security() || !y.Security() || x.Line != y.Line {
					return false
				}
				for _, id := range x.CWE[:min(len(x.CWE), maxCWELinks)] {
					if slices.Contains(y.CWE[:min(len(y.CWE), maxCWELinks)], id) {
						return true
					}
				}
				return false
			}
			shared := false
			for _, c := range ca {
				shared = shared || slices.Contains(cb, c)
			}
			if !shared {
				return false
			}
			la, ea := lines(a)
			lb, eb := lines(b)
			if la == lb {
				return rank(a) == rank(b)
			}
			return la <= eb && lb <= ea && !container(a) && !container(b)
		}
		seen := make([]bool, len(fs))
		type problem []uint32
		var problems []problem
		for i := range fs {
			ref := Ref{Input: 1, N: uint32(i)}
			others := gs.Others(ref)
			if _, follows := gs.LeadOf(ref); follows && len(others) > 0 {
				t.Fatalf("finding %d both leads and follows", i)
			}
			if len(others) == 0 {
				continue
			}
			p := problem{uint32(i)}
			rules := [][2]string{ruleOf(i)}
			for _, o := range others {
				j := int(o.N)
				if seen[j] || j == i {
					t.Fatalf("finding %d is in two problems", j)
				}
				seen[j] = true
				if l, ok := gs.LeadOf(o); !ok || l != ref {
					t.Fatalf("finding %d: lead %v %v, want %d", j, l, ok, i)
				}
				if slices.Contains(rules, ruleOf(j)) {
					t.Fatalf("problem of %d holds two findings of %v", i, ruleOf(j))
				}
				rules = append(rules, ruleOf(j))
				if !matches(i, j) {
					t.Fatalf("finding %d (%+v) is in the problem of %d (%+v) and does not match it", j, fs[j], i, fs[i])
				}
				p = append(p, uint32(j))
			}
			if seen[i] {
				t.Fatalf("finding %d leads and is another's", i)
			}
			seen[i] = true
			problems = append(problems, p)
		}
		// Grouped again, the files in two halves on two goroutines: the
		// same groups.
		was := minHalves
		minHalves = 1
		again := group()
		minHalves = was
		if err := sameGroups(again, gs, len(fs)); err != nil {
			t.Fatalf("grouped again in halves: %v", err)
		}
		for _, p := range problems {
			others := again.Others(Ref{Input: 1, N: p[0]})
			if len(others) != len(p)-1 {
				t.Fatalf("grouped again, the problem of %d has %d others, not %d", p[0], len(others), len(p)-1)
			}
			for k, o := range others {
				if o.N != p[k+1] {
					t.Fatalf("grouped again, the problem of %d differs", p[0])
				}
			}
		}
		if again.Problems() != len(problems) {
			t.Fatalf("grouped again: %d problems, not %d", again.Problems(), len(problems))
		}
		// Against a baseline: a problem is new when all its findings are;
		// the new findings of the others are of old problems.
		var newDups, newProblems, ofOld, notProblems int
		old := make([]bool, len(fs))
		for _, p := range problems {
			n := 0
			for _, i := range p {
				if fs[i].Baseline == reports.BaselineNew {
					n++
				}
			}
			switch {
			case n == len(p):
				newDups, newProblems, notProblems = newDups+n-1, newProblems+1, notProblems+n-1
			case n > 0:
				ofOld, notProblems = ofOld+n, notProblems+n
				for _, i := range p {
					old[i] = true
				}
			}
		}
		if gs.New.Findings != newDups || gs.New.Problems != newProblems || gs.NewOfOldProblems != ofOld || gs.NewNotProblems != notProblems {
			t.Fatalf("new duplicates %d of %d problems, %d of old problems, %d no new problem; want %d, %d, %d, %d",
				gs.New.Findings, gs.New.Problems, gs.NewOfOldProblems, gs.NewNotProblems, newDups, newProblems, ofOld, notProblems)
		}
		for i := range fs {
			if got := gs.OfOldProblem(Ref{Input: 1, N: uint32(i)}); got != old[i] {
				t.Fatalf("finding %d: of an old problem %v, want %v", i, got, old[i])
			}
		}
	}
}

// sameGroups compares two groupings of findings Ref{1 or 2, 0…n-1} (the
// order of the problems follows the hashes of their paths, which each
// grouper seeds anew): the counts, and each finding's lead, others and
// whether its problem is an old one.
func sameGroups(a, b *Groups, n int) error {
	ca := []any{a.Problems(), a.Duplicates, a.ByImpact, a.BySeverity, a.NewNotProblems, a.NewOfOldProblems, a.New}
	cb := []any{b.Problems(), b.Duplicates, b.ByImpact, b.BySeverity, b.NewNotProblems, b.NewOfOldProblems, b.New}
	if !reflect.DeepEqual(ca, cb) {
		return fmt.Errorf("counts %v, want %v", ca, cb)
	}
	for i := range n {
		for _, in := range []uint32{1, 2} {
			ref := Ref{Input: in, N: uint32(i)}
			la, fa := a.LeadOf(ref)
			lb, fb := b.LeadOf(ref)
			if la != lb || fa != fb || !slices.Equal(a.Others(ref), b.Others(ref)) || a.OfOldProblem(ref) != b.OfOldProblem(ref) {
				return fmt.Errorf("finding %v: lead %v %v, others %v, of an old problem %v; want %v %v, %v, %v",
					ref, la, fa, a.Others(ref), a.OfOldProblem(ref), lb, fb, b.Others(ref), b.OfOldProblem(ref))
			}
		}
	}
	return nil
}
