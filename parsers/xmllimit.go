package parsers

import (
	"bytes"
	"fmt"
	"io"
	"unicode/utf8"
)

// xmlLimiter is the reader encoding/xml reads through (newXMLDecoder): it
// holds a document to the scanner's bounds, which encoding/xml does not
// have. It fails on elements nested deeper than maxXMLDepth and on a tag,
// comment, processing instruction or DOCTYPE longer than maxXMLTag; and it
// splits a text run every xmlSplit bytes with an empty comment, and a CDATA
// section by ending it and starting another, where encoding/xml would make
// one token of it however long. The split changes no text: the readers
// join the pieces (PMD's messages), and it falls where nothing spans it (a
// reference, a character, a \r\n, a ]]>).
type xmlLimiter struct {
	r     io.Reader
	in    []byte
	out   []byte
	off   int // of out already read
	st    xmlLimState
	n     int // bytes of the current construct, or of the text piece
	depth int
	line  int
	quote byte    // in a tag or DOCTYPE: the open quote
	end   bool    // in a tag: an end tag
	prev  [2]byte // the last two bytes, prev[1] the last
	amp   int     // in text: bytes since an & not yet ended, 0 when none
	nest  int     // in a DOCTYPE: open < and [
	err   error
}

type xmlLimState uint8

const (
	limText      xmlLimState = iota
	limOpen                  // after <
	limBang                  // after <!
	limBangDash              // after <!-
	limCDATAHead             // in <![CDATA[
	limCDATA
	limComment
	limPI
	limDirective
	limTag
)

// xmlSplit is the length of the pieces xmlLimiter splits text and CDATA
// into: encoding/xml holds a piece whole (twice, as it checks it).
const xmlSplit = 64 << 10

// xmlLimitError is a bound xmlLimiter met, at a line.
type xmlLimitError struct {
	line int
	msg  string
}

func (e *xmlLimitError) Error() string { return "XML syntax error: " + e.msg }

func newXMLLimiter(r io.Reader) *xmlLimiter {
	return &xmlLimiter{r: r, in: make([]byte, 32<<10), line: 1}
}

