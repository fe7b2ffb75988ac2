package reports

import (
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"math"
	"runtime"
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
// resolved once all are in, one file at a time. The grouper keeps, of each
// finding that may share a problem (one whose rule is in a class, or about
// security with a CWE id), about 7 bytes: its place, rule and importance,
// each encoded against the finding before it in a run of findings of one
// file and input; nothing of the others, and no path's text (a file is
// known by a 64-bit hash of its path).
type Grouper struct {
	classOf func(tool, rule string) int
	more    func(f *Finding) []int32 // the further classes a configuration gives f's rule
	rules   map[[2]string]uint32
	names   [][2]string // tool and rule, by index
	seed    maphash.Seed
	runs    []run
	*stream
	// The run being added to (an index into runs; -1: none), and the line
	// and ordinal of its last member.
	cur      int
	prevLine int32
	prevN    uint32
	// The rule and the path of the finding added last, and what is known
	// of each rule, so that most findings cost no map lookup.
	byRule   map[groupRule]ruleInfo
	lastRule groupRule
	lastInfo ruleInfo
	lastPath string
	lastHash uint64
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

// A run is a sequence of members of one file and one input, added one
// after the other (a report lists a file's findings together).
type run struct {
	path  uint64 // the hash of the file's path
	input uint32
	at    uint32 // where its first member is encoded: chunk<<chunkBits | offset
	count uint32 // its members, aliases included
}

// The encoding of a member, against the member before it in its run (the
// first against line 0 and ordinal 0):
//
//	uvarint  rule index<<2 | alias<<1 | has CWE ids
//	uvarint  class + 1
//	         an alias (the finding again, in a further class) ends here
//	byte     impact | severity<<3 | quality<<5 | new<<7
//	varint   line - the line before
//	uvarint  the lines after line it ends on (at most 65,535)
//	uvarint  column (at most 65,535)
//	varint   ordinal - the ordinal before - 1
//	uvarint  how many CWE ids, then each, when it has some
//
// A member is never split between chunks.
const (
	chunkBits  = 16
	chunkSize  = 1 << chunkBits
	maxEncoded = 3*binary.MaxVarintLen32 + 1 + 3*binary.MaxVarintLen64 + (1+maxCWELinks)*binary.MaxVarintLen32
)

// member is a finding as the grouper decodes it, for one file.
type member struct {
	ref       Ref
	rule      uint32
	class     int32 // -1: none
	line      int32
	span, col uint16 // the lines after line it ends on, and its column (each at most 65,535)
	impact    Impact
	quality   Quality
	severity  Severity
	isNew     bool // new against a baseline (the finding's Baseline)
	alias     bool // repeats the member before it in a further class
}

// end is the last line of m.
func (m *member) end() int32 { return m.line + int32(m.span) }

// cweLink is a finding about security and one of its CWE ids.
type cweLink struct {
	cwe, member uint32
}

// maxCWELinks bounds the CWE ids of one finding a grouper looks at.
const maxCWELinks = 4

// stream is the members of a grouper, encoded, in chunks of chunkSize
// bytes outside the Go heap where the system allows it (the members are
// kept as long as the reports are read: in the heap, they would count
// twice towards the memory the collector lets the heap grow to).
type stream struct {
	chunks [][]byte
	mapped int // how many of the first chunks are outside the heap
}

// chunk adds a chunk.
func (s *stream) chunk() {
	b, mapped := offHeap(chunkSize)
	if mapped && s.mapped == len(s.chunks) {
		s.mapped++
	} else if mapped {
		freeOffHeap(b) // keep the mapped ones first
		b = make([]byte, 0, chunkSize)
	}
	s.chunks = append(s.chunks, b)
}

// free gives back the chunks' memory.
func (s *stream) free() {
	for _, b := range s.chunks[:s.mapped] {
		freeOffHeap(b)
	}
	s.chunks, s.mapped = nil, 0
}

// NewGrouper returns a grouper whose classes of equivalent rules are given
// by classOf (the index of a rule's class, -1 for none; rule is the short
// name, see [ShortRule]).
func NewGrouper(classOf func(tool, rule string) int) *Grouper {
	g := &Grouper{classOf: classOf, rules: map[[2]string]uint32{}, seed: maphash.MakeSeed(), cur: -1, stream: &stream{}}
	runtime.AddCleanup(g, (*stream).free, g.stream) // a grouper left unresolved
	return g
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
		g.lastPath, g.lastHash = f.Path, maphash.String(g.seed, f.Path)
	}
	g.haveLast = true
	at := g.room()
	if g.cur < 0 || g.runs[g.cur].path != g.lastHash || g.runs[g.cur].input != ref.Input {
		g.runs = append(g.runs, run{path: g.lastHash, input: ref.Input, at: at})
		g.cur, g.prevLine, g.prevN = len(g.runs)-1, 0, 0
	}
	cur := &g.runs[g.cur]
	var cwes []int
	if security {
		cwes = f.CWE[:min(len(f.CWE), maxCWELinks)]
	}
	line := int32(min(f.Line, math.MaxInt32))
	b := g.chunks[len(g.chunks)-1]
	b = binary.AppendUvarint(b, uint64(info.ri)<<2|b2u(len(cwes) > 0))
	b = binary.AppendUvarint(b, uint64(info.class+1))
	b = append(b, byte(f.Impact&7)|byte(f.Severity&3)<<3|byte(f.Quality&3)<<5|byte(b2u(f.Baseline == BaselineNew))<<7)
	b = binary.AppendVarint(b, int64(line)-int64(g.prevLine))
	b = binary.AppendUvarint(b, uint64(min(max(f.EndLine-f.Line, 0), 1<<16-1)))
	b = binary.AppendUvarint(b, uint64(min(max(f.Column, 0), 1<<16-1)))
	b = binary.AppendVarint(b, int64(ref.N)-int64(g.prevN)-1)
	if len(cwes) > 0 {
		b = binary.AppendUvarint(b, uint64(len(cwes)))
		for _, id := range cwes {
			b = binary.AppendUvarint(b, uint64(uint32(id)))
		}
	}
	g.chunks[len(g.chunks)-1] = b
	g.prevLine, g.prevN = line, ref.N
	cur.count++
	for _, c := range info.more {
		g.room()
		b := g.chunks[len(g.chunks)-1]
		b = binary.AppendUvarint(b, uint64(info.ri)<<2|2)
		b = binary.AppendUvarint(b, uint64(firstMoreClass+c+1))
		g.chunks[len(g.chunks)-1] = b
		cur.count++
	}
}

// b2u is 1 for true, 0 for false.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// room makes sure the last chunk has room for a member, and returns where
// the next member goes.
func (g *Grouper) room() uint32 {
	if n := len(g.chunks); n == 0 || len(g.chunks[n-1])+maxEncoded > chunkSize {
		g.chunk()
	}
	n := len(g.chunks)
	return uint32(n-1)<<chunkBits | uint32(len(g.chunks[n-1]))
}

// decode appends the members of r to ms and their CWE ids to cwes.
func (g *Grouper) decode(r *run, ms []member, cwes []cweLink) ([]member, []cweLink) {
	c, off := int(r.at>>chunkBits), int(r.at&(chunkSize-1))
	b := g.chunks[c][off:]
	uv := func() uint64 {
		v, n := binary.Uvarint(b)
		b = b[n:]
		return v
	}
	sv := func() int64 {
		v, n := binary.Varint(b)
		b = b[n:]
		return v
	}
	var line int32
	var n uint32
	for range r.count {
		if len(b) == 0 {
			c++
			b = g.chunks[c]
		}
		word := uv()
		m := member{rule: uint32(word >> 2), class: int32(uv()) - 1, alias: word&2 != 0}
		if m.alias {
			p := ms[len(ms)-1]
			p.class, p.alias = m.class, true
			ms = append(ms, p)
			continue
		}
		a := b[0]
		b = b[1:]
		m.impact, m.severity, m.quality, m.isNew = Impact(a&7), Severity(a>>3&3), Quality(a>>5&3), a>>7 != 0
		line += int32(sv())
		m.line = line
		m.span, m.col = uint16(uv()), uint16(uv())
		n = uint32(int64(n) + sv() + 1)
		m.ref = Ref{Input: r.input, N: n}
		if word&1 != 0 {
			for range uv() {
				cwes = append(cwes, cweLink{cwe: uint32(uv()), member: uint32(len(ms))})
			}
		}
		ms = append(ms, m)
	}
	return ms, cwes
}

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
	// The members of each group, its lead first, the others most important
	// first, one group after the other, in chunks of flatChunk (the same
	// place in refs and rules), and where each group begins there.
	refs   [][]Ref
	rules  [][]uint32 // each member's rule, an index into names
	n      int        // members in all
	starts []uint32   // where each group begins, and one more: where the last ends
	byRef  []uint32   // the places of the members, by ref
	names  [][2]string
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

// flatChunk is how many members a chunk of Groups holds: groups grow by
// chunks, never copying their members.
const flatChunk = 1 << 13

// at returns the ref and rule of the member at place i.
func (gs *Groups) at(i uint32) (Ref, uint32) {
	c, k := i/flatChunk, i%flatChunk
	return gs.refs[c][k], gs.rules[c][k]
}

// push appends a member.
func (gs *Groups) push(ref Ref, rule uint32) {
	if gs.n%flatChunk == 0 {
		gs.refs = append(gs.refs, make([]Ref, 0, flatChunk))
		gs.rules = append(gs.rules, make([]uint32, 0, flatChunk))
	}
	c := len(gs.refs) - 1
	gs.refs[c] = append(gs.refs[c], ref)
	gs.rules[c] = append(gs.rules[c], rule)
	gs.n++
}

// Known reports whether lead, new against a baseline, leads a problem that
// the baseline had (another finding of it is not new): the problem is then
// unchanged.
func (gs *Groups) Known(lead Ref) bool { return gs != nil && gs.old[lead] }

// Resolve groups the findings added, one file at a time. hasText says
// whether a rule's report carries its text (the lead is then the member
// whose report explains its rule, among the most important); nil: none.
// The grouper is empty afterwards.
func (g *Grouper) Resolve(hasText func(tool, rule string) bool) *Groups {
	gs := &Groups{names: g.names}
	order := make([]int32, len(g.runs)) // the runs by file, each file's in the order they came
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(g.runs[a].path, g.runs[b].path) })
	text := make([]int8, len(g.names)) // whether each rule's report carries its text: 0 not asked, 1 no, 2 yes
	f := &fileGroups{g: g, gs: gs, hasText: func(rule uint32) bool {
		if hasText == nil {
			return false
		}
		if text[rule] == 0 {
			n := g.names[rule]
			text[rule] = 1
			if hasText(n[0], n[1]) {
				text[rule] = 2
			}
		}
		return text[rule] == 2
	}}
	for start := 0; start < len(order); {
		end := start + 1
		for end < len(order) && g.runs[order[end]].path == g.runs[order[start]].path {
			end++
		}
		f.ms, f.cwes = f.ms[:0], f.cwes[:0]
		for _, r := range order[start:end] {
			f.ms, f.cwes = g.decode(&g.runs[r], f.ms, f.cwes)
		}
		f.resolve()
		start = end
	}
	g.runs, g.cur = nil, -1
	g.free()
	gs.starts = append(gs.starts, uint32(gs.n))
	gs.byRef = make([]uint32, gs.n)
	for i := range gs.byRef {
		gs.byRef[i] = uint32(i)
	}
	slices.SortFunc(gs.byRef, func(a, b uint32) int {
		x, _ := gs.at(a)
		y, _ := gs.at(b)
		return compareRefs(x, y)
	})
	return gs
}

