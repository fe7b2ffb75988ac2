package diff

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	gitstorage "github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// renameScore is git's default similarity for a rename (50%).
const renameScore = 50

// Revisions returns what changed from the merge base of base and head to
// head, as git diff base...head shows it (renames detected as git does by
// default). head "" is HEAD.
func (r *Repo) Revisions(ctx context.Context, base, head string) ([]File, error) {
	return collect(func(fn func(*File) error) error { return r.EachRevision(ctx, base, head, fn) })
}

// EachRevision gives fn the files of [Repo.Revisions] one at a time, in
// their order, as they are diffed: the files are never all held. An error
// of fn stops the diff and is returned as it is.
func (r *Repo) EachRevision(ctx context.Context, base, head string, fn func(*File) error) error {
	return r.eachTreeDiff(ctx, base, head, "...", func(r *Repo, hc *object.Commit) (*object.Tree, error) {
		return r.mergeBaseTree(hc, head, base, nil)
	}, fn)
}

// Between returns what changed from revision from to revision to, as git
// diff from to shows it (no merge base; renames detected).
func (r *Repo) Between(ctx context.Context, from, to string) ([]File, error) {
	return collect(func(fn func(*File) error) error { return r.EachBetween(ctx, from, to, fn) })
}

// EachBetween gives fn the files of [Repo.Between] one at a time, as
// [Repo.EachRevision] does.
func (r *Repo) EachBetween(ctx context.Context, from, to string, fn func(*File) error) error {
	return r.eachTreeDiff(ctx, from, to, " ", func(r *Repo, _ *object.Commit) (*object.Tree, error) {
		fc, err := r.Commit(from)
		if err != nil {
			return nil, err
		}
		return fc.Tree()
	}, fn)
}

func collect(each func(fn func(*File) error) error) ([]File, error) {
	var files []File
	if err := each(func(f *File) error {
		files = append(files, *f)
		return nil
	}); err != nil {
		return nil, err
	}
	return files, nil
}

// callerError is an error of the caller's fn, handed back as it is.
type callerError struct{ err error }

func (e callerError) Error() string { return e.err.Error() }

// eachTreeDiff diffs the tree fromTree gives (for head's commit) to
// head's, handing fn each file in path order. The trees are walked twice:
// once for the added and deleted files alone (kept compactly, for the
// renames), then again to diff each changed file and hand it on, on up to
// diffWorkers goroutines, in order.
func (r *Repo) eachTreeDiff(ctx context.Context, base, head, sep string, fromTree func(*Repo, *object.Commit) (*object.Tree, error), fn func(*File) error) (err error) {
	defer recovered(&err)
	if head == "" {
		head = "HEAD"
	}
	// Objects are read through a storage of the diff's own, which keeps
	// the pack files open (go-git's default opens a pack for every object
	// read), and so are the revisions: each storage holds the pack's index
	// and a map of its offsets, tens of MB in a large repository.
	st := r.storage(r.objects)
	defer func() { st.close() }()
	orig := r
	withStorage := func() {
		if full, ok := st.s.(gitstorage.Storer); ok && st.own {
			if g, err := git.Open(full, nil); err == nil {
				rr := *orig
				rr.repo = g
				r = &rr
			}
		}
	}
	withStorage()
	hc, err := r.Commit(head)
	if err != nil {
		return err
	}
	from, err := fromTree(r, hc)
	if err != nil {
		return err
	}
	wrap := func(err error) error {
		var ce callerError
		if errors.As(err, &ce) {
			return ce.err
		}
		if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return fmt.Errorf("diff of %s%s%s: %w", base, sep, head, err)
	}
	var added, deleted sides
	n := 0
	// A partial clone's: the contents the diff reads, fetched at once.
	remote := orig.promisor()
	var contents []plumbing.Hash
	if err := walkTrees(ctx, st.s, from.Hash, hc.TreeHash, func(c treeChange) error {
		n++
		if remote != "" {
			for _, e := range [2]entry{c.from, c.to} {
				if e.present() && e.mode != filemode.Submodule && e.mode != filemode.Dir {
					contents = append(contents, e.hash)
				}
			}
		}
		switch {
		case c.split:
		case !c.from.present():
			added.add(c.to)
		case !c.to.present():
			deleted.add(c.from)
		}
		return nil
	}); err != nil {
		return wrap(err)
	}
	if remote != "" {
		fetched, err := orig.fetchMissing(ctx, st.s, remote, contents)
		if err != nil {
			return wrap(err)
		}
		if fetched > 0 { // in packs the storage has not mapped
			st.close()
			st = orig.storage(orig.objects)
			withStorage()
		}
	}
	if err := detectRenames(ctx, st.s, &added, &deleted); err != nil {
		return wrap(err)
	}
	return wrap(r.emit(ctx, st, from.Hash, hc.TreeHash, n, &added, &deleted, fn))
}

