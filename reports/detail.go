package reports

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Detail is what a report says of a finding beyond its one place: the
// steps of a code flow, related places, a fix. Each part is bounded (the
// Max constants below), so that a finding's detail stays small whatever the
// report holds; the finding counts what the report gave
// ([Finding.FlowSteps], [Finding.Related]).
type Detail struct {
	// Flows are the result's code flows (SARIF §3.36), a Flow for each of
	// their thread flows (§3.37), in order: at most MaxFlows, and at most
	// MaxFlowSteps steps over all of them. AllFlows counts the thread flows
	// the report gave ([Finding.FlowSteps] their steps), so that a reader
	// knows when some were cut.
	Flows    []Flow `json:"flows,omitempty"`
	AllFlows int    `json:"allFlows,omitempty"`
	// Related is the related locations (SARIF §3.27.22), at most MaxRelated.
	Related []Location `json:"related,omitempty"`
	// Fix is the first fix the report proposes (SARIF §3.55), nil when none:
	// its description, and its replacements when recap can keep them (within
	// the bounds below, each of a region given by lines or by characters in a
	// file, inserting text); a fix whose edits cannot be kept keeps its
	// description alone.
	Fix *Fix `json:"fix,omitempty"`
	// Locations are the result's further locations (SARIF §3.27.12: the
	// second and on, each a place the problem is at too), at most
	// MaxLocations.
	Locations []Location `json:"locations,omitempty"`
	// Logical are the logical locations of the finding's place (§3.33: a
	// class, a function, a package; at most MaxLogical), beside its file
	// or, for a finding without a file, in its stead; Target is the
	// artifact a finding without a file scanned (§3.27.13, the result's
	// analysisTarget), as the finding's path would be.
	Logical []LogicalLocation `json:"logical,omitempty"`
	Target  string            `json:"target,omitempty"`
	// Suppressions are the result's suppressions (SARIF §3.27.23, PMD's
	// suppressedviolation), at most MaxSuppressions, one that is not
	// accepted among them when the result has one; Kind is the result's
	// kind (§3.27.9) when it is not "fail" (pass, review, open,
	// informational, notApplicable). A result suppressed (see [Suppressed])
	// or of another kind is not a finding: its input counts it, and only
	// recap's SARIF, asked for them, writes it (see [Finding.Uncounted]).
	Suppressions []Suppression `json:"suppressions,omitempty"`
	Kind         string        `json:"kind,omitempty"`
	// Also names the other findings of the run that report this finding's
	// problem at its place (docs/formats.md, "Duplicates"), most important
	// first, when this one shows the problem: set by the pipeline for the
	// outputs that stream findings (recap's SARIF, Code Quality, workflow
	// annotations, the check run), which show each problem once.
	Also []Also `json:"-"`
}

// Also is another finding of a problem: its tool, its rule's short name
// and its id.
type Also struct {
	Tool string    `json:"tool"`
	Rule string    `json:"rule"`
	ID   FindingID `json:"id"`
}

// Flow is one thread flow of a code flow (SARIF §3.37): its steps, in
// order, and the code flow's message. Code numbers the code flows of a
// result from 0: the flows of one code flow (a thread flow each) have the
// same Code, and come one after the other.
type Flow struct {
	Code    int        `json:"code,omitempty"`
	Message string     `json:"message,omitempty"`
	Steps   []Location `json:"steps"`
}

// FlowSteps counts the steps d keeps, over all its flows.
func (d *Detail) FlowSteps() int {
	n := 0
	for i := range d.Flows {
		n += len(d.Flows[i].Steps)
	}
	return n
}

// FirstFlow is the steps of d's first flow, nil when none.
func (d *Detail) FirstFlow() []Location {
	if d == nil || len(d.Flows) == 0 {
		return nil
	}
	return d.Flows[0].Steps
}

// LogicalLocation is a logical place (SARIF §3.33): its name, its fully
// qualified name, and its kind (function, member, type, module, namespace,
// package, resource, …).
type LogicalLocation struct {
	Name               string `json:"name,omitempty"`
	FullyQualifiedName string `json:"fullyQualifiedName,omitempty"`
	Kind               string `json:"kind,omitempty"`
}

// Suppression is a suppression of a result (SARIF §3.35): its kind
// (inSource, external), its status ("" for none, accepted, underReview,
// rejected) and its justification; of a triage decision that recap's
// SARIF writes, what its property bag says of the decision.
type Suppression struct {
	Kind          string                 `json:"kind"`
	Status        string                 `json:"status,omitempty"`
	Justification string                 `json:"justification,omitempty"`
	Properties    *SuppressionProperties `json:"properties,omitempty"`
}

// SuppressionProperties are the properties of a triage decision that
// recap's SARIF writes in a suppression's property bag (docs/triage.md):
// the decision's state, who took it and when, when it expires, and a link;
// of a decision on another finding of the result's problem (via), that
// finding as the triage file names it (DecidedFinding). A reader keeps
// these keys' strings only, each cut to MaxPropertyText.
type SuppressionProperties struct {
	State string `json:"state,omitempty"`
	By    string `json:"by,omitempty"`
	Date  string `json:"date,omitempty"`
	Until string `json:"until,omitempty"`
	Link  string `json:"link,omitempty"`
	DecidedFinding
}

