package triage

import (
	"context"
	"errors"
	"io"
	"maps"
	"runtime"
	"slices"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/recap-dev/recap/diff"
)

// history follows a decided line through git: the entry's file at its
// commit, where the entry's location fingerprint (or its line, once in
// the file) was, carried onto the file now by their line diff, as git
// diff pairs their lines, or, when the diff deletes it (its block moved),
// found by its neighbours (byNeighbours). It settles what the fingerprint alone cannot:
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
	// from are, of the entries whose decided line was found in their
	// file at a commit, that file and the line (1-based).
	from  map[int]histAt
	after map[string][]string // a commit → the commits after it (afterCommit)
	// missing are the entries whose commit this clone does not have (a
	// shallow clone): their lines are not followed.
	missing map[int]bool
	// since is, by an entry's date, the commits that stand in for an
	// entry's commit the repository has not (see standIns).
	since map[string][]string
	// squashed are the entries whose commit this repository, no shallow
	// clone, does not have, and whose code no commit that stands in for
	// it has: their lines are not followed.
	squashed map[int]bool
	// ambiguous are the entries that covered a finding by location while
	// git says the decided line is another (the two lines, 1-based).
	ambiguous map[int][2]int
	// stepped are the entries' lines now, followed step by step
	// (stepwise; 0: not told), and stepReads the files it read.
	stepped    map[int]int
	stepReads  int
	stepsAfter map[stepsKey][]string // an entry's commit and paths → the commits after it that changed the file, when at most maxSteps (nil: not told)
	// unfetched are the entries whose file at a commit a partial clone
	// lacks and git could not fetch (fetchErr the first such error):
	// their lines are not followed.
	unfetched   map[int]bool
	unfetchable map[histKey]bool
	fetchErr    error
	// blobs are, by commit, the hashes of the files the entries of that
	// commit name there (by their paths as git names them; a path that is
	// no file there is missing): a file that holds them still has not
	// changed since, and its decided line is where its location says
	// (editedSince). nil for a commit git could not read.
	blobs map[string]map[string]diff.BlobHash
	// repo is the repository, opened at the first read of git that
	// needs it (open); noRepo: it could not be.
	repo    *diff.Repo
	noRepo  bool
	openers map[string]func(string) (io.ReadCloser, int64, error) // by revision, of repo (fileAt)
}

// open returns the repository, opened once for the run's reads of git
// (each open reads the pack indexes again: 4 ms a file followed in a
// repository of one pack), closed once the matcher is let go; nil when it
// cannot be opened.
func (h *history) open() *diff.Repo {
	if h.repo == nil && !h.noRepo {
		repo, err := diff.Open(h.dir)
		if err != nil {
			h.noRepo = true
			return nil
		}
		h.repo = repo
		runtime.AddCleanup(h, func(r *diff.Repo) { r.Close() }, repo)
	}
	return h.repo
}

// editedSince says whether entry idx's file, whose content hashes to
// blob now, may have changed since the entry's commit: its file there (by
// the entry's path) holds other bytes, or none, or git cannot tell.
// Unchanged, the decided line is where the entry's location is; changed,
// a copy of the decided code may have taken its location (the decided
// line changed or deleted since, a copy written before left), which git,
// step by step, tells.
func (m *Matcher) editedSince(idx int, blob diff.BlobHash) bool {
	h, e := m.hist, &m.entries[idx]
	if h == nil || e.Commit == "" || e.Path == "" {
		return false
	}
	if h.blobs == nil {
		h.blobs = map[string]map[string]diff.BlobHash{}
	}
	at, ok := h.blobs[e.Commit]
	if !ok {
		// Once a commit: the files of every entry of it, by the entries'
		// paths as the matcher names them.
		if repo := h.open(); repo != nil {
			byGit := map[string]string{}
			for k := range m.entries {
				if o := &m.entries[k]; o.Commit == e.Commit && o.Path != "" {
					byGit[inGit(repo, h.dir, o.Path)] = o.Path
				}
			}
			if hashes, err := repo.BlobHashes(e.Commit, slices.Collect(maps.Keys(byGit))); err == nil {
				at = make(map[string]diff.BlobHash, len(hashes))
				for g, bh := range hashes {
					at[byGit[g]] = bh
				}
			}
		}
		h.blobs[e.Commit] = at
	}
	was, ok := at[e.Path]
	return !ok || was != blob
}

// histKey is a file at a commit: by its path (relative to the root the
// matcher reads) and as git names it (top).
type histKey struct{ commit, path, top string }

// histFile is a file at a commit, and its lines carried onto the file now.
type histFile struct {
	old    *sourceFile
	lineOf func(int) (int, bool)
	kept   []bool // the lines of the file now the diff carries (1-based; made when asked)
}

