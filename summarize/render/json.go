package render

import (
	"encoding/json"
	"io"
	"strings"

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
	enc := json.NewEncoder(w)
	if indent {
		enc.SetIndent("", "  ")
	}
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// AlwaysFitted implements [Fitted]: JSON output always has a budget.
func (JSON) AlwaysFitted() {}

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
