package reports

import (
	"cmp"
	"slices"
	"strings"
)

// Ref names a finding of a run without its id's text: the number of its
// input among the run's inputs, and its ordinal there (the n of its id
// tag-n).
type Ref struct {
	Input, N uint32
}

// A Grouper finds the findings of a run that report the same problem at the
// same place (docs/formats.md, "Duplicates"): findings of one file whose
// lines overlap and whose rules are in one class of equivalent rules
// ([RuleClasses], and the pairs a configuration adds), and, for findings
// about security, findings of one line that share a CWE id. Two findings of
// one rule are never one problem (two parameters of one method, each not
// final, are two). Findings are added as they stream and the groups are
// resolved once all are in; the grouper keeps 40 bytes for each finding
// that may share a problem (one whose rule is in a class, or about security
// with a CWE id), and nothing of the others.
type Grouper struct {
	classOf func(tool, rule string) int
	more    func(f *Finding) []int32 // the further classes a configuration gives f's rule
	paths   map[string]uint32
	rules   map[[2]string]uint32
	names   [][2]string // tool and rule, by index
	chunks  [][]member  // the members, in chunks of memberChunk
	n       int         // how many
	cwes    []cweLink
	aliases []alias // the members that repeat another in a further class
	// The rule and the path of the finding added last, and what is known
	// of each rule, so that most findings cost no map lookup.
	byRule   map[groupRule]ruleInfo
	lastRule groupRule
	lastInfo ruleInfo
	lastPath string
	lastPI   uint32
	haveLast bool
}

// groupRule is a rule as findings name it.
type groupRule struct{ tool, rule, name string }

// ruleInfo is what the grouper knows of a rule: its index in names (once
// a finding of it is kept), its class (-1: none), its further classes.
type ruleInfo struct {
	ri    uint32
	known bool // ri is set
	class int32
	more  []int32
}

// alias is a member that repeats member primary in another class.
type alias struct{ member, primary uint32 }

// member is what the grouper keeps of a finding.
type member struct {
	ref        Ref
	path, rule uint32
	class      int32 // -1: none
	line       int32
	span, col  uint16 // the lines after line it ends on, and its column (each at most 65,535)
	impact     Impact
	quality    Quality
	severity   Severity
	isNew      bool // new against a baseline (the finding's Baseline)
}

// end is the last line of m.
func (m *member) end() int32 { return m.line + int32(m.span) }

// cweLink is a finding about security and one of its CWE ids.
type cweLink struct {
	cwe, member uint32
}

// maxCWELinks bounds the CWE ids of one finding a grouper looks at.
const maxCWELinks = 4

// NewGrouper returns a grouper whose classes of equivalent rules are given
// by classOf (the index of a rule's class, -1 for none; rule is the short
// name, see [ShortRule]).
func NewGrouper(classOf func(tool, rule string) int) *Grouper {
	return &Grouper{classOf: classOf, paths: map[string]uint32{}, rules: map[[2]string]uint32{}}
}

// More gives the grouper further classes of equivalent rules: more returns
// the indexes of the groups of a configuration that f's rule is in (see
// config.Config.Groups). A rule may be in several of them, besides its
// class in RuleClasses; groups are not chained (a finding joins the others
// of each of its groups, and they do not join each other through it unless
// they share one).
func (g *Grouper) More(more func(f *Finding) []int32) { g.more = more }

// firstMoreClass is where the classes given by More begin.
const firstMoreClass = 1 << 24

// Add considers f, named by ref. A finding without a file, without a line,
// or that can share no problem is not kept.
func (g *Grouper) Add(f *Finding, ref Ref) {
	if f.Path == "" || f.Line <= 0 {
		return
	}
	info := g.rule(f)
	security := f.Security() && len(f.CWE) > 0
	if info.class < 0 && !security {
		return
	}
	if !info.known {
		short := ShortRule(f.Tool, f.Rule)
		rk := [2]string{f.Tool, short}
		ri, ok := g.rules[rk]
		if !ok {
			rk = [2]string{strings.Clone(f.Tool), strings.Clone(short)} // not the report's memory
			ri = uint32(len(g.names))
			g.rules[rk] = ri
			g.names = append(g.names, rk)
		}
		info.ri, info.known = ri, true
		g.lastInfo = info
		if _, ok := g.byRule[g.lastRule]; ok {
			g.byRule[g.lastRule] = info
		}
	}
	if !g.haveLast || f.Path != g.lastPath {
		pi, ok := g.paths[f.Path]
		if !ok {
			pi = uint32(len(g.paths))
			g.paths[strings.Clone(f.Path)] = pi // not the report's memory
		}
		g.lastPath, g.lastPI = f.Path, pi
	}
	g.haveLast = true
	m := member{ref: ref, path: g.lastPI, rule: info.ri, class: info.class, line: int32(f.Line),
		span: uint16(min(max(f.EndLine-f.Line, 0), 1<<16-1)), col: uint16(min(max(f.Column, 0), 1<<16-1)),
		impact: f.Impact, quality: f.Quality, severity: f.Severity, isNew: f.Baseline == BaselineNew}
	if security {
		for _, id := range f.CWE[:min(len(f.CWE), maxCWELinks)] {
			g.cwes = append(g.cwes, cweLink{cwe: uint32(id), member: uint32(g.n)})
		}
	}
	primary := uint32(g.n)
	g.add(m)
	for _, c := range info.more {
		a := m
		a.class = firstMoreClass + c
		g.aliases = append(g.aliases, alias{member: uint32(g.n), primary: primary})
		g.add(a)
	}
}

