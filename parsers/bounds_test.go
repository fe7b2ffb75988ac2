package parsers

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/reports"
)

// stream is head, n bytes of b, then tail.
func stream(head string, b byte, n int64, tail string) io.Reader {
	return reportstest.Stream(head, string(b), n, tail)
}

// peakHeap: see reportstest.PeakHeap.
func peakHeap(f func()) uint64 { return reportstest.PeakHeap(f) }

// TestXMLBounds: a long text run, a long message, a long CDATA section,
// deep nesting, a long tag or a stream of NULs cost both XML readers (the
// scanner and encoding/xml through xmlLimiter) bounded memory, and end with
// the same findings (messages cut, with a warning) or a named error.
func TestXMLBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("reads inputs of many MB: in the full run, not under -short (the race run)")
	}
	const bound = 6 << 20 // held whole, the inputs below show far above it
	cs := `<checkstyle version="8"><file name="a.java">`
	csTail := `<error line="2" severity="warning" message="after" source="x.Y"/></file></checkstyle>`
	pmd := `<pmd version="7"><file name="a.java"><violation beginline="3" rule="R" ruleset="Design" priority="3">`
	pmdTail := `</violation></file></pmd>`
	cases := []struct {
		name     string
		pmd      bool
		in       func(big int64) io.Reader
		findings int
		msg      string // of the last finding
		warn     string
		err      string
		bound    uint64 // of the heap, when not bound
	}{
		{name: "spaces between elements", in: func(big int64) io.Reader { return stream(cs, ' ', big, csTail) }, findings: 1, msg: "after"},
		{name: "spaces before the root", in: func(big int64) io.Reader { return stream("", ' ', big, cs+csTail) }, findings: 1, msg: "after"},
		{name: "long message text", pmd: true, in: func(big int64) io.Reader { return stream(pmd, 'x', big, pmdTail) }, findings: 1,
			msg: strings.Repeat("x", maxMessage-1) + "…", warn: "1 value longer than 64 KiB cut to that size (marked …)"},
		{name: "long CDATA", pmd: true, in: func(big int64) io.Reader { return stream(pmd+"<![CDATA[", 'y', big, "]]>"+pmdTail) }, findings: 1,
			msg: strings.Repeat("y", maxMessage-1) + "…", warn: "1 value longer than 64 KiB cut to that size (marked …)"},
		{name: "long comment", in: func(big int64) io.Reader { return stream(cs+"<!--", 'c', big, "-->"+csTail) }, err: "longer than 4 MiB", bound: 6 * maxXMLTag},
		{name: "long attribute", in: func(big int64) io.Reader { return stream(cs+`<error line="1" message="`, 'z', big, `"/>`+csTail) }, err: "longer than 4 MiB", bound: 6 * maxXMLTag},
		{name: "NULs", in: func(big int64) io.Reader { return stream(cs, 0, big, csTail) }, err: "illegal character code U+0000"},
		{name: "NULs before the root", in: func(big int64) io.Reader { return stream("", 0, big, cs+csTail) }, err: "illegal character code U+0000"},
		{name: "deep nesting", in: func(big int64) io.Reader {
			return io.MultiReader(strings.NewReader(cs), reportstest.Repeat("<a>", big))
		}, err: "elements nested deeper than 256"},
	}
	for _, c := range cases {
		for _, reader := range []string{"scanner", "encoding/xml"} {
			t.Run(c.name+"/"+reader, func(t *testing.T) {
				var p interface {
					scanner(bool) func(io.Reader, Emit) (reports.Input, error)
				}
				if c.pmd {
					p = pmdReaders{&pmdParser{opts: Options{Name: "report"}}}
				} else {
					p = checkstyleReaders{&checkstyleParser{opts: Options{Name: "report"}}}
				}
				big := int64(32 << 20)
				if reader == "encoding/xml" {
					big = 8 << 20 // encoding/xml reads 10 MB/s
				}
				var got []reports.Finding
				var in reports.Input
				var err error
				peak := peakHeap(func() {
					in, err = p.scanner(reader == "scanner")(c.in(big), func(f reports.Finding, _ map[string]string) error {
						got = append(got, f)
						return nil
					})
				})
				t.Logf("heap peak %.1f MiB", float64(peak)/(1<<20))
				if b := cmp.Or(c.bound, bound); peak > b {
					t.Errorf("heap peaked %d MiB above the start, want at most %d", peak>>20, b>>20)
				}
				if c.err != "" {
					if err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), "report: line ") {
						t.Fatalf("error %v, want one naming the input and line, with %q", err, c.err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != c.findings || got[len(got)-1].Message != c.msg {
					t.Fatalf("%d findings, last message %.80q…, want %d, %.80q", len(got), got[len(got)-1].Message, c.findings, c.msg)
				}
				if w := strings.Join(in.Warnings, "; "); w != c.warn {
					t.Errorf("warnings %q, want %q", w, c.warn)
				}
			})
		}
	}
}

