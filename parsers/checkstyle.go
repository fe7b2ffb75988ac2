package parsers

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/recap-dev/recap/reports"
)

// checkstyleParser reads Checkstyle's XML report (also written by ESLint's
// checkstyle formatter and many other linters), streaming:
//
//	<checkstyle version="8.36.1">
//	  <file name="/abs/src/A.java">
//	    <error line="3" column="5" severity="warning" message="…" source="com.puppycrawl.tools.checkstyle.checks.sizes.LineLengthCheck"/>
//	  </file>
//	</checkstyle>
type checkstyleParser struct{ opts Options }

func newCheckstyle(opts Options) Parser { return &checkstyleParser{opts: opts} }

// Parse reads the report with the fast scanner (xmlscan.go), or with
// encoding/xml when the document declares another encoding than UTF-8 or is
// blank; both give the same findings (TestCheckstyleScannerAgrees).
func (p *checkstyleParser) Parse(r io.Reader, emit Emit) (reports.Input, error) {
	return readXML(r, emit, p.scan, p.parseXML)
}

// xmlDeclaration is the <?xml …?> at the head of a document, if any.
func xmlDeclaration(head []byte) []byte {
	head = bytes.TrimLeft(head, "\ufeff \t\r\n")
	if !bytes.HasPrefix(head, []byte("<?xml")) {
		return nil
	}
	if i := bytes.Index(head, []byte("?>")); i > 0 {
		return head[:i]
	}
	return head
}

// scan is Parse on the fast scanner.
func (p *checkstyleParser) scan(r io.Reader, emit Emit) (in reports.Input, err error) {
	in = reports.Input{Format: string(FormatCheckstyle), Tool: "Checkstyle"}
	pl := newPlacer(p.opts.Root, p.opts.FS)
	defer pl.finish(&in)
	defer warnRules(&in)
	s := newXMLScanner(r)
	defer func() { warnCuts(&in, s.cuts) }()
	rules := newCheckstyleRules(&in)
	held := &heldFindings{p: pl}
	defer func() { err = held.end(emit, err) }()
	fail := func(err error) error { return xmlScanError(p.opts.Name, err) }
	ev, err := s.next()
	if err != nil {
		return in, fail(err)
	}
	if ev != xmlStart {
		return in, fail(errors.New("no root element"))
	}
	if string(local(s.name)) != "checkstyle" {
		return in, &ParseError{Input: p.opts.Name, Line: s.line, Err: fmt.Errorf("root element is <%s>, want <checkstyle>", local(s.name))}
	}
	if in.ToolVersion, err = s.attr("version"); err != nil {
		return in, fail(err)
	}
	file := ""
	for {
		ev, err := s.next()
		if err != nil {
			return in, fail(err)
		}
		switch {
		case ev == xmlEOF:
			return in, fail(s.fail("unexpected EOF"))
		case ev == xmlEnd && len(s.stack) == 0:
			if err := s.end(); err != nil { // the root closed: nothing may follow
				return in, fail(err)
			}
			return in, nil
		case ev != xmlStart:
			continue
		}
		switch string(local(s.name)) {
		case "file":
			name, err := s.attr("name")
			if err != nil {
				return in, fail(err)
			}
			file = pl.place(name)
		case "error":
			var a checkstyleAttrs
			for _, x := range []struct {
				name string
				dst  *string
			}{{"severity", &a.severity}, {"source", &a.source}, {"line", &a.line}, {"column", &a.column}} {
				if *x.dst, err = s.attrShared(x.name); err != nil {
					return in, fail(err)
				}
			}
			if a.message, err = s.attr("message"); err != nil {
				return in, fail(err)
			}
			f, keep := checkstyleFinding(a, file, in.ToolVersion, rules)
			if !keep {
				continue
			}
			if f.Tool != in.Tool && in.Findings == 0 {
				in.Tool, in.ToolVersion = f.Tool, f.ToolVersion // another tool's: the version is the format's (ESLint writes 4.3)
			}
			if err := held.emit(emit, f, nil); err != nil {
				return in, err
			}
			in.Findings++
		}
	}
}

