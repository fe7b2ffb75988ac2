package summarize

import (
	"slices"
	"strconv"
	"strings"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize/budget"
)

// View is what every output format renders, in the JSON shape of docs/formats.md ("The view").
// Field names are a contract read by agents, CI jobs and the PR bot: extend,
// don't rename.
type View struct {
	Summary Summary `json:"summary"`
	// Inputs is the status of every input read, in the order given.
	Inputs []reports.Input `json:"inputs"`
	// Findings is the requested page, in view order; nil in a summary-only view.
	Findings []FindingView `json:"findings,omitempty"`
	// Page says where Findings sits among all the findings that passed the filters.
	Page *Page `json:"page,omitempty"`
	// Omitted has a marker for each part left out to keep the budget.
	Omitted []budget.Omission `json:"omitted,omitempty"`
	// Suggestions say what would narrow a result that did not fit.
	Suggestions []string `json:"suggestions,omitempty"`
	// BufferID names a result kept in memory by the MCP server, so that
	// further pages are served without reading the reports again.
	BufferID string `json:"bufferId,omitempty"`
	// Tokens states the view's own size; nil when no budget applied.
	Tokens *budget.TokenInfo `json:"tokens,omitempty"`
	// InputsCounted counts the inputs read, as they were before a budget
	// left some statuses out (0: count Inputs); see InputsRead.
	InputsCounted int `json:"-"`
}

// InputsRead counts the inputs read ([reports.CountRead]), those whose
// status a budget left out too: what a headline says.
func (v *View) InputsRead() int {
	if v.InputsCounted > 0 {
		return v.InputsCounted
	}
	return reports.CountRead(v.Inputs)
}

// FindingView is a finding as a view shows it: the finding's fields, and up
// to three lines of source around it.
type FindingView struct {
	reports.Finding
	// HostLevel is the finding's level on the hosts ([reports.Finding.Level]),
	// beside the tool's Severity; views set it as they make the page.
	HostLevel reports.Severity `json:"level,omitzero"`
	Context   []ContextLine    `json:"context,omitempty"`
	// ContextNote says why Context is empty or comes from the report's
	// snippet, or that it may not be the code the tool read (the file
	// changed after the report was written).
	ContextNote string `json:"contextNote,omitempty"`
	// AlsoReportedBy names the other findings of the finding's problem,
	// most important first, when it leads one (see [DuplicateCounts]).
	AlsoReportedBy []AlsoReported `json:"alsoReportedBy,omitempty"`
	// RuleInfo is what the finding's input says of its rule (nil:
	// nothing), for the formats that show it with the finding's context
	// (markdown); the JSON view leaves it out (rule text is per rule, not
	// per finding).
	RuleInfo *reports.Rule `json:"-"`
}

// AlsoReported is another finding of a problem: its tool, its rule's
// short name and its id.
type AlsoReported = reports.Also

// ContextLine is one line of source.
type ContextLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// Page locates a page of findings: offset and limit as asked, how many were
// returned, the total after filters, and the offset of the next page (null on
// the last page).
type Page struct {
	Offset     int  `json:"offset"`
	Limit      int  `json:"limit"`
	Returned   int  `json:"returned"`
	Total      int  `json:"total"`
	NextOffset *int `json:"nextOffset"`
}

