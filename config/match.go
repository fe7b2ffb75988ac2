package config

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/recap-dev/recap/reports"
)

// Matching runs on every finding of every report (400,000 in a large
// one), and a report has few distinct rules and paths: what the
// configuration says of a rule (excluded? which overrides? which groups?)
// is worked out once per (tool, rule, rule name) and kept; whether a path
// is excluded, once per path. Each cache is bounded (maxCached entries);
// past it, answers are worked out each time, still right, only slower.

// maxCached bounds each cache. A report with more distinct rules or paths
// than this is not a real report.
const maxCached = 1 << 16

// Excluded reports whether the configuration leaves f out: its path
// matches a glob of exclude.paths or its rule a pattern of exclude.rules.
// Call it before Apply and before the filters; an excluded finding is
// counted as such, not dropped silently (the caller counts it).
func (c *Config) Excluded(f *reports.Finding) bool {
	m := c.matcher()
	if m == nil {
		return false
	}
	byRule := m.excludesRules && m.rule(f).excluded
	byPath := len(m.globs) > 0 && m.path(f.Path)
	return byRule || byPath
}

// ExcludedBy says what of the configuration leaves f out: "exclude.rules",
// "exclude.paths" (both, joined by " and "), or "" when nothing does.
func (c *Config) ExcludedBy(f *reports.Finding) string {
	m := c.matcher()
	if m == nil {
		return ""
	}
	var by []string
	if m.excludesRules && m.rule(f).excluded {
		by = append(by, "exclude.rules")
	}
	if len(m.globs) > 0 && m.path(f.Path) {
		by = append(by, "exclude.paths")
	}
	return strings.Join(by, " and ")
}

// Apply changes f as the overrides whose patterns match its rule say:
// each of impact, quality, severity and category is set by the last
// override in the file that sets it and matches (so a general override
// first and a narrower one after it reads naturally). The tool's own
// category stays in ToolCategory. Call it before the filters, so that
// --impact and --severity see what the configuration says.
func (c *Config) Apply(f *reports.Finding) {
	m := c.matcher()
	if m == nil || !m.overrides {
		return
	}
	e := m.rule(f)
	if e.impact != 0 {
		f.Impact = e.impact
	}
	if e.quality != 0 {
		f.Quality = e.quality
	}
	if e.severity != 0 {
		f.Severity = e.severity
	}
	if e.category != "" {
		f.Category = e.category
	}
}

// SameRule reports whether the configuration says that the rules of a and
// b mean the same: one group of same has a pattern matching each. Groups
// are not chained: [A, B] and [B, C] do not make A and C the same (write
// [A, B, C]). Where the findings are is not looked at: that is the
// grouping's business.
func (c *Config) SameRule(a, b *reports.Finding) bool {
	m := c.matcher()
	if m == nil || !m.groups {
		return false
	}
	ga, gb := m.rule(a).groups, m.rule(b).groups
	for i, j := 0, 0; i < len(ga) && j < len(gb); {
		switch {
		case ga[i] == gb[j]:
			return true
		case ga[i] < gb[j]:
			i++
		default:
			j++
		}
	}
	return false
}

// Groups returns the indexes of the groups of same that f's rule is in,
// ascending; nil when it is in none. The slice is the configuration's: do
// not change it.
func (c *Config) Groups(f *reports.Finding) []int32 {
	m := c.matcher()
	if m == nil || !m.groups {
		return nil
	}
	return m.rule(f).groups
}

// HasGroups reports whether the configuration groups rules as the same
// (Groups gives some finding's rule groups).
func (c *Config) HasGroups() bool {
	m := c.matcher()
	return m != nil && m.groups
}

