package render

import (
	"encoding/json"
	"io"

	"github.com/recap-dev/recap/summarize"
)

// JSON writes the view as indented JSON with the field names of SPEC §6.
type JSON struct{}

// Render implements [Renderer].
func (JSON) Render(w io.Writer, v *summarize.View) error { return writeJSON(w, v) }

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
