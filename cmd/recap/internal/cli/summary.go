package cli

import (
	"github.com/spf13/cobra"
)

func newSummary(streams *IO) *cobra.Command {
	var opts reportOptions
	cmd := &cobra.Command{
		Use:   "summary [flags] INPUT...",
		Short: "Count findings by severity, tool, category, rule and file",
		Long: `summary reads every INPUT (a report file, a gzip file, a directory searched for
reports, or - for standard input) and prints the counts: total, files, by
severity, by tool, the top 10 categories, rules and files, and the status of each
input. Filters narrow what is counted. It exits 2 when an input could not be
read, after printing the rest.`,
		Example: `  recap summary build/reports/pmd.sarif build/reports/checkstyle.xml
  recap summary --format json --severity warning build/reports/
  recap summary --changed-only --base origin/main build/reports/`,
		Args: needInputs("the reports to read (files, directories to search, or - for standard input)", "recap summary build/reports/"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.flagsChanged(cmd); err != nil {
				return err
			}
			return runReport(cmd.Context(), streams, &opts, args, false)
		},
	}
	opts.common.register(cmd)
	opts.filters.register(cmd)
	opts.registerBudget(cmd)
	opts.registerChanged(cmd)
	opts.gate.register(cmd)
	opts.registerTriaged(cmd)
	return cmd
}
