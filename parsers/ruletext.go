package parsers

import (
	"fmt"
	"html"
	"strings"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
)

// warnRules adds a warning when the input's rule table left rules out, or
// cut or left out their texts, to keep its bounds; a rule that was its id
// alone is not counted (it loses nothing).
func warnRules(in *reports.Input) {
	if in.Rules == nil {
		return
	}
	if n := in.Rules.Left; n > 0 {
		in.Warn(fmt.Sprintf("%s past the rule table's %d left out: their findings show no rule description",
			english.Plural(n, "rule", "rules"), reports.MaxRules))
	}
	if n := in.Rules.Cut; n > 0 {
		in.Warn(fmt.Sprintf("%s of the rules cut to the rule table's bounds (%d KiB a text, %d MiB in all)",
			english.Plural(n, "text", "texts"), reports.MaxRuleText>>10, reports.MaxRuleBytes>>20))
	}
}

// ruleText normalizes a rule's description or help as tools write it:
// HTML (Checkstyle's SARIF, SpotBugs' Details) becomes text, line ends
// become \n, the common indentation of the lines is removed (PMD indents
// its descriptions as in its XML rulesets), trailing spaces and leading and
// trailing blank lines go, and runs of blank lines become one.
func ruleText(s string) string {
	if s == "" {
		return ""
	}
	// What the rule table keeps is far shorter: a long text (SpotBugs'
	// Details may hold up to maxBugText) is cut before it is worked on.
	s = text.CutBytes(s, 4*reports.MaxRuleText)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	if looksHTML(s) {
		s = htmlText(s)
	}
	lines := strings.Split(s, "\n")
	indent := -1
	for i, l := range lines {
		l = strings.TrimRight(l, " \t")
		lines[i] = l
		if l == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	var b strings.Builder
	blank := false
	for _, l := range lines {
		if l == "" {
			blank = b.Len() > 0
			continue
		}
		if blank {
			b.WriteString("\n\n")
		} else if b.Len() > 0 {
			b.WriteByte('\n')
		}
		blank = false
		b.WriteString(l[min(indent, len(l)):])
	}
	return b.String()
}

// looksHTML reports whether a text is HTML rather than plain text or
// Markdown: it has one of the block or inline tags tools write.
func looksHTML(s string) bool {
	if !strings.Contains(s, "<") {
		return false
	}
	l := strings.ToLower(s)
	for _, tag := range []string{"<p>", "<p ", "</p>", "<div", "<br", "<code>", "<pre>", "<ul>", "<li>", "<b>", "<i>", "<em>", "<a href"} {
		if strings.Contains(l, tag) {
			return true
		}
	}
	return false
}

// htmlText turns the HTML of a rule's description into text: paragraphs,
// line breaks and list items become lines, code becomes `code`, a <pre>
// block lines indented by four spaces, other tags go, entities are
// decoded. It is no HTML parser: the text is shown, never rendered as HTML.
func htmlText(s string) string {
	var b strings.Builder
	low := asciiLower(s) // s's bytes, ASCII letters lower-cased: offsets agree
	for len(s) > 0 {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(html.UnescapeString(s))
			break
		}
		b.WriteString(html.UnescapeString(s[:i]))
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			b.WriteString(html.UnescapeString(s[i:]))
			break
		}
		if low[len(low)-len(s)+i:][:j+1] == "<pre>" {
			rest := s[i+j+1:]
			end := strings.Index(low[len(low)-len(rest):], "</pre>")
			if end < 0 {
				end = len(rest)
			}
			b.WriteString("\n\n")
			for _, l := range strings.Split(strings.Trim(html.UnescapeString(stripTags(rest[:end])), "\r\n"), "\n") {
				b.WriteString(preMark + l + "\n")
			}
			b.WriteString("\n")
			s = rest[min(end+len("</pre>"), len(rest)):]
			continue
		}
		tag := strings.ToLower(strings.Trim(s[i+1:i+j], "/ \t\n"))
		if k := strings.IndexAny(tag, " \t\n"); k >= 0 {
			tag = tag[:k]
		}
		switch tag {
		case "p", "div", "pre", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote":
			b.WriteString("\n\n")
		case "br", "tr", "dt", "dd":
			b.WriteString("\n")
		case "li":
			if !strings.HasPrefix(s[i+1:], "/") {
				b.WriteString("\n- ")
			}
		case "code", "tt":
			b.WriteString("`")
		}
		s = s[i+j+1:]
	}
	// Inside a paragraph, HTML's line breaks are spaces.
	paras := strings.Split(b.String(), "\n\n")
	for i, p := range paras {
		lines := strings.Split(p, "\n")
		var kept []string
		var cur []string
		for _, l := range lines {
			if strings.HasPrefix(l, preMark) {
				if len(cur) > 0 {
					kept = append(kept, strings.Join(cur, " "))
					cur = nil
				}
				kept = append(kept, "    "+strings.TrimRight(l[len(preMark):], " \t"))
				continue
			}
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "- ") {
				if len(cur) > 0 {
					kept = append(kept, strings.Join(cur, " "))
				}
				cur = []string{t}
				continue
			}
			if t != "" {
				cur = append(cur, t)
			}
		}
		if len(cur) > 0 {
			kept = append(kept, strings.Join(cur, " "))
		}
		paras[i] = strings.Join(kept, "\n")
	}
	return strings.Join(paras, "\n\n")
}

// asciiLower lower-cases the ASCII letters of s, and nothing else, so
// that its bytes stay where they are.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// preMark marks the lines of a <pre> block while htmlText folds paragraphs.
const preMark = "\x00"

// stripTags drops the tags of s, keeping its text and entities as they are.
func stripTags(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			b.WriteString(s[i:])
			return b.String()
		}
		s = s[i+j+1:]
	}
}
