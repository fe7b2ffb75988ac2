package pipeline

import (
	"math/rand/v2"
	"slices"
	"testing"
	"testing/fstest"
	"time"

	"github.com/recap-dev/recap/config"
	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/triage"
)

// TestAsides: records put aside over several chunks are kept in order,
// sorted by ref (stably) when they came out of order, and found by ref.
func TestAsides(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n        int
		shuffled bool
	}{
		{"none", 0, false},
		{"one", 1, false},
		{"a chunk less one", asideChunk - 1, false},
		{"a chunk", asideChunk, false},
		{"chunks and some, in order", 3*asideChunk + 5, false},
		{"chunks and some, shuffled", 3*asideChunk + 5, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			refs := make([]grouping.Ref, tc.n)
			for i := range refs {
				// Two records of each ref: the sort keeps their order.
				refs[i] = grouping.Ref{Input: uint32(i / 1000), N: uint32(i % 1000 / 2)}
			}
			order := make([]int, tc.n)
			for i := range order {
				order[i] = i
			}
			if tc.shuffled {
				r := rand.New(rand.NewPCG(1, 2))
				r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			}
			var l asides
			for _, i := range order {
				l.add(aside{ref: refs[i], line: int32(i)})
			}
			if l.len() != tc.n {
				t.Fatalf("len %d, want %d", l.len(), tc.n)
			}
			for k, i := range order {
				if got := l.at(k).line; got != int32(i) {
					t.Fatalf("before sorting, record %d is line %d, want %d", k, got, i)
				}
			}
			l.sort()
			for i := 1; i < l.len(); i++ {
				a, b := l.at(i-1), l.at(i)
				if c := compareRefs(a.ref, b.ref); c > 0 || c == 0 && !stableBefore(order, a.line, b.line) {
					t.Fatalf("records %d and %d out of order (or equal refs not in the order added): %+v, %+v", i-1, i, a.ref, b.ref)
				}
			}
			for _, r := range refs {
				k, ok := l.search(r)
				if !ok || l.at(k).ref != r || k > 0 && l.at(k-1).ref == r {
					t.Fatalf("search(%+v) = %d, %v: not the first record of it", r, k, ok)
				}
			}
			if _, ok := l.search(grouping.Ref{Input: 1 << 30}); ok {
				t.Error("search found a ref never added")
			}
		})
	}
}

// stableBefore reports whether line x was added before line y.
func stableBefore(order []int, x, y int32) bool {
	for _, i := range order {
		switch int32(i) {
		case x:
			return true
		case y:
			return false
		}
	}
	return false
}

// TestAsidesOfDecidedClasses: of a file some entry names, the findings put
// aside are those of the classes of its entries' rules (of no class when
// an entry's rule has none), files of other classes' entries in turn; every finding of it when an entry's file is
// gone (its decision may be on a finding of any rule) or the
// configuration groups rules; none of a file no entry names.
func TestAsidesOfDecidedClasses(t *testing.T) {
	finding := func(tool, rule, path string, n uint32) *reports.Finding {
		return &reports.Finding{ID: reports.FindingID{Tag: "ab12", N: n}, Tool: tool, Rule: rule, Path: path, Line: 3, Severity: reports.SeverityWarning}
	}
	findings := []*reports.Finding{
		finding("PMD", "ControlStatementBraces", "src/A.java", 1),
		finding("Checkstyle", "com.puppycrawl.tools.checkstyle.checks.blocks.NeedBracesCheck", "src/A.java", 2), // the entry's class
		finding("PMD", "OverrideBothEqualsAndHashcode", "src/A.java", 3),                                        // another class
		finding("PMD", "SomeRuleOfNoClass", "src/A.java", 4),                                                    // no class
		finding("PMD", "ControlStatementBraces", "src/B.java", 5),                                               // no entry names B
		finding("PMD", "ControlStatementBraces", "src/C.java", 6),                                               // C's entry is of another class
		finding("PMD", "OverrideBothEqualsAndHashcode", "src/C.java", 7),
		finding("PMD", "OverrideBothEqualsAndHashcode", "src/A.java", 8),
	}
	grouped, err := config.Parse(".recap.yml", []byte("same:\n  - [\"PMD:ControlStatementBraces\", \"PMD:OverrideBothEqualsAndHashcode\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		rules  []string // the entries' rules, of src/A.java
		src    fstest.MapFS
		config *config.Config
		want   []uint32 // the findings put aside
	}{
		{"one class", []string{"ControlStatementBraces"}, nil, nil, []uint32{1, 2, 7}},
		{"two classes", []string{"ControlStatementBraces", "OverrideBothEqualsAndHashcode"}, nil, nil, []uint32{1, 2, 3, 7, 8}},
		{"no class among them", []string{"SomeRuleOfNoClass"}, nil, nil, []uint32{4, 7}},
		{"an entry's file gone", []string{"ControlStatementBraces"}, fstest.MapFS{"src/A.java": {Data: []byte("a\n")}, "src/C.java": {Data: []byte("a\n")}}, nil, []uint32{1, 2, 3, 4, 6, 7, 8}},
		{"rules grouped by the configuration", []string{"ControlStatementBraces"}, nil, grouped, []uint32{1, 2, 3, 4, 6, 7, 8}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var entries []triage.Entry
			for _, r := range tc.rules {
				entries = append(entries, triage.Entry{Tool: "PMD", Rule: r, Path: "src/A.java", Message: "m", State: triage.FalsePositive, Reason: "r"})
			}
			entries = append(entries, triage.Entry{Tool: "PMD", Rule: "OverrideBothEqualsAndHashcode", Path: "src/C.java", Message: "m", State: triage.FalsePositive, Reason: "r"})
			if tc.src != nil { // an entry of a file the source does not have
				entries = append(entries, triage.Entry{Tool: "PMD", Rule: "X", Path: "src/Gone.java", Line: "x();", State: triage.FalsePositive, Reason: "r"})
			}
			var src triage.Source
			if tc.src != nil {
				src = tc.src
			}
			q := &Query{Classes: grouping.ClassOf, Config: tc.config, Triage: triage.NewMatcher(&triage.File{Version: 1, Entries: entries}, src, time.Now())}
			tri := newTriaging(q, nil, true)
			for _, f := range findings {
				tri.keep(f, grouping.Ref{Input: 1, N: f.ID.N}, "", true)
			}
			var got []uint32
			for i := range tri.aside.len() {
				got = append(got, tri.aside.at(i).ref.N)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("put aside %v, want %v", got, tc.want)
			}
		})
	}
}
