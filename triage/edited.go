package triage

import (
	"slices"

	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
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
	if m.hist == nil || len(m.undecided) == 0 || m.editedDone == len(m.undecided)+1 {
		return // none to look for, or looked for already (Statuses again)
	}
	m.editedDone = len(m.undecided) + 1
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
	var named []int // the entries named a finding here
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
			Code: text.CutRunes(foldSpace(string(sf.line(j-1))), maxLikeLine), Fingerprint: u.fingerprint}
		named = append(named, i)
	}
	// A finding several entries name is the one of the entry whose
	// message is most like its (messageLike), else of none.
	byID := map[reports.FindingID][]int{}
	for _, i := range named {
		byID[m.near[i].ID] = append(byID[m.near[i].ID], i)
	}
	for _, is := range byID {
		if len(is) < 2 {
			continue
		}
		best, bestLike, tie := -1, [2]float64{-1, -1}, false
		for _, i := range is {
			switch l := messageLike(m.entries[i].Message, m.near[i].Message); {
			case l[0] > bestLike[0] || l[0] == bestLike[0] && l[1] > bestLike[1]:
				best, bestLike, tie = i, l, false
			case l == bestLike:
				tie = true
			}
		}
		for _, i := range is {
			if tie || i != best {
				m.near[i] = nil
			}
		}
	}
}

// editedFinding returns, of the findings (indexes into m.undecided) on
// the line entry e's decided line was edited into, the one to decide
// again: of those whose message has the same words as e's or a word that
// was not on e's line (a name the edit gave, "Parameter createdAt …" for
// "Parameter created …"; a number it changed, "'120' is a magic number."
// for "'119' …"), the only one, else the one whose message is most like
// e's, when one is. A finding whose message's words that e's has not were
// all on e's line was there beside it, undecided ("'100' …" on "return
// net * 119 / 100;"; "Parameter created …" of "Order(String customer,
// Date created)" for the entry of customer, the parameter deleted): not
// the decided one. nil when none is told.
func (m *Matcher) editedFinding(e *Entry, us []int) *undecided {
	msg, was := tokens([]byte(e.Message)), tokens([]byte(e.Line))
	has := func(list [][]byte, t []byte) bool {
		return slices.ContainsFunc(list, func(w []byte) bool { return string(w) == string(t) })
	}
	best, bestLike, tie := -1, [2]float64{-1, -1}, false
	for _, k := range us {
		u := &m.undecided[k]
		if foldSpace(u.message) != foldSpace(e.Message) {
			beside := true
			for _, t := range tokens([]byte(u.message)) {
				if !has(msg, t) && !has(was, t) {
					beside = false // a word new with the edit
					break
				}
			}
			if beside {
				continue
			}
		}
		switch l := messageLike(e.Message, u.message); {
		case l[0] > bestLike[0] || l[0] == bestLike[0] && l[1] > bestLike[1]:
			best, bestLike, tie = k, l, false
		case l == bestLike:
			tie = true
		}
	}
	if best < 0 || tie {
		return nil
	}
	return &m.undecided[best]
}