// DecidedFinding is the finding a triage decision is about, as its entry
// names it: its tool, rule and path, its location fingerprint, the text
// of its line and its message, and the commit it was decided on (where a
// rename is followed from).
type DecidedFinding struct {
	Tool     string `json:"tool,omitempty"`
	Rule     string `json:"rule,omitempty"`
	Path     string `json:"path,omitempty"`
	Location string `json:"location,omitempty"`
	Line     string `json:"line,omitempty"`
	Message  string `json:"message,omitempty"`
	Commit   string `json:"commit,omitempty"`
}

// MaxPropertyText is the most bytes a reader keeps of a suppression's
// property.
const MaxPropertyText = 2000

// IsZero reports whether p says nothing.
func (p *SuppressionProperties) IsZero() bool { return p == nil || *p == SuppressionProperties{} }

// Each calls fn with each property that is set, in the order of their
// names (by, commit, date, line, link, location, message, path, rule,
// state, tool, until).
func (p *SuppressionProperties) Each(fn func(key, value string)) {
	if p == nil {
		return
	}
	for _, kv := range [...]struct{ k, v string }{{"by", p.By}, {"commit", p.Commit}, {"date", p.Date}, {"line", p.Line}, {"link", p.Link}, {"location", p.Location},
		{"message", p.Message}, {"path", p.Path}, {"rule", p.Rule}, {"state", p.State}, {"tool", p.Tool}, {"until", p.Until}} {
		if kv.v != "" {
			fn(kv.k, kv.v)
		}
	}
}

// Field returns the property of that name, nil when there is none.
func (p *SuppressionProperties) Field(key string) *string {
	switch key {
	case "state":
		return &p.State
	case "by":
		return &p.By
	case "date":
		return &p.Date
	case "until":
		return &p.Until
	case "link":
		return &p.Link
	case "tool":
		return &p.Tool
	case "rule":
		return &p.Rule
	case "path":
		return &p.Path
	case "location":
		return &p.Location
	case "line":
		return &p.Line
	case "message":
		return &p.Message
	case "commit":
		return &p.Commit
	}
	return nil
}

// Suppresses reports whether the suppression is accepted: its status is
// absent or accepted (SARIF §3.35.3). Any other status (underReview,
// rejected, or one SARIF does not name) keeps the result from being
// suppressed, whatever its other suppressions say (see [Suppressed]).
func (s *Suppression) Suppresses() bool { return s.Status == "" || s.Status == "accepted" }

// Suppressed reports whether suppressions suppress their result: there is
// one, and each is accepted (SARIF §3.27.23; the SARIF SDK's
// TryIsSuppressed). A result with an accepted suppression and a rejected
// one, or one under review, is not suppressed.
func Suppressed(suppressions []Suppression) bool {
	for i := range suppressions {
		if !suppressions[i].Suppresses() {
			return false
		}
	}
	return len(suppressions) > 0
}

// Suppressed reports whether d's suppressions suppress the result (see
// [Suppressed]).
func (d *Detail) Suppressed() bool { return Suppressed(d.Suppressions) }

// Triaged reports whether d's suppressions suppress the result and one of
// them is a triage decision recap's SARIF wrote (its properties name the
// decision's state): the result was a finding, which a decision left out.
func (d *Detail) Triaged() bool {
	if !d.Suppressed() {
		return false
	}
	for i := range d.Suppressions {
		if p := d.Suppressions[i].Properties; p != nil && p.State != "" {
			return true
		}
	}
	return false
}

// Uncounted reports whether f is a result the report says is no finding:
// suppressed, or of a kind other than fail. Readers give such results only
// when asked (recap's SARIF keeps them); no view counts them.
func (f *Finding) Uncounted() bool {
	return f.Detail != nil && (f.Detail.Kind != "" || f.Detail.Suppressed())
}

// Bounds of a finding's [Detail].
const (
	// MaxFlows bounds the flows kept of a result (a thread flow each:
	// CodeQL writes a code flow per path it found, govulncheck one per
	// call stack), and MaxFlowSteps their steps, all flows together: the
	// 1,000 thread flow locations of a result that GitHub's code scanning
	// shows. Real tools stay far within (Mayhem's longest flow has 72
	// steps), so that recap's SARIF keeps them all; the finding counts
	// what the report gave, and recap's SARIF says when flows were cut.
	MaxFlows     = 100
	MaxFlowSteps = 1000
	// MaxRelated bounds the related locations kept.
	MaxRelated = 20
	// MaxLocations bounds the further locations of a result kept: GitHub's
	// code scanning takes 10 locations a result, the first and nine more.
	MaxLocations = 9
	// MaxLogical bounds the logical locations kept of a finding without a
	// file, and MaxSuppressions the suppressions of a result.
	MaxLogical      = 8
	MaxSuppressions = 8
	// MaxFixReplacements bounds the replacements of a fix, over all its
	// files, and MaxFixText the text each one inserts, in bytes: a fix
	// larger than that is no small change to suggest, and is left out.
	MaxFixReplacements = 16
	MaxFixText         = 2048
)

