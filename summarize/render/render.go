// Package render writes recap's views in each output format: text (ASCII
// tables for terminals and CI logs), markdown (a job summary or PR comment),
// json (the view's contract), github (workflow annotations), sarif (code
// scanning) and codeclimate (GitLab Code Quality). Every format renders the
// same view, summary first. The table of output formats below says which
// formats write which [Kind] of output (the findings view, the diff view,
// token counts, the review); a new format is one file and one row in it.
//
// A [Renderer] only renders. What else a format can do or needs, its row
// says (always budgeted, JSON, workflow commands) or it says by the optional
// interfaces it implements, which callers assert:
//   - [summarize.Layout]: it can be budgeted (rendered in parts for
//     [summarize.Fit]); a format without it shows no source context either;
//   - [Selector]: it shows the first findings of each severity, not a page;
//   - [Streamer]: it shows every finding that passes the filters, which it
//     takes one at a time and spills to disk (see [Spill]), never holding them.
package render

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/tokens"
)

// A Renderer writes a view to w.
type Renderer interface {
	Render(w io.Writer, v *summarize.View) error
}

// A Selector shows the first PerSeverity findings of each severity, in view
// order, instead of a page.
type Selector interface {
	Renderer
	PerSeverity() int
}

// A Streamer shows every finding that passes the filters: a caller hands
// them to a [Stream], one at a time, then writes it.
type Streamer interface {
	Renderer
	NewStream() Stream
}

// AllResults is a [Streamer] that writes the results a report says are no
// findings too (suppressed ones, SARIF results of another kind than fail):
// a caller reads them for it (parsers.ReadOptions.Uncounted) and hands
// them to its stream, marked ([reports.Finding.Uncounted]).
type AllResults interface {
	AllResults() bool
}

// A Stream takes findings one at a time, in the reports' order, and writes
// them with the view's summary and inputs; its memory does not grow with the
// findings. Close removes what it left on disk.
type Stream interface {
	Add(f *reports.Finding) error
	Write(w io.Writer, v *summarize.View) error
	Close() error
}

// A Warner is a stream with something to say once written: what it left
// out or could not place. Each warning is one line, as the command line
// prints it after "recap: warning: ".
type Warner interface {
	Warnings() []string
}

// renderString renders v to a string; a renderer's only errors are the
// writer's, and a strings.Builder has none.
func renderString(r Renderer, v *summarize.View) string {
	var b strings.Builder
	if err := r.Render(&b, v); err != nil {
		return ""
	}
	return b.String()
}

// A Kind is what a command writes, in one of the formats that write it.
type Kind int

// The kinds of output.
const (
	Findings    Kind = iota // summary and findings: a [summarize.View]
	Diffs                   // diff: a [summarize.DiffView]
	TokenCounts             // tokens: a [tokens.Report]
	Reviews                 // review: the review request, or its body
)

// A Format is one row of the table of output formats: all that recap knows
// of an output format outside its renderers. Lookup, the flags' help, the
// budget and the guard of the output follow the table.
type Format struct {
	Name   string                                   // as --format gives it
	Use    string                                   // what it is for, in the flags' help: "code scanning"
	View   Renderer                                 // the findings view; nil: not written
	Diff   DiffRenderer                             // the diff view; nil: not written
	Tokens func(w io.Writer, r tokens.Report) error // token counts; nil: not written
	Review string                                   // what review writes in it, in help: "its body"; "": not written
	// Fitted: the output always has a token budget, --max-tokens given
	// or not.
	Fitted bool
	// JSON: the output is JSON, report text only inside its strings.
	JSON bool
	// Commands: the output is workflow commands, written on purpose.
	Commands bool
	// ShowsWarnings: the view shows the inputs' warnings (unless a budget
	// left something out), so that a log holding it and standard error
	// need not repeat them.
	ShowsWarnings bool
}

// formats is the table of output formats, in the order help lists them.
var formats = []Format{
	{Name: "text", View: Text{}, Diff: DiffText{}, Tokens: tokensText, ShowsWarnings: true},
	{Name: "markdown", Use: "job summary, PR comment", View: Markdown{MaxChars: CommentLimit}, Diff: DiffMarkdown{}, Review: "its body", ShowsWarnings: true},
	{Name: "json", View: JSON{}, Diff: DiffJSON{}, Tokens: tokensJSON, Review: "the review request", Fitted: true, JSON: true},
	{Name: "sarif", Use: "code scanning", View: SARIF{}, JSON: true},
	{Name: "github", Use: "workflow annotations", View: GitHub{}, Commands: true},
	{Name: "codeclimate", Use: "GitLab Code Quality", View: CodeClimate{}, JSON: true},
	{Name: "html", Use: "a page to open in a browser", View: HTML{}, Review: "a page of the findings on changed lines"},
}

// Writes says whether the format writes k.
func (f Format) Writes(k Kind) bool {
	switch k {
	case Findings:
		return f.View != nil
	case Diffs:
		return f.Diff != nil
	case TokenCounts:
		return f.Tokens != nil
	case Reviews:
		return f.Review != ""
	}
	return false
}

