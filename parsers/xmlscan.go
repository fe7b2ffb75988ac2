package parsers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/reports"
)

// xmlScanner is a small XML tokenizer for flat reports (Checkstyle's,
// PMD's): it hands out start tags with their raw attributes and
// checks what encoding/xml checks on such documents (tags closed in order,
// quoted attribute values, character entities, UTF-8), several times faster
// because it allocates nothing for what is not asked for. Text is skipped
// unless keepText is set, when it is decoded into text (CDATA as written);
// comments, processing instructions and a DOCTYPE are skipped. A document
// declaring another encoding than UTF-8 is refused with errOtherEncoding, for
// the caller to read it with encoding/xml instead.
type xmlScanner struct {
	r      *bufio.Reader
	line   int // of the reader's position, 1-based
	stack  [][]byte
	tag    []byte // the current tag, between < and >
	name   []byte
	ended  []byte // the name of the element an end event closed
	attrs  []xmlRawAttr
	buf    []byte
	start  bool              // the document has begun (after the declaration)
	shared map[string]string // attrShared's values, by their raw bytes
	// keepText makes next append the text it passes to text, decoded, up
	// to maxXMLValue bytes; textCut tells that more was left out.
	keepText bool
	text     []byte
	textCut  bool
	carry    []byte // the unfinished end of a text chunk (a reference, a character, a \r)
	// cuts counts the kept values (texts, attribute values) cut to maxXMLValue.
	cuts int
}

// xmlRawAttr is an attribute as written: its value still escaped.
type xmlRawAttr struct {
	name, value []byte
}

var errOtherEncoding = errors.New("the document declares an encoding other than UTF-8")

// Bounds of the XML readers (the scanner, and encoding/xml through
// xmlLimiter), so that a hostile or broken report costs bounded memory.
const (
	// maxXMLDepth bounds element nesting. Checkstyle and PMD reports nest 3
	// deep, SpotBugs' 4; encoding/xml has no bound, and keeps every open
	// element's name.
	maxXMLDepth = 256
	// maxXMLTag bounds a tag (name and attributes), a comment, a processing
	// instruction or a DOCTYPE, in bytes: each is read whole, and the
	// largest real one is a few KiB.
	maxXMLTag = 4 << 20
	// maxXMLValue bounds a value recap keeps (a message, an attribute
	// value), in bytes once decoded: a longer one is cut, with …, and the
	// input says how many were. A message shows 1,000 characters anyway.
	maxXMLValue = 64 << 10
	// maxXMLReference bounds a character or entity reference (&…;): the
	// longest real one, &#x10FFFF;, has 10 bytes.
	maxXMLReference = 4 << 10
	// maxXMLShared bounds the distinct attribute values attrShared keeps
	// one copy of (rule ids, severities, line numbers).
	maxXMLShared = 4096
)

// errTooDeep: the document nests elements deeper than maxXMLDepth.
var errTooDeep = fmt.Errorf("elements nested deeper than %d", maxXMLDepth)

// xmlSyntax is an XML syntax error at a line, worded as encoding/xml words it.
type xmlSyntax struct {
	line int
	msg  string
}

func (e *xmlSyntax) Error() string { return "XML syntax error: " + e.msg }

