package parsers

import (
	"encoding/xml"
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

// The results are named so that the deferred warnings reach the caller.
func (p *checkstyleParser) Parse(r io.Reader, emit func(reports.Finding) error) (in reports.Input, err error) {
	in = reports.Input{Format: string(FormatCheckstyle), Tool: "Checkstyle"}
	pl := newPlacer(p.opts.Root)
	defer pl.finish(&in)
	file := ""
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
				f, keep := checkstyleFinding(t, file, in.ToolVersion)
				if !keep {
					return nil
				}
				if f.Tool != in.Tool && in.Findings == 0 {
					in.Tool = f.Tool
				}
				if err := emit(f); err != nil {
					return err
				}
				in.Findings++
			}
			return nil
		})
	return in, err
}

// checkstyleFinding maps one <error>; keep is false for severity "ignore",
// which Checkstyle documents as not reported.
func checkstyleFinding(t xml.StartElement, file, version string) (reports.Finding, bool) {
	sev := reports.SeverityError // Checkstyle's default severity
	switch s := strings.ToLower(attr(t, "severity")); s {
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
	source := attr(t, "source")
	f := reports.Finding{
		Tool: "Checkstyle", ToolVersion: version, Rule: source,
		Category: checkstyleCategory(source), RuleName: checkstyleRuleName(source),
		Severity: sev, Message: messageText(attr(t, "message")), Path: file,
		Line: atoi(attr(t, "line")), Column: atoi(attr(t, "column")),
	}
	f.EndLine = f.Line
	if rule, ok := strings.CutPrefix(source, "eslint.rules."); ok {
		f.Tool, f.ToolVersion, f.Rule, f.RuleName = "ESLint", "", rule, rule
	} else if f.Category != reports.Uncategorized && f.Category != "checker" && f.Category != "misc" {
		f.HelpURI = "https://checkstyle.org/checks/" + f.Category + "/" + strings.ToLower(f.RuleName) + ".html"
	}
	f.Message = orMessage(f.Message, f.RuleName)
	f.Fingerprint = reports.Fingerprint(f, nil)
	return f, true
}
