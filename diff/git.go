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
	"sync/atomic"
	"syscall"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

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
func (r *Repo) diffTrees(ctx context.Context, base, head, sep string, fromTree func(*object.Commit, *storage) (*object.Tree, error)) (_ []File, err error) {
	defer recovered(&err)
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
	changes = splitTypeChanges(changes)
	files, err := r.changeFiles(ctx, changes, st)
	if err != nil {
		return nil, fmt.Errorf("diff of %s%s%s: %w", base, sep, head, err)
	}
	sortFiles(files)
	return files, nil
}

// splitTypeChanges makes a path that changed its kind (a file became a
// symbolic link or a submodule, or the other way) a deletion and an
// addition, as git shows it.
func splitTypeChanges(changes object.Changes) object.Changes {
	var out object.Changes
	for _, c := range changes {
		if c.From.Name != "" && c.To.Name != "" && kindOf(c.From.TreeEntry.Mode) != kindOf(c.To.TreeEntry.Mode) {
			out = append(out, &object.Change{From: c.From}, &object.Change{To: c.To})
			continue
		}
		out = append(out, c)
	}
	return out
}

// kindOf is a mode's kind: a file (executable or not), a link, a submodule.
func kindOf(m filemode.FileMode) filemode.FileMode {
	if m == filemode.Executable || m == filemode.Deprecated {
		return filemode.Regular
	}
	return m
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
// reading an object larger than MaxDiffBytes as a stream (go-git reads
// others whole), with a cache of objects that goroutines share (it locks; the objects in
// it are not changed once read): a delta's base read by one is there for
// the others. Without a file system behind the repository it is the
// repository's own storage.
func (r *Repo) storage(c cache.Object) *storage {
	if fs, ok := r.repo.Storer.(*filesystem.Storage); ok {
		s := filesystem.NewStorageWithOptions(fs.Filesystem(), c, filesystem.Options{KeepDescriptors: true, LargeObjectThreshold: MaxDiffBytes})
		return &storage{s: s, cache: c, own: true}
	}
	return &storage{s: r.repo.Storer}
}

func (s *storage) close() {
	if c, ok := s.s.(io.Closer); ok && s.own {
		c.Close()
	}
}

// changeFile turns one tree change into a File with git's hunks.
func changeFile(ctx context.Context, s storer.EncodedObjectStorer, c *object.Change, changed bool) (_ File, err error) {
	defer recovered(&err) // it runs on the diff's own goroutines
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
	var old, cur blob
	if f.OldPath != "" {
		if old, err = entryBlob(s, c.From.TreeEntry); err != nil {
			return f, fmt.Errorf("%s: %w", f.OldPath, err)
		}
	}
	if f.NewPath != "" {
		if cur, err = entryBlob(s, c.To.TreeEntry); err != nil {
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
func entryBlob(s storer.EncodedObjectStorer, e object.TreeEntry) (blob, error) {
	if e.Mode == filemode.Submodule {
		return textBlob(subproject(e.Hash)), nil
	}
	b, err := object.GetBlob(s, e.Hash)
	if err != nil {
		return blob{}, err
	}
	return readBlob(b.Size, b.Reader)
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
	// go-git's status does not look into submodules: a submodule checked
	// out at another commit than the tree's is a change too.
	if err := gitlinks(ctx, tree, func(p string) { paths[p] = true }); err != nil {
		return nil, err
	}
	root := r.top
	st2 := r.storage(cache.NewObjectLRU(8 * cache.MiByte))
	defer st2.close()
	var files []File
	// the hashes of added and deleted files, for renames
	addedHash, deletedHash := map[string]plumbing.Hash{}, map[string]plumbing.Hash{}
	for p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var old blob
		var oldMode uint32
		var oldHash plumbing.Hash
		if entry, err := tree.FindEntry(p); err == nil && (entry.Mode.IsFile() || entry.Mode == filemode.Submodule) {
			oldMode, oldHash = uint32(entry.Mode), entry.Hash
			if old, err = entryBlob(st2.s, *entry); err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
		}
		w, err := r.readWorking(root, p, filemode.FileMode(oldMode), oldHash)
		if err != nil {
			return nil, err
		}
		if oldMode == 0 && w.mode == 0 {
			continue // added to the index, then deleted
		}
		if oldMode != 0 && w.mode != 0 && kindOf(filemode.FileMode(oldMode)) != kindOf(filemode.FileMode(w.mode)) {
			// a file became a link, or a link a file: git shows a
			// deletion and an addition
			gone := File{Status: Deleted, OldPath: p, OldMode: oldMode}
			if err := diffFile(ctx, &gone, old, blob{}, r.ChangedLines); err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
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
			continue
		}
		if w.hash == oldHash && oldMode != 0 && w.mode != 0 {
			files = append(files, f) // the mode alone changed
			continue
		}
		if err := diffFile(ctx, &f, old, w.blob, r.ChangedLines); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		files = append(files, f)
	}
	files = pairRenames(files, addedHash, deletedHash)
	sortFiles(files)
	return files, nil
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
// (the same blob hash) into a rename.
func pairRenames(files []File, addedHash, deletedHash map[string]plumbing.Hash) []File {
	added := map[plumbing.Hash]int{} // content → index of an added file
	for i, f := range files {
		if f.Status == Added {
			added[addedHash[f.NewPath]] = i
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
		j, ok := added[deletedHash[f.OldPath]]
		if !ok || drop[j] {
			continue
		}
		f.Status, f.NewPath, f.NewMode, f.Hunks, f.Binary, f.Large, f.Changed = Renamed, files[j].NewPath, files[j].NewMode, nil, false, nil, nil
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

func sortFiles(files []File) {
	sort.Slice(files, func(i, j int) bool { return files[i].Path() < files[j].Path() })
}
