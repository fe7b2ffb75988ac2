package render

import "strings"

// GitLab turns more of a text into links and actions than GitHub does: its
// reference filters run on the text of the rendered Markdown, so that @user,
// #123 (issue), !123 (merge request), &123 (epic), %"1.0" (milestone),
// ~bug (label), $123 (snippet) and ^alert#1 link or notify wherever they
// are, even inside an entity (&amp;123 is the text &123). A note whose line
// starts with / runs a quick action (/merge, /approve, /close). The helpers
// below make report text inert for GitLab with a zero-width joiner after
// each such sigil, which breaks every reference pattern and does not show.

// gitLabSigils start a GitLab reference when a word follows them.
const gitLabSigils = "@#!&%~$^"

// GitLabText is report text for a place GitLab shows as text and may render
// as Markdown (the description of a Code Quality issue): [PlainText], with a
// zero-width joiner after a reference sigil followed by a word, a quote or a
// digit, after a < that could open an HTML tag, between the ] and ( of a
// Markdown link, after "www" before a dot and before the "://" of a URL, so
// that no reference, mention, tag, link or image is made. [StripGitLabJoiners]
// undoes it.
func GitLabText(s string) string {
	s = PlainText(s)
	first := -1 // the first byte a joiner goes before or after
	for i := 0; i < len(s); i++ {
		if gitLabMark[s[i]] != 0 && (gitLabJoinerBefore(s, i) || gitLabJoinerAfter(s, i)) {
			first = i
			break
		}
	}
	if first < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	b.WriteString(s[:first])
	for i := first; i < len(s); i++ {
		if gitLabMark[s[i]] == 0 {
			b.WriteByte(s[i])
			continue
		}
		if gitLabJoinerBefore(s, i) {
			b.WriteString(zwj)
		}
		b.WriteByte(s[i])
		if gitLabJoinerAfter(s, i) {
			b.WriteString(zwj)
		}
	}
	return b.String()
}

// gitLabMark marks the bytes a joiner may go before or after: the
// sigils (1), <, ], w and W, and the : of ://.
var gitLabMark = func() (m [256]uint8) {
	for i := 0; i < len(gitLabSigils); i++ {
		m[gitLabSigils[i]] = 1
	}
	for _, c := range "<]wW:" {
		m[c] = 2
	}
	return m
}()

// gitLabJoinerBefore says that a joiner goes before s[i]: the ":" of "://".
func gitLabJoinerBefore(s string, i int) bool {
	return s[i] == ':' && strings.HasPrefix(s[i:], "://")
}

// gitLabJoinerAfter says that a joiner goes after s[i]: a sigil before a
// word, a quote or a character not ASCII; a < that could open a tag; the ]
// of ](; the last w of "www.".
func gitLabJoinerAfter(s string, i int) bool {
	if i+1 >= len(s) {
		return false
	}
	c, next := s[i], s[i+1]
	switch {
	case gitLabMark[c] == 1 && (isWordByte(next) || next == '"' || next >= 0x80):
		return true
	case c == '<' && (isWordByte(next) || next == '/' || next == '!' || next == '?'):
		return true
	case c == ']' && next == '(':
		return true
	case c|0x20 == 'w' && next == '.' && i >= 2 && strings.EqualFold(s[i-2:i+1], "www"):
		return true
	}
	return false
}
