package parsers

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"unicode/utf8"
)

// Bounds of the SARIF reader's token stream. jsontext's decoder holds a
// whole token in its buffer (it has no option to bound it), so the bounds
// are kept by jsonLimiter, a reader between the input and the decoder.
const (
	// maxJSONString bounds a JSON string (a value or a member name), in
	// bytes as written: a longer one reaches the decoder cut, with …, so
	// that one string anywhere (a result, a rule, a property bag, a member
	// recap skips) costs at most a few times this. The values recap keeps
	// are cut shorter still (maxSARIFText, maxSARIFName).
	maxJSONString = 1 << 20
	// maxJSONSpace bounds a run of white space between tokens, which the
	// decoder also holds whole; the rest is dropped (line ends are still
	// counted for error positions).
	maxJSONSpace = 1 << 20
	// maxJSONLiteral bounds a number or a literal (true, false, null): no
	// real number has 4 KiB of digits; a longer one is an error. The
	// limiter looks at a token only once the decoder holds jsonLookAt
	// bytes unread: a number under that passes unseen, harmlessly.
	maxJSONLiteral = 4 << 10
)

// jsonLimiter passes JSON text through with its long strings cut and its
// long runs of white space dropped, and fails on a long number. What it
// drops is noted, so that a decoder's offset can be turned back into the
// input's (original).
//
// It looks at the bytes only when it must: it hands what it reads to the
// decoder as it is, and at each read asks the decoder how much it holds
// unread (jsontext.Decoder.UnreadBuffer). Past jsonLookAt bytes, a token
// (or a run of white space) that long is being read: the limiter follows
// it from its start, in the decoder's buffer, then goes careful — byte by
// byte, cutting and dropping — up to the token's end.
type jsonLimiter struct {
	r    io.Reader
	dec  interface{ UnreadBuffer() []byte } // nil: careful throughout
	pend []byte                             // read, for careful mode
	out  []byte                             // careful mode's output
	off  int                                // of out already read
	err  error
	read int64 // bytes of the input passed on or dropped
	emit int64 // bytes given out before out

	careful bool
	dry     bool // following bytes already given out: nothing cut or dropped
	str     bool // in a string
	cutting bool // dropping the rest of a string
	slen    int  // bytes of the string so far
	esc     int  // 0; 1 after a backslash; 2-5 in \u's hex digits
	hex     rune
	high    bool // the last character was a high surrogate escape
	space   int  // white space run
	lit     int  // number or literal run

	calm int64 // output offset just past where careful mode last ended: between tokens

	cuts  int         // strings cut
	marks []jsonShift // where the output shifts against the input, in order
	base  int64       // the shift before marks[0]
}

// jsonLookAt is how much the decoder may hold unread before the limiter
// looks: the longest token of a real report is a few KiB.
const jsonLookAt = 64 << 10

// jsonShift: from output offset at on, the input is ahead by shift bytes.
type jsonShift struct{ at, shift int64 }

// jsonLimitError is a literal past maxJSONLiteral, at an input offset.
type jsonLimitError struct {
	off int64
	msg string
}

func (e *jsonLimitError) Error() string { return e.msg }

// ellipsis marks a cut string.
const ellipsis = "…"

func newJSONLimiter(r io.Reader) *jsonLimiter { return &jsonLimiter{r: r, careful: true} }

// watch makes the limiter look only when dec holds more than jsonLookAt
// bytes unread.
func (l *jsonLimiter) watch(dec interface{ UnreadBuffer() []byte }) {
	l.dec, l.careful = dec, false
}

func (l *jsonLimiter) Read(p []byte) (int, error) {
	for {
		if l.off < len(l.out) {
			n := copy(p, l.out[l.off:])
			l.off += n
			return n, nil
		}
		l.emit += int64(len(l.out))
		l.out, l.off = l.out[:0], 0
		if len(l.pend) > 0 {
			l.drain()
			continue
		}
		if l.err != nil {
			return 0, l.err
		}
		if !l.careful {
			if u := l.dec.UnreadBuffer(); len(u) > jsonLookAt {
				if l.follow(u); l.err != nil {
					return 0, l.err // a literal past its bound
				}
			}
		}
		n, err := l.r.Read(p)
		if err != nil {
			l.err = err
		}
		if l.careful {
			l.pend = append(l.pend[:0], p[:n]...)
			continue
		}
		l.read += int64(n)
		l.emit += int64(n)
		if n > 0 {
			return n, nil
		}
	}
}

// follow reads, without changing them, the bytes the decoder holds unread
// (they start where its last token ended), to be careful from their end.
//
// While the decoder reads one long value (an array of 300,000 artifacts
// that it holds whole), it holds more than jsonLookAt bytes at every read:
// the bytes up to where careful mode last ended are known to end between
// tokens, and are not followed again, so that the value costs its length
// once, not once a read.
func (l *jsonLimiter) follow(u []byte) {
	l.careful, l.dry = true, true
	l.str, l.cutting, l.slen, l.esc, l.high, l.space, l.lit = false, false, 0, 0, false, 0, 0
	read := l.read
	l.read -= int64(len(u)) // the offsets of u's bytes, for an error
	if start := l.emit - int64(len(u)); l.calm > start && l.calm <= l.emit {
		l.read += l.calm - start
		u = u[l.calm-start:]
	}
	for _, c := range u {
		l.read++
		l.carefulByte(c)
	}
	l.read, l.dry = read, false
}

