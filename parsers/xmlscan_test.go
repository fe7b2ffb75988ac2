package parsers

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/reports"
)

// readings is one input read by a parser's scanner (fast) and by
// encoding/xml (slow).
type readings struct {
	fast, slow       []reports.Finding
	fastIn, slowIn   reports.Input
	fastErr, slowErr error
}

func readBoth(data []byte, scan, slow func(io.Reader, Emit) (reports.Input, error)) (r readings) {
	collect := func(out *[]reports.Finding) Emit {
		return func(f reports.Finding, _ map[string]string) error { *out = append(*out, f); return nil }
	}
	r.fastIn, r.fastErr = scan(bytes.NewReader(data), collect(&r.fast))
	r.slowIn, r.slowErr = slow(bytes.NewReader(data), collect(&r.slow))
	return r
}

func bothCheckstyle(data []byte) readings {
	p := &checkstyleParser{opts: Options{Name: "report", Root: "/repo"}}
	return readBoth(data, p.scan, p.parseXML)
}

func bothPMD(data []byte) readings {
	p := &pmdParser{opts: Options{Name: "report", Root: "/repo"}}
	return readBoth(data, p.scan, p.parseXML)
}

// agree checks that both readers gave the same findings, input, error and
// error line; want, when not negative, is the number of findings expected.
func (r readings) agree(t *testing.T, want int) {
	t.Helper()
	if tooDeep(r.fastErr) && (r.slowErr == nil || tooDeep(r.slowErr)) {
		return // the one allowed difference: encoding/xml has no depth bound
	}
	if want >= 0 && (len(r.fast) != want || r.fastErr != nil) {
		t.Errorf("%d findings (error %v), want %d", len(r.fast), r.fastErr, want)
	}
	if !reflect.DeepEqual(r.fast, r.slow) {
		t.Errorf("findings differ:\nscanner     %+v\nencoding/xml %+v", r.fast, r.slow)
	}
	if !reflect.DeepEqual(r.fastIn, r.slowIn) {
		t.Errorf("input differs:\nscanner     %+v\nencoding/xml %+v", r.fastIn, r.slowIn)
	}
	if (r.fastErr == nil) != (r.slowErr == nil) {
		t.Fatalf("errors differ: scanner %v, encoding/xml %v", r.fastErr, r.slowErr)
	}
	if r.fastErr != nil && errLine(r.fastErr) != errLine(r.slowErr) {
		t.Errorf("error lines differ: scanner %v, encoding/xml %v", r.fastErr, r.slowErr)
	}
}

// agreeWhereXMLReads is the fuzz targets' check: where encoding/xml reads
// an input, the scanner reads it too, the same; its errors name the input.
func (r readings) agreeWhereXMLReads(t *testing.T) {
	t.Helper()
	if r.slowErr == nil && r.fastErr != nil && !tooDeep(r.fastErr) {
		t.Fatalf("encoding/xml reads it, the scanner fails: %v", r.fastErr)
	}
	if r.slowErr == nil && (!reflect.DeepEqual(r.fast, r.slow) || !reflect.DeepEqual(r.fastIn, r.slowIn)) {
		t.Fatalf("results differ:\nscanner     %+v %+v\nencoding/xml %+v %+v", r.fast, r.fastIn, r.slow, r.slowIn)
	}
	if r.fastErr != nil && !strings.HasPrefix(r.fastErr.Error(), "report: ") {
		t.Fatalf("error does not name the input: %v", r.fastErr)
	}
}

