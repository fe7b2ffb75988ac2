package parsers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beevik/etree"
	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/reports"
)

// The SpotBugs reader as it was before it streamed: the whole document
// read by etree. It is the oracle of TestSpotBugsStreamAgrees.

var domPrimarySourceLine = etree.MustCompilePath("./SourceLine[@primary='true']")

func (p *spotbugsParser) parseDOM(r io.Reader, emit Emit) (reports.Input, error) {
	in := reports.Input{Format: string(FormatSpotBugs), Tool: "SpotBugs"}
	data, err := io.ReadAll(r)
	if err != nil {
		return in, &ParseError{Input: p.opts.Name, Offset: int64(len(data)), Err: err}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return in, &ParseError{Input: p.opts.Name, Offset: 0, Err: ErrEmpty}
	}
	doc := etree.NewDocument()
	doc.ReadSettings.CharsetReader = charsetReader
	if err := doc.ReadFromBytes(data); err != nil {
		return in, p.domSyntaxError(data, err)
	}
	root := doc.Root()
	if root == nil {
		return in, p.domSyntaxError(data, errors.New("no root element"))
	}
	if root.Tag != "BugCollection" {
		return in, &ParseError{Input: p.opts.Name, Line: 0, Offset: -1, Err: fmt.Errorf("root element is <%s>, want <BugCollection>", root.Tag)}
	}
	in.ToolVersion = root.SelectAttrValue("version", "")
	in.Tool = spotbugsToolName(in.ToolVersion)

	var srcDirs []string
	for _, proj := range root.SelectElements("Project") {
		for _, s := range proj.SelectElements("SrcDir") {
			if d := strings.TrimSpace(s.Text()); d != "" {
				srcDirs = append(srcDirs, d)
			}
		}
	}
	patterns := map[string]*etree.Element{}
	for _, bp := range root.SelectElements("BugPattern") {
		patterns[bp.SelectAttrValue("type", "")] = bp
	}
	codes := map[string]int{}
	for _, bc := range root.SelectElements("BugCode") {
		if n := atoi(bc.SelectAttrValue("cweid", "")); n > 0 {
			codes[bc.SelectAttrValue("abbrev", "")] = n
		}
	}
	in.Rules = &reports.Rules{}
	res := newSourceResolver(p.opts.Root, p.opts.FS, srcDirs, p.opts.Sources)
	for _, b := range root.SelectElements("BugInstance") {
		f, partial := domSpotbugsFinding(b, patterns, codes, in.Rules, res, in.Tool, in.ToolVersion)
		if err := emit(f, partial); err != nil {
			return in, err
		}
		in.Findings++
	}
	if e := root.SelectElement("Errors"); e != nil { // what SpotBugs could not analyse, read whole
		errorsOf(e).note(&in, res, in.Tool)
	}
	res.finish(&in)
	return in, nil
}

// syntaxError finds the line of a well-formedness error: etree's own errors
// carry no place, so encoding/xml reads the bytes again to name it.
func (p *spotbugsParser) domSyntaxError(data []byte, err error) error {
	d := newXMLDecoder(bytes.NewReader(data))
	for {
		_, xerr := d.Token()
		if xerr == io.EOF {
			break
		}
		if xerr != nil {
			return xmlFail(p.opts.Name, d, xerr)
		}
	}
	return &ParseError{Input: p.opts.Name, Offset: -1, Err: err}
}

