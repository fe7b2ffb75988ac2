package render

import (
	"io"
	"strconv"

	"github.com/recap-dev/recap/summarize/tokens"
)

// tokensJSON writes a token count as JSON.
func tokensJSON(w io.Writer, r tokens.Report) error { return writeJSON(w, r) }

// tokensText writes a token count as a table with the total, then the
// recommendation.
func tokensText(w io.Writer, r tokens.Report) error {
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
		[]Align{AlignLeft, AlignRight, AlignRight, AlignRight}, rows)
	if r.Recommendation != "" {
		ew.printf("recommendation: %s\n", r.Recommendation)
	}
	return ew.err
}
