package cli

import (
	"strings"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/summarize/tokens"
	"github.com/spf13/cobra"
)

// diffSource says where a diff comes from: two revisions, a file of
// unified diff text, or (neither) the working tree against HEAD.
type diffSource struct {
	base, head, file string
	// whitespace counts whitespace-only changes as changed lines.
	whitespace bool
	// mode says which lines count.
	mode string
}

// registerIndex adds the flags of the changed-line index.
func (d *diffSource) registerIndex(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&d.whitespace, "whitespace-changes", false,
		"count lines changed in whitespace only (re-indented, blank, trailing spaces) as changed, as git diff and reviewdog's -filter-mode=added do")
	var modes []string
	for _, m := range pipeline.FilterModes() {
		modes = append(modes, string(m))
	}
	cmd.Flags().StringVar(&d.mode, "filter-mode", string(pipeline.Added),
		"which lines a finding must touch: "+strings.Join(modes, ", ")+
			" (added: added or modified lines; diff_context: any line of the diff's hunks; file: anywhere in a changed file; nofilter: all findings)")
}

func (d *diffSource) register(cmd *cobra.Command, withFile bool) {
	f := cmd.Flags()
	f.StringVar(&d.base, "base", "", "diff from the merge base of this revision and --head, like git diff BASE...HEAD")
	f.StringVar(&d.head, "head", "", "the revision to diff to (default HEAD; needs --base)")
	if withFile {
		f.StringVar(&d.file, "diff", "", "read the changes from this unified diff file (- for standard input) instead of git")
	}
}

// changes maps the flags onto the query's changes: nil without
// --changed-only (when no flag of the changes is given either).
func (d *diffSource) changes(changedOnly bool, root string, streams *IO) (*pipeline.Changes, error) {
	if !changedOnly {
		if d.base != "" || d.head != "" || d.file != "" {
			return nil, usageError("--base, --head and --diff choose the changes for --changed-only: add it")
		}
		if d.mode != string(pipeline.Added) {
			return nil, usageError("--filter-mode chooses the lines for --changed-only: add it")
		}
		return nil, nil
	}
	c := d.spec(root, streams)
	if err := d.check(); err != nil {
		return nil, err
	}
	mode, err := pipeline.ParseFilterMode(d.mode)
	if err != nil {
		return nil, usageError("--filter-mode: %v", err)
	}
	c.Mode = mode
	return c, nil
}

// spec is the changes the flags name.
func (d *diffSource) spec(root string, streams *IO) *pipeline.Changes {
	return &pipeline.Changes{Root: root, Base: d.base, Head: d.head, DiffFile: d.file, Stdin: streams.In, Whitespace: d.whitespace}
}

// check refuses contradictory flags, in their names.
func (d *diffSource) check() error {
	switch {
	case d.head != "" && d.base == "":
		return usageError("--head needs --base")
	case d.file != "" && d.base != "":
		return usageError("give either a diff file or --base/--head, not both")
	}
	return nil
}

// openRepo opens the repository that holds root.
func openRepo(root string) (*diff.Repo, error) { return diff.Open(root) }

func newDiff(streams *IO) *cobra.Command {
	var (
		src       diffSource
		repo      string
		format    string
		maxHunks  int
		paths     []string
		maxTokens int
		tokenizer string
	)
	cmd := &cobra.Command{
		Use:   "diff [--base REV [--head REV] | FILE | -]",
		Short: "A whitespace-free view of a diff: counts, a line per file, then at most 20 hunks",
		Long: `diff prints what changed without the noise: hunks whose changes are whitespace
only (indentation, spaces, tabs, trailing blanks, CRLF and LF, blank lines) are
left out and counted; binary files are listed by name, renames as old → new.
It shows the counts, a line per file, then at most 20 hunks (--max-hunks).

The diff comes from --base and --head (the changes on HEAD since it left BASE,
as git diff BASE...HEAD shows them), from a unified diff FILE (- for standard
input; git's format or a plain diff -u, gzip or not), or, given neither, from the
working tree and the index against HEAD, as git diff HEAD shows them. The
repository is read with go-git: no git binary is needed, but in a partial clone
(git clone --filter=blob:none) git fetches the contents it lacks.`,
		Example: `  recap diff --base origin/main
  recap diff --base v1.2.0 --head v1.3.0 --path 'src/**/*.java' --format markdown
  git diff main... | recap diff -
  recap diff --format json --max-tokens 4000 changes.patch`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := emptyFlags(cmd); err != nil {
				return err
			}
			out, err := render.Lookup(render.Diffs, format)
			if err != nil {
				return usageError("--format: %v", err)
			}
			if maxHunks < 1 || maxHunks > summarize.MaxHunks {
				return usageError("--max-hunks must be between 1 and %d", summarize.MaxHunks)
			}
			if maxTokens < budget.MinMaxTokens || maxTokens > budget.MaxMaxTokens {
				return usageError("--max-tokens must be between %d and %d", budget.MinMaxTokens, budget.MaxMaxTokens)
			}
			// The vocabularies (tens of MB) are loaded only when the
			// view is fitted to the budget.
			if err := tokens.Check(tokenizer); err != nil {
				return usageError("--tokenizer: %v", err)
			}
			globs, err := reports.CompileGlobs(paths)
			if err != nil {
				return usageError("--path: %v", err)
			}
			if len(args) == 1 {
				if src.base != "" || src.head != "" {
					return usageError("give either a diff file or --base/--head, not both")
				}
				src.file = args[0]
			}
			root := ""
			if src.file == "" {
				if root, err = repoRoot(repo); err != nil {
					return err
				}
			}
			if err := src.check(); err != nil {
				return err
			}
			// The view is built a file at a time: a diff read as text is
			// never held whole.
			b := summarize.NewDiffViewBuilder(summarize.DiffOptions{MaxHunks: maxHunks, Paths: globs})
			if _, err := src.spec(root, streams).Each(cmd.Context(), func(f *diff.File) error {
				b.Add(f)
				return nil
			}); err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			v := b.View()
			if out.Fitted || cmd.Flags().Changed("max-tokens") {
				counter, err := tokens.New(tokenizer)
				if err != nil {
					return usageError("--tokenizer: %v", err)
				}
				summarize.FitDiff(v, counter, maxTokens, out.Diff)
			}
			return out.Diff.Render(streams.Out, v)
		},
	}
	src.register(cmd, false)
	f := cmd.Flags()
	f.StringVar(&repo, "repo", "", "the git repository (default: the one that holds the current directory)")
	f.StringVar(&format, "format", render.Default(render.Diffs), "output format: "+render.Help(render.Diffs))
	f.IntVar(&maxHunks, "max-hunks", summarize.MaxHunks, "hunks shown, at most 20; the rest are counted per file")
	f.StringArrayVar(&paths, "path", nil, "keep files whose path matches this glob; ** spans directories (repeatable)")
	f.IntVar(&maxTokens, "max-tokens", budget.DefaultMaxTokens, "token budget of the output (256 to 25000); json output always has one, text and markdown when this flag is given")
	f.StringVar(&tokenizer, "tokenizer", tokens.Default, "how the budget counts: "+strings.Join(tokens.Names(), ", "))
	return cmd
}
