package mcpserver

import (
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/recap-dev/recap/reports"
)

// A report is one parsed report, kept whole in a compact form: a record of
// fixed size per finding, in the order the report gives them (so that
// finding i has the id tag-(i+1), which is not stored), with the strings
// that repeat (tool, rule, category, help link, path) as small numbers into
// the report's tables, and the messages and snippets in a byte arena, a
// message that repeats stored once. No part of it holds a pointer but the
// tables, so that the garbage collector does not scan the findings.
// A [reports.Finding] is made again from a record only for the findings a
// page shows, a filter looks at, or a sort compares.
type report struct {
	rel    string // path relative to the root
	abs    string // the file, as the cache knows it
	rt     *root  // the root it is read from
	stamp  stamp  // the file's, when it was read, or later with the same content (guarded by the cache's mutex)
	digest uint64 // of the file's bytes, as read
	tag    string
	input  reports.Input

	n     int
	recs  [][]rec // the findings, recChunk at a time
	kinds []kind  // what findings of one rule share, by rec.kind
	paths []string
	arena arena
	snips []snip           // the findings with a snippet, by index
	occs  [][]uint32       // the occurrences of the findings of each chunk of recs (identity:2), nil for a chunk of first ones
	fps   map[int32]string // fingerprints that are not recap's 16 hex digits (none from recap's readers)
	more  map[int32]*more  // the findings with a flow, related locations or a fix
	// triaged are the fingerprints of the results a triage decision left
	// out (recap's SARIF writes them suppressed): a baseline holds them.
	triaged []string
	bytes   int64     // the memory held: records, tables, arena
	used    time.Time // guarded by the cache's mutex

	build      *builder         // while the report is read; nil after
	admit      func(int64) bool // asked to admit each growth of bytes while it is read; false stops the read
	admitted   int64            // the bytes admit was asked for
	indexBytes int64            // of the indexes the read builds (builder), in bytes until done
	stop       error            // why the read stopped

	span places // the least and greatest lines and columns, once asked (spanOf)
}

// places are the least and greatest lines and columns of a report's
// findings.
type places struct {
	once             sync.Once
	minLine, maxLine int32
	minCol, maxCol   int32
}

// spanOf returns the least and greatest lines and columns of r's findings,
// worked out at the first call (r is read whole by then).
func (r *report) spanOf() *places {
	p := &r.span
	p.once.Do(func() {
		p.minLine, p.maxLine, p.minCol, p.maxCol = math.MaxInt32, math.MinInt32, math.MaxInt32, math.MinInt32
		for _, c := range r.recs {
			for i := range c {
				x := &c[i]
				p.minLine, p.maxLine = min(p.minLine, x.line), max(p.maxLine, x.line)
				p.minCol, p.maxCol = min(p.minCol, x.column), max(p.maxCol, x.column)
			}
		}
	})
	return p
}

// rec is one finding: what is not in the tables. 40 bytes.
type rec struct {
	fp                               uint64 // the fingerprint's identity, 16 hex digits (its occurrence is in report.occs)
	kind                             uint32 // into report.kinds
	path                             uint32 // into report.paths
	msg                              uint32 // the message: an arena offset (see arena)
	msgLen                           uint32
	line, endLine, column, endColumn int32
}

// kind is what the findings of one rule share (in practice: a report's
// findings have as many kinds as the tool has rules that fired).
type kind struct {
	tool, toolVersion, rule, ruleName, category, toolCategory, helpURI string
	severity                                                           reports.Severity
	quality                                                            reports.Quality
	impact                                                             reports.Impact
	rank                                                               uint8
	priority                                                           int
	securitySeverity                                                   float64
	cwe                                                                []int // shared with the findings, as the reader shares it
	n                                                                  int   // findings of this kind
}

// snip is the report's own snippet of finding i, and the line it starts at.
type snip struct {
	i, off, n uint32
	line      int32
}