func newXMLScanner(r io.Reader) *xmlScanner {
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < 64<<10 {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	return &xmlScanner{r: br, line: 1}
}

func (s *xmlScanner) fail(msg string) error { return &xmlSyntax{line: s.line, msg: msg} }

// xmlEvent is what next found.
type xmlEvent uint8

const (
	xmlEOF xmlEvent = iota
	xmlStart
	xmlEnd
)

// next skips to the next start or end tag. For a start tag, s.name and
// s.attrs hold it (valid until the next call); a self-closing tag is a start
// followed by its end. At the end of the input it returns xmlEOF, or an
// error if elements are still open.
func (s *xmlScanner) next() (xmlEvent, error) {
	if len(s.tag) > 0 && s.tag[len(s.tag)-1] == '/' {
		s.tag = nil // the end of a self-closing tag
		s.ended = s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		return xmlEnd, nil
	}
	for {
		err := s.textRun()
		if err == io.EOF {
			if len(s.stack) > 0 || !s.start {
				return xmlEOF, s.fail("unexpected EOF")
			}
			return xmlEOF, nil
		}
		if err != nil {
			return xmlEOF, err
		}
		c, err := s.r.ReadByte()
		if err != nil {
			return xmlEOF, s.fail("unexpected EOF")
		}
		switch c {
		case '?':
			body, err := s.until("?>")
			if err != nil {
				return xmlEOF, err
			}
			if bytes.HasPrefix(body, []byte("xml")) && !utf8Encoding(body) {
				return xmlEOF, errOtherEncoding
			}
			continue
		case '!':
			if err := s.bang(); err != nil {
				return xmlEOF, err
			}
			continue
		case '/':
			tag, err := s.readTag()
			if err != nil {
				return xmlEOF, err
			}
			name := bytes.TrimRight(tag, " \t\r\n")
			if len(s.stack) == 0 {
				return xmlEOF, s.fail("unexpected end element </" + string(name) + ">")
			}
			open := s.stack[len(s.stack)-1]
			if !bytes.Equal(open, name) {
				return xmlEOF, s.fail("element <" + string(open) + "> closed by </" + string(name) + ">")
			}
			s.ended = open
			s.stack = s.stack[:len(s.stack)-1]
			s.tag = nil
			return xmlEnd, nil
		}
		if err := s.r.UnreadByte(); err != nil {
			return xmlEOF, err
		}
		tag, err := s.readTag()
		if err != nil {
			return xmlEOF, err
		}
		if err := s.parseStart(tag); err != nil {
			return xmlEOF, err
		}
		s.start = true
		return xmlStart, nil
	}
}

// errAfterRoot: content follows the root element (a second document, or
// garbage appended to a report).
const errAfterRoot = "content after the root element"

// end reads what follows the root element, once it has closed: white
// space, comments and processing instructions only, up to the end of the
// input. Anything else (a second root, text, a report appended to another)
// is an error: the report is not what it seems.
func (s *xmlScanner) end() error {
	for {
		ev, err := s.next()
		switch {
		case err != nil:
			return err
		case ev == xmlEOF:
			return nil
		default:
			return s.fail(errAfterRoot)
		}
	}
}

// textRun reads the text up to the next '<' (consumed) in chunks of the
// reader's buffer, checking it as encoding/xml does and keeping it (see
// keepText) without holding more than a chunk. It returns io.EOF at the
// end of the input.
func (s *xmlScanner) textRun() error {
	s.carry = s.carry[:0]
	for {
		chunk, err := s.r.ReadSlice('<')
		final := err != bufio.ErrBufferFull
		if err == nil {
			chunk = chunk[:len(chunk)-1]
		}
		s.line += bytes.Count(chunk, []byte{'\n'})
		if err := s.textChunk(chunk, final); err != nil {
			return err
		}
		if final {
			return err
		}
	}
}

// textChunk checks (and keeps) a chunk of a text run; unless final, an
// unfinished reference, character or \r at its end waits for the next.
func (s *xmlScanner) textChunk(b []byte, final bool) error {
	data := b
	if len(s.carry) > 0 {
		s.carry = append(s.carry, b...)
		data = s.carry
	}
	p := len(data)
	if !final {
		p = textSplit(data)
	}
	if s.start && len(s.stack) == 0 && len(bytes.TrimLeft(data[:p], " \t\r\n")) > 0 {
		return s.fail(errAfterRoot) // text after the root closed
	}
	if err := s.keep(data[:p]); err != nil {
		return err
	}
	rest := data[p:]
	if len(rest) > maxXMLReference {
		return s.fail("invalid character entity " + string(rest[:min(len(rest), 40)]) + "… (no semicolon)")
	}
	if len(s.carry) > 0 {
		s.carry = s.carry[:copy(s.carry, rest)]
	} else {
		s.carry = append(s.carry, rest...)
	}
	return nil
}

// textSplit is where a chunk of text can end: before an unfinished
// reference (an & with no ; after it), a character split by the chunk, or
// a final \r (which may start a \r\n).
func textSplit(b []byte) int {
	p := len(b)
	if i := bytes.LastIndexByte(b, '&'); i >= 0 && bytes.IndexByte(b[i:], ';') < 0 {
		p = i
	}
	p = runeSplit(b, p)
	if p > 0 && b[p-1] == '\r' {
		p--
	}
	return p
}

// runeSplit moves p back to the start of a UTF-8 sequence that b[:p] does
// not hold whole.
func runeSplit(b []byte, p int) int {
	for i := p - 1; i >= 0 && i >= p-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:p]) {
				return i
			}
			break
		}
	}
	return p
}

