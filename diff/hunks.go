package diff

import "strings"

// ContextLines is how many unchanged lines a hunk shows around its changes,
// as git does by default.
const ContextLines = 3

// change is one run of changed lines of a line diff: del lines deleted
// from old line o, add lines added from new line n (0-based).
type change struct{ o, n, del, add int }

// eachChange gives the runs of changed lines of two compacted sides, in
// order.
func eachChange(old, cur *side, fn func(c change)) {
	n1, n2 := old.n(), cur.n()
	for i, j := 0, 0; i < n1 || j < n2; {
		if i < n1 && old.changed(i) || j < n2 && cur.changed(j) || i == n1 || j == n2 {
			c := change{o: i, n: j}
			for ; i < n1 && (old.changed(i) || j == n2); i++ {
			}
			for ; j < n2 && (cur.changed(j) || i == n1); j++ {
			}
			c.del, c.add = i-c.o, j-c.n
			fn(c)
			continue
		}
		i++
		j++
	}
}

// hunkRange is one hunk: lines [o0, o1) of the old file and [n0, n1) of the
// new one, and its changes.
type hunkRange struct {
	o0, o1, n0, n1 int
	first, last    int // indexes of its first and last change
}

// hunkRanges groups changes into hunks as git does: ctx lines of context
// around each change, and changes whose contexts touch (at most 2·ctx
// unchanged lines apart) in one hunk. n1 and n2 are the files' lines.
func hunkRanges(chs []change, n1, n2, ctx int) []hunkRange {
	var out []hunkRange
	for k := 0; k < len(chs); {
		first, last := k, k
		for last+1 < len(chs) && chs[last+1].o-(chs[last].o+chs[last].del) <= 2*ctx {
			last++
		}
		f, l := chs[first], chs[last]
		lead := min(ctx, f.o)
		trail := min(ctx, n1-(l.o+l.del))
		out = append(out, hunkRange{
			o0: f.o - lead, o1: l.o + l.del + trail,
			n0: f.n - lead, n1: l.n + l.add + trail,
			first: first, last: last,
		})
		k = last + 1
	}
	return out
}

// lineCount is how many lines the hunk shows: its old side's lines (context
// and deleted) and its added ones.
func (h hunkRange) lineCount(chs []change) int {
	n := h.o1 - h.o0
	for _, c := range chs[h.first : h.last+1] {
		n += c.add
	}
	return n
}

// buildHunk makes hunk h with the text of old and cur: context, then each
// change's deleted lines before its added ones, numbered from 1.
func buildHunk(h hunkRange, chs []change, old, cur *lines) Hunk {
	size := 0
	for i := h.o0; i < h.o1; i++ {
		size += len(old.text(i))
	}
	for j := h.n0; j < h.n1; j++ {
		size += len(cur.text(j))
	}
	var arena strings.Builder
	arena.Grow(size)
	type span struct{ from, to int }
	var spans []span
	var out []Line
	add := func(kind LineKind, o, n int, t *lines, i int) {
		from := arena.Len()
		arena.Write(t.text(i))
		spans = append(spans, span{from, arena.Len()})
		out = append(out, Line{Kind: kind, Old: o, New: n, NoEOL: t.noEOL && i == t.n()-1})
	}
	i, j := h.o0, h.n0
	context := func(toOld int) {
		for ; i < toOld; i, j = i+1, j+1 {
			add(Context, i+1, j+1, cur, j)
		}
	}
	for _, c := range chs[h.first : h.last+1] {
		context(c.o)
		for ; i < c.o+c.del; i++ {
			add(Delete, i+1, 0, old, i)
		}
		for ; j < c.n+c.add; j++ {
			add(Add, 0, j+1, cur, j)
		}
	}
	context(h.o1)
	text := arena.String()
	for k := range out {
		out[k].Text = text[spans[k].from:spans[k].to]
	}
	hk := Hunk{OldStart: h.o0 + 1, OldLines: h.o1 - h.o0, NewStart: h.n0 + 1, NewLines: h.n1 - h.n0, Lines: out}
	// git writes the line before an empty side (0 for a new file).
	if hk.OldLines == 0 {
		hk.OldStart = h.o0
	}
	if hk.NewLines == 0 {
		hk.NewStart = h.n0
	}
	return hk
}
