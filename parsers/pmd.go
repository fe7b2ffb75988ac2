package parsers

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/reports"
)

// pmdParser reads PMD's XML report (PMD 4 to 7; report schema 2.0.0 adds a
// namespace, which does not matter here), streaming:
//
//	<pmd version="7.0.0">
//	  <file name="/abs/src/A.java">
//	    <violation beginline="3" endline="3" begincolumn="5" endcolumn="9" rule="UnusedLocalVariable"
//	        ruleset="Best Practices" externalInfoUrl="https://…" priority="3">Avoid unused …</violation>
//	  </file>
//	  <error filename="/abs/B.java" msg="ParseException: …">stack trace</error>
//	  <suppressedviolation …/>
//	  <configerror rule="X" msg="…"/>
//	</pmd>
//
// Processing and configuration errors become one-line warnings on the input;
// suppressed violations are counted, and given as findings marked
// suppressed (for recap's SARIF), not as findings.
type pmdParser struct{ opts Options }

func newPMD(opts Options) Parser { return &pmdParser{opts: opts} }

// Parse reads the report with the fast scanner (xmlscan.go), or with
// encoding/xml when the document declares another encoding than UTF-8 or is
// blank; both give the same findings (TestPMDScannerAgrees).
func (p *pmdParser) Parse(r io.Reader, emit Emit) (reports.Input, error) {
	return readXML(r, emit, p.scan, p.parseXML)
}

// pmdRun is what both readers keep while they read: the file, the input,
// the processing errors.
type pmdRun struct {
	in         reports.Input
	pl         *placer
	held       *heldFindings
	file       string
	procErrors int
	firstProc  string
	failed     []reports.NotAnalysed // the files of the processing errors, as placed
	cuts       int                   // values cut to maxXMLValue
	rules      map[[3]string]*pmdRule
}

// pmdRule is what a violation's rule, ruleset and help URI say of it,
// worked out once per rule.
type pmdRule struct {
	category, help string
	assessed       [6]importance // by priority (0: none, 1–5), once worked out
}

func (p *pmdParser) newRun() *pmdRun {
	r := &pmdRun{in: reports.Input{Format: string(FormatPMD), Tool: "PMD", Rules: &reports.Rules{}}, pl: newPlacer(p.opts.Root, p.opts.FS),
		rules: map[[3]string]*pmdRule{}}
	r.held = &heldFindings{p: r.pl}
	return r
}

// finish adds the warnings of the run to its input.
func (r *pmdRun) finish() reports.Input {
	if r.procErrors > 0 {
		r.in.Warn(fmt.Sprintf("PMD could not process %s (first: %s)", english.Plural(r.procErrors, "file", "files"), r.firstProc))
	}
	for _, f := range r.failed {
		if r.pl.isHeld(f.Path) {
			f.Path = r.pl.settle(f.Path)
		}
		r.in.NoteNotAnalysed(f.Path, f.Reason)
	}
	warnCuts(&r.in, r.cuts)
	warnRules(&r.in)
	r.pl.finish(&r.in)
	return r.in
}

// element handles a start tag other than a violation's; get reads its
// attributes. A suppressed violation is counted, and returned as a finding
// marked suppressed ([reports.Finding.Uncounted]), for recap's SARIF.
func (r *pmdRun) element(name string, get func(string) string) *reports.Finding {
	switch name {
	case "file":
		r.file = r.pl.place(get("name"))
	case "suppressedviolation":
		r.in.Suppressed++
		why := get("usermsg")
		if why == "" {
			why = "suppressed by " + get("suppressiontype") // nopmd (a comment), annotation
		}
		msg := get("msg")
		f := &reports.Finding{Tool: "PMD", ToolVersion: r.in.ToolVersion, Category: reports.CategoryOther, Severity: reports.SeverityWarning,
			Message: orMessage(messageText(msg), "a suppressed violation"), Path: r.pl.place(get("filename")),
			Detail: &reports.Detail{Suppressions: []reports.Suppression{{Kind: "inSource", Justification: why}}}}
		f.Quality, f.Impact = reports.Assess(&reports.Signals{Tool: f.Tool, Category: f.Category, Level: f.Severity})
		return f
	case "error":
		path, msg := r.pl.place(get("filename")), firstLine(get("msg"))
		if r.procErrors++; r.procErrors == 1 {
			r.firstProc = path + ": " + msg
		}
		if len(r.failed) < reports.MaxNotAnalysed {
			r.failed = append(r.failed, reports.NotAnalysed{Path: path, Reason: msg})
		}
	case "configerror":
		r.in.Warn(fmt.Sprintf("PMD configuration error in rule %s: %s", get("rule"), firstLine(get("msg"))))
	}
	return nil
}

// scan is Parse on the fast scanner.
func (p *pmdParser) scan(r io.Reader, emit Emit) (reports.Input, error) {
	run := p.newRun()
	err := run.held.end(emit, p.scanRun(run, r, emit))
	return run.finish(), err
}

