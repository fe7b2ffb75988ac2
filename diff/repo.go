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
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/recap-dev/recap/internal/content"
)

// objectCache is the bytes of git objects a Repo keeps read (go-git's
// default is 96 MiB): objects larger than MaxDiffBytes are streamed and
// never kept.
const objectCache = 32 * cache.MiByte

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
	return &Repo{repo: r, Root: root, objects: cache.NewObjectLRU(objectCache)}, nil
}

// Commit resolves rev (a branch, tag, commit hash, HEAD~N, …) to a commit.
// What git would not take as a commit is refused with a message that
// says why: a range, a reflog form, a file (REV:PATH), a tree or a blob
// (REV^{tree}); an unknown revision, or one that a shallow clone lacks,
// gets an error that says what to do.
func (r *Repo) Commit(rev string) (*object.Commit, error) {
	if err := checkRevision(rev); err != nil {
		return nil, err
	}
	h, err := r.repo.ResolveRevision(plumbing.Revision(rev))
	if err == nil {
		var c *object.Commit
		if c, err = r.repo.CommitObject(*h); err == nil {
			return c, nil
		}
	} else if plumbing.IsHash(rev) {
		hh := plumbing.NewHash(rev)
		h = &hh
	}
	if h != nil {
		if o, oerr := r.repo.Storer.EncodedObject(plumbing.AnyObject, *h); oerr == nil && o.Type() != plumbing.CommitObject && o.Type() != plumbing.TagObject {
			return nil, repoErrorf(ErrBadRevision, "revision %q names a %s, not a commit: give a branch, tag or commit", rev, o.Type())
		}
	}
	if r.shallow() {
		return nil, repoErrorf(ErrShallow, "revision %q is not in this shallow clone: fetch the full history (git fetch --unshallow, or fetch-depth: 0 in actions/checkout)", rev)
	}
	return nil, repoErrorf(ErrUnknownRevision, "unknown revision %q: give a branch, tag, commit or HEAD~N that exists here (fetch it first if it is on a remote only)", rev)
}

// checkRevision refuses the forms of a revision that name no commit, or
// that go-git would misread (it takes HEAD:path and HEAD^{tree} for HEAD).
func checkRevision(rev string) error {
	switch {
	case rev == "":
		return repoErrorf(ErrBadRevision, "empty revision")
	case rev == ".." || strings.HasPrefix(rev, "../") || strings.Contains(rev, "/../") || strings.HasSuffix(rev, "/..") || strings.HasPrefix(rev, "./"):
		return repoErrorf(ErrUnknownRevision, "unknown revision %q: that is a path, not a revision; give a branch, tag, commit or HEAD~N", rev)
	case strings.Contains(rev, ".."):
		return repoErrorf(ErrBadRevision, "revision %q is a range: give the two ends separately (--base and --head)", rev)
	case strings.Contains(rev, "@{"):
		return repoErrorf(ErrBadRevision, "revision %q: reflog forms (@{…}) are not supported; give a branch, tag or commit", rev)
	case strings.HasPrefix(rev, ":/"):
		return repoErrorf(ErrBadRevision, "revision %q: finding a commit by its message (:/text) is not supported; give a branch, tag or commit", rev)
	case strings.Contains(rev, ":"):
		return repoErrorf(ErrBadRevision, "revision %q names a file (REV:PATH), not a commit: give a branch, tag or commit", rev)
	}
	for rest := rev; ; {
		i := strings.Index(rest, "^{")
		if i < 0 {
			break
		}
		end := strings.IndexByte(rest[i:], '}')
		if end < 0 {
			return repoErrorf(ErrBadRevision, "revision %q: ^{ without its }", rev)
		}
		switch kind := rest[i+2 : i+end]; {
		case kind == "" || kind == "commit" || strings.HasPrefix(kind, "/"):
		default:
			return repoErrorf(ErrBadRevision, "revision %q peels to a %s, not a commit: give a branch, tag or commit (REV^{commit} or REV)", rev, kind)
		}
		rest = rest[i+end+1:]
	}
	return nil
}

func (r *Repo) shallow() bool {
	s, err := r.repo.Storer.Shallow()
	return err == nil && len(s) > 0
}

// ErrBinary: the file is not text.
var ErrBinary = errors.New("binary file")

// OpenAt returns a function that opens files of revision rev by their
// repository-relative paths, with their sizes, for code context as it was
// at that revision; a binary file gives [ErrBinary], a symbolic link or a
// submodule an error (a link has no lines: its target is not read). The
// reader streams the blob (one larger than MaxDiffBytes is never held
// whole): the caller reads as much of it as it needs.
func (r *Repo) OpenAt(rev string) (func(path string) (io.ReadCloser, int64, error), error) {
	c, err := r.Commit(rev)
	if err != nil {
		return nil, err
	}
	s := r.repo.Storer
	if fs, ok := s.(*filesystem.Storage); ok {
		s = filesystem.NewStorageWithOptions(fs.Filesystem(), cache.NewObjectLRU(4*cache.MiByte), filesystem.Options{LargeObjectThreshold: MaxDiffBytes})
	}
	if c, err = object.GetCommit(s, c.Hash); err != nil {
		return nil, fmt.Errorf("revision %q: %w", rev, err)
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("revision %q: %w", rev, err)
	}
	short := c.Hash.String()[:12]
	return func(p string) (_ io.ReadCloser, _ int64, err error) {
		defer recovered(&err)
		clean := path.Clean(p)
		if p == "" || path.IsAbs(clean) || strings.HasPrefix(clean, "../") || clean == ".." {
			return nil, 0, fmt.Errorf("%s is not inside the repository", p)
		}
		e, err := tree.FindEntry(clean)
		if err != nil {
			if errors.Is(err, object.ErrFileNotFound) || errors.Is(err, object.ErrDirectoryNotFound) || errors.Is(err, object.ErrEntryNotFound) ||
				errors.Is(err, plumbing.ErrObjectNotFound) { // a path through a file or a link
				return nil, 0, fmt.Errorf("%s is not in revision %s (%s)", p, rev, short)
			}
			return nil, 0, err
		}
		switch {
		case e.Mode == filemode.Symlink:
			return nil, 0, fmt.Errorf("%s is a symbolic link in revision %s (%s): a link has no lines", p, rev, short)
		case e.Mode == filemode.Submodule:
			return nil, 0, fmt.Errorf("%s is a submodule in revision %s (%s)", p, rev, short)
		case !e.Mode.IsFile():
			return nil, 0, fmt.Errorf("%s is a directory in revision %s (%s)", p, rev, short)
		}
		b, err := object.GetBlob(s, e.Hash)
		if err != nil {
			return nil, 0, err
		}
		head, err := b.Reader()
		if err != nil {
			return nil, 0, err
		}
		buf := make([]byte, 8000)
		n, err := io.ReadFull(head, buf)
		head.Close()
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			return nil, 0, err
		}
		if content.IsBinary(buf[:n]) {
			return nil, 0, ErrBinary
		}
		rd, err := b.Reader()
		if err != nil {
			return nil, 0, err
		}
		return rd, b.Size, nil
	}, nil
}
