package diff

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/recap-dev/recap/internal/content"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// LineDiffTimeout bounds the line diff of one working-tree file: two large,
// wholly different files cost go-git's diff O(N·D). Past it the diff is
// coarser (whole blocks replaced), never wrong.
const LineDiffTimeout = 2 * time.Second

// renameScore is git's default similarity for a rename (50%).
const renameScore = 50

// Revisions returns what changed from the merge base of base and head to
// head, as git diff base...head shows it (renames detected as git does by
// default). head "" is HEAD.
func (r *Repo) Revisions(ctx context.Context, base, head string) ([]File, error) {
	return r.diffTrees(ctx, base, head, "...", func(hc *object.Commit, st *storage) (*object.Tree, error) {
		return r.mergeBaseTree(hc, head, base, st.s)
	})
}

// Between returns what changed from revision from to revision to, as git
// diff from to shows it (no merge base; renames detected).
func (r *Repo) Between(ctx context.Context, from, to string) ([]File, error) {
	return r.diffTrees(ctx, from, to, " ", func(_ *object.Commit, st *storage) (*object.Tree, error) {
		fc, err := r.Commit(from)
		if err != nil {
			return nil, err
		}
		if fc, err = object.GetCommit(st.s, fc.Hash); err != nil {
			return nil, err
		}
		return fc.Tree()
	})
}

// diffTrees diffs the tree fromTree gives (for head's commit) to head's.
func (r *Repo) diffTrees(ctx context.Context, base, head, sep string, fromTree func(*object.Commit, *storage) (*object.Tree, error)) ([]File, error) {
	if head == "" {
		head = "HEAD"
	}
	// Objects are read through storages of the diff's own, which keep the
	// pack files open (go-git's default opens a pack for every object read).
	st := r.storage(r.objects)
	defer st.close()
	hc, err := r.Commit(head)
	if err != nil {
		return nil, err
	}
	if hc, err = object.GetCommit(st.s, hc.Hash); err != nil {
		return nil, err
	}
	from, err := fromTree(hc, st)
	if err != nil {
		return nil, err
	}
	to, err := hc.Tree()
	if err != nil {
		return nil, err
	}
	changes, err := object.DiffTreeWithOptions(ctx, from, to, &object.DiffTreeOptions{DetectRenames: true, RenameScore: renameScore})
	if err != nil {
		return nil, fmt.Errorf("diff of %s%s%s: %w", base, sep, head, err)
	}
	files, err := r.changeFiles(ctx, changes, st)
	if err != nil {
		return nil, fmt.Errorf("diff of %s%s%s: %w", base, sep, head, err)
	}
	sortFiles(files)
	return files, nil
}

