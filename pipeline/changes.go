package pipeline

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/recap-dev/recap/diff"
)

// Changes name the changed lines a query keeps findings on: those of
// Base...Head (the changes on Head since it left Base, as git diff
// Base...Head), of a unified diff (DiffFile, or Stdin for "-"), or of the
// working tree since Since's merge base with HEAD (commits and work not yet
// committed); given none of these, of the working tree against HEAD.
// A changed line is one changed in more than whitespace, unless Whitespace.
type Changes struct {
	// Root is the directory the findings' paths are relative to: the
	// repository's top level or a directory below it (paths of the diff are
	// then taken relative to it). Required unless DiffFile is given.
	Root string
	// Base and Head are revisions (Head defaults to HEAD).
	Base, Head string
	// Since is a revision: the working tree's changes since its merge base
	// with HEAD.
	Since string
	// DiffFile is a file of unified diff text; "-" reads Stdin.
	DiffFile string
	Stdin    io.Reader
	// Whitespace counts lines changed in whitespace only as changed, as git
	// diff and reviewdog's -filter-mode=added do.
	Whitespace bool
	// From, with Base, is the revision the reports were made on when it is
	// not Head: a pull request's merge commit, which actions/checkout
	// checks out for a pull_request event, while the pull request's diff is
	// its head's. The findings' lines are carried onto Head through the diff
	// From→Head (see diff.LineMap) before they are checked against the
	// changed lines; a finding on a line Head has not is not kept.
	From string

	lines *diff.LineMap // From→Head, once loaded
}

// Check reports a contradictory set of changes.
func (c *Changes) Check() error {
	switch {
	case c.Head != "" && c.Base == "":
		return errors.New("head needs base")
	case c.DiffFile != "" && (c.Base != "" || c.Since != ""):
		return errors.New("give either a diff file or revisions, not both")
	case c.Since != "" && c.Base != "":
		return errors.New("give either base...head or the working tree since a revision, not both")
	case c.From != "" && c.Base == "":
		return errors.New("the revision the reports were made on needs base...head")
	}
	return nil
}

// Load reads the changes and indexes their changed lines by paths relative
// to Root.
func (c *Changes) Load(ctx context.Context) ([]diff.File, *diff.Index, error) {
	if err := c.Check(); err != nil {
		return nil, nil, err
	}
	files, repo, err := c.read(ctx, true)
	if err != nil {
		return nil, nil, err
	}
	if repo != nil {
		files = Under(repo, c.Root, files)
	}
	if c.From != "" {
		head := c.Head
		if head == "" {
			head = "HEAD"
		}
		moved, err := repo.Between(ctx, c.From, head)
		if err != nil {
			return nil, nil, err
		}
		c.lines = diff.NewLineMap(Under(repo, c.Root, moved))
	}
	if c.Whitespace {
		return files, diff.NewAddedIndex(files), nil
	}
	return files, diff.NewIndex(files), nil
}

// Lines is the map of the findings' lines onto Head, once Load has read it;
// nil without From.
func (c *Changes) Lines() *diff.LineMap { return c.lines }

// Diff reads the changes as git gives them: paths relative to the
// repository's top level (see [Under]); repo is nil for a diff file.
func (c *Changes) Diff(ctx context.Context) (files []diff.File, repo *diff.Repo, err error) {
	if err := c.Check(); err != nil {
		return nil, nil, err
	}
	return c.read(ctx, false)
}

// read reads the diff; changedLines asks a repository for the
// whitespace-blind changed lines of whole files too (see diff.Repo).
func (c *Changes) read(ctx context.Context, changedLines bool) ([]diff.File, *diff.Repo, error) {
	if c.DiffFile != "" {
		files, err := ParseDiff(c.DiffFile, c.Stdin)
		return files, nil, err
	}
	repo, err := diff.Open(c.Root)
	if err != nil {
		return nil, nil, err
	}
	repo.ChangedLines = changedLines
	var files []diff.File
	switch {
	case c.Base != "":
		head := c.Head
		if head == "" {
			head = "HEAD"
		}
		files, err = repo.Revisions(ctx, c.Base, head)
	default:
		files, err = repo.WorkingTreeSince(ctx, c.Since)
	}
	if err != nil {
		return nil, nil, err
	}
	return files, repo, nil
}

// Under keeps the files of repo's diff that are under dir, with paths
// relative to dir, when dir is below the repository's top level.
func Under(repo *diff.Repo, dir string, files []diff.File) []diff.File {
	top, err := filepath.EvalSymlinks(repo.Root)
	if err != nil {
		top = repo.Root
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		real = dir
	}
	if rel, err := filepath.Rel(top, real); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		return diff.Under(files, filepath.ToSlash(rel))
	}
	return files
}

// ParseDiff reads unified diff text from a file, or from stdin for "-".
func ParseDiff(name string, stdin io.Reader) ([]diff.File, error) {
	if name == "-" {
		if stdin == nil {
			return nil, errors.New("no standard input")
		}
		return diff.Parse("standard input", stdin)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return diff.Parse(name, f)
}