// emit walks the trees again, turns each change into a File (a deletion
// renamed is left out, its addition made the rename) and hands it to fn.
func (r *Repo) emit(ctx context.Context, st *storage, from, to plumbing.Hash, n int, added, deleted *sides, fn func(*File) error) error {
	ai, di := 0, 0
	walk := func(ctx context.Context, s storer.EncodedObjectStorer, each func(treeChange) error) error {
		return walkTrees(ctx, s, from, to, func(c treeChange) error {
			switch {
			case c.split:
			case !c.from.present():
				if ai >= len(added.recs) || added.path(ai) != c.to.path {
					return fmt.Errorf("%s: the trees changed while they were read", c.to.path)
				}
				if k := added.recs[ai].pair; k >= 0 {
					c.from = deleted.entry(int(k))
				}
				ai++
			case !c.to.present():
				if di >= len(deleted.recs) || deleted.path(di) != c.from.path {
					return fmt.Errorf("%s: the trees changed while they were read", c.from.path)
				}
				renamed := deleted.recs[di].pair != -1
				di++
				if renamed {
					return nil
				}
			}
			return each(c)
		})
	}
	workers := min(runtime.GOMAXPROCS(0), diffWorkers, n/minPerWorker+1)
	if workers <= 1 || !st.own {
		return walk(ctx, st.s, func(c treeChange) error {
			f, err := changeFile(ctx, st.s, c, r.ChangedLines)
			if err != nil {
				return err
			}
			if err := fn(&f); err != nil {
				return callerError{err}
			}
			return nil
		})
	}
	return r.emitParallel(ctx, st, workers, walk, fn)
}

// job is a change being diffed; done is closed when f or err is set.
type job struct {
	c    treeChange
	f    File
	err  error
	done chan struct{}
}

// emitParallel diffs the changes walk gives on workers goroutines, which
// read objects one at a time through the diff's storage, and hands the
// files to fn in the walk's order, with at most diffWindow files a worker
// in flight.
func (r *Repo) emitParallel(ctx context.Context, st *storage, workers int, walk func(context.Context, storer.EncodedObjectStorer, func(treeChange) error) error, fn func(*File) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// One storage for the walk and the workers: each storage keeps the
	// pack's index and a map of its offsets, tens of MB in a large
	// repository.
	objects := &lockedObjects{EncodedObjectStorer: st.s}
	window := diffWindow * workers
	jobs, order := make(chan *job, window), make(chan *job, window)
	var walkErr error
	walked := make(chan struct{})
	go func() {
		defer close(walked)
		defer close(order)
		defer close(jobs)
		defer recovered(&walkErr)
		walkErr = walk(ctx, objects, func(c treeChange) error {
			j := &job{c: c, done: make(chan struct{})}
			select {
			case order <- j:
			case <-ctx.Done():
				return ctx.Err()
			}
			select {
			case jobs <- j:
			case <-ctx.Done():
				j.err = ctx.Err()
				close(j.done)
				return ctx.Err()
			}
			return nil
		})
	}()
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			for j := range jobs {
				if err := ctx.Err(); err != nil {
					j.err = err
				} else {
					j.f, j.err = changeFile(ctx, objects, j.c, r.ChangedLines)
				}
				close(j.done)
			}
		}()
	}
	var first error
	for j := range order {
		if first != nil {
			continue // draining
		}
		<-j.done
		if j.err == nil {
			if err := fn(&j.f); err != nil {
				j.err = callerError{err}
			}
		}
		if j.err != nil {
			first = j.err
			cancel()
		}
		j.f = File{}
	}
	<-walked
	wg.Wait()
	if first != nil {
		return first
	}
	return walkErr
}