// use is what help says the format is for when it writes k.
func (f Format) use(k Kind) string {
	switch k {
	case Findings:
		return f.Use
	case Reviews:
		return f.Review
	}
	return ""
}

// Guard keeps report text from making a workflow command of a line of the
// output (see [NoCommands]); a format of workflow commands writes them on
// purpose, its values escaped. Close flushes the last line.
func (f Format) Guard(w io.Writer) io.WriteCloser {
	switch {
	case f.Commands:
		return nopCloser{w}
	case f.JSON:
		return NewJSONNoCommands(w)
	}
	return NewNoCommands(w)
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// Lookup returns the format of a name that writes k.
func Lookup(k Kind, name string) (Format, error) {
	for _, f := range formats {
		if f.Name == name && f.Writes(k) {
			return f, nil
		}
	}
	names := Names(k)
	switch k {
	case Diffs:
		return Format{}, fmt.Errorf("unknown output format %q for a diff (want %s)", name, text.List(names, "or"))
	case TokenCounts:
		return Format{}, fmt.Errorf("unknown output format %q for token counts (want %s)", name, text.List(names, "or"))
	case Reviews:
		return Format{}, fmt.Errorf("review writes %s, not %q", text.List(names, "or"), name)
	}
	sort.Strings(names)
	if m, ok := otherNames[strings.ToLower(name)]; ok {
		return Format{}, fmt.Errorf("unknown output format %q: %s (want one of %s)", name, m, strings.Join(names, ", "))
	}
	return Format{}, fmt.Errorf("unknown output format %q (want one of %s)", name, strings.Join(names, ", "))
}

// otherNames are what users call some formats, and the format that writes
// it: no spelling is near enough to tell.
var otherNames = map[string]string{
	"codequality":  "GitLab Code Quality is codeclimate",
	"code-quality": "GitLab Code Quality is codeclimate",
	"gitlab":       "GitLab Code Quality is codeclimate",
	"annotations":  "GitHub's workflow annotations are github",
	"md":           "Markdown is markdown",
	"gfm":          "Markdown is markdown",
	"txt":          "plain text is text",
	"htm":          "a page is html",
}

// defaults is each kind's default format, the --format a command takes
// when none is given.
var defaults = [...]string{Findings: "text", Diffs: "text", TokenCounts: "text", Reviews: "json"}

// Default returns the format a command that writes k takes when none is
// given.
func Default(k Kind) string { return defaults[k] }

// formatsOf lists the formats that write k: the default first, then the
// others in the table's order.
func formatsOf(k Kind) []Format {
	var out []Format
	for _, f := range formats {
		switch {
		case !f.Writes(k):
		case f.Name == defaults[k]:
			out = append([]Format{f}, out...)
		default:
			out = append(out, f)
		}
	}
	return out
}

// Names lists the names of the formats that write k: the default first,
// then the others in the table's order.
func Names(k Kind) []string {
	var out []string
	for _, f := range formatsOf(k) {
		out = append(out, f.Name)
	}
	return out
}

// Help lists the formats that write k as a flag's help does, the default
// first, with what each is for: "text, markdown (job summary, PR comment),
// json, … or codeclimate (GitLab Code Quality)".
func Help(k Kind) string {
	var items []string
	for _, f := range formatsOf(k) {
		item := f.Name
		if use := f.use(k); use != "" {
			item += " (" + use + ")"
		}
		items = append(items, item)
	}
	return text.List(items, "or")
}

// OneLine folds white space, newlines included, so that a value cannot
// break a table row or a line.
func OneLine(s string) string {
	if isOneLine(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// isOneLine says that s is ASCII text without controls, without space at
// either end or two spaces together: OneLine leaves it as it is.
func isOneLine(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < ' ' || c >= utf8.RuneSelf || c == ' ' && s[i+1] == ' ' {
			return false
		}
	}
	return true
}

// location writes path:line:column, leaving out what is unknown.
func location(path string, line, col int) string {
	if path == "" {
		path = "(no file)"
	}
	switch {
	case line > 0 && col > 0:
		return fmt.Sprintf("%s:%d:%d", path, line, col)
	case line > 0:
		return fmt.Sprintf("%s:%d", path, line)
	}
	return path
}

// DisplayRule prefers a rule's short name when its id is a long qualified
// one (Checkstyle's com.puppycrawl.tools.checkstyle.checks.sizes.LineLengthCheck).
func DisplayRule(id, name string) string {
	if name != "" && strings.Count(id, ".") >= 2 {
		return name
	}
	if id == "" {
		return "(no rule)"
	}
	return id
}

// MaxInputRows bounds the rows of the inputs' table of text and Markdown:
// past it one line counts the other inputs (their errors and warnings are
// still written, one line each), so that a run over 200,000 reports does
// not build a table of them all. JSON lists every input (within its
// budget).
const MaxInputRows = 1000

// moreInputs is the line that counts the inputs past MaxInputRows, ""
// when there are none.
func moreInputs(inputs []reports.Input) string {
	if len(inputs) <= MaxInputRows {
		return ""
	}
	rest := inputs[MaxInputRows:]
	findings, failed, warned := 0, 0, 0
	for _, in := range rest {
		findings += in.Findings
		switch {
		case in.Error != "":
			failed++
		case len(in.Warnings) > 0:
			warned++
		}
	}
	word := "inputs"
	if len(rest) == 1 {
		word = "input"
	}
	return fmt.Sprintf("and %d more %s (%s; %d not read, %d with warnings): give fewer inputs to list each",
		len(rest), word, english.Plural(findings, "finding", "findings"), failed, warned)
}

// countTitle heads the counts of a list: "count", or "at least" when the
// list's counts are estimates (Summary.Approximate names it), which show
// what is sure.
func countTitle(s *summarize.Summary, what string) string {
	if s.Estimated(what) {
		return "at least"
	}
	return "count"
}

// importanceTable is the summary's counts by quality and impact, the first
// table of the text and Markdown views: a row per quality that has
// findings, a column per impact and the total. No rows without findings
// placed on the scale.
func importanceTable(s *summarize.Summary) (header []string, align []Align, rows [][]string) {
	header = []string{"importance"}
	align = []Align{AlignLeft}
	for _, i := range reports.Impacts {
		header = append(header, i.String())
		align = append(align, AlignRight)
	}
	header = append(header, "total")
	align = append(align, AlignRight)
	for _, q := range reports.Qualities {
		c := s.ByQualityImpact.Of(q)
		if c.Total() == 0 {
			continue
		}
		row := []string{q.String()}
		for _, i := range reports.Impacts {
			row = append(row, strconv.Itoa(c.Of(i)))
		}
		rows = append(rows, append(row, strconv.Itoa(c.Total())))
	}
	return header, align, rows
}

// securityNote is what follows the count of findings about security: their
// impacts and their top CWE ids, " (1 high, 2 medium; CWE-89 ×1)"; recap's
// own words and numbers, safe in any format.
func securityNote(sec *summarize.SecurityCounts) string {
	var parts []string
	for _, i := range reports.Impacts {
		if n := sec.ByImpact.Of(i); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, i))
		}
	}
	by := strings.Join(parts, ", ")
	cwe := strings.TrimSuffix(strings.TrimPrefix(cweList(sec.TopCWE), " ("), ")")
	switch {
	case by != "" && cwe != "":
		return " (" + by + "; " + cwe + ")"
	case by != "":
		return " (" + by + ")"
	case cwe != "":
		return " (" + cwe + ")"
	}
	return ""
}