// changeFiles diffs the changed files on up to diffWorkers goroutines, each
// reading blobs through a storage of its own (go-git's are not safe to
// share, and their caches are small next to the work).
func (r *Repo) changeFiles(ctx context.Context, changes object.Changes, st *storage) ([]File, error) {
	files := make([]File, len(changes))
	workers := min(runtime.GOMAXPROCS(0), diffWorkers, len(changes)/minPerWorker+1)
	if workers <= 1 || !st.own {
		for i, c := range changes {
			var err error
			if files[i], err = changeFile(ctx, st.s, c, r.ChangedLines); err != nil {
				return nil, err
			}
		}
		return files, nil
	}
	var (
		next   atomic.Int64
		wg     sync.WaitGroup
		errMu  sync.Mutex
		first  error
		failed atomic.Bool
	)
	work := func(s storer.EncodedObjectStorer) {
		defer wg.Done()
		for !failed.Load() {
			i := int(next.Add(1)) - 1
			if i >= len(changes) {
				return
			}
			f, err := changeFile(ctx, s, changes[i], r.ChangedLines)
			if err != nil {
				errMu.Lock()
				if first == nil {
					first = err
				}
				errMu.Unlock()
				failed.Store(true)
				return
			}
			files[i] = f
		}
	}
	wg.Add(workers)
	go work(st.s)
	for range workers - 1 {
		w := r.storage(st.cache)
		go func() {
			defer w.close()
			work(w.s)
		}()
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	return files, nil
}

// diffWorkers bounds the goroutines of a revision diff; each takes at least
// minPerWorker files.
const (
	diffWorkers  = 4
	minPerWorker = 32
)

// storage is an object storage for one goroutine.
type storage struct {
	s     storer.EncodedObjectStorer
	cache cache.Object
	own   bool // opened for the diff, and closed after it
}

// storage opens the repository's objects again, keeping pack files open,
// with a cache of objects that goroutines share (it locks; the objects in
// it are not changed once read): a delta's base read by one is there for
// the others. Without a file system behind the repository it is the
// repository's own storage.
func (r *Repo) storage(c cache.Object) *storage {
	if fs, ok := r.repo.Storer.(*filesystem.Storage); ok {
		s := filesystem.NewStorageWithOptions(fs.Filesystem(), c, filesystem.Options{KeepDescriptors: true})
		return &storage{s: s, cache: c, own: true}
	}
	return &storage{s: r.repo.Storer}
}

func (s *storage) close() {
	if c, ok := s.s.(io.Closer); ok && s.own {
		c.Close()
	}
}

// changeFile turns one tree change into a File with git's hunks, reading
// each side's blob once.
func changeFile(ctx context.Context, s storer.EncodedObjectStorer, c *object.Change, changed bool) (File, error) {
	if err := ctx.Err(); err != nil {
		return File{}, err
	}
	var f File
	if c.From.Name != "" {
		f.OldPath, f.OldMode = c.From.Name, uint32(c.From.TreeEntry.Mode)
	}
	if c.To.Name != "" {
		f.NewPath, f.NewMode = c.To.Name, uint32(c.To.TreeEntry.Mode)
	}
	f.Status = status(f.OldPath, f.NewPath)
	if f.OldPath != "" && f.NewPath != "" && c.From.TreeEntry.Hash == c.To.TreeEntry.Hash {
		return f, nil // a pure rename or a mode change: no content to diff
	}
	// As go-git's patch: a side that is not a file (a submodule) makes
	// both sides empty.
	var old, cur []byte
	if (f.OldPath == "" || c.From.TreeEntry.Mode.IsFile()) && (f.NewPath == "" || c.To.TreeEntry.Mode.IsFile()) {
		var err error
		if f.OldPath != "" {
			if old, err = blobContent(s, c.From.TreeEntry.Hash); err != nil {
				return f, err
			}
		}
		if f.NewPath != "" {
			if cur, err = blobContent(s, c.To.TreeEntry.Hash); err != nil {
				return f, err
			}
		}
	}
	fillText(&f, old, cur, changed, time.Hour) // as git, however long it takes
	return f, nil
}

// blobContent reads a blob whole.
func blobContent(s storer.EncodedObjectStorer, h plumbing.Hash) ([]byte, error) {
	b, err := object.GetBlob(s, h)
	if err != nil {
		return nil, err
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

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
func (r *Repo) WorkingTreeSince(ctx context.Context, rev string) ([]File, error) {
	wt, err := r.repo.Worktree()
	if err != nil {
		return nil, fmt.Errorf("the working tree: %w", err)
	}
	st, err := wt.Status()
	if err != nil {
		return nil, fmt.Errorf("status of the working tree: %w", err)
	}
	head, err := r.Commit("HEAD")
	if err != nil {
		return nil, err
	}
	headTree, err := head.Tree()
	if err != nil {
		return nil, err
	}
	tree := headTree
	paths := map[string]bool{}
	for p, s := range st {
		if s.Staging == git.Untracked || (s.Staging == git.Unmodified && s.Worktree == git.Unmodified) {
			continue
		}
		paths[p] = true
	}
	if rev != "" && rev != "HEAD" {
		if tree, err = r.mergeBaseTree(head, "HEAD", rev, nil); err != nil {
			return nil, err
		}
		changes, err := object.DiffTreeWithOptions(ctx, tree, headTree, nil)
		if err != nil {
			return nil, fmt.Errorf("diff of %s...HEAD: %w", rev, err)
		}
		for _, c := range changes {
			for _, name := range []string{c.From.Name, c.To.Name} {
				if name != "" {
					paths[name] = true
				}
			}
		}
	}
	var files []File
	contents := map[string][]byte{} // of added and deleted files, for renames
	for p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var old, cur []byte
		var oldMode, curMode uint32
		if entry, err := tree.FindEntry(p); err == nil {
			oldMode = uint32(entry.Mode)
			if old, err = blobBytes(tree, p); err != nil {
				return nil, err
			}
		}
		cur, curMode, err = readWorking(r.Root, p)
		if err != nil {
			return nil, err
		}
		if oldMode == 0 && curMode == 0 {
			continue // added to the index, then deleted
		}
		f := File{Status: Modified, OldPath: p, NewPath: p, OldMode: oldMode, NewMode: curMode}
		switch {
		case oldMode == 0:
			f.Status, f.OldPath = Added, ""
			contents[p] = cur
		case curMode == 0:
			f.Status, f.NewPath = Deleted, ""
			contents[p] = old
		case bytes.Equal(old, cur) && oldMode == curMode:
			continue
		}
		fillText(&f, old, cur, r.ChangedLines, LineDiffTimeout)
		files = append(files, f)
	}
	files = pairRenames(files, contents)
	sortFiles(files)
	return files, nil
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

// fillText diffs old and cur into f's hunks, or marks f binary; past
// timeout the line diff is coarser.
func fillText(f *File, old, cur []byte, changed bool, timeout time.Duration) {
	if content.IsBinary(old) || content.IsBinary(cur) {
		f.Binary = !bytes.Equal(old, cur)
		return
	}
	if bytes.Equal(old, cur) {
		return
	}
	var chunks []chunk
	for _, d := range diff.DoWithTimeout(string(old), string(cur), timeout) {
		k := Context
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			k = Add
		case diffmatchpatch.DiffDelete:
			k = Delete
		}
		chunks = append(chunks, chunk{kind: k, text: d.Text})
	}
	f.Hunks = hunksOf(chunks, ContextLines)
	if changed && len(old) > 0 && len(cur) > 0 {
		f.Changed = wsChanged(textLines(string(old)), textLines(string(cur)), []int{})
	}
}

// pairRenames joins a deleted file and an added one with the same content
// into a rename.
func pairRenames(files []File, contents map[string][]byte) []File {
	added := map[string]int{} // content → index of an added file
	for i, f := range files {
		if f.Status == Added {
			added[string(contents[f.NewPath])] = i
		}
	}
	if len(added) == 0 {
		return files
	}
	drop := map[int]bool{}
	for i := range files {
		f := &files[i]
		if f.Status != Deleted {
			continue
		}
		j, ok := added[string(contents[f.OldPath])]
		if !ok || drop[j] {
			continue
		}
		f.Status, f.NewPath, f.NewMode, f.Hunks, f.Binary = Renamed, files[j].NewPath, files[j].NewMode, nil, false
		drop[j] = true
	}
	out := files[:0]
	for i, f := range files {
		if !drop[i] {
			out = append(out, f)
		}
	}
	return out
}

func blobBytes(tree *object.Tree, p string) ([]byte, error) {
	f, err := tree.File(p)
	if err != nil {
		if errors.Is(err, object.ErrFileNotFound) {
			return nil, nil // a submodule or a symlink to a directory: no text
		}
		return nil, err
	}
	rd, err := f.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

// readWorking reads a working-tree file and its git mode; mode 0 when the
// file is gone. A symlink's content is its target, as git stores it.
func readWorking(root, p string) ([]byte, uint32, error) {
	full := filepath.Join(root, filepath.FromSlash(p))
	fi, err := os.Lstat(full)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		target, err := os.Readlink(full)
		return []byte(target), uint32(filemode.Symlink), err
	case fi.IsDir():
		return nil, uint32(filemode.Submodule), nil
	}
	b, err := os.ReadFile(full)
	mode := filemode.Regular
	if fi.Mode()&0o111 != 0 {
		mode = filemode.Executable
	}
	return b, uint32(mode), err
}

func sortFiles(files []File) {
	sort.Slice(files, func(i, j int) bool { return files[i].Path() < files[j].Path() })
}
