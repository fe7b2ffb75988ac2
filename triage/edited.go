package triage

import (
	"slices"

	"github.com/recap-dev/recap/internal/text"
)

// An edited decided line. A variable renamed on the decided line, an
// argument added: the line no longer reads as the entry's, so the entry
// matches nothing, and the finding, still there, shows undecided. Git's
// line diff of the commit that edited it replaces the decided line with
// one much like it; a finding of the entry's tool and rule there that no
// entry matched is the one to decide again, named as when a finding's
// message changed (Status.Changed), never matched: the edit may have
// changed what the decision was about. A line the diff does not put in
// the decided line's place (a fix elsewhere, another method with the
// same call, a method like the decided one written in another commit
// than the one that deleted the decided one) is named by no entry.

// minLikeness is how much of its code a line must share with the
// decided line to be told as it edited (likeness).
const minLikeness = 0.6

// maxLikeLine bounds the characters of an edited line told (Near.Code).
const maxLikeLine = 200

// editedNear notes, of each entry that matched nothing and whose decided
// line a commit since replaced with a line much like it (editedTo), the
// finding of its tool and rule on that line that no entry matched
// (m.near, with the line as it reads now). m.mu held.
func (m *Matcher) editedNear() {
	if m.hist == nil || len(m.undecided) == 0 {
		return
	}
	type place struct {
		tool, rule, path string
		line             int
	}
	type file struct{ tool, rule, path string }
	at := map[place][]int{} // → indexes into m.undecided, one a finding
	files := map[file]bool{}
	for k, u := range m.undecided {
		p := place{u.tool, u.rule, u.path, u.line}
		if !slices.ContainsFunc(at[p], func(j int) bool { return m.undecided[j].id == u.id }) {
			at[p] = append(at[p], k)
		}
		files[file{u.tool, u.rule, u.path}] = true
	}
	for i := range m.entries {
		e := &m.entries[i]
		if m.used[i] != 0 || m.near[i] != nil || e.Commit == "" || e.Line == "" || m.lines[i].cut ||
			!files[file{e.Tool, e.Rule, m.path[i]}] || m.hist.missing[i] || m.hist.squashed[i] {
			continue
		}
		sf := m.file(m.path[i])
		if sf == nil {
			continue
		}
		var u *undecided
		j := m.editedTo(i, sf, func(j int) bool {
			u = m.editedFinding(e, at[place{e.Tool, e.Rule, m.path[i], j}])
			return u != nil
		})
		if j == 0 {
			continue
		}
		m.near[i] = &Near{ID: u.id, Path: u.path, Line: u.line, Message: text.CutRunes(foldSpace(u.message), MaxMessage),
			Code: text.CutRunes(foldSpace(string(sf.line(j-1))), maxLikeLine)}
	}
}

// editedFinding returns, of the findings (indexes into m.undecided) on
// the line entry e's decided line was edited into, the one to decide
// again: the only one, else the one whose message is most like e's (a
// number in it changed with the line: "'120' is a magic number." for
// "'119' …"), when one is; of those alike, the ones whose message's words
// that e's has not are all on e's line are the findings that were there
// beside it ("'100' …" on "return net * 119 / 100;"), left out. nil when
// none is told.
func (m *Matcher) editedFinding(e *Entry, us []int) *undecided {
	if len(us) == 1 {
		return &m.undecided[us[0]]
	}
	best, bestLike := []int(nil), -1.0
	for _, k := range us {
		switch l := likeness([]byte(e.Message), []byte(m.undecided[k].message)); {
		case l > bestLike:
			best, bestLike = []int{k}, l
		case l == bestLike:
			best = append(best, k)
		}
	}
	if len(best) > 1 {
		was := tokens([]byte(e.Line))
		best = slices.DeleteFunc(best, func(k int) bool {
			msg := tokens([]byte(e.Message))
			for _, t := range tokens([]byte(m.undecided[k].message)) {
				if !slices.ContainsFunc(msg, func(w []byte) bool { return string(w) == string(t) }) &&
					!slices.ContainsFunc(was, func(w []byte) bool { return string(w) == string(t) }) {
					return false // a word new with the edit
				}
			}
			return true
		})
	}
	if len(best) != 1 {
		return nil
	}
	return &m.undecided[best[0]]
}