type pmdReaders struct{ p *pmdParser }

func (r pmdReaders) scanner(fast bool) func(io.Reader, Emit) (reports.Input, error) {
	if fast {
		return r.p.scan
	}
	return r.p.parseXML
}

type checkstyleReaders struct{ p *checkstyleParser }

func (r checkstyleReaders) scanner(fast bool) func(io.Reader, Emit) (reports.Input, error) {
	if fast {
		return r.p.scan
	}
	return r.p.parseXML
}

// TestXMLCutsAgree: values past maxXMLValue (a message attribute, a
// message text split by entities and CDATA across the scanner's chunks)
// are cut at the same place by both readers, with the same warning.
func TestXMLCutsAgree(t *testing.T) {
	long := strings.Repeat("é&amp;<![CDATA[ü\r\n]]>x", 20000)
	pmd := []byte(`<pmd version="7"><file name="a.java"><violation beginline="3" rule="R">` + long + `</violation>` +
		`<violation beginline="4" rule="R2" externalInfoUrl="` + strings.Repeat("u", 70000) + `">m</violation></file></pmd>`)
	r := bothPMD(pmd)
	r.agree(t, 2)
	if len(r.fastIn.Warnings) != 1 || r.fastIn.Warnings[0] != "2 values longer than 64 KiB cut to that size (marked …)" {
		t.Errorf("warnings %q", r.fastIn.Warnings)
	}
	cs := []byte(`<checkstyle><file name="a"><error line="1" message="` + strings.Repeat("ab&#10;", 30000) + `" source="s"/></file></checkstyle>`)
	r = bothCheckstyle(cs)
	r.agree(t, 1)
	if len(r.fastIn.Warnings) != 1 {
		t.Errorf("warnings %q", r.fastIn.Warnings)
	}
	// The text a reader keeps is cut on a character, never inside one.
	if got := cutValue(strings.Repeat("a", maxXMLValue-1)+"é", new(int)); got != strings.Repeat("a", maxXMLValue-1)+"…" {
		t.Errorf("cut %q", got[len(got)-8:])
	}
	if !bytes.Equal([]byte(cutValue("short", new(int))), []byte("short")) {
		t.Error("a short value was cut")
	}
}

