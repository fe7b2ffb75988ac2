// Package text cuts text to a bound the way recap's outputs and messages
// do: on a character, the cut marked with "…" within the bound; and joins
// words into a list as messages write it.
package text

import (
	"strings"
	"unicode/utf8"
)

// Ellipsis marks where text was cut.
const Ellipsis = "…"

// CutBytes cuts s to at most n bytes, "…" included, on a character's
// start; s when it fits.
func CutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	m := max(n-len(Ellipsis), 0)
	for m > 0 && !utf8.RuneStart(s[m]) {
		m--
	}
	return s[:m] + Ellipsis
}

// CutRunes cuts s to at most n characters, "…" included; s when it fits.
// It does not copy s to count (a long line stays where it is).
func CutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	count := 0
	for i := range s {
		if count == n-1 { // s[i:] is the nth character on
			if _, size := utf8.DecodeRuneInString(s[i:]); i+size < len(s) {
				return s[:i] + Ellipsis
			}
			return s
		}
		count++
	}
	return s
}

// List joins items with commas, the last two with conj: List(x, "or") is
// "a", "a or b", "a, b or c"; with conj "" every two are joined with a
// comma.
func List(items []string, conj string) string {
	if conj == "" || len(items) < 2 {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + conj + " " + items[len(items)-1]
}
