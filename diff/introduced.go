package diff

import (
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
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

// SameFile reports whether commits a and b hold the file at p
// (slash-separated, relative to the top level) alike: the same blob, or
// neither a file there. An error when either commit cannot be read.
func (r *Repo) SameFile(a, b, p string) (bool, error) {
	var hs [2]plumbing.Hash
	for i, rev := range []string{a, b} {
		c, err := r.Commit(rev)
		if err != nil {
			return false, err
		}
		hs[i], _ = blobAt(c, p) // zero: no file there
	}
	return hs[0] == hs[1], nil
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
	if h.Sum() == want {
		return true
	}
	// Checked out with CRLF line endings (core.autocrlf): the blob has LF.
	crlf := &lfWriter{}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return false
	}
	if _, err := io.Copy(crlf, f); err != nil || crlf.pairs == 0 {
		return false
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return false
	}
	h = plumbing.NewHasher(plumbing.BlobObject, st.Size()-crlf.pairs)
	lf := &lfWriter{to: h}
	if _, err := io.Copy(lf, f); err != nil || lf.flush() != nil {
		return false
	}
	return h.Sum() == want
}

// lfWriter writes to to what is written to it with each CR of a CRLF left
// out (to nil: it counts them, pairs).
type lfWriter struct {
	to    io.Writer
	cr    bool // the last byte written was a CR, held
	pairs int64
}