func domSpotbugsFinding(b *etree.Element, patterns map[string]*etree.Element, codes map[string]int, rules *reports.Rules, res *sourceResolver,
	tool, version string) (reports.Finding, map[string]string) {
	typ := b.SelectAttrValue("type", "")
	prio := atoi(b.SelectAttrValue("priority", ""))
	rank := atoi(b.SelectAttrValue("rank", ""))
	help := "https://spotbugs.readthedocs.io/en/latest/bugDescriptions.html#" + typ
	f := reports.Finding{
		Tool: tool, ToolVersion: version, Rule: typ,
		ToolCategory: b.SelectAttrValue("category", ""),
		Severity:     spotbugsSeverity(rank, prio), Priority: prio, Rank: uint8(min(max(rank, 0), 255)),
		HelpURI: help,
	}
	short, details := "", ""
	bp := patterns[typ]
	if bp != nil {
		if sd := bp.SelectElement("ShortDescription"); sd != nil {
			short = strings.TrimSpace(sd.Text())
		}
		if d := bp.SelectElement("Details"); d != nil {
			details = ruleText(d.Text())
		}
		if f.ToolCategory == "" {
			f.ToolCategory = bp.SelectAttrValue("category", "")
		}
	}
	f.Category = reports.Categorize(tool, f.ToolCategory)
	switch {
	case atoi(b.SelectAttrValue("cweid", "")) > 0:
		f.CWE = []int{atoi(b.SelectAttrValue("cweid", ""))}
	case bp != nil && atoi(bp.SelectAttrValue("cweid", "")) > 0:
		f.CWE = []int{atoi(bp.SelectAttrValue("cweid", ""))}
	case codes[b.SelectAttrValue("abbrev", "")] > 0:
		f.CWE = []int{codes[b.SelectAttrValue("abbrev", "")]}
	}
	f.Quality, f.Impact = reports.Assess(&reports.Signals{Tool: tool, Rule: typ, Category: f.Category, ToolCategory: f.ToolCategory,
		Rank: rank, Priority: prio, CWE: f.CWE, Level: f.Severity})
	var tags []string
	if f.ToolCategory != "" {
		tags = []string{f.ToolCategory}
	}
	if rules.Lookup(tool, typ) == nil {
		ruleCWE := f.CWE
		if c := atoi(b.SelectAttrValue("cweid", "")); c > 0 {
			ruleCWE = nil
			if bp != nil && atoi(bp.SelectAttrValue("cweid", "")) > 0 {
				ruleCWE = []int{atoi(bp.SelectAttrValue("cweid", ""))}
			} else if codes[b.SelectAttrValue("abbrev", "")] > 0 {
				ruleCWE = []int{codes[b.SelectAttrValue("abbrev", "")]}
			}
		}
		rules.Add(tool, reports.Rule{ID: typ, Name: short, Short: short, Full: details, Tags: tags, CWE: ruleCWE, HelpURI: help})
	}
	f.RuleName = short
	if f.RuleName == "" {
		f.RuleName = b.SelectAttrValue("abbrev", "")
	}
	if sl := domBugSourceLine(b); sl != nil {
		f.Path = res.resolve(sl.SelectAttrValue("sourcepath", ""))
		f.Line = atoi(sl.SelectAttrValue("start", ""))
		f.EndLine = atoi(sl.SelectAttrValue("end", ""))
		if f.Line <= 0 { // a field's: the class's first line, in the same file
			f.Line, f.EndLine = 0, 0
			if cl := b.FindElement("./Class/SourceLine"); cl != nil && cl.SelectAttrValue("sourcepath", "") == sl.SelectAttrValue("sourcepath", "") {
				f.Line = max(atoi(cl.SelectAttrValue("start", "")), 0)
			}
		}
		if f.EndLine < f.Line {
			f.EndLine = f.Line
		}
	}
	f.Message = domBugMessage(b, typ, short)
	var partial map[string]string
	if h := b.SelectAttrValue("instanceHash", ""); h != "" {
		partial = map[string]string{"instanceHash": h}
	}
	return f, partial
}

func domBugSourceLine(b *etree.Element) *etree.Element {
	if sl := b.FindElementPath(domPrimarySourceLine); sl != nil {
		return sl
	}
	if sl := b.SelectElement("SourceLine"); sl != nil {
		return sl
	}
	for _, parent := range []string{"Method", "Field", "Class"} {
		if e := b.SelectElement(parent); e != nil {
			if sl := e.SelectElement("SourceLine"); sl != nil {
				return sl
			}
		}
	}
	return nil
}

// bugMessage: the LongMessage (reports written with -xml:withMessages), else
// the ShortMessage, else the pattern's description, else the bug type; the
// class and method are added when the report gives no message of its own.
func domBugMessage(b *etree.Element, typ, pattern string) string {
	for _, tag := range []string{"LongMessage", "ShortMessage"} {
		if e := b.SelectElement(tag); e != nil {
			if m := messageText(e.Text()); m != "" {
				return m
			}
		}
	}
	m := pattern
	if m == "" {
		m = typ
	}
	where := ""
	if c := b.SelectElement("Class"); c != nil {
		where = c.SelectAttrValue("classname", "")
	}
	if mth := b.SelectElement("Method"); mth != nil {
		if name := mth.SelectAttrValue("name", ""); name != "" {
			where += "." + name
		}
	}
	if where != "" {
		m += " in " + where
	}
	return orMessage(messageText(m))
}