// diffWorkers bounds the goroutines of a revision diff; each takes at least
// minPerWorker files. diffWindow is the files in flight for each.
const (
	diffWorkers  = 4
	minPerWorker = 32
	diffWindow   = 4
)

// kindOf is a mode's kind: a file (executable or not), a link, a submodule.
func kindOf(m filemode.FileMode) filemode.FileMode {
	if isRegular(m) {
		return filemode.Regular
	}
	return m
}

// storage is the object storage of one diff.
type storage struct {
	s     storer.EncodedObjectStorer
	cache cache.Object
	own   bool // opened for the diff, and closed after it
}

// storage opens the repository's objects again, keeping pack files open,
// reading an object larger than MaxDiffBytes as a stream (go-git reads
// others whole), with a cache of objects that storages share (it locks;
// the objects in it are not changed once read). Without a file system
// behind the repository it is the repository's own storage.
func (r *Repo) storage(c cache.Object) *storage {
	if fs, ok := r.repo.Storer.(*filesystem.Storage); ok {
		s := filesystem.NewStorageWithOptions(fs.Filesystem(), c, filesystem.Options{KeepDescriptors: true, LargeObjectThreshold: MaxDiffBytes})
		return &storage{s: newPackStore(s, r.bases), cache: c, own: true}
	}
	return &storage{s: r.repo.Storer}
}

func (s *storage) close() {
	if c, ok := s.s.(io.Closer); ok && s.own {
		c.Close()
	}
}

// changeFile turns one change of the trees into a File with git's hunks.
func changeFile(ctx context.Context, s storer.EncodedObjectStorer, c treeChange, changed bool) (_ File, err error) {
	defer recovered(&err) // it runs on the diff's own goroutines
	if err := ctx.Err(); err != nil {
		return File{}, err
	}
	var f File
	if c.from.present() {
		f.OldPath, f.OldMode = c.from.path, uint32(c.from.mode)
	}
	if c.to.present() {
		f.NewPath, f.NewMode = c.to.path, uint32(c.to.mode)
	}
	f.Status = status(f.OldPath, f.NewPath)
	if f.OldPath != "" && f.NewPath != "" && c.from.hash == c.to.hash {
		return f, nil // a pure rename or a mode change: no content to diff
	}
	var old, cur blob
	if f.OldPath != "" {
		if old, err = entryBlob(s, c.from.mode, c.from.hash); err != nil {
			return f, fmt.Errorf("%s: %w", f.OldPath, err)
		}
	}
	if f.NewPath != "" {
		if cur, err = entryBlob(s, c.to.mode, c.to.hash); err != nil {
			return f, fmt.Errorf("%s: %w", f.NewPath, err)
		}
	}
	if err := diffFile(ctx, &f, old, cur, changed); err != nil {
		return f, fmt.Errorf("%s: %w", f.Path(), err)
	}
	return f, nil
}

// entryBlob is the content of a tree entry as git diffs it: a file's or a
// symbolic link's blob (the link's target), or a submodule's commit as
// git writes it ("Subproject commit …").
func entryBlob(s storer.EncodedObjectStorer, mode filemode.FileMode, h plumbing.Hash) (blob, error) {
	if mode == filemode.Submodule {
		return textBlob(subproject(h)), nil
	}
	o, err := s.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return blob{}, err
	}
	if p, ok := o.(*packedObject); ok {
		return blob{present: true, size: int64(len(p.data)), data: p.data}, nil
	}
	return readBlob(o.Size(), o.Reader)
}

// subproject is a submodule's side of a diff, as git writes it.
func subproject(h plumbing.Hash) string { return "Subproject commit " + h.String() + "\n" }

func textBlob(s string) blob { return blob{present: true, size: int64(len(s)), data: []byte(s)} }

