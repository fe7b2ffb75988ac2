package triage

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recap-dev/recap/diff"
)

// A sourceFile is what the matcher knows of one file: its lines, and the
// location fingerprints of the lines asked about. A location is worked
// out when asked, not for every line: its occurrence compares the line
// with those above it, white space aside, each comparison stopping at the
// first character that differs, which is cheaper than hashing every line
// of a file for the few lines that have findings; a file asked about more
// than its lines' worth has every line hashed once (a cheap hash of each
// line, then of each window), its occurrences then looked up.
type sourceFile struct {
	src    []byte
	starts []int32        // where each line begins, and one past the end
	hashes []uint64       // each line's text hashed (white space aside), once the work passed the bound
	occ    []int32        // then each line's occurrence among the lines of its window
	wins   []uint64       // and each line's window hashed
	count  map[uint64]int // and how many lines have each window
	keys   []uint64       // each line's first 8 characters, white space aside: lines of other keys differ
	locs   map[int]string // line index → its location, as worked out
	work   int            // lines compared so far
	path   string         // the file's path, when the matcher holds it
	blob   diff.BlobHash  // git's hash of src, once asked (hashed)
	hashed bool
	used   uint64 // when the matcher last asked about it
	// prev and next are the files held asked about before and after it.
	prev, next *sourceFile
}

func newSourceFile(src []byte) *sourceFile { return (&sourceFile{}).fill(src) }

// blobHash is git's hash of the file's text, made once.
func (sf *sourceFile) blobHash() diff.BlobHash {
	if !sf.hashed {
		sf.blob, sf.hashed = diff.HashBlob(sf.src), true
	}
	return sf.blob
}

// fill makes sf the file of src, its line starts appended to sf.starts.
func (sf *sourceFile) fill(src []byte) *sourceFile {
	sf.src = src
	if len(src) > 0 {
		sf.starts = slices.Grow(sf.starts[:0], len(src)/32+2)
		at := 0
		for at < len(src) {
			sf.starts = append(sf.starts, int32(at))
			nl := bytes.IndexByte(src[at:], '\n')
			if nl < 0 {
				at = len(src) + 1 // the last line has no newline
				break
			}
			at += nl + 1
		}
		sf.starts = append(sf.starts, int32(at))
	}
	return sf
}

// n is the number of lines.
func (sf *sourceFile) n() int { return max(len(sf.starts)-1, 0) }

// line returns line i (0-based), without its newline.
func (sf *sourceFile) line(i int) []byte { return sf.src[sf.starts[i] : sf.starts[i+1]-1] }

// workBound is how many times its lines' worth of comparisons a file
// takes before every location is worked out at once.
const workBound = 8

// spend hashes every line of the file once the comparisons made pass
// the bound: from then on a line's occurrence is looked up.
func (sf *sourceFile) spend(int) {
	if sf.occ != nil || sf.work <= workBound*sf.n()+64 {
		return
	}
	h := sf.lineHashes()
	sf.occ, sf.wins, sf.count = make([]int32, len(h)), make([]uint64, len(h)), make(map[uint64]int, len(h))
	var win []int
	for i := range h {
		w := h[i]
		win = sf.window(i, win[:0])
		for _, j := range win[1:] {
			w = bits.RotateLeft64(w*0x9e3779b97f4a7c15, 29) ^ h[j] // in order: a, b differs from b, a
		}
		w ^= uint64(len(win))
		sf.wins[i] = w
		sf.count[w]++
		sf.occ[i] = int32(sf.count[w])
	}
}

// lineHashes hashes every line's text once (FNV-1a of its characters
// that normalize keeps).
func (sf *sourceFile) lineHashes() []uint64 {
	if sf.hashes == nil {
		sf.hashes = make([]uint64, sf.n())
		for i := range sf.hashes {
			sf.hashes[i] = normHash(sf.line(i))
		}
	}
	return sf.hashes
}