// carried returns, for each line of the file now (1-based, of n), whether
// the diff carries a line of the old file onto it (the others it adds).
func (hf *histFile) carried(n int) []bool {
	if len(hf.kept) != n+1 { // made for a file now of another length: the finding's file is another
		hf.kept = nil
	}
	if hf.kept == nil {
		hf.kept = carriedLines(hf.old.n(), n, hf.lineOf)
	}
	return hf.kept
}

// carriedLines is, for each of the n lines of the file now (1-based),
// whether lineOf carries one of the old file's lines onto it.
func carriedLines(old, n int, lineOf func(int) (int, bool)) []bool {
	kept := make([]bool, n+1)
	for i := 1; i <= old; i++ {
		if now, ok := lineOf(i); ok && now >= 1 && now <= n {
			kept[now] = true
		}
	}
	return kept
}

// histAt is a decided line (1-based) in its file at a commit.
type histAt struct {
	hf *histFile
	at int
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
	if len(h.lines) >= maxHistory {
		return 0, false
	}
	n := 0
	if repo := h.open(); repo != nil {
		// The entry's commit, then the commits after it: a decision taken
		// on code not committed yet has it in a later one (most often the
		// commit of the triage file itself).
		commits := []string{e.Commit}
		standIn := false
		if _, err := repo.Commit(e.Commit); err != nil {
			if repo.Shallow() {
				h.missing[idx] = true // a shallow clone's: said so
				commits = nil
			} else {
				// A branch squashed or rebased away, a pull request's
				// merge commit: the commits since the day it was decided.
				commits, standIn = standIns(repo, e, h.since), true
			}
		}
		found := false
		take := func(hf *histFile, at int) {
			found = true
			h.from[idx] = histAt{hf, at}
			if now, ok := hf.lineOf(at); ok && now <= sf.n() {
				n = now
			} else if e.Line != "" {
				n = byNeighbours(hf.old, at, sf, m.lines[idx], hf.carried(sf.n()))
			}
		}
		// The entry's location first, in its commit and those after it:
		// a decision taken on code not committed yet whose line's text
		// was in the file already (a copy of it elsewhere) is on the code
		// committed after it, not on that line. Then its line's text
		// (textStart).
		located := standIn || e.Location != ""
		var files []*histFile
		for k := 0; k < len(commits); k++ {
			hf, err := h.file(repo, histKey{commits[k], e.Path, inGit(repo, h.dir, e.Path)}, sf)
			if errors.Is(err, diff.ErrPartial) {
				h.unfetched[idx] = true
			}
			files = append(files, hf)
			at := 0
			if hf != nil && located {
				// A commit that stands in has the code only where the
				// entry's location is: a line of the same text before the
				// decision may be another one.
				at = entryLineIn(hf.old, e, m.lines[idx], true)
			}
			if at > 0 {
				take(hf, at)
				break
			}
			if k == 0 && !standIn { // not there: the commits after it, looked for once
				commits = append(commits, h.afterCommit(repo, e.Commit)...)
			}
		}
		if !found && !standIn && e.Line != "" {
			versions := make([]*sourceFile, len(files))
			for k, hf := range files {
				if hf != nil {
					versions[k] = hf.old
				}
			}
			if k, at := textStart(versions, sf, m.lines[idx]); at > 0 {
				take(files[k], at)
			}
		}
		if standIn && !found {
			h.squashed[idx] = true
		}
	}
	h.lines[idx] = n
	return n, n > 0
}

// windowKept reports whether git's line diff from entry idx's commit
// carries onto the file now its decided line and every other line of
// the line's window then (Window lines: it and the next that are not
// blank), as lineNow found them: the decided code is all still in the
// file, at most parted by lines added.
func (m *Matcher) windowKept(idx int) bool {
	from, ok := m.hist.from[idx]
	if !ok || from.hf == nil || from.hf.old == nil {
		return false
	}
	old := from.hf.old
	n := 0
	for l := from.at; l <= old.n() && n < Window; l++ {
		if n > 0 && blank(old.line(l-1)) {
			continue
		}
		if _, ok := from.hf.lineOf(l); !ok {
			return false
		}
		n++
	}
	return n > 0
}

// maxAfter bounds the commits after an entry's that are looked at for its
// code, maxSince those since the day an entry was decided when the
// repository has not its commit, and maxBack how far back from HEAD the
// entry's commit, or its day, is looked for.
const (
	maxAfter = 16
	maxSince = 64
	maxBack  = 10_000
)