// memberChunk is how many members a chunk holds: a grouper grows by
// chunks, never copying its members (a slice's growth would hold the old
// array and the new one at once).
const memberChunk = 8192

// add appends m to the members.
func (g *Grouper) add(m member) {
	if g.n%memberChunk == 0 {
		g.chunks = append(g.chunks, make([]member, 0, memberChunk))
	}
	c := &g.chunks[len(g.chunks)-1]
	*c = append(*c, m)
	g.n++
}

// at returns the i-th member.
func (g *Grouper) at(i int) *member { return &g.chunks[i/memberChunk][i%memberChunk] }

// maxRules bounds the rules whose classes a grouper remembers.
const maxRules = 1 << 16

// rule returns what the grouper knows of f's rule, working it out once.
func (g *Grouper) rule(f *Finding) ruleInfo {
	k := groupRule{f.Tool, f.Rule, f.RuleName}
	if g.haveLast && k == g.lastRule {
		return g.lastInfo
	}
	if info, ok := g.byRule[k]; ok {
		g.lastRule, g.lastInfo = k, info
		return info
	}
	class := g.classOf(f.Tool, ShortRule(f.Tool, f.Rule))
	var more []int32
	if g.more != nil {
		more = g.more(f)
	}
	if class < 0 && len(more) > 0 {
		class, more = firstMoreClass+int(more[0]), more[1:]
	}
	info := ruleInfo{class: int32(class), more: more}
	if g.byRule == nil {
		g.byRule = map[groupRule]ruleInfo{}
	}
	if len(g.byRule) < maxRules {
		// The key's strings may share memory with a whole report.
		k = groupRule{strings.Clone(k.tool), strings.Clone(k.rule), strings.Clone(k.name)}
		g.byRule[k] = info
	}
	g.lastRule, g.lastInfo = k, info
	return info
}

// Groups are the problems that more than one finding of a run reports: for
// each, its lead (the most important member, which views show) and the
// others (which they count and name).
type Groups struct {
	leadOf map[Ref]Ref    // a member that is not its group's lead → the lead
	others map[Ref][]Ref  // a lead → the other members, most important first
	names  map[Ref]uint32 // a member → its rule, an index into rules
	rules  [][2]string    // tool and rule, by index
	// Duplicates counts the members that are not leads: the findings
	// that views leave out because another shows their problem.
	Duplicates int
	// ByImpact and BySeverity count the duplicates by impact and severity.
	ByImpact   [6]int
	BySeverity [4]int
	// NewNotProblems counts, against a baseline, the findings new there
	// that make no new problem: the duplicates of a new problem, and the
	// new findings of a problem the baseline had (a tool added to the
	// pipeline reports an old problem). The new problems are the new
	// findings less these.
	NewNotProblems int
	// NewOfOldProblems counts the findings new against a baseline whose
	// problem the baseline had: they count as unchanged.
	NewOfOldProblems int
	old              map[Ref]bool // leads new against a baseline of a problem it had
}

// Known reports whether lead, new against a baseline, leads a problem that
// the baseline had (another finding of it is not new): the problem is then
// unchanged.
func (gs *Groups) Known(lead Ref) bool { return gs != nil && gs.old[lead] }

