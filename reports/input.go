package reports

// An Input is what recap learned about one input file: its detected format,
// the producing tool, how many findings it gave, and what went wrong.
// A parser that fails still returns the Input it filled so far.
type Input struct {
	// Path names the input as the user gave it ("-" for standard input).
	Path        string `json:"path"`
	Format      string `json:"format"`
	Tool        string `json:"tool"`
	ToolVersion string `json:"toolVersion,omitempty"`
	// Findings counts the findings emitted, after suppressed ones are left out.
	Findings int `json:"findings"`
	// Suppressed counts results the report marks as suppressed (SARIF
	// suppressions, PMD suppressedviolation); they are not findings.
	Suppressed int `json:"suppressed,omitempty"`
	// Kinds counts the results whose kind is not fail (SARIF §3.27.9:
	// pass, review, open, informational, notApplicable), by kind; they
	// are not findings.
	Kinds map[string]int `json:"kinds,omitempty"`
	// Error is the reason the input could not be read completely, "" if none.
	Error string `json:"error"`
	// Warnings are one-line notes: failed tool executions, paths that could not
	// be placed in the repository, processing errors the tool reported.
	Warnings []string `json:"warnings,omitempty"`
	// Rules is what the report says of its rules, once per rule (nil:
	// nothing); views look a finding's rule up there ([RuleOf]).
	Rules *Rules `json:"-"`
}

// MaxWarnings bounds the warnings kept on one input, so that a report with a
// warning per result cannot flood a view; the last one says how many were cut.
const MaxWarnings = 20

// Warn adds a one-line warning, keeping at most [MaxWarnings] and each
// distinct message once.
func (in *Input) Warn(msg string) {
	for _, w := range in.Warnings {
		if w == msg {
			return
		}
	}
	switch {
	case len(in.Warnings) < MaxWarnings-1:
		in.Warnings = append(in.Warnings, msg)
	case len(in.Warnings) == MaxWarnings-1:
		in.Warnings = append(in.Warnings, "further warnings left out")
	}
}
