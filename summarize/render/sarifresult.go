package render

import (
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/recap-dev/recap/reports"
)

// resultEncoder writes SARIF results (§3.27) as go-sarif's types and
// encoding/json would, then [EscapeJSON]: the same members in the same
// order, appended into a buffer it reuses, without building the result.
// It remembers the URI of the last path it wrote, as a report lists a
// file's findings together.
type resultEncoder struct {
	buf               []byte
	lastPath, lastURI string
	lastBase          string
}

// result is f as the ruleIndex-th rule's result, its fingerprint
// written "identity:occurrence" under FingerprintKey, in the state
// baseline (f's Baseline, or the one its query gave). The bytes are valid
// until the next call.
func (e *resultEncoder) result(f *reports.Finding, ruleIndex int, baseline string) []byte {
	e.buf = e.appendResult(e.buf[:0], f, ruleIndex, baseline)
	return e.buf
}

// str appends a string as the log writes it.
func str(b []byte, s string) []byte { return appendJSONText(b, s, escLog) }

// textMessage appends a message of text (§3.11): {"text":…}.
func textMessage(b []byte, s string) []byte {
	b = append(b, `{"text":`...)
	b = str(b, s)
	return append(b, '}')
}

func (e *resultEncoder) appendResult(b []byte, f *reports.Finding, ruleIndex int, baseline string) []byte {
	// The level is the impact's (reports.ImpactLevel); the tool's own,
	// when it differs, is kept beside it as toolLevel, which recap reads
	// back as the finding's severity.
	level, toolLevel := sarifLevel(f.Level()), sarifLevel(f.Severity)
	d := f.Detail
	if d != nil && d.Kind != "" {
		level, toolLevel = "none", "none" // a result of another kind than fail has no other (§3.27.10)
	}
	b = append(b, '{')
	b = appendResultProperties(b, f, toolLevel, toolLevel != level)
	rule := f.Rule
	if rule == "" {
		rule = noRuleID
	}
	b = append(b, `"ruleId":`...)
	b = str(b, rule)
	b = append(b, `,"ruleIndex":`...)
	b = appendJSONInt(b, int64(ruleIndex))
	if len(f.CWE) > 0 {
		b = append(b, `,"taxa":[`...)
		for i, id := range f.CWE {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":"`...)
			b = appendJSONInt(b, int64(id))
			b = append(b, `","toolComponent":{"name":"`+cweTaxonomy+`","index":0,"guid":"`+cweTaxonomyGUID+`"}}`...)
		}
		b = append(b, ']')
	}
	if d != nil && d.Kind != "" {
		b = append(b, `,"kind":`...)
		b = str(b, d.Kind)
	}
	b = append(b, `,"level":"`...)
	b = append(b, level...)
	b = append(b, `","message":`...)
	b = textMessage(b, sarifMessage(f))
	b = append(b, `,"locations":[`...)
	b = e.appendPlace(b, f)
	if d != nil {
		for i := range d.Locations {
			b = append(b, ',')
			b = e.appendLocation(b, &d.Locations[i], 0)
		}
	}
	b = append(b, ']')
	if f.Path == "" && d != nil && d.Target != "" {
		b = append(b, `,"analysisTarget":`...)
		b = e.appendArtifact(b, d.Target)
	}
	if f.Fingerprint != "" {
		b = append(b, `,"partialFingerprints":{"`+FingerprintKey+`":`...)
		b = appendFingerprint(b, f.Fingerprint)
		b = append(b, '}')
	}
	if d != nil {
		b = e.appendFlows(b, d)
		if len(d.Related) > 0 {
			b = append(b, `,"relatedLocations":[`...)
			for i := range d.Related {
				if i > 0 {
					b = append(b, ',')
				}
				b = e.appendLocation(b, &d.Related[i], i+1)
			}
			b = append(b, ']')
		}
	}
	switch baseline {
	case reports.BaselineNew, reports.BaselineUnchanged:
		b = append(b, `,"baselineState":`...)
		b = str(b, baseline)
	}
	if d != nil && d.Fix != nil && len(d.Fix.Replacements) > 0 {
		b = e.appendFix(b, d.Fix)
	}
	b = appendSuppressions(b, f)
	return append(b, '}')
}

