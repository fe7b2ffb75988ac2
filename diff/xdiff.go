// Copyright (C) 2003 Davide Libenzi (xdiff), the git authors, and the
// recap authors.
//
// This file is a port of git's xdiff (xdiff/xdiffi.c, xdiff/xprepare.c) and
// is distributed under the GNU Lesser General Public License, version 2.1 or
// (at your option) any later version, as xdiff is; see LICENSES/LGPL-2.1.txt.
// It is not under recap's MIT licence.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

package diff

import (
	"context"
	"math"
)

// The line diff is git's: xdiff's Myers algorithm with its heuristics
// (xdiffi.c: xdl_recs_cmp, xdl_split) after its preparation of the two
// files (xprepare.c: the common ends trimmed, lines with no match on the
// other side set aside), on lines reduced to their classes (equal lines,
// one class). Its memory is a few words a line whatever the lines hold, it
// cannot panic on any input, and its cost is bounded by git's own
// heuristics; the hunks it gives, once compacted (compact.go), are git's.

// xdiff's tuning, as git sets it.
const (
	xdlMaxCostMin    = 256
	xdlHeurMinCost   = 256
	xdlSnakeCnt      = 20
	xdlKHeur         = 4
	xdlMaxEqLimit    = 1024
	xdlSimscanWindow = 100
	xdlKpdisRun      = 4
	xdlLineMax       = math.MaxInt32
)

// bogosqrt is xdiff's integer square root approximation.
func bogosqrt(n int) int {
	i := 1
	for ; n > 0; n >>= 2 {
		i <<= 1
	}
	return i
}

// lineDiff marks the changed lines of two files given as line classes:
// old.chg and cur.chg (made here, with xdiff's sentinels) say which lines
// of each were deleted and added. count1 and count2 give each class's
// occurrences in the old and the new file. It checks ctx now and then.
func lineDiff(ctx context.Context, old, cur *side, count1, count2 []int32) error {
	n1, n2 := old.n(), cur.n()
	old.chg = make([]bool, n1+2)
	cur.chg = make([]bool, n2+2)
	a, b := old.ids, cur.ids

	// xdl_trim_ends: the common head and tail are not diffed.
	start := 0
	for lim := min(n1, n2); start < lim && a[start] == b[start]; start++ {
	}
	tail := 0
	for lim := min(n1, n2) - start; tail < lim && a[n1-1-tail] == b[n2-1-tail]; tail++ {
	}
	end1, end2 := n1-tail-1, n2-tail-1

	// xdl_cleanup_records: a line without a match on the other side is
	// changed; one with many matches in a run of such lines too.
	dis1 := make([]byte, n1+1)
	dis2 := make([]byte, n2+1)
	classify := func(dis []byte, ids []int32, end int, other []int32, n int) {
		mlim := min(bogosqrt(n), xdlMaxEqLimit)
		for i := start; i <= end; i++ {
			nm := int(other[ids[i]])
			switch {
			case nm == 0:
				dis[i] = 0
			case nm >= mlim:
				dis[i] = 2
			default:
				dis[i] = 1
			}
		}
	}
	classify(dis1, a, end1, count2, n1)
	classify(dis2, b, end2, count1, n2)
	reduce := func(s *side, dis []byte, end int) (ha, rindex []int32) {
		nreff := 0
		for i := start; i <= end; i++ {
			if dis[i] == 1 || dis[i] == 2 && !cleanMatch(dis, i, start, end) {
				nreff++
			}
		}
		ha, rindex = make([]int32, 0, nreff), make([]int32, 0, nreff)
		for i := start; i <= end; i++ {
			if dis[i] == 1 || dis[i] == 2 && !cleanMatch(dis, i, start, end) {
				rindex = append(rindex, int32(i))
				ha = append(ha, s.ids[i])
			} else {
				s.set(i, true)
			}
		}
		return ha, rindex
	}
	ha1, rindex1 := reduce(old, dis1, end1)
	ha2, rindex2 := reduce(cur, dis2, end2)
	dis1, dis2 = nil, nil

	// xdl_do_diff
	ndiags := len(ha1) + len(ha2) + 3
	e := &xdEnv{
		ctx: ctx, ha1: ha1, ha2: ha2,
		kv:     make([]int32, 2*ndiags+2),
		fb:     len(ha2) + 1,
		bb:     ndiags + len(ha2) + 1,
		mxcost: max(bogosqrt(ndiags), xdlMaxCostMin),
	}
	return e.compare(old, cur, rindex1, rindex2)
}

