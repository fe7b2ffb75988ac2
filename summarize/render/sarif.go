package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"
	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// SARIF writes the view's findings as one SARIF 2.1.0 log, for code-scanning
// upload and for other tools: one run per tool, each declaring exactly the
// rules its results use, with what the reports say of them (descriptions,
// help, help URI, category, security severity, precision, CWE tags; text
// recap makes where a report says nothing, as GitHub's code scanning needs
// a full description and help of every rule) and referring to them by
// ruleIndex; the tool's informationUri (its report's, else recap's);
// repository-relative URIs under the SRCROOT base (a place outside the
// repository under its tool's own base, declared in the run); recap's
// fingerprint as a partial fingerprint, each finding its own report's; the
// baseline state when a baseline was given; each result's snippet or
// context region, logical locations, code flows (reports.MaxFlows,
// reports.MaxFlowSteps, and FlowsProperty when some were cut), related
// locations and fix. Summary, page and budget are not part of
// it: as a [Streamer] it shows every finding that passed the filters; Render
// writes the findings of a view's page.
//
// Each run's tool and rules are written through go-sarif's types, its
// results one at a time as go-sarif's types would be (resultEncoder), so
// that its memory is one run's rules, not the whole log.
//
// A stream (every finding) keeps at most MaxResults results in each run,
// the most severe first, then in view order, and says in the run's
// properties how many it left out (OmittedProperty): GitHub's code scanning
// refuses a run of more than 25,000 results. 0 keeps them all.
type SARIF struct {
	MaxResults int
	// DropUnlocated leaves out the findings without a file, counted in
	// their run's properties (UnlocatedProperty): GitHub's code scanning
	// shows no result without a file, and refuses an upload that has one.
	// By default they are kept, with the place their tool gave.
	DropUnlocated bool
	// Version is recap's version, which each run's conversion records
	// (see recapConversion); "" leaves it out.
	Version string
}

// MaxRunResults is the most results of one run GitHub's code scanning
// takes; recap's SARIF stream keeps that many by default (--max-results).
const MaxRunResults = 25000

// OmittedProperty names the run property that counts the results a capped
// run left out.
const OmittedProperty = "recapOmittedResults"

// UnlocatedProperty names the run property that counts the findings
// without a file (a tool's own error, a finding on the whole project) that
// a run left out (DropUnlocated): GitHub's code scanning takes a result
// only with a location in a file.
const UnlocatedProperty = "recapUnlocatedResults"

// FingerprintKey names recap's fingerprint in partialFingerprints. Its
// value is the finding's identity, a colon and its occurrence among the
// findings of that identity in its report (1, 2, … in the report's order,
// kept or not; [reports.Occurrence]), as GitHub's primaryLocationLineHash
// counts: two findings of a rule with the same message in one file are
// told apart, a finding keeps its value from run to run while those before
// it stay, and whatever the filters. Each finding keeps its own report's
// value: two reports of one tool merged into one run may both have a
// finding "identity:1" (one finding reported twice), and recap reads each
// value back as it is, so that recap's SARIF of some reports, taken as a
// baseline, matches the same reports finding for finding.
const FingerprintKey = reports.SARIFFingerprintKey

// FlowsProperty and FlowStepsProperty name the result properties that say
// how many flows (thread flows) and steps the finding's report gave, when
// the result keeps fewer (reports.MaxFlows flows, reports.MaxFlowSteps
// steps of all its flows); a result that keeps them all has neither.
const (
	FlowsProperty     = "recapFlows"
	FlowStepsProperty = "recapFlowSteps"
)

// AlsoProperty names the result property that names the other findings
// of the result's problem (docs/formats.md, "Duplicates"), which the log
// leaves out: an array of objects {tool, rule, id}, most important first,
// tool and rule as recap names them (the rule's short name), id recap's id
// of the finding (recap findings --no-group and the MCP server's
// analysis.getFinding show it).
const AlsoProperty = "alsoReportedBy"

