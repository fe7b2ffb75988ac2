package render

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/summarize"
)

// Report text (messages, paths, rule names, the inputs' warnings) comes from
// whoever wrote the report, and CI shows it to people and to programs: the
// GitHub Actions runner executes a log line that starts with "::" (after
// leading white space), a terminal obeys escape sequences, and GitHub turns
// @name into a notification, #123 into a link, Markdown into links and
// images. The helpers below make it inert; every human format uses them.

// Clean removes the control characters of s: C0 and C1 controls (ESC, NEL
// U+0085, DEL…), the line and paragraph separators U+2028 and U+2029, and
// the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069).
// Line breaks and tabs become spaces; other controls are dropped.
func Clean(s string) string { return clean(s, false) }

// CleanLine is [Clean] for one line of source code: tabs are kept.
func CleanLine(s string) string { return clean(s, true) }

func clean(s string, keepTab bool) string {
	if !needsClean(s, keepTab) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\t' && keepTab:
			b.WriteRune(r)
		case r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == 0x2028 || r == 0x2029:
			b.WriteByte(' ')
		case isControl(r):
		case r == utf8.RuneError:
			b.WriteRune(unicode.ReplacementChar)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func needsClean(s string, keepTab bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && !(keepTab && c == '\t') || c == 0x7f || c >= 0x80 {
			// Non-ASCII is checked rune by rune; ASCII text is the common case.
			if c < 0x80 {
				return true
			}
			for _, r := range s[i:] {
				if r != '\t' && isControl(r) || r == '\t' && !keepTab || r == 0x2028 || r == 0x2029 {
					return true
				}
			}
			return false
		}
	}
	return false
}

func isControl(r rune) bool {
	return r < 0x20 || r >= 0x7f && r < 0xa0 || r == 0x2028 || r == 0x2029 ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// PlainText is report text for one line of a terminal or a CI log: controls
// removed, white space folded.
func PlainText(s string) string { return OneLine(Clean(s)) }

// zwj is the zero-width joiner that MarkdownText puts after an @ or a # so
// that GitHub sees no mention or reference, and into GH-26 and commit SHAs:
// it does not show, and it is not a word character, so no reference
// pattern matches across it.
const zwj = "\u200d"

// MarkdownText is report text made inert in GitHub-flavoured Markdown, on
// one line, for any place in a comment, a review, a job summary or a table
// cell, in Markdown or inside an HTML element such as <code> or <summary>
// (the entities below mean the same in both; Markdown inside an inline
// element is still Markdown, so a code span is no shelter):
//   - controls are removed and white space folded ([PlainText]);
//   - & < > become entities, so that no HTML (<img>, <!-- markers -->) is made;
//   - [ ] ` * _ ~ \ | become numeric character references, which Markdown
//     shows as text, never as links, images, code, emphasis or a table's cell
//     break;
//   - the ":" of "://" and the "." of "www." become references, so that no URL
//     is linked automatically;
//   - an @ or # followed by a letter, digit or _ gets a zero-width joiner after
//     it, so that GitHub makes no mention (@param, @Test) and no link to an
//     issue (#123, owner/repo#5);
//   - a leading #, -, +, =, > or "1." cannot start a heading, list or quote;
//   - the other references GitHub documents as autolinked ("Autolinked
//     references and URLs") are broken by a zero-width joiner: GH-26 after
//     its "GH-", and a commit SHA (7 to 40 hex digits standing alone as a
//     word, with a letter and a digit: a5c3785…) after every sixth digit.
func MarkdownText(s string) string {
	s = PlainText(s)
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '[', ']', '`', '*', '_', '~', '\\', '|':
			b.WriteString("&#" + strconv.Itoa(int(c)) + ";")
		case '@', '#':
			if i == 0 && c == '#' {
				b.WriteString("&#35;")
			} else {
				b.WriteByte(c)
			}
			if i+1 < len(s) && isWordByte(s[i+1]) || i+1 < len(s) && s[i+1] >= 0x80 {
				b.WriteString(zwj)
			}
		case ':':
			if strings.HasPrefix(s[i:], "://") {
				b.WriteString("&#58;")
			} else {
				b.WriteByte(c)
			}
		case '.':
			if i >= 3 && strings.EqualFold(s[i-3:i], "www") || leadingNumber(s, i) {
				b.WriteString("&#46;")
			} else {
				b.WriteByte(c)
			}
		case '-', '+', '=':
			if i == 0 {
				b.WriteString("&#" + strconv.Itoa(int(c)) + ";")
			} else {
				b.WriteByte(c)
			}
		case ')':
			if leadingNumber(s, i) {
				b.WriteString("&#41;")
			} else {
				b.WriteByte(c)
			}
		default:
			b.WriteByte(c)
		}
	}
	return breakRefs(b.String())
}

