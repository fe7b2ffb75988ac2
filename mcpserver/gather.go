package mcpserver

// gathered holds what a pass takes, one value at a time, in pieces: a
// result of unknown size is copied once, into a slice of its size, where
// append would copy it at each growth (by a quarter past 256 elements:
// five times over for 700,000 refs), clear each new array and give the
// old ones to the collector.
type gathered[T any] struct {
	full [][]T // the pieces filled, in order
	cur  []T   // the piece being filled
	n    int   // the values in full
}

// gatherFirst and gatherPiece are the sizes of the first piece and of the
// others: the pieces double from the first, so that a result of a few
// findings holds a few, up to gatherPiece.
const (
	gatherFirst = 64
	gatherPiece = 1 << 15
)

// room starts the pieces with room for n values at once (a result known to
// take at most n), so that they are never copied.
func (g *gathered[T]) room(n int) { g.cur = make([]T, 0, n) }

func (g *gathered[T]) add(v T) {
	if len(g.cur) == cap(g.cur) {
		g.grow()
	}
	g.cur = append(g.cur, v)
}

func (g *gathered[T]) grow() {
	size := gatherFirst
	if c := cap(g.cur); c > 0 {
		size = min(2*c, gatherPiece)
		g.full = append(g.full, g.cur)
		g.n += len(g.cur)
	}
	g.cur = make([]T, 0, size)
}

// len is the number of values added.
func (g *gathered[T]) len() int { return g.n + len(g.cur) }

// slice returns the values in order, and forgets them: the piece itself
// when there is one, else a copy of their size.
func (g *gathered[T]) slice() []T {
	if len(g.full) == 0 {
		out := g.cur
		*g = gathered[T]{}
		return out
	}
	out := make([]T, 0, g.len())
	for _, p := range g.full {
		out = append(out, p...)
	}
	out = append(out, g.cur...)
	*g = gathered[T]{}
	return out
}

// reset forgets the values added.
func (g *gathered[T]) reset() { *g = gathered[T]{} }
