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

// A diff is ambiguous where a run of added (or deleted) lines can slide up
// or down over equal lines: "+}\n+\n+f() {" or "+\n+f() {\n+}" add the same
// text. git settles each such run the same way (xdiff's xdl_change_compact:
// slide as far down as possible, line up with a change in the other file
// when one is in reach, else pick the position by the indent heuristic, on
// by default since git 2.14). recap does the same after its line diff, so
// its hunks, and the changed lines findings are matched to, are git's.

// side is one file of a line diff: its lines as classes, how indented
// they are, and which of them changed.
type side struct {
	// ids are the lines' classes: equal lines, equal classes.
	ids []int32
	// indentOf gives line i's indentation (see indent), for the indent
	// heuristic.
	indentOf func(i int) int
	// chg[i+1] marks line i as changed; chg[0] and chg[len] are false
	// sentinels, as in xdiff.
	chg []bool
}

func (s *side) n() int             { return len(s.ids) }
func (s *side) changed(i int) bool { return s.chg[i+1] }
func (s *side) set(i int, v bool)  { s.chg[i+1] = v }
func (s *side) same(i, j int) bool { return s.ids[i] == s.ids[j] }

// group is a run of changed lines [start, end); start == end for the empty
// group above line start.
type group struct{ start, end int }

func (s *side) first() group {
	g := group{}
	for s.changed(g.end) {
		g.end++
	}
	return g
}

func (s *side) next(g *group) bool {
	if g.end == s.n() {
		return false
	}
	g.start = g.end + 1
	for g.end = g.start; s.changed(g.end); g.end++ {
	}
	return true
}

func (s *side) previous(g *group) bool {
	if g.start == 0 {
		return false
	}
	g.end = g.start - 1
	for g.start = g.end; s.changed(g.start - 1); g.start-- {
	}
	return true
}

func (s *side) slideDown(g *group) bool {
	if g.end < s.n() && s.same(g.start, g.end) {
		s.set(g.start, false)
		s.set(g.end, true)
		g.start++
		g.end++
		for s.changed(g.end) {
			g.end++
		}
		return true
	}
	return false
}

func (s *side) slideUp(g *group) bool {
	if g.start > 0 && s.same(g.start-1, g.end-1) {
		g.start--
		g.end--
		s.set(g.start, true)
		s.set(g.end, false)
		for s.changed(g.start - 1) {
			g.start--
		}
		return true
	}
	return false
}

const maxSliding = 100 // INDENT_HEURISTIC_MAX_SLIDING

// compact settles the ambiguous runs of s, keeping o (the other file) in step.
func compact(s, o *side) {
	g, og := s.first(), o.first()
	for {
		if g.end != g.start {
			var earliestEnd, size int
			endMatchingOther := -1
			for {
				size = g.end - g.start
				endMatchingOther = -1
				for s.slideUp(&g) {
					o.previous(&og)
				}
				earliestEnd = g.end
				if og.end > og.start {
					endMatchingOther = g.end
				}
				for s.slideDown(&g) {
					o.next(&og)
					if og.end > og.start {
						endMatchingOther = g.end
					}
				}
				if size == g.end-g.start {
					break
				}
			}
			switch {
			case g.end == earliestEnd:
			case endMatchingOther != -1:
				for og.end == og.start {
					s.slideUp(&g)
					o.previous(&og)
				}
			default:
				shift := max(earliestEnd, g.end-size-1, g.end-maxSliding)
				best, bestScore := -1, score{}
				for ; shift <= g.end; shift++ {
					var sc score
					sc.add(s.measure(shift))
					sc.add(s.measure(shift - size))
					if best == -1 || sc.cmp(bestScore) <= 0 {
						best, bestScore = shift, sc
					}
				}
				for g.end > best {
					s.slideUp(&g)
					o.previous(&og)
				}
			}
		}
		if !s.next(&g) {
			break
		}
		o.next(&og)
	}
}

const maxBlanks = 20

type split struct {
	endOfFile             bool
	indent                int
	preBlank, preIndent   int
	postBlank, postIndent int
}

func (s *side) measure(at int) split {
	m := split{indent: -1, preIndent: -1, postIndent: -1}
	if at >= s.n() {
		m.endOfFile = true
	} else {
		m.indent = s.indentOf(at)
	}
	for i := at - 1; i >= 0; i-- {
		if m.preIndent = s.indentOf(i); m.preIndent != -1 {
			break
		}
		m.preBlank++
		if m.preBlank == maxBlanks {
			m.preIndent = 0
			break
		}
	}
	for i := at + 1; i < s.n(); i++ {
		if m.postIndent = s.indentOf(i); m.postIndent != -1 {
			break
		}
		m.postBlank++
		if m.postBlank == maxBlanks {
			m.postIndent = 0
			break
		}
	}
	return m
}

type score struct{ effectiveIndent, penalty int }

// add scores a split as git's score_add_split does (the weights come from
// git's xdiffi.c, fitted on a corpus of human-judged diffs).
func (s *score) add(m split) {
	if m.preIndent == -1 && m.preBlank == 0 {
		s.penalty += 1 // start of file
	}
	if m.endOfFile {
		s.penalty += 21
	}
	postBlank := 0
	if m.indent == -1 {
		postBlank = 1 + m.postBlank
	}
	totalBlank := m.preBlank + postBlank
	s.penalty += -30*totalBlank + 6*postBlank
	ind := m.indent
	if ind == -1 {
		ind = m.postIndent
	}
	anyBlanks := totalBlank != 0
	s.effectiveIndent += ind
	pick := func(withBlank, without int) int {
		if anyBlanks {
			return withBlank
		}
		return without
	}
	switch {
	case ind == -1, m.preIndent == -1, ind == m.preIndent:
	case ind > m.preIndent:
		s.penalty += pick(10, -4)
	case m.postIndent != -1 && m.postIndent > ind:
		s.penalty += pick(17, 24)
	default:
		s.penalty += pick(17, 23)
	}
}

func (s score) cmp(o score) int {
	c := 0
	if s.effectiveIndent > o.effectiveIndent {
		c = 1
	} else if s.effectiveIndent < o.effectiveIndent {
		c = -1
	}
	return 60*c + s.penalty - o.penalty
}

// compactSides settles the changed lines of old and cur (their chg, as
// lineDiff marks them) as git does, each side in step with the other.
func compactSides(old, cur *side) {
	compact(old, cur)
	compact(cur, old)
}