// compareRefs orders refs by input, then ordinal.
func compareRefs(a, b Ref) int { return cmp.Or(cmp.Compare(a.Input, b.Input), cmp.Compare(a.N, b.N)) }

// fileGroups groups the members of one file at a time, reusing its memory
// from file to file.
type fileGroups struct {
	g       *Grouper
	gs      *Groups
	hasText func(rule uint32) bool
	ms      []member
	cwes    []cweLink
	uf      unionFind
	idx     []int
}

// resolve groups the members of the file in f.ms and adds the groups to
// f.gs.
func (f *fileGroups) resolve() {
	if len(f.ms) < 2 {
		return
	}
	f.uf.reset(len(f.ms))
	f.groupClasses()
	f.groupCWEs()
	for i := range f.ms {
		if f.ms[i].alias {
			f.uf.union(i-1, i) // the member before is its finding, or another alias of it
		}
	}
	// The sets of two or more, each most important first.
	f.idx = f.idx[:0]
	for i := range f.ms {
		if !f.ms[i].alias && f.uf.size[f.uf.find(i)] > 1 {
			f.idx = append(f.idx, i)
		}
	}
	slices.SortFunc(f.idx, func(a, b int) int {
		if c := cmp.Compare(f.uf.find(a), f.uf.find(b)); c != 0 {
			return c
		}
		return f.compare(&f.ms[a], &f.ms[b])
	})
	for start := 0; start < len(f.idx); {
		end := start + 1
		root := f.uf.find(f.idx[start])
		for end < len(f.idx) && f.uf.find(f.idx[end]) == root {
			end++
		}
		if end-start > 1 { // aliases alone may make a set of one finding
			f.add(f.idx[start:end])
		}
		start = end
	}
}

