package cli

import (
	"fmt"
	"strings"

	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/spf13/cobra"
)

// gateFlags are the baseline and the quality gates of the report commands.
type gateFlags struct {
	failOn   string
	maxNew   int
	baseline []string
	newOnly  bool
	level    reports.Severity
}

func (g *gateFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&g.failOn, "fail-on", "", "exit 1 when a finding at or above this severity (error, warning or note) remains after the filters")
	f.IntVar(&g.maxNew, "max-new", -1, "exit 1 when more than this many findings are new against --baseline")
	f.StringArrayVar(&g.baseline, "baseline", nil, "an earlier run's report (repeatable): mark each finding new, unchanged or fixed by fingerprint")
	f.BoolVar(&g.newOnly, "new-only", false, "keep only the findings that are new against --baseline")
}

func (g *gateFlags) validate() error {
	if g.failOn != "" {
		s, err := reports.ParseSeverity(g.failOn)
		if err != nil {
			return usageError("--fail-on: %v", err)
		}
		g.level = s
	}
	if len(g.baseline) == 0 && (g.newOnly || g.maxNew >= 0) {
		return usageError("--new-only and --max-new compare with a baseline: add --baseline REPORT")
	}
	return nil
}

// readBaseline reads the baseline reports through the filters; nil without
// --baseline. A baseline that cannot be read is an error: without it every
// finding would look new.
func (g *gateFlags) readBaseline(opts parsers.ReadOptions, flt *reports.Filter) (*reports.Baseline, error) {
	if len(g.baseline) == 0 {
		return nil, nil
	}
	opts.Stdin = nil
	b := reports.NewBaseline()
	opts.Keep = func(f *reports.Finding) bool { return flt.Match(*f) }
	inputs, err := parsers.ReadAll(g.baseline, opts, func(f reports.Finding) error {
		b.Add(f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var errs []string
	for _, in := range inputs {
		if in.Error != "" {
			errs = append(errs, in.Error)
		}
	}
	if len(errs) > 0 {
		return nil, usageError("--baseline: %s", strings.Join(errs, "; "))
	}
	if len(inputs) == 0 {
		return nil, usageError("--baseline %s: no report found", strings.Join(g.baseline, " "))
	}
	return b, nil
}

// check runs the gates on the view's counts (after filters and --new-only).
func (g *gateFlags) check(v *summarize.View) error {
	var failed []string
	if g.level.Valid() {
		n := 0
		for _, s := range reports.Severities {
			if s >= g.level {
				n += v.Summary.BySeverity.Of(s)
			}
		}
		if n > 0 {
			failed = append(failed, fmt.Sprintf("%s at or above %s (--fail-on %s)", render.Plural(n, "finding", "findings"), g.level, g.failOn))
		}
	}
	if b := v.Summary.Baseline; g.maxNew >= 0 && b != nil && b.New > g.maxNew {
		failed = append(failed, fmt.Sprintf("%d new against the baseline, more than --max-new %d", b.New, g.maxNew))
	}
	if len(failed) == 0 {
		return nil
	}
	return &exitError{code: exitGate, err: fmt.Errorf("quality gate failed: %s", strings.Join(failed, "; "))}
}
