package parsers

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/text/encoding/charmap"
)

// charsetReader lets encoding/xml read the 8-bit encodings older Checkstyle,
// PMD and FindBugs reports declare: ISO-8859-1, and windows-1252, whose
// bytes 0x80–0x9F are letters and punctuation (“ ” € …), not the control
// characters of ISO-8859-1. Anything else is an error that names the
// encoding.
func charsetReader(label string, r io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return r, nil
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1":
		return charmap.ISO8859_1.NewDecoder().Reader(r), nil
	case "windows-1252", "cp1252":
		return charmap.Windows1252.NewDecoder().Reader(r), nil
	}
	return nil, fmt.Errorf("unsupported XML encoding %q (recap reads UTF-8, ISO-8859-1 and windows-1252)", label)
}
