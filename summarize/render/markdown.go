package render

import (
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter/tw"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// Markdown writes the view as GitHub-flavoured Markdown, for a job summary
// or a pull-request comment: a headline with the counts, the tables, then the
// findings, each with its context in a code block. Cells and messages are
// escaped, so report text cannot break the layout or inject HTML.
type Markdown struct{}

// Render implements [Renderer].
func (Markdown) Render(w io.Writer, v *summarize.View) error {
	s := v.Summary
	ew := &errWriter{w: w, table: markdownTable}
	ew.printf("### recap: %s in %s\n\n", plural(s.Total, "finding", "findings"), plural(s.Files, "file", "files"))
	ew.printf("**%d** error · **%d** warning · **%d** note, from %s\n\n", s.BySeverity.Error, s.BySeverity.Warning, s.BySeverity.Note,
		plural(len(v.Inputs), "input", "inputs"))
	markdownTopLists(ew, &s)
	var rows [][]string
	for _, in := range v.Inputs {
		status := "ok"
		if in.Error != "" {
			status = "**error**: " + in.Error
		} else if len(in.Warnings) > 0 {
			status = strings.Join(in.Warnings, "\n")
		}
		rows = append(rows, []string{in.Path, in.Format, in.Tool, strconv.Itoa(in.Findings), status})
	}
	ew.tbl([]string{"input", "format", "tool", "findings", "status"},
		[]tw.Align{tw.AlignLeft, tw.AlignLeft, tw.AlignLeft, tw.AlignRight, tw.AlignLeft}, rows)
	markdownFindings(ew, v)
	markdownBudget(ew, v)
	return ew.err
}

func markdownTopLists(ew *errWriter, s *summarize.Summary) {
	if len(s.TopCategories) > 0 {
		ew.tbl([]string{"top categories", "count"}, left2, countRows(s.TopCategories))
	}
	if len(s.TopRules) > 0 {
		var rows [][]string
		for _, r := range s.TopRules {
			rows = append(rows, []string{r.Name, r.Tool, strconv.Itoa(r.Count)})
		}
		ew.tbl([]string{"top rules", "tool", "count"}, []tw.Align{tw.AlignLeft, tw.AlignLeft, tw.AlignRight}, rows)
	}
	if len(s.TopFiles) > 0 {
		ew.tbl([]string{"top files", "count"}, left2, countRows(s.TopFiles))
	}
}

// markdownBudget writes the omission markers, the suggestions and the
// view's size, when a budget applied.
func markdownBudget(ew *errWriter, v *summarize.View) {
	if v.Tokens == nil {
		return
	}
	ew.printf("\n")
	for _, o := range v.Omitted {
		ew.printf("- %s\n", html.EscapeString(o.Marker()))
	}
	for _, s := range v.Suggestions {
		ew.printf("- to narrow: %s\n", html.EscapeString(s))
	}
	ew.printf("\n_%s_\n", tokenLine(v.Tokens))
}

// TopLists implements [summarize.Layout].
func (Markdown) TopLists(s *summarize.Summary) string {
	var b strings.Builder
	markdownTopLists(&errWriter{w: &b, table: markdownTable}, s)
	return b.String()
}

// Finding implements [summarize.Layout].
func (Markdown) Finding(f *summarize.FindingView) string {
	var b strings.Builder
	markdownFinding(&errWriter{w: &b}, f)
	return b.String()
}

// Context implements [summarize.Layout].
func (Markdown) Context(f *summarize.FindingView) string {
	var b strings.Builder
	markdownContext(&errWriter{w: &b}, f)
	return b.String()
}

// View implements [summarize.Layout].
func (m Markdown) View(v *summarize.View) string { return renderString(m, v) }

func markdownFindings(ew *errWriter, v *summarize.View) {
	p := v.Page
	if p == nil || p.Returned == 0 {
		return
	}
	ew.printf("#### Findings %d–%d of %d\n\n", p.Offset+1, p.Offset+p.Returned, p.Total)
	for i := range v.Findings {
		markdownFinding(ew, &v.Findings[i])
		markdownContext(ew, &v.Findings[i])
	}
	ew.printf("\n")
	if p.NextOffset != nil {
		ew.printf("_%d more: next page at offset %d._\n", p.Total-*p.NextOffset, *p.NextOffset)
	}
}

func markdownFinding(ew *errWriter, f *summarize.FindingView) {
	ew.printf("- %s **%s** `%s` %s: %s\n", severityMark(f.Severity), f.Severity,
		inlineCode(location(f.Path, f.Line, f.Column)), html.EscapeString(oneLine(f.Tool+" "+displayRule(f.Rule, f.RuleName))),
		html.EscapeString(oneLine(f.Message)))
}

func markdownContext(ew *errWriter, f *summarize.FindingView) {
	if len(f.Context) > 0 {
		fence := codeFence(f.Context)
		ew.printf("  %s\n", fence)
		for _, c := range f.Context {
			ew.printf("  %d%s %s\n", c.Line, map[bool]string{true: ">", false: "|"}[c.Line == f.Line], c.Text)
		}
		ew.printf("  %s\n", fence)
	}
	if f.ContextNote != "" {
		ew.printf("  _%s_\n", html.EscapeString(f.ContextNote))
	}
}

func severityMark(s reports.Severity) string {
	switch s {
	case reports.SeverityError:
		return "🔴"
	case reports.SeverityWarning:
		return "🟡"
	}
	return "🔵"
}

// inlineCode drops backticks, which would end the code span early.
func inlineCode(s string) string { return strings.ReplaceAll(s, "`", "'") }

// codeFence is a fence longer than any run of backticks in the lines.
func codeFence(lines []summarize.ContextLine) string {
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = l.Text
	}
	return fenceFor(texts)
}