// compare orders the members of a problem: the most important first (impact,
// quality, severity), then the one whose report explains its rule, then by
// place, rule and ref.
func (f *fileGroups) compare(x, y *member) int {
	if c := cmp.Or(cmp.Compare(y.impact, x.impact), cmp.Compare(y.quality, x.quality), cmp.Compare(y.severity, x.severity)); c != 0 {
		return c
	}
	if ta, tb := f.hasText(x.rule), f.hasText(y.rule); ta != tb {
		if ta {
			return -1
		}
		return 1
	}
	if c := cmp.Or(cmp.Compare(x.line, y.line), cmp.Compare(x.col, y.col)); c != 0 {
		return c
	}
	na, nb := f.g.names[x.rule], f.g.names[y.rule]
	if c := strings.Compare(na[0], nb[0]); c != 0 {
		return c
	}
	if c := strings.Compare(na[1], nb[1]); c != 0 {
		return c
	}
	return compareRefs(x.ref, y.ref)
}

// add adds a problem, its members most important first.
func (f *fileGroups) add(set []int) {
	gs := f.gs
	gs.starts = append(gs.starts, uint32(gs.n))
	lead := &f.ms[set[0]]
	newMembers := 0
	for _, i := range set {
		m := &f.ms[i]
		gs.push(m.ref, m.rule)
		if m.isNew {
			newMembers++
		}
		if m != lead {
			gs.Duplicates++
			gs.ByImpact[min(int(m.impact), 5)]++
			gs.BySeverity[min(int(m.severity), 3)]++
		}
	}
	switch {
	case newMembers == len(set): // a new problem
		gs.NewNotProblems += newMembers - 1
	case newMembers > 0:
		gs.NewNotProblems += newMembers
		gs.NewOfOldProblems += newMembers
		if lead.isNew {
			if gs.old == nil {
				gs.old = map[Ref]bool{}
			}
			gs.old[lead.ref] = true
		}
	}
}