// leadFinding is the finding of fv, with the other findings of its problem
// in its detail (reports.Detail.Also) when the view names some; fv's own
// finding when it names none.
func leadFinding(fv *summarize.FindingView) *reports.Finding {
	if len(fv.AlsoReportedBy) == 0 {
		return &fv.Finding
	}
	f := fv.Finding
	d := reports.Detail{}
	if f.Detail != nil {
		d = *f.Detail
	}
	d.Also = fv.AlsoReportedBy
	f.Detail = &d
	return &f
}

// srcRoot is the uriBaseId of repository-relative paths.
const srcRoot = "SRCROOT"

// Render implements [Renderer].
func (s SARIF) Render(w io.Writer, v *summarize.View) error {
	runs := newSARIFRuns()
	runs.recap = s.Version
	runs.inputs = v.Inputs
	for i := range v.Findings {
		if f := leadFinding(&v.Findings[i]); f.Path == "" && s.DropUnlocated {
			runs.unlocated(f)
		} else {
			runs.add(f)
		}
	}
	var enc resultEncoder
	return runs.write(w, func(r *sarifRun, bw *bufio.Writer) error {
		for i, f := range r.findings {
			bw.WriteString(resultSep(i))
			if _, err := bw.Write(enc.result(f, r.ruleIndex[f.Rule], f.Baseline)); err != nil {
				return err
			}
		}
		return nil
	})
}

// sarifRuns groups findings by tool: a run per tool, in order of name.
type sarifRuns struct {
	byTool map[string]*sarifRun
	last   *sarifRun       // the run of the finding before: a report's findings are one tool's
	recap  string          // recap's version, for the runs' conversion
	inputs []reports.Input // their rule tables describe the rules
}

// sarifRun is one tool's findings (kept in memory by Render; a stream
// keeps only their count) and the rules they use, in order of first use.
type sarifRun struct {
	tool, version string
	findings      []*reports.Finding
	n             int
	rules         []reports.Finding // the first finding of each rule, message and snippet left out
	ruleSec       []ruleSecurity    // what the findings of each rule say of security
	rulePrio      []int             // the tool's priority all the findings of each rule have, 0 when none or they differ
	ruleIndex     map[string]int
	lastRule      string          // the rule of the finding before, and its index:
	lastIndex     int             // a report lists a rule's findings, or a file's, together
	spill         *spill          // the stream's encoded results
	omitted       int             // results a capped stream left out
	taxa          bool            // a result refers to the CWE taxonomy
	recap         string          // recap's version (sarifRuns.recap)
	unlocated     int             // findings without a file, left out
	bases         map[string]bool // the uriBaseIds of places outside the repository (reports.Location.Base)
}

// maxRunBases bounds the uriBaseIds of places outside the repository a run
// declares (tools use two or three: %GOROOT%, %GOMODCACHE%).
const maxRunBases = 32

func newSARIFRuns() *sarifRuns {
	return &sarifRuns{byTool: map[string]*sarifRun{}}
}

// run returns f's tool's run, made on first use.
func (rs *sarifRuns) run(f *reports.Finding) *sarifRun {
	if r := rs.last; r != nil && r.tool == f.Tool {
		return r
	}
	r := rs.byTool[f.Tool]
	if r == nil {
		r = &sarifRun{tool: f.Tool, version: f.ToolVersion, ruleIndex: map[string]int{}}
		rs.byTool[f.Tool] = r
	}
	rs.last = r
	return r
}

// unlocated counts a finding without a file, which the log leaves out.
func (rs *sarifRuns) unlocated(f *reports.Finding) { rs.run(f).unlocated++ }

