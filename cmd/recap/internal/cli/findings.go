package cli

import (
	"github.com/recap-dev/recap/summarize"
	"github.com/spf13/cobra"
)

func newFindings(streams *IO) *cobra.Command {
	var opts reportOptions
	cmd := &cobra.Command{
		Use:   "findings [flags] INPUT...",
		Short: "The summary, then a page of findings with 3 lines of source context",
		Long: `findings prints the summary of the inputs, then one page of the findings that
pass the filters, the most important first (impact, quality, security severity,
severity, then path and line; --sort; among the first 50, within each impact, each
rule's most important finding before any rule's second), each problem once (the findings of other tools that report it
are named; --no-group lists them all), each with the line before, its line and the line after, read from the repository's
working tree (--repo), or from a git revision with --rev. Page with --offset and
--limit (at most 200). With --changed-only, only the findings on changed lines
count: lines added or modified on --head since it left --base, in a --diff file,
or in the working tree against HEAD.`,
		Example: `  recap findings --severity error build/reports/
  recap findings --category "Error Prone" --path 'src/**/*.java' --limit 20 pmd.sarif
  recap findings --format json --offset 50 pmd.sarif
  recap findings --rev origin/main build/reports/pmd.sarif
  recap findings --changed-only --base origin/main build/reports/
  recap findings --changed-only --diff pr.diff build/reports/pmd.sarif`,
		Args: needInputs("the reports to read (files, directories to search, or - for standard input)", "recap findings build/reports/"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.flagsChanged(cmd); err != nil {
				return err
			}
			return runReport(cmd.Context(), streams, &opts, args, true)
		},
	}
	opts.common.register(cmd)
	opts.filters.register(cmd)
	opts.registerBudget(cmd)
	opts.registerChanged(cmd)
	opts.gate.register(cmd)
	opts.registerTriaged(cmd)
	f := cmd.Flags()
	f.IntVar(&opts.offset, "offset", 0, "skip this many findings of the page's order, a problem counting once (page start; with --no-group, every finding)")
	f.IntVar(&opts.limit, "limit", summarize.DefaultLimit, "findings in the page, at most 200, a problem counting once (with --no-group, every finding)")
	f.BoolVar(&opts.noContext, "no-context", false, "leave out the source lines around each finding")
	f.StringVar(&opts.rev, "rev", "", "read the context from this git revision (branch, tag, commit, HEAD~N) instead of the working tree")
	return cmd
}
