package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unsafe"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/content"
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
	// Mode says which lines count (the zero value: Added).
	Mode FilterMode
	// From, with Base, is the revision the reports were made on when it is
	// not Head: a pull request's merge commit, which actions/checkout
	// checks out for a pull_request event, while the pull request's diff is
	// its head's. The findings' lines are carried onto Head through the diff
	// From→Head (see diff.LineMap) before they are checked against the
	// changed lines; a finding on a line Head has not is not kept.
	From string

	// Repo is the repository of Root opened already (diff.Open at Root),
	// read (diff.Repo.Reopen) instead of opening Root again: a server
	// opens its repository once, at start, and reads that one whatever
	// becomes of the path.
	Repo *diff.Repo

	lines *diff.LineMap // From→Head, once loaded
}

// A FilterMode says which lines of a diff a finding must touch to be kept,
// as reviewdog's -filter-mode does.
type FilterMode string

// The filter modes.
const (
	// Added keeps the findings on added or modified lines (whitespace-only
	// changes aside unless Changes.Whitespace).
	Added FilterMode = "added"
	// DiffContext keeps the findings on lines the diff's hunks show,
	// context lines included.
	DiffContext FilterMode = "diff_context"
	// File keeps the findings anywhere in a changed file.
	File FilterMode = "file"
	// NoFilter keeps every finding; the diff is still read (a review
	// anchors its comments on it).
	NoFilter FilterMode = "nofilter"
)

// FilterModes lists the filter modes.
func FilterModes() []FilterMode { return []FilterMode{Added, DiffContext, File, NoFilter} }

// ParseFilterMode checks a filter mode's name ("" is Added).
func ParseFilterMode(name string) (FilterMode, error) {
	if name == "" {
		return Added, nil
	}
	for _, m := range FilterModes() {
		if string(m) == name {
			return m, nil
		}
	}
	names := make([]string, 0, 4)
	for _, m := range FilterModes() {
		names = append(names, string(m))
	}
	return "", fmt.Errorf("unknown filter mode %q (want one of %s)", name, strings.Join(names, ", "))
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
	if _, err := ParseFilterMode(string(c.Mode)); err != nil {
		return err
	}
	return nil
}

// MaxKeptHunkBytes bounds the hunks Load keeps of a diff read as text or
// of base...head (a review anchors its comments and suggests changes on them), counted as
// what they hold: a file's paths and record, each hunk's, and its lines'
// text and 48 bytes a line: past it a file is indexed, and not kept.
const MaxKeptHunkBytes = 16 << 20