func status(oldPath, newPath string) Status {
	switch {
	case oldPath == "":
		return Added
	case newPath == "":
		return Deleted
	case oldPath != newPath:
		return Renamed
	}
	return Modified
}

// WorkingTree returns what changed in the working tree and the index
// against HEAD, staged or not, as git diff HEAD shows it. Untracked files are
// not part of it (git diff leaves them out too); a file deleted and another
// added with the same content are a rename.
func (r *Repo) WorkingTree(ctx context.Context) ([]File, error) {
	return r.WorkingTreeSince(ctx, "")
}

// WorkingTreeSince returns what changed in the working tree since the merge
// base of rev and HEAD — the commits made since and the work not committed
// yet — as git diff --merge-base REV shows it. rev "" is HEAD (see
// [Repo.WorkingTree]). Untracked files are left out, as git does.
//
// Files are read as git reads them: a symbolic link is a link (its target's
// text is its content; what it points to is never read), a path under a
// link to a directory is not in the working tree, and a submodule's side is
// the commit checked out in it. Nothing outside the working tree is read.
func (r *Repo) WorkingTreeSince(ctx context.Context, rev string) (_ []File, err error) {
	defer recovered(&err)
	tree, paths, err := r.workingChanges(ctx, rev)
	if err != nil {
		return nil, err
	}
	st2 := r.storage(cache.NewObjectLRU(8 * cache.MiByte))
	defer func() { st2.close() }()
	if remote := r.promisor(); remote != "" {
		// A partial clone's: the contents the diff reads, fetched at once.
		var contents []plumbing.Hash
		for p := range paths {
			if e, err := tree.FindEntry(p); err == nil && e.Mode.IsFile() {
				contents = append(contents, e.Hash)
			}
		}
		fetched, err := r.fetchMissing(ctx, st2.s, remote, contents)
		if err != nil {
			return nil, fmt.Errorf("diff of %s and the working tree: %w", rev, err)
		}
		if fetched > 0 { // in packs the storage has not mapped
			st2.close()
			st2 = r.storage(cache.NewObjectLRU(8 * cache.MiByte))
		}
	}
	var files []File
	// the hashes of added and deleted files, for renames
	addedHash, deletedHash := map[string]plumbing.Hash{}, map[string]plumbing.Hash{}
	for p, onDisk := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if files, err = r.workingFile(ctx, st2.s, tree, p, !onDisk, files, addedHash, deletedHash); err != nil {
			return nil, err
		}
	}
	return r.similarWorking(ctx, st2.s, pairRenames(files, addedHash, deletedHash), deletedHash)
}

// similarWorking pairs the deleted and added files that pairRenames left
// (an addition git tracks: staged) whose contents are alike, as git diff
// HEAD pairs them (git mv, then an edit): a rename, with the hunks of its
// edit.
func (r *Repo) similarWorking(ctx context.Context, s storer.EncodedObjectStorer, files []File, deletedHash map[string]plumbing.Hash) ([]File, error) {
	added, deleted := &sides{}, &sides{}
	var at, dt []int // their places in files
	for i, f := range files {
		switch {
		case f.Status == Added && isRegular(filemode.FileMode(f.NewMode)):
			added.add(entry{path: f.NewPath, mode: filemode.FileMode(f.NewMode)})
			at = append(at, i)
		case f.Status == Deleted && isRegular(filemode.FileMode(f.OldMode)):
			deleted.add(entry{path: f.OldPath, mode: filemode.FileMode(f.OldMode), hash: deletedHash[f.OldPath]})
			dt = append(dt, i)
		}
	}
	if len(at) == 0 || len(dt) == 0 {
		return files, nil
	}
	l := &renameLoader{ctx: ctx, s: s, work: added, read: func(p string) ([]byte, error) {
		w, err := r.readWorking(r.top, p, 0, plumbing.ZeroHash)
		if err != nil || !isRegular(filemode.FileMode(w.mode)) {
			return nil, err
		}
		return w.blob.data, nil // nil past MaxDiffBytes: not compared
	}}
	if err := pairSimilar(l, added, deleted); err != nil {
		return nil, err
	}
	drop := map[int]bool{}
	for k, rec := range added.recs {
		if rec.pair < 0 {
			continue
		}
		a, d := &files[at[k]], &files[dt[rec.pair]]
		old, err := entryBlob(s, filemode.FileMode(d.OldMode), deletedHash[d.OldPath])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.OldPath, err)
		}
		w, err := r.readWorking(r.top, a.NewPath, 0, plumbing.ZeroHash)
		if err != nil {
			return nil, err
		}
		f := File{Status: Renamed, OldPath: d.OldPath, NewPath: a.NewPath, OldMode: d.OldMode, NewMode: a.NewMode}
		if err := diffFile(ctx, &f, old, w.blob, r.ChangedLines); err != nil {
			return nil, fmt.Errorf("%s: %w", a.NewPath, err)
		}
		*a = f
		drop[dt[rec.pair]] = true
	}
	if len(drop) == 0 {
		return files, nil
	}
	out := files[:0]
	for i, f := range files {
		if !drop[i] {
			out = append(out, f)
		}
	}
	sortFiles(out)
	return out, nil
}

