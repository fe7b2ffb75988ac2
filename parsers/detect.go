package parsers

import (
	"bytes"
	"encoding/xml"
	"regexp"
	"strings"
)

// SniffLen is how many bytes [Detect] needs at most to decide.
const SniffLen = 8192

// Detect tells the format of a report from the first bytes of its content
// (at most [SniffLen] are looked at), not from its name, by the format
// table: XML by its root element (BugCollection for SpotBugs and FindBugs,
// checkstyle, pmd), JSON by the kind of its first value and the marks of a
// format in its head (SARIF: a "runs" member or a SARIF $schema). A JSON
// head without any format's marks is taken for the table's first format of
// its kind (a JSON object for SARIF), so that an input named by the user
// gets that format's error; a directory search takes only heads with the
// marks. Detect is a pure function of head.
func Detect(head []byte) (Format, bool) {
	f, m := formats.detect(head)
	return f, m != noMatch
}

// match is how well a head fits a format.
type match int

const (
	noMatch     match = iota
	weakMatch         // JSON of the format's kind, without its marks
	strongMatch       // the format's root element, or JSON with its marks
)

func (t formatTable) detect(head []byte) (Format, match) {
	if len(head) > SniffLen {
		head = head[:SniffLen]
	}
	head = bytes.TrimPrefix(head, utf8BOM)
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	if len(trimmed) == 0 {
		return "", noMatch
	}
	switch c := trimmed[0]; c {
	case '{', '[':
		weak := Format("")
		for _, f := range t {
			if f.head.json != c {
				continue
			}
			if f.head.marks == nil || f.head.marks(head) {
				return f.name, strongMatch
			}
			if weak == "" {
				weak = f.name
			}
		}
		if weak != "" {
			return weak, weakMatch
		}
	case '<':
		root := firstElement(head)
		if root == "" {
			return "", noMatch
		}
		for _, f := range t {
			if f.head.json == 0 && f.head.root == root {
				return f.name, strongMatch
			}
		}
	}
	return "", noMatch
}

// hasExt reports whether a directory search looks at a file of this name: one
// with a format's ending, or gzip (.gz) of any.
func (t formatTable) hasExt(name string) bool {
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, ".gz") {
		return true
	}
	for _, f := range t {
		for _, e := range f.exts {
			if strings.HasSuffix(lower, e) {
				return true
			}
		}
	}
	return false
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// firstElement returns the local name of the first element in head, skipping
// the declaration, comments, processing instructions and a DOCTYPE; "" if
// head holds no element start or is not XML.
func firstElement(head []byte) string {
	d := xml.NewDecoder(bytes.NewReader(head))
	d.Strict = false
	d.CharsetReader = charsetReader
	for {
		tok, err := d.RawToken()
		if err != nil {
			return ""
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name.Local
		}
	}
}

// sarifSchema matches a SARIF $schema property.
var sarifSchema = regexp.MustCompile(`"\$schema"\s*:\s*"[^"]*(?i:sarif)`)

// sarifMarked reports whether a JSON head carries SARIF's marks: a "runs"
// property or a SARIF $schema. Other JSON files (package.json,
// tsconfig.json) have neither.
func sarifMarked(head []byte) bool {
	return bytes.Contains(head, []byte(`"runs"`)) || sarifSchema.Match(head)
}
