package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/recap-dev/recap/diff"
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
}

// registerIndex adds the flag of the changed-line index.
func (d *diffSource) registerIndex(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&d.whitespace, "whitespace-changes", false,
		"count lines changed in whitespace only (re-indented, blank, trailing spaces) as changed, as git diff and reviewdog's -filter-mode=added do")
}

func (d *diffSource) register(cmd *cobra.Command, withFile bool) {
	f := cmd.Flags()
	f.StringVar(&d.base, "base", "", "diff from the merge base of this revision and --head, like git diff BASE...HEAD")
	f.StringVar(&d.head, "head", "", "the revision to diff to (default HEAD; needs --base)")
	if withFile {
		f.StringVar(&d.file, "diff", "", "read the changes from this unified diff file (- for standard input) instead of git")
	}
}

// load reads the diff: from the file, from base...head in the repository
// that holds root, or from the working tree against HEAD. Paths are as git
// gives them, relative to the repository's top level.
func (d *diffSource) load(ctx context.Context, streams *IO, root string) ([]diff.File, error) {
	files, _, err := d.loadFrom(ctx, streams, root, false)
	return files, err
}

// index loads the diff and indexes its changed lines by paths relative to
// root, which may be below the repository's top level.
func (d *diffSource) index(ctx context.Context, streams *IO, root string) ([]diff.File, *diff.Index, error) {
	files, top, err := d.loadFrom(ctx, streams, root, true)
	if err != nil {
		return nil, nil, err
	}
	if top != "" {
		if rel, err := filepath.Rel(top, root); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			files = diff.Under(files, filepath.ToSlash(rel))
		}
	}
	if d.whitespace {
		return files, diff.NewAddedIndex(files), nil
	}
	return files, diff.NewIndex(files), nil
}

// loadFrom reads the diff; changedLines asks a repository for the
// whitespace-blind changed lines of whole files too (see diff.Repo).
func (d *diffSource) loadFrom(ctx context.Context, streams *IO, root string, changedLines bool) ([]diff.File, string, error) {
	if d.head != "" && d.base == "" {
		return nil, "", usageError("--head needs --base")
	}
	if d.file != "" {
		if d.base != "" {
			return nil, "", usageError("give either a diff file or --base/--head, not both")
		}
		files, err := parseDiffFile(streams, d.file)
		return files, "", err
	}
	repo, err := diff.Open(root)
	if err != nil {
		return nil, "", usageError("%v", err)
	}
	repo.ChangedLines = changedLines
	var files []diff.File
	if d.base != "" {
		head := d.head
		if head == "" {
			head = "HEAD"
		}
		files, err = repo.Revisions(ctx, d.base, head)
	} else {
		files, err = repo.WorkingTree(ctx)
	}
	if err != nil {
		return nil, "", usageError("%v", err)
	}
	return files, repo.Root, nil
}

func parseDiffFile(streams *IO, name string) ([]diff.File, error) {
	if name == "-" {
		files, err := diff.Parse("standard input", streams.In)
		if err != nil {
			return nil, &exitError{code: exitUsage, err: err}
		}
		return files, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, &exitError{code: exitUsage, err: err}
	}
	defer f.Close()
	files, err := diff.Parse(name, f)
	if err != nil {
		return nil, &exitError{code: exitUsage, err: err}
	}
	return files, nil
}

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
repository is read with go-git: no git binary is needed.`,
		Example: `  recap diff --base origin/main
  recap diff --base v1.2.0 --head v1.3.0 --path 'src/**/*.java' --format markdown
  git diff main... | recap diff -
  recap diff --format json --max-tokens 4000 changes.patch`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := render.LookupDiff(format)
			if err != nil {
				return usageError("--format: %v", err)
			}
			if maxHunks < 1 || maxHunks > summarize.MaxHunks {
				return usageError("--max-hunks must be between 1 and %d", summarize.MaxHunks)
			}
			if maxTokens < budget.MinMaxTokens || maxTokens > budget.MaxMaxTokens {
				return usageError("--max-tokens must be between %d and %d", budget.MinMaxTokens, budget.MaxMaxTokens)
			}
			counter, err := tokens.New(tokenizer)
			if err != nil {
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
			files, err := src.load(cmd.Context(), streams, root)
			if err != nil {
				return err
			}
			v := summarize.NewDiffView(files, summarize.DiffOptions{MaxHunks: maxHunks, Paths: globs})
			if format == "json" || cmd.Flags().Changed("max-tokens") {
				summarize.FitDiff(v, counter, maxTokens, r)
			}
			return r.Render(streams.Out, v)
		},
	}
	src.register(cmd, false)
	f := cmd.Flags()
	f.StringVar(&repo, "repo", "", "the git repository (default: the one that holds the current directory)")
	f.StringVar(&format, "format", "text", "output format: text, markdown or json")
	f.IntVar(&maxHunks, "max-hunks", summarize.MaxHunks, "hunks shown, at most 20; the rest are counted per file")
	f.StringArrayVar(&paths, "path", nil, "keep files whose path matches this glob; ** spans directories (repeatable)")
	f.IntVar(&maxTokens, "max-tokens", budget.DefaultMaxTokens, "token budget of the output (256 to 25000); json output always has one, text and markdown when this flag is given")
	f.StringVar(&tokenizer, "tokenizer", tokens.Default, "how the budget counts: "+strings.Join(tokens.Names(), ", "))
	return cmd
}
