package render

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
)

// Align is how a table's column aligns its cells.
type Align uint8

const (
	AlignLeft Align = iota
	AlignRight
)

// left2 aligns a name and a count.
var left2 = []Align{AlignLeft, AlignRight}

// table writes one ASCII table: header as given (not upper-cased), numbers
// aligned right where the column says so.
//
//	+------+-------+
//	| tool | count |
//	+------+-------+
//	| PMD  |     3 |
//	+------+-------+
func table(w io.Writer, header []string, align []Align, rows [][]string) error {
	t := layTable(header, rows)
	var b strings.Builder
	border := func() {
		b.WriteByte('+')
		for _, n := range t.widths {
			b.WriteString(strings.Repeat("-", n+2))
			b.WriteByte('+')
		}
		b.WriteByte('\n')
	}
	border()
	t.line(&b, t.header, nil)
	border()
	for _, r := range t.rows {
		t.line(&b, r, align)
	}
	if len(t.rows) > 0 {
		border()
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// markdownCell escapes what a Markdown table would take as its own: a |
// breaks the row, a newline starts a new row, and HTML reaches GitHub as
// HTML.
var markdownCell = strings.NewReplacer("|", `\|`, "\r\n", "<br>", "\n", "<br>", "<", "&lt;", ">", "&gt;", "&", "&amp;")

// markdownTable writes one GitHub-flavoured Markdown table, cells made
// inert by [MarkdownText].
//
//	| tool | count |
//	|:-----|------:|
//	| PMD  |     3 |
func markdownTable(w io.Writer, header []string, align []Align, rows [][]string) error {
	esc := make([][]string, len(rows))
	for i, r := range rows {
		esc[i] = make([]string, len(r))
		for j, c := range r {
			esc[i][j] = MarkdownText(c)
		}
	}
	t := layTable(header, esc)
	for i := range t.widths {
		t.widths[i] = max(t.widths[i], 1) // a separator of three characters at least
	}
	var b strings.Builder
	t.line(&b, t.header, nil)
	b.WriteByte('|')
	for i, n := range t.widths {
		// A table of no rows says every column is aligned left, as its
		// header is.
		if len(t.rows) > 0 && alignOf(align, i) == AlignRight {
			b.WriteString(strings.Repeat("-", n+1))
			b.WriteString(":|")
		} else {
			b.WriteByte(':')
			b.WriteString(strings.Repeat("-", n+1))
			b.WriteByte('|')
		}
	}
	b.WriteByte('\n')
	for _, r := range t.rows {
		t.line(&b, r, align)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// laidTable is a table's cells, trimmed, as many in each row as the
// widest row has (the missing ones empty), and each column's width.
type laidTable struct {
	header []string
	rows   [][]string
	widths []int
}

func layTable(header []string, rows [][]string) laidTable {
	cols := len(header)
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	t := laidTable{widths: make([]int, cols)}
	fill := func(r []string) []string {
		out := make([]string, cols)
		for i, c := range r {
			out[i] = strings.TrimSpace(c)
			t.widths[i] = max(t.widths[i], cellWidth(out[i]))
		}
		return out
	}
	t.header = fill(header)
	t.rows = make([][]string, len(rows))
	for i, r := range rows {
		t.rows[i] = fill(r)
	}
	return t
}

// line writes a row of cells: aligned by align (nil: all to the left).
func (t *laidTable) line(b *strings.Builder, cells []string, align []Align) {
	b.WriteByte('|')
	for i, c := range cells {
		pad := strings.Repeat(" ", t.widths[i]-cellWidth(c))
		b.WriteByte(' ')
		if alignOf(align, i) == AlignRight {
			b.WriteString(pad)
			b.WriteString(c)
		} else {
			b.WriteString(c)
			b.WriteString(pad)
		}
		b.WriteString(" |")
	}
	b.WriteByte('\n')
}

func alignOf(align []Align, i int) Align {
	if i < len(align) {
		return align[i]
	}
	return AlignLeft
}

// cellWidth is the columns a cell takes on a terminal: each rune's width
// (East Asian ambiguous characters narrow), as tables of text count it.
func cellWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= ' ' && c != 0x7f {
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n += displaywidth.Options{}.Rune(r)
		i += size
	}
	return n
}