// cleanMatch is xdl_clean_mmatch: whether line i, which has many matches,
// sits in a run of lines without a match, and is better set aside.
func cleanMatch(dis []byte, i, s, e int) bool {
	if i-s > xdlSimscanWindow {
		s = i - xdlSimscanWindow
	}
	if e-i > xdlSimscanWindow {
		e = i + xdlSimscanWindow
	}
	rdis0, rpdis0 := 0, 1
	for r := 1; i-r >= s; r++ {
		switch dis[i-r] {
		case 0:
			rdis0++
		case 2:
			rpdis0++
		default:
			r = i - s + 1 // break
		}
	}
	if rdis0 == 0 {
		return false
	}
	rdis1, rpdis1 := 0, 1
	for r := 1; i+r <= e; r++ {
		switch dis[i+r] {
		case 0:
			rdis1++
		case 2:
			rpdis1++
		default:
			r = e - i + 1 // break
		}
	}
	if rdis1 == 0 {
		return false
	}
	rdis1 += rdis0
	rpdis1 += rpdis0
	return rpdis1*xdlKpdisRun < rpdis1+rdis1
}

// xdEnv is one Myers diff of the reduced lines ha1 and ha2: the forward
// and backward furthest-reaching paths by diagonal in kv (forward at fb+d,
// backward at bb+d).
type xdEnv struct {
	ctx      context.Context
	ha1, ha2 []int32
	kv       []int32
	fb, bb   int
	mxcost   int
	steps    int
}

type box struct {
	off1, lim1, off2, lim2 int
	needMin                bool
}

// compare is xdl_recs_cmp, with a stack of boxes for its recursion.
func (e *xdEnv) compare(old, cur *side, rindex1, rindex2 []int32) error {
	ha1, ha2 := e.ha1, e.ha2
	stack := []box{{0, len(ha1), 0, len(ha2), false}}
	for len(stack) > 0 {
		bx := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		off1, lim1, off2, lim2 := bx.off1, bx.lim1, bx.off2, bx.lim2
		for off1 < lim1 && off2 < lim2 && ha1[off1] == ha2[off2] {
			off1++
			off2++
		}
		for off1 < lim1 && off2 < lim2 && ha1[lim1-1] == ha2[lim2-1] {
			lim1--
			lim2--
		}
		switch {
		case off1 == lim1:
			for ; off2 < lim2; off2++ {
				cur.set(int(rindex2[off2]), true)
			}
		case off2 == lim2:
			for ; off1 < lim1; off1++ {
				old.set(int(rindex1[off1]), true)
			}
		default:
			if e.steps++; e.steps&0xff == 0 {
				if err := e.ctx.Err(); err != nil {
					return err
				}
			}
			i1, i2, minLo, minHi := e.split(off1, lim1, off2, lim2, bx.needMin)
			stack = append(stack, box{i1, lim1, i2, lim2, minHi}, box{off1, i1, off2, i2, minLo})
		}
	}
	return nil
}

// split is xdl_split: it finds where the box is best cut in two, by
// running the forward and backward searches until they meet, or, past the
// cost the heuristics allow, at the furthest-reaching path.
func (e *xdEnv) split(off1, lim1, off2, lim2 int, needMin bool) (s1, s2 int, minLo, minHi bool) {
	fmid, bmid := off1-off2, lim1-lim2
	at := xdReach{off1, lim1, off2, lim2, fmid, fmid, fmid, bmid, bmid, bmid}
	odd := (fmid-bmid)&1 != 0
	e.kv[e.fb+fmid] = int32(off1)
	e.kv[e.bb+bmid] = int32(lim1)
	for ec := 1; ; ec++ {
		fSnake, i1, i2, met := e.forward(&at, odd)
		if met {
			return i1, i2, true, true
		}
		bSnake, i1, i2, met := e.backward(&at, !odd)
		if met {
			return i1, i2, true, true
		}

		if needMin {
			continue
		}

		// A good snake far enough along: cut there.
		if (fSnake || bSnake) && ec > xdlHeurMinCost {
			if s1, s2, minLo, minHi, ok := e.snakeCut(&at, ec); ok {
				return s1, s2, minLo, minHi
			}
		}

		// Enough: the furthest-reaching path.
		if ec >= e.mxcost {
			return e.furthest(&at)
		}
	}
}