// standIns returns the commits that stand in for e's commit when the
// repository has not that commit and is no shallow clone: the commit was
// on a branch squashed or rebased since, or is a pull request's merge
// commit (the review's replies), or another clone's. They are HEAD's
// first-parent line from the last commit made before the day e was
// decided, oldest first, at most maxSince (diff.Repo.Since): the first of
// them that has e's code is where it is followed from. None without a
// date. cache keeps them by date.
func standIns(repo *diff.Repo, e *Entry, cache map[string][]string) []string {
	if list, ok := cache[e.Date]; ok {
		return list
	}
	var list []string
	if t, err := time.Parse(DateLayout, e.Date); err == nil {
		list, _ = repo.Since(t, maxSince, maxBack)
	}
	cache[e.Date] = list
	return list
}

// afterCommit returns the commits after c on HEAD's first-parent line,
// oldest first, at most maxAfter; none when c is not on it.
func (h *history) afterCommit(repo *diff.Repo, c string) []string {
	if list, ok := h.after[c]; ok {
		return list
	}
	list, _ := repo.After(c, maxAfter, maxBack)
	h.after[c] = list
	return list
}

// anotherLine reports whether git's line diff from the entry's commit
// carries onto line (1-based) of the file now another line of the file
// then than the decided one, of the same text: a copy of the decided
// line that was elsewhere in the file (text gives the file now, read
// only when git is asked). When the decided code is deleted, the line of
// its text that is left is that copy, not the decided one. An entry
// without a commit, outside git, or whose line git cannot find at its
// commit is told nothing: false.
func (m *Matcher) anotherLine(idx int, line int, text func() *sourceFile) bool {
	h, e := m.hist, &m.entries[idx]
	if h == nil || e.Commit == "" || e.Path == "" {
		return false
	}
	if _, known := h.lines[idx]; !known {
		sf := text()
		if sf == nil {
			return false
		}
		m.lineNow(idx, sf)
	}
	from, ok := h.from[idx]
	if !ok {
		return false
	}
	old := from.hf.old
	for x := 1; x <= old.n(); x++ {
		if x != from.at && lineIs(old.line(x-1), m.lines[idx]) {
			if now, ok := from.hf.lineOf(x); ok && now == line {
				return true
			}
		}
	}
	return false
}

// locatedElsewhere reports whether the entry's location hash (its line
// and the next ones, whatever its occurrence) is at another line of sf
// than i, when i's is not: git's diff may pair the decided line with a
// copy whose neighbours changed while the decided code, whole, moved
// elsewhere; the location, which hashes the lines themselves, tells
// better then, unless the diff carries the decided line's whole window
// (windowKept): the code elsewhere is a copy of it pasted since.
func (m *Matcher) locatedElsewhere(idx int, sf *sourceFile, i int) bool {
	e := &m.entries[idx]
	if e.Location == "" || m.windowKept(idx) {
		return false
	}
	h, _ := SplitLocation(e.Location)
	if lh, _ := SplitLocation(sf.location(i)); lh == h {
		return false
	}
	// The decided code whole, at its occurrence: another copy of it (a
	// copy decided before, its occurrence another) does not tell.
	for k := range sf.n() {
		if k != i && lineIs(sf.line(k), m.lines[idx]) && sf.location(k) == e.Location {
			return true
		}
	}
	return false
}

// neighbours is how many lines above and below a decided line
// byNeighbours compares, and minNeighbours how many of them must read
// the same.
const (
	neighbours    = 3
	minNeighbours = 2
)

// byNeighbours finds the decided line, line at (1-based) of old, in sf
// when the diff did not carry it (its block moved: git diff deletes it
// and adds it elsewhere): of the lines of sf that read as the entry's
// line, the one whose neighbours, three above and three below, read as
// the old line's most often, at least minNeighbours of them, and more
// often than any other's; 0 when none is. Only neighbours with a letter
// or a digit count: a brace or a blank line is on every side of every
// line.
func byNeighbours(old *sourceFile, at int, sf *sourceFile, line entryLine, carried []bool) int {
	best, bestScore, tie := 0, 0, false
	for i := range sf.n() {
		if !lineIs(sf.line(i), line) || carried[i+1] {
			continue // another line, or one the diff carries from another: not the decided one moved
		}
		score := 0
		for d := -neighbours; d <= neighbours; d++ {
			o, c := at-1+d, i+d
			if d != 0 && o >= 0 && o < old.n() && c >= 0 && c < sf.n() && telling(old.line(o)) && eqNorm(old.line(o), sf.line(c)) {
				score++
			}
		}
		switch {
		case score > bestScore:
			best, bestScore, tie = i+1, score, false
		case score == bestScore:
			tie = true
		}
	}
	if tie || bestScore < minNeighbours {
		return 0
	}
	return best
}