// appendText adds decoded text to s.text, up to maxXMLValue bytes.
func (s *xmlScanner) appendText(b []byte) {
	if s.textCut {
		return
	}
	room := maxXMLValue - len(s.text)
	if len(b) > room {
		b = b[:runeStart(b, room)]
		s.textCut = true
	}
	s.text = append(s.text, b...)
}

// runeStart is the start of the character at n, n at most len(b).
func runeStart(b []byte, n int) int {
	for n > 0 && n < len(b) && !utf8.RuneStart(b[n]) {
		n--
	}
	return n
}

// keptText is the text kept since keepText was set, cut with … if longer
// than maxXMLValue (counted in cuts).
func (s *xmlScanner) keptText() string {
	if s.textCut {
		s.cuts++
		return string(s.text) + "…"
	}
	return string(s.text)
}

// cutValue cuts a kept value to maxXMLValue bytes, with …, counting it in
// *cuts; both XML readers cut the same values at the same place.
func cutValue(v string, cuts *int) string {
	if len(v) <= maxXMLValue {
		return v
	}
	*cuts++
	return v[:runeStart([]byte(v[:maxXMLValue+1]), maxXMLValue)] + "…"
}

// warnCuts notes on the input how many values were cut.
func warnCuts(in *reports.Input, cuts int) {
	if cuts > 0 {
		in.Warn(fmt.Sprintf("%s longer than %d KiB cut to that size (marked …)", english.Plural(cuts, "value", "values"), maxXMLValue>>10))
	}
}

// readXML reads a report with the scanner, or with encoding/xml (slow) when
// the document declares another encoding than UTF-8 or is blank.
func readXML(r io.Reader, emit Emit, scan, slow func(io.Reader, Emit) (reports.Input, error)) (reports.Input, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(512)
	if len(bytes.TrimSpace(head)) == 0 || !utf8Encoding(xmlDeclaration(head)) {
		return slow(br, emit)
	}
	return scan(br, emit)
}

// utf8Encoding reports whether an XML declaration declares UTF-8 (or
// ASCII, a subset), or no encoding at all.
func utf8Encoding(decl []byte) bool {
	i := bytes.Index(decl, []byte("encoding"))
	if i < 0 {
		return true
	}
	rest := bytes.TrimLeft(decl[i+len("encoding"):], " \t\r\n=")
	if len(rest) == 0 {
		return true
	}
	q := rest[0]
	j := bytes.IndexByte(rest[1:], q)
	if j < 0 {
		return true
	}
	switch string(bytes.ToLower(rest[1 : 1+j])) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return true
	}
	return false
}

