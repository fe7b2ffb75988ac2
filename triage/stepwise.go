package triage

import (
	"bytes"
	"io"
	"path"
	"strings"

	"github.com/recap-dev/recap/diff"
)

// Step by step. One diff from an entry's commit to the file now cannot
// tell a copy of the decided block pasted since, which kept the decided
// line's neighbours while the decided one's changed, from the decided
// block moved whole below a changed copy left in its place: both end as
// one block as it was and one changed, and the diff pairs the decided
// line with the one at its old place. The commits in between may tell:
// carried through each version of the file in turn, the decided line is
// paired with itself at every step where no copy of its window is added,
// and a step that adds one while the carried line's window changes is as
// ambiguous as the one diff. stepwise follows the line so, and says when
// every step told.

// stepsKey is an entry's commit and the paths its file is read at (as
// git names them, NUL between).
type stepsKey struct{ commit, paths string }

// maxSteps bounds the commits since an entry's that changed its file
// that its line is followed through (the others are not read).
const maxSteps = 64

// maxStepReads bounds the files at a commit one run reads to follow
// lines step by step.
const maxStepReads = 1024

// stepwise returns the line (1-based) of sf, the entry's file now, that
// entry idx's decided line is, carried from its commit through each
// later commit of HEAD's first-parent line that changed the file, then
// onto the working tree's file; -1 when a step deleted or changed the
// line and added none that reads as it (the decided line is gone); ok
// false when that cannot be told: the commit not on that line within
// maxBack commits, more than maxSteps commits since that changed the
// file, the file renamed or unreadable at one of them,
// a step that deletes or changes the line while it adds one that reads as
// it elsewhere, or one that adds a copy of its window while the line's
// window changes.
func (m *Matcher) stepwise(idx int, sf *sourceFile) (int, bool) {
	h, e := m.hist, &m.entries[idx]
	if h == nil || e.Commit == "" || e.Path == "" {
		return 0, false
	}
	if n, ok := h.stepped[idx]; ok {
		return n, n != 0
	}
	if h.stepReads >= maxStepReads {
		return 0, false // the files a run reads to follow lines read (and git not asked again)
	}
	n := m.followSteps(idx, sf)
	h.stepped[idx] = n
	return n, n != 0
}

func (m *Matcher) followSteps(idx int, sf *sourceFile) int {
	old, at, versions := m.stepVersions(idx, sf)
	if at == 0 {
		return 0
	}
	line := m.lines[idx]
	for _, next := range versions {
		cur := newSourceFile(next)
		now, gone := step(old, cur, at, line)
		if gone {
			return -1
		}
		if at = now; at == 0 {
			return 0
		}
		old = cur
	}
	return at
}

// stepVersions returns the file's version where entry idx's decided line
// is followed from and the line there (1-based; 0: none, nothing to
// follow), and the versions after it, the last one sf's text: see
// stepwise.
func (m *Matcher) stepVersions(idx int, sf *sourceFile) (*sourceFile, int, [][]byte) {
	h, e := m.hist, &m.entries[idx]
	repo := h.open()
	if repo == nil {
		return nil, 0, nil
	}
	if _, err := repo.Commit(e.Commit); err != nil {
		return nil, 0, nil
	}
	// The file's versions, one per change: at the entry's commit, at each
	// later commit that changed it (told by the trees, which git reads
	// without the files), and in the working tree; by its path then, or
	// by its path now once it was renamed.
	paths := []string{inGit(repo, h.dir, e.Path)}
	if sf.path != "" && sf.path != e.Path {
		paths = append(paths, inGit(repo, h.dir, sf.path))
	}
	key := stepsKey{e.Commit, strings.Join(paths, "\x00")}
	after, ok := h.stepsAfter[key]
	if !ok {
		var more bool
		var err error
		after, more, err = repo.ChangedAfter(e.Commit, paths, maxSteps, maxBack)
		switch {
		case err != nil || more:
			after = nil // not told
		case after == nil:
			after = []string{} // no change since: the working tree alone
		}
		h.stepsAfter[key] = after
	}
	if after == nil {
		return nil, 0, nil
	}
	var versions [][]byte
	for _, c := range append([]string{e.Commit}, after...) {
		if h.stepReads >= maxStepReads {
			return nil, 0, nil
		}
		h.stepReads++
		var b []byte
		for _, p := range paths {
			if b, _ = h.fileAt(repo, c, p); b != nil {
				break
			}
		}
		if b == nil {
			return nil, 0, nil // gone, or not fetched: not told
		}
		if len(versions) == 0 || !bytes.Equal(b, versions[len(versions)-1]) {
			versions = append(versions, b)
		}
	}
	if !bytes.Equal(sf.src, versions[len(versions)-1]) {
		versions = append(versions, sf.src)
	}
	// From the first version that has the decided line (a decision on
	// code not committed yet names the commit before it): by its
	// location, else, in the first version, the one line of its text
	// (as lineNow finds it).
	files := make([]*sourceFile, len(versions))
	for k, v := range versions {
		files[k] = newSourceFile(v)
	}
	var old *sourceFile
	at := 0
	if e.Location != "" {
		for k := range files {
			if at = entryLineIn(files[k], e, m.lines[idx], true); at > 0 {
				old, versions = files[k], versions[k+1:]
				break
			}
		}
	}
	if at == 0 && e.Line != "" {
		var k int
		if k, at = textStart(files, sf, m.lines[idx]); at > 0 {
			old, versions = files[k], versions[k+1:]
		}
	}
	return old, at, versions
}

