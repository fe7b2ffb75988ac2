package triage

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math/bits"
	"slices"
	"unicode/utf8"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
)

// A digest is what the matcher keeps of a decided file instead of its
// text, made when the file is read ahead or first asked about: how many
// lines it has and, for each entry that may match there (the file's own,
// and those whose file is gone), the lines that read as the entry's Line,
// with their location, whether their text is on no other line, and how
// many lines have their window. Deciding a finding of the file asks
// these, and reads the text only for the rarer ways (git's steps, a
// line's occurrences through history, a class renamed with its file, a
// message that differs by its numbers, an entry with a location and no
// Line). Holding digests, not texts, keeps a run with thousands of
// decided files from holding their text (which, on top of the time it
// takes to fault in the pages, the collector's pacing doubles), and the
// reports read at once, each asking about the files at its own pace,
// from reading a file again for each.
type digest struct {
	n int // the file's lines
	// The entries it knows, in order (idxs), and the lines that read as
	// each one's Line: entry idxs[k]'s are infos[at[k]:at[k+1]], in order.
	idxs  []int32
	at    []int32
	infos []lineInfo
	// own are the entries of the path it was made for, every one of them
	// known (nil: made for others); byLine, made when first asked
	// (foundAt), are the lines found, as (line, entry), in order.
	own    *fileEntries
	byLine [][2]int32
	// blob is git's hash of the text, when the matcher follows lines
	// through git (hashed): a file that holds its entries' commit's
	// bytes has not changed since (Matcher.editedSince).
	blob   diff.BlobHash
	hashed bool
}

// stamp gives d the git hash of src, the text it was made of, when the
// matcher follows lines through git.
func (m *Matcher) stamp(d *digest, src []byte) *digest {
	if d != nil && m.hist != nil {
		d.blob, d.hashed = diff.HashBlob(src), true
	}
	return d
}