// until reads up to and including end, returning what came before it.
func (s *xmlScanner) until(end string) ([]byte, error) {
	s.buf = s.buf[:0]
	last := end[len(end)-1]
	for {
		chunk, err := s.r.ReadSlice(last)
		s.buf = append(s.buf, chunk...)
		s.line += bytes.Count(chunk, []byte{'\n'})
		if len(s.buf) > maxXMLTag {
			return nil, s.fail(fmt.Sprintf("a comment or processing instruction longer than %d MiB", maxXMLTag>>20))
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return nil, s.fail("unexpected EOF")
		}
		if bytes.HasSuffix(s.buf, []byte(end)) {
			return s.buf[:len(s.buf)-len(end)], nil
		}
	}
}

// bang skips a comment, a CDATA section or a DOCTYPE (with its internal subset).
func (s *xmlScanner) bang() error {
	head, err := s.r.Peek(2)
	if err == nil && string(head) == "--" {
		_, err := s.until("-->")
		return err
	}
	if head, err := s.r.Peek(7); err == nil && string(head) == "[CDATA[" {
		s.r.Discard(7)
		return s.cdata()
	}
	// A directive (<!DOCTYPE …>), read as encoding/xml reads it: its first
	// byte whatever it is, then up to a > outside quotes and outside the
	// <…> nested in it; a comment inside is skipped.
	get := func() (byte, error) {
		c, err := s.r.ReadByte()
		if err != nil {
			return 0, s.fail("unexpected EOF")
		}
		if c == '\n' {
			s.line++
		}
		return c, nil
	}
	if _, err := get(); err != nil {
		return err
	}
	var inquote byte
	depth := 0
	for {
		c, err := get()
		if err != nil {
			return err
		}
		if inquote == 0 && c == '>' && depth == 0 {
			return nil
		}
	handle:
		switch {
		case c == inquote:
			inquote = 0
		case inquote != 0:
		case c == '\'' || c == '"':
			inquote = c
		case c == '>':
			depth--
		case c == '<':
			for i := 0; i < len("!--"); i++ {
				if c, err = get(); err != nil {
					return err
				}
				if c != "!--"[i] {
					depth++
					goto handle
				}
			}
			var b0, b1 byte
			for {
				if c, err = get(); err != nil {
					return err
				}
				if b0 == '-' && b1 == '-' {
					if c != '>' {
						return s.fail(`invalid sequence "--" not allowed in comments`)
					}
					break
				}
				b0, b1 = b1, c
			}
		}
	}
}

// cdata reads a CDATA section's content after its <![CDATA[, up to its
// ]]>, in chunks: checked as encoding/xml checks it, kept (line ends
// turned into \n) when keepText is set.
func (s *xmlScanner) cdata() error {
	s.carry = s.carry[:0]
	for {
		chunk, err := s.r.ReadSlice('>')
		if err != nil && err != bufio.ErrBufferFull {
			return s.fail("unexpected EOF in CDATA section")
		}
		s.line += bytes.Count(chunk, []byte{'\n'})
		s.carry = append(s.carry, chunk...)
		data := s.carry
		end := err == nil && bytes.HasSuffix(data, []byte("]]>"))
		p := len(data)
		if end {
			p -= 3
		} else {
			// Hold back what may start the ]]>, a character or a \r\n.
			for p > 0 && p > len(data)-2 && data[p-1] == ']' {
				p--
			}
			p = runeSplit(data, p)
			if p > 0 && data[p-1] == '\r' {
				p--
			}
		}
		if msg := xmlCharsError(data[:p]); msg != "" {
			return s.fail(msg)
		}
		if s.keepText {
			s.buf = appendNewlines(s.buf[:0], data[:p])
			s.appendText(s.buf)
		}
		if end {
			return nil
		}
		s.carry = s.carry[:copy(s.carry, data[p:])]
	}
}