// breakRefs breaks GH-<number> and commit SHAs in text that is already
// Markdown-inert (entities are left whole: a word never spans one); it
// returns s itself when there is none.
func breakRefs(s string) string {
	var b strings.Builder
	done := 0 // s[:done] is in b
	for i := 0; i < len(s); {
		if !isWordByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		word := s[i:j]
		// A word right after "&#" or "&", ended by ";", is an entity's number or name.
		entity := i > 0 && s[i-1] == '&' || i > 1 && s[i-2] == '&' && s[i-1] == '#'
		switch {
		case entity && j < len(s) && s[j] == ';':
		case isSHA(word):
			b.WriteString(s[done:i])
			for len(word) > 6 { // no run of 7 hex digits is left
				b.WriteString(word[:6] + zwj)
				word = word[6:]
			}
			b.WriteString(word)
			done = j
		case len(word) == 2 && strings.EqualFold(word, "GH") && j+1 < len(s) && s[j] == '-' && s[j+1] >= '0' && s[j+1] <= '9':
			j++
			b.WriteString(s[done:j] + zwj)
			done = j
		}
		i = j
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
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

// MarkdownBlock is report text of several lines (a rule's description or
// help) made inert as [MarkdownText] makes one line: each line on its own,
// the lines of a paragraph joined by a space (tools wrap their prose), but
// by <br> before a line that starts a list item, paragraphs by a blank
// line; cut at max bytes (0: no cut) of the text, with "…". No Markdown of
// the report (a list, a table, a code block, a link) is rendered: it shows
// as text.
func MarkdownBlock(s string, max int) string {
	if max > 0 && len(s) > max {
		for max > 0 && !utf8.RuneStart(s[max]) {
			max--
		}
		s = s[:max] + "…"
	}
	var paras []string
	for _, p := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n\n") {
		var b strings.Builder
		for _, l := range strings.Split(p, "\n") {
			t := MarkdownText(l)
			switch {
			case t == "":
				continue
			case b.Len() > 0 && listItem(strings.TrimSpace(l)):
				b.WriteString("<br>")
			case b.Len() > 0:
				b.WriteByte(' ')
			}
			b.WriteString(t)
		}
		if b.Len() > 0 {
			paras = append(paras, b.String())
		}
	}
	return strings.Join(paras, "\n\n")
}

// listItem reports whether a line starts a list item: "- ", "* ", "+ ",
// "1. " or "1) ".
func listItem(l string) bool {
	if len(l) >= 2 && strings.ContainsRune("-*+", rune(l[0])) && l[1] == ' ' {
		return true
	}
	i := 0
	for i < len(l) && i < 9 && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(l) && (l[i] == '.' || l[i] == ')') && l[i+1] == ' '
}

// leadingNumber: s[:i] is all digits (s[i] ends a list item number).
func leadingNumber(s string, i int) bool {
	if i == 0 || i > 9 {
		return false
	}
	for j := 0; j < i; j++ {
		if s[j] < '0' || s[j] > '9' {
			return false
		}
	}
	return true
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// NoCommands writes to w what is written to it, line by line, with a
// zero-width space between the two colons of a line that starts with "::"
// after white space, and in "##[" anywhere: the GitHub Actions runner would
// execute such a line as a workflow command. Close flushes what is left.
type NoCommands struct {
	w    io.Writer
	buf  []byte
	err  error
	hash []byte // what "##[" becomes
}

// NewNoCommands guards w, a text or Markdown output.
func NewNoCommands(w io.Writer) *NoCommands { return &NoCommands{w: w, hash: []byte("##\u200b[")} }

// NewJSONNoCommands guards w, a JSON output, without changing its values:
// "##[" (only ever inside a JSON string) is written "#\u0023[". No line of
// JSON starts with "::".
func NewJSONNoCommands(w io.Writer) *NoCommands { return &NoCommands{w: w, hash: []byte(`#\u0023[`)} }

// Write implements io.Writer.
func (n *NoCommands) Write(p []byte) (int, error) {
	if n.err != nil {
		return 0, n.err
	}
	size := len(p)
	if len(n.buf) > 0 {
		// The end of the line begun in an earlier write.
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			n.buf = append(n.buf, p...)
			return size, nil
		}
		n.buf = append(n.buf, p[:i+1]...)
		p = p[i+1:]
		if n.err = n.writeGuarded(n.buf); n.err != nil {
			return size, n.err
		}
		n.buf = n.buf[:0]
	}
	// The whole lines of p are guarded where they are, not copied.
	last := bytes.LastIndexByte(p, '\n')
	if last >= 0 {
		n.err = n.writeGuarded(p[:last+1])
	}
	n.buf = append(n.buf, p[last+1:]...)
	return size, n.err
}

// Close writes the last line, one without a newline.
func (n *NoCommands) Close() error {
	if n.err == nil && len(n.buf) > 0 {
		n.err = n.writeGuarded(n.buf)
		n.buf = n.buf[:0]
	}
	return n.err
}

func (n *NoCommands) writeGuarded(b []byte) error {
	if !bytes.Contains(b, []byte("::")) && !bytes.Contains(b, []byte("##[")) {
		// No line can be a command: written as it is (most writes).
		_, err := n.w.Write(b)
		return err
	}
	bw := bufio.NewWriterSize(n.w, 64<<10)
	for len(b) > 0 {
		line := b
		if i := bytes.IndexAny(b, "\n\r"); i >= 0 {
			line = b[:i+1]
		}
		b = b[len(line):]
		if bytes.Contains(line, []byte("##[")) { // the runner's older form, anywhere in a line
			line = bytes.ReplaceAll(line, []byte("##["), n.hash)
		}
		trimmed := bytes.TrimLeft(line, " \t\v\f\u00a0")
		if bytes.HasPrefix(trimmed, []byte("::")) {
			lead := len(line) - len(trimmed)
			bw.Write(line[:lead+1])
			bw.WriteString("\u200b")
			bw.Write(line[lead+1:])
			continue
		}
		bw.Write(line)
	}
	return bw.Flush()
}

// InertLine is report text for one line of a log that is not an output of
// recap's (an error or a warning on stderr): [PlainText], with no workflow
// command in it (see [NoCommands]).
func InertLine(s string) string {
	s = strings.ReplaceAll(PlainText(s), "##[", "##\u200b[")
	if strings.HasPrefix(s, "::") {
		s = ":\u200b" + s[1:]
	}
	return s
}

// Suppressed counts the results the inputs mark as suppressed (SARIF
// suppressions, PMD's suppressed violations), which are not findings.
func Suppressed(v *summarize.View) int {
	n := 0
	for _, in := range v.Inputs {
		n += in.Suppressed
	}
	return n
}

// suppressedNote is " (n suppressed in the reports, not counted)", or "".
func suppressedNote(v *summarize.View) string {
	n := Suppressed(v)
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s suppressed in the reports, not counted)", english.Plural(n, "result", "results"))
}