// Unmatched returns the rule patterns and path globs that matched none of
// the findings given to Excluded, Apply and SameRule so far, in file
// order: after a run, the patterns worth a warning (a typo, a rule
// renamed, a tool no longer run). Each has its place in the file.
func (c *Config) Unmatched() (rules []RulePattern, paths []PathGlob) {
	m := c.matcher()
	if m == nil {
		return nil, nil
	}
	for i, u := range m.uses {
		if !m.ruleSeen[i].Load() {
			rules = append(rules, *u.p)
		}
	}
	for i, g := range m.globs {
		if !m.pathSeen[i].Load() {
			paths = append(paths, *g.p)
		}
	}
	return rules, paths
}

// matcher is a Config's matching state, made from its fields once.
//
// Lookups are lock-free on the common paths: the rules seen so far are in
// a map that is replaced, never changed (copy on write), up to
// maxSnapshot rules, more than a real set of reports has; the last rule
// and the last path looked up are kept (a report lists a file's findings
// together, and Excluded and Apply ask about the same finding in turn).
// Past maxSnapshot rules, and for paths, a map under a lock.
type matcher struct {
	uses     []use // every rule pattern, in file order
	ruleSeen []atomic.Bool
	globs    []glob
	pathSeen []atomic.Bool

	excludesRules, overrides, groups bool
	cfg                              *Config

	lastRule atomic.Pointer[ruleEntry]
	snapshot atomic.Pointer[map[string]*ruleEntry] // by rule id; see ruleEntry.next
	mu       sync.Mutex
	overflow map[ruleKey]*ruleEntry // past maxSnapshot, under mu
	size     int                    // rules in the snapshot

	lastPath atomic.Pointer[pathEntry]
	pmu      sync.RWMutex
	paths    map[string]*pathEntry
}

// maxSnapshot bounds the copy-on-write map of rules: each new rule copies
// it, so filling it costs maxSnapshot²/2 copies once (a few milliseconds).
const maxSnapshot = 1024

// A use is a rule pattern and what it is for.
type use struct {
	p     *RulePattern
	c     compiledPattern
	kind  useKind
	index int // of the override or the group
}

type useKind uint8

const (
	useExclude useKind = iota
	useOverride
	useSame
)

type glob struct {
	p *PathGlob
	g *reports.Glob
}

type ruleKey struct{ tool, rule, name string }

// ruleEntry is what the configuration says of one rule. The snapshot is
// keyed by the rule id alone (one string to hash), and the rare entries of
// one id with another tool or name are chained through next.
type ruleEntry struct {
	key      ruleKey
	next     *ruleEntry
	excluded bool
	impact   reports.Impact
	quality  reports.Quality
	severity reports.Severity
	category string
	groups   []int32 // indexes of the groups of same, ascending
}

type pathEntry struct {
	path     string
	excluded bool
}

func (c *Config) matcher() *matcher {
	if c == nil {
		return nil
	}
	c.once.Do(func() { c.m = newMatcher(c) })
	return c.m
}

func newMatcher(c *Config) *matcher {
	m := &matcher{cfg: c, overflow: map[ruleKey]*ruleEntry{}, paths: map[string]*pathEntry{}}
	m.snapshot.Store(&map[string]*ruleEntry{})
	for i := range c.Exclude.Rules {
		m.uses = append(m.uses, use{p: &c.Exclude.Rules[i], kind: useExclude})
		m.excludesRules = true
	}
	for i := range c.Overrides {
		for j := range c.Overrides[i].Rules {
			m.uses = append(m.uses, use{p: &c.Overrides[i].Rules[j], kind: useOverride, index: i})
			m.overrides = true
		}
	}
	for i := range c.Same {
		for j := range c.Same[i] {
			m.uses = append(m.uses, use{p: &c.Same[i][j], kind: useSame, index: i})
			m.groups = true
		}
	}
	for i := range c.Exclude.Paths {
		// Parse checked every glob; one that does not compile (a Config
		// made by hand) matches nothing.
		if g, err := reports.CompileGlob(c.Exclude.Paths[i].Glob); err == nil {
			m.globs = append(m.globs, glob{p: &c.Exclude.Paths[i], g: g})
		}
	}
	// Parse checked every pattern's length; one that does not compile (a
	// Config made by hand) matches nothing.
	for i := range m.uses {
		if c, err := m.uses[i].p.compile(); err == nil {
			m.uses[i].c = c
		} else {
			m.uses[i].c = compiledPattern{}
		}
	}
	m.ruleSeen = make([]atomic.Bool, len(m.uses))
	m.pathSeen = make([]atomic.Bool, len(m.globs))
	return m
}

