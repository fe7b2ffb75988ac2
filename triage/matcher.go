package triage

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
)

// Source reads a file of the repository by its repository-relative path
// (a content.Root's FS, or the files at a revision).
type Source = fs.FS

// How says how an entry matched a finding, best first.
type How int

// The ways an entry matches a finding (docs/triage.md, "Matching").
const (
	// ByLocation: the same location fingerprint and message.
	ByLocation How = iota + 1
	// ByLocationOnly: the same location fingerprint, the message changed.
	ByLocationOnly
	// ByLocationMoved: the same hash of the line and its neighbours, once
	// in the file, though equal lines before it came or went.
	ByLocationMoved
	// ByLineText: the fingerprint changed (a neighbour line was edited),
	// but the finding's line reads as the entry's Line, once in the file,
	// and the message is the same.
	ByLineText
	// ByMessage: without the file's text (no source, a finding without a
	// line), the same path, rule and message.
	ByMessage
)

// A Matcher tells which entry of a triage file covers each finding of a
// run. A finding whose tool and rule no entry names costs one map lookup;
// the others read their file once (the first finding of each file), and
// are compared with the entries of their path (or of the path their file
// was renamed from), then with the entries whose file is gone. Safe for
// concurrent use once made (FollowRenames first).
type Matcher struct {
	src fs.FS
	now time.Time

	entries []Entry
	rules   map[string]bool  // tool\x00rule of every entry
	byPath  map[string][]int // tool\x00rule\x00path (the entry's path now) → entries
	orphans map[string][]int // tool\x00rule → entries whose file is gone, not known renamed
	path    []string         // entry → its path now (Path, or where git says it was renamed to)

	mu    sync.Mutex
	used  []int // entry → findings it matched
	files map[string]*sourceFile
}

// sourceFile is what the matcher knows of one file of the source.
type sourceFile struct {
	src   []byte
	lines [][]byte
	locs  []string
	hash  map[string]int // location hash → lines of that hash
	norm  map[string]int // normalized line text → lines of that text (made when asked)
}

// NewMatcher returns a matcher of f's entries, reading source files
// through src (nil: matching without location fingerprints, by path and
// message), with now as the day expiries are judged on.
func NewMatcher(f *File, src fs.FS, now time.Time) *Matcher {
	m := &Matcher{src: src, now: now, rules: map[string]bool{}, files: map[string]*sourceFile{}}
	if f != nil {
		m.entries = f.Entries
	}
	m.used = make([]int, len(m.entries))
	m.path = make([]string, len(m.entries))
	for i := range m.entries {
		m.path[i] = m.entries[i].Path
	}
	m.index()
	return m
}

// index files each entry under its path now, or among the orphans when
// its file is gone from src.
func (m *Matcher) index() {
	m.byPath, m.orphans = map[string][]int{}, map[string][]int{}
	gone := map[string]bool{}
	for i := range m.entries {
		e := &m.entries[i]
		rule := e.Tool + "\x00" + e.Rule
		m.rules[rule] = true
		p := m.path[i]
		if m.src != nil && p != "" {
			g, ok := gone[p]
			if !ok {
				_, err := fs.Stat(m.src, p)
				g = err != nil
				gone[p] = g
			}
			if g {
				m.orphans[rule] = append(m.orphans[rule], i)
				continue
			}
		}
		m.byPath[rule+"\x00"+p] = append(m.byPath[rule+"\x00"+p], i)
	}
}

// FollowRenames asks git where the files of the entries whose file is
// gone went: for each entry with a Commit, the renames from that commit
// to the working tree (committed since or not, as git diff COMMIT HEAD
// shows them, with git's rename detection, then the working tree's). An entry so followed matches
// findings at the new path; the others whose file is gone are matched by
// their location in any file. Call it before Decide.
func (m *Matcher) FollowRenames(ctx context.Context, repo *diff.Repo) error {
	if repo == nil {
		return nil
	}
	commits := map[string]bool{}
	for _, list := range m.orphans {
		for _, i := range list {
			if c := m.entries[i].Commit; c != "" {
				commits[c] = true
			}
		}
	}
	if len(commits) == 0 {
		return nil
	}
	names := make([]string, 0, len(commits))
	for c := range commits {
		names = append(names, c)
	}
	sort.Strings(names)
	// git diff COMMIT HEAD finds renames by similarity; the working tree
	// against HEAD pairs a deleted and an added file of one content.
	var work map[string]string
	if files, err := repo.WorkingTree(ctx); err == nil {
		work = renamesOf(files)
	}
	renames := map[string]map[string]string{}
	var firstErr error
	for _, c := range names {
		files, err := repo.Between(ctx, c, "HEAD")
		if err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("following renames since %s: %w", c, err)
			}
			continue
		}
		r := renamesOf(files)
		for from, to := range r {
			if again, ok := work[to]; ok {
				r[from] = again
			}
		}
		for from, to := range work {
			if _, ok := r[from]; !ok {
				r[from] = to
			}
		}
		renames[c] = r
	}
	moved := false
	for _, list := range m.orphans {
		for _, i := range list {
			e := &m.entries[i]
			if to, ok := renames[e.Commit][e.Path]; ok {
				m.path[i] = to
				moved = true
			}
		}
	}
	if moved {
		m.index()
	}
	return firstErr
}

// renamesOf returns old path → new path of the renamed files.
func renamesOf(files []diff.File) map[string]string {
	r := map[string]string{}
	for _, f := range files {
		if f.Status == diff.Renamed {
			r[f.OldPath] = f.NewPath
		}
	}
	return r
}

// Len returns the number of entries.
func (m *Matcher) Len() int { return len(m.entries) }

