package parsers

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/beevik/etree"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/reports"
)

// spotbugsParser reads SpotBugs and FindBugs (1.x–3.0) XML reports as a
// stream (encoding/xml, through xmlLimiter's bounds):
//
//	<BugCollection version="4.8.2">
//	  <Project><SrcDir>/abs/src/main/java</SrcDir></Project>
//	  <BugInstance type="NP_NULL_ON_SOME_PATH" priority="1" rank="6" abbrev="NP" category="CORRECTNESS" instanceHash="…">
//	    <ShortMessage>…</ShortMessage><LongMessage>…</LongMessage>      (only with -xml:withMessages)
//	    <Class classname="a.B"><SourceLine … start="1" end="90" sourcepath="a/B.java"/></Class>
//	    <Method …><SourceLine … start="10" end="20"/></Method>
//	    <SourceLine classname="a.B" start="12" end="12" sourcepath="a/B.java" primary="true"/>
//	  </BugInstance>
//	  <BugPattern type="NP_NULL_ON_SOME_PATH" cweid="476" category="CORRECTNESS"><ShortDescription>…</ShortDescription><Details>HTML</Details></BugPattern>
//	  <BugCode abbrev="NP" cweid="476"><Description>…</Description></BugCode>
//	</BugCollection>
//
// The bug's place is its direct SourceLine child (the primary one when marked),
// else the Method's, Field's or Class's SourceLine. Each BugInstance is read
// into an etree element of its own and reduced to the few fields its finding
// needs (bugFields); the BugPattern descriptions (the rule names and texts,
// the CWE ids, and the message of a bug without one) come after the bugs,
// and the SrcDirs may, so the findings are completed and emitted at the end
// of the document. The
// fields wait in memory up to spotbugsHeld bugs, then in a temporary file:
// memory does not grow with the number of bugs.
type spotbugsParser struct{ opts Options }

func newSpotBugs(opts Options) Parser { return &spotbugsParser{opts: opts} }

var primarySourceLine = etree.MustCompilePath("./SourceLine[@primary='true']")

// Bounds of the SpotBugs reader, beyond the XML readers' own.
const (
	// spotbugsHeld is the number of bugs whose fields wait in memory for
	// the end of the document; past it they wait in a temporary file.
	spotbugsHeld = 1024
	// maxBugNodes bounds the elements kept of one BugInstance, Project or
	// BugPattern (a real one has a dozen); the rest are skipped.
	maxBugNodes = 4096
	// maxBugText bounds the text kept of one such element, in bytes (a
	// message shows 1,000 characters).
	maxBugText = 1 << 20
	// maxBugPatterns bounds the BugPattern descriptions kept (SpotBugs and
	// its plugins define about 1,000), maxSrcDirs the SrcDirs.
	maxBugPatterns = 1 << 14
	maxSrcDirs     = 1 << 12
)

func (p *spotbugsParser) Parse(r io.Reader, emit Emit) (reports.Input, error) {
	in := reports.Input{Format: string(FormatSpotBugs), Tool: "SpotBugs"}
	d, root, err := p.root(r)
	if err != nil {
		return in, err
	}
	// The input names the tool once the document is read, as it did when
	// the document was read whole first.
	rootElem := elementOf(root)
	if rootElem.SelectAttr("threshold") != nil || rootElem.SelectAttr("effort") != nil {
		return in, &ParseError{Input: p.opts.Name, Line: inputLine(d), Offset: -1, Err: errSpotBugsXdoc}
	}
	version := rootElem.SelectAttrValue("version", "")
	tool := spotbugsToolName(version)

	c := bugCollection{patterns: map[string]*bugPattern{}, codeCWE: map[string]int{}, held: &bugQueue{}}
	defer c.held.close()
	if err := p.children(d, &c); err != nil {
		return in, err
	}
	if err := xmlAfterRoot(p.opts.Name, d); err != nil { // nothing but comments may follow the root
		return in, err
	}
	in.Tool, in.ToolVersion = tool, version
	in.Rules = &reports.Rules{}
	res := newSourceResolver(p.opts.Root, p.opts.FS, c.srcDirs, p.opts.Sources)
	rules := &bugRules{patterns: c.patterns, codeCWE: c.codeCWE, table: in.Rules, tool: tool}
	fields := &fieldLines{fsys: res.fsys}
	err = c.held.each(func(b *bugFields) error {
		f, partial := b.finding(rules, res, fields, in.Tool, in.ToolVersion)
		if err := emit(f, partial); err != nil {
			return err
		}
		in.Findings++
		return nil
	})
	if err != nil {
		return in, err
	}
	c.errs.note(&in, res, tool)
	res.finish(&in)
	warnRules(&in)
	if c.cut {
		in.Warn(fmt.Sprintf("elements with more than %d children or %d MiB of text cut to that size", maxBugNodes, maxBugText>>20))
	}
	return in, nil
}