// forward is one step of xdl_split's forward search: in git's
// xdiff/xdiffi.c, the first half of xdl_split's loop, from the first "We
// need to extend the diagonal "domain" by one" to the end of the scan
// "for (d = fmax; d >= fmin; d -= 2)" that follows it. The diagonals
// fmin..fmax widen by one each way (narrow at the box's edge) and each
// follows its snake from where it reached. It returns whether a snake of
// more than xdlSnakeCnt lines was followed and, when check, where the
// search met the backward one (met).
func (e *xdEnv) forward(at *xdReach, check bool) (snake bool, i1, i2 int, met bool) {
	ha1, ha2, kv, fb, bb := e.ha1, e.ha2, e.kv, e.fb, e.bb
	lim1, lim2 := at.lim1, at.lim2
	dmin, dmax := at.off1-at.lim2, at.lim1-at.off2
	fmin, fmax, bmin, bmax := at.fmin, at.fmax, at.bmin, at.bmax
	if fmin > dmin {
		fmin--
		kv[fb+fmin-1] = -1
	} else {
		fmin++
	}
	if fmax < dmax {
		fmax++
		kv[fb+fmax+1] = -1
	} else {
		fmax--
	}
	at.fmin, at.fmax = fmin, fmax
	for d := fmax; d >= fmin; d -= 2 {
		if kv[fb+d-1] >= kv[fb+d+1] {
			i1 = int(kv[fb+d-1]) + 1
		} else {
			i1 = int(kv[fb+d+1])
		}
		prev1 := i1
		i2 = i1 - d
		for i1 < lim1 && i2 < lim2 && ha1[i1] == ha2[i2] {
			i1++
			i2++
		}
		if i1-prev1 > xdlSnakeCnt {
			snake = true
		}
		kv[fb+d] = int32(i1)
		if check && bmin <= d && d <= bmax && int(kv[bb+d]) <= i1 {
			return snake, i1, i2, true
		}
	}
	return snake, 0, 0, false
}

// backward is one step of xdl_split's backward search, as forward is of
// the forward one: in git's xdiff/xdiffi.c, the second half of
// xdl_split's loop, from the second "We need to extend the diagonal
// "domain" by one" to the end of the scan "for (d = bmax; d >= bmin; d -=
// 2)" that follows it.
func (e *xdEnv) backward(at *xdReach, check bool) (snake bool, i1, i2 int, met bool) {
	ha1, ha2, kv, fb, bb := e.ha1, e.ha2, e.kv, e.fb, e.bb
	off1, off2 := at.off1, at.off2
	dmin, dmax := at.off1-at.lim2, at.lim1-at.off2
	fmin, fmax, bmin, bmax := at.fmin, at.fmax, at.bmin, at.bmax
	if bmin > dmin {
		bmin--
		kv[bb+bmin-1] = xdlLineMax
	} else {
		bmin++
	}
	if bmax < dmax {
		bmax++
		kv[bb+bmax+1] = xdlLineMax
	} else {
		bmax--
	}
	at.bmin, at.bmax = bmin, bmax
	for d := bmax; d >= bmin; d -= 2 {
		if kv[bb+d-1] < kv[bb+d+1] {
			i1 = int(kv[bb+d-1])
		} else {
			i1 = int(kv[bb+d+1]) - 1
		}
		prev1 := i1
		i2 = i1 - d
		for i1 > off1 && i2 > off2 && ha1[i1-1] == ha2[i2-1] {
			i1--
			i2--
		}
		if prev1-i1 > xdlSnakeCnt {
			snake = true
		}
		kv[bb+d] = int32(i1)
		if check && fmin <= d && d <= fmax && i1 <= int(kv[fb+d]) {
			return snake, i1, i2, true
		}
	}
	return snake, 0, 0, false
}

