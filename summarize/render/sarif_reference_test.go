package render

// The SARIF results as recap wrote them through go-sarif's types and
// encoding/json, the reference resultEncoder is compared with.

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"
	"github.com/recap-dev/recap/reports"
)

// sarifFingerprint is a finding's fingerprint as recap's SARIF writes
// it, "identity:occurrence" ("" for none).
func sarifFingerprint(fp string) string {
	if fp == "" {
		return ""
	}
	id, n := reports.SplitFingerprint(fp)
	return id + ":" + strconv.Itoa(n)
}

func encodeResult(f *reports.Finding, ruleIndex int, fingerprint string) ([]byte, error) {
	b, err := json.Marshal(sarifResult(f, ruleIndex, fingerprint))
	if err != nil {
		return nil, fmt.Errorf("sarif: result %s: %w", f.ID, err)
	}
	return EscapeJSON(b), nil
}

// sarifTaxa are the finding's CWE ids as references into the run's CWE
// taxonomy.
func sarifTaxa(cwe []int) []*sarif.ReportingDescriptorReference {
	taxa := make([]*sarif.ReportingDescriptorReference, len(cwe))
	for i, id := range cwe {
		taxa[i] = sarif.NewReportingDescriptorReference().WithId(strconv.Itoa(id)).
			WithToolComponentReference(sarif.NewToolComponentReference().WithName(cweTaxonomy).WithIndex(0).WithGuid(cweTaxonomyGUID))
	}
	return taxa
}

// sarifResult is f as a result; fingerprint is its value of
// FingerprintKey ("" for none).
func sarifResult(f *reports.Finding, ruleIndex int, fingerprint string) *resultOut {
	rule := f.Rule
	if rule == "" {
		rule = noRuleID
	}
	// The level is the impact's (reports.ImpactLevel); the tool's own,
	// when it differs, is kept beside it as toolLevel, which recap reads
	// back as the finding's severity.
	level, toolLevel := sarifLevel(f.Level()), sarifLevel(f.Severity)
	d := f.Detail
	if d != nil && d.Kind != "" {
		level, toolLevel = "none", "none" // a result of another kind than fail has no other (§3.27.10)
	}
	res := sarif.NewRuleResult(rule).WithRuleIndex(ruleIndex).WithLevel(level).
		WithMessage(sarif.NewTextMessage(sarifMessage(f)))
	if d != nil && d.Kind != "" {
		res.Kind = &d.Kind
	}
	sarifPlace(res, f)
	if d != nil {
		sarifDetail(res, d)
		for i := range d.Locations {
			res.AddLocation(sarifLocation(&d.Locations[i]))
		}
	}
	if len(f.CWE) > 0 {
		res.Taxa = sarifTaxa(f.CWE)
	}
	if fingerprint != "" {
		res.PartialFingerprints = map[string]interface{}{FingerprintKey: fingerprint}
	}
	switch f.Baseline {
	case reports.BaselineNew, reports.BaselineUnchanged:
		state := f.Baseline
		res.BaselineState = &state
	}
	props := sarifProperties(f)
	if toolLevel != level {
		props[ToolLevelProperty] = toolLevel
	}
	if len(props) > 0 {
		res.Properties = props
	}
	return &resultOut{Result: res, Suppressions: sarifSuppressions(f)}
}

// sarifPlace adds f's location to res: its file and region, or, without a
// file, what its report said of the place.
func sarifPlace(res *sarif.Result, f *reports.Finding) {
	d := f.Detail
	if f.Path == "" {
		res.AddLocation(unlocatedLocation(d))
		if d != nil && d.Target != "" {
			res.AnalysisTarget = sarifArtifact(d.Target)
		}
		return
	}
	loc := sarif.NewPhysicalLocation().WithArtifactLocation(sarifArtifact(f.Path))
	if region := sarifRegion(f); region != nil {
		loc.WithRegion(region)
		sarifSnippet(loc, f)
	}
	l := sarif.NewLocationWithPhysicalLocation(loc)
	if d != nil {
		l.LogicalLocations = sarifLogical(d.Logical)
	}
	res.AddLocation(l)
}

