package parsers

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/reports/reportstest"
)

// bothCheckstyle reads data with the scanner and with encoding/xml.
func bothCheckstyle(data []byte) (fast, slow []reports.Finding, fastIn, slowIn reports.Input, fastErr, slowErr error) {
	p := &checkstyleParser{opts: Options{Name: "report", Root: "/repo"}}
	collect := func(out *[]reports.Finding) Emit {
		return func(f reports.Finding, _ map[string]string) error { *out = append(*out, f); return nil }
	}
	fastIn, fastErr = p.scan(bytes.NewReader(data), collect(&fast))
	slowIn, slowErr = p.parseXML(bytes.NewReader(data), collect(&slow))
	return
}

// TestCheckstyleScannerAgrees: on every Checkstyle XML of the corpus, valid
// or not, and on hand-made edge cases, the fast scanner gives exactly the
// findings, input status and error line that encoding/xml gives.
func TestCheckstyleScannerAgrees(t *testing.T) {
	dir, files := reportstest.Corpus(t)
	cases := map[string][]byte{
		"entities and quotes": []byte(`<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment with <tags> -->
<!DOCTYPE checkstyle [ <!ELEMENT checkstyle ANY> ]>
<checkstyle version='8.36'>
<file name="src/A&amp;B.java">
<error line="3" column="5" severity="warning" message="a &gt; b &lt; c &quot;q&quot; &apos;s&apos; &#65;&#x42; x>y" source="com.puppycrawl.tools.checkstyle.checks.coding.MagicNumberCheck"/>
<error line = "4"
   severity="ignore" message="ignored" source="x"/>
<error line="5" message="multi&#10;line&#xD;&#xA;text
with a newline&#13;
and crlf" source="eslint.rules.no-console"></error>
</file>
<file name="src/Empty.java"></file>
</checkstyle>
trailing text after the root`),
		"self-closing file":  []byte(`<checkstyle><file name="a"/><file name="b"><error line="1" message="m" source="s"/></file></checkstyle>`),
		"bad entity":         []byte("<checkstyle>\n<file name=\"a\">\n<error message=\"&nope;\"/></file></checkstyle>"),
		"no semicolon":       []byte("<checkstyle>\n<file name=\"a &b\"></file></checkstyle>"),
		"mismatched":         []byte("<checkstyle>\n<file name=\"a\">\n</checkstyle>"),
		"unquoted":           []byte("<checkstyle>\n<file name=a></file></checkstyle>"),
		"lt in value":        []byte("<checkstyle>\n<file name=\"a<b\"></file></checkstyle>"),
		"invalid utf-8":      []byte("<checkstyle>\n<file name=\"a\xffb\"></file></checkstyle>"),
		"truncated in tag":   []byte("<checkstyle>\n<file name=\"a\">\n<error line=\"1\""),
		"truncated in value": []byte("<checkstyle>\n<file name=\"a"),
		"wrong root":         []byte("<?xml version=\"1.0\"?>\n<pmd version=\"7\"/>"),
		"unclosed comment":   []byte("<checkstyle><!-- no end"),
		"cdata":              []byte("<checkstyle><![CDATA[ <error/> ]]><file name=\"a\"><error line=\"2\" message=\"m\" source=\"s\"/></file></checkstyle>"),
		"processing":         []byte("<?xml version=\"1.0\"?><?pi x?><checkstyle><file name=\"a\"><error line=\"2\" message=\"m\" source=\"s\"/></file></checkstyle>"),
	}
	for _, cf := range files {
		if cf.Dir() != "checkstyle-xml" && cf.Dir() != "invalid" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, cf.Path))
		if err != nil {
			t.Fatal(err)
		}
		if f, ok := Detect(b); ok && f == FormatCheckstyle && !bytes.Contains(b[:min(len(b), 200)], []byte("ISO-8859")) {
			cases[cf.Path] = b
		}
	}
	if len(cases) < 20 {
		t.Fatalf("only %d cases", len(cases))
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			fast, slow, fastIn, slowIn, fastErr, slowErr := bothCheckstyle(data)
			if want, ok := map[string]int{"entities and quotes": 2, "self-closing file": 1, "cdata": 1, "processing": 1}[name]; ok && (len(fast) != want || fastErr != nil) {
				t.Errorf("%d findings (error %v), want %d", len(fast), fastErr, want)
			}
			if !reflect.DeepEqual(fast, slow) {
				t.Errorf("findings differ:\nscanner     %+v\nencoding/xml %+v", fast, slow)
			}
			if !reflect.DeepEqual(fastIn, slowIn) {
				t.Errorf("input differs:\nscanner     %+v\nencoding/xml %+v", fastIn, slowIn)
			}
			if (fastErr == nil) != (slowErr == nil) {
				t.Fatalf("errors differ: scanner %v, encoding/xml %v", fastErr, slowErr)
			}
			if fastErr != nil && errLine(fastErr) != errLine(slowErr) {
				t.Errorf("error lines differ: scanner %v, encoding/xml %v", fastErr, slowErr)
			}
		})
	}
}

func errLine(err error) int {
	if pe, ok := err.(*ParseError); ok {
		return pe.Line
	}
	return -1
}

// FuzzCheckstyleScanner: on any input, the scanner succeeds where
// encoding/xml does, with the same findings, and fails where it fails.
func FuzzCheckstyleScanner(f *testing.F) {
	// Small seeds: minimizing a new input found from a large one takes the
	// fuzzer minutes.
	dir, files := reportstest.Corpus(f)
	for _, cf := range files {
		if cf.Dir() == "checkstyle-xml" || cf.Dir() == "invalid" {
			if b, err := os.ReadFile(filepath.Join(dir, cf.Path)); err == nil {
				f.Add(b[:min(len(b), 2048)])
			}
		}
	}
	f.Add([]byte(`<checkstyle><file name="a"><error line="1" message="a &amp; b" source="s"/></file></checkstyle>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.Contains(data, []byte("encoding")) {
			return // other encodings go to encoding/xml by design
		}
		fast, slow, _, _, fastErr, slowErr := bothCheckstyle(data)
		if slowErr == nil && fastErr != nil {
			t.Fatalf("encoding/xml reads it, the scanner fails: %v", fastErr)
		}
		if slowErr == nil && !reflect.DeepEqual(fast, slow) {
			t.Fatalf("findings differ:\nscanner     %+v\nencoding/xml %+v", fast, slow)
		}
		if fastErr != nil && !strings.HasPrefix(fastErr.Error(), "report: ") {
			t.Fatalf("error does not name the input: %v", fastErr)
		}
	})
}
