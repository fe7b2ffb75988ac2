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
	if !strings.ContainsAny(s, gitLabSigils+"<]:.") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ':' && strings.HasPrefix(s[i:], "://") {
			b.WriteString(zwj)
		}
		b.WriteByte(c)
		if i+1 >= len(s) {
			continue
		}
		next := s[i+1]
		switch {
		case strings.IndexByte(gitLabSigils, c) >= 0 && (isWordByte(next) || next == '"' || next >= 0x80):
			b.WriteString(zwj)
		case c == '<' && (isWordByte(next) || next == '/' || next == '!' || next == '?'):
			b.WriteString(zwj)
		case c == ']' && next == '(':
			b.WriteString(zwj)
		case c|0x20 == 'w' && next == '.' && i >= 2 && strings.EqualFold(s[i-2:i+1], "www"):
			b.WriteString(zwj)
		}
	}
	return b.String()
}