// messageLike is how alike two messages are: by their words (likeness),
// then by the characters of the words one has and the other not, when
// they are names (a letter in each): a name renamed, "customerName" is
// more like "customer" than "createdAt" is; numbers are not told so
// ("121" for "119" no more than "120").
func messageLike(a, b string) [2]float64 {
	ta, tb := tokens([]byte(a)), tokens([]byte(b))
	only := func(from, other [][]byte) []byte {
		var out []byte
		for _, t := range from {
			if !slices.ContainsFunc(other, func(w []byte) bool { return string(w) == string(t) }) {
				out = append(out, t...)
			}
		}
		return out
	}
	named := func(b []byte) bool {
		return slices.ContainsFunc(b, func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' })
	}
	l := [2]float64{likeness([]byte(a), []byte(b)), 0}
	if wa, wb := only(ta, tb), only(tb, ta); named(wa) && named(wb) {
		l[1] = charLikeness(wa[:min(len(wa), maxLikeLine)], wb[:min(len(wb), maxLikeLine)])
	}
	return l
}

// charLikeness is twice the longest common subsequence of a's and b's
// bytes over their lengths.
func charLikeness(a, b []byte) float64 {
	return commonShare(len(a), len(b), func(i, j int) bool { return a[i] == b[j] })
}

// commonShare is twice the longest common subsequence of two sequences
// of n and m items (same says whether item i of the first is item j of
// the second) over n+m: 1 for two of nothing.
func commonShare(n, m int, same func(i, j int) bool) float64 {
	if n+m == 0 {
		return 1
	}
	prev, row := make([]int, m+1), make([]int, m+1)
	for i := 1; i <= n; i++ {
		for j := 1; j <= m; j++ {
			switch {
			case same(i-1, j-1):
				row[j] = prev[j-1] + 1
			case prev[j] >= row[j-1]:
				row[j] = prev[j]
			default:
				row[j] = row[j-1]
			}
		}
		prev, row = row, prev
	}
	return 2 * float64(prev[m]) / float64(n+m)
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
		switch {
		case gone:
			lineOf, err := linesOf(old.src, cur.src)
			if err != nil {
				return 0
			}
			if now = replacedBy(old, at, lineOf, cur, func(int) bool { return true }); now == 0 {
				// Not in its place: moved and edited in one change, to
				// the line added much like it among neighbours like its.
				if now = movedLike(old, at, cur, carriedLines(old.n(), cur.n(), lineOf)); now == 0 {
					return 0 // deleted
				}
			}
			line, edited = entryLine{b: cur.line(now - 1)}, true
		case now == 0:
			// Added elsewhere, its neighbours too few to tell: moved, when
			// it is the one line of its text, as a finding on the one line
			// of the entry's text is matched.
			if now = onlyAdded(old, cur, line); now == 0 {
				return 0
			}
		}
		at = now
		old = cur
	}
	if !edited || !wanted(at) {
		return 0
	}
	return at
}

// onlyAdded returns the one line of cur that reads as line, when the
// diff from old adds it (carries it from no line); 0 when none is, or
// more lines read so.
func onlyAdded(old, cur *sourceFile, line entryLine) int {
	lineOf, err := linesOf(old.src, cur.src)
	if err != nil {
		return 0
	}
	kept := carriedLines(old.n(), cur.n(), lineOf)
	only := 0
	for j := 1; j <= cur.n(); j++ {
		if lineIs(cur.line(j-1), line) {
			if only != 0 || kept[j] {
				return 0
			}
			only = j
		}
	}
	return only
}

// movedLike returns the line of cur, among those the diff from old adds
// (kept says which it carries), that line at of old was moved and edited
// into: much like it (likeness), with at least one of its neighbours
// that tell where they are (three above, three below) much like one of
// its at the same distance, and more of them, or as many and more like
// it, than any other line; 0 when none is, or two are alike.
func movedLike(old *sourceFile, at int, cur *sourceFile, kept []bool) int {
	was := old.line(at - 1)
	best, bestScore, bestLike, tie := 0, 0, 0.0, false
	for j := 1; j <= cur.n(); j++ {
		if kept[j] {
			continue
		}
		like := likeness(was, cur.line(j-1))
		if like < minLikeness {
			continue
		}
		score := 0
		for d := -neighbours; d <= neighbours; d++ {
			o, c := at-1+d, j-1+d
			if d != 0 && o >= 0 && o < old.n() && c >= 0 && c < cur.n() && telling(old.line(o)) && likeness(old.line(o), cur.line(c)) >= minLikeness {
				score++
			}
		}
		switch {
		case score == 0:
		case score > bestScore || score == bestScore && like > bestLike:
			best, bestScore, bestLike, tie = j, score, like, false
		case score == bestScore && like == bestLike:
			tie = true
		}
	}
	if tie {
		return 0
	}
	return best
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
	return commonShare(len(ta), len(tb), func(i, j int) bool { return string(ta[i]) == string(tb[j]) })
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