// Location is a place a finding's detail points at: a step of a flow or a
// related location. Path is placed in the repository as the finding's is.
//
// Base is the uriBaseId the report gave a place outside the repository
// (govulncheck's %GOROOT% and %GOMODCACHE%): Path is then its URI relative
// to that base, as the report wrote it, and names no file of the
// repository. An absolute Path is a place the reader could not put in the
// repository either.
type Location struct {
	Path      string `json:"path,omitempty"`
	Base      string `json:"base,omitempty"`
	Line      int    `json:"line,omitempty"`
	EndLine   int    `json:"endLine,omitempty"`
	Column    int    `json:"column,omitempty"`
	EndColumn int    `json:"endColumn,omitempty"`
	Message   string `json:"message,omitempty"`
}

// Fix is a change a tool proposes: replacements of regions of files.
type Fix struct {
	Description  string        `json:"description,omitempty"`
	Replacements []Replacement `json:"replacements"`
}

// Replacement replaces a region of a file by Text. The region is SARIF's
// (§3.30): lines and columns 1-based, columns counted in UTF-16 code units
// (SARIF's default column kind); Column 0 is the start of the line, EndLine
// 0 the start line, EndColumn 0 the end of the end line (its line break
// kept) and otherwise one past the last character replaced. An empty region
// (Column == EndColumn on one line) is an insertion. A region the report
// gives by characters alone, that the reader could not place on lines (the
// file's text was not at hand), has Line 0 and its Offset and Length (SARIF
// charOffset and charLength, in UTF-16 code units from the file's start):
// it is kept to be written again, not applied.
type Replacement struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column,omitempty"`
	EndLine   int    `json:"endLine,omitempty"`
	EndColumn int    `json:"endColumn,omitempty"`
	Offset    int    `json:"offset,omitempty"`
	Length    int    `json:"length,omitempty"`
	Text      string `json:"text"`
}

// ByCharacters reports whether the region is given by characters alone.
func (r *Replacement) ByCharacters() bool { return r.Line <= 0 }

// Lines returns the first and last line the replacement touches.
func (r *Replacement) Lines() (from, to int) {
	return r.Line, max(r.EndLine, r.Line)
}

// Paths lists the files the fix changes, in the order they first appear.
func (x *Fix) Paths() []string {
	var out []string
	for _, r := range x.Replacements {
		if !contains(out, r.Path) {
			out = append(out, r.Path)
		}
	}
	return out
}

// Span returns the first and last line of path that the fix touches; ok is
// false when it does not touch path.
func (x *Fix) Span(path string) (from, to int, ok bool) {
	for _, r := range x.Replacements {
		if r.Path != path {
			continue
		}
		a, b := r.Lines()
		if !ok || a < from {
			from = a
		}
		if !ok || b > to {
			to = b
		}
		ok = true
	}
	return from, to, ok
}

// Apply applies the fix's replacements of path to the lines from..to of
// the file (lines holds them, without line breaks; [Fix.Span] says which),
// and returns what those lines become. ok is false when a replacement's
// region lies outside the lines or past a line's end, or two regions overlap.
func (x *Fix) Apply(path string, from int, lines []string) (out []string, ok bool) {
	text := strings.Join(lines, "\n")
	// Each line's start in text, to turn (line, column) into an offset.
	starts := make([]int, len(lines))
	off := 0
	for i, l := range lines {
		starts[i] = off
		off += len(l) + 1
	}
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	for _, r := range x.Replacements {
		if r.Path != path {
			continue
		}
		a, b := r.Lines()
		if a < from || b >= from+len(lines) || r.Line <= 0 {
			return nil, false
		}
		start, ok1 := column(lines[a-from], r.Column, 0)
		end, ok2 := column(lines[b-from], r.EndColumn, len(lines[b-from]))
		start += starts[a-from]
		end += starts[b-from]
		if !ok1 || !ok2 || end < start {
			return nil, false
		}
		edits = append(edits, edit{start, end, r.Text})
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b strings.Builder
	at := 0
	for _, e := range edits {
		if e.start < at {
			return nil, false // overlapping regions
		}
		b.WriteString(text[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.WriteString(text[at:])
	return strings.Split(b.String(), "\n"), true
}

// column turns a 1-based column in UTF-16 code units into a byte offset in
// line; 0 gives def. A column one past the line's end is its end.
func column(line string, col, def int) (int, bool) {
	if col <= 0 {
		return def, true
	}
	units := 1
	for i, r := range line {
		if units >= col {
			return i, units == col // not inside a surrogate pair
		}
		units += utf16Len(r)
	}
	return len(line), units == col
}

func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
