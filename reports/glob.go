package reports

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// Path globs and rule wildcards, compiled once into automata that match in
// time linear in the text: a glob of m characters is a bit vector of about
// m positions (a Shift-And automaton, one bit a position), and each
// character of the text moves every position at once, in ⌈m/64⌉ machine
// words. Nothing backtracks and nothing is translated to a regular
// expression, so no glob and no path, however long or crafted, costs more
// than len(text)·⌈m/64⌉ word steps (a 1,000-character glob against a
// 4,096-character path: about 65,000).
//
// Path globs have the syntax and meaning of github.com/bmatcuk/doublestar/v4
// (FuzzGlob checks the two agree), with three choices of recap's own:
// a character class never matches /; a glob without a / matches a file
// name in any directory ("*.java" is "**/*.java"); a glob ending in /
// names a directory and everything in it ("target/" is "target/**").

// Bounds of a glob.
const (
	// MaxGlobLength bounds a path glob and a rule wildcard, in characters:
	// a real one is a few dozen; the bound keeps a step of the automaton
	// within four machine words.
	MaxGlobLength = 256
	// MaxGlobAlternatives bounds the globs that a glob's braces stand for
	// ("{a,b}/{c,d}" stands for four).
	MaxGlobAlternatives = 64
	// maxGlobPositions bounds the positions of a glob's automaton, all its
	// alternatives together: 64 words a step at most.
	maxGlobPositions = 4096
)

// A Glob is a compiled path glob (see [Filter.Paths]): * and ? within a
// directory, ** across directories, [abc] and [!abc] one character of a
// class (never /), {a,b} either, \ quoting the next character. It is safe
// for concurrent use.
type Glob struct {
	text string
	a    *automaton
}

// A GlobError is a glob that cannot be read: Glob is the glob as given,
// Why what is wrong with it.
type GlobError struct {
	Glob string
	Why  string
}

func (e *GlobError) Error() string { return fmt.Sprintf("path glob %q: %s", e.Glob, e.Why) }

// CompileGlob reads a path glob.
func CompileGlob(glob string) (*Glob, error) {
	if n := utf8.RuneCountInString(glob); n > MaxGlobLength {
		return nil, &GlobError{shortGlob(glob), fmt.Sprintf("%d characters, more than %d", n, MaxGlobLength)}
	}
	if glob == "" {
		return nil, &GlobError{glob, "empty (write ** for every path)"}
	}
	if strings.ContainsFunc(glob, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return nil, &GlobError{glob, "holds a control character"}
	}
	text := glob
	if !strings.Contains(text, "/") {
		text = "**/" + text
	}
	if strings.HasSuffix(text, "/") && !strings.HasSuffix(text, `\/`) {
		text += "**"
	}
	alts, why := expandBraces(text)
	if why != "" {
		return nil, &GlobError{glob, why}
	}
	b := &builder{sep: true}
	for _, alt := range alts {
		if why := b.pathGlob(alt); why != "" {
			return nil, &GlobError{glob, why}
		}
		if len(b.pos) > maxGlobPositions {
			return nil, &GlobError{glob, fmt.Sprintf("its braces stand for more than %d characters", maxGlobPositions)}
		}
	}
	if !doublestar.ValidatePattern(text) {
		// doublestar's syntax is the reference; the readers above say
		// what is wrong in every case it refuses (FuzzGlob checks).
		return nil, &GlobError{glob, "not a glob"}
	}
	return &Glob{text: glob, a: b.build()}, nil
}

// shortGlob cuts a glob for a message.
func shortGlob(s string) string {
	if len(s) <= 100 {
		return s
	}
	_, n := utf8.DecodeLastRuneInString(s[:100])
	return s[:100-n] + "…"
}

// String returns the glob as given.
func (g *Glob) String() string { return g.text }

// Match reports whether the slash path p matches the glob.
func (g *Glob) Match(p string) bool { return g.a.match(p) }

// A Wildcard is a compiled rule wildcard (the parts of a Tool:Rule
// pattern): * is any run of characters, / included, ? one character,
// anything else itself, compared case-insensitively as
// [strings.EqualFold] compares. It is safe for concurrent use.
type Wildcard struct {
	text  string
	plain bool // no * or ?: compared with strings.EqualFold
	a     *automaton
}