// readTag reads a tag's content up to its closing '>', which it leaves out;
// a '>' inside a quoted value does not close it.
func (s *xmlScanner) readTag() ([]byte, error) {
	s.buf = s.buf[:0]
	var quote byte
	for {
		chunk, err := s.r.ReadSlice('>')
		if err != nil && err != bufio.ErrBufferFull {
			return nil, s.fail("unexpected EOF")
		}
		for _, c := range chunk {
			switch {
			case c == '\n':
				s.line++
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case c == '"' || c == '\'':
				quote = c
			}
		}
		s.buf = append(s.buf, chunk...)
		if len(s.buf) > maxXMLTag {
			return nil, s.fail(fmt.Sprintf("a tag longer than %d MiB", maxXMLTag>>20))
		}
		if err == nil && quote == 0 {
			return s.buf[:len(s.buf)-1], nil
		}
	}
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// parseStart splits a start tag into its name and attributes.
func (s *xmlScanner) parseStart(tag []byte) error {
	s.tag = tag
	selfClosing := len(tag) > 0 && tag[len(tag)-1] == '/'
	if selfClosing {
		tag = tag[:len(tag)-1]
	}
	i := 0
	for i < len(tag) && !isXMLSpace(tag[i]) {
		i++
	}
	s.name = tag[:i]
	if len(s.name) == 0 {
		return s.fail("expected element name after <")
	}
	if len(s.stack) >= maxXMLDepth {
		return s.fail(errTooDeep.Error())
	}
	s.stack = append(s.stack, append([]byte(nil), s.name...))
	s.attrs = s.attrs[:0]
	for {
		for i < len(tag) && isXMLSpace(tag[i]) {
			i++
		}
		if i == len(tag) {
			if !selfClosing {
				s.tag = nil
			}
			return nil
		}
		j := i
		for j < len(tag) && tag[j] != '=' && !isXMLSpace(tag[j]) {
			j++
		}
		name := tag[i:j]
		for j < len(tag) && isXMLSpace(tag[j]) {
			j++
		}
		if j == len(tag) || tag[j] != '=' {
			return s.fail("attribute name without = in element")
		}
		j++
		for j < len(tag) && isXMLSpace(tag[j]) {
			j++
		}
		if j == len(tag) || (tag[j] != '"' && tag[j] != '\'') {
			return s.fail("unquoted or missing attribute value in element")
		}
		q := tag[j]
		end := bytes.IndexByte(tag[j+1:], q)
		if end < 0 {
			return s.fail("unexpected EOF")
		}
		value := tag[j+1 : j+1+end]
		if bytes.IndexByte(value, '<') >= 0 {
			return s.fail("unescaped < inside quoted string")
		}
		s.attrs = append(s.attrs, xmlRawAttr{name: name, value: value})
		i = j + 1 + end + 1
	}
}

// keep checks text as encoding/xml does (references, characters, UTF-8)
// and, with keepText, appends it decoded to s.text.
func (s *xmlScanner) keep(raw []byte) error {
	if bytes.IndexByte(raw, '&') < 0 && bytes.IndexByte(raw, '\r') < 0 {
		if msg := xmlCharsError(raw); msg != "" {
			return s.fail(msg)
		}
		if s.keepText {
			s.appendText(raw)
		}
		return nil
	}
	v, err := s.unescape(raw)
	if s.keepText {
		s.appendText([]byte(v))
	}
	return err
}

// xmlCharsError names the first character of b that XML does not allow
// (as encoding/xml checks text and attribute values): invalid UTF-8, a
// control character but tab, line feed and carriage return, a surrogate,
// U+FFFE or U+FFFF. It is "" when there is none.
func xmlCharsError(b []byte) string {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return fmt.Sprintf("illegal character code %U", rune(c))
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return "invalid UTF-8"
		}
		if !xmlChar(r) {
			return fmt.Sprintf("illegal character code %U", r)
		}
		i += size
	}
	return ""
}

// xmlChar reports whether r is in XML's Char production, as encoding/xml
// decides.
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}

// appendNewlines appends b with \r\n and a lone \r turned into \n, as
// encoding/xml gives text.
func appendNewlines(dst, b []byte) []byte {
	for i := 0; i < len(b); i++ {
		if b[i] != '\r' {
			dst = append(dst, b[i])
		} else if i+1 >= len(b) || b[i+1] != '\n' {
			dst = append(dst, '\n')
		}
	}
	return dst
}