// groupClasses joins the findings of the file whose rules are of one class
// and whose lines overlap. On one line, several findings of each rule (the
// parameters of one method) are paired in the order of their columns: the
// first of each rule together, then the second of each.
func (f *fileGroups) groupClasses() {
	ms := f.ms
	f.idx = f.idx[:0]
	for i := range ms {
		if ms[i].class >= 0 {
			f.idx = append(f.idx, i)
		}
	}
	idx := f.idx
	slices.SortFunc(idx, func(a, b int) int {
		x, y := &ms[a], &ms[b]
		return cmp.Or(cmp.Compare(x.class, y.class), cmp.Compare(x.line, y.line), cmp.Compare(x.rule, y.rule), cmp.Compare(x.col, y.col))
	})
	for start := 0; start < len(idx); {
		end := start + 1
		for end < len(idx) && ms[idx[end]].class == ms[idx[start]].class {
			end++
		}
		f.groupBucket(idx[start:end])
		start = end
	}
}

// groupBucket joins the findings of one class (in line, rule and column
// order).
func (f *fileGroups) groupBucket(b []int) {
	if len(b) < 2 {
		return
	}
	ms, uf := f.ms, &f.uf
	// One line at a time: the j-th finding of each rule on the line together.
	var firstOf, row []int // reused from line to line
	for start := 0; start < len(b); {
		end := start + 1
		line := ms[b[start]].line
		for end < len(b) && ms[b[end]].line == line {
			end++
		}
		firstOf = firstOf[:0] // the first finding of each rule on the line, by position in b
		for k := start; k < end; k++ {
			if k == start || ms[b[k]].rule != ms[b[k-1]].rule {
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
		mx := &ms[x]
		if mx.span == 0 {
			continue // a finding of one line joins the ranges that start before it, below
		}
		joined = append(joined[:0], mx.rule) // the rules joined: few in a class
		for _, y := range b[i+1:] {
			my := &ms[y]
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

// groupCWEs joins the findings about security of one line of the file that
// share a CWE id, of different rules.
func (f *fileGroups) groupCWEs() {
	if len(f.cwes) < 2 {
		return
	}
	ms, links := f.ms, f.cwes
	slices.SortFunc(links, func(a, b cweLink) int {
		return cmp.Or(cmp.Compare(ms[a.member].line, ms[b.member].line), cmp.Compare(a.cwe, b.cwe), cmp.Compare(a.member, b.member))
	})
	var seen []uint32 // the rules of a line and CWE id: few
	for start := 0; start < len(links); {
		end := start + 1
		line := ms[links[start].member].line
		for end < len(links) && ms[links[end].member].line == line && links[end].cwe == links[start].cwe {
			end++
		}
		seen = seen[:0]
		lead := -1
		for k := start; k < end; k++ {
			m := int(links[k].member)
			r := ms[m].rule
			if slices.Contains(seen, r) {
				continue // two findings of one rule stay two
			}
			seen = append(seen, r)
			if lead < 0 {
				lead = m
			} else {
				f.uf.union(lead, m)
			}
		}
		start = end
	}
}

// Grouped reports whether any problem has more than one finding.
func (gs *Groups) Grouped() bool { return gs != nil && len(gs.starts) > 1 }

// Problems counts the problems with more than one finding.
func (gs *Groups) Problems() int {
	if gs == nil || len(gs.starts) == 0 {
		return 0
	}
	return len(gs.starts) - 1
}

// find returns the place of ref among the members of the groups, and the
// bounds of its group there; false when it is in none.
func (gs *Groups) find(ref Ref) (at, start, end uint32, ok bool) {
	if gs == nil {
		return 0, 0, 0, false
	}
	i, ok := slices.BinarySearchFunc(gs.byRef, ref, func(at uint32, r Ref) int {
		x, _ := gs.at(at)
		return compareRefs(x, r)
	})
	if !ok {
		return 0, 0, 0, false
	}
	at = gs.byRef[i]
	g, found := slices.BinarySearch(gs.starts, at)
	if !found {
		g-- // the group that begins before at
	}
	return at, gs.starts[g], gs.starts[g+1], true
}

// LeadOf returns the lead of ref's problem when ref is one of its other
// members; false when ref leads its problem or is alone.
func (gs *Groups) LeadOf(ref Ref) (Ref, bool) {
	at, start, _, ok := gs.find(ref)
	if !ok || at == start {
		return Ref{}, false
	}
	lead, _ := gs.at(start)
	return lead, true
}

// Others returns the other members of the problem ref leads, most
// important first; nil when it leads none.
func (gs *Groups) Others(ref Ref) []Ref {
	at, start, end, ok := gs.find(ref)
	if !ok || at != start {
		return nil
	}
	if c := start / flatChunk; (end-1)/flatChunk == c { // in one chunk
		k := start % flatChunk
		return gs.refs[c][k+1 : k+end-start : k+end-start]
	}
	others := make([]Ref, 0, end-start-1)
	for i := start + 1; i < end; i++ {
		r, _ := gs.at(i)
		others = append(others, r)
	}
	return others
}

// Name returns the tool and the rule's short name of a grouped finding.
func (gs *Groups) Name(ref Ref) (tool, rule string) {
	at, _, _, ok := gs.find(ref)
	if !ok {
		return "", ""
	}
	_, r := gs.at(at)
	n := gs.names[r]
	return n[0], n[1]
}

// unionFind is a disjoint-set forest over 0…n-1.
type unionFind struct {
	parent, size []int32
}

// reset makes u n sets of one.
func (u *unionFind) reset(n int) {
	if cap(u.parent) < n {
		u.parent, u.size = make([]int32, n), make([]int32, n)
	}
	u.parent, u.size = u.parent[:n], u.size[:n]
	for i := range u.parent {
		u.parent[i], u.size[i] = int32(i), 1
	}
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