// more is what a finding says beyond its place: the counts of its flow and
// related locations, whether it has a fix, and the detail the reader kept.
type more struct {
	flowSteps, related int32
	fixable            bool
	detail             *reports.Detail
}

// recChunk is the records of one chunk: appending never copies the records
// already read, as growing one slice of 300,000 would, several times over.
// The first chunk starts at recFirst and doubles up to recChunk, so that
// ten thousand reports of a few findings hold a few KB each, not 160 KB.
const (
	recChunk = 4096
	recFirst = 16
)

// Sizes of what a report holds, for its bytes.
const (
	recSize    = int64(unsafe.Sizeof(rec{}))
	kindSize   = int64(unsafe.Sizeof(kind{}))
	snipSize   = int64(unsafe.Sizeof(snip{}))
	moreSize   = int64(unsafe.Sizeof(more{})) + 8 + 48 // and its map entry
	stringSize = int64(unsafe.Sizeof(""))
	// mapEntrySize is about what an entry of a string-keyed map costs: its
	// key and value, and the table's room around them.
	mapEntrySize = 2*stringSize + 16
	reportSize   = int64(unsafe.Sizeof(report{}))
)

// errTooLarge stops a read whose report would not fit the cache.
var errTooLarge = errors.New("the report is larger than the cache")

// builder is what a report needs while it is read: the tables' indexes.
type builder struct {
	kinds map[string][]uint32 // by rule: the kinds of that rule
	paths map[string]uint32
	msgs  map[string]uint32 // messages seen lately: their arena offset
	last  uint32            // the last finding's path, tried first
}

// maxMsgIndex bounds the messages indexed to be stored once: past it the
// index starts again (repeated messages come back into it), so that a
// report of distinct messages does not grow a map as large as itself.
const maxMsgIndex = 1 << 16

func newReport(rel, tag string, st stamp) *report {
	return &report{rel: rel, tag: tag, stamp: st,
		build: &builder{kinds: map[string][]uint32{}, paths: map[string]uint32{}, msgs: map[string]uint32{}}}
}

// grow counts n more bytes held, and asks over whether they may be; a
// refusal stops the read (add returns errTooLarge).
func (r *report) grow(n int64) bool {
	r.bytes += n
	if r.admit != nil {
		r.admitted += n
		if !r.admit(n) && r.stop == nil {
			r.stop = errTooLarge
		}
	}
	return r.stop == nil
}

// add appends a finding as the reader gives it (ID and fingerprint set);
// of the results that are no findings, it keeps the fingerprints of
// those a triage decision left out (triaged).
func (r *report) add(f *reports.Finding) error {
	if r.stop != nil {
		return r.stop
	}
	if f.Uncounted() {
		if f.Detail.Kind == "" && f.Detail.Triaged() && r.grow(stringSize+int64(len(f.Fingerprint))) {
			r.triaged = append(r.triaged, strings.Clone(f.Fingerprint))
		}
		return r.stop
	}
	if r.n == len(r.recs)*recChunk || r.n >= 1<<31-1 {
		if r.n >= 1<<31-1 {
			r.stop = errTooLarge
			return r.stop
		}
		size := recChunk
		if len(r.recs) == 0 {
			size = recFirst // a small report holds little; the chunk grows to recChunk
		}
		r.recs = append(r.recs, make([]rec, 0, size))
		if !r.grow(int64(size) * recSize) {
			return r.stop
		}
	}
	if last := &r.recs[len(r.recs)-1]; len(*last) == cap(*last) {
		*last = slices.Grow(*last, min(cap(*last), recChunk-cap(*last)))
		if !r.grow(int64(cap(*last)-len(*last)) * recSize) {
			return r.stop
		}
	}
	x := rec{kind: r.kindOf(f), path: r.pathOf(f.Path),
		line: clamp32(f.Line), endLine: clamp32(f.EndLine), column: clamp32(f.Column), endColumn: clamp32(f.EndColumn)}
	var ok bool
	if x.msg, x.msgLen, ok = r.message(f.Message); !ok {
		return r.stop
	}
	if fp, occ, ok := reports.ParseFingerprint(f.Fingerprint); ok {
		x.fp = fp
		if occ > 1 { // a further finding of one identity: its occurrence beside its record
			if !r.setOccurrence(occ) {
				return r.stop
			}
		}
	} else {
		if r.fps == nil {
			r.fps = map[int32]string{}
		}
		r.fps[int32(r.n)] = strings.Clone(f.Fingerprint)
		r.grow(int64(len(f.Fingerprint)) + stringSize + 8)
	}
	if f.Snippet != "" {
		off, err := r.arena.put(f.Snippet)
		if err != nil {
			r.stop = errTooLarge
			return r.stop
		}
		r.snips = append(r.snips, snip{i: uint32(r.n), off: off, n: uint32(len(f.Snippet)), line: f.SnippetLine})
		if !r.grow(snipSize + r.arena.grown()) {
			return r.stop
		}
	}
	if f.FlowSteps != 0 || f.Related != 0 || f.Fixable || f.Detail != nil {
		if r.more == nil {
			r.more = map[int32]*more{}
		}
		r.more[int32(r.n)] = &more{flowSteps: f.FlowSteps, related: f.Related, fixable: f.Fixable, detail: f.Detail}
		if !r.grow(moreSize + detailBytes(f.Detail)) {
			return r.stop
		}
	}
	last := &r.recs[len(r.recs)-1]
	*last = append(*last, x)
	r.n++
	return nil
}