// CompileWildcard reads a rule wildcard; one longer than MaxGlobLength
// characters is an error.
func CompileWildcard(s string) (*Wildcard, error) {
	if n := utf8.RuneCountInString(s); n > MaxGlobLength {
		return nil, &GlobError{shortGlob(s), fmt.Sprintf("%d characters, more than %d", n, MaxGlobLength)}
	}
	w := &Wildcard{text: s, plain: !strings.ContainsAny(s, "*?")}
	if w.plain {
		return w, nil
	}
	b := &builder{fold: true}
	b.begin()
	for _, r := range s {
		switch r {
		case '*':
			b.star()
		case '?':
			b.add(position{kind: posAny})
		default:
			b.add(position{kind: posLit, r: r})
		}
	}
	b.end()
	w.a = b.build()
	return w, nil
}

// String returns the wildcard as given.
func (w *Wildcard) String() string { return w.text }

// Match reports whether s matches the wildcard.
func (w *Wildcard) Match(s string) bool {
	if w.plain {
		return strings.EqualFold(w.text, s)
	}
	return w.a.match(s)
}

// expandBraces gives the globs a glob's braces stand for, in order ("" and
// no alternative when the glob is wrong: why says what).
func expandBraces(s string) ([]string, string) {
	open := -1
	depth := 0
	var commas []int
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			if depth == 0 {
				j := classEnd(s, i)
				if j < 0 {
					return nil, "an unclosed [ (write \\[ for the character)"
				}
				i = j
			}
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		case '}':
			if depth == 0 {
				return nil, "a } without its { (write \\} for the character)"
			}
			depth--
			if depth > 0 {
				continue
			}
			head, tail := s[:open], s[i+1:]
			var out []string
			start := open + 1
			for _, c := range append(commas, i) {
				more, why := expandBraces(head + s[start:c] + tail)
				if why != "" {
					return nil, why
				}
				out = append(out, more...)
				if len(out) > MaxGlobAlternatives {
					return nil, fmt.Sprintf("its braces stand for more than %d globs", MaxGlobAlternatives)
				}
				start = c + 1
			}
			return out, ""
		}
	}
	if depth > 0 {
		return nil, "an unclosed { (write \\{ for the character)"
	}
	return []string{s}, ""
}

// classEnd gives the index of the ] that closes the class opened at s[i],
// -1 when none does or the class is empty.
func classEnd(s string, i int) int {
	j := i + 1
	if j < len(s) && (s[j] == '!' || s[j] == '^') {
		j++
	}
	if j >= len(s) || s[j] == ']' {
		return -1
	}
	for ; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case ']':
			return j
		}
	}
	return -1
}

// The automaton. Bit 0 of an alternative is its start; bit i is "the
// glob's positions up to i have matched the text read". A step on a
// character c sets bit i when bit i-1 was set and position i takes c, or
// when bit i was set and position i repeats on c (a *, a **); then the
// positions that may match nothing are passed over: a * or a ** (its
// bit set when the one before it is: opt1), a whole **/ or a final /**
// (their last bit set when the bit two before is: opt2).

type posKind uint8

const (
	posStart posKind = iota // an alternative's start: takes nothing
	posLit                  // r
	posAny                  // ?: any character (but / in a path)
	posClass                // [...]
	posStar                 // *: repeats on any character (but / in a path); may match nothing
	posAll                  // the ** of a whole segment: repeats on any character; may match nothing
	posSlash                // / of a path (a posLit in effect)
)

type position struct {
	kind  posKind
	r     rune
	class *charClass
	skip2 bool // may be reached from two positions before (the / of **/)
	final bool
}

type charClass struct {
	neg    bool
	ranges []rune // pairs, lo and hi
}

func (c *charClass) has(r rune) bool {
	if r == '/' {
		return false // a class stays within a directory
	}
	in := false
	for i := 0; i < len(c.ranges); i += 2 {
		if c.ranges[i] <= r && r <= c.ranges[i+1] {
			in = true
			break
		}
	}
	return in != c.neg
}

type builder struct {
	sep, fold bool
	pos       []position
	first     int // the start of the alternative being built
}

func (b *builder) add(p position) { b.pos = append(b.pos, p) }

func (b *builder) last() *position { return &b.pos[len(b.pos)-1] }

func (b *builder) begin() {
	b.first = len(b.pos)
	b.add(position{kind: posStart})
}

