package render

import (
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// GitHub's sizes for Markdown: a comment (and a review body) holds at most
// 65,536 characters, a job summary ($GITHUB_STEP_SUMMARY) 1 MiB.
const (
	CommentLimit = 65536
	SummaryLimit = 1 << 20
)

// Markdown writes the view as GitHub-flavoured Markdown, for a job summary
// or a pull-request comment: a headline with the counts, the tables, then the
// findings, each a collapsible <details> holding its context. Cells and
// messages are escaped, so report text cannot break the layout or inject HTML.
//
// The output stays within MaxChars bytes (so within as many characters):
// findings that do not fit are left out whole, and a line says how many.
// 0 means [CommentLimit].
type Markdown struct {
	MaxChars int
}

// Render implements [Renderer].
func (m Markdown) Render(w io.Writer, v *summarize.View) error {
	var head, body, tail strings.Builder
	markdownHead(&errWriter{w: &head, table: markdownTable}, v)
	ends := markdownFindings(&errWriter{w: &body}, v)
	markdownBudget(&errWriter{w: &tail}, v)

	limit := m.MaxChars
	if limit <= 0 {
		limit = CommentLimit
	}
	out := head.String()
	if len(out)+body.Len()+tail.Len() <= limit {
		out += body.String() + tail.String()
	} else {
		out += cutFindings(body.String(), ends, limit-len(out)-tail.Len(), limit) + tail.String()
		if len(out) > limit { // the head alone is too long: many inputs with warnings
			out = cutLines(out, limit)
		}
	}
	guard := NewNoCommands(w)
	if _, err := io.WriteString(guard, out); err != nil {
		return err
	}
	return guard.Close()
}

// cutFindings keeps the findings section up to the last finding that ends
// within room bytes (ends[i] is where finding i ends in body), and a line
// saying how many were left out.
func cutFindings(body string, ends []int, room, limit int) string {
	const noteRoom = 200
	kept := 0
	for kept < len(ends) && ends[kept] <= room-noteRoom {
		kept++
	}
	cut := 0
	if kept > 0 {
		cut = ends[kept-1]
	}
	if len(ends) == 0 || room-noteRoom <= 0 {
		return ""
	}
	return body[:cut] + fmt.Sprintf("\n_%d of these %d findings left out to stay under %d characters (GitHub's limit is %d for a comment, %d for a job summary): --max-chars sets it; --format json or sarif lists them all._\n",
		len(ends)-kept, len(ends), limit, CommentLimit, SummaryLimit)
}

// cutLines keeps whole lines of s up to limit bytes, the last one a marker.
func cutLines(s string, limit int) string {
	const marker = "\n_…cut here to stay within the size limit._\n"
	if limit <= len(marker) {
		return ""
	}
	s = s[:limit-len(marker)]
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s + marker
}

func markdownHead(ew *errWriter, v *summarize.View) {
	s := v.Summary
	ew.printf("### recap: %s%s in %s\n\n", english.Plural(s.Total, "finding", "findings"), problemsNote(&s), s.FilesText())
	if n := Suppressed(v); n > 0 {
		ew.printf("_%s suppressed in the reports, not counted._\n\n", english.Plural(n, "result", "results"))
	}
	if s.Excluded > 0 {
		ew.printf("_%s excluded by the configuration, not counted._\n\n", english.Plural(s.Excluded, "finding", "findings"))
	}
	if t := TriagedLine(s.Triaged); t != "" {
		ew.printf("_%s._\n\n", MarkdownText(t)) // a path may hold Markdown's characters
	}
	ew.printf("Levels by importance: **%d** error · **%d** warning · **%d** note, from %s\n\n", s.ByLevel.Error, s.ByLevel.Warning, s.ByLevel.Note, // the impact's levels
		english.Plural(v.InputsRead(), "input", "inputs"))
	if sec := s.Security; sec != nil {
		ew.printf("**%d** about security%s\n\n", sec.Findings, securityNote(sec))
	}
	if line := SameFilesLine(v.Inputs); line != "" {
		ew.printf("_%s._\n\n", MarkdownText(strings.Replace(line, "(see the warnings)", "(see the inputs)", 1)))
	}
	if b := s.Baseline; b != nil {
		ew.printf("Against the baseline: **%d** new · **%d** unchanged · **%d** fixed%s\n\n", b.New, b.Unchanged, b.Fixed, newProblemsNote(b))
	}
	if h, a, rows := importanceTable(&s); len(rows) > 0 {
		ew.tbl(h, a, rows)
	}
	markdownTopLists(ew, &s)
	var rows [][]string
	for _, in := range v.Inputs[:min(len(v.Inputs), MaxInputRows)] {
		status := "ok"
		if in.Error != "" {
			status = "error: " + in.Error
		} else if len(in.Warnings) > 0 {
			status = strings.Join(in.Warnings, "; ")
		}
		if in.Suppressed > 0 {
			status += fmt.Sprintf(" (%d suppressed)", in.Suppressed)
		}
		rows = append(rows, []string{in.Path, in.Format, in.Tool, strconv.Itoa(in.Findings), status})
	}
	ew.tbl([]string{"input", "format", "tool", "findings", "status"},
		[]Align{AlignLeft, AlignLeft, AlignLeft, AlignRight, AlignLeft}, rows)
	if more := moreInputs(v.Inputs); more != "" {
		ew.printf("%s\n\n", MarkdownText(more))
	}
}

func markdownTopLists(ew *errWriter, s *summarize.Summary) {
	if len(s.TopCategories) > 0 {
		ew.tbl([]string{"top categories", countTitle(s, "topCategories")}, left2, countRows(s.TopCategories))
	}
	if len(s.TopRules) > 0 {
		var rows [][]string
		for _, r := range s.TopRules {
			rows = append(rows, []string{r.Name, r.Tool, strconv.Itoa(r.Count)})
		}
		ew.tbl([]string{"top rules", "tool", countTitle(s, "topRules")}, []Align{AlignLeft, AlignLeft, AlignRight}, rows)
	}
	if len(s.TopFiles) > 0 {
		ew.tbl([]string{"top files", countTitle(s, "topFiles")}, left2, countRows(s.TopFiles))
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
		ew.printf("- %s\n", html.EscapeString(o.Marker())) // recap's own words and numbers
	}
	for _, s := range v.Suggestions {
		ew.printf("- to narrow: %s\n", MarkdownText(s))
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

// markdownFindings writes the page of findings and returns where each one
// ends in what it wrote, so that a cut falls between findings.
func markdownFindings(ew *errWriter, v *summarize.View) []int {
	p := v.Page
	if p == nil || p.Returned == 0 {
		return nil
	}
	n := &countingWriter{w: ew.w}
	ew.w = n
	what := pageItems(v)
	ew.printf("#### %s %d–%d of %d\n\n", strings.ToUpper(what[:1])+what[1:], p.Offset+1, p.Offset+p.Returned, p.Total)
	ends := make([]int, len(v.Findings))
	for i := range v.Findings {
		markdownFinding(ew, &v.Findings[i])
		markdownContext(ew, &v.Findings[i])
		ends[i] = n.n
	}
	ew.printf("\n")
	if p.NextOffset != nil {
		ew.printf("_%d more: next page at offset %d._\n", p.Total-*p.NextOffset, *p.NextOffset)
	}
	return ends
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}

// markdownFinding writes a finding's headline: the <summary> of a <details>
// that holds its context, or a list item when it has none.
func markdownFinding(ew *errWriter, f *summarize.FindingView) {
	line := fmt.Sprintf("%s <b>%s</b> <i>%s</i>%s <code>%s</code> %s: %s", ImportanceMark(&f.Finding), importanceLabel(&f.Finding),
		MarkdownText(findingFacts(&f.Finding)), markdownBaseline(f.Baseline),
		MarkdownText(location(f.Path, f.Line, f.Column)), MarkdownText(f.Tool+" "+DisplayRule(f.Rule, f.RuleName)),
		MarkdownText(f.Message))
	if also := alsoLine(f.AlsoReportedBy, MarkdownText); also != "" {
		line += " <i>(" + also + ")</i>"
	}
	if f.Triage != nil {
		line += " <i>(" + MarkdownText(TriageNote(f.Triage)) + ")</i>"
	}
	if len(f.Context) == 0 && f.ContextNote == "" && !describes(f.RuleInfo) {
		ew.printf("- %s\n", line)
		return
	}
	ew.printf("<details><summary>%s</summary>\n\n", line)
}

func markdownBaseline(state string) string {
	if state == "" {
		return ""
	}
	return " <i>" + state + "</i>"
}

// markdownContext writes the body of the finding's <details>: its context
// in a code block, or the note saying why there is none, then what the
// report says of its rule.
func markdownContext(ew *errWriter, f *summarize.FindingView) {
	if len(f.Context) == 0 && f.ContextNote == "" && !describes(f.RuleInfo) {
		return
	}
	if len(f.Context) > 0 {
		fence := codeFence(f.Context)
		ew.printf("%s\n", fence)
		for _, c := range f.Context {
			ew.printf("%d%s %s\n", c.Line, map[bool]string{true: ">", false: "|"}[c.Line == f.Line], CleanLine(c.Text))
		}
		ew.printf("%s\n", fence)
	}
	if f.ContextNote != "" {
		if len(f.Context) > 0 {
			ew.printf("\n")
		}
		ew.printf("_%s_\n", MarkdownText(f.ContextNote))
	}
	if r := f.RuleInfo; describes(r) {
		if len(f.Context) > 0 || f.ContextNote != "" {
			ew.printf("\n")
		}
		markdownRule(ew, f, r)
	}
	ew.printf("\n</details>\n\n")
}

// Bounds of a rule's texts under a finding in Markdown: the view of a
// page repeats a rule for each of its findings.
const (
	markdownRuleFull = 1000
	markdownRuleHelp = 1000
)

// markdownRule writes what the report says of a finding's rule, in a
// <details> of its own, inert as all report text.
func markdownRule(ew *errWriter, f *summarize.FindingView, r *reports.Rule) {
	title := r.Short
	if title == "" {
		title, _, _ = strings.Cut(r.Full, "\n")
	}
	summary := "Rule <code>" + MarkdownText(DisplayRule(f.Rule, f.RuleName)) + "</code>"
	if title != "" {
		summary += ": " + MarkdownText(text.CutRunes(title, 200))
	}
	ew.printf("<details><summary>%s</summary>\n\n", summary)
	if r.Full != "" && r.Full != title {
		ew.printf("%s\n\n", MarkdownBlock(r.Full, markdownRuleFull))
	}
	if r.Help != "" {
		ew.printf("%s\n\n", MarkdownBlock(r.Help, markdownRuleHelp))
	}
	if facts := ruleFacts(r); facts != "" {
		ew.printf("_%s_\n\n", MarkdownText(facts))
	}
	ew.printf("</details>\n")
}

// describes reports whether the report says something of the rule beyond
// its names: a description, help, or security facts.
func describes(r *reports.Rule) bool {
	return r != nil && (r.Short != "" || r.Full != "" || r.Help != "" || ruleFacts(r) != "")
}

// ruleFacts are a rule's security facts on one line: "CWE-89, CWE-564 ·
// security severity 8.8 · precision high"; "" when it has none.
func ruleFacts(r *reports.Rule) string {
	var parts []string
	if len(r.CWE) > 0 {
		ids := make([]string, len(r.CWE))
		for i, id := range r.CWE {
			ids[i] = "CWE-" + strconv.Itoa(id)
		}
		parts = append(parts, strings.Join(ids, ", "))
	}
	if r.SecuritySeverity > 0 {
		parts = append(parts, "security severity "+strconv.FormatFloat(r.SecuritySeverity, 'f', 1, 64))
	}
	if r.Precision != "" {
		parts = append(parts, "precision "+r.Precision)
	}
	return strings.Join(parts, " · ")
}

// cweList is " (CWE-89 ×2, CWE-79 ×1)", or "" without CWE ids: recap's
// words and numbers, safe in any format.
func cweList(top []summarize.Count) string {
	if len(top) == 0 {
		return ""
	}
	parts := make([]string, len(top))
	for i, c := range top {
		parts[i] = fmt.Sprintf("%s ×%d", c.Name, c.Count)
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// ImportanceMark is a finding's importance as a coloured dot, for
// Markdown: red for blocker and high, orange for medium, yellow for low,
// white for info; without an impact, its severity's (SeverityMark).
func ImportanceMark(f *reports.Finding) string {
	switch f.Impact {
	case reports.ImpactBlocker, reports.ImpactHigh:
		return "🔴"
	case reports.ImpactMedium:
		return "🟠"
	case reports.ImpactLow:
		return "🟡"
	case reports.ImpactInfo:
		return "⚪"
	}
	return SeverityMark(f.Severity)
}

// ImportanceHead is how Markdown lines about one finding begin: its mark,
// its impact in bold, then its quality and the severity its tool gave
// ("🔴 **high** security (tool's severity: note)"); the severity alone without an impact.
func ImportanceHead(f *reports.Finding) string {
	if !f.Impact.Valid() {
		return SeverityMark(f.Severity) + " **" + f.Severity.String() + "**"
	}
	head := ImportanceMark(f) + " **" + f.Impact.String() + "**"
	if f.Quality.Valid() {
		head += " " + f.Quality.String()
	}
	if f.Severity.Valid() {
		// The tool's own word, told apart from the levels recap counts
		// by importance ("low maintainability" of a Checkstyle error).
		head += " (tool's severity: " + f.Severity.String() + ")"
	}
	return head
}

// SeverityMark is a severity as a coloured dot, for Markdown.
func SeverityMark(s reports.Severity) string {
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