// TestCheckstyleScannerAgrees: on hand-made edge cases, the fast scanner
// gives exactly the findings, input status and error line that encoding/xml
// gives.
func TestCheckstyleScannerAgrees(t *testing.T) {
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
<!-- a comment after the root -->
<?pi after the root?>
`),
		"trailing text after the root": []byte("<checkstyle>\n<file name=\"a\"><error line=\"1\" message=\"m\" source=\"s\"/></file>\n</checkstyle>\ntrailing text"),
		"a second root":                []byte("<checkstyle><file name=\"a\"/></checkstyle>\n<checkstyle><file name=\"b\"/></checkstyle>"),
		"a report appended to another": []byte("<checkstyle><file name=\"a\"><error line=\"1\" message=\"m\" source=\"s\"/></file></checkstyle><checkstyle/>"),
		"self-closing file":            []byte(`<checkstyle><file name="a"/><file name="b"><error line="1" message="m" source="s"/></file></checkstyle>`),
		"bad entity":                   []byte("<checkstyle>\n<file name=\"a\">\n<error message=\"&nope;\"/></file></checkstyle>"),
		"no semicolon":                 []byte("<checkstyle>\n<file name=\"a &b\"></file></checkstyle>"),
		"mismatched":                   []byte("<checkstyle>\n<file name=\"a\">\n</checkstyle>"),
		"unquoted":                     []byte("<checkstyle>\n<file name=a></file></checkstyle>"),
		"lt in value":                  []byte("<checkstyle>\n<file name=\"a<b\"></file></checkstyle>"),
		"invalid utf-8":                []byte("<checkstyle>\n<file name=\"a\xffb\"></file></checkstyle>"),
		"truncated in tag":             []byte("<checkstyle>\n<file name=\"a\">\n<error line=\"1\""),
		"truncated in value":           []byte("<checkstyle>\n<file name=\"a"),
		"wrong root":                   []byte("<?xml version=\"1.0\"?>\n<pmd version=\"7\"/>"),
		"unclosed comment":             []byte("<checkstyle><!-- no end"),
		"cdata":                        []byte("<checkstyle><![CDATA[ <error/> ]]><file name=\"a\"><error line=\"2\" message=\"m\" source=\"s\"/></file></checkstyle>"),
		"processing":                   []byte("<?xml version=\"1.0\"?><?pi x?><checkstyle><file name=\"a\"><error line=\"2\" message=\"m\" source=\"s\"/></file></checkstyle>"),
		// Characters XML does not allow, which encoding/xml refuses.
		"NUL in text":         []byte("<checkstyle>\n<file name=\"a\">\x00</file></checkstyle>"),
		"ESC in text":         []byte("<checkstyle>\n<file name=\"a\">\n\x1b[31m\n</file></checkstyle>"),
		"NUL in value":        []byte("<checkstyle>\n<file name=\"a\x00\"></file></checkstyle>"),
		"ESC in message":      []byte("<checkstyle><file name=\"a\">\n<error line=\"1\" message=\"a\x1bb\" source=\"s\"/></file></checkstyle>"),
		"NUL reference":       []byte("<checkstyle><file name=\"a\">\n<error line=\"1\" message=\"a&#0;b\" source=\"s\"/></file></checkstyle>"),
		"ESC reference":       []byte("<checkstyle><file name=\"a\">\n<error line=\"1\" message=\"a&#x1B;b\" source=\"s\"/></file></checkstyle>"),
		"FFFE":                []byte("<checkstyle><file name=\"a\">\n<error line=\"1\" message=\"a\uFFFEb\" source=\"s\"/></file></checkstyle>"),
		"control in CDATA":    []byte("<checkstyle>\n<![CDATA[\x01]]><file name=\"a\"></file></checkstyle>"),
		"surrogate reference": []byte("<checkstyle><file name=\"a\"><error line=\"1\" message=\"a&#xD800;b&#0065;\" source=\"s\"/></file></checkstyle>"),
		"too deep":            []byte("<checkstyle>" + strings.Repeat("<file name=\"a\">", 300) + strings.Repeat("</file>", 300) + "</checkstyle>"),
		"unclosed CDATA":      []byte("<checkstyle>\n<![CDATA[ x ] ]]"),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			want, ok := map[string]int{"entities and quotes": 2, "self-closing file": 1, "cdata": 1, "processing": 1}[name]
			if !ok {
				want = -1
			}
			bothCheckstyle(data).agree(t, want)
		})
	}
}

// TestCheckstyleScannerAgreesOnCorpus: on every Checkstyle XML of the corpus
// (but those in ISO-8859-1, which only encoding/xml reads), valid or not,
// the scanner gives exactly what encoding/xml gives.
func TestCheckstyleScannerAgreesOnCorpus(t *testing.T) {
	dir, files := reportstest.Corpus(t)
	cases := map[string][]byte{}
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
	if len(cases) < 9 {
		t.Fatalf("only %d corpus files", len(cases))
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			want, ok := map[string]int{"entities and quotes": 2, "self-closing file": 1, "cdata": 1, "processing": 1, "surrogate reference": 1}[name]
			if !ok {
				want = -1
			}
			bothCheckstyle(data).agree(t, want)
		})
	}
}

func errLine(err error) int {
	if pe, ok := err.(*ParseError); ok {
		return pe.Line
	}
	return -1
}

// scannerSeeds adds the first 2 KiB of the reports of the given kinds: the
// checkout's (testdata/seeds), then the corpus's when ../shared is there.
func scannerSeeds(f *testing.F, dirs ...string) {
	var names []string
	for _, d := range dirs {
		found, _ := filepath.Glob(filepath.Join("testdata", "seeds", d, "*"))
		names = append(names, found...)
	}
	dir, files := reportstest.CorpusIfPresent(f)
	for _, cf := range files {
		if slices.Contains(dirs, cf.Dir()) {
			names = append(names, filepath.Join(dir, cf.Path))
		}
	}
	for _, name := range names {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b[:min(len(b), 2048)])
		}
	}
}

// FuzzCheckstyleScanner: on any input, the scanner succeeds where
// encoding/xml does, with the same findings, and fails where it fails.
func FuzzCheckstyleScanner(f *testing.F) {
	// Small seeds: minimizing a new input found from a large one takes the
	// fuzzer minutes.
	scannerSeeds(f, "checkstyle-xml", "invalid")
	f.Add([]byte(`<checkstyle><file name="a"><error line="1" message="a &amp; b" source="s"/></file></checkstyle>`))
	// Seeds at the bounds: characters XML refuses, nesting past maxXMLDepth.
	// (Text and values past 64 KiB are TestXMLCutsAgree's: the fuzzer takes
	// minutes to minimize an input found from a seed that large.)
	f.Add([]byte("<checkstyle><file name=\"a\x1b\">\x00</file></checkstyle>"))
	f.Add([]byte("<checkstyle>" + strings.Repeat("<a>", maxXMLDepth+1) + "</checkstyle>"))
	f.Add([]byte("<checkstyle><file name=\"a\"><error line=\"1\" message=\"&#0;&#xD800;&#x1F600;\" source=\"s\"/></file></checkstyle>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.Contains(data, []byte("encoding")) {
			return // other encodings go to encoding/xml by design
		}
		bothCheckstyle(data).agreeWhereXMLReads(t)
	})
}

// TestPMDScannerAgrees: on hand-made cases (text with entities, CDATA,
// comments and line ends, prefixes, processing and configuration errors),
// the scanner gives exactly the findings, input status and error line that
// encoding/xml gives.
func TestPMDScannerAgrees(t *testing.T) {
	cases := map[string][]byte{
		"text": []byte("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<pmd xmlns=\"http://pmd.sourceforge.net/report/2.0.0\" version=\"7.0.0\">\n" +
			"<file name=\"src/A&amp;B.java\">\n" +
			"<violation beginline=\"3\" endline=\"4\" begincolumn=\"5\" endcolumn=\"9\" rule=\"UnusedLocalVariable\" ruleset=\"Best Practices\" externalInfoUrl=\"https://docs.pmd-code.org/x.html\" priority=\"3\">\r\n" +
			"  Avoid unused &lt;local&gt; variables such as &apos;x&apos; &#65;&#x42;<!-- a comment -->\r\n<![CDATA[ raw <text> & ]]> after\r\n</violation>\n" +
			"<violation beginline=\"7\" rule=\"NoText\" ruleset=\"Design\" priority=\"1\"/>\n" +
			"<violation beginline=\"8\" rule=\"Empty\" ruleset=\"Design\" priority=\"2\"></violation>\n" +
			"</file>\n<error filename=\"src/C.java\" msg=\"ParseException: x&#10;second line\">stack\ntrace</error>\n" +
			"<suppressedviolation filename=\"src/D.java\"/>\n<configerror rule=\"R\" msg=\"bad &quot;config&quot;\"/>\n</pmd>\n"),
		"prefixes":             []byte(`<p:pmd xmlns:p="urn:x" p:version="6.55.0"><p:file p:name="a.java"><p:violation p:beginline="2" p:rule="R" p:priority="4">m</p:violation></p:file></p:pmd>`),
		"nested":               []byte(`<pmd version="7"><file name="a"><violation beginline="1" rule="R">one <b>two</b> three</violation></file></pmd>`),
		"bad entity in text":   []byte("<pmd>\n<file name=\"a\">\n<violation rule=\"R\">a &nope; b</violation></file></pmd>"),
		"bad entity elsewhere": []byte("<pmd>\n<file name=\"a\"> &nope; <violation rule=\"R\">m</violation></file></pmd>"),
		"mismatched":           []byte("<pmd>\n<file name=\"a\">\n<violation rule=\"R\">m</file></pmd>"),
		"truncated in text":    []byte("<pmd>\n<file name=\"a\">\n<violation rule=\"R\">message"),
		"invalid utf-8":        []byte("<pmd>\n<file name=\"a\">\n<violation rule=\"R\">a\xffb</violation></file></pmd>"),
		"wrong root":           []byte("<?xml version=\"1.0\"?>\n<checkstyle version=\"8\"/>"),
		"NUL in message":       []byte("<pmd>\n<file name=\"a\">\n<violation rule=\"R\">a\x00b</violation></file></pmd>"),
		"ESC in CDATA":         []byte("<pmd>\n<file name=\"a\">\n<violation rule=\"R\"><![CDATA[a\x1bb]]></violation></file></pmd>"),
		"ESC in skipped text":  []byte("<pmd>\n<file name=\"a\">\x1b\n<violation rule=\"R\">m</violation></file></pmd>"),
		"DEL and NEL allowed":  []byte("<pmd>\n<file name=\"a\">\n<violation rule=\"R\">a\x7fb\u0085c</violation></file></pmd>"),
		"too deep":             []byte("<pmd><file name=\"a\"><violation rule=\"R\">" + strings.Repeat("<b>", 300) + strings.Repeat("</b>", 300) + "</violation></file></pmd>"),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			r := bothPMD(data)
			want, ok := map[string]int{"text": 4, "prefixes": 1, "nested": 1}[name] // text: 3 violations and a suppressed one (marked)
			if !ok {
				want = -1
			}
			r.agree(t, want)
			if name == "text" && (len(r.fast) < 1 || r.fast[0].Message != "Avoid unused <local> variables such as 'x' AB\nraw <text> &  after") {
				t.Errorf("first message %+v", r.fast)
			}
		})
	}
}

// TestPMDScannerAgreesOnCorpus: on every PMD XML of the corpus in UTF-8,
// valid or not, the scanner gives exactly what encoding/xml gives.
func TestPMDScannerAgreesOnCorpus(t *testing.T) {
	dir, files := reportstest.Corpus(t)
	cases := map[string][]byte{}
	for _, cf := range files {
		if cf.Dir() != "pmd-xml" && cf.Dir() != "invalid" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, cf.Path))
		if err != nil {
			t.Fatal(err)
		}
		if f, ok := Detect(b); ok && f == FormatPMD && utf8Encoding(xmlDeclaration(b[:min(len(b), 512)])) {
			cases[cf.Path] = b
		}
	}
	if len(cases) < 8 {
		t.Fatalf("only %d corpus files", len(cases))
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			r := bothPMD(data)
			want, ok := map[string]int{"text": 3, "prefixes": 1, "nested": 1, "DEL and NEL allowed": 1}[name]
			if !ok {
				want = -1
			}
			r.agree(t, want)
			if name == "text" && (len(r.fast) < 1 || r.fast[0].Message != "Avoid unused <local> variables such as 'x' AB\nraw <text> &  after") {
				t.Errorf("first message %+v", r.fast)
			}
		})
	}
}

// FuzzPMDScanner: on any input, the scanner succeeds where encoding/xml
// does, with the same findings and input.
func FuzzPMDScanner(f *testing.F) {
	scannerSeeds(f, "pmd-xml")
	f.Add([]byte("<pmd version=\"7\"><file name=\"a\"><violation beginline=\"1\" rule=\"R\">a &amp; b<![CDATA[c\r\n]]>\r</violation></file></pmd>"))
	// Seeds at the bounds (see FuzzCheckstyleScanner).
	f.Add([]byte("<pmd><file name=\"a\"><violation rule=\"R\">\x1b[0m<![CDATA[\x00]]></violation></file></pmd>"))
	f.Add([]byte("<pmd><file name=\"a\"><violation rule=\"R\">" + strings.Repeat("<b>", maxXMLDepth) + "</violation></file></pmd>"))
	f.Add([]byte("<pmd><file name=\"a\"><violation rule=\"R\">ü&lt;\r\n<![CDATA[]]]]>\r</violation></file></pmd>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.Contains(data, []byte("encoding")) {
			return // other encodings go to encoding/xml by design
		}
		bothPMD(data).agreeWhereXMLReads(t)
	})
}

// tooDeep reports whether err is the depth bound's error.
func tooDeep(err error) bool { return err != nil && strings.Contains(err.Error(), errTooDeep.Error()) }