// importanceLabel is a finding's impact as views show it first, or its
// severity when it was not placed on the scale.
func importanceLabel(f *reports.Finding) string {
	if f.Impact.Valid() {
		return f.Impact.String()
	}
	return f.Severity.String()
}

// findingFacts is what a finding line says of a finding's importance and
// kinds, after its rule: "security, Security, note"; recap's words and the
// category as the scale names it.
func findingFacts(f *reports.Finding) string {
	parts := make([]string, 0, 3)
	if f.Quality.Valid() {
		parts = append(parts, f.Quality.String())
	}
	if f.Category != "" {
		parts = append(parts, f.Category)
	}
	if f.Impact.Valid() && f.Severity.Valid() {
		parts = append(parts, f.Severity.String())
	}
	return strings.Join(parts, ", ")
}

// problemsNote is what the headline says of the problems when findings
// repeat another's: ", 105 problems (12 reported more than once)"; "" when
// none does. Recap's own words and numbers.
func problemsNote(s *summarize.Summary) string {
	d := s.Duplicates
	if d == nil || d.Findings == 0 {
		return ""
	}
	return fmt.Sprintf(", %s (%d reported more than once)", english.Plural(s.Problems, "problem", "problems"), d.Problems)
}

// newProblemsNote says how many problems are new when that is not the new
// findings' count: " (3 new problems)"; "" otherwise.
func newProblemsNote(b *summarize.BaselineCounts) string {
	if b.NewProblems == nil || *b.NewProblems == b.New {
		return ""
	}
	return fmt.Sprintf(" (%s)", english.Plural(*b.NewProblems, "new problem", "new problems"))
}

// alsoLine names the other findings of a finding's problem: "also reported
// as PMD MethodArgumentCouldBeFinal (id 2ibh-12), SpotBugs X (id …)".
func alsoLine(also []summarize.AlsoReported, clean func(string) string) string {
	if len(also) == 0 {
		return ""
	}
	parts := make([]string, len(also))
	for i, a := range also {
		parts[i] = clean(a.Tool+" "+a.Rule) + " (id " + a.ID.String() + ")"
	}
	return "also reported as " + strings.Join(parts, ", ")
}