// step carries line at (1-based) of old onto cur, white space aside (as
// the history does), the entry's line reading as line: where the diff
// deletes it (its block moved), the one line of cur that reads so whose
// neighbours read as its did (byNeighbours); 0 when none, when the diff
// changes it, or when its window changes while cur has a line of its
// window as it was that the diff adds (a copy pasted in the same change:
// which is the decided one is not told). gone says the line is no longer
// in cur: the diff deletes or changes it, and adds no line that reads as
// it.
func step(old, cur *sourceFile, at int, line entryLine) (now int, gone bool) {
	lineOf, err := linesOf(old.src, cur.src)
	if err != nil {
		return 0, false
	}
	now, ok := lineOf(at)
	if !ok {
		// Moved: found by its neighbours, when one line tells.
		kept := carriedLines(old.n(), cur.n(), lineOf)
		if now = byNeighbours(old, at, cur, line, kept); now == 0 {
			for j := 1; j <= cur.n(); j++ {
				if !kept[j] && lineIs(cur.line(j-1), line) {
					return 0, false // added elsewhere: moved, or a copy, not told
				}
			}
			return 0, true
		}
	}
	if now < 1 || now > cur.n() {
		return 0, false
	}
	was, _ := SplitLocation(old.location(at - 1))
	if is, _ := SplitLocation(cur.location(now - 1)); is == was {
		return now, false
	}
	// Its window changed. The diff carrying it and every other line of
	// its window as it was (the decided code all still there, only
	// parted by lines added) says the lines added that read as it are a
	// copy pasted in this change, new code, as windowKept says of the one
	// diff since the entry's commit.
	whole := true
	for _, l := range old.window(at-1, nil) {
		if _, ok := lineOf(l + 1); !ok {
			whole = false
			break
		}
	}
	if whole {
		return now, false
	}
	kept := make(map[int]bool, old.n())
	for i := 1; i <= old.n(); i++ {
		if n, ok := lineOf(i); ok {
			kept[n] = true
		}
	}
	for j := 1; j <= cur.n(); j++ {
		if !kept[j] && lineIs(cur.line(j-1), entryLine{b: old.line(at - 1)}) {
			if w, _ := SplitLocation(cur.location(j - 1)); w == was {
				return 0, false
			}
		}
	}
	return now, false
}

// fileAt reads path at commit c, whole: nil when it cannot be read (the
// error then, nil when the file is larger than diff.MaxDiffBytes).
// inGit is p, a path relative to dir (the root the matcher reads), as git
// names it: relative to the top level of the repository, when dir is
// below it (a project of a larger repository).
func inGit(repo *diff.Repo, dir, p string) string {
	if sub := repo.Sub(dir); sub != "" && p != "" {
		return path.Join(sub, p)
	}
	return p
}

// fromGit is p, a path as git names it, relative to the directory sub
// names (repo.Sub): ok false when p is not under it.
func fromGit(sub, p string) (string, bool) {
	if sub == "" {
		return p, true
	}
	rest, ok := strings.CutPrefix(p, sub+"/")
	return rest, ok && rest != ""
}

func fileAt(repo *diff.Repo, c, path string) ([]byte, error) {
	open, err := repo.OpenAt(c)
	if err != nil {
		return nil, err
	}
	return readAt(open, path)
}

// maxOpeners bounds the revisions whose readers a run keeps (each with a
// cache of its objects).
const maxOpeners = 16

// fileAt is fileAt with the reader of revision c kept for the run, from
// the repository kept (open): each reader reads the pack indexes again,
// most of the time of reading a file at a commit.
func (h *history) fileAt(repo *diff.Repo, c, path string) ([]byte, error) {
	if repo != h.repo {
		return fileAt(repo, c, path)
	}
	open, ok := h.openers[c]
	if !ok {
		var err error
		if open, err = repo.OpenAt(c); err != nil {
			return nil, err
		}
		if len(h.openers) >= maxOpeners {
			clear(h.openers)
		}
		if h.openers == nil {
			h.openers = map[string]func(string) (io.ReadCloser, int64, error){}
		}
		h.openers[c] = open
	}
	return readAt(open, path)
}

// readAt reads path whole with open (see fileAt).
func readAt(open func(string) (io.ReadCloser, int64, error), path string) ([]byte, error) {
	rc, size, err := open(path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	if size > diff.MaxDiffBytes {
		return nil, nil
	}
	b, err := io.ReadAll(io.LimitReader(rc, diff.MaxDiffBytes+1))
	if err != nil || len(b) > diff.MaxDiffBytes {
		return nil, err
	}
	return asText(b), nil
}
