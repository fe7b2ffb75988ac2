package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/recap-dev/recap/config"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// ref is one finding of a buffer: its report and its index there, and its
// state against the query's baseline.
type ref struct {
	report int32
	index  int32
	state  uint8
}

// The states of a ref against a baseline: none, new or unchanged.
const (
	stateNone uint8 = iota
	stateNew
	stateUnchanged
)

func stateOf(s string) uint8 {
	switch s {
	case reports.BaselineNew:
		return stateNew
	case reports.BaselineUnchanged:
		return stateUnchanged
	}
	return stateNone
}

// baseline is the finding's state against the query's baseline, "" without one.
func (r ref) baseline() string {
	switch r.state {
	case stateNew:
		return reports.BaselineNew
	case stateUnchanged:
		return reports.BaselineUnchanged
	}
	return ""
}

// buffer is a session's handle on the result of one getReports query:
// its id pages the result in that session alone (see sessions). Sessions
// that ask the same query of the same reports share one result.
type buffer struct {
	id    string
	key   string // the session's key of the query; "" when the query cannot be reused
	owner string // the session that made it (see sessions)
	used  time.Time
	// inputs are the result's inputs with what this call found of them
	// (see Server.noteInputs).
	inputs []reports.Input
	*result
}

// result is what one getReports query found, kept so that its pages are
// served without reading or filtering the reports again: the summary, the
// inputs' status, and the matching findings, put in view order when a page
// is first asked for (a call for the counts alone does not sort). It is
// shared by the buffers of the sessions that asked the same query of the
// same reports, and counted once.
type result struct {
	key     string // the query's key, without the session; "" when the query cannot be reused
	reports []*report
	refs    []ref
	summary summarize.Summary
	inputs  []reports.Input
	notes   []string // what the query's filter matched nothing of (see unmatchedNotes)
	// also names the other findings of the problems whose findings lead
	// them (the duplicates have no ref), by their lead's report and index.
	also map[[2]int32][]summarize.AlsoReported
	// triage holds the decisions that cover the findings (docs/triage.md),
	// by report and index; nil when none does.
	triage  map[[2]int32]*reports.Triage
	grouped *pipeline.Grouped // the problems, for getFinding
	order   reports.Order
	// cfg is the configuration the query ran with: its overrides are
	// applied to each finding made again from the store, as the pipeline
	// applied them to the findings it counted and filtered.
	cfg     *config.Config
	bytes   int64
	holders int // the buffers that hold it (guarded by the store's mutex)

	sortOnce sync.Once
}

// finding returns the finding of r, whole, as the configuration says it.
func (b *result) finding(r ref) reports.Finding {
	f := b.reports[r.report].finding(int(r.index))
	b.cfg.Apply(&f)
	return f
}

// price sets the result's bytes: its references, the names of the other
// findings of the problems shown by a lead, the decisions, and the groups
// of the problems (about 24 bytes a finding counted, as grouping.Groups
// holds them: its members, their rules and their places by reference).
func (b *result) price() {
	b.bytes = int64(cap(b.refs))*int64(unsafe.Sizeof(ref{})) + 4096
	for _, also := range b.also {
		b.bytes += 96 + int64(cap(also))*int64(unsafe.Sizeof(reports.Also{}))
	}
	b.bytes += int64(len(b.triage)) * (96 + int64(unsafe.Sizeof(reports.Triage{})))
	if b.grouped != nil {
		// The groups: each member's ref twice (in its group, and sorted),
		// its place, rule and counts, and its group's start, at most a
		// finding each.
		b.bytes += 28 * int64(b.summary.Total)
	}
}

// sorted puts the buffer's findings in view order, once: the order
// ([reports.Order]) with the first page's findings of different rules
// first ([reports.FirstPage]).
func (b *result) sorted() {
	b.sortOnce.Do(func() {
		sortRefs(b.reports, b.refs, b.order, b.cfg)
		if b.order.HeadOrder() {
			b.refs = firstPage(b.reports, b.refs, b.cfg)
		}
	})
}