// Resolve groups the findings added. hasText says whether a rule's report
// carries its text (the lead is then the member whose report explains its
// rule, among the most important); nil: none.
func (g *Grouper) Resolve(hasText func(tool, rule string) bool) *Groups {
	uf := newUnionFind(g.n)
	g.groupClasses(uf)
	g.groupCWEs(uf)
	isAlias := map[uint32]bool{}
	for _, a := range g.aliases {
		uf.union(int(a.primary), int(a.member))
		isAlias[a.member] = true
	}
	sets := map[int][]int{}
	for i := range g.n {
		if len(isAlias) > 0 && isAlias[uint32(i)] {
			continue // its finding is in the set as its primary member
		}
		if r := uf.find(i); uf.size[r] > 1 {
			sets[r] = append(sets[r], i)
		}
	}
	gs := &Groups{leadOf: map[Ref]Ref{}, others: map[Ref][]Ref{}, names: map[Ref]uint32{}, rules: g.names}
	text := func(i int) bool {
		n := g.names[g.at(i).rule]
		return hasText != nil && hasText(n[0], n[1])
	}
	for _, set := range sets {
		if len(set) < 2 {
			continue
		}
		slices.SortFunc(set, func(a, b int) int {
			x, y := g.at(a), g.at(b)
			if c := cmp.Compare(y.impact, x.impact); c != 0 {
				return c
			}
			if c := cmp.Compare(y.quality, x.quality); c != 0 {
				return c
			}
			if c := cmp.Compare(y.severity, x.severity); c != 0 {
				return c
			}
			if ta, tb := text(a), text(b); ta != tb {
				if ta {
					return -1
				}
				return 1
			}
			if c := cmp.Compare(x.line, y.line); c != 0 {
				return c
			}
			if c := cmp.Compare(x.col, y.col); c != 0 {
				return c
			}
			na, nb := g.names[x.rule], g.names[y.rule]
			if c := strings.Compare(na[0], nb[0]); c != 0 {
				return c
			}
			if c := strings.Compare(na[1], nb[1]); c != 0 {
				return c
			}
			if c := cmp.Compare(x.ref.Input, y.ref.Input); c != 0 {
				return c
			}
			return cmp.Compare(x.ref.N, y.ref.N)
		})
		lead := g.at(set[0]).ref
		gs.names[lead] = g.at(set[0]).rule
		newMembers := 0
		for _, i := range set {
			if g.at(i).isNew {
				newMembers++
			}
		}
		switch {
		case newMembers == len(set): // a new problem
			gs.NewNotProblems += newMembers - 1
		case newMembers > 0:
			gs.NewNotProblems += newMembers
			gs.NewOfOldProblems += newMembers
			if g.at(set[0]).isNew {
				if gs.old == nil {
					gs.old = map[Ref]bool{}
				}
				gs.old[lead] = true
			}
		}
		for _, i := range set[1:] {
			m := g.at(i)
			gs.leadOf[m.ref] = lead
			gs.others[lead] = append(gs.others[lead], m.ref)
			gs.names[m.ref] = m.rule
			gs.Duplicates++
			gs.ByImpact[min(int(m.impact), 5)]++
			gs.BySeverity[min(int(m.severity), 3)]++
		}
	}
	return gs
}

