package parsers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

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
	// keepText makes next append the text it passes to text, decoded.
	keepText bool
	text     []byte
	raw      []byte // a text run being read
}

// xmlRawAttr is an attribute as written: its value still escaped.
type xmlRawAttr struct {
	name, value []byte
}

var errOtherEncoding = errors.New("the document declares an encoding other than UTF-8")

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
		s.raw = s.raw[:0]
		text, err := s.r.ReadSlice('<')
		for err == bufio.ErrBufferFull {
			s.line += bytes.Count(text, []byte{'\n'})
			s.raw = append(s.raw, text...)
			text, err = s.r.ReadSlice('<')
		}
		s.line += bytes.Count(text, []byte{'\n'})
		s.raw = append(s.raw, bytes.TrimSuffix(text, []byte{'<'})...)
		if err := s.keep(s.raw); err != nil { // text kept or not is checked
			return xmlEOF, err
		}
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
		body, err := s.until("]]>")
		if err == nil && s.keepText {
			s.text = appendNewlines(s.text, body[len("[CDATA["):])
			if !utf8.Valid(body) {
				return s.fail("invalid UTF-8")
			}
		}
		return err
	}
	depth := 0
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return s.fail("unexpected EOF")
		}
		switch c {
		case '\n':
			s.line++
		case '[':
			depth++
		case ']':
			depth--
		case '>':
			if depth <= 0 {
				return nil
			}
		}
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

// keep checks a run of text as encoding/xml does (references, UTF-8) and,
// with keepText, appends it decoded to s.text.
func (s *xmlScanner) keep(raw []byte) error {
	if bytes.IndexByte(raw, '&') < 0 && bytes.IndexByte(raw, '\r') < 0 {
		if !utf8.Valid(raw) {
			return s.fail("invalid UTF-8")
		}
		if s.keepText {
			s.text = append(s.text, raw...)
		}
		return nil
	}
	v, err := s.unescape(raw)
	if s.keepText {
		s.text = append(s.text, v...)
	}
	return err
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
			return s.unescape(a.value)
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
		if s.shared == nil {
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
		if !utf8.Valid(v) {
			return "", s.fail("invalid UTF-8")
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
	if !utf8.Valid(out) {
		return "", s.fail("invalid UTF-8")
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
		n, err = strconv.ParseUint(string(ent[2:]), 16, 32)
	} else {
		n, err = strconv.ParseUint(string(ent[1:]), 10, 32)
	}
	if err != nil || n == 0 || n > utf8.MaxRune || (n >= 0xD800 && n <= 0xDFFF) {
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