func (b *builder) end() { b.last().final = true }

// star adds a *, one for a run of them.
func (b *builder) star() {
	if k := b.last().kind; k == posStar || k == posAll {
		return
	}
	b.add(position{kind: posStar})
}

// pathGlob adds one alternative of a path glob (braces expanded): "" or
// what is wrong with it.
func (b *builder) pathGlob(s string) string {
	b.begin()
	segStart := true
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '*' && i+1 < len(s) && s[i+1] == '*' && segStart && (i+2 == len(s) || s[i+2] == '/'):
			// ** as a whole segment.
			switch {
			case i+2 < len(s): // **/: any directories, or none
				i += 3
				if k := b.last(); k.kind == posSlash && k.skip2 {
					continue // **/**/ is **/
				}
				b.add(position{kind: posAll})
				b.add(position{kind: posSlash, skip2: true})
				continue
			case b.last().kind == posSlash && len(b.pos)-1 > b.first && !b.last().skip2:
				// a final /**: the directory itself, or anything in it.
				b.pos[len(b.pos)-2].final = true
				b.add(position{kind: posAll})
			default: // ** alone, or after **/
				b.add(position{kind: posAll})
			}
			i += 2
			segStart = false
			continue
		case c == '*':
			b.star()
		case c == '?':
			b.add(position{kind: posAny})
		case c == '[':
			j := classEnd(s, i)
			if j < 0 {
				return "an unclosed or empty [ ] (write \\[ for the character)"
			}
			cls, why := parseClass(s[i+1 : j])
			if why != "" {
				return why
			}
			b.add(position{kind: posClass, class: cls})
			i = j + 1
			segStart = false
			continue
		case c == '\\':
			if i+1 >= len(s) {
				return "ends in a lone \\ (write \\\\ for the character)"
			}
			r, n := utf8.DecodeRuneInString(s[i+1:])
			if r == '/' {
				b.add(position{kind: posSlash})
			} else {
				b.add(position{kind: posLit, r: r})
			}
			i += 1 + n
			segStart = r == '/'
			continue
		case c == '/':
			b.add(position{kind: posSlash})
			i++
			segStart = true
			continue
		}
		if c == '*' || c == '?' {
			i++
			segStart = false
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		b.add(position{kind: posLit, r: r})
		i += n
		segStart = false
	}
	b.end()
	return ""
}

// parseClass reads the inside of [ ]: ! or ^ first to negate, characters,
// ranges lo-hi, \ quoting.
func parseClass(s string) (*charClass, string) {
	c := &charClass{}
	if s != "" && (s[0] == '!' || s[0] == '^') {
		c.neg = true
		s = s[1:]
	}
	next := func() rune {
		if s[0] == '\\' && len(s) > 1 {
			s = s[1:]
		}
		r, n := utf8.DecodeRuneInString(s)
		s = s[n:]
		return r
	}
	for s != "" {
		lo := next()
		hi := lo
		if len(s) > 1 && s[0] == '-' {
			s = s[1:]
			hi = next()
			if hi < lo {
				return nil, fmt.Sprintf("a range %c-%c that is backwards", lo, hi)
			}
		}
		c.ranges = append(c.ranges, lo, hi)
	}
	return c, ""
}

type automaton struct {
	w                  int // words of a bit vector
	start, final, sink []uint64
	opt1, opt2         []uint64
	loopSep, loopOther []uint64 // positions that repeat on / and on other characters
	masks              []uint64 // w words each: the positions that take a character
	ascii              [utf8.RuneSelf]uint16
	other              int            // mask of any other character, before literals and classes
	lits               map[rune][]int // non-ASCII literals: their positions
	classes            []int          // positions of classes
	pos                []position     // for classes and literals of other characters
	fold               bool           // literals compare as strings.EqualFold
	sep                bool           // / is a separator: *, ? and classes stop at it
	scratch            int            // words of the stack buffer a match needs
	// prefix and suffix are what every text it matches begins and ends
	// with, and inner a run of characters it holds (a glob of one
	// alternative, exact case): a path without them is refused before the
	// automaton runs.
	prefix, suffix, inner string
	noOpt2                bool // no **/: close needs one pass
}

