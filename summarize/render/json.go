package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/recap-dev/recap/summarize"
)

// JSON writes the view with the field names of docs/formats.md ("The view"): indented for people,
// or compact when the view has a token budget (summarize.Fit measured it so).
type JSON struct{}

// Render implements [Renderer].
func (JSON) Render(w io.Writer, v *summarize.View) error {
	if v.Tokens != nil {
		return encodeJSON(w, v, false)
	}
	return encodeJSON(w, v, true)
}

func writeJSON(w io.Writer, v any) error { return encodeJSON(w, v, true) }

func encodeJSON(w io.Writer, v any, indent bool) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	if indent {
		enc.SetIndent("", "  ")
	}
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(EscapeJSON(b.Bytes()))
	return err
}

// EscapeJSON writes as \u escapes, in encoded JSON, the characters that
// [Clean] removes from text and encoding/json leaves raw: DEL, the C1
// controls (U+0080–U+009F, among them CSI U+009B, which a terminal obeys
// as ESC [), and the bidirectional overrides and isolates (U+202A–U+202E,
// U+2066–U+2069, which reorder what a log or a pull request shows). JSON
// holds them only in strings, where an escape means the same character:
// the values are unchanged, but a log or a code host that shows the JSON
// shows the escape. b is changed in place when nothing is to be escaped.
func EscapeJSON(b []byte) []byte {
	i := nextEscape(b)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i >= 0 {
		out = append(out, b[:i]...)
		r, size := utf8.DecodeRune(b[i:])
		out = append(out, fmt.Sprintf(`\u%04x`, r)...)
		b = b[i+size:]
		i = nextEscape(b)
	}
	return append(out, b...)
}

// nextEscape is where the next character EscapeJSON escapes starts, or -1.
func nextEscape(b []byte) int {
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == 0x7f:
			return i
		case c == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9f:
			return i
		case c == 0xe2 && i+2 < len(b) && (b[i+1] == 0x80 && b[i+2] >= 0xaa && b[i+2] <= 0xae || b[i+1] == 0x81 && b[i+2] >= 0xa6 && b[i+2] <= 0xa9):
			return i
		}
	}
	return -1
}

// View implements [summarize.Layout].
func (j JSON) View(v *summarize.View) string { return renderString(j, v) }

// TopLists implements [summarize.Layout]: the three lists as they sit in the summary.
func (JSON) TopLists(s *summarize.Summary) string {
	return compact(struct {
		TopCategories []summarize.Count     `json:"topCategories"`
		TopRules      []summarize.RuleCount `json:"topRules"`
		TopFiles      []summarize.Count     `json:"topFiles"`
	}{s.TopCategories, s.TopRules, s.TopFiles})
}

// Finding implements [summarize.Layout].
func (JSON) Finding(f *summarize.FindingView) string {
	bare := *f
	bare.Context, bare.ContextNote = nil, ""
	return compact(bare)
}

// Context implements [summarize.Layout].
func (JSON) Context(f *summarize.FindingView) string {
	return compact(struct {
		Context     []summarize.ContextLine `json:"context,omitempty"`
		ContextNote string                  `json:"contextNote,omitempty"`
	}{f.Context, f.ContextNote})
}

func compact(v any) string {
	var b strings.Builder
	if err := encodeJSON(&b, v, false); err != nil {
		return ""
	}
	return b.String()
}
