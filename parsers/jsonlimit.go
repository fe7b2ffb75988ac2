package parsers

import (
	"fmt"
	"io"
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
	// are cut shorter still (maxSARIFText, maxSARIFURI, maxSARIFID).
	maxJSONString = 1 << 20
	// maxJSONSpace bounds a run of white space between tokens, which the
	// decoder also holds whole; the rest is dropped (line ends are still
	// counted for error positions).
	maxJSONSpace = 1 << 20
	// maxJSONLiteral bounds a number or a literal (true, false, null): no
	// real number has 4 KiB of digits; a longer one is an error.
	maxJSONLiteral = 4 << 10
)

// jsonLimiter passes JSON text through with its long strings cut and its
// long runs of white space dropped, and fails on a long number. What it
// drops is noted, so that a decoder's offset can be turned back into the
// input's (original).
type jsonLimiter struct {
	r    io.Reader
	in   []byte
	out  []byte
	off  int // of out already read
	err  error
	read int64 // bytes read from r
	emit int64 // bytes given out (out included)

	str     bool // in a string
	cutting bool // dropping the rest of a string
	slen    int  // bytes of the string so far
	esc     int  // 0; 1 after a backslash; 2-5 in \u's hex digits
	hex     rune
	high    bool // the last character was a high surrogate escape
	space   int  // white space run
	lit     int  // number or literal run

	cuts  int         // strings cut
	marks []jsonShift // where the output shifts against the input, in order
	base  int64       // the shift before marks[0]
}

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

func newJSONLimiter(r io.Reader) *jsonLimiter {
	return &jsonLimiter{r: r, in: make([]byte, 64<<10)}
}

func (l *jsonLimiter) Read(p []byte) (int, error) {
	for l.off == len(l.out) {
		if l.err != nil {
			return 0, l.err
		}
		l.emit += int64(len(l.out))
		l.out, l.off = l.out[:0], 0
		n, err := l.r.Read(l.in)
		if n > 0 {
			l.process(l.in[:n])
		}
		if err != nil && l.err == nil {
			l.err = err
		}
	}
	n := copy(p, l.out[l.off:])
	l.off += n
	return n, nil
}

// original turns an offset of the output into the input's.
func (l *jsonLimiter) original(off int64) int64 {
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

func (l *jsonLimiter) process(b []byte) {
	start := l.read
	for i, c := range b {
		l.read = start + int64(i) + 1
		if l.str {
			l.strByte(c)
			continue
		}
		switch c {
		case '"':
			l.str, l.slen, l.esc, l.high, l.space, l.lit = true, 0, 0, false, 0, 0
		case ' ', '\t', '\r', '\n':
			l.lit = 0
			if l.space++; l.space > maxJSONSpace {
				l.shifted()
				continue
			}
		case '{', '}', '[', ']', ':', ',':
			l.space, l.lit = 0, 0
		default:
			l.space = 0
			if l.lit++; l.lit > maxJSONLiteral {
				if l.err == nil {
					l.err = &jsonLimitError{off: l.read - int64(l.lit), msg: fmt.Sprintf("a number or literal longer than %d KiB", maxJSONLiteral>>10)}
				}
				return
			}
		}
		l.out = append(l.out, c)
	}
	l.read = start + int64(len(b))
}

// strByte passes (or drops) a byte of a string.
func (l *jsonLimiter) strByte(c byte) {
	if !l.cutting && l.slen >= maxJSONString && c != '"' && l.esc == 0 &&
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
	} else if l.cutting {
		l.shifted()
		return
	}
	l.slen++
	l.out = append(l.out, c)
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