// Load reads the changes and indexes the lines that count by Mode, by paths
// relative to Root; the index is nil with NoFilter. A diff file is read as
// it streams, and base...head as it is diffed: the index is made a file at
// a time, and the files are kept within MaxKeptHunkBytes.
func (c *Changes) Load(ctx context.Context) ([]diff.File, *diff.Index, error) {
	if err := c.Check(); err != nil {
		return nil, nil, err
	}
	if c.DiffFile != "" {
		idx := c.newIndex(nil)
		var files []diff.File
		kept := 0
		err := EachDiff(ctx, c.DiffFile, c.Stdin, func(f *diff.File) error {
			if idx != nil {
				idx.Add(f)
			}
			if cost := hunkBytes(f); kept+cost <= MaxKeptHunkBytes {
				kept += cost
				files = append(files, *f)
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		return files, idx, nil
	}
	var repo *diff.Repo
	var files []diff.File
	if c.Base != "" {
		// base...head is read as it is diffed, as a diff file is: the
		// index made a file at a time, the files kept within
		// MaxKeptHunkBytes.
		idx := c.newIndex(nil)
		kept := 0
		var err error
		repo, err = c.each(ctx, true, func(repo *diff.Repo) func(*diff.File) error {
			sub := repo.Sub(c.Root)
			return func(f *diff.File) error {
				if sub != "" && !diff.UnderFile(f, sub) {
					return nil
				}
				if idx != nil {
					idx.Add(f)
				}
				if cost := hunkBytes(f); kept+cost <= MaxKeptHunkBytes {
					kept += cost
					files = append(files, *f)
				}
				return nil
			}
		})
		if err != nil {
			return nil, nil, err
		}
		if err := c.loadLines(ctx, repo); err != nil {
			return nil, nil, err
		}
		return files, idx, nil
	}
	files, repo, err := c.read(ctx, true)
	if err != nil {
		return nil, nil, err
	}
	if repo != nil {
		files = Under(repo, c.Root, files)
	}
	if err := c.loadLines(ctx, repo); err != nil {
		return nil, nil, err
	}
	return files, c.newIndex(files), nil
}

// loadLines reads the map of the findings' lines From→Head, given From.
func (c *Changes) loadLines(ctx context.Context, repo *diff.Repo) error {
	if c.From != "" && repo != nil {
		head := c.Head
		if head == "" {
			head = "HEAD"
		}
		moved, err := repo.Between(ctx, c.From, head)
		if err != nil {
			return err
		}
		c.lines = diff.NewLineMap(Under(repo, c.Root, moved))
	}
	return nil
}

// newIndex indexes files by Mode (nil with NoFilter).
func (c *Changes) newIndex(files []diff.File) *diff.Index {
	switch c.Mode {
	case DiffContext:
		return diff.NewContextIndex(files)
	case File:
		return diff.NewFileIndex(files)
	case NoFilter:
		return nil
	}
	if c.Whitespace {
		return diff.NewAddedIndex(files)
	}
	return diff.NewIndex(files)
}

// hunkBytes is what f holds with its hunks, about: a million one-line
// file diffs kept 60 MB when only their lines were counted.
func hunkBytes(f *diff.File) int {
	n := int(unsafe.Sizeof(*f)) + len(f.OldPath) + len(f.NewPath)
	for _, h := range f.Hunks {
		n += int(unsafe.Sizeof(h))
		for _, l := range h.Lines {
			n += len(l.Text) + 48
		}
	}
	return n
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

// Each gives the changes' files to fn one at a time, as [Changes.Diff]
// reads them: a diff file as it streams, and base...head as it is diffed,
// keeping nothing; the working tree's diff once it is read (repo is nil
// for a diff file).
func (c *Changes) Each(ctx context.Context, fn func(*diff.File) error) (repo *diff.Repo, err error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	if c.DiffFile != "" {
		return nil, EachDiff(ctx, c.DiffFile, c.Stdin, fn)
	}
	if c.Base != "" {
		return c.each(ctx, false, func(*diff.Repo) func(*diff.File) error { return fn })
	}
	files, repo, err := c.read(ctx, false)
	if err != nil {
		return nil, err
	}
	for i := range files {
		if err := fn(&files[i]); err != nil {
			return repo, err
		}
	}
	return repo, nil
}

// each opens the repository and hands base...head's files, as they are
// diffed, to the function made for it.
func (c *Changes) each(ctx context.Context, changedLines bool, fn func(*diff.Repo) func(*diff.File) error) (*diff.Repo, error) {
	repo, err := c.open()
	if err != nil {
		return nil, err
	}
	repo.ChangedLines = changedLines
	head := c.Head
	if head == "" {
		head = "HEAD"
	}
	if err := repo.EachRevision(ctx, c.Base, head, fn(repo)); err != nil {
		return nil, err
	}
	return repo, nil
}

// open opens the repository of Root, or reopens Repo.
func (c *Changes) open() (*diff.Repo, error) {
	if c.Repo != nil {
		return c.Repo.Reopen()
	}
	return diff.Open(c.Root)
}

// read reads the diff; changedLines asks a repository for the
// whitespace-blind changed lines of whole files too (see diff.Repo).
func (c *Changes) read(ctx context.Context, changedLines bool) ([]diff.File, *diff.Repo, error) {
	if c.DiffFile != "" {
		files, err := ParseDiff(c.DiffFile, c.Stdin)
		return files, nil, err
	}
	repo, err := c.open()
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
// relative to dir, when dir is below the repository's top level (dir's
// place in it as it was when the repository was opened, for the directory
// it was opened at: see diff.Repo.Sub).
func Under(repo *diff.Repo, dir string, files []diff.File) []diff.File {
	if sub := repo.Sub(dir); sub != "" {
		return diff.Under(files, sub)
	}
	return files
}

// ParseDiff reads unified diff text from a file, or from stdin for "-".
func ParseDiff(name string, stdin io.Reader) ([]diff.File, error) {
	var files []diff.File
	err := EachDiff(context.Background(), name, stdin, func(f *diff.File) error {
		files = append(files, *f)
		return nil
	})
	return files, err
}

// EachDiff reads unified diff text from a file, or from stdin for "-", a
// file at a time (see diff.ParseEach); it stops when ctx ends.
func EachDiff(ctx context.Context, name string, stdin io.Reader, fn func(*diff.File) error) error {
	each := func(f *diff.File) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return fn(f)
	}
	if name == "-" {
		if stdin == nil {
			return errors.New("no standard input")
		}
		return diff.ParseEach("standard input", stdin, each)
	}
	f, _, err := content.Open(name)
	if err != nil {
		return fmt.Errorf("%s: %w", name, content.PathErr(err))
	}
	defer f.Close()
	return diff.ParseEach(name, f, each)
}