// workingChanges returns the tree the working tree is compared with (the
// merge base of rev and HEAD; HEAD's for rev "" or "HEAD") and the paths
// that may differ: those git's status shows changed (untracked left out),
// those changed between the tree and HEAD, and the submodules; a path is
// false when the index no longer has it and its file is untracked (read
// as deleted).
func (r *Repo) workingChanges(ctx context.Context, rev string) (*object.Tree, map[string]bool, error) {
	wt, err := r.repo.Worktree()
	if err != nil {
		return nil, nil, fmt.Errorf("the working tree: %w", err)
	}
	st, err := wt.Status()
	if err != nil {
		return nil, nil, fmt.Errorf("status of the working tree: %w", err)
	}
	head, err := r.Commit("HEAD")
	if err != nil {
		return nil, nil, err
	}
	headTree, err := head.Tree()
	if err != nil {
		return nil, nil, err
	}
	tree := headTree
	paths := map[string]bool{}
	for p, s := range st {
		if s.Staging == git.Untracked {
			// A file HEAD has that the index no longer has (git rm
			// --cached, or git mv and a new file of the old name): its
			// file on disk is untracked, and git diff HEAD shows it
			// deleted (false: not read from disk).
			if _, err := headTree.FindEntry(p); err == nil {
				paths[p] = false
			}
			continue
		}
		if s.Staging == git.Unmodified && s.Worktree == git.Unmodified {
			continue
		}
		paths[p] = true
	}
	if rev != "" && rev != "HEAD" {
		if tree, err = r.mergeBaseTree(head, "HEAD", rev, nil); err != nil {
			return nil, nil, err
		}
		if err := walkTrees(ctx, r.repo.Storer, tree.Hash, headTree.Hash, func(c treeChange) error {
			if _, ok := paths[c.path()]; !ok {
				paths[c.path()] = true
			}
			return nil
		}); err != nil {
			return nil, nil, fmt.Errorf("diff of %s...HEAD: %w", rev, err)
		}
	}
	// go-git's status does not look into submodules: a submodule checked
	// out at another commit than the tree's is a change too.
	if err := gitlinks(ctx, tree, func(p string) {
		if _, ok := paths[p]; !ok {
			paths[p] = true
		}
	}); err != nil {
		return nil, nil, err
	}
	return tree, paths, nil
}

