package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// hostileStrings are report text a writer must escape as encoding/json
// does: controls of every kind, markup, invalid UTF-8, the separators and
// the bidirectional controls, each alone, at the start, the middle and
// the end of plain text.
var hostileStrings = func() []string {
	cores := []string{
		"", "plain text", `"quoted" and \backslash\`, "</script><script>alert(1)</script>", "<!-- a & b -->",
		"\x00\x01\x07\b\t\n\v\f\r\x1b[31m\x1f", "\x7f", "\u0080\u0085\u009b\u009f", "\u00a0é€𝄞",
		"\u2028\u2029", "\u202a\u202b\u202c\u202d\u202e", "\u2066\u2067\u2068\u2069", "\u200e\u200f\u061c\u2060\ufeff",
		"\xff", "\xc0\xaf", "\xed\xa0\x80", "\xe2\x80", "\xe2\x80\xa8\xe2", "\xf4\x90\x80\x80", "\ufffd",
		"javascript:alert(1)", "::error::x", "@mention #123", strings.Repeat("a<", 100), strings.Repeat("é", 1000),
	}
	var out []string
	for _, c := range cores {
		out = append(out, c, "x"+c, c+"y", "before "+c+" after", c+c)
	}
	return out
}()

// TestJSONTextAsMarshal: appendJSONText writes every hostile string as
// encoding/json's Marshal does (escMarshal), and as Marshal then
// EscapeJSON do (escLog).
func TestJSONTextAsMarshal(t *testing.T) {
	for _, s := range hostileStrings {
		checkJSONText(t, s)
	}
}

func checkJSONText(t *testing.T, s string) {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := appendJSONText([]byte("prefix"), s, escMarshal); !bytes.Equal(got, append([]byte("prefix"), want...)) {
		t.Errorf("escMarshal of %q: %s, want %s", s, got[len("prefix"):], want)
	}
	want = EscapeJSON(want)
	if got := appendJSONText(nil, s, escLog); !bytes.Equal(got, want) {
		t.Errorf("escLog of %q: %s, want %s", s, got, want)
	}
}

// FuzzJSONText compares appendJSONText with encoding/json (and
// EscapeJSON) on any string.
func FuzzJSONText(f *testing.F) {
	for _, s := range hostileStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkJSONText(t, s) })
}

func BenchmarkJSONText(b *testing.B) {
	for _, bc := range []struct{ name, s string }{
		{"plain", "Avoid using Literals in Conditional Statements: the literal 42 in a condition"},
		{"markup", "Parameter <T> of method 'foo' & \"bar\" should be final."},
		{"unicode", "Le paramètre « net » devrait être final — défini à la ligne 12."},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var buf []byte
			for b.Loop() {
				buf = appendJSONText(buf[:0], bc.s, escLog)
			}
		})
	}
}
