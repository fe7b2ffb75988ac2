package reports

// A Finding is one problem reported by one tool at one place, in recap's
// normalized form (docs/formats.md, "The finding"). It is a flat value: 0 or "" means unknown.
type Finding struct {
	// ID is a short id, unique within one run over a set of inputs and stable
	// while the inputs do not change; it is what a caller uses to ask for details.
	ID string `json:"id"`
	// Fingerprint identifies the finding across runs: tool, rule, path and a
	// line-insensitive hash of the message, or the SARIF partialFingerprints.
	Fingerprint string `json:"fingerprint"`
	Tool        string `json:"tool"`
	ToolVersion string `json:"toolVersion,omitempty"`
	// Rule is the rule id as the tool writes it; RuleName its human name.
	Rule     string `json:"rule"`
	RuleName string `json:"ruleName,omitempty"`
	// Category is the normalized category (PMD's eight categories, Checkstyle's
	// check package, SpotBugs' category); [Uncategorized] when the tool gives none.
	Category string   `json:"category"`
	Severity Severity `json:"severity"`
	// Priority is the tool's own priority or rank, kept as is (0: none).
	Priority int    `json:"priority,omitempty"`
	Message  string `json:"message"`
	// Path is repository-relative with forward slashes, or the tool's path
	// as given (slashes normalized) when it cannot be placed in the repository.
	Path      string `json:"path"`
	Line      int    `json:"line"`
	EndLine   int    `json:"endLine"`
	Column    int    `json:"column"`
	EndColumn int    `json:"endColumn"`
	HelpURI   string `json:"helpUri,omitempty"`
	// Snippet is source text the report itself carries for the region (SARIF
	// region or contextRegion snippet); used when the source file is missing.
	Snippet string `json:"snippet,omitempty"`
	// Baseline is the finding's state against a baseline run (new,
	// unchanged or fixed); "" when no baseline was given.
	Baseline string `json:"baseline,omitempty"`
}

// Uncategorized is the category of a finding whose tool gives none.
const Uncategorized = "uncategorized"