func (p *pmdParser) scanRun(run *pmdRun, r io.Reader, emit Emit) error {
	s := newXMLScanner(r)
	defer func() { run.cuts += s.cuts }()
	fail := func(err error) error { return xmlScanError(p.opts.Name, err) }
	var attrErr error
	get := func(name string) string {
		v, err := s.attrShared(name)
		if err != nil && attrErr == nil {
			attrErr = err
		}
		return v
	}
	ev, err := s.next()
	if err != nil {
		return fail(err)
	}
	if ev != xmlStart {
		return fail(errors.New("no root element"))
	}
	if string(local(s.name)) != "pmd" {
		return &ParseError{Input: p.opts.Name, Line: s.line, Err: fmt.Errorf("root element is <%s>, want <pmd>", local(s.name))}
	}
	if run.in.ToolVersion, err = s.attr("version"); err != nil {
		return fail(err)
	}
	var cur *reports.Finding // nil, or &curF: one finding for all (one each went to the heap)
	var curF reports.Finding
	for {
		ev, err := s.next()
		if err != nil {
			return fail(err)
		}
		switch {
		case ev == xmlEOF:
			return fail(s.fail("unexpected EOF"))
		case ev == xmlEnd && len(s.stack) == 0:
			if err := s.end(); err != nil { // the root closed: nothing may follow
				return fail(err)
			}
			return nil
		case ev == xmlEnd:
			if cur == nil || string(local(s.ended)) != "violation" {
				continue
			}
			cur.Message = orMessage(messageText(s.keptText()), cur.Rule)
			if err := run.held.emit(emit, *cur, nil); err != nil {
				return err
			}
			run.in.Findings++
			cur, s.keepText = nil, false
			continue
		}
		name := string(local(s.name))
		if name == "violation" {
			curF = run.finding(get)
			cur, s.keepText, s.text, s.textCut = &curF, true, s.text[:0], false
		} else if sf := run.element(name, get); sf != nil && attrErr == nil {
			if err := run.held.emit(emit, *sf, nil); err != nil {
				return err
			}
		}
		if attrErr != nil {
			return fail(attrErr)
		}
	}
}

// parseXML is Parse on encoding/xml.
func (p *pmdParser) parseXML(r io.Reader, emit Emit) (reports.Input, error) {
	run := p.newRun()
	var text []byte
	textCut := false
	var cur *reports.Finding // nil, or &curF: one finding for all (one each went to the heap)
	var curF reports.Finding
	err := walkXML(p.opts.Name, r, "pmd", func(root xml.StartElement) { run.in.ToolVersion = cutValue(attr(root, "version"), &run.cuts) },
		func(tok xml.Token) error {
			switch t := tok.(type) {
			case xml.StartElement:
				get := func(name string) string { return cutValue(attr(t, name), &run.cuts) }
				if t.Name.Local == "violation" {
					curF = run.finding(get)
					cur = &curF
					text, textCut = text[:0], false
				} else if sf := run.element(t.Name.Local, get); sf != nil {
					return run.held.emit(emit, *sf, nil)
				}
			case xml.CharData:
				if cur != nil && !textCut {
					// Cut as the scanner cuts: at maxXMLValue bytes, on a character.
					if room := maxXMLValue - len(text); len(t) > room {
						t, textCut = t[:runeStart(t, room)], true
					}
					text = append(text, t...)
				}
			case xml.EndElement:
				if t.Name.Local != "violation" || cur == nil {
					return nil
				}
				msg := string(text)
				if textCut {
					msg += "…"
					run.cuts++
				}
				cur.Message = orMessage(messageText(msg), cur.Rule)
				if err := run.held.emit(emit, *cur, nil); err != nil {
					return err
				}
				run.in.Findings++
				cur = nil
			}
			return nil
		})
	err = run.held.end(emit, err)
	return run.finish(), err
}

// finding makes a violation's finding from its attributes (read by get),
// without its message (the element's text). Its rule goes into the input's
// rule table the first time.
func (r *pmdRun) finding(get func(string) string) reports.Finding {
	prio := atoi(get("priority"))
	rule, ruleset, help := get("rule"), get("ruleset"), get("externalInfoUrl")
	key := [3]string{rule, ruleset, help}
	pr, ok := r.rules[key]
	if !ok {
		if strings.Contains(help, "${") { // an unexpanded placeholder, as in PMD's own test output
			help = ""
		}
		category, _ := pmdCategory(ruleset, help)
		pr = &pmdRule{category: category, help: help}
		if len(r.rules) >= maxXMLShared { // a hostile report's distinct rules
			clear(r.rules)
		}
		r.rules[key] = pr
		var tags []string
		if ruleset != "" {
			tags = []string{ruleset}
		}
		r.in.Rules.Add("PMD", reports.Rule{ID: rule, HelpURI: help, Tags: tags})
	}
	f := reports.Finding{
		Tool: "PMD", ToolVersion: r.in.ToolVersion, Rule: rule, Category: pr.category, ToolCategory: ruleset,
		Severity: pmdSeverity(prio), Priority: prio, Path: r.file, HelpURI: pr.help,
		Line: atoi(get("beginline")), EndLine: atoi(get("endline")),
		Column: atoi(get("begincolumn")), EndColumn: atoi(get("endcolumn")),
	}
	if f.EndLine < f.Line { // none, or before the line: PMD's own reports never say so
		f.EndLine = f.Line
	}
	f.Quality, f.Impact = pr.assess(&f)
	return f
}

// assess places a finding of the rule on the importance scale, once per
// priority.
func (pr *pmdRule) assess(f *reports.Finding) (reports.Quality, reports.Impact) {
	if f.Priority < 0 || f.Priority >= len(pr.assessed) {
		return reports.Assess(&reports.Signals{Tool: f.Tool, Rule: f.Rule, Category: f.Category, ToolCategory: f.ToolCategory, Priority: f.Priority, Level: f.Severity})
	}
	a := &pr.assessed[f.Priority]
	if !a.quality.Valid() {
		a.quality, a.impact = reports.Assess(&reports.Signals{Tool: f.Tool, Rule: f.Rule, Category: f.Category, ToolCategory: f.ToolCategory, Priority: f.Priority, Level: f.Severity})
	}
	return a.quality, a.impact
}