// foundAt returns, of cands (entries of d's own, in order), those that
// line i reads as the Line of, in order, in buf's memory. Of an entry of
// a plain file (fileEntries.plain) whose Line line i does not read as,
// the digest says no match at once (howDigested): a finding of a file
// with many entries of its rule is compared with those alone.
func (d *digest) foundAt(i int, cands []int, buf []int) []int {
	if d.byLine == nil {
		d.byLine = make([][2]int32, 0, len(d.infos))
		for k, idx := range d.idxs {
			for _, li := range d.infos[d.at[k]:d.at[k+1]] {
				d.byLine = append(d.byLine, [2]int32{li.i, idx})
			}
		}
		slices.SortFunc(d.byLine, func(a, b [2]int32) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	}
	k, _ := slices.BinarySearchFunc(d.byLine, int32(i), func(p [2]int32, i int32) int { return cmp.Compare(p[0], i) })
	out := buf[:0]
	for ; k < len(d.byLine) && d.byLine[k][0] == int32(i); k++ {
		if _, ok := slices.BinarySearch(cands, int(d.byLine[k][1])); ok {
			out = append(out, int(d.byLine[k][1]))
		}
	}
	return out
}

// digestRead has every file asked about for its entries decided by its
// digest, made when it is first asked about; tests turn it off, to have
// the files read ahead alone decided so, and the others by their text
// (the decisions must be the same).
var digestRead = true

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

// wanted are entries a digest looks for: by the key of their Line (its
// first eight characters, white space aside, as sourceFile.lineKeys makes
// them: a line that reads as the Line has its key), and those whose Line
// was cut (compared by its beginning).
type wanted struct {
	idxs []int
	// The entries of whole Lines, each with its Line's key: a few in a
	// list (most files), many by key.
	keys  []uint64
	byKey map[uint64][]int
	whole []int
	cut   []int
}

// manyWanted is how many entries of whole Lines a digest looks for in a
// list (compared with each line's key in turn) before it looks them up.
const manyWanted = 8

func (m *Matcher) wantedOf(idxs []int) *wanted {
	w := &wanted{idxs: idxs}
	for _, idx := range idxs {
		switch l := m.lines[idx]; {
		case m.entries[idx].Line == "":
		case l.cut:
			w.cut = append(w.cut, idx)
		default:
			w.keys = append(w.keys, prefixKey(l.b))
			w.whole = append(w.whole, idx)
		}
	}
	if len(w.whole) > manyWanted {
		w.byKey = make(map[uint64][]int, len(w.whole))
		for k, idx := range w.whole {
			w.byKey[w.keys[k]] = append(w.byKey[w.keys[k]], idx)
		}
	}
	return w
}

// find appends to found each entry of w whose Line line i of sf reads as,
// with the line, (entry, line).
func (w *wanted) find(sf *sourceFile, i int, lines []entryLine, found [][2]int32) [][2]int32 {
	key := sf.keys[i]
	if w.byKey != nil {
		for _, idx := range w.byKey[key] {
			if lineIs(sf.line(i), lines[idx]) {
				found = append(found, [2]int32{int32(idx), int32(i)})
			}
		}
	} else {
		for k, wk := range w.keys {
			if wk == key && lineIs(sf.line(i), lines[w.whole[k]]) {
				found = append(found, [2]int32{int32(w.whole[k]), int32(i)})
			}
		}
	}
	for _, idx := range w.cut {
		if lineIs(sf.line(i), lines[idx]) {
			found = append(found, [2]int32{int32(idx), int32(i)})
		}
	}
	return found
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
	if sf.n() > 0 {
		sf.lineKeys(sf.n() - 1)
	}
	for i := range sf.n() {
		found = orphans.find(sf, i, m.lines, own.find(sf, i, m.lines, found))
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

// digestText makes the digest of a file's text src for the entries of
// its path (own) and those whose file is gone (orphans): in one pass over
// its lines when it can (quickDigest), else by the lines of sf, filled
// with src (its line starts and keys reused).
func (m *Matcher) digestText(src []byte, sf *sourceFile, own, orphans *wanted) *digest {
	if d := m.quickDigest(src, own, orphans); d != nil {
		return m.stamp(d, src)
	}
	*sf = sourceFile{starts: sf.starts[:0], keys: sf.keys[:0]}
	return m.stamp(m.digestOf(sf.fill(src), own, orphans), src)
}

// quickDigest makes the digest of src in one pass over its lines, each
// compared with the Lines of the few entries looked for; nil when it
// cannot: many entries looked for, or a Line that reads as two lines or
// more (their occurrences and windows compared need the lines' keys). A
// line found alone for its entry has its text on no other line (any line
// of the same text reads as the entry's Line too), so its window is its
// own and its occurrence the first, as digestOf finds them.
func (m *Matcher) quickDigest(src []byte, own, orphans *wanted) *digest {
	if own.byKey != nil || orphans.byKey != nil {
		return nil
	}
	// What tells most lines apart from an entry's whole Line at once: its
	// first eight bytes (word, when long), else its first byte when that
	// is a character that is no white space (first).
	type probe struct {
		word  uint64
		long  bool
		first byte
		idx   int32
	}
	var buf [2 * manyWanted]probe
	probes := buf[:0]
	var cuts []int
	for _, w := range [2]*wanted{own, orphans} {
		for _, idx := range w.whole {
			b := m.lines[idx].b
			p := probe{idx: int32(idx)}
			if len(b) >= 8 {
				p.word, p.long = binary.LittleEndian.Uint64(b), true
			}
			if len(b) > 0 && b[0] < utf8.RuneSelf && !asciiSpace[b[0]] {
				p.first = b[0]
			}
			probes = append(probes, p)
		}
		cuts = append(cuts, w.cut...)
	}
	var hits [8]hit
	found := hits[:0]
	n := 0
	if found, n, ok := m.scanRare(src, own, orphans, found); ok {
		if found == nil {
			return nil // a Line on two lines
		}
		return m.quickFound(src, n, found, own, orphans)
	}
	for at := 0; at < len(src); n++ {
		end := bytes.IndexByte(src[at:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += at
		}
		line := src[at:end]
		in := asciiIndent(line)
		var lw uint64 // the line's first eight bytes after its indentation
		long := len(line)-in >= 8
		if long {
			lw = binary.LittleEndian.Uint64(line[in:])
		}
		var c byte // the line's first character, when it tells lines apart
		if in < len(line) && line[in] < utf8.RuneSelf && !asciiSpace[line[in]] {
			c = line[in]
		}
		for k := range probes {
			p := &probes[k]
			if long && p.long {
				// As eqNorm begins: the first byte that differs, both
				// characters that are no white space, tells them apart
				// (the bytes before it are the same).
				if d := lw ^ p.word; d != 0 {
					at := uint(bits.TrailingZeros64(d)) &^ 7
					a, b := byte(lw>>at), byte(p.word>>at)
					if a < utf8.RuneSelf && b < utf8.RuneSelf && !asciiSpace[a] && !asciiSpace[b] {
						continue
					}
				}
			} else if p.first != 0 && c != 0 && p.first != c {
				continue
			}
			if eqNormFrom(line, in, m.lines[p.idx].b) {
				found = append(found, hit{p.idx, int32(n), int32(at)})
			}
		}
		for _, idx := range cuts {
			if lineIs(line, m.lines[idx]) {
				found = append(found, hit{int32(idx), int32(n), int32(at)})
			}
		}
		at = end + 1
	}
	return m.quickFound(src, n, found, own, orphans)
}

// quickFound is quickDigest's digest of src, of n lines, in which the
// lines found are found: nil when an entry's Line is on two lines.
func (m *Matcher) quickFound(src []byte, n int, found []hit, own, orphans *wanted) *digest {
	slices.SortFunc(found, func(a, b hit) int { return cmp.Or(cmp.Compare(a.idx, b.idx), cmp.Compare(a.i, b.i)) })
	found = slices.CompactFunc(found, func(a, b hit) bool { return a.idx == b.idx && a.i == b.i })
	for k := 1; k < len(found); k++ {
		if found[k].idx == found[k-1].idx {
			return nil // a Line on two lines: compared by digestOf
		}
	}
	d := &digest{n: n, idxs: make([]int32, 0, len(own.idxs)+len(orphans.idxs))}
	for _, w := range [2]*wanted{own, orphans} {
		for _, idx := range w.idxs {
			d.idxs = append(d.idxs, int32(idx))
		}
	}
	slices.Sort(d.idxs)
	d.idxs = slices.Compact(d.idxs)
	d.at, d.infos = make([]int32, len(d.idxs)+1), make([]lineInfo, len(found))
	k := 0
	for j, idx := range d.idxs {
		d.at[j] = int32(k)
		if k < len(found) && found[k].idx == idx {
			li := &d.infos[k]
			li.i, li.unique, li.wins = found[k].i, true, 1
			if m.entries[idx].Location != "" {
				li.loc = windowAt(src, int(found[k].at), int(found[k].i))
			}
			k++
		}
	}
	d.at[len(d.idxs)] = int32(k)
	return d
}

// scanRare finds, for quickDigest, the lines of src that read as the
// Lines of the entries wanted (own, orphans), appended to found, and
// counts src's lines (n): for each entry, the lines that hold the byte of
// its Line least often in code (rareOf; any line that reads as it holds
// it, as white space alone is left out) are compared, found by
// bytes.IndexByte, and the lines counted by bytes.Count, both many bytes
// at a time. ok false, nothing done, when a Line has no such byte (ASCII
// and no white space); found nil when one entry's is on two lines
// (digestOf compares them).
func (m *Matcher) scanRare(src []byte, own, orphans *wanted, found []hit) (_ []hit, n int, ok bool) {
	var buf [2 * manyWanted]int
	idxs := buf[:0]
	for _, w := range [2]*wanted{own, orphans} {
		for _, list := range [2][]int{w.whole, w.cut} {
			for _, idx := range list {
				if !slices.Contains(idxs, idx) {
					idxs = append(idxs, idx)
				}
			}
		}
	}
	var rare [2 * manyWanted]byte
	for k, idx := range idxs {
		c, ok := rareOf(m.lines[idx].b)
		if !ok {
			return found, 0, false
		}
		rare[k] = c
	}
	if len(src) > 0 {
		n = bytes.Count(src, newline)
		if src[len(src)-1] != '\n' {
			n++
		}
	}
	// Lines compared one by one cost more than the pass over the lines
	// (quickDigest's): when the bytes are on many of them (lines alike but
	// for their numbers), that pass.
	seen := 0
	for k := range idxs {
		if seen += bytes.Count(src, rare[k:k+1]); seen > n/denseRare {
			return found, 0, false
		}
	}
	for k, idx := range idxs {
		l, c := m.lines[idx], rare[k]
		i, counted, hits := 0, 0, 0 // line i begins at counted
		for p := 0; p < len(src); {
			k := bytes.IndexByte(src[p:], c)
			if k < 0 {
				break
			}
			k += p
			start := bytes.LastIndexByte(src[:k], '\n') + 1
			end := bytes.IndexByte(src[k:], '\n')
			if end < 0 {
				end = len(src)
			} else {
				end += k
			}
			i += bytes.Count(src[counted:start], newline)
			counted = start
			if lineIs(src[start:end], l) {
				if hits++; hits > 1 {
					return nil, 0, true // a Line on two lines
				}
				found = append(found, hit{int32(idx), int32(i), int32(start)})
			}
			p = end + 1
		}
	}
	return found, n, true
}

var newline = []byte{'\n'}

// denseRare: scanRare compares the lines that hold entries' bytes one by
// one when they are at most one line in denseRare.
const denseRare = 8

// rareOf returns the byte of an entry's Line l that code holds least
// often (byteRank), of those that are ASCII and no white space: every
// line that reads as l holds it. ok false when l has none.
func rareOf(l []byte) (c byte, ok bool) {
	best := -1
	for _, b := range l {
		if b < utf8.RuneSelf && !asciiSpace[b] && int(byteRank[b]) > best {
			c, best = b, int(byteRank[b])
		}
	}
	return c, best >= 0
}

// byteRank ranks the ASCII bytes by how seldom source code holds them:
// the most common first (rank 0), those not listed rarest of all.
var byteRank = func() (r [utf8.RuneSelf]uint8) {
	const common = " etaoirnslcdupmhgfyb.();,=\"kvwx{}_ETASRCILNOPDMFBGHUVWYK0123456789jqz/*-+<>:[]'!&|?#@$%^~`\\JQXZ"
	for i := range r {
		r[i] = uint8(len(common))
	}
	for i := range len(common) {
		r[common[i]] = uint8(i)
	}
	return r
}()

// A hit is a line (i, beginning at at) that reads as entry idx's Line.
type hit struct{ idx, i, at int32 }

// windowAt is the location of line i (0-based), which begins at at in
// src, as the first of its text: its window's hash, occurrence 1.
func windowAt(src []byte, at, i int) string {
	var lines [Window][]byte
	n := 0
	for at <= len(src) && n < Window {
		end := bytes.IndexByte(src[at:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += at
		}
		if l := src[at:end]; n == 0 || !blank(l) {
			lines[n] = l
			n++
		}
		if end == len(src) {
			break
		}
		at = end + 1
	}
	// The window's text as linesHash hashes it, in one buffer on the
	// stack when it fits (most windows: three lines of code).
	var buf [512]byte
	text := buf[:0]
	for _, l := range lines[:n] {
		if len(text)+len(l)+1 > len(buf) {
			sum := linesHash(lines[:n])
			return hex.EncodeToString(sum[:8]) + ":1"
		}
		text = append(appendNorm(text, l), '\n')
	}
	sum := sha256.Sum256(text)
	var out [2*8 + 2]byte
	hex.Encode(out[:16], sum[:8])
	out[16], out[17] = ':', '1'
	return string(out[:])
}

// howDigested is how (see there, which it follows step by step) by a
// file's digest; ok false when the digest cannot tell, and the text must.
// It changes nothing when it cannot tell.
func (m *Matcher) howDigested(idx int, f *reports.Finding, d *digest, orphan bool) (how How, ok bool) {
	e := &m.entries[idx]
	if f.Line < 1 || f.Line > d.n || e.Location == "" && e.Line == "" {
		return m.byMessage(e, f, true, orphan), true
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
		if history && e.Location == loc && (!d.hashed || m.editedSince(idx, d.blob)) {
			return 0, false // the file changed since: git tells whether this is the decided line or a copy
		}
		switch {
		case e.Location == loc && sameMsg:
			return ByLocation, true
		case e.Location == loc && (sameButNumbers(e.Message, f.Message) || moved(e, f) && sameButNumbers(renamedMessage(e.Message, e.Path, f.Path), f.Message)):
			return 0, false // whether the numbers are the line's
		}
		h, _ := SplitLocation(e.Location)
		if lh, _ := SplitLocation(loc); lh == h && sameMsg && li.wins == 1 {
			if history && !orphan && e.Path != "" && (!d.hashed || m.editedSince(idx, d.blob)) {
				return 0, false // git, step by step, tells whether the decided line is still there
			}
			return ByLocationMoved, true
		}
		if e.Location == loc && !sameMsg {
			m.noteChanged(idx, f)
		}
	}
	if !sameMsg && e.Message != "" && (li.unique || history && e.Path != "") && (sameButNumbers(e.Message, f.Message) || moved(e, f)) {
		return 0, false // whether the numbers are the line's
	}
	if sameMsg && e.Message != "" {
		if li.unique {
			if history && !orphan && e.Path != "" && (!d.hashed || m.editedSince(idx, d.blob)) {
				return 0, false // git, step by step, tells whether the decided line is still there
			}
			return ByLineText, true
		}
		if history && e.Path != "" {
			return 0, false // git's steps, or its line now
		}
	}
	if !sameMsg && li.unique && e.Message != "" {
		if history && e.Path != "" {
			return 0, false // whether git says this line is the decided one
		}
		m.noteChanged(idx, f)
	}
	return 0, true
}

// noteChanged notes f, of entry idx's rule at its place (its location, or
// the one line of its file that reads as the entry's line when its
// neighbours changed too) with another message: the finding the entry is
// said changed for if it matches nothing (a method renamed), the first
// one noted.
func (m *Matcher) noteChanged(idx int, f *reports.Finding) {
	if m.near[idx] == nil && !f.ID.IsZero() {
		m.near[idx] = &Near{ID: f.ID, Path: f.Path, Line: f.Line, Message: text.CutRunes(foldSpace(f.Message), MaxMessage), Fingerprint: f.Fingerprint}
	}
}
