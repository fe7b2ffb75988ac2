package render

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// tablewriterTable is how the text and Markdown outputs wrote their tables
// before they wrote them themselves: olekukonko/tablewriter v1.1.5 (MIT),
// with these options. The tables must stay the same bytes.
func tablewriterTable(markdown bool, header []string, align []Align, rows [][]string) string {
	var rend tw.Renderer = renderer.NewBlueprint(tw.Rendition{Symbols: tw.NewSymbols(tw.StyleASCII)})
	if markdown {
		rend = renderer.NewMarkdown()
		esc := make([][]string, len(rows))
		for i, r := range rows {
			esc[i] = make([]string, len(r))
			for j, c := range r {
				esc[i][j] = MarkdownText(c)
			}
		}
		rows = esc
	}
	al := make([]tw.Align, len(align))
	for i, a := range align {
		al[i] = tw.AlignLeft
		if a == AlignRight {
			al[i] = tw.AlignRight
		}
	}
	var b bytes.Buffer
	t := tablewriter.NewTable(&b,
		tablewriter.WithRenderer(rend),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: al}),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
	)
	t.Header(header)
	if err := t.Bulk(rows); err != nil {
		return "error: " + err.Error()
	}
	if err := t.Render(); err != nil {
		return "error: " + err.Error()
	}
	return b.String()
}

// tableCells are pieces of the cells the reference test draws, text of
// every width a table meets (CJK, emoji, combining marks, zero-width
// joiners, East Asian ambiguous letters, Markdown's own characters).
var tableCells = []string{"", "a", "PMD", "(none)", "0", "42", "1234567", "src/main/java/A.java", "日本語", "é", "e\u0301", "a\u200db", "😀", "👍🏽",
	"ΩΣ", "±", "→", "|", "<b>", "a & b", "x_y*z", "@param", "#12", "tool's severity", "Ａ", "\u00a0", " lead", "trail ", "two  spaces", "ﾊﾝｶｸ"}

func randomTable(r *rand.Rand) (header []string, align []Align, rows [][]string) {
	cell := func() string {
		n := r.IntN(3)
		var parts []string
		for range n + 1 {
			parts = append(parts, tableCells[r.IntN(len(tableCells))])
		}
		return PlainText(strings.Join(parts, " "))
	}
	cols := 1 + r.IntN(5)
	for range cols {
		header = append(header, cell())
		align = append(align, Align(r.IntN(2)))
	}
	if r.IntN(4) == 0 {
		align = align[:r.IntN(len(align)+1)] // fewer alignments than columns
	}
	for range r.IntN(6) {
		n := cols
		if r.IntN(5) == 0 {
			n = 1 + r.IntN(cols+1) // a ragged row
		}
		var row []string
		for range n {
			row = append(row, cell())
		}
		rows = append(rows, row)
	}
	return header, align, rows
}

// TestTablesAsTablewriter writes random tables of the cells the outputs
// put in them (report text made plain, or inert Markdown) both ways and
// compares the bytes.
func TestTablesAsTablewriter(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 3000 {
		header, align, rows := randomTable(r)
		if err := sameAsTablewriter(header, align, rows); err != nil {
			t.Fatalf("table %d: %v", i, err)
		}
	}
}

// sameAsTablewriter writes the table both ways, ASCII and Markdown, and
// says how they differ.
func sameAsTablewriter(header []string, align []Align, rows [][]string) error {
	for _, markdown := range []bool{false, true} {
		var b bytes.Buffer
		write := table
		if markdown {
			write = markdownTable
		}
		if err := write(&b, header, align, rows); err != nil {
			return err
		}
		if want := tablewriterTable(markdown, header, align, rows); b.String() != want {
			return fmt.Errorf("markdown %v, header %q, align %v, rows %q:\n%s\nwant\n%s", markdown, header, align, rows, b.String(), want)
		}
	}
	return nil
}

// FuzzTablesAsTablewriter compares the tables on cells of any text, made
// plain as the outputs make them: the text split into rows at '\n' and
// cells at '\t' (before PlainText folds them), the first row the header.
func FuzzTablesAsTablewriter(f *testing.F) {
	for _, s := range []string{"a\tb\nx\t1", "日本\t😀\ne\u0301\t22\n\t", "|\t<\n&amp;\t@x\n#1", "\u00a0\t\u3000x\nＡ"} {
		f.Add(s, uint8(1))
	}
	f.Fuzz(func(t *testing.T, s string, alignBits uint8) {
		lines := strings.Split(s, "\n")
		if len(lines) > 8 {
			lines = lines[:8]
		}
		var header []string
		var rows [][]string
		for i, l := range lines {
			var cells []string
			for c := range strings.SplitSeq(l, "\t") {
				cells = append(cells, PlainText(c))
			}
			if len(cells) > 6 {
				cells = cells[:6]
			}
			if i == 0 {
				header = cells
			} else {
				rows = append(rows, cells)
			}
		}
		var align []Align
		for i := range len(header) {
			align = append(align, Align(alignBits>>i&1))
		}
		if err := sameAsTablewriter(header, align, rows); err != nil {
			t.Fatal(err)
		}
	})
}
