package render

import (
	"encoding/json"
	"io"

	"github.com/recap-dev/recap/summarize"
)

// JSON writes the view with the field names of SPEC §6: indented for people,
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
	enc := json.NewEncoder(w)
	if indent {
		enc.SetIndent("", "  ")
	}
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