// TestSARIFBounds: one huge string anywhere in a SARIF log (a message, a
// snippet, a URI, a rule's skipped description, a property bag, a member
// recap skips, a member name), a long run of white space, or a long number
// cost bounded memory; the values recap keeps are cut with … and counted
// in one warning; errors after a cut still give the input's offset.
func TestSARIFBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("reads inputs of many MB: in the full run, not under -short (the race run)")
	}
	const big = 32 << 20 // held whole, it shows far above the bound
	const bound = 12 << 20
	head := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T","rules":[{"id":"R1","fullDescription":{"text":"`
	rule := `"}}]}},"results":[`
	result := `{"ruleId":"R1","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go"},"region":{"startLine":3}}}]}`
	tail := `]}]}`
	huge := func(pre string, b byte, post string) io.Reader { return stream(pre, b, big, post) }
	warn1 := "1 string longer than its bound cut (marked …)"
	cases := []struct {
		name     string
		in       io.Reader
		findings int
		check    func(f reports.Finding) string // "" when right
		warn     string
		err      string
		offset   int64 // of the error, when not 0
	}{
		{name: "message", in: huge(head+"d"+rule+`{"ruleId":"R1","message":{"text":"`, 'x', `"}},`+result+tail), findings: 2,
			check: func(f reports.Finding) string {
				if f.Message != strings.Repeat("x", maxMessage-1)+"…" {
					return "message " + f.Message[:20]
				}
				return ""
			}, warn: warn1},
		{name: "uri", in: huge(head+"d"+rule+`{"ruleId":"R1","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"`, 'p', `"},"region":{"startLine":3}}}]},`+result+tail), findings: 2,
			check: func(f reports.Finding) string {
				if len(f.Path) > maxSARIFName+len(ellipsis) || !strings.HasSuffix(f.Path, "p…") {
					return fmt.Sprintf("path of %d bytes", len(f.Path))
				}
				return ""
			}, warn: warn1},
		{name: "escaped snippet", in: huge(head+"d"+rule+`{"ruleId":"R1","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go"},"region":{"startLine":3,"snippet":{"text":"\u00e9`, 'q', `"}}}}]},`+result+tail), findings: 2, warn: warn1},
		{name: "rule description", in: huge(head, 'd', rule+result+tail), findings: 1, warn: warn1},
		{name: "property bag", in: huge(head+`d"},"properties":{"category":"`, 'c', `"}`+rule[2:]+result+tail), findings: 1, warn: warn1},
		{name: "skipped member", in: huge(`{"x":"`, 's', `",`+head[1:]+"d"+rule+result+tail), findings: 1, warn: warn1},
		{name: "member name", in: huge(head+"d"+rule+`{"`, 'n', `":1,`+result[1:]+tail), findings: 1, warn: warn1},
		{name: "white space", in: huge(head+"d"+rule, ' ', result+tail), findings: 1},
		{name: "number", in: huge(head+"d"+rule+`{"ruleId":"R1","rank":`, '9', `}`+tail), err: "a number or literal longer than 4 KiB"},
		{name: "error after a cut", in: huge(head, 'd', rule+"oops"+tail), err: "invalid character 'o'", offset: int64(len(head) + big + len(rule))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []reports.Finding
			var in reports.Input
			var err error
			peak := peakHeap(func() {
				in, err = newSARIF(Options{Name: "report"}).Parse(c.in, func(f reports.Finding, _ map[string]string) error {
					got = append(got, f)
					return nil
				})
			})
			t.Logf("heap peak %.1f MiB", float64(peak)/(1<<20))
			if peak > bound {
				t.Errorf("heap peaked %d MiB above the start, want at most %d", peak>>20, bound>>20)
			}
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), "report: ") {
					t.Fatalf("error %v, want one naming the input, with %q", err, c.err)
				}
				if pe := err.(*ParseError); c.offset != 0 && pe.Offset != c.offset {
					t.Errorf("error at byte %d, want %d", pe.Offset, c.offset)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != c.findings {
				t.Fatalf("%d findings, want %d", len(got), c.findings)
			}
			if c.check != nil {
				if msg := c.check(got[0]); msg != "" {
					t.Error(msg)
				}
			}
			if last := got[len(got)-1]; last.Path != "a.go" || last.Line != 3 || last.Message != "m" {
				t.Errorf("last finding %+v", last)
			}
			if w := strings.Join(in.Warnings, "; "); w != c.warn {
				t.Errorf("warnings %q, want %q", w, c.warn)
			}
		})
	}
}

