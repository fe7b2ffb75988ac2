package parsers

import (
	"bytes"
	"encoding/xml"
	"io"
)

// SniffLen is how many bytes [Detect] needs at most to decide.
const SniffLen = 8192

// Detect tells the format of a report from the first bytes of its content
// (at most [SniffLen] are looked at), not from its name. A JSON object is
// SARIF; XML is told by its root element: BugCollection (SpotBugs, FindBugs),
// checkstyle, pmd. It is a pure function of head.
func Detect(head []byte) (Format, bool) {
	if len(head) > SniffLen {
		head = head[:SniffLen]
	}
	head = bytes.TrimPrefix(head, utf8BOM)
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	if len(trimmed) == 0 {
		return "", false
	}
	isJSON := trimmed[0] == '{'
	root := ""
	if trimmed[0] == '<' {
		root = xmlRoot(head)
	}
	if !isJSON && root == "" {
		return "", false
	}
	for _, f := range formats {
		if f.sniff(root, isJSON) {
			return f.name, true
		}
	}
	return "", false
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// xmlRoot returns the local name of the first element in head, skipping the
// declaration, comments, processing instructions and a DOCTYPE; "" if head
// holds no element start or is not XML.
func xmlRoot(head []byte) string {
	d := xml.NewDecoder(bytes.NewReader(head))
	d.Strict = false
	d.CharsetReader = charsetReader
	for {
		tok, err := d.RawToken()
		if err != nil {
			if err == io.EOF {
				return ""
			}
			return ""
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name.Local
		}
	}
}