// groupClasses joins the findings of one file whose rules are of one class
// and whose lines overlap. On one line, several findings of each rule (the
// parameters of one method) are paired in the order of their columns: the
// first of each rule together, then the second of each.
func (g *Grouper) groupClasses(uf *unionFind) {
	idx := make([]int, 0, g.n)
	for i := range g.n {
		if g.at(i).class >= 0 {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int {
		x, y := g.at(a), g.at(b)
		if c := cmp.Compare(x.path, y.path); c != 0 {
			return c
		}
		if c := cmp.Compare(x.class, y.class); c != 0 {
			return c
		}
		if c := cmp.Compare(x.line, y.line); c != 0 {
			return c
		}
		if c := cmp.Compare(x.rule, y.rule); c != 0 {
			return c
		}
		return cmp.Compare(x.col, y.col)
	})
	for start := 0; start < len(idx); {
		end := start + 1
		first := g.at(idx[start])
		for end < len(idx) && g.at(idx[end]).path == first.path && g.at(idx[end]).class == first.class {
			end++
		}
		g.groupBucket(uf, idx[start:end])
		start = end
	}
}

// groupBucket joins the findings of one file and class (in line, rule and
// column order).
func (g *Grouper) groupBucket(uf *unionFind, b []int) {
	if len(b) < 2 {
		return
	}
	// One line at a time: the j-th finding of each rule on the line together.
	var firstOf, row []int // reused from line to line
	for start := 0; start < len(b); {
		end := start + 1
		line := g.at(b[start]).line
		for end < len(b) && g.at(b[end]).line == line {
			end++
		}
		firstOf = firstOf[:0] // the first finding of each rule on the line, by position in b
		for k := start; k < end; k++ {
			if k == start || g.at(b[k]).rule != g.at(b[k-1]).rule {
				firstOf = append(firstOf, k)
			}
		}
		if len(firstOf) > 1 {
			for j := 0; ; j++ {
				row = row[:0]
				for r, at := range firstOf {
					stop := end
					if r+1 < len(firstOf) {
						stop = firstOf[r+1]
					}
					if at+j < stop {
						row = append(row, b[at+j])
					}
				}
				if len(row) == 0 {
					break
				}
				for _, x := range row[1:] {
					uf.union(row[0], x)
				}
			}
		}
		start = end
	}
	// Across lines: a finding that spans lines joins, of each other rule,
	// the first finding whose lines overlap its own.
	var joined []uint32
	for i, x := range b {
		mx := g.at(x)
		if mx.span == 0 {
			continue // a finding of one line joins the ranges that start before it, below
		}
		joined = append(joined[:0], mx.rule) // the rules joined: few in a class
		for _, y := range b[i+1:] {
			my := g.at(y)
			if my.line > mx.end() {
				break
			}
			if !slices.Contains(joined, my.rule) {
				joined = append(joined, my.rule)
				uf.union(x, y)
			}
		}
	}
}

// groupCWEs joins the findings about security of one line that share a
// CWE id, of different rules.
func (g *Grouper) groupCWEs(uf *unionFind) {
	if len(g.cwes) < 2 {
		return
	}
	links := slices.Clone(g.cwes)
	slices.SortFunc(links, func(a, b cweLink) int {
		x, y := g.at(int(a.member)), g.at(int(b.member))
		if c := cmp.Compare(x.path, y.path); c != 0 {
			return c
		}
		if c := cmp.Compare(x.line, y.line); c != 0 {
			return c
		}
		if c := cmp.Compare(a.cwe, b.cwe); c != 0 {
			return c
		}
		return cmp.Compare(a.member, b.member)
	})
	for start := 0; start < len(links); {
		end := start + 1
		a := g.at(int(links[start].member))
		for end < len(links) {
			b := g.at(int(links[end].member))
			if b.path != a.path || b.line != a.line || links[end].cwe != links[start].cwe {
				break
			}
			end++
		}
		seen := map[uint32]bool{}
		lead := -1
		for k := start; k < end; k++ {
			m := int(links[k].member)
			r := g.at(m).rule
			if seen[r] {
				continue // two findings of one rule stay two
			}
			seen[r] = true
			if lead < 0 {
				lead = m
			} else {
				uf.union(lead, m)
			}
		}
		start = end
	}
}

// Grouped reports whether any problem has more than one finding.
func (gs *Groups) Grouped() bool { return gs != nil && len(gs.others) > 0 }

// Problems counts the problems with more than one finding.
func (gs *Groups) Problems() int {
	if gs == nil {
		return 0
	}
	return len(gs.others)
}

// LeadOf returns the lead of ref's problem when ref is one of its other
// members; false when ref leads its problem or is alone.
func (gs *Groups) LeadOf(ref Ref) (Ref, bool) {
	if gs == nil {
		return Ref{}, false
	}
	l, ok := gs.leadOf[ref]
	return l, ok
}

// Others returns the other members of the problem ref leads, most
// important first; nil when it leads none.
func (gs *Groups) Others(ref Ref) []Ref {
	if gs == nil {
		return nil
	}
	return gs.others[ref]
}

// Name returns the tool and the rule's short name of a grouped finding.
func (gs *Groups) Name(ref Ref) (tool, rule string) {
	i, ok := gs.names[ref]
	if !ok {
		return "", ""
	}
	n := gs.rules[i]
	return n[0], n[1]
}

// unionFind is a disjoint-set forest over 0…n-1.
type unionFind struct {
	parent, size []int32
}

func newUnionFind(n int) *unionFind {
	u := &unionFind{parent: make([]int32, n), size: make([]int32, n)}
	for i := range u.parent {
		u.parent[i], u.size[i] = int32(i), 1
	}
	return u
}

func (u *unionFind) find(i int) int {
	for int(u.parent[i]) != i {
		u.parent[i] = u.parent[u.parent[i]]
		i = int(u.parent[i])
	}
	return i
}

func (u *unionFind) union(a, b int) {
	a, b = u.find(a), u.find(b)
	if a == b {
		return
	}
	if u.size[a] < u.size[b] {
		a, b = b, a
	}
	u.parent[b] = int32(a)
	u.size[a] += u.size[b]
}