// Decide returns the decision that covers f, nil when no entry does.
func (m *Matcher) Decide(f *reports.Finding) *Decision {
	if m == nil || len(m.entries) == 0 {
		return nil
	}
	rule := f.Tool + "\x00" + f.Rule
	if !m.rules[rule] {
		return nil
	}
	cands, orphans := m.byPath[rule+"\x00"+f.Path], m.orphans[rule]
	if len(cands) == 0 && len(orphans) == 0 {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	sf := m.file(f.Path)
	best, bestHow := -1, How(0)
	try := func(list []int, orphan bool) {
		for _, i := range list {
			how := m.how(&m.entries[i], f, sf, orphan)
			if how != 0 && (best < 0 || how < bestHow) {
				best, bestHow = i, how
			}
		}
	}
	try(cands, false)
	if best < 0 || bestHow > ByLocationOnly {
		try(orphans, true)
	}
	if best < 0 {
		return nil
	}
	m.used[best]++
	e := &m.entries[best]
	return &Decision{Entry: e, Expired: e.Expired(m.now), How: bestHow, Path: m.path[best]}
}

// how says how e matches f (0: not at all). An orphan (an entry whose
// file is gone) matches by the location or the line text only.
func (m *Matcher) how(e *Entry, f *reports.Finding, sf *sourceFile, orphan bool) How {
	sameMsg := sameMessage(e.Message, f.Message)
	if sf == nil || f.Line < 1 || f.Line > len(sf.locs) {
		if !orphan && sameMsg && e.Message != "" {
			return ByMessage
		}
		return 0
	}
	loc := sf.locs[f.Line-1]
	if e.Location != "" {
		switch {
		case e.Location == loc && sameMsg:
			return ByLocation
		case e.Location == loc:
			return ByLocationOnly
		}
		h, _ := SplitLocation(e.Location)
		if lh, _ := SplitLocation(loc); lh == h && sf.hash[h] == 1 && sameMsg {
			return ByLocationMoved
		}
	}
	if e.Line != "" && sameMsg && e.Message != "" {
		want := normalize([]byte(e.Line))
		got := normalize(sf.lines[f.Line-1])
		cut := strings.HasSuffix(e.Line, "…")
		if cut {
			want = bytes.TrimSuffix(want, []byte("…"))
		}
		if len(want) > 0 && (bytes.Equal(want, got) || cut && bytes.HasPrefix(got, want)) && sf.unique(f.Line-1) {
			return ByLineText
		}
	}
	if e.Location == "" && !orphan && sameMsg && e.Message != "" {
		return ByMessage
	}
	return 0
}

// file reads path once; nil when it cannot be read.
func (m *Matcher) file(path string) *sourceFile {
	if m.src == nil || path == "" {
		return nil
	}
	sf, ok := m.files[path]
	if !ok {
		if b, err := fs.ReadFile(m.src, path); err == nil {
			sf = &sourceFile{src: b, lines: splitLines(b), locs: Locations(b), hash: map[string]int{}}
			for _, l := range sf.locs {
				h, _ := SplitLocation(l)
				sf.hash[h]++
			}
		}
		m.files[path] = sf
	}
	return sf
}

// unique reports whether line i's text (white space aside) is on no
// other line of the file.
func (sf *sourceFile) unique(i int) bool {
	if sf.norm == nil {
		sf.norm = make(map[string]int, len(sf.lines))
		for _, l := range sf.lines {
			sf.norm[string(normalize(l))]++
		}
	}
	return sf.norm[string(normalize(sf.lines[i]))] == 1
}

// Stale returns the entries that matched no finding of the calls so far.
func (m *Matcher) Stale() []Entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Entry
	for i, u := range m.used {
		if u == 0 {
			out = append(out, m.entries[i])
		}
	}
	return out
}

// Expired returns the entries whose Until has come.
func (m *Matcher) Expired() []Entry {
	var out []Entry
	for i := range m.entries {
		if m.entries[i].Expired(m.now) {
			out = append(out, m.entries[i])
		}
	}
	return out
}

// A Status is what a matcher found of one entry: how many findings it
// matched, where its file is now, and whether it has expired.
type Status struct {
	Entry   Entry
	Matched int
	// Path is the entry's file now: its Path, or where git says the file
	// was renamed to.
	Path    string
	Expired bool
}

// Statuses returns the status of every entry, in the file's order, after
// the calls of Decide so far.
func (m *Matcher) Statuses() []Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Status, len(m.entries))
	for i := range m.entries {
		out[i] = Status{Entry: m.entries[i], Matched: m.used[i], Path: m.path[i], Expired: m.entries[i].Expired(m.now)}
	}
	return out
}

// MaxMessage is the most characters of a finding's message an entry keeps
// (cut with "…"; a cut message matches the messages it begins).
const MaxMessage = 500

// sameMessage reports whether an entry's message is the finding's ("" is
// any message).
func sameMessage(entry, finding string) bool {
	if entry == "" {
		return true
	}
	entry, finding = foldSpace(entry), foldSpace(finding)
	if entry == finding {
		return true
	}
	cut, ok := strings.CutSuffix(entry, "…")
	return ok && strings.HasPrefix(finding, cut)
}

// EntryFor returns a new entry for f (its state, reason and the rest left
// for the caller to fill), its location and line read through src.
func EntryFor(f *reports.Finding, src fs.FS) Entry {
	e := Entry{Tool: f.Tool, Rule: f.Rule, Path: f.Path, Message: text.CutRunes(foldSpace(f.Message), MaxMessage)}
	if src != nil && f.Line > 0 && f.Path != "" {
		if b, err := fs.ReadFile(src, f.Path); err == nil {
			if locs := Locations(b); f.Line <= len(locs) {
				e.Location = locs[f.Line-1]
			}
			e.Line = LineText(b, f.Line)
		}
	}
	return e
}
