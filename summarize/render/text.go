package render

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/budget"
)

// Text writes the view for a terminal or a CI log: a headline with the
// counts, then ASCII tables (severity, tools, top categories, rules, files,
// inputs), then the inputs' warnings and errors.
type Text struct{}

// Render implements [Renderer].
func (Text) Render(w io.Writer, v *summarize.View) error {
	s := v.Summary
	guard := NewNoCommands(w)
	ew := &errWriter{w: guard}
	ew.printf("%s%s in %s from %s%s\n", english.Plural(s.Total, "finding", "findings"), problemsNote(&s), s.FilesText(),
		english.Plural(v.InputsRead(), "input", "inputs"), suppressedNote(v))
	if s.Excluded > 0 {
		ew.printf("%s excluded by the configuration, not counted\n", english.Plural(s.Excluded, "finding", "findings"))
	}
	if t := TriagedLine(s.Triaged); t != "" {
		ew.printf("%s\n", t)
	}
	if b := s.Baseline; b != nil {
		ew.printf("against the baseline: %d new, %d unchanged, %d fixed%s\n", b.New, b.Unchanged, b.Fixed, newProblemsNote(b))
	}
	if sec := s.Security; sec != nil {
		ew.printf("about security: %d%s\n", sec.Findings, securityNote(sec))
	}
	if line := SameFilesLine(v.Inputs); line != "" {
		ew.printf("%s\n", line)
	}
	ew.printf("\n")

	if h, a, rows := importanceTable(&s); len(rows) > 0 {
		ew.tbl(h, a, rows)
	}
	var rows [][]string
	for _, sev := range reports.Severities {
		rows = append(rows, []string{sev.String(), strconv.Itoa(s.BySeverity.Of(sev))})
	}
	ew.tbl([]string{"tool's severity", "count"}, left2, rows)

	if len(s.ByTool) > 0 {
		rows = rows[:0]
		for _, name := range sortedKeys(s.ByTool) {
			rows = append(rows, []string{PlainText(name), strconv.Itoa(s.ByTool[name])})
		}
		ew.tbl([]string{"tool", countTitle(&s, "byTool")}, left2, rows)
	}
	textTopLists(ew, &s)
	rows = rows[:0]
	for _, in := range v.Inputs[:min(len(v.Inputs), MaxInputRows)] {
		status := "ok"
		if in.Error != "" {
			status = "ERROR"
		} else if len(in.Warnings) > 0 {
			status = english.Plural(len(in.Warnings), "warning", "warnings")
		}
		if in.Suppressed > 0 {
			status += fmt.Sprintf(" (%d suppressed)", in.Suppressed)
		}
		rows = append(rows, []string{PlainText(in.Path), in.Format, PlainText(in.Tool), strconv.Itoa(in.Findings), status})
	}
	ew.tbl([]string{"input", "format", "tool", "findings", "status"},
		[]Align{AlignLeft, AlignLeft, AlignLeft, AlignRight, AlignLeft}, rows)
	if more := moreInputs(v.Inputs); more != "" {
		ew.printf("%s\n\n", more)
	}
	for _, in := range v.Inputs {
		for _, warn := range in.Warnings {
			ew.printf("warning: %s: %s\n", PlainText(in.Path), PlainText(warn))
		}
	}
	for _, in := range v.Inputs {
		if in.Error != "" {
			ew.printf("error: %s\n", PlainText(in.Error))
		}
	}
	textFindings(ew, v)
	textBudget(ew, v)
	if err := guard.Close(); ew.err == nil {
		ew.err = err
	}
	return ew.err
}

func textTopLists(ew *errWriter, s *summarize.Summary) {
	if len(s.TopCategories) > 0 {
		ew.tbl([]string{"top categories", countTitle(s, "topCategories")}, left2, countRows(s.TopCategories))
	}
	if len(s.TopRules) > 0 {
		var rows [][]string
		for _, r := range s.TopRules {
			rows = append(rows, []string{PlainText(r.Name), PlainText(r.Tool), strconv.Itoa(r.Count)})
		}
		ew.tbl([]string{"top rules", "tool", countTitle(s, "topRules")}, []Align{AlignLeft, AlignLeft, AlignRight}, rows)
	}
	if len(s.TopFiles) > 0 {
		ew.tbl([]string{"top files", countTitle(s, "topFiles")}, left2, countRows(s.TopFiles))
	}
}

