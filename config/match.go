package config

import (
	"regexp"
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
type matcher struct {
	uses     []use // every rule pattern, in file order
	ruleSeen []atomic.Bool
	globs    []glob
	pathSeen []atomic.Bool

	excludesRules, overrides, groups bool
	cfg                              *Config

	mu    sync.RWMutex
	rules map[ruleKey]*ruleEntry
	pmu   sync.RWMutex
	paths map[string]bool
}

// A use is a rule pattern and what it is for.
type use struct {
	p     *RulePattern
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
	p  *PathGlob
	re *regexp.Regexp
}

type ruleKey struct{ tool, rule, name string }

// ruleEntry is what the configuration says of one rule.
type ruleEntry struct {
	excluded bool
	impact   reports.Impact
	quality  reports.Quality
	severity reports.Severity
	category string
	groups   []int32 // indexes of the groups of same, ascending
}

func (c *Config) matcher() *matcher {
	if c == nil {
		return nil
	}
	c.once.Do(func() { c.m = newMatcher(c) })
	return c.m
}

func newMatcher(c *Config) *matcher {
	m := &matcher{cfg: c, rules: map[ruleKey]*ruleEntry{}, paths: map[string]bool{}}
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
		if gs, err := reports.CompileGlobs([]string{c.Exclude.Paths[i].Glob}); err == nil {
			m.globs = append(m.globs, glob{p: &c.Exclude.Paths[i], re: gs[0]})
		}
	}
	m.ruleSeen = make([]atomic.Bool, len(m.uses))
	m.pathSeen = make([]atomic.Bool, len(m.globs))
	return m
}

// rule returns what the configuration says of f's rule.
func (m *matcher) rule(f *reports.Finding) *ruleEntry {
	k := ruleKey{f.Tool, f.Rule, f.RuleName}
	m.mu.RLock()
	e, ok := m.rules[k]
	n := len(m.rules)
	m.mu.RUnlock()
	if ok {
		return e
	}
	e = m.work(k)
	if n < maxCached {
		// The key's strings may share memory with a whole report.
		k = ruleKey{strings.Clone(k.tool), strings.Clone(k.rule), strings.Clone(k.name)}
		m.mu.Lock()
		if len(m.rules) < maxCached {
			m.rules[k] = e
		}
		m.mu.Unlock()
	}
	return e
}

// work matches a rule against every pattern, in file order, so that a
// later override's fields replace an earlier one's.
func (m *matcher) work(k ruleKey) *ruleEntry {
	e := &ruleEntry{}
	for i, u := range m.uses {
		if !u.p.Match(k.tool, k.rule, k.name) {
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
	m.pmu.RLock()
	x, ok := m.paths[p]
	n := len(m.paths)
	m.pmu.RUnlock()
	if ok {
		return x
	}
	for i, g := range m.globs {
		if g.re.MatchString(p) {
			x = true
			m.pathSeen[i].Store(true)
		}
	}
	if n < maxCached {
		m.pmu.Lock()
		if len(m.paths) < maxCached {
			m.paths[strings.Clone(p)] = x
		}
		m.pmu.Unlock()
	}
	return x
}