func (w *lfWriter) Write(p []byte) (int, error) {
	out := make([]byte, 0, len(p)+1)
	for _, c := range p {
		if w.cr {
			if c != '\n' {
				out = append(out, '\r') // a CR alone stays
			} else {
				w.pairs++
			}
			w.cr = false
		}
		if c == '\r' {
			w.cr = true
			continue
		}
		out = append(out, c)
	}
	if w.to != nil && len(out) > 0 {
		if _, err := w.to.Write(out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// flush writes a CR held at the end.
func (w *lfWriter) flush() error {
	if w.cr && w.to != nil {
		w.cr = false
		_, err := w.to.Write([]byte{'\r'})
		return err
	}
	return nil
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

// maxReflog bounds the part of HEAD's reflog read: its last bytes.
const maxReflog = 4 << 20

// HeadAt returns the commit HEAD was at, at time t: by HEAD's reflog (when
// HEAD moved there: a pull or a checkout of an older commit is dated by
// the move, not by the commit), else, without a reflog that goes back to t
// (a clone made after t), by the commits' times ([Repo.CommitAt]).
func (r *Repo) HeadAt(t time.Time, max int) (string, error) {
	if h, ok := r.reflogAt(t); ok {
		return h, nil
	}
	return r.CommitAt(t, max)
}

// reflogAt reads HEAD's reflog for the commit HEAD was at, at time t.
func (r *Repo) reflogAt(t time.Time) (string, bool) {
	o := r.opened
	if o == nil {
		o = r.shared
	}
	if o == nil || o.repoFS == nil {
		return "", false
	}
	f, err := o.repoFS.Open("logs/HEAD")
	if err != nil {
		return "", false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxReflog+1))
	if err != nil || len(b) > maxReflog {
		return "", false // too long to read whole: by the commits' times
	}
	at := ""
	for _, line := range strings.Split(string(b), "\n") {
		// "<old> <new> <name> <<email>> <unix seconds> <zone>\t<message>"
		head, _, _ := strings.Cut(line, "\t")
		fields := strings.Fields(head)
		if len(fields) < 4 || !plumbing.IsHash(fields[1]) {
			continue
		}
		secs, err := strconv.ParseInt(fields[len(fields)-2], 10, 64)
		if err != nil {
			continue
		}
		if time.Unix(secs, 0).After(t) {
			if at == "" && plumbing.IsHash(fields[0]) && plumbing.NewHash(fields[0]) != plumbing.ZeroHash {
				return fields[0], true // HEAD before its first move after t
			}
			break
		}
		at = fields[1]
	}
	return at, at != ""
}

// StashedAfter reports whether a stash made after time t (by the stash's
// reflog: the stashes not dropped since) holds the file at p
// (slash-separated, relative to the top level) otherwise than HEAD: the
// working tree had other content then, which git stash took away.
func (r *Repo) StashedAfter(t time.Time, p string) bool {
	o := r.opened
	if o == nil {
		o = r.shared
	}
	if o == nil || o.repoFS == nil {
		return false
	}
	f, err := o.repoFS.Open("logs/refs/stash")
	if err != nil {
		return false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxReflog+1))
	if err != nil || len(b) > maxReflog {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		head, _, _ := strings.Cut(line, "\t")
		fields := strings.Fields(head)
		if len(fields) < 4 || !plumbing.IsHash(fields[1]) {
			continue
		}
		secs, err := strconv.ParseInt(fields[len(fields)-2], 10, 64)
		if err != nil || !time.Unix(secs, 0).After(t) {
			continue
		}
		if same, err := r.SameFile(fields[1], "HEAD", p); err == nil && !same {
			return true
		}
	}
	return false
}

// After returns the commits of HEAD's first-parent history after from, up
// to HEAD, oldest first: at most max of them, those nearest from, looking
// at most back commits back from HEAD. [ErrShallow] when the history a
// clone has ends before from; [ErrUnknownRevision] when from is not on
// that line within back commits (a commit of a branch merged since).
func (r *Repo) After(from string, max, back int) ([]string, error) {
	c, err := r.Commit("HEAD")
	if err != nil {
		return nil, err
	}
	var line []string
	for range back {
		h := c.Hash.String()
		if h == from || strings.HasPrefix(h, from) && len(from) >= 7 {
			slices.Reverse(line)
			return line[:min(max, len(line))], nil
		}
		line = append(line, h)
		if c.NumParents() == 0 {
			break
		}
		before := c.Hash.String()[:12]
		if c, err = r.repo.CommitObject(c.ParentHashes[0]); err != nil {
			return nil, repoErrorf(ErrShallow, "the history before %s is not in this clone", before)
		}
	}
	return nil, repoErrorf(ErrUnknownRevision, "%s is not on HEAD's first-parent line in its last %d commits", from, back)
}

// ChangedAfter returns, of the commits of HEAD's first-parent history
// after from, up to HEAD, oldest first (looking at most back commits back
// from HEAD, as After), those whose file differs from the one before's:
// the file at the first of paths that their tree has as a file, told
// apart by git's hash of it and by the path it is at; a commit that has
// it at none of them differs from one that has it. Only the first max are
// returned; more says there are others after them. Telling the commits
// apart reads trees alone, no file: a line followed through the versions
// of its file reads the versions, not every commit since.
func (r *Repo) ChangedAfter(from string, paths []string, max, back int) (changed []string, more bool, err error) {
	a := r.after
	if a == nil {
		a = &afterState{} // a Repo not made by Open: kept for this call
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.st == nil {
		// Kept for the Repo's later calls (closed by Close): its packs
		// kept open, one open per object was most of the time, and
		// opening them again each call (their indexes read) the rest.
		a.st = r.storage(cache.NewObjectLRU(8 * cache.MiByte))
		if r.after == nil {
			defer a.st.close()
		}
	}
	st := a.st
	c, line, err := a.lineBack(r, st, from, back)
	if err != nil {
		return nil, false, err
	}
	finders := make([]*pathFinder, len(paths))
	if a.trees == nil {
		a.trees = map[plumbing.Hash]*object.Tree{}
	}
	for k, p := range paths {
		finders[k] = &pathFinder{s: st.s, parts: strings.Split(p, "/"), trees: a.trees}
	}
	version := func(c *object.Commit) fileVersion {
		for k, f := range finders {
			if h, ok := f.find(c.TreeHash); ok {
				return fileVersion{k, h}
			}
		}
		return fileVersion{at: -1}
	}
	was := version(c)
	for i := len(line) - 1; i >= 0; i-- {
		v := version(line[i])
		if v == was {
			continue
		}
		was = v
		if len(changed) == max {
			return changed, true, nil
		}
		changed = append(changed, line[i].Hash.String())
	}
	return changed, false, nil
}

// afterLine is HEAD's first-parent line back to a commit, newest first
// (line), and that commit (c), as lineBack found it; err when it did not.
type afterLine struct {
	c    *object.Commit
	line []*object.Commit
	err  error
}

// lineBack returns HEAD's first-parent line back to from (at most back
// commits), newest first, and from's commit: walked once for each from
// while HEAD stays (a run asks it of many files decided at one commit).
func (a *afterState) lineBack(r *Repo, st *storage, from string, back int) (*object.Commit, []*object.Commit, error) {
	head, err := r.Commit("HEAD")
	if err != nil {
		return nil, nil, err
	}
	key := head.Hash.String() + " " + from + " " + strconv.Itoa(back)
	if l, ok := a.lines[key]; ok {
		return l.c, l.line, l.err
	}
	c, line, err := walkBack(st, head, from, back)
	if a.lines == nil {
		a.lines = map[string]afterLine{}
	}
	a.lines[key] = afterLine{c, line, err}
	return c, line, err
}

func walkBack(st *storage, head *object.Commit, from string, back int) (*object.Commit, []*object.Commit, error) {
	c, err := object.GetCommit(st.s, head.Hash)
	if err != nil {
		return nil, nil, err
	}
	var line []*object.Commit
	for range back {
		if h := c.Hash.String(); h == from || strings.HasPrefix(h, from) && len(from) >= 7 {
			break
		}
		line = append(line, c)
		if c.NumParents() == 0 {
			return nil, nil, repoErrorf(ErrUnknownRevision, "%s is not on HEAD's first-parent line", from)
		}
		before := c.Hash.String()[:12]
		if c, err = object.GetCommit(st.s, c.ParentHashes[0]); err != nil {
			return nil, nil, repoErrorf(ErrShallow, "the history before %s is not in this clone", before)
		}
	}
	if h := c.Hash.String(); h != from && !(strings.HasPrefix(h, from) && len(from) >= 7) {
		return nil, nil, repoErrorf(ErrUnknownRevision, "%s is not on HEAD's first-parent line in its last %d commits", from, back)
	}
	return c, line, nil
}

// fileVersion is a file as a commit has it: the index of the path it is
// at (-1: none) and git's hash of it.
type fileVersion struct {
	at   int
	hash plumbing.Hash
}

// pathFinder finds the file at one path in tree after tree, most of whose
// directories on the way are the last tree's: a directory whose hash is
// the one looked in last has the file the last look found.
type pathFinder struct {
	s     storer.EncodedObjectStorer
	parts []string
	last  []pathStep // by depth: the directory looked in last, and what it gave
	// trees are the trees decoded, by hash, shared by the finders of a
	// Repo's calls: files followed through the same commits look in the
	// same trees (each commit's own root most of all).
	trees map[plumbing.Hash]*object.Tree
}

// maxAfterTrees bounds the trees a Repo keeps decoded for ChangedAfter.
const maxAfterTrees = 8192

// tree returns the tree of hash h, decoded once.
func (f *pathFinder) tree(h plumbing.Hash) (*object.Tree, error) {
	if t, ok := f.trees[h]; ok {
		return t, nil
	}
	t, err := object.GetTree(f.s, h)
	if err != nil {
		return nil, err
	}
	if f.trees != nil {
		if len(f.trees) >= maxAfterTrees {
			clear(f.trees)
		}
		f.trees[h] = t
	}
	return t, nil
}

type pathStep struct {
	dir  plumbing.Hash
	file plumbing.Hash
	ok   bool
}

// find returns the hash of the regular file (or executable) at the path
// in the tree of that hash; ok false when there is none.
func (f *pathFinder) find(tree plumbing.Hash) (plumbing.Hash, bool) {
	if f.last == nil {
		f.last = make([]pathStep, len(f.parts))
	}
	return f.at(tree, 0)
}

func (f *pathFinder) at(dir plumbing.Hash, depth int) (plumbing.Hash, bool) {
	if l := f.last[depth]; l.dir == dir && !dir.IsZero() {
		return l.file, l.ok
	}
	var file plumbing.Hash
	ok := false
	if t, err := f.tree(dir); err == nil {
		if e, err := t.FindEntry(f.parts[depth]); err == nil {
			switch {
			case depth == len(f.parts)-1:
				file, ok = e.Hash, e.Mode.IsFile()
			case e.Mode == filemode.Dir:
				file, ok = f.at(e.Hash, depth+1)
			}
		}
	}
	f.last[depth] = pathStep{dir, file, ok}
	return file, ok
}

// Since returns the commits of HEAD's first-parent history from the last
// one made (committed) at t or before, when HEAD's line has one within
// back commits, else from its first, to HEAD: oldest first, at most max
// of them, those nearest t. [ErrShallow] when the history a clone has
// ends before t; [ErrUnknownRevision] when back commits do not reach t.
func (r *Repo) Since(t time.Time, max, back int) ([]string, error) {
	c, err := r.Commit("HEAD")
	if err != nil {
		return nil, err
	}
	var line []string
	for range back {
		line = append(line, c.Hash.String())
		if !c.Committer.When.After(t) || c.NumParents() == 0 {
			slices.Reverse(line)
			return line[:min(max, len(line))], nil
		}
		before := c.Hash.String()[:12]
		if c, err = r.repo.CommitObject(c.ParentHashes[0]); err != nil {
			return nil, repoErrorf(ErrShallow, "the history before %s is not in this clone", before)
		}
	}
	return nil, repoErrorf(ErrUnknownRevision, "more than %d commits since %s", back, t.Format(time.RFC3339))
}

// Shallow reports whether the repository is a shallow clone: its history
// stops at some commits (git clone --depth, actions/checkout's default).
func (r *Repo) Shallow() bool { return r.shallow() }

// Has reports whether the file p (slash-separated, relative to the top
// level) is in revision rev.
func (r *Repo) Has(rev, p string) bool {
	c, err := r.Commit(rev)
	if err != nil {
		return false
	}
	_, err = blobAt(c, p)
	return err == nil
}

// Files returns the paths of the files in rev's tree (slash-separated,
// relative to the top level; links and submodules too), without reading
// their contents.
func (r *Repo) Files(rev string) (map[string]bool, error) {
	c, err := r.Commit(rev)
	if err != nil {
		return nil, err
	}
	t, err := c.Tree()
	if err != nil {
		return nil, err
	}
	w := object.NewTreeWalker(t, true, nil)
	defer w.Close()
	out := map[string]bool{}
	for {
		name, e, err := w.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if e.Mode != filemode.Dir {
			out[name] = true
		}
	}
}

// A BlobHash is git's name of a file's content (its blob's hash).
type BlobHash = plumbing.Hash

// HashBlob returns git's hash of content as a blob: what a commit's tree
// names the file by when it holds exactly these bytes.
func HashBlob(content []byte) BlobHash {
	h := plumbing.NewHasher(plumbing.BlobObject, int64(len(content)))
	_, _ = h.Write(content) // a hash takes every byte
	return h.Sum()
}

// BlobHashes returns the hashes of the files at paths (slash-separated,
// relative to the top level) in revision rev's tree, as the tree names
// them, without reading their contents; a path that is no file there is
// left out.
func (r *Repo) BlobHashes(rev string, paths []string) (map[string]BlobHash, error) {
	c, err := r.Commit(rev)
	if err != nil {
		return nil, err
	}
	out := make(map[string]BlobHash, len(paths))
	for _, p := range paths {
		if h, err := blobAt(c, p); err == nil {
			out[p] = h
		}
	}
	return out, nil
}
