package triage

import (
	"io/fs"
	"sync"
	"time"

	"github.com/recap-dev/recap/reports"
)

// Source reads a file of the repository by its repository-relative path
// (a content.Root's FS, or the files at a revision).
type Source = fs.FS

// A Matcher tells which entry of a triage file covers each finding of a
// run. It reads each source file at most once, and only the files of the
// findings whose tool and rule some entry names, so that a run without
// decisions on a file pays nothing for it. Safe for concurrent use.
type Matcher struct {
	src fs.FS
	now time.Time

	mu      sync.Mutex
	entries []Entry
	byRule  map[string][]int // tool\x00rule → entries
	used    []bool
	files   map[string][]string // path → line locations (nil: unreadable)
	missing map[string]bool     // entry paths absent from src
}

// NewMatcher returns a matcher of f's entries, reading source files
// through src (nil: matching without location fingerprints, by line text
// and message), with now as the day expiries are judged on.
func NewMatcher(f *File, src fs.FS, now time.Time) *Matcher {
	m := &Matcher{src: src, now: now, byRule: map[string][]int{}, files: map[string][]string{}, missing: map[string]bool{}}
	if f != nil {
		m.entries = f.Entries
	}
	m.used = make([]bool, len(m.entries))
	for i := range m.entries {
		e := &m.entries[i]
		k := e.Tool + "\x00" + e.Rule
		m.byRule[k] = append(m.byRule[k], i)
		if src != nil {
			if _, err := fs.Stat(src, e.Path); err != nil {
				m.missing[e.Path] = true
			}
		}
	}
	return m
}

// Len returns the number of entries.
func (m *Matcher) Len() int { return len(m.entries) }

// Decide returns the decision that covers f, nil when no entry does.
func (m *Matcher) Decide(f *reports.Finding) *Decision {
	if m == nil || len(m.entries) == 0 {
		return nil
	}
	cands := m.byRule[f.Tool+"\x00"+f.Rule]
	if len(cands) == 0 {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	loc := m.location(f)
	best := -1
	for _, i := range cands {
		e := &m.entries[i]
		samePath := e.Path == f.Path
		if !samePath && !m.missing[e.Path] {
			continue
		}
		switch {
		case loc != "" && e.Location == loc:
			best = i
		case e.Location == "" && f.Line == 0 && foldSpace(e.Message) == foldSpace(f.Message):
			best = i
		}
		if best >= 0 && samePath {
			break
		}
	}
	if best < 0 {
		return nil
	}
	m.used[best] = true
	e := &m.entries[best]
	return &Decision{Entry: e, Expired: e.Expired(m.now)}
}

// location returns f's location fingerprint, "" when its file cannot be read.
func (m *Matcher) location(f *reports.Finding) string {
	if m.src == nil || f.Line < 1 {
		return ""
	}
	locs, ok := m.files[f.Path]
	if !ok {
		src, err := fs.ReadFile(m.src, f.Path)
		if err == nil {
			locs = Locations(src)
		}
		m.files[f.Path] = locs
	}
	if f.Line > len(locs) {
		return ""
	}
	return locs[f.Line-1]
}

// Stale returns the entries that matched no finding of the calls so far.
func (m *Matcher) Stale() []Entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Entry
	for i, u := range m.used {
		if !u {
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

// EntryFor returns a new entry for f (its state, reason and the rest left
// for the caller to fill), its location and line read through src.
func EntryFor(f *reports.Finding, src fs.FS) Entry {
	e := Entry{Tool: f.Tool, Rule: f.Rule, Path: f.Path, Message: foldSpace(f.Message)}
	if src != nil && f.Line > 0 {
		if b, err := fs.ReadFile(src, f.Path); err == nil {
			if locs := Locations(b); f.Line <= len(locs) {
				e.Location = locs[f.Line-1]
			}
			e.Line = LineText(b, f.Line)
		}
	}
	return e
}
