package triage

import (
	"cmp"
	"slices"

	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
)

// A digest is what the read-ahead keeps of a decided file instead of its
// text: how many lines it has and, for each entry that may match there
// (the file's own, and those whose file is gone), the lines that read as
// the entry's Line, with their location, whether their text is on no other
// line, and how many lines have their window. Deciding a finding of the
// file asks these, and reads the text only for the rarer ways (git's
// steps, a line's occurrences through history, a class renamed with its
// file, a message that differs by its numbers, an entry with a location
// and no Line). Holding digests, not texts, keeps a run with thousands of
// decided files from holding their text (which, on top of the time it
// takes to fault in the pages, the collector's pacing doubles).
type digest struct {
	n int // the file's lines
	// The entries it knows, in order (idxs), and the lines that read as
	// each one's Line: entry idxs[k]'s are infos[at[k]:at[k+1]], in order.
	idxs  []int32
	at    []int32
	infos []lineInfo
}

// digestAll has every file decided by its digest, made when it is first
// asked about (tests set it: the decisions must be those of the text).
var digestAll = false

// orphansWanted returns the entries whose file is gone as digests look
// for them, made once (m.mu held, or before the matcher is shared).
func (m *Matcher) orphansWanted() *wanted {
	if m.orphanWant == nil {
		var orphans []int
		for _, re := range m.byRule {
			orphans = append(orphans, re.orphans...)
		}
		slices.Sort(orphans)
		m.orphanWant = m.wantedOf(orphans)
	}
	return m.orphanWant
}

// lineInfo is what deciding asks of a line that reads as an entry's.
type lineInfo struct {
	i      int32 // 0-based
	unique bool
	wins   int32 // sf.windowCount
	loc    string
}

// of returns the lines that read as entry idx's Line, and whether the
// digest knows the entry at all.
func (d *digest) of(idx int) ([]lineInfo, bool) {
	k, ok := 0, false
	if len(d.idxs) <= 16 { // most files: a few entries
		for k < len(d.idxs) && d.idxs[k] < int32(idx) {
			k++
		}
		ok = k < len(d.idxs) && d.idxs[k] == int32(idx)
	} else {
		k, ok = slices.BinarySearch(d.idxs, int32(idx))
	}
	if !ok {
		return nil, false
	}
	return d.infos[d.at[k]:d.at[k+1]], true
}

// line returns what the digest knows of line i of entry idx, and whether
// the entry is in the digest at all (known) and line i reads as its Line
// (found).
func (d *digest) line(idx, i int) (li *lineInfo, known, found bool) {
	ls, known := d.of(idx)
	if !known {
		return nil, false, false
	}
	k, found := 0, false
	if len(ls) <= 8 { // most entries: one line
		for k < len(ls) && ls[k].i < int32(i) {
			k++
		}
		found = k < len(ls) && ls[k].i == int32(i)
	} else {
		k, found = slices.BinarySearchFunc(ls, int32(i), func(l lineInfo, i int32) int { return cmp.Compare(l.i, i) })
	}
	if !found {
		return nil, true, false
	}
	return &ls[k], true, true
}

// wanted are entries a digest looks for: by the hash of their Line, and
// those whose Line was cut (compared by its beginning).
type wanted struct {
	idxs   []int
	byHash map[uint64][]int
	cut    []int
}

func (m *Matcher) wantedOf(idxs []int) *wanted {
	w := &wanted{idxs: idxs, byHash: make(map[uint64][]int, len(idxs))}
	for _, idx := range idxs {
		switch l := m.lines[idx]; {
		case m.entries[idx].Line == "":
		case l.cut:
			w.cut = append(w.cut, idx)
		default:
			h := normHash(l.b)
			w.byHash[h] = append(w.byHash[h], idx)
		}
	}
	return w
}