// local is a name without its namespace prefix, split as encoding/xml
// splits it: at a colon with something either side.
func local(name []byte) []byte {
	if i := bytes.IndexByte(name, ':'); i > 0 && i < len(name)-1 {
		return name[i+1:]
	}
	return name
}

// attr returns the unescaped value of the named attribute of the current
// start tag (matched without its prefix, as encoding/xml's Local), "" when
// it has none.
func (s *xmlScanner) attr(name string) (string, error) {
	for _, a := range s.attrs {
		if string(local(a.name)) == name {
			v, err := s.unescape(a.value)
			return cutValue(v, &s.cuts), err
		}
	}
	return "", nil
}

// attrShared is attr for a value that repeats (a rule id, a severity): one
// shared copy per distinct value, no allocation after the first.
func (s *xmlScanner) attrShared(name string) (string, error) {
	for _, a := range s.attrs {
		if string(local(a.name)) != name {
			continue
		}
		if v, ok := s.shared[string(a.value)]; ok {
			return v, nil
		}
		v, err := s.unescape(a.value)
		if err != nil {
			return "", err
		}
		if len(v) > maxXMLValue {
			return cutValue(v, &s.cuts), nil // not shared: counted each time
		}
		if s.shared == nil || len(s.shared) >= maxXMLShared {
			s.shared = map[string]string{}
		}
		s.shared[string(a.value)] = v
		return v, nil
	}
	return "", nil
}

// unescape decodes character and entity references, turns \r\n into \n,
// and checks UTF-8, as encoding/xml does for attribute values.
func (s *xmlScanner) unescape(v []byte) (string, error) {
	if bytes.IndexByte(v, '&') < 0 && bytes.IndexByte(v, '\r') < 0 {
		if msg := xmlCharsError(v); msg != "" {
			return "", s.fail(msg)
		}
		return string(v), nil
	}
	out := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch c {
		case '\r':
			if i+1 < len(v) && v[i+1] == '\n' {
				continue
			}
			out = append(out, '\n')
		case '&':
			semi := bytes.IndexByte(v[i:], ';')
			if semi < 0 {
				return "", s.fail("invalid character entity " + string(v[i:]) + " (no semicolon)")
			}
			ent := v[i+1 : i+semi]
			r, ok := xmlEntity(ent)
			if !ok {
				return "", s.fail("invalid character entity &" + string(ent) + ";")
			}
			out = utf8.AppendRune(out, r)
			i += semi
		default:
			out = append(out, c)
		}
	}
	if msg := xmlCharsError(out); msg != "" {
		return "", s.fail(msg)
	}
	return string(out), nil
}

func xmlEntity(ent []byte) (rune, bool) {
	switch string(ent) {
	case "lt":
		return '<', true
	case "gt":
		return '>', true
	case "amp":
		return '&', true
	case "quot":
		return '"', true
	case "apos":
		return '\'', true
	}
	if len(ent) < 2 || ent[0] != '#' {
		return 0, false
	}
	var n uint64
	var err error
	if ent[1] == 'x' {
		n, err = strconv.ParseUint(string(ent[2:]), 16, 64)
	} else {
		n, err = strconv.ParseUint(string(ent[1:]), 10, 64)
	}
	// As encoding/xml: a surrogate becomes U+FFFD; a character XML does not
	// allow (&#0;) is refused by the check of the decoded text.
	if err != nil || n > utf8.MaxRune {
		return 0, false
	}
	return rune(n), true
}

// xmlScanError wraps a scanner error with the input name and its line.
func xmlScanError(name string, err error) error {
	var se *xmlSyntax
	if errors.As(err, &se) {
		return &ParseError{Input: name, Line: se.line, Err: errors.New(se.Error())}
	}
	return &ParseError{Input: name, Err: fmt.Errorf("reading: %w", err)}
}
