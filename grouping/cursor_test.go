package grouping_test

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/internal/reportstest"
)

// TestCursorRole: a cursor says of each finding what LeadOf and Others
// say, asked in the order of the refs (a pass: the sample's reports as
// three inputs), in reverse and in random order, with refs of no finding
// between, and after a problem is dropped.
func TestCursorRole(t *testing.T) {
	root := reportstest.RepoRoot(t)
	fs := readFindings(t, filepath.Join(root, "testdata", "sample"), filepath.Join(root, "testdata", "reports"))
	g := grouping.NewGrouper(grouping.ClassOf)
	var refs []grouping.Ref
	for i := range fs {
		r := grouping.Ref{Input: uint32(i % 3), N: uint32(2 * i)} // gaps: refs of no finding
		g.Add(&fs[i], r)
		refs = append(refs, r)
	}
	gs := g.Resolve(nil)
	if gs.Problems() == len(fs) || !gs.Grouped() {
		t.Fatal("the sample has no problem of several findings")
	}
	slices.SortFunc(refs, func(a, b grouping.Ref) int {
		if a.Input != b.Input {
			return int(a.Input) - int(b.Input)
		}
		return int(a.N) - int(b.N)
	})
	var asked []grouping.Ref // each finding's ref and the one after it, of no finding
	for _, r := range refs {
		asked = append(asked, r, grouping.Ref{Input: r.Input, N: r.N + 1})
	}
	check := func(t *testing.T, gs *grouping.Groups, order []grouping.Ref) {
		c := gs.Cursor()
		dups, leads := 0, 0
		for _, r := range order {
			dup, others := c.Role(r)
			_, wantDup := gs.LeadOf(r)
			want := gs.Others(r)
			if dup != wantDup || !slices.Equal(others, want) {
				t.Fatalf("Role(%v) = %v, %v; LeadOf and Others say %v, %v", r, dup, others, wantDup, want)
			}
			if dup {
				dups++
			}
			if len(others) > 0 {
				leads++
			}
		}
		if dups == 0 || leads == 0 {
			t.Errorf("%d duplicates, %d leads asked about", dups, leads)
		}
	}
	t.Run("in order", func(t *testing.T) { check(t, gs, asked) })
	t.Run("reversed", func(t *testing.T) {
		rev := slices.Clone(asked)
		slices.Reverse(rev)
		check(t, gs, rev)
	})
	t.Run("random", func(t *testing.T) {
		shuffled := slices.Clone(asked)
		rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		check(t, gs, shuffled)
	})
	t.Run("a problem dropped", func(t *testing.T) {
		for _, r := range refs {
			if len(gs.Others(r)) > 0 {
				gs.Drop(r)
				break
			}
		}
		check(t, gs, asked)
	})
	t.Run("no groups", func(t *testing.T) {
		var none *grouping.Groups
		if dup, others := none.Cursor().Role(refs[0]); dup || others != nil {
			t.Errorf("Role of nil groups: %v, %v", dup, others)
		}
	})
}