// root reads up to the document's root element, which must be a
// BugCollection: a blank document is empty, not malformed.
func (p *spotbugsParser) root(r io.Reader) (*xml.Decoder, xml.StartElement, error) {
	sr := &spaceReader{r: r}
	d := newXMLDecoder(sr)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			if !sr.text {
				return d, xml.StartElement{}, &ParseError{Input: p.opts.Name, Offset: 0, Err: ErrEmpty}
			}
			return d, xml.StartElement{}, xmlFail(p.opts.Name, d, errors.New("no root element"))
		}
		if err != nil {
			return d, xml.StartElement{}, xmlFail(p.opts.Name, d, err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if se.Name.Local != "BugCollection" {
				return d, se, &ParseError{Input: p.opts.Name, Line: 0, Offset: -1, Err: fmt.Errorf("root element is <%s>, want <BugCollection>", se.Name.Local)}
			}
			return d, se, nil
		}
	}
}

// bugCollection is what a SpotBugs report's root holds, as it is read:
// its source directories, the descriptions of its bug patterns, the CWEs
// of its bug codes, its bug instances (held until the patterns are known),
// its analysis errors, and whether an element was cut.
type bugCollection struct {
	srcDirs  []string
	patterns map[string]*bugPattern
	codeCWE  map[string]int
	held     *bugQueue
	errs     *spotbugsErrors
	cut      bool
}

// children reads the root's children up to its end into c.
func (p *spotbugsParser) children(d *xml.Decoder, c *bugCollection) error {
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return xmlFail(p.opts.Name, d, &xml.SyntaxError{Msg: "unexpected EOF", Line: inputLine(d)})
		}
		if err != nil {
			return xmlFail(p.opts.Name, d, err)
		}
		if _, ok := tok.(xml.EndElement); ok {
			return nil // the root's end: encoding/xml checked that it matches
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Local {
		case "Project", "BugPattern", "BugInstance", "BugCode", "Errors":
		case "file", "Error": // SpotBugs' own report has neither directly under its root
			return &ParseError{Input: p.opts.Name, Line: inputLine(d), Offset: -1, Err: errSpotBugsXdoc}
		default:
			if err := d.Skip(); err != nil {
				return xmlFail(p.opts.Name, d, err)
			}
			continue
		}
		e, cut, err := readElement(d, se)
		if err != nil {
			return xmlFail(p.opts.Name, d, err)
		}
		if se.Name.Local == "Errors" {
			c.errs = errorsOf(e) // a long list cut is counted by its attributes
			continue
		}
		c.cut = c.cut || cut
		if err := c.add(e); err != nil {
			return &ParseError{Input: p.opts.Name, Offset: -1, Err: err}
		}
	}
}

// add takes in one child of the root: Project, BugPattern, BugCode or
// BugInstance.
func (c *bugCollection) add(e *etree.Element) error {
	switch e.Tag {
	case "Project":
		for _, s := range e.SelectElements("SrcDir") {
			if d := strings.TrimSpace(s.Text()); d != "" && len(c.srcDirs) < maxSrcDirs {
				c.srcDirs = append(c.srcDirs, d)
			}
		}
	case "BugPattern":
		if typ := e.SelectAttrValue("type", ""); len(c.patterns) < maxBugPatterns || c.patterns[typ] != nil {
			c.patterns[typ] = bugPatternOf(e)
		}
	case "BugCode":
		if n := atoi(e.SelectAttrValue("cweid", "")); n > 0 && len(c.codeCWE) < maxBugPatterns {
			c.codeCWE[e.SelectAttrValue("abbrev", "")] = n
		}
	case "BugInstance":
		return c.held.add(bugFieldsOf(e))
	}
	return nil
}

