package parsers

import (
	"bytes"

	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/beevik/etree"
	"github.com/recap-dev/recap/reports"
)

// spotbugsParser reads SpotBugs and FindBugs (1.x–3.0) XML reports with etree:
//
//	<BugCollection version="4.8.2">
//	  <Project><SrcDir>/abs/src/main/java</SrcDir></Project>
//	  <BugInstance type="NP_NULL_ON_SOME_PATH" priority="1" rank="6" abbrev="NP" category="CORRECTNESS" instanceHash="…">
//	    <ShortMessage>…</ShortMessage><LongMessage>…</LongMessage>      (only with -xml:withMessages)
//	    <Class classname="a.B"><SourceLine … start="1" end="90" sourcepath="a/B.java"/></Class>
//	    <Method …><SourceLine … start="10" end="20"/></Method>
//	    <SourceLine classname="a.B" start="12" end="12" sourcepath="a/B.java" primary="true"/>
//	  </BugInstance>
//	  <BugPattern type="NP_NULL_ON_SOME_PATH"><ShortDescription>…</ShortDescription></BugPattern>
//	</BugCollection>
//
// The bug's place is its direct SourceLine child (the primary one when marked),
// else the Method's, Field's or Class's SourceLine. BugPattern descriptions come
// after the bugs, so the document is read whole first.
type spotbugsParser struct{ opts Options }

func newSpotBugs(opts Options) Parser { return &spotbugsParser{opts: opts} }

var primarySourceLine = etree.MustCompilePath("./SourceLine[@primary='true']")

func (p *spotbugsParser) Parse(r io.Reader, emit Emit) (reports.Input, error) {
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
		return in, p.syntaxError(data, err)
	}
	root := doc.Root()
	if root == nil {
		return in, p.syntaxError(data, errors.New("no root element"))
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
	patterns := map[string]string{}
	for _, bp := range root.SelectElements("BugPattern") {
		if sd := bp.SelectElement("ShortDescription"); sd != nil {
			patterns[bp.SelectAttrValue("type", "")] = strings.TrimSpace(sd.Text())
		}
	}
	res := newSourceResolver(p.opts.Root, p.opts.FS, srcDirs)
	for _, b := range root.SelectElements("BugInstance") {
		f, partial := spotbugsFinding(b, patterns, res, in.Tool, in.ToolVersion)
		if err := emit(f, partial); err != nil {
			return in, err
		}
		in.Findings++
	}
	res.finish(&in)
	return in, nil
}

// syntaxError finds the line of a well-formedness error: etree's own errors
// carry no place, so encoding/xml reads the bytes again to name it.
func (p *spotbugsParser) syntaxError(data []byte, err error) error {
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

// spotbugsToolName: SpotBugs continued FindBugs from version 3.1.0 on.
func spotbugsToolName(version string) string {
	parts := strings.SplitN(version, ".", 3)
	if len(parts) >= 2 {
		major, _ := strconv.Atoi(parts[0])
		minor, _ := strconv.Atoi(parts[1])
		if major < 3 || major == 3 && minor < 1 {
			return "FindBugs"
		}
	}
	return "SpotBugs"
}

func spotbugsFinding(b *etree.Element, patterns map[string]string, res *sourceResolver, tool, version string) (reports.Finding, map[string]string) {
	typ := b.SelectAttrValue("type", "")
	prio := atoi(b.SelectAttrValue("priority", ""))
	rank := atoi(b.SelectAttrValue("rank", ""))
	f := reports.Finding{
		Tool: tool, ToolVersion: version, Rule: typ,
		Category: b.SelectAttrValue("category", ""),
		Severity: spotbugsSeverity(rank, prio), Priority: prio,
		HelpURI: "https://spotbugs.readthedocs.io/en/latest/bugDescriptions.html#" + typ,
	}
	if f.Category == "" {
		f.Category = reports.Uncategorized
	}
	f.RuleName = patterns[typ]
	if f.RuleName == "" {
		f.RuleName = b.SelectAttrValue("abbrev", "")
	}
	if sl := bugSourceLine(b); sl != nil {
		f.Path = res.resolve(sl.SelectAttrValue("sourcepath", ""))
		f.Line = atoi(sl.SelectAttrValue("start", ""))
		f.EndLine = atoi(sl.SelectAttrValue("end", ""))
		if f.EndLine < f.Line {
			f.EndLine = f.Line
		}
	}
	f.Message = bugMessage(b, typ, patterns[typ])
	var partial map[string]string
	if h := b.SelectAttrValue("instanceHash", ""); h != "" {
		partial = map[string]string{"instanceHash": h}
	}
	return f, partial
}

func bugSourceLine(b *etree.Element) *etree.Element {
	if sl := b.FindElementPath(primarySourceLine); sl != nil {
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
func bugMessage(b *etree.Element, typ, pattern string) string {
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

// spotbugsSeverity maps SpotBugs' bug rank, which measures how bad a bug is:
// 1–4 (scariest) → error, 5–9 (scary) → warning, 10–20 (troubling, of concern)
// → note. Reports without a rank (FindBugs before 2.0) fall back to priority,
// SpotBugs' confidence: 1 (high) → error, 2 → warning, 3 and more → note.
func spotbugsSeverity(rank, priority int) reports.Severity {
	switch {
	case rank >= 1 && rank <= 4:
		return reports.SeverityError
	case rank >= 5 && rank <= 9:
		return reports.SeverityWarning
	case rank >= 10:
		return reports.SeverityNote
	case priority == 1:
		return reports.SeverityError
	case priority == 2:
		return reports.SeverityWarning
	}
	return reports.SeverityNote
}
