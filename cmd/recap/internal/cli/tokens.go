package cli

import (
	"strings"

	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/summarize/tokens"
	"github.com/spf13/cobra"
)

func newTokens(streams *IO) *cobra.Command {
	var tokenizer, format string
	var budget int
	cmd := &cobra.Command{
		Use:   "tokens [flags] FILE...",
		Short: "Count the tokens of files before loading them into a context window",
		Long: `tokens prints, for each FILE, its bytes, lines and tokens, then the total and,
when the total is over --budget, a recommendation. Files over 8 MiB are estimated
from an exact count of their first MiB (marked ~). A gzip file is counted
decompressed.`,
		Example: `  recap tokens build/reports/pmd.sarif src/main/java/App.java
  recap tokens --tokenizer cl100k_base --budget 25000 --format json notes.md`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := tokens.New(tokenizer)
			if err != nil {
				return usageError("--tokenizer: %v", err)
			}
			if budget < 0 {
				return usageError("--budget must not be negative")
			}
			out, err := render.Lookup(render.TokenCounts, format)
			if err != nil {
				return usageError("--format: %v", err)
			}
			r := tokens.CountFiles(c, args, budget)
			if err := out.Tokens(streams.Out, r); err != nil {
				return err
			}
			for _, f := range r.Files {
				if f.Error != "" {
					return errInputs
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&tokenizer, "tokenizer", tokens.Default, "how to count: "+strings.Join(tokens.Names(), ", ")+
		" (max: the larger of chars4 and the exact o200k_base count)")
	f.IntVar(&budget, "budget", 10000, "token budget the total is compared with")
	f.StringVar(&format, "format", render.Default(render.TokenCounts), "output format: "+render.Help(render.TokenCounts))
	return cmd
}