func normHash(l []byte) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(l); {
		c := l[i]
		if c < utf8.RuneSelf {
			if c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v' {
				h = (h ^ uint64(c)) * 1099511628211
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(l[i:])
		if !unicode.IsSpace(r) {
			for _, b := range l[i : i+n] {
				h = (h ^ uint64(b)) * 1099511628211
			}
		}
		i += n
	}
	return h
}

// same reports whether lines k and i read the same (white space aside).
func (sf *sourceFile) same(k, i int) bool {
	if sf.keys[k] != sf.keys[i] {
		return false
	}
	sf.work++
	return eqNorm(sf.line(k), sf.line(i))
}

// lineKeys packs the first 8 bytes that normalize keeps of each line up
// to line last (0-based), once: a location compares its line with those
// above it only.
func (sf *sourceFile) lineKeys(last int) {
	if len(sf.keys) > last {
		return
	}
	if cap(sf.keys) < sf.n() { // once, for every line (a recycled file's keys may be too few)
		sf.keys = append(make([]uint64, 0, sf.n()), sf.keys...)
	}
	for i := len(sf.keys); i <= last; i++ {
		sf.keys = append(sf.keys, prefixKey(sf.line(i)))
	}
}

func prefixKey(l []byte) uint64 {
	i := asciiIndent(l)
	if len(l)-i >= 16 {
		// Most lines: sixteen printable ASCII characters or spaces, the
		// first eight that are not spaces taken from them a word at a
		// time (each space found removed, the characters after it moved
		// up one), as prefixKeyFrom would take them.
		lo, hi := binary.BigEndian.Uint64(l[i:]), binary.BigEndian.Uint64(l[i+8:])
		const ones, highs, lows = 0x0101010101010101, 0x8080808080808080, 0x7f7f7f7f7f7f7f7f
		if (lo|hi)&highs == 0 && (lo-0x20*ones)&^lo&highs == 0 && (hi-0x20*ones)&^hi&highs == 0 {
			for range 9 {
				y := lo ^ 0x20*ones
				spaces := ^((y&lows + lows) | y | lows) // the high bit of each space's byte, exactly
				if spaces == 0 {
					return lo<<4 | 8
				}
				at := uint(bits.LeadingZeros64(spaces)) &^ 7 // the first space's bit from the top
				keep := ^uint64(0) << (64 - at)
				lo = lo&keep | (lo<<8)&^keep | hi>>56
				hi <<= 8
			}
		}
	}
	if len(l)-i >= 8 {
		// Eight ASCII characters, none white space nor a control, read
		// at once.
		x := binary.BigEndian.Uint64(l[i:])
		if x&0x8080808080808080 == 0 && (x-0x2121212121212121)&^x&0x8080808080808080 == 0 {
			return x<<4 | 8
		}
	}
	return prefixKeyFrom(l, i)
}