// telling reports whether l has a letter or a digit: a line that tells
// where it is.
func telling(l []byte) bool {
	for _, r := range string(l) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// file returns the file at k's commit and path with its lines carried
// onto sf, nil when it cannot be read or diffed.
func (h *history) file(repo *diff.Repo, k histKey, sf *sourceFile) (*histFile, error) {
	if hf, ok := h.files[k]; ok {
		if hf == nil && h.unfetchable[k] {
			return nil, h.fetchErr
		}
		return hf, nil
	}
	if len(h.files) >= maxHistory {
		return nil, nil
	}
	hf, err := h.readAtCommit(repo, k, sf)
	h.files[k] = hf
	if errors.Is(err, diff.ErrPartial) {
		h.unfetchable[k] = true
		if h.fetchErr == nil {
			h.fetchErr = err
		}
	}
	return hf, err
}

// readAtCommit reads k's file at k's commit and diffs it with sf; the
// error is that of opening the file (ErrPartial: a partial clone lacks it
// and git could not fetch it).
func (h *history) readAtCommit(repo *diff.Repo, k histKey, sf *sourceFile) (*histFile, error) {
	data, err := h.fileAt(repo, k.commit, k.top)
	if data == nil {
		return nil, err
	}
	lineOf, err := linesOf(data, sf.src)
	if err != nil {
		return nil, nil
	}
	return &histFile{old: newSourceFile(data), lineOf: lineOf}, nil
}

// linesOf carries the lines of old onto cur as git diff -w pairs them.
// White space aside, as the location fingerprint: a block re-indented
// since keeps its lines, and a copy of it pasted above is told apart as an
// added block. Where the texts themselves keep a line, their diff places
// it: git places a block added among repeated lines by their indentation
// (a method pasted below the last one is added after it, not before its
// last lines), which a diff of the texts without white space cannot see.
func linesOf(old, cur []byte) (func(int) (int, bool), error) {
	exact, err := diff.LinesOf(context.Background(), old, cur)
	if err != nil {
		return nil, err
	}
	loose, err := diff.LinesOf(context.Background(), spaceless(old), spaceless(cur))
	if err != nil {
		return nil, err
	}
	return func(line int) (int, bool) {
		if n, ok := exact(line); ok {
			return n, true
		}
		return loose(line)
	}, nil
}

// textStart returns the version (an index of versions: the entry's
// file at its commit, then at later ones; nil where it is not) and the
// line (1-based) a decided line is followed from by its text alone, when
// its location is in none of them: the one line of its text in the
// entry's commit, when the file now has no other (decided with
// neighbours not committed yet); else, when the entry's commit has no
// line of its text (decided on code not committed yet, and committed
// with other neighbours), the one line of its text in the first version
// that has it. A line of its text in the entry's commit while the file
// now has more is not told from a copy decided since (the decision may
// be on the new one): none, as when the first version with its text has
// several.
func textStart(versions []*sourceFile, now *sourceFile, line entryLine) (int, int) {
	if len(versions) == 0 || versions[0] == nil {
		return 0, 0
	}
	switch n0 := countReads(versions[0], line); {
	case n0 == 1 && countReads(now, line) <= 1:
		return 0, onlyReads(versions[0], line)
	case n0 == 0:
		for k := 1; k < len(versions); k++ {
			if versions[k] == nil {
				continue
			}
			switch countReads(versions[k], line) {
			case 0:
				continue
			case 1:
				return k, onlyReads(versions[k], line)
			}
			return 0, 0
		}
	}
	return 0, 0
}

// countReads is how many lines of sf read as line.
func countReads(sf *sourceFile, line entryLine) int {
	n := 0
	for i := range sf.n() {
		if lineIs(sf.line(i), line) {
			n++
		}
	}
	return n
}

// onlyReads is the first line (1-based) of sf that reads as line.
func onlyReads(sf *sourceFile, line entryLine) int {
	for i := range sf.n() {
		if lineIs(sf.line(i), line) {
			return i + 1
		}
	}
	return 0
}

// entryLineIn returns the line (1-based) of e's finding in sf, the file
// at e's commit: where its location fingerprint is, else, unless located,
// the one line that reads as its Line (decided on code not committed
// yet); 0 when there is none, or the line is there more than once.
func entryLineIn(sf *sourceFile, e *Entry, line entryLine, located bool) int {
	only, reads := 0, 0
	for i := range sf.n() {
		if e.Line != "" && !lineIs(sf.line(i), line) {
			continue
		}
		if e.Location != "" && sf.location(i) == e.Location {
			return i + 1
		}
		if located {
			continue
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

// spaceless returns src without its white space but its line ends ('\n'),
// line for line: diffed so, lines that differ only in white space are
// the same.
func spaceless(src []byte) []byte {
	out := make([]byte, 0, len(src))
	for i := 0; i < len(src); {
		if c := src[i]; c == '\n' || c < utf8.RuneSelf && c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v' {
			out = append(out, c)
			i++
			continue
		}
		if j := skipSpace(src, i); j > i {
			i = j
			continue
		}
		_, n := utf8.DecodeRune(src[i:])
		out = append(out, src[i:i+n]...)
		i += n
	}
	return out
}