func (b *builder) build() *automaton {
	n := len(b.pos)
	w := (n + 63) / 64
	a := &automaton{w: w, fold: b.fold, sep: b.sep, pos: b.pos, lits: map[rune][]int{}}
	b.positions(a)
	ascii, other := b.charMasks(a)
	index := map[string]uint16{}
	key := make([]byte, 8*w)
	addMask := func(m []uint64) uint16 {
		for k, x := range m {
			binary.LittleEndian.PutUint64(key[8*k:], x)
		}
		if k, ok := index[string(key)]; ok {
			return k
		}
		k := uint16(len(a.masks) / w)
		index[string(key)] = k
		a.masks = append(a.masks, m...)
		return k
	}
	for c := range utf8.RuneSelf {
		a.ascii[c] = addMask(ascii[c*w : c*w+w])
	}
	a.other = int(addMask(other))
	a.scratch = 3 * w
	a.noOpt2 = true
	for _, x := range a.opt2 {
		a.noOpt2 = a.noOpt2 && x == 0
	}
	if !a.fold && b.first == 0 {
		a.prefix, a.suffix = b.literals()
		a.inner = b.inner()
	}
	return a
}

// setBit sets bit i of v.
func setBit(v []uint64, i int) { v[i/64] |= 1 << (i % 64) }

// positions sets a's vectors of positions by kind: the start, the final
// ones, those that match whatever follows, those that may match nothing
// (one or two steps), those that loop on / and on other characters; and
// its classes and non-ASCII literals.
func (b *builder) positions(a *automaton) {
	vec := func() []uint64 { return make([]uint64, a.w) }
	a.start, a.final, a.sink, a.opt1, a.opt2, a.loopSep, a.loopOther = vec(), vec(), vec(), vec(), vec(), vec(), vec()
	for i, p := range b.pos {
		switch p.kind {
		case posStart:
			setBit(a.start, i)
		case posStar:
			setBit(a.opt1, i)
			setBit(a.loopOther, i)
			if !b.sep {
				setBit(a.loopSep, i)
			}
		case posAll:
			setBit(a.opt1, i)
			setBit(a.loopOther, i)
			setBit(a.loopSep, i)
			if p.final {
				setBit(a.sink, i) // matches whatever follows
			}
		case posClass:
			a.classes = append(a.classes, i)
		case posLit:
			if p.r >= utf8.RuneSelf {
				a.lits[p.r] = append(a.lits[p.r], i)
			}
		}
		if p.skip2 {
			setBit(a.opt2, i)
		}
		if p.final {
			setBit(a.final, i)
		}
	}
}

// charMasks returns the mask of each ASCII character (w words each, one
// after the other: the positions it may step onto) and the mask of any
// other character.
func (b *builder) charMasks(a *automaton) (ascii, other []uint64) {
	w := a.w
	ascii, other = make([]uint64, utf8.RuneSelf*w), make([]uint64, w)
	setc := func(c rune, i int) { ascii[int(c)*w+i/64] |= 1 << (i % 64) }
	for i, p := range b.pos {
		switch p.kind {
		case posLit:
			if p.r < utf8.RuneSelf {
				setc(p.r, i)
			}
			if a.fold {
				for f := unicode.SimpleFold(p.r); f != p.r; f = unicode.SimpleFold(f) {
					if f < utf8.RuneSelf {
						setc(f, i)
					}
				}
			}
		case posSlash:
			setc('/', i)
		case posAny:
			setBit(other, i)
			for c := rune(0); c < utf8.RuneSelf; c++ {
				if c != '/' || !a.sep {
					setc(c, i)
				}
			}
		case posClass:
			for c := rune(0); c < utf8.RuneSelf; c++ {
				if p.class.has(c) {
					setc(c, i)
				}
			}
		}
	}
	return ascii, other
}

// literals gives the characters the only alternative begins and ends
// with, whatever the text: the literals after its start, and those before
// its end when only its end is final.
func (b *builder) literals() (prefix, suffix string) {
	var p []rune
	for _, x := range b.pos[1:] {
		if x.kind != posLit && x.kind != posSlash || x.final {
			break
		}
		if x.kind == posSlash {
			x.r = '/'
		}
		p = append(p, x.r)
	}
	finals := 0
	for _, x := range b.pos {
		if x.final {
			finals++
		}
	}
	var q []rune
	if finals == 1 {
		for i := len(b.pos) - 1; i > 0; i-- {
			x := b.pos[i]
			if x.kind != posLit && x.kind != posSlash || x.skip2 {
				break
			}
			if x.kind == posSlash {
				x.r = '/'
			}
			q = append([]rune{x.r}, q...)
		}
	}
	return string(p), string(q)
}

