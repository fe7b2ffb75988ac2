package triage

import (
	"context"
	"io"

	"github.com/recap-dev/recap/diff"
)

// history follows a decided line through git: the entry's file at its
// commit, where the entry's location fingerprint (or its line, once in
// the file) was, carried onto the file now by their line diff, as git
// diff pairs their lines. It settles what the fingerprint alone cannot:
// a copy of the decided code pasted above it (the occurrence the
// location counts moved to the copy), or a line that repeats in the file
// once a neighbour of it changed (no fingerprint, and the line text not
// once in the file). Each entry's file at its commit is read, and
// diffed, once, at the first finding that asks, and a run asks at most
// maxHistory of them.
type history struct {
	dir   string                // the repository's directory
	files map[histKey]*histFile // by commit and path then
	lines map[int]int           // entry → its line now; 0: not known
}

type histKey struct{ commit, path string }

// histFile is a file at a commit, and its lines carried onto the file now.
type histFile struct {
	old    *sourceFile
	lineOf func(int) (int, bool)
}

// maxHistory bounds the files at a commit one run reads and diffs.
const maxHistory = 256

// lineNow returns the line (1-based) where entry idx's decided line is in
// sf, its file now, as git says it moved since the entry's commit; ok
// false when that cannot be told: no commit or no git, the file at the
// commit without the entry's line, the line changed or deleted since.
func (m *Matcher) lineNow(idx int, sf *sourceFile) (int, bool) {
	h, e := m.hist, &m.entries[idx]
	if h == nil || e.Commit == "" || e.Path == "" {
		return 0, false
	}
	if n, ok := h.lines[idx]; ok {
		return n, n > 0
	}
	n := 0
	if hf := h.file(histKey{e.Commit, e.Path}, sf); hf != nil {
		if at := entryLineIn(hf.old, e, m.lines[idx]); at > 0 {
			if now, ok := hf.lineOf(at); ok && now <= sf.n() {
				n = now
			}
		}
	}
	h.lines[idx] = n
	return n, n > 0
}

// file returns the file at k's commit and path with its lines carried
// onto sf, nil when it cannot be read or diffed.
func (h *history) file(k histKey, sf *sourceFile) *histFile {
	if hf, ok := h.files[k]; ok {
		return hf
	}
	if len(h.files) >= maxHistory {
		return nil
	}
	hf := readAtCommit(h.dir, k, sf)
	h.files[k] = hf
	return hf
}

// readAtCommit reads k's file at k's commit in the repository at dir and
// diffs it with sf.
func readAtCommit(dir string, k histKey, sf *sourceFile) *histFile {
	repo, err := diff.Open(dir)
	if err != nil {
		return nil
	}
	defer repo.Close()
	open, err := repo.OpenAt(k.commit)
	if err != nil {
		return nil
	}
	rc, size, err := open(k.path)
	if err != nil {
		return nil
	}
	defer rc.Close()
	if size > diff.MaxDiffBytes {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(rc, diff.MaxDiffBytes+1))
	if err != nil || len(data) > diff.MaxDiffBytes {
		return nil
	}
	lineOf, err := diff.LinesOf(context.Background(), data, sf.src)
	if err != nil {
		return nil
	}
	return &histFile{old: newSourceFile(data), lineOf: lineOf}
}

// entryLineIn returns the line (1-based) of e's finding in sf, the file
// at e's commit: where its location fingerprint is, else the one line
// that reads as its Line (decided on code not committed yet); 0 when
// there is none, or the line is there more than once.
func entryLineIn(sf *sourceFile, e *Entry, line entryLine) int {
	only, reads := 0, 0
	for i := range sf.n() {
		if e.Line != "" && !lineIs(sf.line(i), line) {
			continue
		}
		if e.Location != "" && sf.location(i) == e.Location {
			return i + 1
		}
		if reads++; reads == 1 {
			only = i + 1
		}
	}
	if reads != 1 || e.Line == "" {
		return 0
	}
	return only
}