// xdReach is where split's searches are: the box, and the diagonals the
// forward (f) and backward (b) searches have reached, around their middles.
type xdReach struct {
	off1, lim1, off2, lim2 int
	fmin, fmax, fmid       int
	bmin, bmax, bmid       int
}

// snakeCut is xdl_split's heuristic: the path, forward or backward, that
// has come furthest while ending in a snake of xdlSnakeCnt lines, if one
// has come far enough for the cost ec.
func (e *xdEnv) snakeCut(at *xdReach, ec int) (s1, s2 int, minLo, minHi, ok bool) {
	ha1, ha2, kv, fb, bb := e.ha1, e.ha2, e.kv, e.fb, e.bb
	off1, lim1, off2, lim2 := at.off1, at.lim1, at.off2, at.lim2
	best := 0
	for d := at.fmax; d >= at.fmin; d -= 2 {
		dd := d - at.fmid
		if dd < 0 {
			dd = -dd
		}
		i1 := int(kv[fb+d])
		i2 := i1 - d
		v := (i1 - off1) + (i2 - off2) - dd
		if v > xdlKHeur*ec && v > best &&
			off1+xdlSnakeCnt <= i1 && i1 < lim1 &&
			off2+xdlSnakeCnt <= i2 && i2 < lim2 {
			for k := 1; ha1[i1-k] == ha2[i2-k]; k++ {
				if k == xdlSnakeCnt {
					best = v
					s1, s2 = i1, i2
					break
				}
			}
		}
	}
	if best > 0 {
		return s1, s2, true, false, true
	}
	for d := at.bmax; d >= at.bmin; d -= 2 {
		dd := d - at.bmid
		if dd < 0 {
			dd = -dd
		}
		i1 := int(kv[bb+d])
		i2 := i1 - d
		v := (lim1 - i1) + (lim2 - i2) - dd
		if v > xdlKHeur*ec && v > best &&
			off1 < i1 && i1 <= lim1-xdlSnakeCnt &&
			off2 < i2 && i2 <= lim2-xdlSnakeCnt {
			for k := 0; ha1[i1+k] == ha2[i2+k]; k++ {
				if k == xdlSnakeCnt-1 {
					best = v
					s1, s2 = i1, i2
					break
				}
			}
		}
	}
	if best > 0 {
		return s1, s2, false, true, true
	}
	return 0, 0, false, false, false
}

// furthest is xdl_split past the cost allowed: the cut at the
// furthest-reaching path, forward or backward.
func (e *xdEnv) furthest(at *xdReach) (s1, s2 int, minLo, minHi bool) {
	kv, fb, bb := e.kv, e.fb, e.bb
	off1, lim1, off2, lim2 := at.off1, at.lim1, at.off2, at.lim2
	fbest, fbest1 := -1, -1
	for d := at.fmax; d >= at.fmin; d -= 2 {
		i1 := min(int(kv[fb+d]), lim1)
		i2 := i1 - d
		if lim2 < i2 {
			i1 = lim2 + d
			i2 = lim2
		}
		if fbest < i1+i2 {
			fbest = i1 + i2
			fbest1 = i1
		}
	}
	bbest, bbest1 := xdlLineMax, xdlLineMax
	for d := at.bmax; d >= at.bmin; d -= 2 {
		i1 := max(off1, int(kv[bb+d]))
		i2 := i1 - d
		if i2 < off2 {
			i1 = off2 + d
			i2 = off2
		}
		if i1+i2 < bbest {
			bbest = i1 + i2
			bbest1 = i1
		}
	}
	if (lim1+lim2)-bbest < fbest-(off1+off2) {
		return fbest1, fbest - fbest1, true, false
	}
	return bbest1, bbest - bbest1, false, true
}
