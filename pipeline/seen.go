package pipeline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/recap-dev/recap/config"
	"github.com/recap-dev/recap/reports"
)

// maxSeen bounds the distinct tools and rules remembered for Unmatched.
const maxSeen = 100_000

// seen are the distinct tools and rules of the reports, before the filter,
// as names compare (lower case): rule ids, names and short names; and which
// of the filter's path globs some finding's path matched.
type seen struct {
	tools, rules map[string]string // lower case → as written
	// rawTools and rawRules are the names noted, as written: a name met
	// again is looked up, not lowered again (most findings repeat names).
	rawTools, rawRules map[string]struct{}
	globs              reports.Globs // the filter's path globs, each compiled
	hit                []bool        // whether globs[i] matched a finding's path
	left               int           // the globs no path matched yet
	last               string        // the last path matched against them
}

// newSeen remembers the tools and rules, and matches the paths against
// globs (compiled, as the filter's).
func newSeen(globs []string) (*seen, error) {
	g, err := reports.CompileGlobs(globs)
	if err != nil {
		return nil, err
	}
	return &seen{tools: map[string]string{}, rules: map[string]string{}, rawTools: map[string]struct{}{}, rawRules: map[string]struct{}{},
		globs: g, hit: make([]bool, len(g)), left: len(g), last: "\x00"}, nil
}

func (s *seen) add(f *reports.Finding) {
	if s.left > 0 && f.Path != s.last { // a report gives a file's findings together
		s.last = f.Path
		for i, g := range s.globs {
			if !s.hit[i] && g.Match(f.Path) {
				s.hit[i] = true
				s.left--
			}
		}
	}
	note(s.tools, s.rawTools, f.Tool)
	note(s.rules, s.rawRules, f.Rule)
	note(s.rules, s.rawRules, f.RuleName)
	if short := reports.ShortRule(f.Tool, f.Rule); short != f.Rule {
		note(s.rules, s.rawRules, short)
	}
}

// note remembers name in m by its lower case, unless raw has it as
// written already.
func note(m map[string]string, raw map[string]struct{}, name string) {
	if name == "" || len(m) >= maxSeen {
		return
	}
	if _, ok := raw[name]; ok {
		return
	}
	if len(raw) < 4*maxSeen {
		raw[name] = struct{}{}
	}
	k := strings.ToLower(name)
	if _, ok := m[k]; !ok {
		m[k] = name
	}
}

// unmatched returns the tools and rules of flt that no finding had, and
// its path globs that no finding's path matched; nil when s is nil.
func (s *seen) unmatched(flt *reports.Filter) []Unmatched {
	if s == nil {
		return nil
	}
	var out []Unmatched
	for _, c := range []struct {
		what  string
		names []string
		have  map[string]string
	}{{"tool", flt.Tools, s.tools}, {"rule", flt.Rules, s.rules}} {
		if len(c.have) >= maxSeen {
			continue // too many to be sure
		}
		var have []string
		for _, name := range c.names {
			if _, ok := c.have[strings.ToLower(name)]; ok {
				continue
			}
			if have == nil {
				for _, v := range c.have {
					have = append(have, v)
				}
				slices.Sort(have)
			}
			out = append(out, Unmatched{What: c.what, Name: name, Closest: reports.ClosestWords(name, have, 3)})
		}
	}
	for i, hit := range s.hit {
		if !hit && i < len(flt.Paths) {
			out = append(out, Unmatched{What: "path", Name: flt.Paths[i]})
		}
	}
	return out
}

// unmatchedConfig returns the rule patterns and path globs of cfg that no
// finding matched, each with its place in the file, a rule pattern with
// the rules closest to its rule part; nil when cfg is nil.
func (s *seen) unmatchedConfig(cfg *config.Config) []Unmatched {
	if cfg == nil {
		return nil
	}
	rules, paths := cfg.Unmatched()
	var out []Unmatched
	var have []string
	for _, p := range rules {
		u := Unmatched{What: "rule", Name: p.Tool + ":" + p.Rule, Where: place(cfg.Name, p.Pos)}
		if s != nil && len(s.rules) < maxSeen && !strings.ContainsAny(p.Rule, "*?") {
			if have == nil {
				for _, v := range s.rules {
					have = append(have, v)
				}
				slices.Sort(have)
			}
			u.Closest = reports.ClosestWords(p.Rule, have, 3)
		}
		out = append(out, u)
	}
	for _, p := range paths {
		out = append(out, Unmatched{What: "path", Name: p.Glob, Where: place(cfg.Name, p.Pos)})
	}
	return out
}

// place is where a configuration says something: file:line:column: key.
func place(file string, p config.Pos) string {
	return fmt.Sprintf("%s:%d:%d: %s", file, p.Line, p.Column, p.Key)
}