// rule returns what the configuration says of f's rule.
func (m *matcher) rule(f *reports.Finding) *ruleEntry {
	if e := m.lastRule.Load(); e != nil && e.is(f) {
		return e
	}
	e := (*m.snapshot.Load())[f.Rule]
	for e != nil && !e.is(f) {
		e = e.next
	}
	if e == nil {
		e = m.newRule(ruleKey{f.Tool, f.Rule, f.RuleName})
	}
	m.lastRule.Store(e)
	return e
}

func (e *ruleEntry) is(f *reports.Finding) bool {
	return e.key.rule == f.Rule && e.key.tool == f.Tool && e.key.name == f.RuleName
}

// newRule works out a rule not in the snapshot and keeps it: in a new
// snapshot while it is small, in the overflow map past it, and nowhere
// past maxCached.
func (m *matcher) newRule(k ruleKey) *ruleEntry {
	m.mu.Lock()
	defer m.mu.Unlock()
	snap := *m.snapshot.Load()
	for e := snap[k.rule]; e != nil; e = e.next {
		if e.key == k {
			return e
		}
	}
	if e, ok := m.overflow[k]; ok {
		return e
	}
	// The key's strings may share memory with a whole report.
	k = ruleKey{strings.Clone(k.tool), strings.Clone(k.rule), strings.Clone(k.name)}
	e := m.work(k)
	switch {
	case m.size < maxSnapshot:
		next := make(map[string]*ruleEntry, len(snap)+1)
		for key, v := range snap {
			next[key] = v
		}
		e.next = snap[k.rule]
		next[k.rule] = e
		m.snapshot.Store(&next)
		m.size++
	case len(m.overflow) < maxCached:
		m.overflow[k] = e
	}
	return e
}

// work matches a rule against every pattern, in file order, so that a
// later override's fields replace an earlier one's.
func (m *matcher) work(k ruleKey) *ruleEntry {
	e := &ruleEntry{key: k}
	for i, u := range m.uses {
		if u.c.tool == nil || !u.c.match(k.tool, k.rule, k.name) {
			continue
		}
		m.ruleSeen[i].Store(true)
		switch u.kind {
		case useExclude:
			e.excluded = true
		case useOverride:
			o := &m.cfg.Overrides[u.index]
			if o.Impact != 0 {
				e.impact = o.Impact
			}
			if o.Quality != 0 {
				e.quality = o.Quality
			}
			if o.Severity != 0 {
				e.severity = o.Severity
			}
			if o.Category != "" {
				e.category = o.Category
			}
		case useSame:
			if g := int32(u.index); len(e.groups) == 0 || e.groups[len(e.groups)-1] != g {
				e.groups = append(e.groups, g)
			}
		}
	}
	return e
}

// path reports whether a path matches a glob of exclude.paths.
func (m *matcher) path(p string) bool {
	if e := m.lastPath.Load(); e != nil && e.path == p {
		return e.excluded
	}
	m.pmu.RLock()
	e, ok := m.paths[p]
	n := len(m.paths)
	m.pmu.RUnlock()
	if !ok {
		e = &pathEntry{path: strings.Clone(p)}
		for i, g := range m.globs {
			if g.g.Match(p) {
				e.excluded = true
				m.pathSeen[i].Store(true)
			}
		}
		if n < maxCached {
			m.pmu.Lock()
			if len(m.paths) < maxCached {
				m.paths[e.path] = e
			}
			m.pmu.Unlock()
		}
	}
	m.lastPath.Store(e)
	return e.excluded
}