// editedTo returns the line (1-based) of sf, entry idx's file now, that
// its decided line was edited into, followed step by step through git
// (stepwise): at each step that deletes or changes the line it follows,
// the line the step puts in its place (replacedBy), followed on from
// there; 0 when none (a step deletes it with none in its place, one
// cannot tell, or no step edited it), or when wanted says no to it.
func (m *Matcher) editedTo(idx int, sf *sourceFile, wanted func(int) bool) int {
	if m.hist.stepReads >= maxStepReads {
		return 0
	}
	old, at, versions := m.stepVersions(idx, sf)
	if at == 0 {
		return 0
	}
	line, edited := m.lines[idx], false
	for _, next := range versions {
		cur := newSourceFile(next)
		now, gone := step(old, cur, at, line)
		if gone {
			lineOf, err := linesOf(old.src, cur.src)
			if err != nil {
				return 0
			}
			if now = replacedBy(old, at, lineOf, cur, func(int) bool { return true }); now == 0 {
				return 0 // deleted
			}
			line, edited = entryLine{b: cur.line(now - 1)}, true
		}
		if at = now; at == 0 {
			return 0
		}
		old = cur
	}
	if !edited || !wanted(at) {
		return 0
	}
	return at
}

// replacedBy returns the line (1-based) of cur that git's line diff
// (lineOf, from old) puts in the place of line at of old, which it does
// not carry, among the lines wanted says: of the lines it adds between
// the lines it carries around at, the one at at's place when it adds as
// many as it deletes there, else the one most like it; a line that
// shares less than minLikeness of its text with it is none, and so is a
// tie. 0 when none.
func replacedBy(old *sourceFile, at int, lineOf func(int) (int, bool), cur *sourceFile, wanted func(int) bool) int {
	if at < 1 || at > old.n() {
		return 0
	}
	carried := func(i int) (int, bool) {
		n, ok := lineOf(i)
		return n, ok && n >= 1 && n <= cur.n()
	}
	if _, ok := carried(at); ok {
		return 0
	}
	// The lines deleted are (lo, hi) of old, those added (newLo, newHi)
	// of cur.
	lo, newLo := at-1, 0
	for ; lo >= 1; lo-- {
		if n, ok := carried(lo); ok {
			newLo = n
			break
		}
	}
	lo = max(lo, 0)
	hi, newHi := at+1, cur.n()+1
	for ; hi <= old.n(); hi++ {
		if n, ok := carried(hi); ok {
			newHi = n
			break
		}
	}
	if newHi-newLo <= 1 {
		return 0 // deleted, nothing added in its place
	}
	was := old.line(at - 1)
	if hi-lo == newHi-newLo {
		if j := newLo + (at - lo); wanted(j) && likeness(was, cur.line(j-1)) >= minLikeness {
			return j
		}
	}
	best, bestLike, tie := 0, 0.0, false
	for j := newLo + 1; j < newHi; j++ {
		if !wanted(j) {
			continue
		}
		switch l := likeness(was, cur.line(j-1)); {
		case l > bestLike:
			best, bestLike, tie = j, l, false
		case l == bestLike:
			tie = true
		}
	}
	if tie || bestLike < minLikeness {
		return 0
	}
	return best
}

// likeness is how much code a and b share: twice the tokens of their
// longest common subsequence of tokens over their tokens (1: the same,
// 0: nothing in common). A token is a word (letters, digits, '_', '$',
// and what is not ASCII) or any other character that is no white space:
// a variable renamed is one token of a line changed, a line rewritten
// most of them.
func likeness(a, b []byte) float64 {
	ta, tb := tokens(a), tokens(b)
	if len(ta)+len(tb) == 0 {
		return 1
	}
	prev, row := make([]int, len(tb)+1), make([]int, len(tb)+1)
	for i := 1; i <= len(ta); i++ {
		for j := 1; j <= len(tb); j++ {
			switch {
			case string(ta[i-1]) == string(tb[j-1]):
				row[j] = prev[j-1] + 1
			case prev[j] >= row[j-1]:
				row[j] = prev[j]
			default:
				row[j] = row[j-1]
			}
		}
		prev, row = row, prev
	}
	return 2 * float64(prev[len(tb)]) / float64(len(ta)+len(tb))
}

// maxTokens bounds the tokens of a line likeness compares.
const maxTokens = 64

// tokens are l's tokens (see likeness), the first maxTokens.
func tokens(l []byte) [][]byte {
	var out [][]byte
	for i := 0; i < len(l) && len(out) < maxTokens; {
		if i = skipSpace(l, i); i == len(l) {
			break
		}
		j := i + 1
		if isWord(l[i]) {
			for j < len(l) && isWord(l[j]) {
				j++
			}
		}
		out, i = append(out, l[i:j]), j
	}
	return out
}

// isWord says whether c is a byte of a word (see likeness).
func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c >= 0x80
}