// workingFile appends to files how path p changed from tree to the
// working tree (nothing when it did not; a deletion and an addition when a
// file became a link or a link a file), noting the hashes of added and
// deleted files for renames; untracked: p's file is not git's (taken out
// of the index), as if it were not there.
func (r *Repo) workingFile(ctx context.Context, s storer.EncodedObjectStorer, tree *object.Tree, p string, untracked bool, files []File, addedHash, deletedHash map[string]plumbing.Hash) ([]File, error) {
	var old blob
	var oldMode uint32
	var oldHash plumbing.Hash
	if entry, err := tree.FindEntry(p); err == nil && (entry.Mode.IsFile() || entry.Mode == filemode.Submodule) {
		oldMode, oldHash = uint32(entry.Mode), entry.Hash
		if old, err = entryBlob(s, entry.Mode, entry.Hash); err != nil {
			return files, fmt.Errorf("%s: %w", p, err)
		}
	}
	var w working
	if !untracked { // an untracked file is not git's: as if it were not there
		var err error
		if w, err = r.readWorking(r.top, p, filemode.FileMode(oldMode), oldHash); err != nil {
			return files, err
		}
	}
	if oldMode == 0 && w.mode == 0 {
		return files, nil // added to the index, then deleted
	}
	if oldMode != 0 && w.mode != 0 && kindOf(filemode.FileMode(oldMode)) != kindOf(filemode.FileMode(w.mode)) {
		// a file became a link, or a link a file: git shows a
		// deletion and an addition
		gone := File{Status: Deleted, OldPath: p, OldMode: oldMode}
		if err := diffFile(ctx, &gone, old, blob{}, r.ChangedLines); err != nil {
			return files, fmt.Errorf("%s: %w", p, err)
		}
		files = append(files, gone)
		deletedHash[p] = oldHash
		old, oldMode = blob{}, 0
	}
	f := File{Status: Modified, OldPath: p, NewPath: p, OldMode: oldMode, NewMode: w.mode}
	switch {
	case oldMode == 0:
		f.Status, f.OldPath = Added, ""
		addedHash[p] = w.hash
	case w.mode == 0:
		f.Status, f.NewPath = Deleted, ""
		deletedHash[p] = oldHash
	case w.hash == oldHash && oldMode == w.mode:
		return files, nil
	}
	if w.hash == oldHash && oldMode != 0 && w.mode != 0 {
		return append(files, f), nil // the mode alone changed
	}
	if err := diffFile(ctx, &f, old, w.blob, r.ChangedLines); err != nil {
		return files, fmt.Errorf("%s: %w", p, err)
	}
	return append(files, f), nil
}

// gitlinks gives the paths of tree's submodules.
func gitlinks(ctx context.Context, tree *object.Tree, fn func(path string)) error {
	w := object.NewTreeWalker(tree, true, nil)
	defer w.Close()
	for n := 0; ; n++ {
		if n&0x3ff == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		name, e, err := w.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if e.Mode == filemode.Submodule {
			fn(name)
		}
	}
}

// mergeBaseTree returns the tree of the merge base of rev and the commit
// head (named headName), reading commits through s when it is not nil.
func (r *Repo) mergeBaseTree(head *object.Commit, headName, rev string, s storer.EncodedObjectStorer) (*object.Tree, error) {
	rc, err := r.Commit(rev)
	if err != nil {
		return nil, err
	}
	if s != nil { // the walk reads commits through this storage
		if rc, err = object.GetCommit(s, rc.Hash); err != nil {
			return nil, err
		}
	}
	bases, err := head.MergeBase(rc)
	if err != nil {
		if r.shallow() {
			return nil, repoErrorf(ErrShallow, "no merge base of %s and %s in this shallow clone: fetch the full history (git fetch --unshallow, or fetch-depth: 0 in actions/checkout)", rev, headName)
		}
		return nil, fmt.Errorf("merge base of %s and %s: %w", rev, headName, err)
	}
	if len(bases) == 0 {
		return nil, repoErrorf(ErrNoMergeBase, "%s and %s have no common ancestor: diff two revisions of the same history", rev, headName)
	}
	return bases[0].Tree()
}