func clamp32(v int) int32 { return int32(max(min(v, 1<<31-1), -1<<31)) }

// kindOf returns the kind of f, adding it the first time.
func (r *report) kindOf(f *reports.Finding) uint32 {
	for _, k := range r.build.kinds[f.Rule] {
		x := &r.kinds[k]
		if x.tool == f.Tool && x.ruleName == f.RuleName && x.category == f.Category && x.severity == f.Severity &&
			x.quality == f.Quality && x.impact == f.Impact &&
			x.priority == f.Priority && x.rank == f.Rank && x.helpURI == f.HelpURI && x.toolVersion == f.ToolVersion &&
			x.toolCategory == f.ToolCategory && x.securitySeverity == f.SecuritySeverity && slices.Equal(x.cwe, f.CWE) {
			x.n++
			return k
		}
	}
	k := uint32(len(r.kinds))
	x := kind{tool: strings.Clone(f.Tool), toolVersion: strings.Clone(f.ToolVersion), rule: strings.Clone(f.Rule),
		ruleName: strings.Clone(f.RuleName), category: strings.Clone(f.Category), toolCategory: strings.Clone(f.ToolCategory),
		helpURI: strings.Clone(f.HelpURI), severity: f.Severity, quality: f.Quality, impact: f.Impact, priority: f.Priority, rank: f.Rank, securitySeverity: f.SecuritySeverity, cwe: f.CWE, n: 1}
	r.kinds = append(r.kinds, x)
	r.build.kinds[x.rule] = append(r.build.kinds[x.rule], k)
	r.grow(kindSize + int64(len(x.tool)+len(x.toolVersion)+len(x.rule)+len(x.ruleName)+len(x.category)+len(x.toolCategory)+len(x.helpURI)+8*len(x.cwe)))
	r.growIndex(mapEntrySize + 4)
	return k
}

// pathOf returns the index of path in the report's table, adding it the
// first time; the last finding's path is tried first (reports list a
// file's findings together).
func (r *report) pathOf(path string) uint32 {
	b := r.build
	if int(b.last) < len(r.paths) && r.paths[b.last] == path {
		return b.last
	}
	i, ok := b.paths[path]
	if !ok {
		i = uint32(len(r.paths))
		p := strings.Clone(path)
		was := cap(r.paths)
		r.paths = append(r.paths, p)
		r.grow(stringSize * int64(cap(r.paths)-was)) // the table's array, as it grows
		b.paths[p] = i
		r.grow(int64(len(p)))
		r.growIndex(mapEntrySize)
	}
	b.last = i
	return i
}

