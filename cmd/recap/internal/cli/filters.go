package cli

import (
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
	fl.StringVar(&f.sort, "sort", "", "order of the findings: importance (the default: impact, quality, severity, then place), severity (as the reports give it, then category and rule) or location (path and line)")
}

func (f *filterFlags) filter() (*reports.Filter, error) {
	flt := &reports.Filter{Categories: f.categories, Tools: f.tools, Rules: f.rules, Paths: f.paths, Grep: f.grep}
	for _, c := range f.categories {
		if !reports.KnownCategory(c) {
			return nil, usageError("--category: %v", reports.UnknownWord("category", c, reports.CategoryWords(), reports.Categories))
		}
	}
	if f.impact != "" {
		i, err := reports.ParseImpact(f.impact)
		if err != nil {
			return nil, usageError("--impact: %v", err)
		}
		flt.MinImpact = i
	}
	for _, name := range f.qualities {
		q, err := reports.ParseQuality(name)
		if err != nil {
			return nil, usageError("--quality: %v", err)
		}
		flt.Qualities = append(flt.Qualities, q)
	}
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

// order is the order --sort asks for.
func (f *filterFlags) order() (reports.Order, error) {
	o, err := reports.ParseOrder(f.sort)
	if err != nil {
		return 0, usageError("--sort: %v", err)
	}
	return o, nil
}
