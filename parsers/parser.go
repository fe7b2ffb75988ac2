package parsers

import (
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/recap-dev/recap/reports"
)

// A Parser reads one report and calls emit for each finding, in input order.
// It returns what it learned about the input (format, tool, version,
// suppressed count, warnings). A parser that fails returns the Input it filled
// so far together with a *[ParseError]. An error returned by emit stops the
// parse and is returned as is.
//
// Parsers set every field of a finding but its ID and Fingerprint: the
// reader gives both (see [ReadAll]), once it knows the finding is kept.
type Parser interface {
	Parse(r io.Reader, emit Emit) (reports.Input, error)
}

// Emit receives a parser's findings. partial holds the identity the tool
// gave a finding (SARIF's partialFingerprints, SpotBugs' instanceHash; nil
// when none), which [reports.Fingerprint] prefers to the finding's text.
type Emit func(f reports.Finding, partial map[string]string) error

// Format names a report format.
type Format string

// The formats recap reads.
const (
	FormatSARIF      Format = "sarif"
	FormatSpotBugs   Format = "spotbugs"
	FormatCheckstyle Format = "checkstyle"
	FormatPMD        Format = "pmd"
)

// Options configure a parser. The zero value works: paths then stay as the
// report gives them.
type Options struct {
	// Name is the input's name, used in errors and warnings.
	Name string
	// Root is the repository root, an absolute directory. Report paths under it
	// are made relative to it; SpotBugs source paths are looked up below it.
	Root string
	// FS holds the repository's files, where paths are looked up (nil:
	// os.DirFS(Root)). Nothing outside it is ever looked at.
	FS fs.FS
}

type format struct {
	name  Format
	sniff func(root string, json bool) bool
	new   func(Options) Parser
}

// formats is the table of report formats, in detection order.
var formats = []format{
	{name: FormatSARIF, sniff: func(_ string, json bool) bool { return json }, new: newSARIF},
	{name: FormatSpotBugs, sniff: func(root string, _ bool) bool { return root == "BugCollection" }, new: newSpotBugs},
	{name: FormatCheckstyle, sniff: func(root string, _ bool) bool { return root == "checkstyle" }, new: newCheckstyle},
	{name: FormatPMD, sniff: func(root string, _ bool) bool { return root == "pmd" }, new: newPMD},
}

// Formats lists the names of the formats recap reads.
func Formats() []Format {
	out := make([]Format, len(formats))
	for i, f := range formats {
		out[i] = f.name
	}
	return out
}

// ParseFormat checks a format name given by a user (--format of an input).
func ParseFormat(name string) (Format, error) {
	for _, f := range formats {
		if strings.EqualFold(string(f.name), name) {
			return f.name, nil
		}
	}
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = string(f.name)
	}
	return "", fmt.Errorf("unknown report format %q (want one of %s)", name, strings.Join(names, ", "))
}

// New returns the parser for a format.
func New(f Format, opts Options) (Parser, error) {
	for _, e := range formats {
		if e.name == f {
			return e.new(opts), nil
		}
	}
	return nil, fmt.Errorf("unknown report format %q", f)
}
