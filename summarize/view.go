package summarize

import (
	"slices"

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
}

// FindingView is a finding as a view shows it: the finding's fields, and up
// to three lines of source around it.
type FindingView struct {
	reports.Finding
	Context []ContextLine `json:"context,omitempty"`
	// ContextNote says why Context is empty or comes from the report's snippet.
	ContextNote string `json:"contextNote,omitempty"`
	// RuleInfo is what the finding's input says of its rule (nil:
	// nothing), for the formats that show it with the finding's context
	// (markdown); the JSON view leaves it out (rule text is per rule, not
	// per finding).
	RuleInfo *reports.Rule `json:"-"`
}

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
	Total         int            `json:"total"`
	Files         int            `json:"files"`
	BySeverity    SeverityCounts `json:"bySeverity"`
	ByTool        map[string]int `json:"byTool"`
	TopCategories []Count        `json:"topCategories"`
	TopRules      []RuleCount    `json:"topRules"`
	TopFiles      []Count        `json:"topFiles"`
	// Baseline counts the findings against a baseline run; nil without one.
	Baseline *BaselineCounts `json:"baseline,omitempty"`
	// Security counts the findings about security ([reports.Finding.Security]);
	// nil when there are none.
	Security *SecurityCounts `json:"security,omitempty"`
	// Approximate names the counts that are estimates (files, topFiles,
	// topRules, …), when there were more distinct names than [MaxDistinct];
	// empty when every count is exact. An estimated number of files is never
	// more than the findings with a file; the counts of an estimated top
	// list (or byTool) are what is sure: at least that many, never more.
	// Every format says so ([Summary.FilesText], [Summary.Estimated]).
	Approximate []string `json:"approximate,omitempty"`
}

// BaselineCounts counts findings by their state against a baseline run:
// new, unchanged, and fixed (only in the baseline). They are counted after
// the filters but before --new-only, so that they say what changed.
type BaselineCounts struct {
	New       int `json:"new"`
	Unchanged int `json:"unchanged"`
	Fixed     int `json:"fixed"`
}

// SecurityCounts counts the findings about security: how many, and the
// TopN CWE ids among them, most findings first ("CWE-89").
type SecurityCounts struct {
	Findings int     `json:"findings"`
	TopCWE   []Count `json:"topCwe"`
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
