package diff

import (
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Repo is a git repository read with go-git: no git binary is needed.
type Repo struct {
	repo *git.Repository
	// objects is the object cache of the revision diffs' storages, kept
	// across calls (see Repo.storage).
	objects cache.Object
	// Root is the top level of the working tree.
	Root string
	// ChangedLines makes Revisions and WorkingTree also fill each file's
	// Changed lines, with a second, whitespace-blind diff of the whole file,
	// for NewIndex. Without it the index looks at each hunk alone.
	ChangedLines bool
}

// Open opens the repository that holds dir (dir or a directory above it).
func Open(dir string) (*Repo, error) {
	r, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		if errors.Is(err, git.ErrRepositoryNotExists) {
			return nil, repoErrorf(ErrNotRepository, "%s is not inside a git repository", dir)
		}
		return nil, fmt.Errorf("opening the git repository at %s: %w", dir, err)
	}
	root := dir
	if wt, err := r.Worktree(); err == nil {
		root = wt.Filesystem.Root()
	}
	return &Repo{repo: r, Root: root, objects: cache.NewObjectLRUDefault()}, nil
}

// Commit resolves rev (a branch, tag, commit hash, HEAD~N, …) to a commit.
// Ranges and reflog forms are refused (go-git would misread them), and an
// unknown revision, or one that a shallow clone lacks, gets an error that
// says what to do.
func (r *Repo) Commit(rev string) (*object.Commit, error) {
	switch {
	case rev == "":
		return nil, repoErrorf(ErrBadRevision, "empty revision")
	case strings.HasPrefix(rev, "/") || strings.HasPrefix(rev, "./") || strings.HasPrefix(rev, "../") || strings.Contains(rev, "/../") || strings.HasSuffix(rev, "/.."):
		return nil, repoErrorf(ErrBadRevision, "%q is a path, not a revision: give a branch, tag or commit", rev)
	case strings.Contains(rev, ".."):
		return nil, repoErrorf(ErrBadRevision, "revision %q is a range: give the two ends separately (--base and --head)", rev)
	case strings.Contains(rev, "@{"):
		return nil, repoErrorf(ErrBadRevision, "revision %q: reflog forms (@{…}) are not supported; give a branch, tag or commit", rev)
	}
	h, err := r.repo.ResolveRevision(plumbing.Revision(rev))
	if err == nil {
		var c *object.Commit
		if c, err = r.repo.CommitObject(*h); err == nil {
			return c, nil
		}
	}
	if r.shallow() {
		return nil, repoErrorf(ErrShallow, "revision %q is not in this shallow clone: fetch the full history (git fetch --unshallow, or fetch-depth: 0 in actions/checkout)", rev)
	}
	return nil, repoErrorf(ErrUnknownRevision, "unknown revision %q: give a branch, tag, commit or HEAD~N that exists here (fetch it first if it is on a remote only)", rev)
}

func (r *Repo) shallow() bool {
	s, err := r.repo.Storer.Shallow()
	return err == nil && len(s) > 0
}

// ErrBinary: the file is not text.
var ErrBinary = errors.New("binary file")

// OpenAt returns a function that opens files of revision rev by their
// repository-relative paths, with their sizes, for code context as it was
// at that revision; a binary file gives [ErrBinary]. The reader streams
// the blob: the caller reads as much of it as it needs.
func (r *Repo) OpenAt(rev string) (func(path string) (io.ReadCloser, int64, error), error) {
	c, err := r.Commit(rev)
	if err != nil {
		return nil, err
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("revision %q: %w", rev, err)
	}
	short := c.Hash.String()[:12]
	return func(p string) (io.ReadCloser, int64, error) {
		clean := path.Clean(p)
		if p == "" || path.IsAbs(clean) || strings.HasPrefix(clean, "../") || clean == ".." {
			return nil, 0, fmt.Errorf("%s is not inside the repository", p)
		}
		f, err := tree.File(clean)
		if err != nil {
			if errors.Is(err, object.ErrFileNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
				return nil, 0, fmt.Errorf("%s is not in revision %s (%s)", p, rev, short)
			}
			return nil, 0, err
		}
		if bin, err := f.IsBinary(); err == nil && bin {
			return nil, 0, ErrBinary
		}
		rd, err := f.Reader()
		if err != nil {
			return nil, 0, err
		}
		return rd, f.Size, nil
	}, nil
}
