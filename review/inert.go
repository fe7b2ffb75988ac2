package review

import (
	"strings"

	"github.com/recap-dev/recap/summarize/render"
)

// zwj is the zero-width joiner that breaks a reference: it does not show,
// and it is not a word character, so no reference pattern matches across it.
const zwj = "\u200d"

// esc makes report text inert in GitHub's Markdown: no HTML, no hidden
// marker, no link, image, mention or reference. render.MarkdownText does
// most of it (a zero-width joiner after @ and #, entities for the rest);
// esc breaks as well the other references GitHub documents as autolinked
// ("Autolinked references and URLs"): GH-26, and a commit SHA (a5c3785…,
// 7 to 40 hex digits standing alone as a word), with a zero-width joiner
// after the "GH-" and after every sixth digit of the SHA.
func esc(s string) string { return breakRefs(render.MarkdownText(s)) }

// breakRefs breaks GH-<number> and commit SHAs in text that is already
// Markdown-inert (entities are left whole: a word never spans one).
func breakRefs(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if !isWord(s[i]) {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && isWord(s[j]) {
			j++
		}
		word := s[i:j]
		// A word right after "&#" or "&" is an entity's number or name.
		entity := i > 0 && (s[i-1] == '#' && i > 1 && s[i-2] == '&' || s[i-1] == '&') && j < len(s) && s[j] == ';'
		switch {
		case entity:
			b.WriteString(word)
		case isSHA(word):
			for len(word) > 6 { // no run of 7 hex digits is left
				b.WriteString(word[:6] + zwj)
				word = word[6:]
			}
			b.WriteString(word)
		case len(word) == 2 && strings.EqualFold(word, "GH") && j+1 < len(s) && s[j] == '-' && s[j+1] >= '0' && s[j+1] <= '9':
			b.WriteString(word + "-" + zwj)
			j++
		default:
			b.WriteString(word)
		}
		i = j
	}
	return b.String()
}

// isWord reports a byte of a word as GitHub's reference patterns see one
// (\w: letters, digits, _); bytes of non-ASCII runes are not.
func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
}

// isSHA reports a word of 7 to 40 hex digits, with a letter and a digit
// (a number alone, or a word like "defaced", is not taken for a commit).
func isSHA(w string) bool {
	if len(w) < 7 || len(w) > 40 {
		return false
	}
	digit, letter := false, false
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c|0x20 >= 'a' && c|0x20 <= 'f':
			letter = true
		default:
			return false
		}
	}
	return digit && letter
}
