package diff

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// The tree walk: recap compares two trees a directory at a time, in git's
// order, reading each tree object as a stream of entries and descending
// only into the subtrees whose hashes differ. Nothing is held but the
// directories on the way down (a reader of each side's tree at each
// level), and each changed path is handed on as it is found, in the order
// of its path's bytes (git's order of a diff).

// maxTreeDepth bounds the directories the walk descends into, one in
// another (git's core.maxTreeDepth is 2048 by default).
const maxTreeDepth = 4096

// entry is one side of a changed path: its path, mode and object. A zero
// mode is a side where the path is not.
type entry struct {
	path string
	mode filemode.FileMode
	hash plumbing.Hash
}

func (e entry) present() bool { return e.mode != 0 }

// treeChange is a path that differs between the two trees: from is absent for
// an addition, to for a deletion. A path whose kind changed (a file became
// a link or a submodule, or the other way) is handed on as its deletion
// then its addition, as git shows it.
type treeChange struct {
	from, to entry
	// split marks the two halves of a path whose kind changed: they are
	// never taken for a rename.
	split bool
}

func (c treeChange) path() string {
	if c.to.present() {
		return c.to.path
	}
	return c.from.path
}

// treeEntry is an entry of a tree object as it is read.
type treeEntry struct {
	name []byte
	mode filemode.FileMode
	hash plumbing.Hash
}

func (e *treeEntry) isDir() bool { return e.mode == filemode.Dir }

// treeReader reads a tree object's entries one at a time.
type treeReader struct {
	hash plumbing.Hash
	rc   io.ReadCloser
	rd   *bufio.Reader
	cur  treeEntry
	ok   bool // cur is an entry; false once the tree is read
}

// openTree opens tree h for reading; the zero hash is an empty tree.
func openTree(s storer.EncodedObjectStorer, h plumbing.Hash) (*treeReader, error) {
	t := &treeReader{hash: h}
	if h.IsZero() {
		return t, nil
	}
	o, err := s.EncodedObject(plumbing.TreeObject, h)
	if err != nil {
		return nil, fmt.Errorf("tree %s: %w", h, err)
	}
	if t.rc, err = o.Reader(); err != nil {
		return nil, fmt.Errorf("tree %s: %w", h, err)
	}
	t.rd = bufio.NewReaderSize(t.rc, 4096)
	return t, t.next()
}

func (t *treeReader) close() {
	if t.rc != nil {
		t.rc.Close()
	}
}

// next reads the next entry: "MODE NAME\0" and the object's 20 bytes.
func (t *treeReader) next() error {
	t.ok = false
	if t.rd == nil {
		return nil
	}
	mode, err := t.rd.ReadSlice(' ')
	if err == io.EOF && len(mode) == 0 {
		return nil
	}
	if err != nil || len(mode) < 2 || len(mode) > 8 {
		return t.malformed("an entry's mode")
	}
	m, err := strconv.ParseUint(string(mode[:len(mode)-1]), 8, 32)
	if err != nil || m == 0 {
		return t.malformed("an entry's mode")
	}
	t.cur.mode = filemode.FileMode(m)
	name, err := t.rd.ReadSlice(0)
	if err == bufio.ErrBufferFull {
		// a name longer than the buffer: read it whole
		long := append([]byte(nil), name...)
		rest, err := t.rd.ReadBytes(0)
		if err != nil {
			return t.malformed("an entry's name")
		}
		name = append(long, rest...)
	} else if err != nil {
		return t.malformed("an entry's name")
	}
	name = name[:len(name)-1]
	if len(name) == 0 || bytes.IndexByte(name, '/') >= 0 {
		return t.malformed(fmt.Sprintf("an entry named %q", name))
	}
	t.cur.name = append(t.cur.name[:0], name...)
	if _, err := io.ReadFull(t.rd, t.cur.hash[:]); err != nil {
		return t.malformed("an entry's object")
	}
	t.ok = true
	return nil
}

func (t *treeReader) malformed(what string) error {
	return fmt.Errorf("tree %s: malformed: %s", t.hash, what)
}

