package render

// GitLabText as recap wrote it before its shortcut for text without a
// reference, the reference GitLabText is compared with.

import "strings"

func gitLabTextRef(s string) string {
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