// add files f under its tool's run and declares its rule; it returns the
// run and the rule's index.
func (rs *sarifRuns) add(f *reports.Finding) (*sarifRun, int) {
	r := rs.run(f)
	idx, ok := r.lastIndex, len(r.rules) > 0 && r.lastRule == f.Rule
	if !ok {
		idx, ok = r.ruleIndex[f.Rule]
	}
	if !ok {
		idx = len(r.rules)
		r.ruleIndex[f.Rule] = idx
		rule := *f
		rule.Message, rule.Snippet, rule.Detail = "", "", nil
		r.rules = append(r.rules, rule)
		r.ruleSec = append(r.ruleSec, ruleSecurity{})
		r.rulePrio = append(r.rulePrio, f.Priority)
	}
	r.lastRule, r.lastIndex = f.Rule, idx
	r.ruleSec[idx].add(f)
	if r.rulePrio[idx] != f.Priority {
		r.rulePrio[idx] = 0 // the rule's findings differ: none is the rule's
	}
	r.taxa = r.taxa || len(f.CWE) > 0
	if d := f.Detail; d != nil {
		for i := range d.Flows {
			r.addBases(d.Flows[i].Steps)
		}
		r.addBases(d.Related)
		r.addBases(d.Locations)
	}
	r.n++
	if r.spill == nil {
		r.findings = append(r.findings, f)
	}
	return r, idx
}

// addBases notes the uriBaseIds of places outside the repository, which
// the run declares.
func (r *sarifRun) addBases(locs []reports.Location) {
	for i := range locs {
		if b := locs[i].Base; b != "" && !r.bases[b] && len(r.bases) < maxRunBases {
			if r.bases == nil {
				r.bases = map[string]bool{}
			}
			r.bases[b] = true
		}
	}
}