// errSpotBugsXdoc refuses spotbugs-maven-plugin's xdoc report
// (target/spotbugs.xml): its BugCollection holds <file classname> elements
// of BugInstances with a message and a line but no source path, no rank and
// no rule text, and its root carries threshold and effort attributes, which
// SpotBugs' own report never has. Read as SpotBugs XML it would give no
// finding; the plugin writes SpotBugs' own report beside it.
var errSpotBugsXdoc = errors.New("this is spotbugs-maven-plugin's xdoc report (spotbugs.xml), which names no source files: give recap target/spotbugsXml.xml, written beside it, or its SARIF (spotbugsSarif.json, with <sarifOutput>true</sarifOutput>)")

// spaceReader tells whether anything but white space went through it: a
// blank document is empty, not malformed.
type spaceReader struct {
	r    io.Reader
	text bool
}

func (s *spaceReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if !s.text && len(bytes.TrimLeft(p[:n], " \t\r\n")) > 0 {
		s.text = true
	}
	return n, err
}

func inputLine(d *xml.Decoder) int {
	line, _ := d.InputPos()
	return line
}

// elementOf makes an etree element of a start tag (its attributes, a
// repeated one keeping its last value, as etree reads them).
func elementOf(se xml.StartElement) *etree.Element {
	e := etree.NewElement(se.Name.Local)
	e.Space = se.Name.Space
	for _, a := range se.Attr {
		dup := false
		for i := range e.Attr {
			if e.Attr[i].Space == a.Name.Space && e.Attr[i].Key == a.Name.Local {
				e.Attr[i].Value, dup = a.Value, true
			}
		}
		if !dup {
			e.Attr = append(e.Attr, etree.Attr{Space: a.Name.Space, Key: a.Name.Local, Value: a.Value})
		}
	}
	return e
}

