package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// SARIF writes the view's findings as one SARIF 2.1.0 log, for code-scanning
// upload and for other tools: one run per tool, each declaring exactly the
// rules its results use (with a description, help URI and category) and
// referring to them by ruleIndex; repository-relative URIs under the
// SRCROOT base; recap's fingerprint as a partial fingerprint; the baseline
// state when a baseline was given. Summary, page and budget are not part of
// it: the CLI gives this format every finding that passed the filters.
//
// The log is written one result at a time through go-sarif's types, so that
// its memory is one run's rules, not the whole log.
type SARIF struct{}

// FingerprintKey names recap's fingerprint in partialFingerprints.
const FingerprintKey = "recapFingerprint/v1"

// srcRoot is the uriBaseId of repository-relative paths.
const srcRoot = "SRCROOT"

// Render implements [Renderer].
func (SARIF) Render(w io.Writer, v *summarize.View) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if _, err := io.WriteString(bw, `{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[`); err != nil {
		return err
	}
	for i, r := range sarifRuns(v) {
		if i > 0 {
			bw.WriteString(",")
		}
		if err := r.write(bw); err != nil {
			return err
		}
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

// sarifRun is one tool's findings and the rules they use, in order of first use.
type sarifRun struct {
	tool, version string
	findings      []*summarize.FindingView
	rules         []*summarize.FindingView // the first finding of each rule
	ruleIndex     map[string]int
}

// sarifRuns groups the findings by tool, tools by name.
func sarifRuns(v *summarize.View) []*sarifRun {
	byTool := map[string]*sarifRun{}
	versions := map[string]string{}
	for _, in := range v.Inputs {
		if in.ToolVersion != "" {
			versions[in.Tool] = in.ToolVersion
		}
	}
	var runs []*sarifRun
	for i := range v.Findings {
		f := &v.Findings[i]
		r := byTool[f.Tool]
		if r == nil {
			r = &sarifRun{tool: f.Tool, version: f.ToolVersion, ruleIndex: map[string]int{}}
			if r.version == "" {
				r.version = versions[f.Tool]
			}
			byTool[f.Tool] = r
			runs = append(runs, r)
		}
		if _, ok := r.ruleIndex[f.Rule]; !ok {
			r.ruleIndex[f.Rule] = len(r.rules)
			r.rules = append(r.rules, f)
		}
		r.findings = append(r.findings, f)
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].tool < runs[j].tool })
	return runs
}

