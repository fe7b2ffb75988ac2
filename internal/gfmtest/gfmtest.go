// Package gfmtest renders Markdown as GitHub does, with the GFM reference
// renderer cmark-gfm (Debian package cmark-gfm), and checks that report text
// put in it made nothing GitHub would act on: no link, no image, no mention
// and no issue reference.
package gfmtest

import (
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// Render renders md with cmark-gfm's table and autolink extensions, raw HTML
// kept (GitHub keeps it, then sanitizes it); it skips the test when
// cmark-gfm is absent.
func Render(t testing.TB, md string) string {
	t.Helper()
	bin, err := exec.LookPath("cmark-gfm")
	if err != nil {
		t.Skipf("cmark-gfm not found (apt-get install cmark-gfm): %v", err)
	}
	cmd := exec.Command(bin, "--unsafe", "--extension", "table", "--extension", "autolink", "--extension", "strikethrough")
	cmd.Stdin = strings.NewReader(md)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cmark-gfm: %v", err)
	}
	return string(out)
}

// ref is what GitHub links in text: an @ or # directly followed by a word
// character (@param, #123, owner/repo#5).
var ref = regexp.MustCompile(`[@#]\w`)

// Problems lists what in the HTML GitHub would turn into something: <a> and
// <img> elements, and mentions, references (#123, GH-26) and commit SHAs
// in the text outside code (GitHub leaves <code> and <pre> alone). HTML
// comments are listed by [Comments].
func Problems(doc string) []string {
	var out []string
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		return []string{"not HTML: " + err.Error()}
	}
	var walk func(n *html.Node, code bool)
	walk = func(n *html.Node, code bool) {
		switch n.Type {
		case html.ElementNode:
			switch n.Data {
			case "a", "img", "script", "iframe":
				out = append(out, "element <"+n.Data+">: "+outer(n))
			case "code", "pre":
				code = true
			}
		case html.TextNode:
			if code {
				break
			}
			if m := ref.FindString(n.Data); m != "" {
				out = append(out, "reference "+m+" in text "+strings.TrimSpace(n.Data))
			}
			out = append(out, autolinks(n.Data)...)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, code)
		}
	}
	walk(root, false)
	return out
}

func outer(n *html.Node) string {
	var b bytes.Buffer
	html.Render(&b, n)
	return b.String()
}

// Text is the text of the HTML as a reader sees it, zero-width joiners
// left out and white space folded.
func Text(doc string) string {
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		return ""
	}
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return strings.Join(strings.Fields(strings.ReplaceAll(b.String(), "\u200d", "")), " ")
}

// Comments lists the HTML comments of the document (hidden text).
func Comments(doc string) []string {
	var out []string
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		return nil
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.CommentNode {
			out = append(out, n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return out
}

// autolinks lists the other references GitHub's documentation lists as
// autolinked ("Autolinked references and URLs") in text: GH-26, and a
// commit SHA (7 to 40 hex digits as a word, with a digit and a letter).
func autolinks(text string) []string {
	var out []string
	for _, m := range ghIssue.FindAllString(text, -1) {
		out = append(out, "reference "+m+" in text "+strings.TrimSpace(text))
	}
	return append(out, commits(text)...)
}

// commits lists the words of text that GitHub and GitLab take for a commit
// SHA: 7 to 40 hex digits, with a digit and a letter.
func commits(text string) []string {
	var out []string
	for _, w := range hexWord.FindAllString(text, -1) {
		if strings.ContainsAny(w, "0123456789") && strings.ContainsAny(strings.ToLower(w), "abcdef") {
			out = append(out, "commit "+w+" in text "+strings.TrimSpace(text))
		}
	}
	return out
}

var (
	ghIssue = regexp.MustCompile(`(?i)\bGH-\d`)
	hexWord = regexp.MustCompile(`\b[0-9a-fA-F]{7,40}\b`)
)

// GitLabReferences lists the references GitLab would make of the text
// outside code, links and preformatted blocks. GitLab renders Markdown
// (with cmark-gfm's rules), then runs its reference filters on the text
// of the HTML, after entities are decoded (so &#126;bug is ~bug): users
// (@name), issues (#1), merge requests (!1), snippets ($1), epics (&1),
// labels (~bug, ~"a b", ~1), milestones (%v1, %"a b"), alerts (^alert#1),
// iterations (*iteration:1), vulnerabilities and the like
// ([vulnerability:1]), wiki links ([[page]]) and commits; and the URLs
// its autolink filter links, of any scheme (custom-scheme://x).
func GitLabReferences(doc string) []string {
	var out []string
	textNodes(doc, func(text string) {
		for _, m := range gitLabRef.FindAllString(text, -1) {
			out = append(out, "GitLab reference "+strings.TrimSpace(m)+" in text "+strings.TrimSpace(text))
		}
		out = append(out, commits(text)...)
		for _, m := range gitLabAutolink.FindAllString(text, -1) {
			out = append(out, "GitLab autolink "+m+" in text "+strings.TrimSpace(text))
		}
	})
	return out
}

// gitLabAutolink is what GitLab's autolink filter links in text after
// Markdown is rendered and entities decoded: a URL of any scheme
// (scheme://…), not only the http, https and ftp that cmark-gfm links.
// It is wider than GitLab's own pattern (any case, a one-letter scheme),
// so that it errs toward finding a link.
var gitLabAutolink = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s>]*`)

var gitLabRef = regexp.MustCompile(`(?:^|[^\w])[@#!$&~%^][\w"]|\*iteration:|\[(?:vulnerability|feature_flag|contact|issue|work_item):|\[\[`)

// textNodes calls fn with the text of each text node outside <code>,
// <pre> and <a>, as GitLab's and GitHub's reference filters see it.
func textNodes(doc string, fn func(string)) {
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		fn(doc)
		return
	}
	var walk func(n *html.Node, skip bool)
	walk = func(n *html.Node, skip bool) {
		if n.Type == html.ElementNode && (n.Data == "code" || n.Data == "pre" || n.Data == "a") {
			skip = true
		}
		if n.Type == html.TextNode && !skip {
			fn(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, skip)
		}
	}
	walk(root, false)
}