// sortRefs sorts refs of reps in the order o, as the configuration cfg
// says their findings (nil: none), without making the findings: each
// finding is compared by ranks ([reports.CompareRanked]), its kind's among
// all the reports' kinds ([reports.Order.RankKinds]) and its path's among
// all the reports' paths. The ranks are packed in a key by each ref for
// the sort, which then touches no report: in one word for a radix sort
// when they fit (radixRefs), else in three for a comparison sort (40
// bytes a finding while it sorts).
func sortRefs(reps []*report, refs []ref, o reports.Order, cfg *config.Config) {
	kinds := rankKinds(reps, o, cfg)
	paths := rankPaths(reps)
	if radixSorts && radixRefs(reps, refs, kinds, paths) {
		return
	}
	type keyed struct {
		key reports.RankKey
		ref
	}
	keys := make([]keyed, len(refs))
	for i, r := range refs {
		x := reps[r.report].rec(int(r.index))
		ranked := reports.Ranked{Kind: kinds[r.report][x.kind], Path: paths[r.report][x.path], Line: x.line, Column: x.column}
		keys[i] = keyed{ranked.Key(), r}
	}
	id := func(r ref) reports.FindingID {
		return reports.FindingID{Tag: reps[r.report].tag, N: uint32(r.index) + 1}
	}
	slices.SortFunc(keys, func(a, b keyed) int {
		if c := a.key.Compare(&b.key); c != 0 {
			return c
		}
		return id(a.ref).Compare(id(b.ref))
	})
	for i := range keys {
		refs[i] = keys[i].ref
	}
}

// radixSorts has sortRefs sort many refs by radixRefs (tests compare it
// with the comparison sort).
var radixSorts = true

// rankKinds ranks the kinds of each report among all the reports' kinds
// in the order o.
func rankKinds(reps []*report, o reports.Order, cfg *config.Config) [][]reports.KindRank {
	keys := kindKeys(reps, cfg)
	all := slices.Concat(keys...)
	ranks := o.RankKinds(all)
	out := make([][]reports.KindRank, len(reps))
	for i, ks := range keys {
		out[i], ranks = ranks[:len(ks):len(ks)], ranks[len(ks):]
	}
	return out
}