// textFindings writes the page of findings, each with its context:
//
//	high   src/A.java:34:9  PMD UseEqualsToCompareStrings [reliability, Error Prone, error]  (id k3xq-12)
//	       Use equals() to compare strings instead of '==' or '!='
//	          33 |     public void addItem(String item) {
//	       >  34 |         if (item == "") {
//	          35 |             return;
func textFindings(ew *errWriter, v *summarize.View) {
	p := v.Page
	if p == nil {
		return
	}
	what := pageItems(v)
	if p.Returned == 0 {
		ew.printf("\nno %s at offset %d of %d\n", what, p.Offset, p.Total)
		return
	}
	ew.printf("\n%s %d-%d of %d", what, p.Offset+1, p.Offset+p.Returned, p.Total)
	if p.NextOffset != nil {
		ew.printf(" (next page: --offset %d)", *p.NextOffset)
	}
	ew.printf("\n")
	for i := range v.Findings {
		textFinding(ew, &v.Findings[i])
		textContext(ew, &v.Findings[i])
	}
}

func textFinding(ew *errWriter, f *summarize.FindingView) {
	ew.printf("\n%-7s %s  %s %s [%s]  (id %s%s)\n", importanceLabel(&f.Finding), location(PlainText(f.Path), f.Line, f.Column),
		PlainText(f.Tool), PlainText(DisplayRule(f.Rule, f.RuleName)), PlainText(findingFacts(&f.Finding)), f.ID, baselineTag(f.Baseline, ", "))
	ew.printf("        %s\n", PlainText(f.Message))
	if also := alsoLine(f.AlsoReportedBy, PlainText); also != "" {
		ew.printf("        (%s)\n", also)
	}
	if f.Triage != nil {
		ew.printf("        (%s)\n", TriageNote(f.Triage))
	}
}

func textContext(ew *errWriter, f *summarize.FindingView) {
	width := 1
	for _, c := range f.Context {
		width = max(width, len(strconv.Itoa(c.Line)))
	}
	for _, c := range f.Context {
		mark := " "
		if c.Line == f.Line {
			mark = ">"
		}
		ew.printf("      %s %*d | %s\n", mark, width, c.Line, CleanLine(c.Text))
	}
	if f.ContextNote != "" {
		ew.printf("        (%s)\n", PlainText(f.ContextNote))
	}
}

// textBudget writes the omission markers, the suggestions and the view's
// size, when a budget applied.
func textBudget(ew *errWriter, v *summarize.View) {
	if v.Tokens == nil {
		return
	}
	ew.printf("\n")
	for _, o := range v.Omitted {
		ew.printf("%s\n", o.Marker())
	}
	for _, s := range v.Suggestions {
		ew.printf("to narrow: %s\n", PlainText(s))
	}
	ew.printf("%s\n", tokenLine(v.Tokens))
}

// baselineTag is sep+state for a finding marked against a baseline, "" otherwise.
func baselineTag(state, sep string) string {
	if state == "" {
		return ""
	}
	return sep + state
}

// tokenLine states a view's size against its budget.
func tokenLine(t *budget.TokenInfo) string {
	return fmt.Sprintf("tokens: %d of a %d budget (%s)", t.Estimated, t.Budget, t.Tokenizer)
}

// TopLists implements [summarize.Layout].
func (Text) TopLists(s *summarize.Summary) string {
	var b strings.Builder
	textTopLists(&errWriter{w: &b}, s)
	return b.String()
}

// Finding implements [summarize.Layout].
func (Text) Finding(f *summarize.FindingView) string {
	var b strings.Builder
	textFinding(&errWriter{w: &b}, f)
	return b.String()
}

// Context implements [summarize.Layout].
func (Text) Context(f *summarize.FindingView) string {
	var b strings.Builder
	textContext(&errWriter{w: &b}, f)
	return b.String()
}

// View implements [summarize.Layout].
func (t Text) View(v *summarize.View) string { return renderString(t, v) }

func countRows(cs []summarize.Count) [][]string {
	rows := make([][]string, len(cs))
	for i, c := range cs {
		name := c.Name
		if name == "" {
			name = "(none)"
		}
		rows[i] = []string{PlainText(name), strconv.Itoa(c.Count)}
	}
	return rows
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}

// errWriter keeps the first error, so the renderer reads as a sequence.
type errWriter struct {
	w     io.Writer
	err   error
	table func(io.Writer, []string, []Align, [][]string) error // nil: ASCII
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

func (e *errWriter) tbl(header []string, align []Align, rows [][]string) {
	if e.err == nil {
		f := e.table
		if f == nil {
			f = table
		}
		e.err = f(e.w, header, align, rows)
	}
	e.printf("\n")
}

// pageItems names what a page lists: "problems" when findings were grouped
// (each finding shown names the others that report its problem, and the
// headline counts both), else "findings".
func pageItems(v *summarize.View) string {
	if d := v.Summary.Duplicates; d != nil && d.Findings > 0 {
		return "problems"
	}
	return "findings"
}

// SameFilesLine is the headline's line on the inputs that another report
// of their tool covers too (see [reports.SameFiles]), "" when none is.
func SameFilesLine(inputs []reports.Input) string {
	n := reports.SameFiles(inputs)
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("counted twice: %s of a tool beside another on the same files, a finding both give counted in each (see the warnings)", english.Plural(n, "report", "reports"))
}
