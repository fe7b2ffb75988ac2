package cli

import (
	"errors"
	"path/filepath"

	"github.com/recap-dev/recap/reports"
	"github.com/spf13/cobra"
)

// filterFlags are the finding filters shared by summary and findings.
type filterFlags struct {
	categories, tools, rules, paths, cwe, qualities []string
	severity, impact, grep, sort                    string
	security                                        bool
}

func (f *filterFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringArrayVar(&f.categories, "category", nil, "keep findings in this category, named on recap's scale (\"Error Prone\") or in the tool's words (BAD_PRACTICE) (repeatable)")
	fl.StringVar(&f.impact, "impact", "", "keep findings at or above this impact: blocker, high, medium, low or info")
	fl.StringArrayVar(&f.qualities, "quality", nil, "keep findings about this quality: security, reliability or maintainability (repeatable)")
	fl.StringVar(&f.severity, "severity", "", "keep findings at or above this severity, as the reports give it: error, warning or note")
	fl.StringArrayVar(&f.tools, "tool", nil, "keep findings of this tool (repeatable)")
	fl.StringArrayVar(&f.rules, "rule", nil, "keep findings of this rule, by id or name (repeatable)")
	fl.StringArrayVar(&f.paths, "path", nil, "keep findings whose path matches this glob; ** spans directories (repeatable)")
	fl.StringVar(&f.grep, "grep", "", "keep findings whose message contains this text")
	fl.StringArrayVar(&f.cwe, "cwe", nil, "keep findings of this CWE id: 89 or CWE-89 (repeatable)")
	fl.BoolVar(&f.security, "security", false, "keep only findings about security, as their tools say (the quality security)")
	fl.StringVar(&f.sort, "sort", "", "order of the findings: importance (the default: impact, quality, security severity, severity, then place), severity (as the reports give it, then category and rule) or location (path and line)")
}

// filter is the filter the flags ask for; a --path inside root (the
// repository, absolute) is read relative to it.
func (f *filterFlags) filter(root string) (*reports.Filter, error) {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	flt, err := reports.ParseFilter(reports.FilterWords{Categories: f.categories, Tools: f.tools, Rules: f.rules, Paths: f.paths,
		CWE: f.cwe, Qualities: f.qualities, Severity: f.severity, Impact: f.impact, Grep: f.grep, Security: f.security, Root: root})
	var fe *reports.FilterError
	if errors.As(err, &fe) {
		return nil, usageError("--%s: %v", filterFlagOf[fe.Field], fe.Err)
	}
	return flt, err
}

// filterFlagOf is the flag of each field of reports.FilterWords.
var filterFlagOf = map[string]string{"categories": "category", "impact": "impact", "qualities": "quality",
	"severity": "severity", "cwe": "cwe", "paths": "path"}

// order is the order --sort asks for.
func (f *filterFlags) order() (reports.Order, error) {
	o, err := reports.ParseOrder(f.sort)
	if err != nil {
		return 0, usageError("--sort: %v", err)
	}
	return o, nil
}
