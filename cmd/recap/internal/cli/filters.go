package cli

import (
	"github.com/recap-dev/recap/reports"
	"github.com/spf13/cobra"
)

// filterFlags are the finding filters shared by summary and findings.
type filterFlags struct {
	categories, tools, rules, paths, cwe []string
	severity, grep                       string
	security                             bool
}

func (f *filterFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringArrayVar(&f.categories, "category", nil, "keep findings in this category, named on recap's scale (\"Error Prone\") or in the tool's words (BAD_PRACTICE) (repeatable)")
	fl.StringVar(&f.severity, "severity", "", "keep findings at or above this severity: error, warning or note")
	fl.StringArrayVar(&f.tools, "tool", nil, "keep findings of this tool (repeatable)")
	fl.StringArrayVar(&f.rules, "rule", nil, "keep findings of this rule, by id or name (repeatable)")
	fl.StringArrayVar(&f.paths, "path", nil, "keep findings whose path matches this glob; ** spans directories (repeatable)")
	fl.StringVar(&f.grep, "grep", "", "keep findings whose message contains this text")
	fl.StringArrayVar(&f.cwe, "cwe", nil, "keep findings of this CWE id: 89 or CWE-89 (repeatable)")
	fl.BoolVar(&f.security, "security", false, "keep only findings about security: with a security severity or a CWE id, or in the Security category")
}

func (f *filterFlags) filter() (*reports.Filter, error) {
	flt := &reports.Filter{Categories: f.categories, Tools: f.tools, Rules: f.rules, Paths: f.paths, Grep: f.grep}
	if f.severity != "" {
		s, err := reports.ParseSeverity(f.severity)
		if err != nil {
			return nil, usageError("--severity: %v", err)
		}
		flt.MinSeverity = s
	}
	for _, c := range f.cwe {
		id, err := reports.ParseCWE(c)
		if err != nil {
			return nil, usageError("--cwe: %v", err)
		}
		flt.CWE = append(flt.CWE, id)
	}
	flt.Security = f.security
	if err := flt.Compile(); err != nil {
		return nil, usageError("--path: %v", err)
	}
	return flt, nil
}