// rankPaths ranks the paths of each report among all the reports' paths,
// in byte order.
func rankPaths(reps []*report) [][]uint32 {
	var paths []string
	for _, r := range reps {
		paths = append(paths, r.paths...)
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	ranks := make([][]uint32, len(reps))
	for i, r := range reps {
		ranks[i] = make([]uint32, len(r.paths))
		for j, p := range r.paths {
			at, _ := slices.BinarySearch(paths, p)
			ranks[i][j] = uint32(at)
		}
	}
	return ranks
}

// kindKeys are the sort keys of the kinds of each report, the
// configuration applied, without place and id.
func kindKeys(reps []*report, cfg *config.Config) [][]reports.SortKey {
	keys := make([][]reports.SortKey, len(reps))
	for i, r := range reps {
		keys[i] = make([]reports.SortKey, len(r.kinds))
		for j := range r.kinds {
			f := r.kinds[j].finding()
			cfg.Apply(&f)
			keys[i][j] = reports.KeyOf(&f)
		}
	}
	return keys
}

// firstPage returns refs, sorted in view order, with the first page's
// findings of different rules first ([reports.FirstPage]) and the others
// after them in the same order.
func firstPage(reps []*report, refs []ref, cfg *config.Config) []ref {
	keys := kindKeys(reps, cfg)
	kindOf := func(i int) *reports.SortKey {
		return &keys[refs[i].report][reps[refs[i].report].rec(int(refs[i].index)).kind]
	}
	first := reports.FirstPage(len(refs), reports.FirstPageSize,
		func(i int) reports.Impact { return kindOf(i).Impact },
		func(i int) [2]string { k := kindOf(i); return [2]string{k.Tool, k.Rule} })
	return reports.Reorder(refs, first)
}

// cached is a [pipeline.Source] over parsed reports: it hands out their
// findings in order, made again one at a time in one reused Finding (the
// pipeline keeps none past emit), and at says which one it is handing out.
// ids gives them their ID and fingerprint too (a baseline and a page need
// them). A report too large for the cache (nil in reps) is read from its
// file as it goes.
type cached struct {
	reps  []*report
	files []file // the reports' files, for those read as they go
	root  *root  // the root, to open those and place their paths
	// ids has the findings of the cache carry their ids, and fingerprints
	// their fingerprints too (a baseline compares them; a pass whose
	// pages are made from the cache afterwards needs none).
	ids, fingerprints bool
	at                ref
	pulse             *pulse // beats as the findings are passed over; nil: none
	// kinds, when set, is a filter of what the findings of one kind share
	// (tool, rule, category, severity, impact, quality, CWE) and of their
	// paths, which every finding keep keeps passes: the findings of a kind
	// or a path it refuses are passed over without being made. Set only
	// where keep does nothing but filter (see kindFilter).
	kinds *reports.Filter
	// skip and skipPath say, by report, the kinds and the paths whose
	// findings are passed over (worked out from kinds at the first Read),
	// but the findings in force, in order.
	skip, skipPath [][]bool
	force          [][]int32
}

// skips works out which kinds and paths of each report kinds refuses.
// When the filter names tools, rules or paths, the pipeline looks at
// every finding to say which of them no finding has, and the closest
// names: then for each of them one finding that has it is handed on (the
// filter refuses it), and when one of them is no finding's, nothing is
// passed over.
func (c *cached) skips() {
	c.refused()
	f := c.kinds
	if len(f.Tools)+len(f.Rules)+len(f.Paths) == 0 {
		return
	}
	seen := c.passedOn()
	if !c.forceMissing(seen) {
		for ri := range c.skip {
			clear(c.skip[ri])
			c.skipPath[ri] = nil
		}
		c.force = nil
		return
	}
	for ri := range c.force {
		slices.Sort(c.force[ri])
		c.force[ri] = slices.Compact(c.force[ri])
	}
}

// refused sets skip and skipPath: the kinds and the paths of each report
// that the filter kinds refuses.
func (c *cached) refused() {
	kf := *c.kinds
	kf.Paths = nil
	var pf *reports.Filter
	if len(c.kinds.Paths) > 0 {
		pf = &reports.Filter{Paths: c.kinds.Paths}
	}
	c.skip, c.skipPath = make([][]bool, len(c.reps)), make([][]bool, len(c.reps))
	for ri, r := range c.reps {
		if r == nil {
			continue
		}
		c.skip[ri] = make([]bool, len(r.kinds))
		for k := range r.kinds {
			c.skip[ri][k] = !kf.Match(r.kinds[k].finding())
		}
		if pf != nil {
			c.skipPath[ri] = make([]bool, len(r.paths))
			for p := range r.paths {
				c.skipPath[ri][p] = !pf.Match(reports.Finding{Path: r.paths[p]})
			}
		}
	}
}

// seenNames is what the findings not passed over have (their tools, rules
// and paths, lowered but the paths), and the first finding of each kind
// and of each path of each report, -1 for none.
type seenNames struct {
	tools, rules, paths  map[string]bool
	firstKind, firstPath [][]int32
}

// passedOn looks at every finding of the reports for what the findings
// that skip and skipPath do not pass over have.
func (c *cached) passedOn() *seenNames {
	s := &seenNames{tools: map[string]bool{}, rules: map[string]bool{}, paths: map[string]bool{},
		firstKind: make([][]int32, len(c.reps)), firstPath: make([][]int32, len(c.reps))}
	for ri, r := range c.reps {
		if r == nil {
			continue
		}
		firstKind, firstPath := filled(len(r.kinds), -1), filled(len(r.paths), -1)
		s.firstKind[ri], s.firstPath[ri] = firstKind, firstPath
		kept := make([]bool, len(r.kinds))
		for i := 0; i < r.n; i++ {
			x := r.rec(i)
			if firstKind[x.kind] < 0 {
				firstKind[x.kind] = int32(i)
			}
			if firstPath[x.path] < 0 {
				firstPath[x.path] = int32(i)
			}
			if c.skip[ri][x.kind] || c.skipPath[ri] != nil && c.skipPath[ri][x.path] {
				continue
			}
			kept[x.kind] = true
			s.paths[r.paths[x.path]] = true
		}
		for k, ok := range kept {
			if !ok {
				continue
			}
			x := &r.kinds[k]
			s.tools[strings.ToLower(x.tool)] = true
			for _, n := range kindRules(x) {
				s.rules[strings.ToLower(n)] = true
			}
		}
	}
	return s
}

// filled returns n copies of v.
func filled(n int, v int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// forceMissing sets force: for each tool, rule and path of the filter
// that no finding passed on has (seen), a finding that has it is handed
// on all the same (the filter refuses it). It returns false when one of
// them is no finding's at all (or a path pattern is not valid): then
// nothing may be passed over.
func (c *cached) forceMissing(seen *seenNames) bool {
	f := c.kinds
	c.force = make([][]int32, len(c.reps))
	ok := true
	for _, t := range f.Tools {
		t := strings.ToLower(t)
		if !seen.tools[t] {
			ok = ok && c.forceKind(seen, func(k *kind) bool { return strings.ToLower(k.tool) == t })
		}
	}
	for _, n := range f.Rules {
		n := strings.ToLower(n)
		if !seen.rules[n] {
			ok = ok && c.forceKind(seen, func(k *kind) bool {
				return slices.ContainsFunc(kindRules(k), func(s string) bool { return strings.ToLower(s) == n })
			})
		}
	}
	globs, err := reports.CompileGlobs(f.Paths)
	ok = ok && err == nil
glob:
	for _, g := range globs {
		for p := range seen.paths {
			if g.Match(p) {
				continue glob
			}
		}
		ok = ok && c.forcePath(seen, g.Match)
	}
	return ok
}

// forceKind hands on the first finding of the first kind that match
// accepts; false when none does.
func (c *cached) forceKind(seen *seenNames, match func(*kind) bool) bool {
	for ri, r := range c.reps {
		if r == nil {
			continue
		}
		for k := range r.kinds {
			if seen.firstKind[ri][k] >= 0 && match(&r.kinds[k]) {
				c.force[ri] = append(c.force[ri], seen.firstKind[ri][k])
				return true
			}
		}
	}
	return false
}

// forcePath hands on the first finding of the first path that match
// accepts; false when none does.
func (c *cached) forcePath(seen *seenNames, match func(string) bool) bool {
	for ri, r := range c.reps {
		if r == nil {
			continue
		}
		for p, path := range r.paths {
			if seen.firstPath[ri][p] >= 0 && match(path) {
				c.force[ri] = append(c.force[ri], seen.firstPath[ri][p])
				return true
			}
		}
	}
	return false
}

// kindRules are the names the pipeline knows a kind's rule by: its id, its
// name and its short form.
func kindRules(k *kind) []string {
	return []string{k.rule, k.ruleName, reports.ShortRule(k.tool, k.rule)}
}

// Rereadable implements [pipeline.Rereadable]: the reports kept in the
// cache are read again at no cost; one read as it goes is not.
func (c *cached) Rereadable() bool { return !slices.Contains(c.reps, nil) }

// Read implements [pipeline.Source].
// EachTriaged calls fn with the fingerprint of each result of the
// reports held that a triage decision left out (recap's SARIF writes
// them suppressed), for a baseline ([pipeline.TriagedSource]).
func (c *cached) EachTriaged(fn func(fingerprint string)) {
	for _, r := range c.reps {
		if r != nil {
			for _, fp := range r.triaged {
				fn(fp)
			}
		}
	}
}

func (c *cached) Read(ctx context.Context, keep func(*reports.Finding) bool, emit func(*reports.Finding) error) ([]reports.Input, error) {
	inputs := make([]reports.Input, len(c.reps))
	var f reports.Finding
	for ri, r := range c.reps {
		if r == nil {
			in, err := readFile(ctx, c.files[ri], c.root, keep, func(x *reports.Finding) error {
				c.at = ref{report: int32(ri), index: -1}
				return emit(x)
			})
			inputs[ri] = in
			if err != nil {
				return inputs, err
			}
			continue
		}
		inputs[ri] = r.input
		if c.kinds != nil && c.skip == nil {
			c.skips()
		}
		var skip, skipPath []bool // by kind, by path
		var force []int32
		if c.skip != nil {
			skip, skipPath = c.skip[ri], c.skipPath[ri]
			if c.force != nil {
				force = c.force[ri]
			}
		}
		for i := 0; i < r.n; i++ {
			if i%recChunk == 0 {
				if err := ctx.Err(); err != nil {
					return inputs, err
				}
				c.pulse.beat()
			}
			if skip != nil && (skip[r.rec(i).kind] || skipPath != nil && skipPath[r.rec(i).path]) {
				for len(force) > 0 && int(force[0]) < i {
					force = force[1:]
				}
				if len(force) == 0 || int(force[0]) != i {
					continue
				}
			}
			r.at(i, &f, false)
			if c.ids {
				f.ID = reports.ID(r.tag, i+1)
			}
			if !keep(&f) {
				continue
			}
			if c.ids {
				if c.fingerprints {
					f.Fingerprint = r.fingerprint(i)
				}
			}
			c.at = ref{report: int32(ri), index: int32(i)}
			if err := emit(&f); err != nil {
				return inputs, err
			}
		}
	}
	return inputs, nil
}

// readFile reads a report from its file, without keeping it: keep (nil:
// all) and emit as a [pipeline.Source]'s; the ids are the server's
// (tag-n), the input's path relative to the root.
func readFile(ctx context.Context, f file, rt *root, keep func(*reports.Finding) bool, emit func(*reports.Finding) error) (reports.Input, error) {
	opts := rt.readOptions(ctx)
	opts.Context, opts.Keep = ctx, keep
	var f1 reports.Finding // one for all, as pipeline.Files reads
	in, err := parsers.ReadFile(f.rel, reports.InputTag(f.rel, tagLen), opts, func(x reports.Finding) error { f1 = x; return emit(&f1) })
	if err == nil {
		err = ctx.Err()
	}
	in.Path = f.rel
	in.Error = strings.ReplaceAll(in.Error, f.abs, f.rel)
	for i, w := range in.Warnings {
		in.Warnings[i] = strings.ReplaceAll(w, f.abs, f.rel)
	}
	return in, err
}

// bufferStore keeps result buffers: each expires after ttl without use, and
// the store holds at most max buffers and maxBytes of them, dropping the
// least recently used first.
type bufferStore struct {
	ttl      time.Duration
	max      int
	maxBytes int64
	now      func() time.Time

	mu      sync.Mutex
	byID    map[string]*buffer
	byKey   map[string]*buffer // by the session's key of the query
	results map[string]*result // the results the buffers hold, by the query's key
	total   int64              // bytes of the results held, each once
}

func newBufferStore(ttl time.Duration, max int, maxBytes int64, now func() time.Time) *bufferStore {
	return &bufferStore{ttl: ttl, max: max, maxBytes: maxBytes, now: now, byID: map[string]*buffer{}, byKey: map[string]*buffer{}, results: map[string]*result{}}
}

// get returns the live buffer with this id, or nil.
func (s *bufferStore) get(id string) *buffer {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	b := s.byID[id]
	if b != nil {
		b.used = s.now()
	}
	return b
}

// lookup returns the live buffer of a query key, or nil.
func (s *bufferStore) lookup(key string) *buffer {
	if key == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	b := s.byKey[key]
	if b != nil {
		b.used = s.now()
	}
	return b
}

// shared returns the live result of a query key that a buffer of any
// session holds, or nil.
func (s *bufferStore) shared(key string) *result {
	if key == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	return s.results[key]
}

// newBufferID is a random id of 15 digits after a "b": digits, which
// tokenizers cut in threes, cost the same in every id (24 o200k_base
// tokens in the line and the JSON both), so that an answer fitted at the
// smallest budget cannot go over it by the luck of its id; hex digits
// cost 22 to 38.
func newBufferID() string {
	var raw [8]byte
	_, _ = rand.Read(raw[:])
	return fmt.Sprintf("b%015d", binary.LittleEndian.Uint64(raw[:])%1e15)
}

// put stores b under a new id, dropping old buffers past the bounds.
func (s *bufferStore) put(b *buffer) {
	b.id = newBufferID()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	b.used = s.now()
	if old := s.byKey[b.key]; old != nil && b.key != "" {
		s.drop(old)
	}
	s.byID[b.id] = b
	if b.key != "" {
		s.byKey[b.key] = b
	}
	if b.holders == 0 {
		s.total += b.bytes
	}
	b.holders++
	if b.result.key != "" {
		s.results[b.result.key] = b.result
	}
	for len(s.byID) > s.max || (s.total > s.maxBytes && len(s.byID) > 1) {
		var oldest *buffer
		for _, x := range s.byID {
			// Another session's buffer of b's result frees nothing.
			if x != b && x.result != b.result && (oldest == nil || x.used.Before(oldest.used)) {
				oldest = x
			}
		}
		if oldest == nil {
			break
		}
		s.drop(oldest)
	}
}

// held returns the bytes of the buffers kept.
func (s *bufferStore) held() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

// len returns the number of live buffers.
func (s *bufferStore) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	return len(s.byID)
}

// expire drops the buffers idle for longer than ttl; s.mu is held.
func (s *bufferStore) expire() {
	now := s.now()
	for _, b := range s.byID {
		if now.Sub(b.used) > s.ttl {
			s.drop(b)
		}
	}
}

// dropReport drops the buffers that refer to r (it left the cache).
func (s *bufferStore) dropReport(r *report) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.byID {
		if slices.Contains(b.reports, r) {
			s.drop(b)
		}
	}
}

func (s *bufferStore) drop(b *buffer) {
	delete(s.byID, b.id)
	if b.key != "" && s.byKey[b.key] == b {
		delete(s.byKey, b.key)
	}
	if b.holders--; b.holders == 0 {
		s.total -= b.bytes
		if b.result.key != "" && s.results[b.result.key] == b.result {
			delete(s.results, b.result.key)
		}
	}
}