// TestSARIFCuts: strings past their bound (and not past the limiter's) are
// cut on whole escapes and characters; those under it are read as before.
func TestSARIFCuts(t *testing.T) {
	s := &sarifStream{}
	cases := []struct{ raw, want string }{
		{`"abc"`, "abc"},
		{`"` + strings.Repeat("a", maxSARIFName-1) + `\u00e9"`, strings.Repeat("a", maxSARIFName-1) + "…"},
		{`"` + strings.Repeat("a", maxSARIFName-2) + `\n"`, strings.Repeat("a", maxSARIFName-2) + "\n"},
		{`"` + strings.Repeat("a", maxSARIFName-3) + `\ud83d\ude00b"`, strings.Repeat("a", maxSARIFName-3) + "…"},
		{`"` + strings.Repeat("a", maxSARIFName-1) + "é" + `"`, strings.Repeat("a", maxSARIFName-1) + "…"},
	}
	for _, c := range cases {
		if got := s.unquote([]byte(c.raw), maxSARIFName); got != c.want {
			t.Errorf("unquote(%.20q…) = …%q, want …%q", c.raw, got[max(0, len(got)-10):], c.want[max(0, len(c.want)-10):])
		}
	}
	if s.cuts != 3 {
		t.Errorf("%d cuts counted, want 3", s.cuts)
	}
}

// TestJSONLimiterCuts: a string past maxJSONString is cut where no escape,
// surrogate pair or character is split, and still decodes; the input's
// offsets of what follows are kept.
func TestJSONLimiterCuts(t *testing.T) {
	if testing.Short() {
		t.Skip("reads inputs of many MB: in the full run, not under -short (the race run)")
	}
	tails := []string{`\u00e9b`, `\ud83d\ude00b`, `\\b`, `\"b`, "éb", "😀b", `\n`}
	for _, tail := range tails {
		for pad := 0; pad < 8; pad++ {
			for _, chunk := range []int{64 << 10, 4093, 7} {
				if chunk == 7 && pad > 1 {
					continue // slow
				}
				body := strings.Repeat("a", maxJSONString-pad) + strings.Repeat(tail, 3)
				if tail == `\n` {
					body = strings.Repeat(tail, maxJSONString/2+pad+1) // escapes only
				}
				in := `["` + body + `",` + "\n" + `"after", 12, "` + strings.Repeat("s", 100) + `"]`
				l := newJSONLimiter(&chunkReader{r: strings.NewReader(in), n: chunk})
				out, err := io.ReadAll(l)
				if err != nil {
					t.Fatal(err)
				}
				var got []any
				if err := jsonv2.Unmarshal(out, &got); err != nil {
					t.Fatalf("tail %q pad %d chunk %d: %v", tail, pad, chunk, err)
				}
				s := got[0].(string)
				if !strings.HasSuffix(s, "…") || !utf8.ValidString(s) || strings.ContainsRune(s, utf8.RuneError) || got[1] != "after" || len(got) != 4 {
					t.Errorf("tail %q pad %d chunk %d: …%q, %v", tail, pad, chunk, s[len(s)-12:], got[1:])
				}
				if l.cuts != 1 {
					t.Errorf("%d cuts", l.cuts)
				}
				at := int64(bytes.Index(out, []byte(`"after"`)))
				if want := int64(strings.Index(in, `"after"`)); l.original(at) != want {
					t.Errorf("tail %q pad %d chunk %d: \"after\" at %d, want %d", tail, pad, chunk, l.original(at), want)
				}
			}
		}
	}
	// Under the bounds, any JSON passes as it is, however it is read.
	in := `{"a": [1, -2.5e3, true, null, "x\"y\\z\u00e9\ud83d\ude00"], "b" :` + strings.Repeat(" ", 5000) + `"` + strings.Repeat("c", 70000) + `"}`
	for _, chunk := range []int{1, 3, 8, 100, 64 << 10} {
		out, err := io.ReadAll(newJSONLimiter(&chunkReader{r: strings.NewReader(in), n: chunk}))
		if err != nil || string(out) != in {
			t.Errorf("chunk %d: changed (%v)", chunk, err)
		}
	}
}

