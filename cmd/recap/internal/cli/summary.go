package cli

import (
	"context"
	"slices"
	"strings"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/render"
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
			opts.flagsChanged(cmd)
			return runReport(cmd.Context(), streams, &opts, args, false)
		},
	}
	opts.common.register(cmd)
	opts.filters.register(cmd)
	opts.registerBudget(cmd)
	opts.registerChanged(cmd)
	opts.gate.register(cmd)
	return cmd
}

// reportOptions are the flags of the commands that read reports.
type reportOptions struct {
	common        commonFlags
	filters       filterFlags
	offset, limit int
	paged         bool // --offset or --limit was given
	noContext     bool
	rev           string
	maxTokens     int
	tokenizer     string
	budgeted      bool // --max-tokens was given
	changedOnly   bool
	changes       diffSource
	gate          gateFlags
}

func (o *reportOptions) registerChanged(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&o.changedOnly, "changed-only", false,
		"keep the findings whose lines touch a changed line (whitespace-only changes aside): of --base...--head, of --diff FILE, or else of the working tree against HEAD")
	o.changes.register(cmd, true)
	o.changes.registerIndex(cmd)
}

func (o *reportOptions) registerBudget(cmd *cobra.Command) {
	f := cmd.Flags()
	f.IntVar(&o.maxTokens, "max-tokens", budget.DefaultMaxTokens, "token budget of the output (256 to 25000); json output always has one, text and markdown when this flag is given")
	f.StringVar(&o.tokenizer, "tokenizer", tokens.Default, "how the budget counts: "+strings.Join(tokens.Names(), ", "))
}

// flagsChanged notes which defaults the user overrode.
func (o *reportOptions) flagsChanged(cmd *cobra.Command) {
	o.budgeted = cmd.Flags().Changed("max-tokens")
	o.paged = cmd.Flags().Changed("offset") || cmd.Flags().Changed("limit")
}

// collected is what reading the inputs gave: the view, before context and
// budget, and what rendering and the gates need.
type collected struct {
	view     *summarize.View
	renderer render.Renderer
	root     string
	src      summarize.Source
	counter  budget.Counter
	baseline *summarize.BaselineCounts
	// With --changed-only: the diff, and how many findings passed the
	// filters but not the changed lines.
	files   []diff.File
	index   *diff.Index
	outside int
	// sarif holds every finding as SARIF when the format is sarif and no
	// page was asked for.
	sarif *render.SARIFStream
}

// runReport reads the inputs through the filter into a collector and
// renders the view; with page set it keeps a page of findings with context.
// The gates run on what was rendered.
func runReport(ctx context.Context, streams *IO, opts *reportOptions, args []string, page bool) error {
	col, err := collect(ctx, streams, opts, args, page)
	if err != nil {
		return err
	}
	defer col.close()
	v := col.view
	if page && !opts.noContext && wantsContext(opts.common.format) {
		for i := range v.Findings {
			summarize.AddContext(&v.Findings[i], col.src)
		}
	}
	if opts.common.format == "json" || opts.budgeted {
		summarize.Fit(v, col.counter, opts.maxTokens, col.renderer)
	}
	if col.sarif != nil {
		err = col.sarif.Write(streams.Out, v.Inputs)
	} else {
		err = col.renderer.Render(streams.Out, v)
	}
	if err != nil {
		return err
	}
	if v.Failed() {
		return errInputs
	}
	return opts.gate.check(v)
}

// close removes what the collection left on disk.
func (col *collected) close() {
	if col.sarif != nil {
		col.sarif.Close()
	}
}

// wantsContext: annotations and SARIF results carry no source lines.
func wantsContext(format string) bool { return format != "github" && format != "sarif" }

