package diff

import (
	"errors"
	"io"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// ErrNotCommitted: the file is not in HEAD's tree.
var ErrNotCommitted = errors.New("not in HEAD")

// Introduced returns the commit that gave the file at p (slash-separated,
// relative to the top level) the content it has in HEAD: going back from
// HEAD by first parents, the oldest commit whose file is HEAD's, looking at
// most max commits back. A file not in HEAD is [ErrNotCommitted]; one whose
// content goes back past the history a shallow clone has, or past max
// commits, is [ErrShallow] (the commit is not known).
func (r *Repo) Introduced(p string, max int) (string, error) {
	c, err := r.Commit("HEAD")
	if err != nil {
		return "", err
	}
	want, err := blobAt(c, p)
	if err != nil {
		return "", ErrNotCommitted
	}
	for range max {
		if c.NumParents() == 0 {
			return c.Hash.String(), nil // the root commit brought it
		}
		parent, err := r.repo.CommitObject(c.ParentHashes[0])
		if err != nil {
			return "", repoErrorf(ErrShallow, "the commit before %s is not in this clone", c.Hash.String()[:12])
		}
		if h, err := blobAt(parent, p); err != nil || h != want {
			return c.Hash.String(), nil
		}
		c = parent
	}
	return "", repoErrorf(ErrShallow, "%s has had its content for more than %d commits", p, max)
}

// blobAt returns the hash of the file at p in commit c's tree.
func blobAt(c *object.Commit, p string) (plumbing.Hash, error) {
	t, err := c.Tree()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	e, err := t.FindEntry(p)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if !e.Mode.IsFile() {
		return plumbing.ZeroHash, errors.New("not a file")
	}
	return e.Hash, nil
}

// Unchanged reports whether the working tree's file at p (slash-separated,
// relative to the top level) is HEAD's: the same bytes, by git's hash of
// them (a file git filters on checkout, line endings or LFS, reads as
// changed).
func (r *Repo) Unchanged(p string) bool {
	c, err := r.Commit("HEAD")
	if err != nil {
		return false
	}
	want, err := blobAt(c, p)
	if err != nil || r.top == nil {
		return false
	}
	f, err := r.top.Open(filepath.FromSlash(p))
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	h := plumbing.NewHasher(plumbing.BlobObject, st.Size())
	if n, err := io.Copy(h, f); err != nil || n != st.Size() {
		return false
	}
	return h.Sum() == want
}

// CommitAt returns the commit HEAD's first-parent history was at, at time
// t: the first one back from HEAD made (committed) at t or before, looking
// at most max commits back. [ErrShallow] when the history a clone has, or
// max, ends before one.
func (r *Repo) CommitAt(t time.Time, max int) (string, error) {
	c, err := r.Commit("HEAD")
	if err != nil {
		return "", err
	}
	for range max {
		if !c.Committer.When.After(t) {
			return c.Hash.String(), nil
		}
		if c.NumParents() == 0 {
			return "", repoErrorf(ErrUnknownRevision, "no commit was made by %s", t.Format(time.RFC3339))
		}
		if c, err = r.repo.CommitObject(c.ParentHashes[0]); err != nil {
			return "", repoErrorf(ErrShallow, "the history before %s is not in this clone", t.Format(time.RFC3339))
		}
	}
	return "", repoErrorf(ErrShallow, "more than %d commits since %s", max, t.Format(time.RFC3339))
}