// digestOf makes the digest of sf for the entries of its path (own) and
// those whose file is gone (orphans).
func (m *Matcher) digestOf(sf *sourceFile, own, orphans *wanted) *digest {
	d := &digest{n: sf.n(), idxs: make([]int32, 0, len(own.idxs)+len(orphans.idxs))}
	for _, w := range [2]*wanted{own, orphans} {
		for _, idx := range w.idxs {
			d.idxs = append(d.idxs, int32(idx))
		}
	}
	slices.Sort(d.idxs)
	d.idxs = slices.Compact(d.idxs)
	// The lines found, as (entry, line), in the order of the lines.
	var found [][2]int32
	h := sf.lineHashes()
	for i := range sf.n() {
		for _, w := range [2]*wanted{own, orphans} {
			for _, idx := range w.byHash[h[i]] {
				if lineIs(sf.line(i), m.lines[idx]) {
					found = append(found, [2]int32{int32(idx), int32(i)})
				}
			}
			for _, idx := range w.cut {
				if lineIs(sf.line(i), m.lines[idx]) {
					found = append(found, [2]int32{int32(idx), int32(i)})
				}
			}
		}
	}
	slices.SortFunc(found, func(a, b [2]int32) int {
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return cmp.Compare(a[1], b[1])
	})
	found = slices.Compact(found) // an entry both the file's and gone from its own
	d.at, d.infos = make([]int32, len(d.idxs)+1), make([]lineInfo, len(found))
	// What deciding asks of each line found. Every line that reads as an
	// entry's Line is found for it (as its beginning, when the Line was
	// cut short), and so is every line of the same text: a line found
	// alone has its text on no other line, its window is its own and its
	// occurrence the first, with no line compared. Lines found with
	// others are compared.
	k := 0
	for j, idx := range d.idxs {
		d.at[j] = int32(k)
		start := k
		for ; k < len(found) && found[k][0] == idx; k++ {
			d.infos[k].i = found[k][1]
		}
		lis := d.infos[start:k]
		alone := len(lis) == 1
		for n := range lis {
			li := &lis[n]
			i := int(li.i)
			if alone {
				li.unique, li.wins = true, 1
			} else {
				li.unique, li.wins = sf.unique(i), int32(sf.windowCount(i))
			}
			if m.entries[idx].Location != "" {
				if alone {
					li.loc = sf.locationFirst(i)
				} else {
					li.loc = sf.location(i)
				}
			}
		}
	}
	d.at[len(d.idxs)] = int32(k)
	return d
}

// howDigested is how (see there, which it follows step by step) by a
// file's digest; ok false when the digest cannot tell, and the text must.
// It changes nothing when it cannot tell.
func (m *Matcher) howDigested(idx int, f *reports.Finding, d *digest, orphan bool) (how How, ok bool) {
	e := &m.entries[idx]
	if f.Line < 1 || f.Line > d.n || e.Location == "" && e.Line == "" {
		if !orphan && e.Message != "" && m.sameMessage(e, f) {
			return ByMessage, true
		}
		return 0, true
	}
	if e.Line == "" {
		return 0, false // a location alone: any line's
	}
	i := f.Line - 1
	li, known, found := d.line(idx, i)
	if !known {
		return 0, false
	}
	if !found {
		if moved(e, f) && m.sameMessage(e, f) && renamedMessage(e.Line, e.Path, f.Path) != e.Line {
			return 0, false // a class renamed with its file: the line as renamed
		}
		return 0, true
	}
	sameMsg := m.sameMessage(e, f)
	history := m.hist != nil && e.Commit != ""
	if e.Location != "" {
		loc := li.loc
		if history && (e.Location == loc || sameHash(e.Location, loc)) && !li.unique ||
			history && e.Location == loc && li.wins > 1 {
			return 0, false // git tells which line is the decided one
		}
		switch {
		case e.Location == loc && sameMsg:
			return ByLocation, true
		case e.Location == loc && (sameButNumbers(e.Message, f.Message) || moved(e, f) && sameButNumbers(renamedMessage(e.Message, e.Path, f.Path), f.Message)):
			return 0, false // whether the numbers are the line's
		}
		h, _ := SplitLocation(e.Location)
		if lh, _ := SplitLocation(loc); lh == h && sameMsg && li.wins == 1 {
			return ByLocationMoved, true
		}
		if e.Location == loc && !sameMsg && m.near[idx] == nil && !f.ID.IsZero() {
			m.near[idx] = &Near{ID: f.ID, Path: f.Path, Line: f.Line, Message: text.CutRunes(foldSpace(f.Message), MaxMessage)}
		}
	}
	if sameMsg && e.Message != "" {
		if li.unique {
			return ByLineText, true
		}
		if history && e.Path != "" {
			return 0, false // git's steps, or its line now
		}
	}
	return 0, true
}