// write writes the log: each run's tool and rules through go-sarif, then
// its results by results(r, w), one by one where go-sarif would write them
// all at once.
func (rs *sarifRuns) write(w io.Writer, results func(*sarifRun, *bufio.Writer) error) error {
	runs := make([]*sarifRun, 0, len(rs.byTool))
	for _, r := range rs.byTool {
		r.recap = rs.recap
		runs = append(runs, r)
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].tool < runs[j].tool })
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(`{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[`)
	for i, r := range runs {
		if i > 0 {
			bw.WriteString(",")
		}
		before, after, err := r.head(rs.inputs)
		if err != nil {
			return err
		}
		bw.Write(before)
		bw.WriteString(`"results":[`)
		if err := results(r, bw); err != nil {
			return err
		}
		bw.WriteString("]")
		bw.Write(after)
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

// head is the run as go-sarif writes it, cut where its results go; the
// inputs' rule tables describe its rules.
func (r *sarifRun) head(inputs []reports.Input) (before, after []byte, err error) {
	name := r.tool
	if name == "" {
		name = "unknown tool"
	}
	driver := &sarif.ToolComponent{Name: name, Rules: make([]*sarif.ReportingDescriptor, 0, len(r.rules))}
	if r.version != "" {
		driver.Version = &r.version
	}
	if uri := firstNonEmpty(reports.ToolURIOf(inputs, r.tool), toolURI(name)); uri != "" {
		driver.InformationURI = &uri
	}
	for i := range r.rules {
		rule := sarifRule(&r.rules[i], reports.RuleOf(inputs, &r.rules[i]), &r.ruleSec[i])
		if p := r.rulePrio[i]; p > 0 {
			rule.Properties["priority"] = p // PMD's, as PMD writes it (read back as the findings')
		}
		driver.Rules = append(driver.Rules, rule)
	}
	run := sarif.NewRun(sarif.Tool{Driver: driver})
	run.OriginalUriBaseIDs = map[string]*sarif.ArtifactLocation{
		srcRoot: {Description: sarif.NewTextMessage("The root of the repository the findings' paths are relative to.")},
	}
	for b := range r.bases {
		if b != srcRoot {
			run.OriginalUriBaseIDs[b] = &sarif.ArtifactLocation{Description: sarif.NewTextMessage("A place outside the repository, as " + name + " named it.")}
		}
	}
	run.Results = nil
	if r.taxa {
		run.Taxonomies = []*sarif.ToolComponent{cweTaxonomyComponent()}
	}
	if r.omitted > 0 || r.unlocated > 0 {
		run.Properties = sarif.Properties{}
	}
	if r.omitted > 0 {
		run.Properties[OmittedProperty] = r.omitted
	}
	if r.unlocated > 0 {
		run.Properties[UnlocatedProperty] = r.unlocated
	}
	b, err := json.Marshal(run)
	if err != nil {
		return nil, nil, fmt.Errorf("sarif: run of %s: %w", name, err)
	}
	// The conversion goes first, so that a search knows recap's SARIF by
	// its first bytes, gzip'd too (inputs.RecapOutput).
	conv, err := json.Marshal(recapConversion(r.recap))
	if err != nil {
		return nil, nil, fmt.Errorf("sarif: run of %s: %w", name, err)
	}
	b = EscapeJSON(append(append(append([]byte(`{"conversion":`), conv...), ','), b[1:]...))
	// go-sarif writes "results":null for a nil slice; the results go there.
	// Inside a JSON string a quote is escaped, so the only unescaped
	// `"results":null` is the run's own.
	before, after, ok := bytes.Cut(b, []byte(`"results":null`))
	if !ok {
		return nil, nil, fmt.Errorf("sarif: run of %s: no results member in %.80s", name, b)
	}
	return before, after, nil
}

// resultSep goes before the i-th result of a run.
func resultSep(i int) string {
	if i == 0 {
		return "\n"
	}
	return ",\n"
}

// ruleSecurity is what the findings of one rule say of security: the CWE
// ids they all have (a result's own are its taxa), the highest security
// severity.
type ruleSecurity struct {
	cwe      []int
	seen     bool // a finding was added: cwe is what they share
	severity float64
	band     float64 // the highest impact's security severity of its security findings
	security bool    // a finding of the rule is about security
}

func (rs *ruleSecurity) add(f *reports.Finding) {
	if !rs.seen {
		rs.seen = true
		rs.cwe = slices.Clone(f.CWE[:min(len(f.CWE), maxRuleCWE)])
	} else if len(rs.cwe) > 0 {
		rs.cwe = slices.DeleteFunc(rs.cwe, func(id int) bool { return !slices.Contains(f.CWE, id) })
	}
	rs.severity = max(rs.severity, f.SecuritySeverity)
	rs.security = rs.security || f.Security()
	if f.Security() {
		rs.band = max(rs.band, reports.ImpactSecuritySeverity(f.Impact))
	}
}

// The CWE taxonomy that results' taxa refer to (SARIF §3.19.3, §3.27.8): a
// fixed GUID, the UUID of https://cwe.mitre.org/ in the URL namespace.
const (
	cweTaxonomy     = "CWE"
	cweTaxonomyGUID = "ec480a2c-8267-5d90-affc-401687cd64b0"
)

// cweTaxonomyComponent declares the CWE taxonomy of a run.
func cweTaxonomyComponent() *sarif.ToolComponent {
	name, guid, org, uri := cweTaxonomy, cweTaxonomyGUID, "MITRE", "https://cwe.mitre.org/"
	return &sarif.ToolComponent{Name: name, GUID: &guid, Organization: &org, InformationURI: &uri, Rules: []*sarif.ReportingDescriptor{},
		ShortDescription: sarif.NewMultiformatMessageString("The MITRE Common Weakness Enumeration")}
}

// maxRuleCWE bounds the CWE tags of a rule (GitHub takes 20 tags).
const maxRuleCWE = 10

// sarifRule declares a rule: what its report says of it (info, nil when
// nothing), else text recap makes of its tool and category; GitHub's code
// scanning requires a short and a full description and a help text. The
// help is written as text (the report's help.text when it has one), never
// as Markdown that GitHub would render: report text stays inert on a code
// host.
func sarifRule(f *reports.Finding, info *reports.Rule, sec *ruleSecurity) *sarif.ReportingDescriptor {
	rule := sarif.NewRule(f.Rule)
	noRule := rule.ID == ""
	if noRule {
		rule.ID = noRuleID
	}
	if info == nil {
		info = &reports.Rule{}
	}
	short := DisplayRule(f.Rule, f.RuleName)
	if f.RuleName != "" && f.RuleName != rule.ID { // a name that is the id says nothing (SARIF1001)
		rule.Name = &f.RuleName
	}
	desc := fmt.Sprintf("%s: %s rule, category %s.", short, f.Tool, categoryName(f.Category))
	shortText := firstNonEmpty(info.Short, desc)
	full := firstNonEmpty(info.Full, info.Short, desc)
	help := firstNonEmpty(info.Help, info.Full, info.Short, desc)
	helpURI := firstNonEmpty(f.HelpURI, info.HelpURI)
	if validHelpURI(helpURI) {
		rule.HelpURI = &helpURI
	}
	rule.ShortDescription = sarif.NewMultiformatMessageString(shortText)
	rule.FullDescription = sarif.NewMultiformatMessageString(full)
	rule.Help = sarif.NewMultiformatMessageString(help)
	// category is on recap's scale, toolCategory the tool's word ("" when
	// it gave none), which recap reads back.
	props := sarif.Properties{"category": f.Category, "toolCategory": f.ToolCategory}
	tag := f.Category
	if f.ToolCategory != "" {
		tag = f.ToolCategory
	}
	tags := []string{tag}
	if sec.security && tag != "security" {
		tags = append(tags, "security")
	}
	cwe := sec.cwe
	for _, id := range info.CWE {
		if !slices.Contains(cwe, id) && len(cwe) < maxRuleCWE {
			cwe = append(slices.Clone(cwe), id)
		}
	}
	slices.Sort(cwe)
	for _, id := range cwe {
		tags = append(tags, "external/cwe/cwe-"+strconv.Itoa(id))
	}
	props["tags"] = tags
	// GitHub's code scanning reads a rule's security-severity: the tools'
	// number, else the band of the highest impact of its security findings.
	if sev := max(sec.severity, info.SecuritySeverity); sev > 0 {
		props["security-severity"] = strconv.FormatFloat(sev, 'f', -1, 64)
	} else if sec.band > 0 {
		props["security-severity"] = strconv.FormatFloat(sec.band, 'f', 1, 64)
		props[SecuritySeverityFromProperty] = "impact"
	}
	if info.Precision != "" {
		props["precision"] = info.Precision
	}
	if noRule {
		props["recapNoRule"] = true
	}
	rule.Properties = props
	return rule
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// validHelpURI: reports carry text that is no URI in helpUri ("Please see
// details in message"); SARIF requires an absolute RFC 3986 URI there.
func validHelpURI(s string) bool { return reports.IsURI(s) }

func categoryName(c string) string {
	if c == "" {
		return reports.CategoryOther
	}
	return c
}

// ToolLevelProperty is the result property of recap's SARIF that keeps
// the tool's own level when the result's level (its impact's) differs.
const ToolLevelProperty = "toolLevel"

// SecuritySeverityFromProperty is the rule property of recap's SARIF that
// says its security-severity stands for the impact of its findings
// (reports.ImpactSecuritySeverity), no tool having given a number; recap
// reads such a number back as none.
const SecuritySeverityFromProperty = "securitySeverityFrom"

// noRuleID is the rule id recap's SARIF gives the results of no rule
// (SARIF needs one); their rule's descriptor says so (recapNoRule), and
// recap reads them back without one.
const noRuleID = "(no rule)"

// TriageProperty is the result property of recap's SARIF that holds the
// triage decision that covers the finding (docs/triage.md).
const TriageProperty = "triage"

// sarifMessage is the finding's message, never empty (SARIF requires text).
func sarifMessage(f *reports.Finding) string {
	if m := strings.TrimSpace(f.Message); m != "" {
		return m
	}
	return DisplayRule(f.Rule, f.RuleName)
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

func isDrivePath(p string) bool {
	return len(p) >= 3 && content.HasDrive(p) && p[2] == '/'
}

// toolURI is the home page of the tools recap knows.
func toolURI(tool string) string {
	t, _ := reports.LookupTool(tool)
	return t.URI
}

// NewStream implements [Streamer]: every finding, as a [SARIFStream] of
// at most MaxResults results a run.
func (s SARIF) NewStream() Stream {
	st := NewSARIFStream()
	st.MaxResults, st.Version, st.DropUnlocated = s.MaxResults, s.Version, s.DropUnlocated
	return st
}

// AllResults implements [AllResults]: recap's SARIF keeps the results
// that are no findings (suppressed ones with their suppressions, a tool's
// passes), as a SARIF consumer expects them.
func (SARIF) AllResults() bool { return true }