// inner gives the longest run of characters that every text the only
// alternative matches holds: positions that take one given character
// each, side by side, none of which a match may pass over (the / of a
// **/ or of a final /**, and the ** before it), all before any position
// where a match may end. "**/util/**" holds "util".
func (b *builder) inner() string {
	end := len(b.pos)
	for i, x := range b.pos {
		if x.final {
			end = i + 1
			break
		}
	}
	passed := make([]bool, len(b.pos)) // may be passed over
	for k, x := range b.pos {
		if x.skip2 {
			passed[k] = true
			if k > 0 {
				passed[k-1] = true
			}
		}
	}
	var best, cur []rune
	for i := 1; i <= end; i++ {
		if i < end {
			if x := b.pos[i]; (x.kind == posLit || x.kind == posSlash) && !passed[i] {
				r := x.r
				if x.kind == posSlash {
					r = '/'
				}
				cur = append(cur, r)
				continue
			}
		}
		if len(cur) > len(best) {
			best = append(best[:0], cur...)
		}
		cur = cur[:0]
	}
	return string(best)
}

// mask gives the positions that take r, in buf for a character outside
// ASCII.
func (a *automaton) mask(r rune, buf []uint64) []uint64 {
	w := a.w
	if r < utf8.RuneSelf {
		k := int(a.ascii[r]) * w
		return a.masks[k : k+w]
	}
	copy(buf, a.masks[a.other*w:a.other*w+w])
	lit := func(r rune) {
		for _, i := range a.lits[r] {
			buf[i/64] |= 1 << (i % 64)
		}
	}
	lit(r)
	if a.fold {
		// Another case of r may be a literal, ASCII (K, the Kelvin sign, is k) or not.
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < utf8.RuneSelf {
				k := int(a.ascii[f]) * w
				for i := range w {
					buf[i] |= a.masks[k+i]
				}
			} else {
				lit(f)
			}
		}
	}
	for _, i := range a.classes {
		if a.pos[i].class.has(r) {
			buf[i/64] |= 1 << (i % 64)
		}
	}
	return buf
}

// match runs the automaton over s.
func (a *automaton) match(s string) bool {
	w := a.w
	var stack [3 * 16]uint64
	var buf []uint64
	if a.scratch <= len(stack) {
		buf = stack[:a.scratch]
	} else {
		buf = make([]uint64, a.scratch)
	}
	if !strings.HasPrefix(s, a.prefix) || !strings.HasSuffix(s, a.suffix) || !strings.Contains(s, a.inner) {
		return false
	}
	d, next, tmp := buf[:w], buf[w:2*w], buf[2*w:3*w]
	copy(d, a.start)
	a.close(d)
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		i += n
		m := a.mask(r, tmp)
		loop := a.loopOther
		if r == '/' {
			loop = a.loopSep
		}
		var carry, alive uint64
		for k := range w {
			x := d[k]
			next[k] = (x<<1|carry)&m[k] | x&loop[k]
			carry = x >> 63
			alive |= next[k]
		}
		if alive == 0 {
			return false
		}
		a.close(next)
		d, next = next, d
		for k := range w {
			if d[k]&a.sink[k] != 0 {
				return true
			}
		}
	}
	for k := range w {
		if d[k]&a.final[k] != 0 {
			return true
		}
	}
	return false
}

// close sets the bits of the positions that may match nothing: a chain
// of them is at most three long (**/ then * then a final /**, or a * then
// a final /**), so three passes over the words reach every one.
func (a *automaton) close(d []uint64) {
	passes := 3
	if a.noOpt2 {
		passes = 1 // stars are never side by side: a chain is one long
	}
	for range passes {
		var c1, c2 uint64
		changed := false
		for k := range d {
			x := d[k]
			y := x | (x<<1|c1)&a.opt1[k] | (x<<2|c2)&a.opt2[k]
			c1, c2 = x>>63, x>>62
			if y != x {
				d[k], changed = y, true
			}
		}
		if !changed {
			return
		}
	}
}
