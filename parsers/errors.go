package parsers

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel error kinds, for errors.Is.
var (
	// ErrUnknownFormat: the content matches no report format recap reads.
	// Its text names what recap reads: "unknown report format (recap reads
	// SARIF 2.1.0, SpotBugs/FindBugs XML, Checkstyle XML and PMD XML)".
	ErrUnknownFormat = errors.New(formats.errUnknownFormat())
	// ErrEmpty: the input has no content.
	ErrEmpty = errors.New("empty input")
)

// A ParseError names the input and the place where reading it failed: a JSON
// path for SARIF, a line and column for XML, and the byte offset where known.
//
//	pmd.sarif: $.runs[0].results[12]: line 40, column 3: want an object, got number
type ParseError struct {
	Input  string // the input's name as given
	Path   string // JSON path, "" if not applicable
	Line   int    // 1-based; 0 when unknown
	Column int    // 1-based; 0 when unknown
	Offset int64  // byte offset from the start of the (decompressed) input; -1 when unknown
	Err    error
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.Input)
	if e.Path != "" {
		b.WriteString(": " + e.Path)
	}
	switch {
	case e.Line > 0 && e.Column > 0:
		fmt.Fprintf(&b, ": line %d, column %d", e.Line, e.Column)
	case e.Line > 0:
		fmt.Fprintf(&b, ": line %d", e.Line)
	case e.Offset >= 0:
		fmt.Fprintf(&b, ": byte %d", e.Offset)
	}
	b.WriteString(": " + e.Err.Error())
	return b.String()
}

func (e *ParseError) Unwrap() error { return e.Err }