// prefixKeyFrom is prefixKey of l read a character at a time from i (its
// indentation left out).
func prefixKeyFrom(l []byte, i int) uint64 {
	var k uint64
	n := 0
	for i < len(l) && n < 8 {
		c := l[i]
		if c < utf8.RuneSelf {
			if !asciiSpace[c] {
				k, n = k<<8|uint64(c), n+1
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(l[i:])
		if !unicode.IsSpace(r) {
			for _, b := range l[i : i+size] {
				if n < 8 {
					k, n = k<<8|uint64(b), n+1
				}
			}
		}
		i += size
	}
	return k<<4 | uint64(n)
}

// location returns line i's location fingerprint (0-based), as
// Locations gives it.
func (sf *sourceFile) location(i int) string {
	if l, ok := sf.locs[i]; ok {
		return l
	}
	win := sf.window(i, nil)
	sf.lineKeys(win[len(win)-1]) // the lines above compared with the window's
	occ := 1
	if sf.occ != nil {
		occ = int(sf.occ[i])
	} else {
		for k := 0; k < i; k++ {
			if sf.same(k, i) && sf.sameWindow(k, win) {
				occ++
			}
		}
		sf.work += i / 8 // the keys compared
		sf.spend(0)
	}
	return sf.locationOf(i, win, occ)
}

// locationFirst is location(i) of a line whose text is on no other line
// of the file: its occurrence is the first, with no line compared.
func (sf *sourceFile) locationFirst(i int) string {
	if l, ok := sf.locs[i]; ok {
		return l
	}
	return sf.locationOf(i, sf.window(i, nil), 1)
}

// locationOf makes and keeps line i's location of window win and
// occurrence occ.
func (sf *sourceFile) locationOf(i int, win []int, occ int) string {
	sum := windowHash(sf, win)
	l := hex.EncodeToString(sum[:8]) + ":" + strconv.Itoa(occ)
	if sf.locs == nil {
		sf.locs = map[int]string{}
	}
	sf.locs[i] = l
	return l
}

// windowHash is the SHA-256 of the window's lines normalized, each
// followed by a newline, as Locations hashes them: the lines are
// normalized piece by piece, cut where a character begins, so that a line
// of megabytes costs no copy of its size.
func windowHash(sf *sourceFile, win []int) [sha256.Size]byte {
	var lines [Window][]byte
	for k, j := range win {
		lines[k] = sf.line(j)
	}
	return linesHash(lines[:len(win)])
}

// linesHash is windowHash of the window's lines given as they are.
func linesHash(win [][]byte) [sha256.Size]byte {
	const piece = 4096
	var scratch [piece + utf8.UTFMax]byte
	h := sha256.New()
	for _, l := range win {
		for len(l) > 0 {
			cut := min(len(l), piece)
			for back := cut; back > cut-utf8.UTFMax && back > 0; back-- {
				if back == len(l) || utf8.RuneStart(l[back]) {
					cut = back
					break
				}
			}
			h.Write(appendNorm(scratch[:0], l[:cut]))
			l = l[cut:]
		}
		h.Write([]byte{'\n'})
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// windowCount returns how many lines of the file have line i's window
// (its hash, whatever the occurrence).
func (sf *sourceFile) windowCount(i int) int {
	if sf.occ != nil {
		return sf.count[sf.wins[i]]
	}
	sf.lineKeys(sf.n() - 1)
	win := sf.window(i, nil)
	n := 0
	for k := range sf.n() {
		if sf.same(k, i) && sf.sameWindow(k, win) {
			n++
		}
	}
	sf.work += sf.n() / 8
	sf.spend(0)
	return n
}

// unique reports whether line i's text (white space aside) is on no other
// line of the file.
func (sf *sourceFile) unique(i int) bool {
	if sf.occ != nil {
		// past the bound: by the hashes of the lines
		h := sf.lineHashes()
		for k := range h {
			if k != i && h[k] == h[i] && eqNorm(sf.line(k), sf.line(i)) {
				return false
			}
		}
		return true
	}
	defer sf.spend(0)
	sf.work += sf.n() / 8
	sf.lineKeys(sf.n() - 1)
	for k := range sf.n() {
		if k != i && sf.same(k, i) {
			return false
		}
	}
	return true
}

// window appends to out the lines of line i's window: i and the next
// non-blank lines, Window in all.
func (sf *sourceFile) window(i int, out []int) []int {
	out = append(out, i)
	for j := i + 1; j < sf.n() && len(out) < Window; j++ {
		if !blank(sf.line(j)) {
			out = append(out, j)
		}
	}
	return out
}

// sameWindow reports whether line k's window reads as win (white space
// aside); its first lines are known equal.
func (sf *sourceFile) sameWindow(k int, win []int) bool {
	n := 1
	for j := k + 1; j < sf.n() && n < Window; j++ {
		if blank(sf.line(j)) {
			continue
		}
		if n >= len(win) || !sf.same(j, win[n]) {
			return false
		}
		n++
	}
	return n == len(win)
}

// An entryLine is an entry's Line as the matcher compares it: its bytes,
// and whether it was cut ("…" after 199 characters).
type entryLine struct {
	b   []byte
	cut bool
}

func newEntryLine(s string) entryLine {
	if c, ok := strings.CutSuffix(s, "…"); ok && utf8.RuneCountInString(s) >= 200 {
		return entryLine{[]byte(c), true}
	}
	return entryLine{b: []byte(s)}
}

// lineIs reports whether a source line reads as an entry's Line (white
// space aside; a Line cut with "…" as the line's beginning).
func lineIs(line []byte, entry entryLine) bool {
	if entry.cut {
		return hasNormPrefix(line, entry.b)
	}
	return eqNorm(line, entry.b)
}

// eqNorm reports whether a and b are equal once white space is removed,
// as normalize removes it, without copying them.
func eqNorm(a, b []byte) bool { return eqNormFrom(a, asciiIndent(a), b) }

// eqNormFrom is eqNorm of a, whose indentation ends at i, and b.
func eqNormFrom(a []byte, i int, b []byte) bool {
	// The common case first, eight bytes at a time: the same bytes after
	// the indentation, or a difference at a character that is no white
	// space.
	j := asciiIndent(b)
	for len(a)-i >= 8 && len(b)-j >= 8 {
		if x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[j:]); x != 0 {
			n := bits.TrailingZeros64(x) / 8
			i, j = i+n, j+n
			break
		}
		i, j = i+8, j+8
	}
	for i < len(a) && j < len(b) && a[i] == b[j] {
		i, j = i+1, j+1
	}
	if i == len(a) && j == len(b) {
		return true
	}
	if i < len(a) && j < len(b) && a[i] < utf8.RuneSelf && b[j] < utf8.RuneSelf && !asciiSpace[a[i]] && !asciiSpace[b[j]] {
		return false
	}
	return eqNormSlow(a, b)
}

// asciiIndent is the length of l's leading ASCII white space.
func asciiIndent(l []byte) int {
	i := 0
	for len(l)-i >= 8 && binary.LittleEndian.Uint64(l[i:]) == 0x2020202020202020 { // eight spaces at once
		i += 8
	}
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	return i
}

// eqNormSlow is eqNorm a character at a time: the bytes that normalize
// keeps, compared one by one (a character of several bytes is kept or
// left whole, and bytes that are no character are kept, as normalize
// does).
func eqNormSlow(a, b []byte) bool {
	i, j := 0, 0
	for {
		i, j = skipSpace(a, i), skipSpace(b, j)
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if a[i] != b[j] {
			return false
		}
		i, j = i+1, j+1
	}
}

// hasNormPrefix reports whether a begins with prefix, white space aside
// (compared as eqNormSlow compares).
func hasNormPrefix(a, prefix []byte) bool {
	i, j := 0, 0
	for {
		i, j = skipSpace(a, i), skipSpace(prefix, j)
		if j == len(prefix) {
			return true
		}
		if i == len(a) || a[i] != prefix[j] {
			return false
		}
		i, j = i+1, j+1
	}
}

// skipSpace returns the index of the first character of l at or after i
// that normalize keeps.
func skipSpace(l []byte, i int) int {
	for i < len(l) {
		c := l[i]
		if c < utf8.RuneSelf {
			if c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v' {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(l[i:])
		if !unicode.IsSpace(r) {
			return i
		}
		i += n
	}
	return i
}

func blank(l []byte) bool { return skipSpace(l, 0) == len(l) }

// appendNorm appends l without its white space.
func appendNorm(out, l []byte) []byte {
	for i := 0; i < len(l); {
		j := skipSpace(l, i)
		if j == len(l) {
			break
		}
		n := 1
		if l[j] >= utf8.RuneSelf {
			_, n = utf8.DecodeRune(l[j:])
		}
		out = append(out, l[j:j+n]...)
		i = j + n
	}
	return out
}
