package cli

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/recap-dev/recap/config"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/triage"
)

func newTriageMerge(streams *IO) *cobra.Command {
	var resolve bool
	cmd := &cobra.Command{
		Use:   "merge BASE OURS THEIRS | merge --resolve [FILE]",
		Short: "Merge the triage files of two branches entry by entry: git's merge driver, or a file git left in conflict",
		Long: `merge BASE OURS THEIRS is git's merge driver for the triage file: it merges
the two branches' versions, OURS and THEIRS, against their merge base BASE,
entry by entry, and writes the result to OURS, sorted and with its comments,
as recap writes the file. An entry added or changed on one side is taken from
it; one removed on one side (pruned) and unchanged on the other is removed;
one changed on one side and removed on the other is kept. An entry both sides
decided otherwise (another state, reason, --until or --link) is a conflict:
OURS holds both versions between git's conflict markers, and merge exits 1.

merge --resolve does the same to a file git already left with conflict
markers (FILE, by default the repository's triage file): from the three
versions git's index holds while the merge is under way, whatever the
conflict style; outside a merge, from the two sides of its markers against
the merge base they hold (diff3), and it refuses markers without it. See
docs/triage.md, "Merging branches".`,
		Example: `  git config merge.recap-triage.driver "recap triage merge %O %A %B"
  echo '.recap/triage.yml merge=recap-triage' >> .gitattributes
  recap triage merge --resolve`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case resolve && len(args) > 1:
				return usageError("merge --resolve: give one triage file at most")
			case !resolve && len(args) != 3:
				return usageError("merge: give BASE OURS THEIRS (as git gives a merge driver: recap triage merge %%O %%A %%B), or --resolve [FILE]")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if !resolve {
				conflicts, err := triage.MergeFiles(args[0], args[1], args[2])
				if err != nil {
					return usageError("%v", err)
				}
				return mergeConflicts(streams, "triage merge", conflicts)
			}
			path, shown, err := resolvePath(args)
			if err != nil {
				return err
			}
			// The three versions git's index holds during the merge, else
			// the conflict markers' sides (with the merge base, diff3).
			conflicts, ok, err := triage.ResolveStages(path)
			if !ok {
				conflicts, err = triage.ResolveFile(path)
			}
			if errors.Is(err, triage.ErrNoConflict) {
				fmt.Fprintf(streams.Out, "%s: no merge conflict: nothing to resolve\n", shown)
				return nil
			} else if err != nil {
				return usageError("%v", err)
			}
			if len(conflicts) == 0 {
				fmt.Fprintf(streams.Out, "%s: both sides' decisions merged: git add it\n", shown)
			}
			return mergeConflicts(streams, shown, conflicts)
		},
	}
	cmd.Flags().BoolVar(&resolve, "resolve", false, "merge the sides of the conflicts git left in FILE (default: the repository's triage file)")
	return cmd
}

// resolvePath is the file merge --resolve works on: the one given, or the
// repository's (where .recap.yml's triage key says); shown is its name in
// messages.
func resolvePath(args []string) (path, shown string, err error) {
	if len(args) == 1 {
		return args[0], args[0], nil
	}
	root, err := repoRoot("")
	if err != nil {
		return "", "", err
	}
	cfg, err := config.LoadDir(root)
	if err != nil {
		return "", "", usageError("%v", err)
	}
	shown = triage.DefaultPath
	if cfg != nil && cfg.Triage != "" {
		shown = cfg.Triage
	}
	return filepath.Join(root, filepath.FromSlash(shown)), shown, nil
}

// mergeConflicts says what each conflict of a merge is, and is the
// command's error when there is one (exit 1: the file holds conflict
// markers, as git's own merge leaves them).
func mergeConflicts(streams *IO, what string, conflicts []triage.Conflict) error {
	if len(conflicts) == 0 {
		return nil
	}
	side := func(e *triage.Entry) string {
		return fmt.Sprintf("%s, %q", e.State, render.InertLine(text.CutRunes(e.Reason, 60)))
	}
	for _, c := range conflicts {
		fmt.Fprintf(streams.ErrOut, "conflict: %s: decided otherwise on each side (ours: %s; theirs: %s)\n", entryName(&c.Ours, ""), side(&c.Ours), side(&c.Theirs))
	}
	return &exitError{code: exitGate, err: fmt.Errorf("%s: %s left between conflict markers, both versions: keep one, then git add the file", what, english.Plural(len(conflicts), "entry", "entries"))}
}