// pairRenames joins a deleted file and an added one with the same content
// (the same blob hash) into a rename, as git pairs exact renames: each
// addition, in path order, with the first unused deletion of its content
// in path order, one of the same base name preferred; a link or a
// submodule only with one of its own mode. files is in path order after.
func pairRenames(files []File, addedHash, deletedHash map[string]plumbing.Hash) []File {
	sortFiles(files)                     // the paths come from a map: the pairs must not
	deleted := map[plumbing.Hash][]int{} // content → deleted files, in path order
	for i := range files {
		if f := &files[i]; f.Status == Deleted {
			h := deletedHash[f.OldPath]
			deleted[h] = append(deleted[h], i)
		}
	}
	if len(deleted) == 0 {
		return files
	}
	drop := map[int]bool{}
	for j := range files {
		a := &files[j]
		if a.Status != Added {
			continue
		}
		h := addedHash[a.NewPath]
		dels := deleted[h]
		for len(dels) > 0 && files[dels[0]].Status != Deleted {
			dels = dels[1:] // renamed already: most often the first ones
		}
		deleted[h] = dels
		best, bestScore := -1, 0
		for _, i := range dels {
			d := &files[i]
			if d.Status != Deleted { // renamed already
				continue
			}
			score := exactScore(d.OldPath, filemode.FileMode(d.OldMode), a.NewPath, filemode.FileMode(a.NewMode))
			if score > bestScore {
				best, bestScore = i, score
				if score == 2 {
					break
				}
			}
		}
		if best < 0 {
			continue
		}
		d := &files[best]
		d.Status, d.NewPath, d.NewMode, d.Hunks, d.Binary, d.Large, d.Changed = Renamed, a.NewPath, a.NewMode, nil, false, nil, nil
		drop[j] = true
	}
	if len(drop) == 0 {
		return files
	}
	out := files[:0]
	for i, f := range files {
		if !drop[i] {
			out = append(out, f)
		}
	}
	sortFiles(out) // a rename sorts by its new path
	return out
}

// working is a working-tree file as git sees it: its mode (0 when it is
// not there), its content and its blob hash.
type working struct {
	mode uint32
	blob blob
	hash plumbing.Hash
}

// readWorking reads working-tree file p (slash-separated) as git reads it,
// through root: a path with a symbolic link or a file among its leading
// directories is not there (git does not follow them); a symbolic link's
// content is its target; a directory is a submodule's checkout when the
// tree has one there (its side is the commit checked out), else nothing;
// a FIFO, a device or a socket is not there either. old and oldHash are
// the tree's mode and hash.
func (r *Repo) readWorking(root *os.Root, p string, old filemode.FileMode, oldHash plumbing.Hash) (working, error) {
	name := filepath.FromSlash(p)
	for i := 0; i < len(p); i++ {
		if p[i] != '/' {
			continue
		}
		fi, err := root.Lstat(filepath.FromSlash(p[:i]))
		if err != nil || !fi.IsDir() {
			if err != nil && !isGone(err) {
				return working{}, fmt.Errorf("%s: %w", p, err)
			}
			return working{}, nil // beyond a symbolic link, or not there
		}
	}
	fi, err := root.Lstat(name)
	if err != nil {
		if isGone(err) {
			return working{}, nil
		}
		return working{}, fmt.Errorf("%s: %w", p, err)
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		target, err := root.Readlink(name)
		if err != nil {
			return working{}, fmt.Errorf("%s: %w", p, err)
		}
		b := textBlob(filepath.ToSlash(target))
		return working{mode: uint32(filemode.Symlink), blob: b, hash: plumbing.ComputeHash(plumbing.BlobObject, b.data)}, nil
	case fi.IsDir():
		if old != filemode.Submodule {
			return working{}, nil
		}
		h, ok := r.submoduleHead(p)
		if !ok {
			// not checked out: git shows no change
			return working{mode: uint32(filemode.Submodule), hash: oldHash}, nil
		}
		return working{mode: uint32(filemode.Submodule), blob: textBlob(subproject(h)), hash: h}, nil
	case !fi.Mode().IsRegular():
		return working{}, nil
	}
	mode := filemode.Regular
	if fi.Mode()&0o111 != 0 {
		mode = filemode.Executable
	}
	open := func() (io.ReadCloser, error) {
		f, err := root.Open(name)
		if err != nil {
			return nil, err
		}
		if now, err := f.Stat(); err != nil || !os.SameFile(fi, now) {
			f.Close()
			return nil, fmt.Errorf("replaced while it was read")
		}
		return f, nil
	}
	b, err := readBlob(fi.Size(), open)
	if err != nil {
		return working{}, fmt.Errorf("%s: %w", p, err)
	}
	w := working{mode: uint32(mode), blob: b}
	if b.data != nil {
		w.hash = plumbing.ComputeHash(plumbing.BlobObject, b.data)
	} else if w.hash, err = hashStream(b); err != nil {
		return working{}, fmt.Errorf("%s: %w", p, err)
	}
	return w, nil
}

