package parsers

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

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
// suppressed violations are counted, not reported.
type pmdParser struct{ opts Options }

func newPMD(opts Options) Parser { return &pmdParser{opts: opts} }

// The results are named so that the deferred warnings reach the caller.
func (p *pmdParser) Parse(r io.Reader, emit Emit) (in reports.Input, err error) {
	in = reports.Input{Format: string(FormatPMD), Tool: "PMD"}
	pl := newPlacer(p.opts.Root)
	defer pl.finish(&in)
	file := ""
	var text strings.Builder
	var cur *reports.Finding
	procErrors, firstProc := 0, ""
	defer func() {
		if procErrors > 0 {
			in.Warn(fmt.Sprintf("PMD could not process %s (first: %s)", plural(procErrors, "file", "files"), firstProc))
		}
	}()
	err = walkXML(p.opts.Name, r, "pmd", func(root xml.StartElement) { in.ToolVersion = attr(root, "version") },
		func(tok xml.Token) error {
			switch t := tok.(type) {
			case xml.StartElement:
				switch t.Name.Local {
				case "file":
					file = pl.place(attr(t, "name"))
				case "violation":
					f := pmdFinding(t, file, in.ToolVersion)
					cur = &f
					text.Reset()
				case "suppressedviolation":
					in.Suppressed++
				case "error":
					if procErrors++; procErrors == 1 {
						firstProc = pl.place(attr(t, "filename")) + ": " + firstLine(attr(t, "msg"))
					}
				case "configerror":
					in.Warn(fmt.Sprintf("PMD configuration error in rule %s: %s", attr(t, "rule"), firstLine(attr(t, "msg"))))
				}
			case xml.CharData:
				if cur != nil {
					text.Write(t)
				}
			case xml.EndElement:
				if t.Name.Local != "violation" || cur == nil {
					return nil
				}
				cur.Message = orMessage(messageText(text.String()), cur.Rule)
				if err := emit(*cur, nil); err != nil {
					return err
				}
				in.Findings++
				cur = nil
			}
			return nil
		})
	return in, err
}

func pmdFinding(t xml.StartElement, file, version string) reports.Finding {
	prio := atoi(attr(t, "priority"))
	help := attr(t, "externalInfoUrl")
	if strings.Contains(help, "${") { // an unexpanded placeholder, as in PMD's own test output
		help = ""
	}
	rule := attr(t, "rule")
	category := pmdCategory(attr(t, "ruleset"), help)
	if category == "" {
		category = reports.Uncategorized
	}
	f := reports.Finding{
		Tool: "PMD", ToolVersion: version, Rule: rule, Category: category,
		Severity: pmdSeverity(prio), Priority: prio, Path: file, HelpURI: help,
		Line: atoi(attr(t, "beginline")), EndLine: atoi(attr(t, "endline")),
		Column: atoi(attr(t, "begincolumn")), EndColumn: atoi(attr(t, "endcolumn")),
	}
	if f.EndLine == 0 {
		f.EndLine = f.Line
	}
	return f
}