// readElement reads the element se starts, up to its end, into an etree
// element, keeping at most maxBugNodes elements and maxBugText bytes of
// text; cut tells that some were left out.
func readElement(d *xml.Decoder, se xml.StartElement) (e *etree.Element, cut bool, err error) {
	root := elementOf(se)
	stack := []*etree.Element{root}
	nodes, text := 1, 0
	for len(stack) > 0 {
		tok, err := d.Token()
		if err == io.EOF {
			return nil, cut, &xml.SyntaxError{Msg: "unexpected EOF", Line: inputLine(d)}
		}
		if err != nil {
			return nil, cut, err
		}
		top := stack[len(stack)-1]
		switch t := tok.(type) {
		case xml.StartElement:
			if nodes++; nodes > maxBugNodes || top == nil {
				cut = cut || top != nil
				stack = append(stack, nil) // skipped, with what it holds
				continue
			}
			child := elementOf(t)
			top.AddChild(child)
			stack = append(stack, child)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if top == nil {
				continue
			}
			if text+len(t) > maxBugText {
				t, cut = t[:runeStart(t, maxBugText-text)], true
			}
			text += len(t)
			if len(t) > 0 {
				top.CreateText(string(t))
			}
		case xml.ProcInst:
			if top != nil {
				top.CreateProcInst(t.Target, string(t.Inst))
			}
		case xml.Directive:
			if top != nil {
				top.CreateDirective(string(t))
			}
		}
	}
	return root, cut, nil
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

// bugFields is what a BugInstance's finding needs of it: its finding is
// made once the BugPatterns and SrcDirs are known (finding).
type bugFields struct {
	typ, category, abbrev, hash string
	priority, rank, cwe         int
	hasLine                     bool
	sourcepath, start, end      string
	// field and sig name the field a bug without a line of its own is
	// about, and its type; clsStart and clsEnd are the lines of its
	// class's code, where its declaration is looked for first (see
	// fieldLines).
	field, sig, clsStart, clsEnd string
	message                      string // the bug's own message, "" if none
	where                        string // its class and method, for a message made of the pattern
}

func bugFieldsOf(b *etree.Element) *bugFields {
	f := &bugFields{
		typ:      b.SelectAttrValue("type", ""),
		category: b.SelectAttrValue("category", ""),
		abbrev:   b.SelectAttrValue("abbrev", ""),
		hash:     b.SelectAttrValue("instanceHash", ""),
		priority: atoi(b.SelectAttrValue("priority", "")),
		rank:     atoi(b.SelectAttrValue("rank", "")),
		cwe:      atoi(b.SelectAttrValue("cweid", "")),
	}
	if sl := bugSourceLine(b); sl != nil {
		f.hasLine = true
		f.sourcepath = sl.SelectAttrValue("sourcepath", "")
		f.start, f.end = sl.SelectAttrValue("start", ""), sl.SelectAttrValue("end", "")
		if atoi(f.start) <= 0 {
			// A field's SourceLine has no line (SpotBugs reads none from the
			// bytecode): the bug is put on its class's first line, when the
			// class's SourceLine has one in the same file, else on no line.
			f.start, f.end = "", ""
			if fe := b.SelectElement("Field"); fe != nil {
				f.field, f.sig = fe.SelectAttrValue("name", ""), fe.SelectAttrValue("signature", "")
				owner := fe.SelectAttrValue("classname", "")
				for _, c := range b.SelectElements("Class") {
					if cl := c.SelectElement("SourceLine"); cl != nil && c.SelectAttrValue("classname", "") == owner && cl.SelectAttrValue("sourcepath", "") == f.sourcepath {
						f.clsStart, f.clsEnd = cl.SelectAttrValue("start", ""), cl.SelectAttrValue("end", "")
						break
					}
				}
			}
			if c := b.SelectElement("Class"); c != nil {
				if cl := c.SelectElement("SourceLine"); cl != nil && atoi(cl.SelectAttrValue("start", "")) > 0 &&
					cl.SelectAttrValue("sourcepath", "") == f.sourcepath {
					f.start = cl.SelectAttrValue("start", "")
					f.end = f.start
				}
			}
		}
	}
	f.message, f.where = bugMessage(b)
	return f
}

// finding makes the bug's finding.
func (b *bugFields) finding(rules *bugRules, res *sourceResolver, fields *fieldLines, tool, version string) (reports.Finding, map[string]string) {
	f := reports.Finding{
		Tool: tool, ToolVersion: version, Rule: b.typ,
		Severity: spotbugsSeverity(b.rank, b.priority), Priority: b.priority, Rank: uint8(min(max(b.rank, 0), 255)),
		HelpURI: "https://spotbugs.readthedocs.io/en/latest/bugDescriptions.html#" + b.typ,
	}
	r := rules.of(b)
	f.Category, f.ToolCategory, f.CWE = r.category, r.word, r.cwe
	if b.cwe > 0 && !slices.Contains(f.CWE, b.cwe) {
		f.CWE = []int{b.cwe}
	}
	f.Quality, f.Impact = reports.Assess(&reports.Signals{Tool: tool, Rule: b.typ, Category: f.Category, ToolCategory: f.ToolCategory,
		Rank: b.rank, Priority: b.priority, CWE: f.CWE, Level: f.Severity})
	pattern := r.short
	f.RuleName = pattern
	if f.RuleName == "" {
		f.RuleName = b.abbrev
	}
	if b.hasLine {
		f.Path = res.resolve(b.sourcepath)
		f.Line = atoi(b.start)
		f.EndLine = atoi(b.end)
		if b.field != "" {
			if n := fields.line(f.Path, b.field, b.sig, atoi(b.clsStart), atoi(b.clsEnd)); n > 0 {
				f.Line, f.EndLine = n, n // the field's declaration, not its class's first line
			}
		}
		if f.EndLine < f.Line {
			f.EndLine = f.Line
		}
	}
	f.Message = b.message
	if f.Message == "" {
		m := pattern
		if m == "" {
			m = b.typ
		}
		if b.where != "" {
			m += " in " + b.where
		}
		f.Message = orMessage(messageText(m))
	}
	var partial map[string]string
	if b.hash != "" {
		partial = map[string]string{"instanceHash": b.hash}
	}
	return f, partial
}

// bugPattern is what a BugPattern says of a bug type.
type bugPattern struct {
	short, details, category string
	cwe                      int
}

func bugPatternOf(e *etree.Element) *bugPattern {
	p := &bugPattern{category: e.SelectAttrValue("category", ""), cwe: atoi(e.SelectAttrValue("cweid", ""))}
	if sd := e.SelectElement("ShortDescription"); sd != nil {
		p.short = strings.TrimSpace(sd.Text())
	}
	if d := e.SelectElement("Details"); d != nil {
		p.details = ruleText(d.Text())
	}
	return p
}

// bugRule is what the findings of a bug type (and category and code)
// share, worked out once.
type bugRule struct {
	short, category, word string
	cwe                   []int
}

// bugRules makes each bug type's bugRule, and its entry in the input's rule
// table, from the BugPatterns and BugCodes of the report.
type bugRules struct {
	patterns map[string]*bugPattern
	codeCWE  map[string]int
	table    *reports.Rules
	tool     string
	m        map[[3]string]*bugRule
}

func (rs *bugRules) of(b *bugFields) *bugRule {
	k := [3]string{b.typ, b.category, b.abbrev}
	if r, ok := rs.m[k]; ok {
		return r
	}
	p := rs.patterns[b.typ]
	if p == nil {
		p = &bugPattern{}
	}
	r := &bugRule{short: p.short, word: b.category}
	if r.word == "" {
		r.word = p.category
	}
	r.category = reports.Categorize(rs.tool, r.word)
	cwe := p.cwe
	if cwe == 0 {
		cwe = rs.codeCWE[b.abbrev]
	}
	if cwe > 0 {
		r.cwe = []int{cwe}
	}
	if rs.table.Lookup(rs.tool, b.typ) == nil {
		var tags []string
		if r.word != "" {
			tags = []string{r.word}
		}
		rs.table.Add(rs.tool, reports.Rule{ID: b.typ, Name: p.short, Short: p.short, Full: p.details, Tags: tags, CWE: r.cwe,
			HelpURI: "https://spotbugs.readthedocs.io/en/latest/bugDescriptions.html#" + b.typ})
	}
	if rs.m == nil || len(rs.m) >= maxBugPatterns {
		rs.m = map[[3]string]*bugRule{}
	}
	rs.m[k] = r
	return r
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
// the ShortMessage; without either, where says the class and method, to add
// to the pattern's description (or the bug type) once it is known.
func bugMessage(b *etree.Element) (msg, where string) {
	for _, tag := range []string{"LongMessage", "ShortMessage"} {
		if e := b.SelectElement(tag); e != nil {
			if m := messageText(e.Text()); m != "" {
				return m, ""
			}
		}
	}
	if c := b.SelectElement("Class"); c != nil {
		where = c.SelectAttrValue("classname", "")
	}
	if mth := b.SelectElement("Method"); mth != nil {
		if name := mth.SelectAttrValue("name", ""); name != "" {
			where += "." + name
		}
	}
	return "", where
}

// spotbugsSeverity maps a bug's rank as SpotBugs' own SARIF output does
// (spotbugs/src/main/java/edu/umd/cs/findbugs/sarif/Level.java, fromBugRank,
// over BugRankCategory's bands; SpotBugs is LGPL-2.1): ranks 1–9 (scariest
// and scary) → error, 10–14 (troubling) → warning, 15–20 (of concern) →
// note. SpotBugs' SARIF ignores the priority; a report without a rank
// (FindBugs before 2.0) falls back to it, SpotBugs' confidence: 1 (high) →
// error, 2 → warning, 3 and more → note.
func spotbugsSeverity(rank, priority int) reports.Severity {
	switch {
	case rank >= 1 && rank <= 9:
		return reports.SeverityError
	case rank >= 10 && rank <= 14:
		return reports.SeverityWarning
	case rank >= 15:
		return reports.SeverityNote
	case priority == 1:
		return reports.SeverityError
	case priority == 2:
		return reports.SeverityWarning
	}
	return reports.SeverityNote
}

// spotbugsErrors is what a report's <Errors> says: the analysis errors
// (<Error><ErrorMessage>), the classes the analysis needed and did not find
// (<MissingClass>), and their counts (its errors and missingClasses
// attributes, which count what a list cut to maxBugNodes left out):
//
//	<Errors errors="1" missingClasses="1">
//	  <Error><ErrorMessage>Exception analyzing a.B using detector …</ErrorMessage><Exception>…</Exception><StackTrace>…</StackTrace></Error>
//	  <MissingClass>org.junit.Test</MissingClass>
//	</Errors>
type spotbugsErrors struct {
	messages, missing     []string
	errorCount, missCount int
}

// maxSpotBugsErrors bounds the errors and missing classes placed in the
// repository (a real report has a few; a classpath gone wrong, hundreds).
const maxSpotBugsErrors = 200

func errorsOf(e *etree.Element) *spotbugsErrors {
	x := &spotbugsErrors{errorCount: atoi(e.SelectAttrValue("errors", "")), missCount: atoi(e.SelectAttrValue("missingClasses", ""))}
	for _, c := range e.ChildElements() {
		switch c.Tag {
		case "Error":
			if m := c.SelectElement("ErrorMessage"); m != nil {
				if t := firstLine(m.Text()); t != "" {
					x.messages = append(x.messages, t)
				}
			}
		case "MissingClass":
			if t := strings.TrimSpace(c.Text()); t != "" {
				x.missing = append(x.missing, t)
			}
		}
	}
	x.errorCount = max(x.errorCount, len(x.messages))
	x.missCount = max(x.missCount, len(x.missing))
	return x
}

// javaClassName finds the qualified class names in an error message
// ("Exception analyzing com.example.Foo using detector …").
var javaClassName = regexp.MustCompile(`(?:[a-z_$][\w$]*\.)+[A-Z][\w$]*`)

// classSource is the package-relative source path of a class
// ("com.example.Foo$Inner" → "com/example/Foo.java"); "" for a name that is
// not qualified.
func classSource(class string) string {
	if i := strings.IndexByte(class, '$'); i >= 0 {
		class = class[:i]
	}
	if !strings.Contains(class, ".") || strings.ContainsAny(class, "/\\ ") {
		return ""
	}
	return strings.ReplaceAll(class, ".", "/") + ".java"
}

// note puts what the errors say on the input: an error or a missing class
// that names a class whose source file is in the repository makes that
// file not analysed (its findings are missing); the others are warnings,
// counted with the first.
func (x *spotbugsErrors) note(in *reports.Input, res *sourceResolver, tool string) {
	if x == nil {
		return
	}
	placed := 0
	place := func(class string) (string, bool) {
		sp := classSource(class)
		if sp == "" || placed >= maxSpotBugsErrors {
			return "", false
		}
		placed++
		return res.find(sp)
	}
	var otherErrors []string
	for _, m := range x.messages {
		found := false
		for _, c := range javaClassName.FindAllString(m, 3) {
			if p, ok := place(c); ok {
				in.NoteNotAnalysed(p, tool+": "+m)
				found = true
				break
			}
		}
		if !found {
			otherErrors = append(otherErrors, m)
		}
	}
	var otherMissing []string
	for _, c := range x.missing {
		if p, ok := place(c); ok {
			in.NoteNotAnalysed(p, tool+": the class "+c+" was missing from the analysis")
		} else {
			otherMissing = append(otherMissing, c)
		}
	}
	if n := len(otherErrors) + x.errorCount - len(x.messages); n > 0 {
		first := ""
		if len(otherErrors) > 0 {
			first = " (first: " + otherErrors[0] + ")"
		}
		in.Warn(fmt.Sprintf("%s reports %s%s", tool, english.Plural(n, "analysis error", "analysis errors"), first))
	}
	if n := len(otherMissing) + x.missCount - len(x.missing); n > 0 {
		first := ""
		if len(otherMissing) > 0 {
			first = " (first: " + otherMissing[0] + ")"
		}
		in.Warn(fmt.Sprintf("%s could not find %s the analysis needed%s: findings that need %s may be missing", tool,
			english.Plural(n, "class", "classes"), first, map[bool]string{true: "it", false: "them"}[n == 1]))
	}
}
