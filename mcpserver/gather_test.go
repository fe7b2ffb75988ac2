package mcpserver

import (
	"slices"
	"testing"
)

// TestGathered: the values come back in order, whatever their number and
// the room made, and a slice of several pieces is exactly their size.
func TestGathered(t *testing.T) {
	for _, c := range []struct{ n, room int }{
		{0, 0}, {1, 0}, {gatherFirst - 1, 0}, {gatherFirst, 0}, {gatherFirst + 1, 0},
		{gatherPiece, 0}, {3*gatherPiece + 7, 0}, {100, 100}, {100, 1000}, {1000, 100},
	} {
		var g gathered[int32]
		if c.room > 0 {
			g.room(c.room)
		}
		want := make([]int32, c.n)
		for i := range c.n {
			want[i] = int32(i * 7)
			g.add(want[i])
			if g.len() != i+1 {
				t.Fatalf("%+v: len %d after %d adds", c, g.len(), i+1)
			}
		}
		got := g.slice()
		if !slices.Equal(got, want) {
			t.Fatalf("%+v: got %d values, not the %d added in order", c, len(got), len(want))
		}
		if len(g.full) > 0 || g.len() != 0 {
			t.Errorf("%+v: the values not forgotten", c)
		}
		if c.n > c.room && c.n > gatherFirst && cap(got) != c.n {
			t.Errorf("%+v: a slice of pieces has room for %d, not its %d", c, cap(got), c.n)
		}
	}
	var g gathered[int32]
	g.add(1)
	g.reset()
	if g.len() != 0 || len(g.slice()) != 0 {
		t.Error("reset kept a value")
	}
}