// sarifProperties are the properties of f's result that SARIF has no
// member for, which recap reads back.
func sarifProperties(f *reports.Finding) sarif.Properties {
	props := sarif.Properties{}
	d := f.Detail
	if d != nil && len(d.Flows) > 0 && (d.AllFlows > len(d.Flows) || int(f.FlowSteps) > d.FlowSteps()) {
		// Flows or steps past the bounds (reports.MaxFlows, MaxFlowSteps)
		// were cut: how many the report gave.
		props[FlowsProperty], props[FlowStepsProperty] = max(d.AllFlows, len(d.Flows)), f.FlowSteps
	}
	if f.Fixable && (d == nil || d.Fix == nil || len(d.Fix.Replacements) == 0) {
		// A fix SARIF cannot hold (a fix needs edits): the flag, and its
		// description when the report gave one.
		props["fixable"] = true
		if d != nil && d.Fix != nil && d.Fix.Description != "" {
			props["fixDescription"] = d.Fix.Description
		}
	}
	if f.Category != "" {
		props["category"] = f.Category
	}
	if f.Priority > 0 {
		props["priority"] = f.Priority // the tool's own (SpotBugs', PMD's), read back
	}
	if f.Rank > 0 {
		props["rank"] = f.Rank // SpotBugs' bug rank
	}
	if f.Quality.Valid() && f.Impact.Valid() {
		props["quality"], props["impact"] = f.Quality.String(), f.Impact.String() // read back as written
	}
	if d != nil && len(d.Also) > 0 {
		props[AlsoProperty] = d.Also // the other findings of its problem, which the log leaves out
	}
	if f.Triage != nil {
		props[TriageProperty] = f.Triage // confirmed and expired decisions too
	}
	return props
}

// sarifSuppressions are the suppressions of f's result: its report's
// (but those not accepted, when the triage file's decision hides it), and
// that decision.
func sarifSuppressions(f *reports.Finding) []suppressionOut {
	var out []suppressionOut
	if d := f.Detail; d != nil {
		for _, sup := range d.Suppressions {
			if f.Triage.Suppressed() && !sup.Suppresses() {
				continue // decided since: not left to unsuppress it
			}
			// What the report's suppression said of a triage decision
			// (recap's own SARIF read again) is written back.
			var props map[string]any
			if p := sup.Properties; p != nil {
				props = map[string]any{}
				for k, v := range map[string]string{"state": p.State, "by": p.By, "date": p.Date, "until": p.Until, "link": p.Link} {
					if v != "" {
						props[k] = v
					}
				}
			}
			out = append(out, suppressionOut{Kind: sup.Kind, Status: sup.Status, Justification: sup.Justification, Properties: props})
		}
	}
	if t := f.Triage; t.Suppressed() {
		// A decision of the triage file (docs/triage.md), kept outside
		// the source: code scanning closes the alert.
		props := map[string]any{}
		for k, v := range map[string]string{"state": t.State, "by": t.By, "date": t.Date, "until": t.Until, "link": t.Link, "via": t.Via.String()} {
			if v != "" {
				props[k] = v
			}
		}
		out = append(out, suppressionOut{Kind: "external", Status: "accepted", Justification: t.Reason, Properties: props})
	}
	return out
}

// resultOut is a result as recap writes it: go-sarif's, with
// suppressions written without the null members go-sarif gives them.
type resultOut struct {
	*sarif.Result
	Suppressions []suppressionOut `json:"suppressions,omitempty"`
}

// suppressionOut is a suppression (SARIF §3.35).
type suppressionOut struct {
	Kind          string `json:"kind"`
	Status        string `json:"status,omitempty"`
	Justification string `json:"justification,omitempty"`
	// Properties say more of a triage decision (§3.8): its state, who
	// decided it, when, until when, its link.
	Properties map[string]any `json:"properties,omitempty"`
}

// unlocatedLocation is the location of a finding without a file: what its
// tool said of its place (its logical locations), else an empty location
// (SARIF's "no location known"; GitHub's rules ask for a location).
func unlocatedLocation(d *reports.Detail) *sarif.Location {
	loc := sarif.NewLocation()
	if d != nil {
		loc.LogicalLocations = sarifLogical(d.Logical)
	}
	return loc
}

