package diff

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	fdiff "github.com/go-git/go-git/v5/plumbing/format/diff"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/utils/diff"
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
	if head == "" {
		head = "HEAD"
	}
	hc, err := r.Commit(head)
	if err != nil {
		return nil, err
	}
	from, err := r.mergeBaseTree(hc, head, base)
	if err != nil {
		return nil, err
	}
	to, err := hc.Tree()
	if err != nil {
		return nil, err
	}
	changes, err := object.DiffTreeWithOptions(ctx, from, to, &object.DiffTreeOptions{DetectRenames: true, RenameScore: renameScore})
	if err != nil {
		return nil, fmt.Errorf("diff of %s...%s: %w", base, head, err)
	}
	files := make([]File, 0, len(changes))
	for _, c := range changes {
		f, err := changeFile(ctx, c, r.ChangedLines)
		if err != nil {
			return nil, fmt.Errorf("diff of %s...%s: %w", base, head, err)
		}
		files = append(files, f)
	}
	sortFiles(files)
	return files, nil
}

// changeFile turns one tree change into a File with git's hunks.
func changeFile(ctx context.Context, c *object.Change, changed bool) (File, error) {
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
	p, err := c.PatchContext(ctx)
	if err != nil {
		return f, err
	}
	for _, fp := range p.FilePatches() {
		if fp.IsBinary() {
			f.Binary = true
			continue
		}
		chunks := make([]chunk, 0, len(fp.Chunks()))
		for _, ch := range fp.Chunks() {
			chunks = append(chunks, chunk{kind: chunkKind(ch.Type()), text: ch.Content()})
		}
		f.Hunks = hunksOf(chunks, ContextLines)
	}
	if changed && !f.Binary && f.OldPath != "" && f.NewPath != "" && len(f.Hunks) > 0 {
		from, to, err := c.Files()
		if err != nil {
			return f, err
		}
		old, err := from.Contents()
		if err != nil {
			return f, err
		}
		cur, err := to.Contents()
		if err != nil {
			return f, err
		}
		f.Changed = wsChanged(textLines(old), textLines(cur), []int{})
	}
	return f, nil
}

func chunkKind(op fdiff.Operation) LineKind {
	switch op {
	case fdiff.Add:
		return Add
	case fdiff.Delete:
		return Delete
	}
	return Context
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
		if tree, err = r.mergeBaseTree(head, "HEAD", rev); err != nil {
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
		fillText(&f, old, cur, r.ChangedLines)
		files = append(files, f)
	}
	files = pairRenames(files, contents)
	sortFiles(files)
	return files, nil
}

// mergeBaseTree returns the tree of the merge base of rev and the commit
// head (named headName).
func (r *Repo) mergeBaseTree(head *object.Commit, headName, rev string) (*object.Tree, error) {
	rc, err := r.Commit(rev)
	if err != nil {
		return nil, err
	}
	bases, err := head.MergeBase(rc)
	if err != nil {
		if r.shallow() {
			return nil, fmt.Errorf("no merge base of %s and %s in this shallow clone: fetch the full history (git fetch --unshallow, or fetch-depth: 0 in actions/checkout)", rev, headName)
		}
		return nil, fmt.Errorf("merge base of %s and %s: %w", rev, headName, err)
	}
	if len(bases) == 0 {
		return nil, fmt.Errorf("%s and %s have no common ancestor: diff two revisions of the same history", rev, headName)
	}
	return bases[0].Tree()
}

// fillText diffs old and cur into f's hunks, or marks f binary.
func fillText(f *File, old, cur []byte, changed bool) {
	if isBinary(old) || isBinary(cur) {
		f.Binary = !bytes.Equal(old, cur)
		return
	}
	if bytes.Equal(old, cur) {
		return
	}
	var chunks []chunk
	for _, d := range diff.DoWithTimeout(string(old), string(cur), LineDiffTimeout) {
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

// isBinary decides as git does: a NUL in the first 8,000 bytes.
func isBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0
}

func sortFiles(files []File) {
	sort.Slice(files, func(i, j int) bool { return files[i].Path() < files[j].Path() })
}
