package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/gfmtest"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// Hostile are messages of real reports' kinds (Javadoc tags and annotations
// in PMD's and Checkstyle's messages) and of hostile ones.
var Hostile = []string{
	"Missing @param tag for 'items' and @return",
	"Method annotated with @Test should be public; see #123",
	"Fixed in acme/shop#5, cf. GH-7 and gh-12",
	"Reverts a5c3785ed8d6a35868bc169f07e40e889087fd2e (see 1f0b5e3, not 1234567 or defaced)",
	"[x](javascript:alert(1))",
	"![](https://e.x/a.png)",
	"<img src=x>",
	"<!-- recap:fp=x -->",
	"a ` backtick and a | pipe",
	"# heading?",
	"1. list? www.e.x and https://e.x/p and a@b.example",
}

func hostileView() *summarize.View {
	c := summarize.NewCollector()
	c.KeepPage(0, 50)
	for i, m := range Hostile {
		c.Add(reports.Finding{ID: reports.ID("h", i), Tool: "PMD", Rule: "Rule@" + m, Category: "Cat " + m,
			Severity: reports.Severities[i%3], Path: "src/@types/[x](javascript:alert(1))/A#1.java", Line: i + 1, Message: m})
	}
	v := c.View([]reports.Input{{Path: "@me/pmd.sarif", Format: "sarif", Tool: "PMD", Findings: len(Hostile),
		Warnings: []string{"warning from @someone about #9"}}})
	v.Findings[0].Context = []summarize.ContextLine{{Line: 1, Text: "    @Override"}, {Line: 2, Text: "    ```</code></pre><img src=x>"}}
	return v
}

// TestMarkdownInertOnGitHub renders the Markdown of findings with hostile
// messages as GitHub does (cmark-gfm) and checks that no link, image,
// mention or reference came out of them, and that the text still reads.
func TestMarkdownInertOnGitHub(t *testing.T) {
	var b bytes.Buffer
	if err := (Markdown{}).Render(&b, hostileView()); err != nil {
		t.Fatal(err)
	}
	doc := gfmtest.Render(t, b.String())
	for _, p := range gfmtest.Problems(doc) {
		t.Errorf("%s", p)
	}
	if c := gfmtest.Comments(doc); len(c) > 0 {
		t.Errorf("HTML comments from report text: %q", c)
	}
	text := gfmtest.Text(doc)
	for _, m := range Hostile {
		if !strings.Contains(text, OneLine(m)) {
			t.Errorf("the rendered text does not read %q:\n%s", m, text)
		}
	}
	if !strings.Contains(doc, "@Override") {
		t.Errorf("the source context lost its annotation:\n%s", doc)
	}
}

func TestMarkdownText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"@param x", "@\u200dparam x"},
		{"see #12 and a@b", "see #\u200d12 and a@\u200db"},
		{"# h", "&#35; h"},
		{"- item", "&#45; item"},
		{"12. x", "12&#46; x"},
		{"1) x", "1&#41; x"},
		{"<b>&", "&lt;b&gt;&amp;"},
		{"[a](b) ![c] `d` *e* _f_ ~g~ \\h |i", "&#91;a&#93;(b) !&#91;c&#93; &#96;d&#96; &#42;e&#42; &#95;f&#95; &#126;g&#126; &#92;h &#124;i"},
		{"https://x www.y", "https&#58;//x www&#46;y"},
		{"a\n::error::b\r\u001b[31mc\u0085d\u2028e\u202ef", "a ::error::b &#91;31mc d ef"},
		{"plain text, 3.5", "plain text, 3.5"},
		{"cf. GH-7, gh-12, GH-x and AGH-7", "cf. GH-\u200d7, gh-\u200d12, GH-x and AGH-7"},
		{"a5c3785ed8d6a35868bc169f07e40e889087fd2e", "a5c378\u200d5ed8d6\u200da35868\u200dbc169f\u200d07e40e\u200d889087\u200dfd2e"},
		{"see 1f0b5e3.", "see 1f0b5e\u200d3."},
		{"1234567 defaced a5c378 a5c3785ed8d6a35868bc169f07e40e889087fd2e0 x1f0b5e3", "1234567 defaced a5c378 a5c3785ed8d6a35868bc169f07e40e889087fd2e0 x1f0b5e3"},
		{"[1f0b5e3] &#x31;", "&#91;1f0b5e\u200d3&#93; &amp;#\u200dx31;"},
	} {
		if got := MarkdownText(tc.in); got != tc.want {
			t.Errorf("MarkdownText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNoCommands(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"::error::x\nok\n  ::warning::y", ":\u200b:error::x\nok\n  :\u200b:warning::y"},
		{"a::b\n\t::c\r::d", "a::b\n\t:\u200b:c\r:\u200b:d"},
		{"x ##[error]y\n", "x ##\u200b[error]y\n"},
		{"plain\nlines\n", "plain\nlines\n"},
		{"plain\n::x\nmore\n  ##[y\nend", "plain\n:\u200b:x\nmore\n  ##\u200b[y\nend"},
		{"\u00a0::x\n", "\u00a0:\u200b:x\n"},
	} {
		// In pieces, as a renderer writes: after each colon, each byte,
		// each line, and whole.
		for name, parts := range map[string][]string{
			"colons": strings.SplitAfter(tc.in, ":"),
			"bytes":  strings.SplitAfter(tc.in, ""),
			"lines":  strings.SplitAfter(tc.in, "\n"),
			"whole":  {tc.in},
		} {
			var b bytes.Buffer
			g := NewNoCommands(&b)
			for _, part := range parts {
				g.Write([]byte(part))
			}
			if err := g.Close(); err != nil || b.String() != tc.want {
				t.Errorf("%q by %s: %q (%v), want %q", tc.in, name, b.String(), err, tc.want)
			}
		}
	}
}
