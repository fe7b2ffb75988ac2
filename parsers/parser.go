package parsers

import (
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
)

// A Parser reads one report and calls emit for each finding, in input order.
// It returns what it learned about the input (format, tool, version,
// suppressed count, warnings). A parser that fails returns the Input it filled
// so far together with a *[ParseError]. An error returned by emit stops the
// parse and is returned as is.
//
// Parsers set every field of a finding but its ID and Fingerprint: the
// reader gives both (see [ReadAll]).
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
	// FormatCodeClimate is GitLab's Code Quality report: a JSON array of
	// Code Climate issues (codeclimate.go).
	FormatCodeClimate Format = "codeclimate"
)

// Options configure a parser. The zero value works: paths then stay as the
// report gives them.
type Options struct {
	// Name is the input's name, used in errors and warnings.
	Name string
	// Root is the repository root, an absolute directory. Report paths under it
	// are made relative to it; SpotBugs source paths are looked up below it.
	Root string
	// FS holds the repository's files, where paths are looked up (the
	// readers give a [content.Root]'s: confined to the repository by
	// construction); nil looks nothing up. Nothing outside it is ever
	// looked at.
	FS fs.FS
	// Sources, when set, is the index of FS's files that SpotBugs source
	// paths are looked for in, shared with other reports; nil: the report
	// makes its own when it needs one.
	Sources *SourceIndex
}

// formatSpec is one row of the format table: all that recap knows of a
// report format outside its parser. Adding a format is its parser's file and
// one row in formats; detection, the directory search, ParseFormat, the
// flags' help and the messages that list the formats all follow the table.
type formatSpec struct {
	name  Format   // as --input-format and the MCP types argument give it
	title string   // in messages: "SpotBugs"
	about string   // what is read of it, in ErrUnknownFormat: "SpotBugs/FindBugs XML"
	head  sniffer  // how its content begins
	exts  []string // the file endings a directory search looks at (any case)
	aka   []string // other names the tool's reports go by (in file names)
	new   func(Options) Parser
}

// A sniffer recognises the head of a format's content: JSON whose first
// value is an object or an array carrying the format's marks, or XML by
// its root element.
type sniffer struct {
	json  byte                   // '{' or '[' for JSON; 0 for XML
	marks func(head []byte) bool // JSON: whether head carries the format's marks (nil: any head of that kind)
	root  string                 // XML: the root element's local name
}

// jsonObject recognises a JSON object whose head carries marks.
func jsonObject(marks func(head []byte) bool) sniffer { return sniffer{json: '{', marks: marks} }

// jsonArray recognises a JSON array whose head carries marks.
func jsonArray(marks func(head []byte) bool) sniffer { return sniffer{json: '[', marks: marks} }

// xmlElement recognises XML whose root element has this local name.
func xmlElement(root string) sniffer { return sniffer{root: root} }

// formats is the table of report formats, in detection order: the first
// JSON format of a kind also takes a head of that kind that carries no
// format's marks when the input is named (see [Detect]).
var formats = formatTable{
	{name: FormatSARIF, title: "SARIF", about: "SARIF 2.1.0", head: jsonObject(sarifMarked), exts: []string{".sarif", ".json"}, new: newSARIF},
	{name: FormatSpotBugs, title: "SpotBugs", about: "SpotBugs/FindBugs XML", head: xmlElement("BugCollection"), exts: []string{".xml"}, aka: []string{"findbugs"}, new: newSpotBugs},
	{name: FormatCheckstyle, title: "Checkstyle", about: "Checkstyle XML", head: xmlElement("checkstyle"), exts: []string{".xml"}, new: newCheckstyle},
	{name: FormatPMD, title: "PMD", about: "PMD XML", head: xmlElement("pmd"), exts: []string{".xml"}, new: newPMD},
	{name: FormatCodeClimate, title: "Code Quality", about: "GitLab Code Quality JSON", head: jsonArray(codeClimateMarked), exts: []string{".json"}, aka: []string{"codequality", "code-quality"}, new: newCodeClimate},
}

// formatTable is a table of formats; the package reads through formats, and
// tests through tables of their own.
type formatTable []formatSpec

// Formats lists the names of the formats recap reads.
func Formats() []Format {
	out := make([]Format, len(formats))
	for i, f := range formats {
		out[i] = f.name
	}
	return out
}

// FormatNames lists the formats' names as a user gives them, for help
// texts: "sarif, spotbugs, checkstyle, pmd, codeclimate".
func FormatNames() string { return formats.names() }

// FormatTitles lists the formats' names as messages write them, the last
// two joined by conj: FormatTitles("or") is "SARIF, SpotBugs, Checkstyle or
// PMD"; FormatTitles("") separates them all with commas.
func FormatTitles(conj string) string { return formats.titles(conj) }

func (t formatTable) names() string {
	names := make([]string, len(t))
	for i, f := range t {
		names[i] = string(f.name)
	}
	return strings.Join(names, ", ")
}

func (t formatTable) titles(conj string) string {
	titles := make([]string, len(t))
	for i, f := range t {
		titles[i] = f.title
	}
	return text.List(titles, conj)
}

// ParseFormat checks a format name given by a user (--format of an input).
func ParseFormat(name string) (Format, error) { return formats.parse(name) }

func (t formatTable) parse(name string) (Format, error) {
	for _, f := range t {
		if strings.EqualFold(string(f.name), name) {
			return f.name, nil
		}
	}
	return "", fmt.Errorf("unknown report format %q (want one of %s)", name, t.names())
}

// New returns the parser for a format.
func New(f Format, opts Options) (Parser, error) { return formats.parser(f, opts) }

func (t formatTable) parser(f Format, opts Options) (Parser, error) {
	for _, e := range t {
		if e.name == f {
			return e.new(opts), nil
		}
	}
	return nil, fmt.Errorf("unknown report format %q", f)
}

// errUnknownFormat is ErrUnknownFormat's text for a table.
func (t formatTable) errUnknownFormat() string {
	about := make([]string, len(t))
	for i, f := range t {
		about[i] = f.about
	}
	return "unknown report format (recap reads " + text.List(about, "and") + ")"
}