// sarifLogical is a place's logical locations (§3.33), nil when none.
func sarifLogical(lls []reports.LogicalLocation) []*sarif.LogicalLocation {
	var out []*sarif.LogicalLocation
	for _, ll := range lls {
		l := sarif.NewLogicalLocation()
		if ll.Name != "" {
			l.Name = ptr(ll.Name)
		}
		if ll.FullyQualifiedName != "" {
			l.FullyQualifiedName = ptr(ll.FullyQualifiedName)
		}
		if ll.Kind != "" {
			l.Kind = ptr(ll.Kind)
		}
		out = append(out, l)
	}
	return out
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

// sarifRegion is the finding's region, its ends written only when they are
// consistent with its start (SARIF §3.30.2 to .5); nil without a line.
func sarifRegion(f *reports.Finding) *sarif.Region {
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

// sarifSnippet writes the report's snippet of the finding: the region's,
// or a context region holding the region (§3.29.5).
func sarifSnippet(loc *sarif.PhysicalLocation, f *reports.Finding) {
	if f.Snippet == "" {
		return
	}
	if f.SnippetLine <= 0 {
		loc.Region.WithSnippet(sarif.NewArtifactContent().WithText(f.Snippet))
		return
	}
	start := int(f.SnippetLine)
	end := start + strings.Count(strings.TrimSuffix(f.Snippet, "\n"), "\n")
	if start > f.Line || end < max(f.EndLine, f.Line) {
		return // it does not hold the region
	}
	loc.WithContextRegion(sarif.NewSimpleRegion(start, end).WithSnippet(sarif.NewArtifactContent().WithText(f.Snippet)))
}

// sarifDetail writes a finding's code flows, related locations and fix
// (a fix in words alone is the caller's: SARIF's fix needs edits).
func sarifDetail(res *sarif.Result, d *reports.Detail) {
	var cf *sarif.CodeFlow
	for i := range d.Flows {
		fl := &d.Flows[i]
		if len(fl.Steps) == 0 {
			continue // SARIF's thread flow has a step at least
		}
		if cf == nil || i == 0 || fl.Code != d.Flows[i-1].Code {
			cf = sarif.NewCodeFlow()
			if fl.Message != "" {
				cf.WithTextMessage(fl.Message)
			}
			res.CodeFlows = append(res.CodeFlows, cf)
		}
		tf := sarif.NewThreadFlow()
		for j := range fl.Steps {
			tf.AddLocation(sarif.NewThreadFlowLocation().WithLocation(sarifLocation(&fl.Steps[j])))
		}
		cf.AddThreadFlow(tf)
	}
	for i := range d.Related {
		res.RelatedLocations = append(res.RelatedLocations, sarifLocation(&d.Related[i]).WithId(i+1))
	}
	if x := d.Fix; x != nil && len(x.Replacements) > 0 {
		fix := sarif.NewFix()
		if x.Description != "" {
			fix.WithDescriptionText(x.Description)
		}
		for _, p := range x.Paths() {
			change := sarif.NewArtifactChange(sarifArtifact(p))
			for _, r := range x.Replacements {
				if r.Path != p {
					continue
				}
				reg := sarif.NewRegion()
				if r.ByCharacters() {
					reg.WithCharOffset(r.Offset).WithCharLength(r.Length)
				} else {
					reg.WithStartLine(r.Line)
				}
				if r.EndLine > 0 {
					reg.WithEndLine(r.EndLine)
				}
				if r.Column > 0 {
					reg.WithStartColumn(r.Column)
				}
				if r.EndColumn > 0 {
					reg.WithEndColumn(r.EndColumn)
				}
				change.WithReplacement(sarif.NewReplacement(reg).WithInsertedContent(sarif.NewArtifactContent().WithText(r.Text)))
			}
			fix.AddArtifactChanges(change)
		}
		res.Fixes = []*sarif.Fix{fix}
	}
}

// sarifLocation is a flow step or a related location: its place, when it
// has a file (under SRCROOT, or under the tool's own uriBaseId when it is
// outside the repository), and its message.
func sarifLocation(l *reports.Location) *sarif.Location {
	loc := sarif.NewLocation()
	if l.Path != "" {
		al := sarifArtifact(l.Path)
		if l.Base != "" { // outside the repository: the tool's own base and URI
			u := url.URL{Path: l.Path}
			al = sarif.NewSimpleArtifactLocation(u.String()).WithUriBaseId(l.Base)
		}
		pl := sarif.NewPhysicalLocation().WithArtifactLocation(al)
		if region := sarifRegion(&reports.Finding{Line: l.Line, EndLine: l.EndLine, Column: l.Column, EndColumn: l.EndColumn}); region != nil {
			pl.WithRegion(region)
		}
		loc.WithPhysicalLocation(pl)
	}
	if l.Message != "" {
		loc.WithMessage(sarif.NewTextMessage(l.Message))
	}
	return loc
}
