package cli

import (
	"context"
	"strings"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/tokens"
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
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.budgeted = cmd.Flags().Changed("max-tokens")
			return runReport(cmd.Context(), streams, &opts, args, false)
		},
	}
	opts.common.register(cmd)
	opts.filters.register(cmd)
	opts.registerBudget(cmd)
	opts.registerChanged(cmd)
	return cmd
}

// reportOptions are the flags of the commands that read reports.
type reportOptions struct {
	common        commonFlags
	filters       filterFlags
	offset, limit int
	noContext     bool
	rev           string
	maxTokens     int
	tokenizer     string
	budgeted      bool // --max-tokens was given
	changedOnly   bool
	changes       diffSource
}

func (o *reportOptions) registerChanged(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&o.changedOnly, "changed-only", false,
		"keep the findings whose lines touch a changed line (whitespace-only changes aside): of --base...--head, of --diff FILE, or else of the working tree against HEAD")
	o.changes.register(cmd, true)
}

func (o *reportOptions) registerBudget(cmd *cobra.Command) {
	f := cmd.Flags()
	f.IntVar(&o.maxTokens, "max-tokens", summarize.DefaultMaxTokens, "token budget of the output (256 to 25000); json output always has one, text and markdown when this flag is given")
	f.StringVar(&o.tokenizer, "tokenizer", tokens.Default, "how the budget counts: "+strings.Join(tokens.Names(), ", "))
}

// runReport reads the inputs through the filter into a collector and
// renders the view; with page set it keeps a page of findings with context.
func runReport(ctx context.Context, streams *IO, opts *reportOptions, args []string, page bool) error {
	r, inFormat, root, err := opts.common.resolve()
	if err != nil {
		return err
	}
	flt, err := opts.filters.filter()
	if err != nil {
		return err
	}
	if opts.maxTokens < summarize.MinMaxTokens || opts.maxTokens > summarize.MaxMaxTokens {
		return usageError("--max-tokens must be between %d and %d", summarize.MinMaxTokens, summarize.MaxMaxTokens)
	}
	counter, err := tokens.New(opts.tokenizer)
	if err != nil {
		return usageError("--tokenizer: %v", err)
	}
	// The context's source, checked before the inputs are read (they may be large).
	var src summarize.Source = &summarize.Dir{Root: root}
	if opts.rev != "" {
		if src, err = revSource(root, opts.rev); err != nil {
			return err
		}
	}
	keep := flt.Match
	if c := opts.changes; !opts.changedOnly && (c.base != "" || c.head != "" || c.file != "") {
		return usageError("--base, --head and --diff choose the changes for --changed-only: add it")
	} else if opts.changedOnly {
		idx, err := c.index(ctx, streams, root)
		if err != nil {
			return err
		}
		keep = func(f reports.Finding) bool { return idx.Touches(f.Path, f.Line, f.EndLine) && flt.Match(f) }
	}
	c := summarize.NewCollector()
	if page {
		if opts.limit < 0 || opts.limit > summarize.MaxLimit {
			return usageError("--limit must be between 1 and %d", summarize.MaxLimit)
		}
		if opts.offset < 0 {
			return usageError("--offset must not be negative")
		}
		c.KeepPage(opts.offset, opts.limit)
	}
	inputs, err := parsers.ReadAll(args, parsers.ReadOptions{Root: root, Format: inFormat, Stdin: streams.In},
		func(f reports.Finding) error {
			if keep(f) {
				c.Add(f)
			}
			return nil
		})
	if err != nil {
		return err
	}
	v := c.View(inputs)
	if page && !opts.noContext {
		for i := range v.Findings {
			summarize.AddContext(&v.Findings[i], src)
		}
	}
	if opts.common.format == "json" || opts.budgeted {
		summarize.Fit(v, counter, opts.maxTokens, r)
	}
	if err := r.Render(streams.Out, v); err != nil {
		return err
	}
	if v.Failed() {
		return errInputs
	}
	return nil
}

// revSource opens the repository at root and serves revision rev's files.
func revSource(root, rev string) (summarize.Source, error) {
	repo, err := diff.Open(root)
	if err != nil {
		return nil, usageError("--rev: %v", err)
	}
	src, err := repo.Source(rev)
	if err != nil {
		return nil, usageError("--rev: %v", err)
	}
	return src, nil
}