// compareEntries orders two entries of trees as git does: by name, a
// directory's name taken with a '/' after it (so "a.txt" comes before the
// directory "a", and the file "a" before it).
func compareEntries(a, b *treeEntry) int {
	n := min(len(a.name), len(b.name))
	if c := bytes.Compare(a.name[:n], b.name[:n]); c != 0 {
		return c
	}
	end := func(e *treeEntry) byte {
		if len(e.name) > n {
			return e.name[n]
		}
		if e.isDir() {
			return '/'
		}
		return 0
	}
	ca, cb := end(a), end(b)
	switch {
	case ca < cb:
		return -1
	case ca > cb:
		return 1
	}
	return 0
}

// treeWalk walks two trees, handing each change to fn.
type treeWalk struct {
	ctx context.Context
	s   storer.EncodedObjectStorer
	fn  func(treeChange) error
	n   int // entries read, for the context's checks
}

// walkTrees hands fn every path that differs from tree from to tree to (a
// zero hash is an empty tree), in the order of the paths' bytes. A
// submodule is an entry of its own (its commit), never descended into.
func walkTrees(ctx context.Context, s storer.EncodedObjectStorer, from, to plumbing.Hash, fn func(treeChange) error) error {
	w := &treeWalk{ctx: ctx, s: s, fn: fn}
	return w.walk("", from, to, 0)
}

func (w *treeWalk) walk(prefix string, from, to plumbing.Hash, depth int) error {
	if depth > maxTreeDepth {
		return fmt.Errorf("%s: trees nested deeper than %d levels", prefix, maxTreeDepth)
	}
	a, err := openTree(w.s, from)
	if err != nil {
		return err
	}
	defer a.close()
	b, err := openTree(w.s, to)
	if err != nil {
		return err
	}
	defer b.close()
	for a.ok || b.ok {
		if w.n++; w.n&0x3ff == 0 {
			if err := w.ctx.Err(); err != nil {
				return err
			}
		}
		var c int
		switch {
		case !b.ok:
			c = -1
		case !a.ok:
			c = 1
		default:
			c = compareEntries(&a.cur, &b.cur)
		}
		switch {
		case c < 0:
			if err := w.side(prefix, &a.cur, true, depth); err != nil {
				return err
			}
			err = a.next()
		case c > 0:
			if err := w.side(prefix, &b.cur, false, depth); err != nil {
				return err
			}
			err = b.next()
		default:
			if err := w.both(prefix, &a.cur, &b.cur, depth); err != nil {
				return err
			}
			if err = a.next(); err == nil {
				err = b.next()
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// side hands on an entry that only one tree has: a deletion (old) or an
// addition, of every file below it for a directory.
func (w *treeWalk) side(prefix string, e *treeEntry, old bool, depth int) error {
	p := prefix + string(e.name)
	if e.isDir() {
		if old {
			return w.walk(p+"/", e.hash, plumbing.ZeroHash, depth+1)
		}
		return w.walk(p+"/", plumbing.ZeroHash, e.hash, depth+1)
	}
	en := entry{path: p, mode: e.mode, hash: e.hash}
	if old {
		return w.fn(treeChange{from: en})
	}
	return w.fn(treeChange{to: en})
}

// both compares the entries of one name (both directories, or neither).
func (w *treeWalk) both(prefix string, a, b *treeEntry, depth int) error {
	if a.hash == b.hash && a.mode == b.mode {
		return nil
	}
	p := prefix + string(a.name)
	if a.isDir() {
		return w.walk(p+"/", a.hash, b.hash, depth+1)
	}
	from, to := entry{path: p, mode: a.mode, hash: a.hash}, entry{path: p, mode: b.mode, hash: b.hash}
	if kindOf(a.mode) != kindOf(b.mode) {
		if err := w.fn(treeChange{from: from, split: true}); err != nil {
			return err
		}
		return w.fn(treeChange{to: to, split: true})
	}
	return w.fn(treeChange{from: from, to: to})
}