// Summary is the view's summary (docs/formats.md, "The view"): counts after filters.
type Summary struct {
	Total int `json:"total"`
	// Problems counts the distinct problems: the findings less those that
	// repeat another finding's problem at the same place (docs/formats.md,
	// "Duplicates"), which Duplicates counts.
	Problems   int              `json:"problems"`
	Duplicates *DuplicateCounts `json:"duplicates,omitempty"`
	// Excluded counts the findings the repository's configuration left
	// out (docs/config.md), which no other count holds.
	Excluded int `json:"excluded,omitempty"`
	Files    int `json:"files"`
	// ByImpact and ByQuality count the findings on the importance scale
	// (docs/formats.md, "Importance"), ByQualityImpact both at once; an
	// impact or quality without findings is left out.
	ByImpact        ImpactCounts        `json:"byImpact"`
	ByQuality       QualityCounts       `json:"byQuality"`
	ByQualityImpact QualityImpactCounts `json:"byQualityImpact"`
	BySeverity      SeverityCounts      `json:"bySeverity"`
	// ByLevel counts the findings by their level on the hosts
	// ([reports.Finding.Level]: their impact's, docs/formats.md, "Levels
	// on the hosts"), where BySeverity counts the tool's words; omitted
	// without findings and at the smallest budgets (squeeze).
	ByLevel       SeverityCounts `json:"byLevel,omitzero"`
	ByTool        map[string]int `json:"byTool"`
	TopCategories []Count        `json:"topCategories"`
	TopRules      []RuleCount    `json:"topRules"`
	TopFiles      []Count        `json:"topFiles"`
	// Baseline counts the findings against a baseline run; nil without one.
	Baseline *BaselineCounts `json:"baseline,omitempty"`
	// Security counts the findings about security ([reports.Finding.Security]);
	// nil when there are none.
	Security *SecurityCounts `json:"security,omitempty"`
	// Triaged counts the findings a triage decision covers (docs/triage.md),
	// which no other count holds unless Triaged.Shown; nil without a
	// triage file or when it covers none.
	Triaged *TriagedCounts `json:"triaged,omitempty"`
	// Approximate names the counts that are estimates (files, topFiles,
	// topRules, …), when there were more distinct names than [MaxDistinct];
	// empty when every count is exact. An estimated number of files is never
	// more than the findings with a file; the counts of an estimated top
	// list (or byTool) are what is sure: at least that many, never more.
	// Every format says so ([Summary.FilesText], [Summary.Estimated]).
	Approximate []string `json:"approximate,omitempty"`
}

// DuplicateCounts counts the findings that repeat another's problem (the
// same problem at the same place, by another rule or tool): views show
// each problem once, by its most important finding, and leave these out.
type DuplicateCounts struct {
	// Findings counts the findings left out; Problems the problems that
	// more than one finding reports.
	Findings   int            `json:"findings"`
	Problems   int            `json:"problems"`
	ByImpact   ImpactCounts   `json:"byImpact,omitzero"`
	BySeverity SeverityCounts `json:"bySeverity,omitzero"`
}

// BaselineCounts counts findings by their state against a baseline run:
// new, unchanged, and fixed (only in the baseline). They are counted after
// the filters but before --new-only, so that they say what changed.
type BaselineCounts struct {
	New       int `json:"new"`
	Unchanged int `json:"unchanged"`
	Fixed     int `json:"fixed"`
	// NewProblems counts the new problems when findings are grouped
	// (docs/formats.md, "Duplicates"): a problem is new when none of its
	// findings is in the baseline, so a tool added to the pipeline that
	// reports old problems makes none new. Nil without grouping.
	NewProblems *int `json:"newProblems,omitempty"`
}

