package render

import (
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/summarize"
)

// A DiffRenderer writes a whitespace-free diff view, and renders it whole
// and in parts for [summarize.FitDiff], so that a budget holds in every format.
type DiffRenderer interface {
	Render(w io.Writer, v *summarize.DiffView) error
	summarize.DiffLayout
}

func diffString(r DiffRenderer, v *summarize.DiffView) string {
	var b strings.Builder
	if err := r.Render(&b, v); err != nil {
		return ""
	}
	return b.String()
}

// A diff's paths and lines come from whoever wrote the changes: in text
// and Markdown they are made inert as report text is (PlainText for a
// path, CleanLine for a line of code: no escape sequence, C1 control or
// bidirectional override reaches a terminal or a log); JSON keeps them,
// escaped (see encodeJSON).

// fileLabel names a file as the view shows it: renames and copies as
// old → new.
func fileLabel(f *summarize.DiffFile) string {
	if f.OldPath != "" && f.OldPath != f.Path {
		return PlainText(f.OldPath) + " → " + PlainText(f.Path)
	}
	return PlainText(f.Path)
}

// fileChange says what happened to a file besides its hunks.
func fileChange(f *summarize.DiffFile) string {
	parts := []string{string(f.Status)}
	if f.Binary {
		parts = append(parts, "binary")
	}
	if f.Mode != "" {
		parts = append(parts, "mode "+f.Mode)
	}
	if f.Note != "" {
		parts = append(parts, f.Note)
	}
	return strings.Join(parts, ", ")
}

// DiffText writes the view for a terminal or a CI log:
//
//	2 files changed, 3 hunks (+7 −2); 1 whitespace-only hunk left out
//
//	modified  src/A.java           2 hunks  +5 −1
//	renamed   old.txt → new.txt    1 hunk   +2 −1
//
//	src/A.java @@ -10,6 +10,8 @@
//	 context
//	+added
type DiffText struct{}

// Render implements [DiffRenderer].
func (t DiffText) Render(w io.Writer, v *summarize.DiffView) error {
	ew := &errWriter{w: w}
	ew.printf("%s\n", v.Title())
	if len(v.Files) > 0 {
		ew.printf("\n")
	}
	for i := range v.Files {
		ew.printf("%s", t.File(&v.Files[i]))
	}
	for i := range v.Hunks {
		ew.printf("%s", t.Hunk(&v.Hunks[i]))
	}
	if len(v.Omitted) > 0 || len(v.Suggestions) > 0 || v.Tokens != nil {
		ew.printf("\n")
	}
	for _, o := range v.Omitted {
		ew.printf("%s\n", o.Marker())
	}
	for _, s := range v.Suggestions {
		ew.printf("to narrow: %s\n", s)
	}
	if v.Tokens != nil {
		ew.printf("%s\n", tokenLine(v.Tokens))
	}
	return ew.err
}

// View implements [summarize.DiffLayout].
func (t DiffText) View(v *summarize.DiffView) string { return diffString(t, v) }

// File implements [summarize.DiffLayout].
func (DiffText) File(f *summarize.DiffFile) string {
	counts := ""
	switch {
	case f.Hunks > 0:
		counts = fmt.Sprintf("  %s  +%d −%d", english.Plural(f.Hunks, "hunk", "hunks"), f.Added, f.Deleted)
	case f.Added+f.Deleted > 0:
		counts = fmt.Sprintf("  +%d −%d", f.Added, f.Deleted)
	}
	return fmt.Sprintf("%-8s  %s%s\n", fileChange(f), fileLabel(f), counts)
}

// Hunk implements [summarize.DiffLayout].
func (DiffText) Hunk(h *summarize.HunkView) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s %s\n", PlainText(h.Path), h.Header())
	for _, l := range h.Lines {
		b.WriteString(CleanLine(l))
		b.WriteByte('\n')
	}
	return b.String()
}

// DiffMarkdown writes the view as GitHub-flavoured Markdown: a headline,
// a table of files, then each hunk in a diff code block.
type DiffMarkdown struct{}

// Render implements [DiffRenderer].
func (m DiffMarkdown) Render(w io.Writer, v *summarize.DiffView) error {
	ew := &errWriter{w: w}
	ew.printf("### recap diff: %s\n", html.EscapeString(v.Title()))
	if len(v.Files) > 0 {
		ew.printf("\n%s", markdownFileHeader)
	}
	for i := range v.Files {
		ew.printf("%s", m.File(&v.Files[i]))
	}
	for i := range v.Hunks {
		ew.printf("%s", m.Hunk(&v.Hunks[i]))
	}
	if len(v.Omitted) > 0 || len(v.Suggestions) > 0 {
		ew.printf("\n")
	}
	for _, o := range v.Omitted {
		ew.printf("- %s\n", html.EscapeString(o.Marker()))
	}
	for _, s := range v.Suggestions {
		ew.printf("- to narrow: %s\n", html.EscapeString(s))
	}
	if v.Tokens != nil {
		ew.printf("\n_%s_\n", tokenLine(v.Tokens))
	}
	return ew.err
}

const markdownFileHeader = "| file | change | hunks | + | − |\n|:-----|:-------|------:|--:|--:|\n"

// View implements [summarize.DiffLayout].
func (m DiffMarkdown) View(v *summarize.DiffView) string { return diffString(m, v) }

// File implements [summarize.DiffLayout]: one table row.
func (DiffMarkdown) File(f *summarize.DiffFile) string {
	cells := []string{"`" + inlineCode(fileLabel(f)) + "`", fileChange(f),
		strconv.Itoa(f.Hunks), strconv.Itoa(f.Added), strconv.Itoa(f.Deleted)}
	for i, c := range cells {
		cells[i] = markdownCell.Replace(c)
	}
	return "| " + strings.Join(cells, " | ") + " |\n"
}

// Hunk implements [summarize.DiffLayout].
func (DiffMarkdown) Hunk(h *summarize.HunkView) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n`%s` `%s`\n\n", inlineCode(PlainText(h.Path)), h.Header())
	fence := fenceFor(h.Lines)
	b.WriteString(fence + "diff\n")
	for _, l := range h.Lines {
		b.WriteString(CleanLine(l))
		b.WriteByte('\n')
	}
	b.WriteString(fence + "\n")
	return b.String()
}

// fenceFor is a fence longer than any run of backticks in lines.
func fenceFor(lines []string) string {
	n := 3
	for _, l := range lines {
		run := 0
		for _, r := range l {
			if r == '`' {
				run++
				n = max(n, run+1)
			} else {
				run = 0
			}
		}
	}
	return strings.Repeat("`", n)
}

// DiffJSON writes the view with the field names of docs/formats.md ("The diff view"): indented for
// people, compact when it has a token budget.
type DiffJSON struct{}

// Render implements [DiffRenderer].
func (DiffJSON) Render(w io.Writer, v *summarize.DiffView) error {
	return encodeJSON(w, v, v.Tokens == nil)
}

// View implements [summarize.DiffLayout].
func (j DiffJSON) View(v *summarize.DiffView) string { return diffString(j, v) }

// File implements [summarize.DiffLayout].
func (DiffJSON) File(f *summarize.DiffFile) string { return compact(f) }

// Hunk implements [summarize.DiffLayout].
func (DiffJSON) Hunk(h *summarize.HunkView) string { return compact(h) }