func (l *xmlLimiter) Read(p []byte) (int, error) {
	for l.off == len(l.out) {
		if l.err != nil {
			return 0, l.err
		}
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

func (l *xmlLimiter) fail(msg string) {
	if l.err == nil {
		l.err = &xmlLimitError{line: l.line, msg: msg}
	}
}

// process passes b to out, split and checked.
func (l *xmlLimiter) process(b []byte) {
	for i := 0; i < len(b); i++ {
		if l.err != nil {
			return
		}
		if l.st == limText {
			// Text up to the next < goes at once while no split is due.
			j := bytes.IndexByte(b[i:], '<')
			if j < 0 {
				j = len(b) - i
			}
			if run := b[i : i+j]; j > 0 && l.n+j < xmlSplit && l.amp == 0 && bytes.IndexByte(run, '&') < 0 {
				l.out = append(l.out, run...)
				l.line += bytes.Count(run, []byte{'\n'})
				l.n += j
				l.push(run[max(0, j-2):]...)
				i += j - 1
				continue
			}
		}
		l.byte(b[i])
	}
}

func (l *xmlLimiter) push(bs ...byte) {
	for _, c := range bs {
		l.prev[0], l.prev[1] = l.prev[1], c
	}
}

// byte passes one byte.
func (l *xmlLimiter) byte(c byte) {
	if c == '\n' {
		l.line++
	}
	switch l.st {
	case limText:
		l.text(c)
	case limOpen:
		l.open(c)
	case limBang, limBangDash, limCDATAHead:
		l.bang(c)
	case limCDATA:
		l.cdata(c)
	case limComment:
		if c == '>' && l.prev == [2]byte{'-', '-'} {
			l.st, l.n = limText, 0
			break
		}
		l.grow("comment")
	case limPI:
		if c == '>' && l.prev[1] == '?' {
			l.st, l.n = limText, 0
			break
		}
		l.grow("processing instruction")
	case limDirective:
		l.directive(c)
	case limTag:
		l.tag(c)
	}
	l.out = append(l.out, c)
	l.push(c)
}

// text reads a byte of text: a tag's start, or text split where it may be,
// keeping count of an entity reference under way.
func (l *xmlLimiter) text(c byte) {
	if c == '<' {
		l.st, l.n, l.amp = limOpen, 0, 0
		return
	}
	if l.n >= xmlSplit && l.textSplits(c) {
		l.out = append(l.out, "<!---->"...)
		l.n = 0
	}
	l.n++
	switch {
	case c == '&':
		l.amp = 1
	case l.amp > 0 && (c == ';' || isXMLSpace(c)):
		l.amp = 0
	case l.amp > 0:
		l.amp++
	}
}

// open reads the byte after '<': which construct starts.
func (l *xmlLimiter) open(c byte) {
	l.n = 1
	switch c {
	case '/':
		l.st, l.end, l.quote = limTag, true, 0
	case '?':
		l.st = limPI
	case '!':
		l.st = limBang
	default:
		l.st, l.end, l.quote = limTag, false, 0
	}
}

// bang reads the bytes after "<!": a comment, a CDATA section or a
// directive.
func (l *xmlLimiter) bang(c byte) {
	switch l.st {
	case limBang:
		switch c {
		case '-':
			l.st = limBangDash
		case '[':
			l.st, l.n = limCDATAHead, 1
		default:
			l.st, l.quote, l.nest = limDirective, 0, 0
		}
	case limBangDash:
		if c == '-' {
			l.st, l.n = limComment, 0
		} else {
			l.st, l.quote, l.nest = limDirective, 0, 0
		}
	case limCDATAHead:
		if l.n++; l.n == len("[CDATA[") {
			l.st, l.n = limCDATA, 0
		}
	}
}

// cdata reads a byte of a CDATA section, split where it may be.
func (l *xmlLimiter) cdata(c byte) {
	if c == '>' && l.prev == [2]byte{']', ']'} {
		l.st, l.n = limText, 0
		return
	}
	if l.n >= xmlSplit && l.cdataSplits(c) {
		l.out = append(l.out, "]]><![CDATA["...)
		l.n = 0
	}
	l.n++
}

// directive reads a byte of a DOCTYPE or other directive, to the '>' that
// closes it outside quotes and brackets.
func (l *xmlLimiter) directive(c byte) {
	switch {
	case l.quoted(c):
	case c == '<' || c == '[':
		l.nest++
	case c == ']':
		l.nest--
	case c == '>' && l.nest <= 0:
		l.st, l.n = limText, 0
	case c == '>':
		l.nest--
	}
	l.grow("DOCTYPE")
}

// tag reads a byte of a tag, to the '>' that closes it outside quotes,
// counting the depth of elements.
func (l *xmlLimiter) tag(c byte) {
	switch {
	case l.quoted(c):
	case c == '>':
		switch {
		case l.end:
			l.depth = max(l.depth-1, 0)
		case l.prev[1] != '/':
			if l.depth++; l.depth > maxXMLDepth {
				l.fail(errTooDeep.Error())
			}
		}
		l.st, l.n = limText, 0
	}
	l.grow("tag")
}

// quoted follows a construct's quoted values: it reports whether c is
// inside one, or the quote that opens or closes it.
func (l *xmlLimiter) quoted(c byte) bool {
	switch {
	case l.quote != 0:
		if c == l.quote {
			l.quote = 0
		}
		return true
	case c == '"' || c == '\'':
		l.quote = c
		return true
	}
	return false
}

// grow counts a byte of a construct read whole, failing past maxXMLTag.
func (l *xmlLimiter) grow(what string) {
	if l.n++; l.n > maxXMLTag {
		l.fail(fmt.Sprintf("a %s longer than %d MiB", what, maxXMLTag>>20))
	}
}

// textSplits reports whether text may be split before c. Past
// maxXMLReference more bytes it is split anyway: no real text goes that
// long without such a place.
func (l *xmlLimiter) textSplits(c byte) bool {
	if l.n >= xmlSplit+maxXMLReference {
		return true
	}
	return l.amp == 0 && utf8.RuneStart(c) &&
		!(l.prev[1] == '\r' && c == '\n') && !(l.prev == [2]byte{']', ']'} && c == '>')
}

// cdataSplits is textSplits in a CDATA section (which has no references,
// and ends at ]]>).
func (l *xmlLimiter) cdataSplits(c byte) bool {
	if l.n >= xmlSplit+maxXMLReference {
		return true
	}
	return utf8.RuneStart(c) && l.prev[1] != ']' && c != ']' && !(l.prev[1] == '\r' && c == '\n')
}