// collect checks the flags, reads the baseline and the inputs, and returns
// the view. What it keeps of the findings depends on the format: a page, the
// first of each severity (github), or all of them (sarif).
func collect(ctx context.Context, streams *IO, opts *reportOptions, args []string, page bool) (*collected, error) {
	r, inFormat, root, err := opts.common.resolve()
	if err != nil {
		return nil, err
	}
	flt, err := opts.filters.filter()
	if err != nil {
		return nil, err
	}
	if opts.maxTokens < budget.MinMaxTokens || opts.maxTokens > budget.MaxMaxTokens {
		return nil, usageError("--max-tokens must be between %d and %d", budget.MinMaxTokens, budget.MaxMaxTokens)
	}
	format := opts.common.format
	if opts.budgeted && !wantsContext(format) {
		return nil, usageError("--max-tokens does not apply to --format %s", format)
	}
	if err := opts.gate.validate(); err != nil {
		return nil, err
	}
	if !slices.Contains(tokens.Names(), opts.tokenizer) {
		_, err := tokens.New(opts.tokenizer)
		return nil, usageError("--tokenizer: %v", err)
	}
	col := &collected{renderer: r, root: root, src: &summarize.Dir{Root: root}}
	// The context's source, checked before the inputs are read (they may be large).
	if opts.rev != "" {
		if col.src, err = revSource(root, opts.rev); err != nil {
			return nil, err
		}
	}
	var idx *diff.Index
	if c := opts.changes; !opts.changedOnly && (c.base != "" || c.head != "" || c.file != "") {
		return nil, usageError("--base, --head and --diff choose the changes for --changed-only: add it")
	} else if opts.changedOnly {
		if col.files, idx, err = c.index(ctx, streams, root); err != nil {
			return nil, err
		}
	}
	col.index = idx
	readOpts := parsers.ReadOptions{Root: root, Format: inFormat, Stdin: streams.In, Wrap: progress(streams.ErrOut)}
	base, err := opts.gate.readBaseline(readOpts, flt)
	if err != nil {
		return nil, err
	}

	c := summarize.NewCollector()
	switch {
	case format == "github":
		c.KeepTop(render.AnnotationsPerLevel, render.AnnotationsPerLevel, render.AnnotationsPerLevel)
	case format == "sarif" && !(page && opts.paged):
		col.sarif = render.NewSARIFStream()
	case page:
		if opts.limit < 0 || opts.limit > summarize.MaxLimit {
			return nil, usageError("--limit must be between 1 and %d", summarize.MaxLimit)
		}
		if opts.offset < 0 {
			return nil, usageError("--offset must not be negative")
		}
		c.KeepPage(opts.offset, opts.limit)
	}
	if base != nil {
		col.baseline = &summarize.BaselineCounts{}
	}
	// The filters run before a finding gets its id and fingerprint: on a
	// large report most findings are left out, and the hash is the cost.
	readOpts.Keep = func(f *reports.Finding) bool {
		if !flt.Match(*f) {
			return false
		}
		if idx != nil && !idx.Touches(f.Path, f.Line, f.EndLine) {
			col.outside++
			return false
		}
		return true
	}
	inputs, err := parsers.ReadAll(args, readOpts, func(f reports.Finding) error {
		if base != nil {
			base.Mark(&f)
			col.baseline.Add(f.Baseline)
			if opts.gate.newOnly && f.Baseline != reports.BaselineNew {
				return nil
			}
		}
		c.Add(f)
		if col.sarif != nil {
			return col.sarif.Add(&f)
		}
		return nil
	})
	if err != nil {
		col.close()
		return nil, err
	}
	col.view = c.View(inputs)
	// The vocabularies cost 20 MB: loaded only when a budget is applied, and
	// once the reading's garbage can make room for them.
	if format == "json" || opts.budgeted {
		if col.counter, err = tokens.New(opts.tokenizer); err != nil {
			col.close()
			return nil, usageError("--tokenizer: %v", err)
		}
	}
	if base != nil {
		for _, f := range base.Fixed() {
			// On changed lines only, a fixed finding is one of a changed file.
			if idx == nil || len(idx.Lines(f.Path)) > 0 {
				col.baseline.Fixed++
			}
		}
		col.view.Summary.Baseline = col.baseline
	}
	return col, nil
}

// revSource opens the repository at root and serves revision rev's files.
func revSource(root, rev string) (summarize.Source, error) {
	repo, err := diff.Open(root)
	if err != nil {
		return nil, usageError("--rev: %v", err)
	}
	read, err := repo.ReadAt(rev)
	if err != nil {
		return nil, usageError("--rev: %v", err)
	}
	return &summarize.FileSource{Read: read}, nil
}