// parseXML is Parse on encoding/xml. The results are named so that the
// deferred warnings reach the caller.
func (p *checkstyleParser) parseXML(r io.Reader, emit Emit) (in reports.Input, err error) {
	in = reports.Input{Format: string(FormatCheckstyle), Tool: "Checkstyle"}
	pl := newPlacer(p.opts.Root, p.opts.FS)
	defer pl.finish(&in)
	defer warnRules(&in)
	cuts := 0
	defer func() { warnCuts(&in, cuts) }()
	attr := func(se xml.StartElement, name string) string { return cutValue(attr(se, name), &cuts) }
	file := ""
	rules := newCheckstyleRules(&in)
	held := &heldFindings{p: pl}
	err = walkXML(p.opts.Name, r, "checkstyle", func(root xml.StartElement) { in.ToolVersion = attr(root, "version") },
		func(tok xml.Token) error {
			t, ok := tok.(xml.StartElement)
			if !ok {
				return nil
			}
			switch t.Name.Local {
			case "file":
				file = pl.place(attr(t, "name"))
			case "error":
				a := checkstyleAttrs{severity: attr(t, "severity"), source: attr(t, "source"), message: attr(t, "message"),
					line: attr(t, "line"), column: attr(t, "column")}
				f, keep := checkstyleFinding(a, file, in.ToolVersion, rules)
				if !keep {
					return nil
				}
				if f.Tool != in.Tool && in.Findings == 0 {
					in.Tool, in.ToolVersion = f.Tool, f.ToolVersion // another tool's: the version is the format's
				}
				if err := held.emit(emit, f, nil); err != nil {
					return err
				}
				in.Findings++
			}
			return nil
		})
	return in, held.end(emit, err)
}

// checkstyleAttrs are the attributes of an <error> that recap reads.
type checkstyleAttrs struct {
	severity, source, message, line, column string
}

// checkstyleFinding maps one <error>; keep is false for severity "ignore",
// which Checkstyle documents as not reported.
func checkstyleFinding(t checkstyleAttrs, file, version string, rules *checkstyleRules) (reports.Finding, bool) {
	sev := reports.SeverityError // Checkstyle's default severity
	switch s := strings.ToLower(t.severity); s {
	case "ignore":
		return reports.Finding{}, false
	case "", "error":
	default:
		if v, err := reports.ParseSeverity(s); err == nil {
			sev = v
		} else {
			sev = reports.SeverityWarning
		}
	}
	r := rules.of(t.source)
	f := reports.Finding{
		Tool: r.tool, ToolVersion: version, Rule: r.rule, Category: r.category, ToolCategory: r.word, RuleName: r.name, HelpURI: r.helpURI,
		Severity: sev, Message: messageText(t.message), Path: file,
		Line: atoi(t.line), Column: atoi(t.column),
	}
	if r.tool != "Checkstyle" {
		f.ToolVersion = ""
	}
	f.EndLine = f.Line
	f.Message = orMessage(f.Message, f.RuleName)
	a := &r.assessed[sev]
	if !a.quality.Valid() {
		a.quality, a.impact = reports.Assess(&reports.Signals{Tool: f.Tool, Rule: f.Rule, Category: f.Category, ToolCategory: f.ToolCategory, Level: sev})
	}
	f.Quality, f.Impact = a.quality, a.impact
	return f, true
}

// checkstyleRule is what a source attribute says of its finding.
type checkstyleRule struct {
	tool, rule, name, category, word, helpURI string
	assessed                                  [4]importance // by severity, once worked out
}

// checkstyleRules caches checkstyleRule by source: a report repeats a few
// dozen sources over hundreds of thousands of errors. Each rule is added to
// the input's rule table (its check's name and documentation) once.
type checkstyleRules struct {
	m     map[string]*checkstyleRule
	table *reports.Rules
}

func newCheckstyleRules(in *reports.Input) *checkstyleRules {
	in.Rules = &reports.Rules{}
	return &checkstyleRules{m: map[string]*checkstyleRule{}, table: in.Rules}
}

func (c *checkstyleRules) of(source string) *checkstyleRule {
	if r, ok := c.m[source]; ok {
		return r
	}
	if len(c.m) >= maxXMLShared { // a hostile report's distinct sources
		clear(c.m)
	}
	r := &checkstyleRule{tool: "Checkstyle", rule: source, word: checkstyleCategory(source), name: checkstyleRuleName(source)}
	short := ""
	if rule, ok := strings.CutPrefix(source, "eslint.rules."); ok {
		r.tool, r.rule, r.name = "ESLint", rule, rule
	} else {
		r.helpURI, short = checkstyleDoc(source)
	}
	r.category = reports.Categorize(r.tool, r.word)
	if source != "" {
		c.table.Add(r.tool, reports.Rule{ID: r.rule, Name: r.name, HelpURI: r.helpURI, Short: short})
	}
	c.m[source] = r
	return r
}
