package pipeline

import (
	"math/rand/v2"
	"testing"

	"github.com/recap-dev/recap/grouping"
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
