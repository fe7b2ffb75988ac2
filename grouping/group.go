package grouping

import (
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/recap-dev/recap/reports"
)

// Ref names a finding of a run without its id's text: the number of its
// input among the run's inputs, and its ordinal there (the n of its id
// tag-n).
type Ref struct {
	Input, N uint32
}

// A Grouper finds the findings of a run that report the same problem at the
// same place (docs/formats.md, "Duplicates"): a problem is a lead and the
// findings of one file that match the lead itself (see [fileGroups]):
// findings whose lines overlap and whose rules are in one class of
// equivalent rules ([RuleClasses], and the groups a configuration adds),
// and, for findings about security of rules in no class, findings of one
// line that share a CWE id. Problems never chain, and a problem holds one
// finding of each rule at most (two parameters of one method, each not
// final, are two). Findings are added as they stream and the groups are
// resolved once all are in, one file at a time, in n log n. The grouper keeps, of each
// finding that may share a problem (one whose rule is in a class, or about
// security with a CWE id), about 7 bytes: its place, rule and importance,
// each encoded against the finding before it in a run of findings of one
// file and input; nothing of the others, and no path's text (a file is
// known by a 64-bit hash of its path).
type Grouper struct {
	classOf func(tool, rule string) int
	more    func(f *reports.Finding) []int32 // the further classes a configuration gives f's rule
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
	ri     uint32
	known  bool // ri is set
	class  int32
	more   []int32
	anchor Anchor // how far its findings reach (Anchors)
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
	impact    reports.Impact
	quality   reports.Quality
	severity  reports.Severity
	isNew     bool // new against a baseline (the finding's Baseline)
	alias     bool // repeats the member before it in a further class
}

// end is the last line of m.
func (m *member) end() int32 { return int32(min(int64(m.line)+int64(m.span), math.MaxInt32)) }

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

// offHeapStore says whether groupers keep their members outside the Go
// heap. BenchmarkStore compares the two stores: on Spring's reports the
// mapping brings what the grouping adds to the process's peak memory from
// 5.0 to 2.1 MiB, at no CPU (docs/performance.md).
var offHeapStore = true

