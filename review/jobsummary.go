package review

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/render"
)

// MaxJobSummary is GitHub's limit of a step's job summary
// ($GITHUB_STEP_SUMMARY): 1 MiB; a larger one is not shown.
const MaxJobSummary = 1 << 20

// JobSummary is the job summary of a review's findings: the counts, then
// every finding that fits GitHub's limit, grouped by file in collapsed
// <details> (files in the order of their first finding, findings in view
// order within a file), then where the others are. It keeps, while the
// findings stream by, the first of them whose lines fit in Room: its
// memory is bounded by Room.
type JobSummary struct {
	// Room is the bytes the summary may take: MaxJobSummary less what the
	// step's summary file holds already (0: MaxJobSummary).
	Room int
	// Order is the view's order (the zero value: importance).
	Order reports.Order
	p     picker
	seen  int
}

// Reserved bytes of the room: the counts before the list and the closing
// line after it (the counts' tables are bounded by summarize's top lists).
const jobSummaryReserve = 16 << 10

// Add offers f.
func (j *JobSummary) Add(f *reports.Finding) {
	if j.p.budget == 0 {
		j.p.budget = max(j.room()-jobSummaryReserve, 1)
	}
	j.seen++
	j.p.order = j.Order
	line := jobLine(f)
	g := *f
	g.Detail = nil // the line is made: the rest of the finding orders it
	j.p.add(&g, len(line), line)
}

func (j *JobSummary) room() int {
	if j.Room <= 0 || j.Room > MaxJobSummary {
		return MaxJobSummary
	}
	return j.Room
}

// JobSummaryInput is what the summary says besides the findings.
type JobSummaryInput struct {
	// View holds the summary of the findings given to Add.
	View *summarize.View
	// Where says which findings were kept ("on changed lines", "in the
	// reports"); Outside and NotInHead count those left out.
	Where              string
	Outside, NotInHead int
	// Rest says where every finding is: "the SARIF file (the action's
	// sarif input) or `recap findings --format json`".
	Rest string
	// Trend is the earlier runs whose problems by impact the summary
	// draws (recap's JSON summaries, --history), oldest first; nil: none.
	Trend []render.HistoryRun
	// Index, with changed lines only, is their index: the files a tool
	// could not analyse are named when they changed (nil: every one).
	Index *diff.Index
}

// Write writes the job summary: it takes at most Room bytes.
func (j *JobSummary) Write(w io.Writer, in JobSummaryInput) error {
	var b strings.Builder
	s := in.View.Summary
	fmt.Fprintf(&b, "### recap: %s %s\n\n", english.Plural(s.Total, "finding", "findings"), in.Where)
	fmt.Fprintf(&b, "%s.", countsLine(&s))
	writeProblems(&b, &s, "listed")
	if in.Outside > 0 {
		fmt.Fprintf(&b, " %s in the reports %s not %s (not listed).", english.Plural(in.Outside, "more finding", "more findings"),
			map[bool]string{true: "is", false: "are"}[in.Outside == 1], in.Where)
	}
	b.WriteString("\n\n")
	if in.NotInHead > 0 {
		fmt.Fprintf(&b, "%s on lines of the merge commit that the pull request's head has not (from the base branch): not listed.\n\n",
			english.Plural(in.NotInHead, "finding is", "findings are"))
	}
	writeCounts(&b, in.View)
	b.WriteString(render.MarkdownTrend("Trend", in.Trend))
	writeNotAnalysed(&b, in.View, in.Index)
	kept := j.p.sorted()
	dropped := j.p.dropped
	groups := groupByFile(kept)
	foot := func(n int) string {
		if n == 0 {
			return ""
		}
		return fmt.Sprintf("\n_%s did not fit GitHub's 1 MiB job summary: %s %s._\n", english.Plural(n, "more finding", "more findings"),
			map[bool]string{true: "it is in", false: "they are in"}[n == 1], render.MarkdownText(in.Rest))
	}
	// Leave out the last findings until the whole fits (group headers and
	// the counts were not in the picker's budget).
	size := b.Len() + len(foot(dropped+len(kept)))
	for _, g := range groups {
		size += g.size()
	}
	for len(groups) > 0 && size > j.room() {
		last := &groups[len(groups)-1]
		size -= last.size()
		last.items = last.items[:len(last.items)-1]
		dropped++
		if len(last.items) == 0 {
			groups = groups[:len(groups)-1]
		} else {
			size += last.size()
		}
		size += len(foot(dropped)) - len(foot(dropped-1))
	}
	if len(groups) > 0 {
		fmt.Fprintf(&b, "#### Findings by file (%d listed)\n\n", j.seen-dropped)
	}
	for _, g := range groups {
		b.WriteString(g.header())
		for _, it := range g.items {
			b.WriteString(it.text)
		}
		b.WriteString("\n</details>\n\n")
	}
	b.WriteString(foot(dropped))
	_, err := io.WriteString(w, b.String())
	return err
}

// fileGroup is the findings of one file, in view order.
type fileGroup struct {
	path  string
	items []picked
}

func (g *fileGroup) header() string {
	var by [3]int
	for _, it := range g.items {
		switch it.f.Level() { // the level its annotation shows
		case reports.SeverityError:
			by[0]++
		case reports.SeverityWarning:
			by[1]++
		default:
			by[2]++
		}
	}
	var parts []string
	for i, name := range []string{"error", "warning", "note"} {
		if by[i] > 0 {
			parts = append(parts, strconv.Itoa(by[i])+" "+name)
		}
	}
	path := g.path
	if path == "" {
		path = "(no file)"
	}
	return fmt.Sprintf("<details><summary><code>%s</code>: %s</summary>\n\n", render.MarkdownText(path), strings.Join(parts, ", "))
}

func (g *fileGroup) size() int {
	n := len(g.header()) + len("\n</details>\n\n")
	for _, it := range g.items {
		n += len(it.text)
	}
	return n
}

// groupByFile groups findings in view order by file, the files in the
// order of their first finding.
func groupByFile(kept []picked) []fileGroup {
	var groups []fileGroup
	at := map[string]int{}
	for _, p := range kept {
		i, ok := at[p.f.Path]
		if !ok {
			i = len(groups)
			at[p.f.Path] = i
			groups = append(groups, fileGroup{path: p.f.Path})
		}
		groups[i].items = append(groups[i].items, p)
	}
	return groups
}

// jobLine is a finding as a line of its file's list.
func jobLine(f *reports.Finding) string {
	where := "file"
	switch {
	case f.Line > 0 && f.EndLine > f.Line:
		where = fmt.Sprintf("lines %d–%d", f.Line, f.EndLine)
	case f.Line > 0:
		where = "line " + strconv.Itoa(f.Line)
	}
	note := ""
	if f.Baseline == reports.BaselineNew {
		note = " · _new_"
	}
	if f.Detail != nil && len(f.Detail.Also) > 0 {
		note += " · _" + render.MarkdownText(render.AlsoReportedBy(f.Detail.Also)) + "_"
	}
	if f.Triage != nil {
		note += " · _" + render.MarkdownText(render.TriageNote(f.Triage)) + "_"
	}
	return fmt.Sprintf("- %s %s · %s %s: %s%s\n", render.ImportanceHead(f), where, render.MarkdownText(f.Tool), ruleName(f),
		render.MarkdownText(text.CutBytes(render.PlainText(f.Message), 500)), note)
}
