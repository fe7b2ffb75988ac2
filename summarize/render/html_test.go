package render

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// elideAssets leaves the page's script and style sheet out of a golden:
// the CSP line names their hashes, so a change of either still shows.
func elideAssets(page []byte) []byte {
	page = bytes.Replace(page, []byte("<style>"+htmlStyle+"</style>"), []byte("<style>/* report.css */</style>"), 1)
	return bytes.Replace(page, []byte("<script>"+htmlScript+"</script>"), []byte("<script>/* report.js */</script>"), 1)
}

// TestHTMLScriptData: report text reaches the page only inside JSON whose
// <, >, &, U+2028 and U+2029 are escaped, so that no report closes the
// data's script element or starts markup; the data reads back as given.
func TestHTMLScriptData(t *testing.T) {
	hostile := []string{
		"</script><script>alert(1)</script>",
		"<!-- <script>",
		"a & b > c",
		"line\u2028sep\u2029para",
		"bidi \u202eevil\u202c and \u2066isolate\u2069",
		"bad utf-8 \xff\xfe end",
		"quote \" backslash \\ tab \t nl \n ctl \x01",
	}
	for _, s := range hostile {
		b := appendJSONString(nil, s)
		for _, bad := range []string{"<", ">", "&", "\u2028", "\u2029"} {
			if bytes.Contains(b, []byte(bad)) {
				t.Errorf("appendJSONString(%q) = %s holds %q", s, b, bad)
			}
		}
		var back string
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("appendJSONString(%q) = %s: %v", s, b, err)
		}
		if want := strings.ToValidUTF8(s, "\ufffd"); back != want && !strings.Contains(s, "\xff") {
			t.Errorf("appendJSONString(%q) reads back as %q", s, back)
		}
	}
}

var scriptData = regexp.MustCompile(`(?s)<script type="application/(json|octet-stream)"[^>]*>(.*?)</script>`)

// TestHTMLHostilePage: a finding whose every text is hostile is written as
// data alone: the page has one script of its own, no < in its data, and
// the CSP names the script's hash.
func TestHTMLHostilePage(t *testing.T) {
	evil := "</script><script>window.pwned=1</script><img src=x onerror=alert(1)> javascript:alert(1) \u202e"
	f := reports.Finding{ID: reports.ID("x", 1), Tool: evil, Rule: evil, RuleName: evil, Category: evil, Path: evil, Line: 1, Message: evil, HelpURI: "javascript:alert(1)",
		Severity: reports.SeverityError, Snippet: evil}
	c := summarize.NewCollector()
	c.Add(f)
	v := c.View([]reports.Input{{Path: evil, Tool: evil, Findings: 1, Warnings: []string{evil}}})
	for _, over := range []int{0, -1} {
		st := HTML{CompressOver: over}.NewStream()
		if err := st.Add(&f); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := st.Write(&buf, v); err != nil {
			t.Fatal(err)
		}
		st.Close()
		page := buf.String()
		if n := strings.Count(page, "<script>"); n != 1 {
			t.Errorf("CompressOver %d: %d scripts of the page's own, want 1", over, n)
		}
		data := scriptData.FindAllStringSubmatch(page, -1)
		if len(data) != 2 {
			t.Fatalf("CompressOver %d: %d data elements, want 2", over, len(data))
		}
		for _, d := range data {
			if strings.ContainsAny(d[2], "<>&\u2028\u2029") {
				t.Errorf("CompressOver %d: data holds markup: %.200s", over, d[2])
			}
		}
		if !strings.Contains(page, cspHash(htmlScript)) || !strings.Contains(page, "default-src 'none'") {
			t.Errorf("the page's CSP does not name its script")
		}
	}
}

// TestHTMLShortLines: no line of a page is long, its deflated data
// included (a guard of workflow commands holds a line whole), and the
// data reads back.
func TestHTMLShortLines(t *testing.T) {
	st := HTML{CompressOver: -1}.NewStream()
	defer st.Close()
	var fs []reports.Finding
	for i := range 20000 {
		f := reports.Finding{ID: reports.ID("x", i+1), Tool: "T", Rule: "R", Path: fmt.Sprintf("src/f%d.java", i), Line: i + 1,
			Message: fmt.Sprintf("message %d %x", i, i*7919), Severity: reports.SeverityWarning}
		fs = append(fs, f)
		if err := st.Add(&f); err != nil {
			t.Fatal(err)
		}
	}
	c := summarize.NewCollector()
	var buf bytes.Buffer
	if err := st.Write(&buf, c.View(nil)); err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(buf.String(), "\n") {
		if len(line) > 20<<10 {
			t.Fatalf("line %d is %d bytes long", i+1, len(line))
		}
	}
	m := regexp.MustCompile(`(?s)id="recap-findings-deflate"[^>]*>(.*?)</script>`).FindStringSubmatch(buf.String())
	if m == nil {
		t.Fatal("no deflated data")
	}
	z, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(m[1], "\n", ""))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(z)))
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		S []string
		R [][]any
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatal(err)
	}
	if len(data.R) != len(fs) {
		t.Fatalf("%d rows, want %d", len(data.R), len(fs))
	}
	for _, i := range []int{0, 12345, len(fs) - 1} {
		r := data.R[i]
		str := func(v any) string {
			if n, ok := v.(float64); ok {
				return data.S[int(n)]
			}
			return v.(string)
		}
		if r[0] != fs[i].ID.String() || str(r[5]) != fs[i].Path || str(r[13]) != fs[i].Message {
			t.Errorf("row %d reads back as %v", i, r)
		}
	}
}