// write writes the run: its tool and rules through go-sarif, then its
// results one by one where go-sarif would write them all at once.
func (r *sarifRun) write(w *bufio.Writer) error {
	name := r.tool
	if name == "" {
		name = "unknown tool"
	}
	driver := &sarif.ToolComponent{Name: name, Rules: make([]*sarif.ReportingDescriptor, 0, len(r.rules))}
	if r.version != "" {
		driver.Version = &r.version
	}
	if uri := toolURI(name); uri != "" {
		driver.InformationURI = &uri
	}
	for _, f := range r.rules {
		driver.Rules = append(driver.Rules, sarifRule(f))
	}
	run := sarif.NewRun(sarif.Tool{Driver: driver})
	run.OriginalUriBaseIDs = map[string]*sarif.ArtifactLocation{
		srcRoot: {Description: sarif.NewTextMessage("The root of the repository the findings' paths are relative to.")},
	}
	run.Results = nil
	head, err := json.Marshal(run)
	if err != nil {
		return fmt.Errorf("sarif: run of %s: %w", name, err)
	}
	// go-sarif writes "results":null for a nil slice; the results go there,
	// one at a time. Inside a JSON string a quote is escaped, so the only
	// unescaped `"results":null` is the run's own.
	before, after, ok := bytes.Cut(head, []byte(`"results":null`))
	if !ok {
		return fmt.Errorf("sarif: run of %s: no results member in %.80s", name, head)
	}
	w.Write(before)
	w.WriteString(`"results":[`)
	for i, f := range r.findings {
		if i > 0 {
			w.WriteString(",")
		}
		w.WriteString("\n")
		b, err := json.Marshal(sarifResult(f, r.ruleIndex[f.Rule]))
		if err != nil {
			return fmt.Errorf("sarif: result %s: %w", f.ID, err)
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	w.WriteString("]")
	_, err = w.Write(after)
	return err
}

func sarifRule(f *summarize.FindingView) *sarif.ReportingDescriptor {
	rule := sarif.NewRule(f.Rule)
	if rule.ID == "" {
		rule.ID = "(no rule)"
	}
	short := displayRule(f.Rule, f.RuleName)
	if f.RuleName != "" {
		rule.Name = &f.RuleName
	}
	desc := fmt.Sprintf("%s: %s rule, category %s.", short, f.Tool, categoryName(f.Category))
	rule.ShortDescription = sarif.NewMultiformatMessageString(desc)
	if validHelpURI(f.HelpURI) {
		rule.HelpURI = &f.HelpURI
		rule.Help = sarif.NewMultiformatMessageString(desc + " See " + f.HelpURI)
	}
	rule.Properties = sarif.Properties{"category": f.Category, "tags": []string{f.Category}}
	return rule
}

// validHelpURI: reports carry text that is no URI in helpUri ("Please see
// details in message"); SARIF requires an absolute RFC 3986 URI there.
func validHelpURI(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t\n\"<>\\^`{|}") {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && u.IsAbs() && (u.Host != "" || u.Opaque != "")
}

func categoryName(c string) string {
	if c == "" || c == reports.Uncategorized {
		return "uncategorized"
	}
	return c
}

func sarifResult(f *summarize.FindingView, ruleIndex int) *sarif.Result {
	rule := f.Rule
	if rule == "" {
		rule = "(no rule)"
	}
	res := sarif.NewRuleResult(rule).WithRuleIndex(ruleIndex).WithLevel(sarifLevel(f.Severity)).
		WithMessage(sarif.NewTextMessage(sarifMessage(f)))
	if f.Path != "" {
		loc := sarif.NewPhysicalLocation().WithArtifactLocation(sarifArtifact(f.Path))
		if region := sarifRegion(f); region != nil {
			loc.WithRegion(region)
		}
		res.AddLocation(sarif.NewLocationWithPhysicalLocation(loc))
	}
	if f.Fingerprint != "" {
		res.PartialFingerprints = map[string]interface{}{FingerprintKey: f.Fingerprint}
	}
	switch f.Baseline {
	case reports.BaselineNew, reports.BaselineUnchanged:
		state := f.Baseline
		res.BaselineState = &state
	}
	if f.Category != "" {
		res.Properties = sarif.Properties{"category": f.Category}
	}
	return res
}

// sarifMessage is the finding's message, never empty (SARIF requires text).
func sarifMessage(f *summarize.FindingView) string {
	if m := strings.TrimSpace(f.Message); m != "" {
		return m
	}
	return displayRule(f.Rule, f.RuleName)
}

func sarifLevel(s reports.Severity) string {
	switch s {
	case reports.SeverityError:
		return "error"
	case reports.SeverityNote:
		return "note"
	}
	return "warning"
}

// sarifArtifact is a repository-relative path under SRCROOT, or an absolute
// path (one recap could not place in the repository) as a file URI.
func sarifArtifact(p string) *sarif.ArtifactLocation {
	if strings.HasPrefix(p, "/") || isDrivePath(p) {
		if isDrivePath(p) {
			p = "/" + p
		}
		u := url.URL{Scheme: "file", Path: p}
		return sarif.NewSimpleArtifactLocation(u.String())
	}
	u := url.URL{Path: path.Clean(p)}
	return sarif.NewSimpleArtifactLocation(u.String()).WithUriBaseId(srcRoot)
}

func isDrivePath(p string) bool {
	return len(p) >= 3 && p[1] == ':' && p[2] == '/' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
}

// sarifRegion is the finding's region, its ends written only when they are
// consistent with its start (SARIF §3.30.2 to .5); nil without a line.
func sarifRegion(f *summarize.FindingView) *sarif.Region {
	if f.Line <= 0 {
		return nil
	}
	r := sarif.NewRegion().WithStartLine(f.Line)
	endLine := f.Line
	if f.EndLine > f.Line {
		endLine = f.EndLine
		r.WithEndLine(endLine)
	}
	if f.Column > 0 {
		r.WithStartColumn(f.Column)
	}
	if f.EndColumn > 0 && (endLine > f.Line || f.EndColumn >= max(f.Column, 1)) {
		r.WithEndColumn(f.EndColumn)
	}
	return r
}

// toolURI is the home page of the tools recap knows.
func toolURI(tool string) string {
	switch strings.ToLower(tool) {
	case "pmd":
		return "https://pmd.github.io/"
	case "checkstyle":
		return "https://checkstyle.org/"
	case "spotbugs":
		return "https://spotbugs.github.io/"
	}
	return ""
}

// View implements [summarize.Layout].
func (s SARIF) View(v *summarize.View) string { return renderString(s, v) }

// TopLists implements [summarize.Layout]: the SARIF log has no summary.
func (SARIF) TopLists(*summarize.Summary) string { return "" }

// Finding implements [summarize.Layout].
func (SARIF) Finding(f *summarize.FindingView) string {
	b, _ := json.Marshal(sarifResult(f, 0))
	return string(b)
}

// Context implements [summarize.Layout]: results carry no context.
func (SARIF) Context(*summarize.FindingView) string { return "" }