// appendResultProperties appends the result's properties and a comma,
// when it has some: the properties SARIF has no member for, which recap
// reads back, in the order of their names.
func appendResultProperties(b []byte, f *reports.Finding, toolLevel string, withToolLevel bool) []byte {
	d := f.Detail
	// Flows or steps past the bounds (reports.MaxFlows, MaxFlowSteps) were
	// cut: how many the report gave.
	flowsCut := d != nil && len(d.Flows) > 0 && (d.AllFlows > len(d.Flows) || int(f.FlowSteps) > d.FlowSteps())
	// A fix SARIF cannot hold (a fix needs edits): the flag, and its
	// description when the report gave one.
	fixable := f.Fixable && (d == nil || d.Fix == nil || len(d.Fix.Replacements) == 0)
	scales := f.Quality.Valid() && f.Impact.Valid()
	also := d != nil && len(d.Also) > 0
	if !flowsCut && !fixable && f.Category == "" && f.Priority <= 0 && f.Rank == 0 && !scales && !also && f.Triage == nil && !withToolLevel {
		return b
	}
	o := jsonObject{b: append(b, `"properties":{`...), start: len(b) + len(`"properties":`)}
	if also {
		o.key(AlsoProperty) // the other findings of its problem, which the log leaves out
		o.b = appendAlso(o.b, d.Also)
	}
	if f.Category != "" {
		o.key("category")
		o.b = str(o.b, f.Category)
	}
	if fixable {
		if d != nil && d.Fix != nil && d.Fix.Description != "" {
			o.key("fixDescription")
			o.b = str(o.b, d.Fix.Description)
		}
		o.key("fixable")
		o.b = append(o.b, "true"...)
	}
	appendResultScales(&o, f, scales)
	if flowsCut {
		o.key(FlowStepsProperty)
		o.b = appendJSONInt(o.b, int64(f.FlowSteps))
		o.key(FlowsProperty)
		o.b = appendJSONInt(o.b, int64(max(d.AllFlows, len(d.Flows))))
	}
	if withToolLevel {
		o.key(ToolLevelProperty)
		o.b = str(o.b, toolLevel)
	}
	if t := f.Triage; t != nil {
		o.key(TriageProperty) // confirmed and expired decisions too
		o.b = appendTriage(o.b, t)
	}
	return append(o.b, '}', ',')
}

// appendResultScales appends the properties of the scales, in the order
// of their names among the others: impact, the tool's priority, quality,
// SpotBugs' rank.
func appendResultScales(o *jsonObject, f *reports.Finding, scales bool) {
	if scales {
		o.key("impact")
		o.b = str(o.b, f.Impact.String())
	}
	if f.Priority > 0 {
		o.key("priority") // the tool's own (SpotBugs', PMD's), read back
		o.b = appendJSONInt(o.b, int64(f.Priority))
	}
	if scales {
		o.key("quality")
		o.b = str(o.b, f.Quality.String())
	}
	if f.Rank > 0 {
		o.key("rank") // SpotBugs' bug rank
		o.b = appendJSONInt(o.b, int64(f.Rank))
	}
}