// drain passes the pending bytes to out, carefully as long as need be.
func (l *jsonLimiter) drain() {
	b := l.pend
	for i := 0; i < len(b); {
		if l.err != nil && !errors.Is(l.err, io.EOF) {
			break
		}
		if !l.careful {
			l.out = append(l.out, b[i:]...)
			l.read += int64(len(b) - i)
			break
		}
		if l.cutting && l.esc == 0 { // drop up to the next quote or backslash at once
			j := indexQuoteOrBackslash(b[i:])
			if j < 0 {
				j = len(b) - i
			}
			if j > 0 {
				l.read += int64(j)
				l.shifted()
				i += j
				continue
			}
		}
		l.read++
		l.carefulByte(b[i])
		i++
	}
	l.pend = l.pend[:0]
}

// carefulByte passes (or drops) one byte in careful mode; past the long
// token, the limiter stops being careful (when it watches a decoder).
func (l *jsonLimiter) carefulByte(c byte) {
	if l.str {
		l.strByte(c)
		return
	}
	switch c {
	case '"':
		l.str, l.slen, l.esc, l.high, l.space, l.lit = true, 0, 0, false, 0, 0
	case ' ', '\t', '\r', '\n':
		l.lit = 0
		if l.space++; l.space > maxJSONSpace && !l.dry {
			l.shifted()
			return
		}
	case '{', '}', '[', ']', ':', ',':
		l.space, l.lit = 0, 0
		if l.dec != nil && !l.dry {
			l.careful = false
			l.calm = l.emit + int64(len(l.out)) + 1 // past c, appended below
		}
	default:
		l.space = 0
		if l.lit++; l.lit > maxJSONLiteral {
			if l.err == nil || errors.Is(l.err, io.EOF) {
				l.err = &jsonLimitError{off: l.read - int64(l.lit), msg: fmt.Sprintf("a number or literal longer than %d KiB", maxJSONLiteral>>10)}
			}
			return
		}
	}
	if !l.dry {
		l.out = append(l.out, c)
	}
}

// original turns an offset of the output into the input's (the same
// offset without a limiter).
func (l *jsonLimiter) original(off int64) int64 {
	if l == nil {
		return off
	}
	shift := l.base
	for i := len(l.marks) - 1; i >= 0; i-- {
		if l.marks[i].at <= off {
			shift = l.marks[i].shift
			break
		}
	}
	return off + shift
}

// shifted notes that the input is now ahead of the output by shift bytes.
func (l *jsonLimiter) shifted() {
	at, shift := l.emit+int64(len(l.out)), l.read-(l.emit+int64(len(l.out)))
	if n := len(l.marks); n > 0 && l.marks[n-1].at == at {
		l.marks[n-1].shift = shift
		return
	}
	if len(l.marks) == 1024 { // the decoder never looks that far back
		l.base = l.marks[511].shift
		l.marks = append(l.marks[:0], l.marks[512:]...)
	}
	l.marks = append(l.marks, jsonShift{at: at, shift: shift})
}

// indexQuoteOrBackslash is the index of the first '"' or '\\' in b, -1 if
// none: eight bytes at a time, as strings in a SARIF log are short and
// bytes.IndexByte's call costs more than its scan.
func indexQuoteOrBackslash(b []byte) int {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		q, s := x^(lsb*'"'), x^(lsb*'\\')
		// The lowest byte flagged is a match (a higher one may not be).
		if m := ((q - lsb) &^ q) | ((s-lsb)&^s)&msb; m&msb != 0 {
			return i + bits.TrailingZeros64(m&msb)/8
		}
	}
	for ; i < len(b); i++ {
		if b[i] == '"' || b[i] == '\\' {
			return i
		}
	}
	return -1
}

// strByte passes (or drops) a byte of a string.
func (l *jsonLimiter) strByte(c byte) {
	if !l.cutting && !l.dry && l.slen >= maxJSONString && c != '"' && l.esc == 0 &&
		(!l.high && utf8.RuneStart(c) || l.slen >= maxJSONString+16) {
		l.cutting = true
		l.cuts++
		l.out = append(l.out, ellipsis...)
	}
	end := false
	switch {
	case l.esc == 1:
		l.esc = 0
		if c == 'u' {
			l.esc, l.hex = 2, 0
		}
	case l.esc >= 2:
		l.hex = l.hex<<4 | rune(hexValue(c))
		if l.esc++; l.esc == 6 {
			l.esc = 0
			l.high = l.hex >= 0xD800 && l.hex <= 0xDBFF
		}
	case c == '\\':
		l.esc = 1
	case c == '"':
		end = true
	default:
		l.high = false
	}
	if end {
		l.str, l.cutting = false, false
		if l.dec != nil && !l.dry {
			l.careful = false                       // the long token ended
			l.calm = l.emit + int64(len(l.out)) + 1 // past the quote, appended below
		}
	} else if l.cutting {
		l.shifted()
		return
	}
	l.slen++
	if !l.dry {
		l.out = append(l.out, c)
	}
}

func hexValue(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return 0
}
