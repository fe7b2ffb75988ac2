package reports

// A Finding is one problem reported by one tool at one place, in recap's
// normalized form (docs/formats.md, "The finding"). It is a flat value: 0 or
// "" means unknown, nil none. What a report says of the finding's rule is
// held once per rule on its input (see [Rules]); what it says beyond the
// finding's one place (a flow, related places, a fix) is in Detail.
type Finding struct {
	// ID is a short id, unique within one run over a set of inputs and stable
	// while the inputs do not change; it is what a caller uses to ask for
	// details. It is written "tag-n" (see [FindingID]); the zero id is none.
	ID FindingID `json:"id"`
	// Fingerprint identifies the finding across runs: tool, rule, path and a
	// line-insensitive hash of the message, or the SARIF partialFingerprints.
	Fingerprint string `json:"fingerprint"`
	Tool        string `json:"tool"`
	ToolVersion string `json:"toolVersion,omitempty"`
	// Rule is the rule id as the tool writes it; RuleName its human name.
	Rule     string `json:"rule"`
	RuleName string `json:"ruleName,omitempty"`
	// Category is the finding's place on recap's one scale of categories
	// (see [Categorize]); ToolCategory the tool's own word for it
	// ("whitespace", "BAD_PRACTICE", "Best Practices"), "" when it gives none.
	Category     string   `json:"category"`
	ToolCategory string   `json:"toolCategory,omitempty"`
	Severity     Severity `json:"severity"`
	// Quality and Impact place the finding on recap's one importance scale
	// (see [Impact], [Quality]): what the tool says of the rule, not the
	// report's configurable severity, which stays as given in Severity.
	Quality Quality `json:"quality,omitempty"`
	Impact  Impact  `json:"impact,omitempty"`
	// Priority is the tool's own priority or rank, kept as is (0: none).
	Priority int `json:"priority,omitempty"`
	// Message is the tool's message; it keeps its line breaks (a view that
	// shows one line folds them).
	Message string `json:"message"`
	// Path is repository-relative with forward slashes, or the tool's path
	// as given (slashes normalized) when it cannot be placed in the repository.
	Path      string `json:"path"`
	Line      int    `json:"line"`
	EndLine   int    `json:"endLine"`
	Column    int    `json:"column"`
	EndColumn int    `json:"endColumn"`
	HelpURI   string `json:"helpUri,omitempty"`
	// SecuritySeverity is the rule's security severity, 0.1 to 10.0 as
	// GitHub's code scanning reads it (SARIF's security-severity property);
	// 0 when the report gives none.
	SecuritySeverity float64 `json:"securitySeverity,omitempty"`
	// CWE lists the CWE ids of the weakness (89 for CWE-89), ascending: from
	// the rule's tags and taxonomy references, the result's taxa, SpotBugs'
	// cweid. Findings of one rule share the slice: do not modify it.
	CWE []int `json:"cwe,omitempty"`
	// Snippet is source text the report itself carries for the region (SARIF
	// region or contextRegion snippet); used when the source file is missing.
	// SnippetLine is the line it starts at, 0 for the finding's line.
	Snippet     string `json:"snippet,omitempty"`
	SnippetLine int32  `json:"snippetLine,omitempty"`
	// FlowSteps counts the steps of the finding's code flows, all of them,
	// and Related its related locations, as the report gives them (Detail
	// keeps the first of each, within its bounds); Fixable says that the report proposes a fix, in edits or in
	// words. (int32, bool and uint8 side by side: a finding is copied as it
	// streams, and every word counts.)
	FlowSteps int32 `json:"flowSteps,omitempty"`
	Related   int32 `json:"related,omitempty"`
	Fixable   bool  `json:"fixable,omitempty"`
	// Rank is the tool's rank of the finding when it gives one beside its
	// priority (SpotBugs' bug rank, 1 the scariest to 20), kept as is (0:
	// none).
	Rank uint8 `json:"rank,omitempty"`
	// Baseline is the finding's state against a baseline run (new,
	// unchanged or fixed); "" when no baseline was given.
	Baseline string `json:"baseline,omitempty"`
	// Triage is the decision of the triage file that covers the finding
	// (docs/triage.md); nil when none does.
	Triage *Triage `json:"triage,omitempty"`
	// Detail is what the report says beyond the finding's place; nil when
	// nothing. Views count it (FlowSteps, Related, Fixable) and leave it
	// out; analysis.getFinding, recap's SARIF and the review show it.
	Detail *Detail `json:"-"`
}

// Security reports whether the finding is about security: its quality is
// [QualitySecurity], which is so when its tool says so (see [Assess]). A
// CWE id alone does not make it so. A finding not placed on the importance
// scale is about security when it has a security severity or the
// [CategorySecurity].
func (f *Finding) Security() bool {
	if f.Quality.Valid() {
		return f.Quality == QualitySecurity
	}
	return f.SecuritySeverity > 0 || f.Category == CategorySecurity
}