// chunkReader reads at most n bytes at a time.
type chunkReader struct {
	r io.Reader
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

func TestIndexQuoteOrBackslash(t *testing.T) {
	for _, s := range []string{"", "a", `"`, `\`, "abcdefgh\"", "abcdefghijklmnop", "abcdefg\\hijk\"", "\x00\x01\"", "ééééé\"", "\xff\xfe\xdd\xa2\\", strings.Repeat("x", 37) + `"`} {
		want := strings.IndexAny(s, `"\`)
		if got := indexQuoteOrBackslash([]byte(s)); got != want {
			t.Errorf("%q: %d, want %d", s, got, want)
		}
	}
}

// TestSARIFLongStringsRead: however the input comes in (a byte, a few
// bytes, a buffer at a time), a long string of escapes and characters is
// noticed in the decoder's buffer, cut where nothing is split, and what
// follows is read as before, at the input's offsets.
func TestSARIFLongStringsRead(t *testing.T) {
	if testing.Short() {
		t.Skip("reads inputs of many MB: in the full run, not under -short (the race run)")
	}
	long := strings.Repeat(`a\u00e9\ud83d\ude00\"\\é😀`, (3<<20)/30)
	doc := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[` +
		`{"ruleId":"R","message":{"text":"` + long + `"}},` +
		`{"ruleId":"R","message":{"text":"m"},"properties":{"x":` + strings.Repeat(" ", 2<<20) + `"` + long + `"}},` +
		`{"ruleId":"R","message":{"text":"last"}}, oops]}]}`
	for _, chunk := range []int{1, 7, 4093, 1 << 20} {
		var got []reports.Finding
		in, err := newSARIF(Options{Name: "report"}).Parse(&chunkReader{r: strings.NewReader(doc), n: chunk}, func(f reports.Finding, _ map[string]string) error {
			got = append(got, f)
			return nil
		})
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Offset != int64(strings.Index(doc, "oops")) {
			t.Fatalf("chunk %d: error %v, want one at byte %d", chunk, err, strings.Index(doc, "oops"))
		}
		if len(got) != 3 || got[2].Message != "last" || !strings.HasSuffix(got[0].Message, "…") || strings.ContainsRune(got[0].Message, utf8.RuneError) {
			msgs := []string{}
			for _, f := range got {
				msgs = append(msgs, f.Message[max(0, len(f.Message)-20):])
			}
			t.Fatalf("chunk %d: %d findings, message ends %q", chunk, len(got), msgs)
		}
		if w := strings.Join(in.Warnings, "; "); w != "2 strings longer than its bound cut (marked …)" {
			t.Errorf("chunk %d: warnings %q", chunk, w)
		}
	}
}

// TestSpotBugsBounds: a BugInstance with a huge message or a huge number
// of children, or a document nested too deep, costs the SpotBugs reader
// bounded memory; the bug is still reported, its message cut.
func TestSpotBugsBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("reads inputs of many MB: in the full run, not under -short (the race run)")
	}
	const big = 16 << 20 // held whole (twice, by etree), it shows above the bound
	head := `<BugCollection version="4.8.2"><BugInstance type="X" rank="3" category="C">`
	tail := `<SourceLine start="7" end="7" sourcepath="a/B.java"/></BugInstance><BugInstance type="Y"/></BugCollection>`
	cases := []struct {
		name string
		in   io.Reader
		msg  string
		line int
		err  string
	}{
		{name: "long message", in: reportstest.Stream(head+"<LongMessage>", "m", big, "</LongMessage>"+tail), msg: strings.Repeat("m", maxMessage-1) + "…", line: 7},
		// The SourceLine after maxBugNodes children is not kept.
		{name: "many children", in: reportstest.Stream(head, `<Class classname="a.B"/>`, big/24*24, tail), msg: "X in a.B", line: 0},
		{name: "deep", in: reportstest.Stream(head, "<a>", big, tail), err: "elements nested deeper than 256"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []reports.Finding
			var in reports.Input
			var err error
			peak := peakHeap(func() {
				in, err = newSpotBugs(Options{Name: "report"}).Parse(c.in, func(f reports.Finding, _ map[string]string) error {
					got = append(got, f)
					return nil
				})
			})
			t.Logf("heap peak %.1f MiB", float64(peak)/(1<<20))
			if peak > 12<<20 {
				t.Errorf("heap peaked %d MiB above the start, want at most 12", peak>>20)
			}
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || len(got) != 2 || got[0].Message != c.msg || got[0].Line != c.line {
				t.Fatalf("%d findings, error %v, first %+v", len(got), err, got)
			}
			if len(in.Warnings) == 0 || !strings.Contains(strings.Join(in.Warnings, "\n"), "cut to that size") {
				t.Errorf("warnings %q", in.Warnings)
			}
		})
	}
}

// TestDistinctFilesBounded: the paths a SARIF reader caches (placed, or
// not placeable) stay bounded whatever the number of distinct files a
// report names: 400,000 files, each named once, hold no more heap than a
// few MB of caches.
func TestDistinctFilesBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 400,000 results")
	}
	const n = 400_000
	pr, pw := io.Pipe()
	go func() {
		w := bufio.NewWriter(pw)
		w.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				w.WriteByte(',')
			}
			fmt.Fprintf(w, `{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"/ci/src/d%d/f%d.java"},"region":{"startLine":1}}}]}`, i%1000, i)
		}
		w.WriteString(`]}]}`)
		w.Flush()
		pw.Close()
	}()
	root := t.TempDir()
	count := 0
	// The collector paced at 25%, not 100%: what is held is about 24 MB,
	// which the default pacing lets grow to twice that in garbage between
	// collections, the bound's 48 MB exactly (a loaded machine went past
	// it); an unbounded cache of the 400,000 paths would be above it
	// either way.
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	peak := peakHeap(func() {
		_, err := ReadAll([]string{"-"}, ReadOptions{Root: root, Stdin: pr}, func(reports.Finding) error { count++; return nil })
		if err != nil {
			t.Error(err)
		}
	})
	if count != n {
		t.Fatalf("%d findings, want %d", count, n)
	}
	if peak > 48<<20 {
		t.Errorf("reading %d distinct files held %d MB of heap", n, peak>>20)
	}
}

// TestSARIFRuleTextsBounded: a tool declaring thousands of rules with long
// descriptions and help costs no more memory than the rule table keeps:
// past twice its bound, descriptors' texts are skipped unread, and counted.
func TestSARIFRuleTextsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 48 MB of rule texts")
	}
	const rules, text = 2000, 8000
	long := strings.Repeat("a", text-8)
	var b strings.Builder
	b.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T","rules":[`)
	for i := range rules {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"R%d","shortDescription":{"text":"s%d %s"},"fullDescription":{"text":"f%d %s"},"help":{"text":"h%d %s"}}`, i, i, long, i, long, i, long)
	}
	b.WriteString(`]}},"results":[{"ruleId":"R1999","message":{"text":"m"}}]}]}`)
	log := b.String()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	findings, in := ParseAll(strings.NewReader(log), "rules.sarif", ReadOptions{})
	runtime.ReadMemStats(&after)
	if in.Error != "" || len(findings) != 1 {
		t.Fatalf("%d findings, error %q", len(findings), in.Error)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	if limit := uint64(3*reports.MaxRuleBytes + 8<<20); alloc > limit {
		t.Errorf("reading %d MB of rule texts allocated %d MB, want at most %d MB", len(log)>>20, alloc>>20, limit>>20)
	}
	if in.Rules.Len() != rules || in.Rules.TextBytes() > reports.MaxRuleBytes || in.Rules.Cut == 0 {
		t.Errorf("%d rules, %d bytes of text, %d cut", in.Rules.Len(), in.Rules.TextBytes(), in.Rules.Cut)
	}
	if r := in.Rules.Lookup("T", "R0"); r == nil || !strings.HasPrefix(r.Full, "f0 aaa") {
		t.Errorf("the first rule's texts are kept: %+v", r)
	}
	if !slices.ContainsFunc(in.Warnings, func(w string) bool { return strings.Contains(w, "of the rules cut to the rule table's bounds") }) {
		t.Errorf("warnings %q", in.Warnings)
	}
}