// TriagedCounts counts the findings that triage decisions leave out of
// pages, gates and reviews (every state but confirmed, before its expiry),
// and those confirmed or whose decision expired, which stay in.
type TriagedCounts struct {
	// Total counts the findings left out; Problems the problems among them
	// (a decision on one finding of a problem covers the problem).
	Total    int `json:"total"`
	Problems int `json:"problems"`
	// ByState counts the problems by state ("false-positive": 9,
	// "wont-fix": 3).
	ByState map[string]int `json:"byState"`
	// ByImpact and BySeverity count their problems; New their new
	// problems against a baseline: what a gate leaves out when Shown.
	ByImpact   ImpactCounts   `json:"byImpact,omitzero"`
	BySeverity SeverityCounts `json:"bySeverity,omitzero"`
	New        int            `json:"new,omitempty"`
	// Confirmed counts the findings triaged confirmed and Expired those
	// whose decision has expired: both are counted and shown as others.
	Confirmed int `json:"confirmed,omitempty"`
	Expired   int `json:"expired,omitempty"`
	// Overruled counts those of the confirmed whose own decision would
	// leave them out: a confirmation of another finding of their problem
	// holds them (the decisions disagree).
	Overruled int `json:"overruled,omitempty"`
	// Unmatched counts the decisions of the tools of the run that matched
	// no finding of it (the code fixed, deleted, or changed past
	// following: recap triage check says which), told only of a run of
	// every finding (no filter, new only or configuration exclusion; on
	// the changed lines, those off them are decided too).
	Unmatched int `json:"unmatched,omitempty"`
	// UnmatchedChanged says that Unmatched counts those of the files
	// changed alone (a run on the changed lines).
	UnmatchedChanged bool `json:"unmatchedChanged,omitempty"`
	// UnmatchedOlder, when the file of such a decision changed after the
	// report of its tool was written (not committed, in a commit since,
	// or by a stash), says so of the first one: the reports are older
	// than the code, and the tools must run again to tell.
	UnmatchedOlder string `json:"unmatchedOlder,omitempty"`
	// Shown says that the other counts of the summary hold these findings
	// too (--triaged include or only).
	Shown bool `json:"shown,omitempty"`
}

// Text says the counts as summaries write them, in problems (the
// findings they hold when more, as the summary's first line counts both),
// with the blockers and high-impact problems among them (a decision on a
// grave finding stays in sight), then the problems by the state of the
// decision that covers each: "12 problems triaged (15 findings; 1 high):
// 9 false positive, 3 won't fix"; "" when none.
func (t *TriagedCounts) Text() string {
	if t == nil || t.Total == 0 {
		return ""
	}
	s := english.Plural(t.Problems, "problem", "problems") + " triaged"
	var about []string
	if t.Total != t.Problems {
		about = append(about, english.Plural(t.Total, "finding", "findings"))
	}
	if g := t.Grave(); g != "" {
		about = append(about, g)
	}
	if len(about) > 0 {
		s += " (" + strings.Join(about, "; ") + ")"
	}
	var parts []string
	for _, st := range TriageStates {
		if n := t.ByState[st]; n > 0 {
			parts = append(parts, strconv.Itoa(n)+" "+reports.TriageLabel(st))
		}
	}
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	return s
}

// Grave names the blockers and high-impact problems among the triaged
// ("1 blocker, 2 high"); "" when there are none.
func (t *TriagedCounts) Grave() string {
	if t == nil {
		return ""
	}
	var grave []string
	if n := t.ByImpact.Blocker; n > 0 {
		grave = append(grave, strconv.Itoa(n)+" blocker")
	}
	if n := t.ByImpact.High; n > 0 {
		grave = append(grave, strconv.Itoa(n)+" high")
	}
	return strings.Join(grave, ", ")
}

// TriageStates are the states that leave a finding out, in the order
// summaries count them.
var TriageStates = []string{"false-positive", "wont-fix", "accepted-risk", "used-in-tests"}

// SecurityCounts counts the findings about security: how many, how many of
// each impact, and the TopN CWE ids among them, most findings first
// ("CWE-89").
type SecurityCounts struct {
	Findings int          `json:"findings"`
	ByImpact ImpactCounts `json:"byImpact"`
	TopCWE   []Count      `json:"topCwe"`
}

// ImpactCounts counts findings by impact, most important first; an impact
// without findings is left out of the JSON.
type ImpactCounts struct {
	Blocker int `json:"blocker,omitempty"`
	High    int `json:"high,omitempty"`
	Medium  int `json:"medium,omitempty"`
	Low     int `json:"low,omitempty"`
	Info    int `json:"info,omitempty"`
}