// hashStream is the git blob hash of a side read as a stream.
func hashStream(b blob) (plumbing.Hash, error) {
	rd, err := b.open()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer rd.Close()
	// the size is needed first: read it through once to count it
	n, err := io.Copy(io.Discard, rd)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	rd2, err := b.open()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer rd2.Close()
	h := plumbing.NewHasher(plumbing.BlobObject, n)
	if m, err := io.Copy(h, rd2); err != nil || m != n {
		if err == nil {
			err = errors.New("changed while it was read")
		}
		return plumbing.ZeroHash, err
	}
	return h.Sum(), nil
}

func isGone(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// submoduleHead is the commit checked out in the submodule at p, when it
// is checked out: its .git (a directory, or a file naming one) must lie
// inside the working tree, and is read through it.
func (r *Repo) submoduleHead(p string) (plumbing.Hash, bool) {
	dir := path.Clean(p)
	gitPath := path.Join(dir, git.GitDirName)
	fi, err := r.top.Lstat(filepath.FromSlash(gitPath))
	if err != nil {
		return plumbing.ZeroHash, false
	}
	gitDir := gitPath
	if fi.Mode().IsRegular() {
		b, err := readSmall(r.top, filepath.FromSlash(gitPath))
		if err != nil {
			return plumbing.ZeroHash, false
		}
		line, _, _ := strings.Cut(string(b), "\n")
		target, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
		if !ok {
			return plumbing.ZeroHash, false
		}
		target = filepath.ToSlash(strings.TrimSpace(target))
		if path.IsAbs(target) {
			rel, err := filepath.Rel(r.Root, filepath.FromSlash(target))
			if err != nil {
				return plumbing.ZeroHash, false
			}
			target = filepath.ToSlash(rel)
		} else {
			target = path.Join(dir, target)
		}
		gitDir = path.Clean(target)
	} else if !fi.IsDir() {
		return plumbing.ZeroHash, false
	}
	if gitDir == ".." || strings.HasPrefix(gitDir, "../") {
		return plumbing.ZeroHash, false // outside the working tree
	}
	dot, err := r.top.OpenRoot(filepath.FromSlash(gitDir)) // a link out is refused
	if err != nil {
		return plumbing.ZeroHash, false
	}
	defer dot.Close()
	var fs billy.Filesystem = rootFS{r: dot, base: filepath.Join(r.Root, filepath.FromSlash(gitDir))}
	if b, err := readSmall(dot, "commondir"); err == nil {
		// a linked worktree inside a submodule: its common directory
		// must lie inside the working tree too
		common := path.Clean(path.Join(gitDir, filepath.ToSlash(strings.TrimSpace(string(b)))))
		if path.IsAbs(common) || common == ".." || strings.HasPrefix(common, "../") {
			return plumbing.ZeroHash, false
		}
		c, err := r.top.OpenRoot(filepath.FromSlash(common))
		if err != nil {
			return plumbing.ZeroHash, false
		}
		defer c.Close()
		fs = dotgit.NewRepositoryFilesystem(fs, rootFS{r: c, base: filepath.Join(r.Root, filepath.FromSlash(common))})
	}
	sub, err := git.Open(filesystem.NewStorage(fs, cache.NewObjectLRU(cache.MiByte)), nil)
	if err != nil {
		return plumbing.ZeroHash, false
	}
	ref, err := sub.Head()
	if err != nil {
		return plumbing.ZeroHash, false
	}
	return ref.Hash(), true
}

// sortFiles puts files in path order; at one path (a file that became a
// link, or a link a file) the deletion comes first, as git shows it.
func sortFiles(files []File) {
	sort.Slice(files, func(i, j int) bool {
		if a, b := files[i].Path(), files[j].Path(); a != b {
			return a < b
		}
		return files[i].Status == Deleted && files[j].Status != Deleted
	})
}
