package render

import (
	"fmt"
	"io"
	"strconv"

	"github.com/olekukonko/tablewriter/tw"
	"github.com/recap-dev/recap/summarize/tokens"
)

// Tokens writes a token count in a format: a table with the total and the
// recommendation (text), or the report as JSON.
func Tokens(w io.Writer, format string, r tokens.Report) error {
	switch format {
	case "json":
		return writeJSON(w, r)
	case "text":
	default:
		return fmt.Errorf("unknown output format %q for token counts (want text or json)", format)
	}
	ew := &errWriter{w: w}
	rows := make([][]string, 0, len(r.Files)+1)
	for _, f := range append(append([]tokens.File{}, r.Files...), r.Total) {
		n := strconv.Itoa(f.Tokens)
		if f.Estimated {
			n = "~" + n
		}
		if f.Error != "" {
			n = "error: " + PlainText(f.Error)
		}
		rows = append(rows, []string{PlainText(f.Path), strconv.FormatInt(f.Bytes, 10), strconv.FormatInt(f.Lines, 10), n})
	}
	ew.tbl([]string{"file", "bytes", "lines", "tokens (" + r.Tokenizer + ")"},
		[]tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight}, rows)
	if r.Recommendation != "" {
		ew.printf("recommendation: %s\n", r.Recommendation)
	}
	return ew.err
}
