package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/spf13/cobra"
)

// gateFlags are the baseline and the quality gates of the report commands.
type gateFlags struct {
	failOn   string
	maxNew   int
	baseline []string
	newOnly  bool
}

func (g *gateFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&g.failOn, "fail-on", "", "exit 1 when a problem at or above this impact (blocker, high, medium, low, info) or severity (error, warning, note) remains after the filters (the findings of one problem count once, unless --no-group)")
	f.IntVar(&g.maxNew, "max-new", -1, "exit 1 when more than this many problems are new against --baseline (a problem is new when none of its findings is in the baseline; findings with --no-group)")
	f.StringArrayVar(&g.baseline, "baseline", nil, "an earlier run's report (repeatable): mark each finding new, unchanged or fixed by fingerprint")
	f.BoolVar(&g.newOnly, "new-only", false, "keep only the findings that are new against --baseline")
}

// check checks the flags and returns the gate.
func (g *gateFlags) check() (pipeline.Gate, error) {
	gate := pipeline.Gate{MaxNew: g.maxNew}
	if g.failOn != "" {
		if i, err := reports.ParseImpact(g.failOn); err == nil {
			gate.FailOnImpact = i
		} else if s, err := reports.ParseSeverity(g.failOn); err == nil {
			gate.FailOn = s
		} else {
			words := []string{"blocker", "high", "medium", "low", "info", "error", "warning", "note"}
			return gate, usageError("--fail-on: %v", reports.UnknownWord("impact or severity", g.failOn, words, words))
		}
	}
	if len(g.baseline) == 0 && (g.newOnly || g.maxNew >= 0) {
		return gate, usageError("--new-only and --max-new compare with a baseline: add --baseline REPORT")
	}
	return gate, nil
}

// gateError gives a failed gate its exit code and names the flags.
func gateError(err error, o *reportOptions) error {
	var ge *pipeline.GateError
	if !errors.As(err, &ge) {
		return err
	}
	var failed []string
	if ge.AtOrAbove > 0 {
		one, many := "finding", "findings"
		if ge.Problems {
			one, many = "problem", "problems"
		}
		failed = append(failed, fmt.Sprintf("%s at or above %s (--fail-on %s)", english.Plural(ge.AtOrAbove, one, many), ge.FailOn, o.gate.failOn))
	}
	if ge.New > 0 {
		failed = append(failed, fmt.Sprintf("%d new against the baseline, more than --max-new %d", ge.New, ge.MaxNew))
	}
	return &exitError{code: exitGate, err: fmt.Errorf("quality gate failed: %s", strings.Join(failed, "; "))}
}

// queryError gives an error of the query its exit code: every one is about
// an input (a baseline, the changes) or the command line.
func queryError(err error) error {
	var be *pipeline.BaselineError
	if errors.As(err, &be) {
		return usageError("--baseline: %s", be.Reason)
	}
	return &exitError{code: exitUsage, err: err}
}