// at returns the count of impact i, nil for an invalid one.
func (c *ImpactCounts) at(i reports.Impact) *int {
	switch i {
	case reports.ImpactBlocker:
		return &c.Blocker
	case reports.ImpactHigh:
		return &c.High
	case reports.ImpactMedium:
		return &c.Medium
	case reports.ImpactLow:
		return &c.Low
	case reports.ImpactInfo:
		return &c.Info
	}
	return nil
}

// Of returns the count of impact i.
func (c ImpactCounts) Of(i reports.Impact) int {
	if p := c.at(i); p != nil {
		return *p
	}
	return 0
}

// Total is the sum of the counts.
func (c ImpactCounts) Total() int { return c.Blocker + c.High + c.Medium + c.Low + c.Info }

// QualityCounts counts findings by quality, in the order views show them;
// a quality without findings is left out of the JSON.
type QualityCounts struct {
	Security        int `json:"security,omitempty"`
	Reliability     int `json:"reliability,omitempty"`
	Maintainability int `json:"maintainability,omitempty"`
}

// Of returns the count of quality q.
func (c QualityCounts) Of(q reports.Quality) int {
	switch q {
	case reports.QualitySecurity:
		return c.Security
	case reports.QualityReliability:
		return c.Reliability
	case reports.QualityMaintainability:
		return c.Maintainability
	}
	return 0
}

// QualityImpactCounts counts findings by quality and impact; a quality
// without findings is left out of the JSON.
type QualityImpactCounts struct {
	Security        *ImpactCounts `json:"security,omitempty"`
	Reliability     *ImpactCounts `json:"reliability,omitempty"`
	Maintainability *ImpactCounts `json:"maintainability,omitempty"`
}

// Of returns the counts of quality q by impact.
func (c QualityImpactCounts) Of(q reports.Quality) ImpactCounts {
	var p *ImpactCounts
	switch q {
	case reports.QualitySecurity:
		p = c.Security
	case reports.QualityReliability:
		p = c.Reliability
	case reports.QualityMaintainability:
		p = c.Maintainability
	}
	if p == nil {
		return ImpactCounts{}
	}
	return *p
}

// Add counts one finding by its Baseline state.
func (b *BaselineCounts) Add(state string) {
	switch state {
	case reports.BaselineNew:
		b.New++
	case reports.BaselineUnchanged:
		b.Unchanged++
	case reports.BaselineFixed:
		b.Fixed++
	}
}

// SeverityCounts counts findings by severity.
type SeverityCounts struct {
	Error   int `json:"error"`
	Warning int `json:"warning"`
	Note    int `json:"note"`
}

// Of returns the count for s.
func (c SeverityCounts) Of(s reports.Severity) int {
	switch s {
	case reports.SeverityError:
		return c.Error
	case reports.SeverityWarning:
		return c.Warning
	case reports.SeverityNote:
		return c.Note
	}
	return 0
}

// Levels counts findings of these impacts by their levels on the hosts
// ([reports.ImpactLevel]): blocker and high are errors, medium warnings,
// low and info notes.
func (c ImpactCounts) Levels() SeverityCounts {
	return SeverityCounts{Error: c.Blocker + c.High, Warning: c.Medium, Note: c.Low + c.Info}
}

// Count is a name with how many findings it has.
type Count struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// RuleCount is a rule, its tool, and how many findings it has.
type RuleCount struct {
	Name  string `json:"name"`
	Tool  string `json:"tool"`
	Count int    `json:"count"`
}

// Failed reports whether any input could not be read.
func (v *View) Failed() bool {
	for _, in := range v.Inputs {
		if in.Error != "" {
			return true
		}
	}
	return false
}

// Estimated reports whether the count named (as in Approximate: "files",
// "topRules", …) is an estimate.
func (s *Summary) Estimated(what string) bool { return slices.Contains(s.Approximate, what) }

// FilesText says the number of files for a line of text: "3 files", or
// "about 1016358 files" when it is an estimate.
func (s *Summary) FilesText() string {
	if s.Estimated("files") {
		return "about " + english.Plural(s.Files, "file", "files")
	}
	return english.Plural(s.Files, "file", "files")
}