// TestSpotBugsStreamAgrees: on every SpotBugs file of the corpus (the
// invalid one too) and on made-up ones (the patterns and the SrcDirs before
// or after the bugs, more bugs than spotbugsHeld, truncated, blank, another
// root), the streaming reader gives exactly the findings, input and error
// of the whole-document reader it replaced.
func TestSpotBugsStreamAgrees(t *testing.T) {
	dir, files := reportstest.Corpus(t)
	cases := map[string][]byte{}
	for _, cf := range files {
		if cf.Dir() != "spotbugs-xml" && !(cf.Dir() == "invalid" && strings.Contains(cf.Path, "findbugs")) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, cf.Path))
		if err != nil {
			t.Fatal(err)
		}
		cases[cf.Path] = b
	}
	if len(cases) != 16 {
		t.Fatalf("%d corpus files, want 16", len(cases))
	}
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "core/src/a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "core/src/a/B.java"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var bugs strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&bugs, `<BugInstance type="T%d" priority="%d" rank="%d" abbrev="A" category="C" instanceHash="h%d">`+
			`<Class classname="a.B"><SourceLine classname="a.B" start="1" end="9" sourcepath="a/B.java"/></Class>`+
			`<Method classname="a.B" name="m%d"><SourceLine start="%d" end="%d" sourcepath="a/B.java"/></Method>%s</BugInstance>`,
			i%7, i%3+1, i%20+1, i, i, i+2, i+3, map[bool]string{true: "<LongMessage>own &amp; message</LongMessage>"}[i%5 == 0])
	}
	patterns := `<BugPattern type="T1"><ShortDescription>One</ShortDescription></BugPattern><BugPattern type="T2"><ShortDescription> Two </ShortDescription></BugPattern>`
	project := `<Project><SrcDir>` + root + `/core/src</SrcDir></Project>`
	cases["patterns after"] = []byte(`<?xml version="1.0"?><BugCollection version="4.8.2">` + project + bugs.String() + patterns + `<Errors/></BugCollection>`)
	cases["patterns and project first"] = []byte(`<BugCollection version="3.0.1">` + patterns + project + bugs.String() + `</BugCollection>`)
	cases["project after"] = []byte(`<BugCollection version="4.0.0">` + bugs.String() + project + `</BugCollection>`)
	cases["latin-1"] = []byte("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><BugCollection version=\"4\"><BugInstance type=\"X\"><LongMessage>caf\xe9</LongMessage></BugInstance></BugCollection>")
	cases["truncated"] = []byte(`<BugCollection version="4.8.2">` + bugs.String()[:5000])
	cases["mismatched"] = []byte("<BugCollection>\n<BugInstance type=\"X\">\n</Bug></BugCollection>")
	cases["blank"] = []byte(" \n\t")
	cases["empty"] = nil
	cases["other root"] = []byte(`<?xml version="1.0"?><pmd version="7"/>`)
	cases["after the root"] = []byte(`<BugCollection><BugInstance type="X"/></BugCollection><!-- x --><bad`)
	cases["comments and CDATA"] = []byte(`<BugCollection><BugInstance type="X"><LongMessage>a<!-- c -->b<![CDATA[ <c> ]]></LongMessage><?pi x?></BugInstance></BugCollection>`)
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			p := &spotbugsParser{opts: Options{Name: "report", Root: root}}
			var stream, dom []reports.Finding
			var streamPartial, domPartial []map[string]string
			in, err := p.Parse(bytes.NewReader(data), func(f reports.Finding, partial map[string]string) error {
				stream, streamPartial = append(stream, f), append(streamPartial, partial)
				return nil
			})
			domIn, domErr := p.parseDOM(bytes.NewReader(data), func(f reports.Finding, partial map[string]string) error {
				dom, domPartial = append(dom, f), append(domPartial, partial)
				return nil
			})
			if d := cmp.Diff(dom, stream); d != "" {
				t.Errorf("findings differ (-dom +stream):\n%s", d)
			}
			if d := cmp.Diff(domPartial, streamPartial); d != "" {
				t.Errorf("instance hashes differ (-dom +stream):\n%s", d)
			}
			if d := cmp.Diff(domIn, in); d != "" {
				t.Errorf("input differs (-dom +stream):\n%s", d)
			}
			if fmt.Sprint(err) != fmt.Sprint(domErr) {
				t.Errorf("errors differ:\nstream %v\ndom    %v", err, domErr)
			}
			if want, ok := map[string]int{"patterns after": 3000, "project after": 3000, "latin-1": 1}[name]; ok && len(stream) != want {
				t.Errorf("%d findings, want %d", len(stream), want)
			}
		})
	}
}