// chunk adds a chunk.
func (s *stream) chunk() {
	if !offHeapStore {
		s.chunks = append(s.chunks, make([]byte, 0, chunkSize))
		return
	}
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
// name, see [reports.ShortRule]).
func NewGrouper(classOf func(tool, rule string) int) *Grouper {
	g := &Grouper{classOf: classOf, rules: map[[2]string]uint32{}, seed: maphash.MakeSeed(), cur: -1, stream: &stream{}}
	runtime.AddCleanup(g, (*stream).free, g.stream) // a grouper left unresolved
	return g
}

// More gives the grouper further classes of equivalent rules: more returns
// the indexes of the groups of a configuration that f's rule is in (see
// config.Config.Groups). A rule may be in several of them, besides its
// class in RuleClasses; groups are not chained: a finding joins a lead
// with which it shares a group, never a finding it shares none with.
func (g *Grouper) More(more func(f *reports.Finding) []int32) { g.more = more }

// firstMoreClass is where the classes given by More begin.
const firstMoreClass = 1 << 24

// Add considers f, named by ref, and reports whether it keeps it. A
// finding without a file, without a line, or that can share no problem is
// not kept (it is alone in its problem).
func (g *Grouper) Add(f *reports.Finding, ref Ref) bool {
	if f.Path == "" || f.Line <= 0 {
		return false
	}
	info := g.rule(f)
	security := f.Security() && len(f.CWE) > 0
	if info.class < 0 && !security {
		return false
	}
	if !info.known {
		short := reports.ShortRule(f.Tool, f.Rule)
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
	span := min(max(f.EndLine-f.Line, 0), 1<<16-1)
	if a := info.anchor; a != (Anchor{}) { // the lines its rule's findings reach
		up := min(int(line)-1, a.Up)
		line -= int32(up)
		span = min(span+up+a.Down, 1<<16-1)
	}
	b := g.chunks[len(g.chunks)-1]
	b = binary.AppendUvarint(b, uint64(info.ri)<<2|b2u(len(cwes) > 0))
	b = binary.AppendUvarint(b, uint64(info.class+1))
	b = append(b, byte(f.Impact&7)|byte(f.Severity&3)<<3|byte(f.Quality&3)<<5|byte(b2u(f.Baseline == reports.BaselineNew))<<7)
	b = binary.AppendVarint(b, int64(line)-int64(g.prevLine))
	b = binary.AppendUvarint(b, uint64(span))
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
	return true
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
		m.impact, m.severity, m.quality, m.isNew = reports.Impact(a&7), reports.Severity(a>>3&3), reports.Quality(a>>5&3), a>>7 != 0
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
func (g *Grouper) rule(f *reports.Finding) ruleInfo {
	k := groupRule{f.Tool, f.Rule, f.RuleName}
	if g.haveLast && k == g.lastRule {
		return g.lastInfo
	}
	if info, ok := g.byRule[k]; ok {
		g.lastRule, g.lastInfo = k, info
		return info
	}
	class := g.classOf(f.Tool, reports.ShortRule(f.Tool, f.Rule))
	var more []int32
	if g.more != nil {
		more = g.more(f)
	}
	if class < 0 && len(more) > 0 {
		class, more = firstMoreClass+int(more[0]), more[1:]
	}
	info := ruleInfo{class: int32(class), more: more}
	if class >= 0 {
		info.anchor = anchorOf(f.Tool, reports.ShortRule(f.Tool, f.Rule))
	}
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
	refs  [][]Ref
	rules [][]uint32 // each member's rule, an index into names
	// meta is what the counts took of each member: its impact (bits 0–2),
	// severity (3–4) and whether it is new against a baseline (7).
	meta   [][]uint8
	n      int      // members in all
	starts []uint32 // where each group begins, and one more: where the last ends
	byRef  []uint32 // the places of the members, by ref
	sorted []Ref    // and their refs, in that order: searched and walked without a look at the places
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
	// New counts the duplicates among the findings new against a
	// baseline, in the problems all of whose findings are new: the
	// duplicates a view of the new findings alone leaves out (the new
	// findings of the other problems are not new problems).
	New NewDuplicates
	old map[Ref]bool // leads new against a baseline of a problem it had
	// oldGroups marks the problems the baseline had that have new
	// findings, by group number.
	oldGroups []uint64
	// dropped marks the problems taken out by Drop, by group number.
	dropped  []uint64
	nDropped int
}

// NewDuplicates counts the duplicates of the new problems.
type NewDuplicates struct {
	Findings   int    // the members that are not leads
	Problems   int    // the new problems with more than one finding
	ByImpact   [6]int // the members that are not leads, by impact
	BySeverity [4]int // and by severity
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
func (gs *Groups) push(ref Ref, rule uint32, meta uint8) {
	if gs.n%flatChunk == 0 {
		gs.refs = append(gs.refs, make([]Ref, 0, flatChunk))
		gs.rules = append(gs.rules, make([]uint32, 0, flatChunk))
		gs.meta = append(gs.meta, make([]uint8, 0, flatChunk))
	}
	c := len(gs.refs) - 1
	gs.refs[c] = append(gs.refs[c], ref)
	gs.rules[c] = append(gs.rules[c], rule)
	gs.meta[c] = append(gs.meta[c], meta)
	gs.n++
}

// memberMeta packs what the counts take of a member.
func memberMeta(m *member) uint8 {
	return uint8(min(int(m.impact), 5)) | uint8(min(int(m.severity), 3))<<3 | uint8(b2u(m.isNew))<<7
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
	ask := func(rule uint32) bool {
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
	}
	if split := g.half(order); split > 0 {
		// Two goroutines, each a half of the files; the second's problems
		// follow the first's, as one goroutine would have made them. The
		// rules' texts are asked first: hasText need not be safe to call
		// at once.
		for rule := range text {
			ask(uint32(rule))
		}
		known := func(rule uint32) bool { return text[rule] == 2 }
		second := &Groups{names: g.names}
		var wg sync.WaitGroup
		var failed any
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { failed = recover() }()
			g.resolveFiles(&fileGroups{g: g, gs: second, hasText: known}, order[split:])
		}()
		g.resolveFiles(&fileGroups{g: g, gs: gs, hasText: known}, order[:split])
		wg.Wait()
		if failed != nil {
			panic(failed)
		}
		gs.appendGroups(second)
	} else {
		g.resolveFiles(&fileGroups{g: g, gs: gs, hasText: ask}, order)
	}
	g.runs, g.cur = nil, -1
	g.free()
	// The cleanup NewGrouper set frees the same chunks once g is
	// unreachable: g must stay reachable until free is done, or both free
	// them, and the second may unmap another grouper's chunks mapped there
	// since.
	runtime.KeepAlive(g)
	gs.starts = append(gs.starts, uint32(gs.n))
	// The members by ref: sorted as pairs, each ref beside its place,
	// rather than places compared through their chunks.
	pairs := make([]refAt, gs.n)
	for i := range pairs {
		pairs[i].ref, _ = gs.at(uint32(i))
		pairs[i].at = uint32(i)
	}
	slices.SortFunc(pairs, func(a, b refAt) int { return cmp.Or(compareRefs(a.ref, b.ref), cmp.Compare(a.at, b.at)) })
	gs.byRef, gs.sorted = make([]uint32, gs.n), make([]Ref, gs.n)
	for i, p := range pairs {
		gs.byRef[i], gs.sorted[i] = p.at, p.ref
	}
	return gs
}

// resolveFiles groups the files of the runs order (sorted by path) with
// f, one file at a time.
func (g *Grouper) resolveFiles(f *fileGroups, order []int32) {
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
}

// minHalves is the members from which Resolve groups the files on two
// goroutines (Spring's two reports: 710,826).
var minHalves = 1 << 15

// half returns where in order (the runs sorted by path) the second half
// of the members begins, at the first file past half of them: 0 when the
// files are grouped on one goroutine (few members, one processor, or one
// file).
func (g *Grouper) half(order []int32) int {
	if runtime.GOMAXPROCS(0) < 2 {
		return 0
	}
	total := 0
	for _, r := range order {
		total += int(g.runs[r].count)
	}
	if total < minHalves {
		return 0
	}
	n := 0
	for i, r := range order {
		if i > 0 && n >= total/2 && g.runs[r].path != g.runs[order[i-1]].path {
			return i
		}
		n += int(g.runs[r].count)
	}
	return 0
}

// appendGroups appends the problems of b, made of the files after gs's,
// and adds its counts.
func (gs *Groups) appendGroups(b *Groups) {
	members, groups := uint32(gs.n), len(gs.starts)
	for _, s := range b.starts {
		gs.starts = append(gs.starts, members+s)
	}
	for i := range uint32(b.n) {
		c, k := i/flatChunk, i%flatChunk
		gs.push(b.refs[c][k], b.rules[c][k], b.meta[c][k])
	}
	gs.Duplicates += b.Duplicates
	gs.NewNotProblems += b.NewNotProblems
	gs.NewOfOldProblems += b.NewOfOldProblems
	for i := range gs.ByImpact {
		gs.ByImpact[i] += b.ByImpact[i]
		gs.New.ByImpact[i] += b.New.ByImpact[i]
	}
	for i := range gs.BySeverity {
		gs.BySeverity[i] += b.BySeverity[i]
		gs.New.BySeverity[i] += b.New.BySeverity[i]
	}
	gs.New.Findings += b.New.Findings
	gs.New.Problems += b.New.Problems
	for g := range len(b.starts) {
		if bit(b.oldGroups, g) {
			at := groups + g
			for len(gs.oldGroups) <= at/64 {
				gs.oldGroups = append(gs.oldGroups, 0)
			}
			gs.oldGroups[at/64] |= 1 << (at % 64)
		}
	}
	for ref := range b.old {
		if gs.old == nil {
			gs.old = map[Ref]bool{}
		}
		gs.old[ref] = true
	}
}

// compareRefs orders refs by input, then ordinal.
func compareRefs(a, b Ref) int { return cmp.Or(cmp.Compare(a.Input, b.Input), cmp.Compare(a.N, b.N)) }

// fileGroups groups the members of one file at a time, reusing its memory
// from file to file.
//
// A problem is a lead and the findings that match the lead itself, never a
// finding that only matches another member: the findings of the file are
// taken most important first ([fileGroups.compare]), and each that no
// problem holds yet leads one, with, of each other rule, the best finding
// that matches it and no problem holds. Two findings match when (see
// [fileGroups.best]):
//
//   - their rules are of one class (or one group of a configuration) and
//     they start on one line, each the k-th of its rule there in the order
//     of their columns (two parameters of one method, each reported by two
//     tools, are two problems);
//   - or their rules are of one class, they start on different lines, their
//     lines overlap, and neither is a container: a finding whose lines hold
//     the lines of another finding of its own rule (a class-level metric
//     over the lines of its methods' own findings);
//   - or, for findings about security whose rules are in no class, they
//     are on one line and share a CWE id. A finding whose rule is in a
//     class joins others only through its class, so that a finding named
//     after a rule of the table cannot hide a security finding of another
//     tool through a CWE id.
//
// A problem holds one finding of each rule at most. Every step is at most
// logarithmic in the file's members, for each rule of a class (at most
// maxClassRules of them) and each CWE id of a finding.
type fileGroups struct {
	g       *Grouper
	gs      *Groups
	hasText func(rule uint32) bool
	ms      []member
	cwes    []cweLink

	owner    []int32  // the finding (its first member) of each member
	order    []int32  // the findings, most important first
	rankOf   []int32  // each finding's place in order
	held     []bool   // by member: its finding is in a problem (or leads one)
	taken    []uint32 // by rule: the problem that holds a finding of it
	stamp    uint32   // the problem being made
	problem  []int    // its members, the lead first
	entries  []entry  // the members of a class, by class, rule, line, column
	at       []int32  // each member's entry; -1: none
	runs     []ruleRun
	buckets  []bucket
	tree     []int32 // the runs' segment trees, one after the other
	links    []cweLink
	groupsOf []int32 // by member, its CWE groups (offsets in linkAt)
	linkAt   []int32
	cgroups  []cweGroup
	crun     []cweRun
	group    []int32
}

// entry is a member of a class, as the class matching sees it.
type entry struct {
	member     int32
	line, end  int32
	col        uint16
	rank       uint16 // its place among its rule's entries on its line
	container  bool
	run        int32 // its ruleRun
	ref        Ref
	class      int32
	rule       uint32
	inTreeAt   int32 // its place in its run
	removed    bool
	overMaxRun bool // its rule is past maxClassRules in its class
}

// ruleRun is the entries of one rule in one class, in line and column
// order: entries[from:to], with a segment tree of their ends (the greatest
// end of the entries that may still join across lines, -1 for none).
type ruleRun struct {
	from, to int32
	tree     int32 // where its tree begins in fileGroups.tree
	size     int32 // its leaves, a power of two
	left     int32 // entries not yet in a problem
	bucket   int32
	rule     uint32
}

// bucket is the rule runs of one class with entries left.
type bucket struct {
	live []int32
}

// maxClassRules bounds the rules of one class (or one group of a
// configuration) that find each other in one file: a configuration's
// group of globs may name hundreds; the findings of further rules of the
// class stay apart.
const maxClassRules = 64

// cweGroup is the findings of one line and CWE id: their rule runs.
type cweGroup struct {
	live []int32 // indexes into crun
}

// cweRun is the findings of one rule in a cweGroup, most important first:
// links[from:to], the next not yet looked at.
type cweRun struct {
	next, to int32
	rule     uint32
}

// resolve groups the members of the file in f.ms and adds the groups to
// f.gs.
func (f *fileGroups) resolve() {
	ms := f.ms
	if len(ms) < 2 {
		return
	}
	n := len(ms)
	f.owner = grow(f.owner, n)
	f.order = f.order[:0]
	for i := range ms {
		if ms[i].alias {
			f.owner[i] = f.owner[i-1]
		} else {
			f.owner[i] = int32(i)
			f.order = append(f.order, int32(i))
		}
	}
	slices.SortFunc(f.order, func(a, b int32) int { return f.compare(&ms[a], &ms[b]) })
	f.rankOf = grow(f.rankOf, n)
	for k, i := range f.order {
		f.rankOf[i] = int32(k)
	}
	f.held = growBool(f.held, n)
	if len(f.taken) < len(f.g.names) {
		f.taken = make([]uint32, len(f.g.names))
		f.stamp = 0
	}
	f.classes()
	f.cweGroups()
	for _, lead := range f.order {
		if f.held[lead] {
			continue
		}
		f.stamp++
		if f.stamp == 0 { // wrapped: forget the old stamps
			clear(f.taken)
			f.stamp = 1
		}
		f.problem = append(f.problem[:0], int(lead))
		f.hold(lead)
		f.taken[ms[lead].rule] = f.stamp
		if ms[lead].class >= 0 {
			for i := lead; i < int32(n) && f.owner[i] == lead; i++ {
				f.joinClass(i)
			}
		} else {
			f.joinCWEs(lead)
		}
		if len(f.problem) > 1 {
			others := f.problem[1:]
			slices.SortFunc(others, func(a, b int) int { return cmp.Compare(f.rankOf[a], f.rankOf[b]) })
			f.add(f.problem)
		}
	}
}

// grow returns s with n elements, reusing its memory.
func grow(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// growBool returns s with n false elements, reusing its memory.
func growBool(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// hold puts the finding whose first member is i in a problem: its entries
// leave the classes' trees.
func (f *fileGroups) hold(i int32) {
	for k := i; k < int32(len(f.ms)) && f.owner[k] == i; k++ {
		f.held[k] = true
		if f.at[k] >= 0 {
			f.remove(f.at[k])
		}
	}
}

// classes makes the entries of the members of a class, their rule runs,
// ranks, containers and trees, and the buckets of each class.
func (f *fileGroups) classes() {
	ms := f.ms
	f.at = grow(f.at, len(ms))
	f.entries = f.entries[:0]
	for i := range ms {
		f.at[i] = -1
		if ms[i].class >= 0 {
			m := &ms[i]
			f.entries = append(f.entries, entry{member: int32(i), line: m.line, end: m.end(), col: m.col, ref: m.ref, class: m.class, rule: m.rule})
		}
	}
	es := f.entries
	slices.SortFunc(es, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.class, b.class), cmp.Compare(a.rule, b.rule), cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col),
			compareRefs(a.ref, b.ref))
	})
	f.runs, f.buckets, f.tree = f.runs[:0], f.buckets[:0], f.tree[:0]
	for start := 0; start < len(es); {
		end := start + 1
		for end < len(es) && es[end].class == es[start].class {
			end++
		}
		b := bucket{}
		for from := start; from < end; {
			to := from + 1
			for to < end && es[to].rule == es[from].rule {
				to++
			}
			r := int32(len(f.runs))
			over := len(b.live) >= maxClassRules
			if !over {
				b.live = append(b.live, r)
			}
			run := f.newRun(int32(from), int32(to), over)
			run.bucket = int32(len(f.buckets))
			f.runs = append(f.runs, run)
			from = to
		}
		f.buckets = append(f.buckets, b)
		start = end
	}
	for k := range es {
		f.at[es[k].member] = int32(k)
	}
}

// newRun makes the rule run of entries[from:to]: ranks, containers, tree.
func (f *fileGroups) newRun(from, to int32, over bool) ruleRun {
	es := f.entries[from:to]
	r := ruleRun{from: from, to: to, left: to - from, rule: es[0].rule, tree: int32(len(f.tree))}
	// The least end of the entries from each place on, to find containers:
	// an entry holds another of its rule when one that starts on a later
	// line ends no later, or one of its line ends earlier.
	for s := 0; s < len(es); {
		t := s + 1
		for t < len(es) && es[t].line == es[s].line {
			t++
		}
		lineMin := es[s].end
		for k := s; k < t; k++ {
			es[k].rank = uint16(min(k-s, math.MaxUint16))
			lineMin = min(lineMin, es[k].end)
		}
		for k := s; k < t; k++ {
			es[k].container = lineMin < es[k].end
		}
		s = t
	}
	later := int32(math.MaxInt32) // the least end of the entries on later lines
	for t := len(es); t > 0; {
		s := t - 1
		for s > 0 && es[s-1].line == es[t-1].line {
			s--
		}
		lineMin := int32(math.MaxInt32)
		for k := s; k < t; k++ {
			es[k].container = es[k].container || later <= es[k].end
			lineMin = min(lineMin, es[k].end)
		}
		later = min(later, lineMin)
		t = s
	}
	size := int32(1)
	for size < to-from {
		size <<= 1
	}
	r.size = size
	base := len(f.tree)
	f.tree = slices.Grow(f.tree, int(2*size))[:base+int(2*size)]
	t := f.tree[base:]
	for k := range t {
		t[k] = -1
	}
	for k := range es {
		es[k].run = int32(len(f.runs))
		es[k].inTreeAt = int32(k)
		es[k].overMaxRun = over
		if !es[k].container && !over {
			t[int(size)+k] = es[k].end
		}
	}
	for k := size - 1; k >= 1; k-- {
		t[k] = max(t[2*k], t[2*k+1])
	}
	return r
}

// remove takes entry k out of its run's tree.
func (f *fileGroups) remove(k int32) {
	e := &f.entries[k]
	if e.removed {
		return
	}
	e.removed = true
	r := &f.runs[e.run]
	r.left--
	t := f.tree[r.tree : r.tree+2*r.size]
	i := r.size + e.inTreeAt
	t[i] = -1
	for i >>= 1; i >= 1; i >>= 1 {
		t[i] = max(t[2*i], t[2*i+1])
	}
}

// firstAtLeast returns the first place in [lo, hi) of the tree t (of size
// leaves) whose value is at least v; -1 when none.
func firstAtLeast(t []int32, size, lo, hi, v int32) int32 {
	return descend(t, 1, 0, size, lo, hi, v, false)
}

// lastAtLeast returns the last place in [lo, hi) whose value is at least v.
func lastAtLeast(t []int32, size, lo, hi, v int32) int32 {
	return descend(t, 1, 0, size, lo, hi, v, true)
}

// descend finds, in node's leaves [nlo, nhi), the first (or last) place in
// [lo, hi) whose value is at least v.
func descend(t []int32, node, nlo, nhi, lo, hi, v int32, last bool) int32 {
	if nhi <= lo || hi <= nlo || t[node] < v {
		return -1
	}
	if nhi-nlo == 1 {
		return nlo
	}
	mid := (nlo + nhi) / 2
	a, b := [2]int32{node * 2, nlo}, [2]int32{node*2 + 1, mid}
	aHi, bHi := mid, nhi
	if last {
		if r := descend(t, b[0], b[1], bHi, lo, hi, v, last); r >= 0 {
			return r
		}
		return descend(t, a[0], a[1], aHi, lo, hi, v, last)
	}
	if r := descend(t, a[0], a[1], aHi, lo, hi, v, last); r >= 0 {
		return r
	}
	return descend(t, b[0], b[1], bHi, lo, hi, v, last)
}

// joinClass adds to the problem being made, for the lead's member i (the
// lead or one of its further classes), the best match of each other rule
// of its class.
func (f *fileGroups) joinClass(i int32) {
	k := f.at[i]
	if k < 0 {
		return
	}
	lead := f.entries[k]
	if lead.overMaxRun {
		return
	}
	b := &f.buckets[f.runs[lead.run].bucket]
	live := b.live[:0]
	for _, r := range b.live {
		run := &f.runs[r]
		if run.left == 0 {
			continue // no entry left: dropped for good
		}
		live = append(live, r)
		if f.taken[run.rule] == f.stamp {
			continue
		}
		if c := f.best(&lead, run); c >= 0 {
			m := f.owner[f.entries[c].member]
			f.taken[run.rule] = f.stamp
			f.problem = append(f.problem, int(m))
			f.hold(m)
		}
	}
	b.live = live
}

// best returns the entry of run that best matches lead, not yet in a
// problem: on the lead's line, the one of the lead's rank there; else, on
// another line, the nearest whose lines overlap the lead's, neither a
// container; -1 when none.
func (f *fileGroups) best(lead *entry, run *ruleRun) int32 {
	es := f.entries[run.from:run.to]
	first := firstFrom(es, int64(lead.line))
	if k := first + int(lead.rank); k < len(es) && es[k].line == lead.line && !es[k].removed {
		return run.from + int32(k)
	}
	if lead.container {
		return -1
	}
	after, past := firstFrom(es, int64(lead.line)+1), firstFrom(es, int64(lead.end)+1)
	t := f.tree[run.tree : run.tree+2*run.size]
	fwd := firstAtLeast(t, run.size, int32(after), int32(past), 0)
	back := lastAtLeast(t, run.size, 0, int32(first), lead.line)
	switch {
	case fwd < 0 && back < 0:
		return -1
	case fwd < 0:
		return run.from + back
	case back < 0:
		return run.from + fwd
	case es[fwd].line-lead.line < lead.line-es[back].line:
		return run.from + fwd
	default:
		return run.from + back
	}
}

// firstFrom returns the place of the first of es (in line order) that
// starts on line or later.
func firstFrom(es []entry, line int64) int {
	i, _ := slices.BinarySearchFunc(es, line, func(e entry, line int64) int { return cmp.Compare(int64(e.line), line) })
	return i
}

// cweGroups makes the groups of findings about security, of rules in no
// class, that share a line and a CWE id.
func (f *fileGroups) cweGroups() {
	ms := f.ms
	f.links = f.links[:0]
	for _, l := range f.cwes {
		if ms[l.member].class < 0 {
			f.links = append(f.links, l)
		}
	}
	links := f.links
	slices.SortFunc(links, func(a, b cweLink) int {
		x, y := &ms[a.member], &ms[b.member]
		return cmp.Or(cmp.Compare(x.line, y.line), cmp.Compare(a.cwe, b.cwe), cmp.Compare(x.rule, y.rule),
			cmp.Compare(f.rankOf[a.member], f.rankOf[b.member]))
	})
	f.cgroups, f.crun = f.cgroups[:0], f.crun[:0]
	f.groupsOf = grow(f.groupsOf, len(ms)+1)
	clear(f.groupsOf)
	f.linkAt = grow(f.linkAt, len(links))
	f.group = grow(f.group, len(links)) // each link's group
	group := f.group
	for start := 0; start < len(links); {
		end := start + 1
		line := ms[links[start].member].line
		for end < len(links) && ms[links[end].member].line == line && links[end].cwe == links[start].cwe {
			end++
		}
		g := cweGroup{}
		for from := start; from < end; {
			to := from + 1
			for to < end && ms[links[to].member].rule == ms[links[from].member].rule {
				to++
			}
			g.live = append(g.live, int32(len(f.crun)))
			f.crun = append(f.crun, cweRun{next: int32(from), to: int32(to), rule: ms[links[from].member].rule})
			from = to
		}
		for k := start; k < end; k++ {
			group[k] = int32(len(f.cgroups))
		}
		if end-start > 1 {
			f.cgroups = append(f.cgroups, g)
		} else {
			for k := start; k < end; k++ {
				group[k] = -1
			}
			f.crun = f.crun[:len(f.crun)-len(g.live)]
		}
		start = end
	}
	// Each member's groups, by counting.
	for k, l := range links {
		if group[k] >= 0 {
			f.groupsOf[l.member+1]++
		}
	}
	for i := 1; i < len(f.groupsOf); i++ {
		f.groupsOf[i] += f.groupsOf[i-1]
	}
	fill := slices.Clone(f.groupsOf[:len(ms)])
	for k, l := range links {
		if group[k] >= 0 {
			f.linkAt[fill[l.member]] = group[k]
			fill[l.member]++
		}
	}
}

// joinCWEs adds to the problem being made the findings of the lead's line
// that share a CWE id with it: of each rule, the most important left.
func (f *fileGroups) joinCWEs(lead int32) {
	for _, gi := range f.linkAt[f.groupsOf[lead]:f.groupsOf[lead+1]] {
		g := &f.cgroups[gi]
		live := g.live[:0]
		for _, r := range g.live {
			run := &f.crun[r]
			for run.next < run.to && f.held[f.links[run.next].member] {
				run.next++
			}
			if run.next == run.to {
				continue // none left: dropped for good
			}
			live = append(live, r)
			if f.taken[run.rule] == f.stamp {
				continue
			}
			m := int32(f.links[run.next].member)
			run.next++
			f.taken[run.rule] = f.stamp
			f.problem = append(f.problem, int(m))
			f.hold(m)
		}
		g.live = live
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
		gs.push(m.ref, m.rule, memberMeta(m))
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
		gs.New.Findings += newMembers - 1
		gs.New.Problems++
		for _, i := range set[1:] {
			m := &f.ms[i]
			gs.New.ByImpact[min(int(m.impact), 5)]++
			gs.New.BySeverity[min(int(m.severity), 3)]++
		}
	case newMembers > 0:
		gs.NewNotProblems += newMembers
		gs.NewOfOldProblems += newMembers
		g := len(gs.starts) - 1
		for len(gs.oldGroups) <= g/64 {
			gs.oldGroups = append(gs.oldGroups, 0)
		}
		gs.oldGroups[g/64] |= 1 << (g % 64)
		if lead.isNew {
			if gs.old == nil {
				gs.old = map[Ref]bool{}
			}
			gs.old[lead.ref] = true
		}
	}
}

// Grouped reports whether any problem has more than one finding.
func (gs *Groups) Grouped() bool { return gs.Problems() > 0 }

// Problems counts the problems with more than one finding.
func (gs *Groups) Problems() int {
	if gs == nil || len(gs.starts) == 0 {
		return 0
	}
	return len(gs.starts) - 1 - gs.nDropped
}

// find returns the place of ref among the members of the groups, the
// bounds of its group there and the group's number; false when it is in
// none (or in one Drop took out).
func (gs *Groups) find(ref Ref) (at, start, end uint32, g int, ok bool) {
	if gs == nil {
		return 0, 0, 0, 0, false
	}
	i, ok := slices.BinarySearchFunc(gs.sorted, ref, compareRefs)
	if !ok {
		return 0, 0, 0, 0, false
	}
	at = gs.byRef[i]
	start, end, g, ok = gs.group(at)
	return at, start, end, g, ok
}

// group returns the places of the problem of the member at place at, and
// its number; false when it was dropped.
func (gs *Groups) group(at uint32) (start, end uint32, g int, ok bool) {
	g, found := slices.BinarySearch(gs.starts, at)
	if !found {
		g-- // the group that begins before at
	}
	if bit(gs.dropped, g) {
		return 0, 0, 0, false
	}
	return gs.starts[g], gs.starts[g+1], g, true
}

// refAt is a member's ref and its place.
type refAt struct {
	ref Ref
	at  uint32
}

// bit reports whether bit i of set is set.
func bit(set []uint64, i int) bool { return i/64 < len(set) && set[i/64]&(1<<(i%64)) != 0 }

// OfOldProblem reports whether ref is a finding of a problem the baseline
// had that has new findings too: a new finding of it makes no new problem.
func (gs *Groups) OfOldProblem(ref Ref) bool {
	if gs == nil || len(gs.oldGroups) == 0 {
		return false
	}
	_, _, _, g, ok := gs.find(ref)
	return ok && bit(gs.oldGroups, g)
}

// Drop takes the problem of ref (a member, lead or not) out of the groups
// and their counts, as if none of its findings had been added: a view that
// leaves the whole problem out (a triage decision covers it) counts the
// others as the groups of the findings left would. It reports false when
// ref is in no problem (or one already dropped).
func (gs *Groups) Drop(ref Ref) bool {
	_, start, end, g, ok := gs.find(ref)
	if !ok {
		return false
	}
	for len(gs.dropped) <= g/64 {
		gs.dropped = append(gs.dropped, 0)
	}
	gs.dropped[g/64] |= 1 << (g % 64)
	gs.nDropped++
	meta := func(i uint32) (impact, severity int, isNew bool) {
		m := gs.meta[i/flatChunk][i%flatChunk]
		return int(m & 7), int(m >> 3 & 3), m&(1<<7) != 0
	}
	size, newMembers := int(end-start), 0
	for i := start; i < end; i++ {
		impact, severity, isNew := meta(i)
		if isNew {
			newMembers++
		}
		if i != start {
			gs.Duplicates--
			gs.ByImpact[impact]--
			gs.BySeverity[severity]--
		}
	}
	switch {
	case newMembers == size:
		gs.NewNotProblems -= size - 1
		gs.New.Findings -= size - 1
		gs.New.Problems--
		for i := start + 1; i < end; i++ {
			impact, severity, _ := meta(i)
			gs.New.ByImpact[impact]--
			gs.New.BySeverity[severity]--
		}
	case newMembers > 0:
		gs.NewNotProblems -= newMembers
		gs.NewOfOldProblems -= newMembers
		gs.oldGroups[g/64] &^= 1 << (g % 64)
		lead, _ := gs.at(start)
		delete(gs.old, lead)
	}
	return true
}

// SameFor reports whether refs (sorted by input and ordinal) are in the
// same problems in gs and in o, each at the same place there (the same
// lead, the same rank among the others): what a view shows of them is
// then the same. It walks gs's members in order once, for groups of a
// whole run asked about many of their findings.
func (gs *Groups) SameFor(o *Groups, refs []Ref) bool {
	i := 0
	for _, r := range refs {
		var lead1 Ref
		at1, in1 := uint32(0), false
		if gs != nil {
			for i < len(gs.sorted) && compareRefs(gs.sorted[i], r) < 0 {
				i++
			}
			if i < len(gs.sorted) {
				if gs.sorted[i] == r {
					at := gs.byRef[i]
					g, found := slices.BinarySearch(gs.starts, at)
					if !found {
						g--
					}
					if !bit(gs.dropped, g) {
						lead1, at1, in1 = func() Ref { l, _ := gs.at(gs.starts[g]); return l }(), at-gs.starts[g], true
					}
				}
			}
		}
		at, start, _, _, in2 := o.find(r)
		if in1 != in2 {
			return false
		}
		if in2 {
			lead2, _ := o.at(start)
			if lead1 != lead2 || at1 != at-start {
				return false
			}
		}
	}
	return true
}

// LeadOf returns the lead of ref's problem when ref is one of its other
// members; false when ref leads its problem or is alone.
func (gs *Groups) LeadOf(ref Ref) (Ref, bool) {
	at, start, _, _, ok := gs.find(ref)
	if !ok || at == start {
		return Ref{}, false
	}
	lead, _ := gs.at(start)
	return lead, true
}

// Others returns the other members of the problem ref leads, most
// important first; nil when it leads none.
func (gs *Groups) Others(ref Ref) []Ref {
	at, start, end, _, ok := gs.find(ref)
	if !ok || at != start {
		return nil
	}
	return gs.members(start, end)
}

// members returns the members of the problem at places start to end but
// its lead.
func (gs *Groups) members(start, end uint32) []Ref {
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
	at, _, _, _, ok := gs.find(ref)
	if !ok {
		return "", ""
	}
	_, r := gs.at(at)
	n := gs.names[r]
	return n[0], n[1]
}

// A Cursor asks gs about findings in the order of their refs (a pass over
// the reports): each search walks on from the last one's place, so that a
// pass costs one walk over the members rather than a binary search a
// finding; a ref before the last is searched for from the start.
type Cursor struct {
	gs *Groups
	i  int // the place in byRef of the last ref asked about, or past it
}

// Cursor returns a cursor at the first member.
func (gs *Groups) Cursor() *Cursor { return &Cursor{gs: gs} }

// Role says what ref is in its problem, as LeadOf and Others do: dup when
// it is another member of a problem (its lead shows it); else the other
// members of the problem it leads, most important first (nil: it leads
// none).
func (c *Cursor) Role(ref Ref) (dup bool, others []Ref) {
	gs := c.gs
	if gs == nil {
		return false, nil
	}
	if c.i > 0 && c.i <= len(gs.byRef) {
		if compareRefs(gs.sorted[c.i-1], ref) >= 0 { // an earlier ref
			c.i, _ = slices.BinarySearchFunc(gs.sorted, ref, compareRefs)
		}
	}
	for c.i < len(gs.sorted) && compareRefs(gs.sorted[c.i], ref) < 0 {
		c.i++
	}
	if c.i == len(gs.sorted) || gs.sorted[c.i] != ref {
		return false, nil
	}
	at := gs.byRef[c.i]
	start, end, _, ok := gs.group(at)
	switch {
	case !ok:
		return false, nil
	case at != start:
		return true, nil
	}
	return false, gs.members(start, end)
}
