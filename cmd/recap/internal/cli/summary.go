package cli

import (
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/spf13/cobra"
)

func newSummary(streams *IO) *cobra.Command {
	var flags commonFlags
	cmd := &cobra.Command{
		Use:   "summary [flags] INPUT...",
		Short: "Count findings by severity, tool, category, rule and file",
		Long: `summary reads every INPUT (a report file, a gzip file, a directory searched for
reports, or - for standard input) and prints the counts: total, files, by
severity, by tool, the top 10 categories, rules and files, and the status of each
input. It exits 2 when an input could not be read, after printing the rest.`,
		Example: `  recap summary build/reports/pmd.sarif build/reports/checkstyle.xml
  recap summary --format json build/reports/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSummary(streams, &flags, args)
		},
	}
	flags.register(cmd)
	return cmd
}

func runSummary(streams *IO, flags *commonFlags, args []string) error {
	r, inFormat, root, err := flags.resolve()
	if err != nil {
		return err
	}
	c := summarize.NewCollector()
	inputs, err := parsers.ReadAll(args, parsers.ReadOptions{Root: root, Format: inFormat, Stdin: streams.In},
		func(f reports.Finding) error { c.Add(f); return nil })
	if err != nil {
		return err
	}
	v := c.View(inputs)
	if err := r.Render(streams.Out, v); err != nil {
		return err
	}
	if v.Failed() {
		return errInputs
	}
	return nil
}