// appendAlso appends the other findings of a problem: [{tool, rule, id}, …].
func appendAlso(b []byte, also []reports.Also) []byte {
	b = append(b, '[')
	for i, a := range also {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"tool":`...)
		b = str(b, a.Tool)
		b = append(b, `,"rule":`...)
		b = str(b, a.Rule)
		b = append(b, `,"id":`...)
		b = str(b, a.ID.String())
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendTriage appends a triage decision as reports.Triage's JSON.
func appendTriage(b []byte, t *reports.Triage) []byte {
	b = append(b, `{"state":`...)
	b = str(b, t.State)
	b = append(b, `,"reason":`...)
	b = str(b, t.Reason)
	for _, kv := range [...]struct{ k, v string }{{"by", t.By}, {"date", t.Date}, {"until", t.Until}, {"link", t.Link}} {
		if kv.v != "" {
			b = append(b, ',', '"')
			b = append(b, kv.k...)
			b = append(b, '"', ':')
			b = str(b, kv.v)
		}
	}
	if t.Expired {
		b = append(b, `,"expired":true`...)
	}
	if !t.Via.IsZero() {
		b = append(b, `,"via":"`...)
		b = append(t.Via.Append(b), '"') // tag-n: nothing to escape
	}
	if t.Overrules != "" {
		b = append(b, `,"overrules":`...)
		b = str(b, t.Overrules)
	}
	if len(t.OverrulesOthers) > 0 {
		b = append(b, `,"overrulesOthers":[`...)
		for i, o := range t.OverrulesOthers {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = str(b, o.ID.String())
			b = append(b, `,"tool":`...)
			b = str(b, o.Tool)
			b = append(b, `,"rule":`...)
			b = str(b, o.Rule)
			b = append(b, `,"state":`...)
			b = str(b, o.State)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendSuppressions appends the result's suppressions (§3.35), when it
// has some: its report's, and the triage file's decision that hides it.
func appendSuppressions(b []byte, f *reports.Finding) []byte {
	n := 0
	sep := func(b []byte) []byte {
		if n++; n == 1 {
			return append(b, `,"suppressions":[`...)
		}
		return append(b, ',')
	}
	decided := f.Triage.Suppressed()
	if d := f.Detail; d != nil {
		for _, sup := range d.Suppressions {
			if decided && !sup.Suppresses() {
				// The team decided since (the triage file): a tool's
				// suppression rejected or under review beside recap's
				// accepted one would leave the result unsuppressed to
				// every reader (SARIF §3.27.23).
				continue
			}
			b = sep(b)
			b = appendSuppression(b, sup.Kind, sup.Status, sup.Justification)
			b = appendDecisionProperties(b, sup.Properties, "")
			b = append(b, '}')
		}
	}
	if t := f.Triage; decided {
		// A decision of the triage file (docs/triage.md), kept outside
		// the source: code scanning closes the alert.
		b = sep(b)
		b = appendSuppression(b, "external", "accepted", t.Reason)
		p := reports.SuppressionProperties{State: t.State, By: t.By, Date: t.Date, Until: t.Until, Link: t.Link}
		// The finding decided, as its entry names it (its location, which
		// follows its code): the decision comes back on it whatever moved
		// since, and on it, not the problem's first, when via another.
		p.DecidedFinding = t.Of
		b = appendDecisionProperties(b, &p, t.Via.String())
		b = append(b, '}')
	}
	if n > 0 {
		b = append(b, ']')
	}
	return b
}

// appendDecisionProperties appends a suppression's property bag: what it
// says of a triage decision (p, nil for nothing) and via, the id of the
// finding whose decision covers this one ("" for none); nothing when both
// are empty.
func appendDecisionProperties(b []byte, p *reports.SuppressionProperties, via string) []byte {
	first := true
	add := func(k, v string) {
		if first {
			b = append(b, `,"properties":{`...)
			first = false
		} else {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, k...)
		b = append(b, '"', ':')
		b = str(b, v)
	}
	p.Each(add)
	if via != "" {
		add("via", via)
	}
	if !first {
		b = append(b, '}')
	}
	return b
}

// appendSuppression appends a suppression's kind, status and
// justification, its object left open.
func appendSuppression(b []byte, kind, status, justification string) []byte {
	b = append(b, `{"kind":`...)
	b = str(b, kind)
	if status != "" {
		b = append(b, `,"status":`...)
		b = str(b, status)
	}
	if justification != "" {
		b = append(b, `,"justification":`...)
		b = str(b, justification)
	}
	return b
}

// appendPlace appends f's location: its file and region, or, without a
// file, what its report said of the place (its logical locations; SARIF's
// "no location known" when nothing).
func (e *resultEncoder) appendPlace(b []byte, f *reports.Finding) []byte {
	d := f.Detail
	b = append(b, '{')
	if f.Path != "" {
		b = append(b, `"physicalLocation":{"artifactLocation":`...)
		b = e.appendArtifact(b, f.Path)
		if f.Line > 0 {
			b = append(b, `,"region":`...)
			b = appendRegion(b, f.Line, f.EndLine, f.Column, f.EndColumn)
			b = appendSnippet(b, f)
		}
		b = append(b, '}')
	}
	if d != nil && len(d.Logical) > 0 {
		if f.Path != "" {
			b = append(b, ',')
		}
		b = appendLogical(b, d.Logical)
	}
	return append(b, '}')
}

// appendRegion appends a region (§3.30), its ends written only when they
// are consistent with its start (§3.30.2 to .5), its object left open;
// line > 0.
func appendRegion(b []byte, line, endLine, column, endColumn int) []byte {
	b = append(b, `{"startLine":`...)
	b = appendJSONInt(b, int64(line))
	if column > 0 {
		b = append(b, `,"startColumn":`...)
		b = appendJSONInt(b, int64(column))
	}
	end := line
	if endLine > line {
		end = endLine
		b = append(b, `,"endLine":`...)
		b = appendJSONInt(b, int64(endLine))
	}
	if endColumn > 0 && (end > line || endColumn >= max(column, 1)) {
		b = append(b, `,"endColumn":`...)
		b = appendJSONInt(b, int64(endColumn))
	}
	return b
}

// appendSnippet closes the region of f, with the report's snippet of the
// finding: the region's, or a context region holding the region (§3.29.5).
func appendSnippet(b []byte, f *reports.Finding) []byte {
	if f.Snippet == "" {
		return append(b, '}')
	}
	if f.SnippetLine <= 0 {
		b = append(b, `,"snippet":`...)
		b = textMessage(b, f.Snippet)
		return append(b, '}')
	}
	b = append(b, '}')
	start := int(f.SnippetLine)
	end := start + strings.Count(strings.TrimSuffix(f.Snippet, "\n"), "\n")
	if start > f.Line || end < max(f.EndLine, f.Line) {
		return b // it does not hold the region
	}
	b = append(b, `,"contextRegion":{"startLine":`...)
	b = appendJSONInt(b, int64(start))
	b = append(b, `,"endLine":`...)
	b = appendJSONInt(b, int64(end))
	b = append(b, `,"snippet":`...)
	b = textMessage(b, f.Snippet)
	return append(b, '}')
}

// appendLogical appends a place's logical locations (§3.33).
func appendLogical(b []byte, lls []reports.LogicalLocation) []byte {
	b = append(b, `"logicalLocations":[`...)
	for i, ll := range lls {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		first := true
		for _, kv := range [...]struct{ k, v string }{{"name", ll.Name}, {"fullyQualifiedName", ll.FullyQualifiedName}, {"kind", ll.Kind}} {
			if kv.v == "" {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, '"')
			b = append(b, kv.k...)
			b = append(b, '"', ':')
			b = str(b, kv.v)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendArtifact appends an artifact location: a repository-relative path
// under SRCROOT, or an absolute path (one recap could not place in the
// repository) as a file URI.
func (e *resultEncoder) appendArtifact(b []byte, p string) []byte {
	if p != e.lastPath || e.lastURI == "" {
		e.lastPath = p
		e.lastURI, e.lastBase = sarifArtifactURI(p)
	}
	b = append(b, `{"uri":`...)
	b = str(b, e.lastURI)
	if e.lastBase != "" {
		b = append(b, `,"uriBaseId":`...)
		b = str(b, e.lastBase)
	}
	return append(b, '}')
}

// sarifArtifactURI is the URI of a path and its uriBaseId: SRCROOT for a
// repository-relative path, none for an absolute path (a file URI).
func sarifArtifactURI(p string) (uri, base string) {
	if strings.HasPrefix(p, "/") || isDrivePath(p) {
		if isDrivePath(p) {
			p = "/" + p
		}
		u := url.URL{Scheme: "file", Path: p}
		return u.String(), ""
	}
	u := url.URL{Path: path.Clean(p)}
	return u.String(), srcRoot
}

// appendLocation appends a flow step or a related location (id > 0 its
// id): its place, when it has a file (under SRCROOT, or under the tool's
// own uriBaseId when it is outside the repository), and its message.
func (e *resultEncoder) appendLocation(b []byte, l *reports.Location, id int) []byte {
	b = append(b, '{')
	n := len(b)
	if id > 0 {
		b = append(b, `"id":`...)
		b = appendJSONInt(b, int64(id))
	}
	if l.Path != "" {
		if len(b) > n {
			b = append(b, ',')
		}
		b = append(b, `"physicalLocation":{"artifactLocation":`...)
		if l.Base != "" { // outside the repository: the tool's own base and URI
			u := url.URL{Path: l.Path}
			b = append(b, `{"uri":`...)
			b = str(b, u.String())
			b = append(b, `,"uriBaseId":`...)
			b = str(b, l.Base)
			b = append(b, '}')
		} else {
			b = e.appendArtifact(b, l.Path)
		}
		if l.Line > 0 {
			b = append(b, `,"region":`...)
			b = appendRegion(b, l.Line, l.EndLine, l.Column, l.EndColumn)
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	if l.Message != "" {
		if len(b) > n {
			b = append(b, ',')
		}
		b = append(b, `"message":`...)
		b = textMessage(b, l.Message)
	}
	return append(b, '}')
}

// appendFlows appends a finding's code flows (§3.36): a code flow for each
// run of flows of one code, a thread flow for each flow with steps.
func (e *resultEncoder) appendFlows(b []byte, d *reports.Detail) []byte {
	open := false    // a code flow is open
	written := false // the codeFlows member is
	for i := range d.Flows {
		fl := &d.Flows[i]
		if len(fl.Steps) == 0 {
			continue // SARIF's thread flow has a step at least
		}
		if !open || i == 0 || fl.Code != d.Flows[i-1].Code {
			if open {
				b = append(b, "]}"...)
			}
			if !written {
				b = append(b, `,"codeFlows":[`...)
				written = true
			} else {
				b = append(b, ',')
			}
			b = append(b, '{')
			if fl.Message != "" {
				b = append(b, `"message":`...)
				b = textMessage(b, fl.Message)
				b = append(b, ',')
			}
			b = append(b, `"threadFlows":[`...)
			open = true
		} else {
			b = append(b, ',')
		}
		b = append(b, `{"locations":[`...)
		for j := range fl.Steps {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"location":`...)
			b = e.appendLocation(b, &fl.Steps[j], 0)
			b = append(b, '}')
		}
		b = append(b, "]}"...)
	}
	if open {
		b = append(b, "]}]"...)
	}
	return b
}

// appendFix appends a fix (§3.55): its description and its replacements,
// one artifact change a file, in the order the files first appear.
func (e *resultEncoder) appendFix(b []byte, x *reports.Fix) []byte {
	b = append(b, `,"fixes":[{`...)
	if x.Description != "" {
		b = append(b, `"description":`...)
		b = textMessage(b, x.Description)
		b = append(b, ',')
	}
	b = append(b, `"artifactChanges":`...)
	paths := x.Paths()
	if len(paths) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
	}
	for i, p := range paths {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"artifactLocation":`...)
		uri, base := sarifArtifactURI(p)
		b = append(b, `{"uri":`...)
		b = str(b, uri)
		if base != "" {
			b = append(b, `,"uriBaseId":`...)
			b = str(b, base)
		}
		b = append(b, `},"replacements":`...)
		n := 0
		for _, r := range x.Replacements {
			if r.Path != p {
				continue
			}
			if n++; n == 1 {
				b = append(b, '[')
			} else {
				b = append(b, ',')
			}
			b = append(b, `{"deletedRegion":{`...)
			m := len(b)
			field := func(b []byte, k string, v int) []byte {
				if len(b) > m {
					b = append(b, ',')
				}
				b = append(b, '"')
				b = append(b, k...)
				b = append(b, '"', ':')
				return appendJSONInt(b, int64(v))
			}
			if !r.ByCharacters() {
				b = field(b, "startLine", r.Line)
			}
			if r.Column > 0 {
				b = field(b, "startColumn", r.Column)
			}
			if r.EndLine > 0 {
				b = field(b, "endLine", r.EndLine)
			}
			if r.EndColumn > 0 {
				b = field(b, "endColumn", r.EndColumn)
			}
			if r.ByCharacters() {
				b = field(b, "charOffset", r.Offset)
				b = field(b, "charLength", r.Length)
			}
			b = append(b, `},"insertedContent":`...)
			b = textMessage(b, r.Text)
			b = append(b, '}')
		}
		if n == 0 {
			b = append(b, "null"...)
		} else {
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	if len(paths) > 0 {
		b = append(b, ']')
	}
	return append(b, "}]"...)
}

// appendFingerprint appends a fingerprint as recap's SARIF writes it, the
// string "identity:occurrence" ([sarifFingerprint]). The colon and the
// digits need no escape, and end no character: the identity is escaped
// alone, its closing quote left for after them.
func appendFingerprint(b []byte, fp string) []byte {
	id, n := reports.SplitFingerprint(fp)
	b = str(b, id)
	b = append(b[:len(b)-1], ':')
	b = strconv.AppendInt(b, int64(n), 10)
	return append(b, '"')
}