// message stores a message in the arena, once while it repeats.
func (r *report) message(m string) (uint32, uint32, bool) {
	if m == "" {
		return 0, 0, true
	}
	b := r.build
	if off, ok := b.msgs[m]; ok {
		return off, uint32(len(m)), true
	}
	off, err := r.arena.put(m)
	if err != nil {
		r.stop = errTooLarge
		return 0, 0, false
	}
	if len(b.msgs) >= maxMsgIndex {
		clear(b.msgs) // its room stays, counted already
	} else {
		r.growIndex(mapEntrySize)
	}
	b.msgs[r.arena.str(off, uint32(len(m)))] = off
	if !r.grow(r.arena.grown()) {
		return 0, 0, false
	}
	return off, uint32(len(m)), true
}

// growIndex counts n more bytes of the indexes a read builds: held (and
// admitted) while the report is read, let go by done.
func (r *report) growIndex(n int64) {
	r.indexBytes += n
	r.grow(n)
}

// done ends the read: the indexes go, the counts of memory are final.
func (r *report) done() {
	r.build = nil
	r.admit = nil
	r.bytes -= r.indexBytes
	r.indexBytes = 0
}

// at makes finding i (0-based) in f: every field but ID and Fingerprint,
// and those too when ids is set. f may be a reused one: every field is set.
// Its strings are the report's own and stay valid.
func (r *report) at(i int, f *reports.Finding, ids bool) {
	x := &r.recs[i/recChunk][i%recChunk]
	*f = r.kinds[x.kind].finding()
	f.Message, f.Path = r.arena.str(x.msg, x.msgLen), r.paths[x.path]
	f.Line, f.EndLine, f.Column, f.EndColumn = int(x.line), int(x.endLine), int(x.column), int(x.endColumn)
	if len(r.snips) > 0 {
		f.Snippet, f.SnippetLine = r.snippet(i)
	}
	if m := r.more[int32(i)]; m != nil {
		f.FlowSteps, f.Related, f.Fixable, f.Detail = m.flowSteps, m.related, m.fixable, m.detail
	}
	if ids {
		f.ID = reports.ID(r.tag, i+1)
		f.Fingerprint = r.fingerprint(i)
	}
}

// finding is what the findings of kind k share, as a finding without a
// place, message or id.
func (k *kind) finding() reports.Finding {
	return reports.Finding{Tool: k.tool, ToolVersion: k.toolVersion, Rule: k.rule, RuleName: k.ruleName, Category: k.category,
		ToolCategory: k.toolCategory, Severity: k.severity, Quality: k.quality, Impact: k.impact, Priority: k.priority, Rank: k.rank,
		HelpURI: k.helpURI, SecuritySeverity: k.securitySeverity, CWE: k.cwe}
}

// finding returns finding i (0-based) whole.
func (r *report) finding(i int) reports.Finding {
	var f reports.Finding
	r.at(i, &f, true)
	return f
}

// rec returns finding i's record.
func (r *report) rec(i int) *rec { return &r.recs[i/recChunk][i%recChunk] }

// fingerprint returns finding i's fingerprint.
func (r *report) fingerprint(i int) string {
	if s, ok := r.fps[int32(i)]; ok {
		return s
	}
	return reports.FingerprintOf(r.rec(i).fp, r.occurrence(i))
}

// occurrence returns finding i's occurrence among the findings of its
// identity (1 for the first).
func (r *report) occurrence(i int) int {
	if c := i / recChunk; c < len(r.occs) && r.occs[c] != nil {
		if n := r.occs[c][i%recChunk]; n > 1 {
			return int(n)
		}
	}
	return 1
}

// setOccurrence records the occurrence of the finding being added (number
// r.n), in a slice beside its chunk of records made on the chunk's first
// further occurrence: 4 bytes a finding, only in the chunks that have one.
func (r *report) setOccurrence(n int) bool {
	c := r.n / recChunk
	for len(r.occs) <= c {
		r.occs = append(r.occs, nil)
	}
	if r.occs[c] == nil {
		r.occs[c] = make([]uint32, recChunk)
		if !r.grow(recChunk * 4) {
			return false
		}
	}
	r.occs[c][r.n%recChunk] = uint32(min(n, math.MaxUint32))
	return true
}

// snippet returns finding i's snippet and its line, "" when it has none.
func (r *report) snippet(i int) (string, int32) {
	lo, hi := 0, len(r.snips)
	for lo < hi {
		m := (lo + hi) / 2
		if int(r.snips[m].i) < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(r.snips) && int(r.snips[lo].i) == i {
		return r.arena.str(r.snips[lo].off, r.snips[lo].n), r.snips[lo].line
	}
	return "", 0
}

// detailBytes is about the memory d holds.
func detailBytes(d *reports.Detail) int64 {
	if d == nil {
		return 0
	}
	locSize := int64(unsafe.Sizeof(reports.Location{}))
	n := int64(unsafe.Sizeof(reports.Detail{}))
	lists := [][]reports.Location{d.Related, d.Locations}
	for i := range d.Flows {
		lists = append(lists, d.Flows[i].Steps)
		n += int64(unsafe.Sizeof(d.Flows[i]) + uintptr(len(d.Flows[i].Message)))
	}
	for _, ls := range lists {
		for _, l := range ls {
			n += locSize + int64(len(l.Path)+len(l.Base)+len(l.Message))
		}
	}
	if x := d.Fix; x != nil {
		n += int64(unsafe.Sizeof(*x)) + int64(len(x.Description))
		for _, rp := range x.Replacements {
			n += int64(unsafe.Sizeof(rp)) + int64(len(rp.Path)+len(rp.Text))
		}
	}
	return n
}

// arena holds a report's text: blocks of bytes, each at most arenaBlock
// (the first ones smaller, so that a small report holds little), never
// written again once a string is in them. An offset is the block's index
// times arenaBlock plus the place in it, in 32 bits; a string longer than
// a block has a block of its own.
type arena struct {
	blocks [][]byte
	held   int64 // bytes of the blocks
	new    int64 // bytes of blocks made since grown was last asked
}

const (
	arenaBits  = 20
	arenaBlock = 1 << arenaBits // 1 MiB
	// arenaFirst is the first block: a root of 200,000 one-finding
	// reports holds 50 MB of text blocks at 4 KiB each, 2 MB at 256 B.
	arenaFirstBits = 8
	arenaFirst     = 1 << arenaFirstBits
	maxBlocks      = 1 << (32 - arenaBits) // 4 GiB in all (less the first, smaller blocks)
)

var errArenaFull = errors.New("more than 4 GiB of text in one report")

// put stores s and returns its offset.
func (a *arena) put(s string) (uint32, error) {
	n := len(a.blocks)
	if n == 0 || len(a.blocks[n-1])+len(s) > cap(a.blocks[n-1]) {
		if n >= maxBlocks {
			return 0, errArenaFull
		}
		size := arenaBlock
		if n < arenaBits-arenaFirstBits { // 256 B, 512 B, … up to 1 MiB
			size = arenaFirst << n
		}
		size = max(size, len(s))
		a.blocks = append(a.blocks, make([]byte, 0, size))
		a.held += int64(size)
		a.new += int64(size)
		n++
	}
	b := &a.blocks[n-1]
	off := uint32((n-1)<<arenaBits | len(*b))
	*b = append(*b, s...)
	return off, nil
}

// grown returns the bytes of blocks made since it was last asked.
func (a *arena) grown() int64 {
	n := a.new
	a.new = 0
	return n
}

// str returns the string at off, n bytes long: it shares the arena's
// memory, which is never written again.
func (a *arena) str(off, n uint32) string {
	if n == 0 {
		return ""
	}
	b := a.blocks[off>>arenaBits]
	return unsafe.String(&b[off&(arenaBlock-1)], int(n))
}
