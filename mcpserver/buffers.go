package mcpserver

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"slices"
	"strconv"
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
		b.bytes += 24 * int64(b.summary.Total)
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
// says their findings (nil: none), without making the findings. Each
// order compares what the findings of one kind share before their place
// (the importance; severity, category and rule; nothing by location),
// then the place (path, line, column), then what the kind shares after it
// (tool and rule; by location, the importance first), then the id as a
// string. So each kind gets two ranks, of what it shares before and after
// the place among all the reports' kinds (worked out with the order's own
// comparison, [reports.Order.Compare], on keys that hold only those
// fields), each path its rank among all the reports' paths, and a
// comparison looks at small numbers; the ids break the remaining ties.
func sortRefs(reps []*report, refs []ref, o reports.Order, cfg *config.Config) {
	keys := kindKeys(reps, cfg)
	pre := rankKinds(keys, o, func(k reports.SortKey) reports.SortKey {
		switch o {
		case reports.OrderLocation:
			return reports.SortKey{}
		case reports.OrderSeverity:
			return reports.SortKey{Severity: k.Severity, Category: k.Category, Rule: k.Rule}
		}
		return reports.SortKey{Impact: k.Impact, Quality: k.Quality, SecuritySeverity: k.SecuritySeverity, Severity: k.Severity}
	})
	post := rankKinds(keys, o, func(k reports.SortKey) reports.SortKey {
		if o == reports.OrderLocation {
			return reports.SortKey{Impact: k.Impact, Quality: k.Quality, SecuritySeverity: k.SecuritySeverity, Severity: k.Severity, Tool: k.Tool, Rule: k.Rule}
		}
		return reports.SortKey{Tool: k.Tool, Rule: k.Rule}
	})
	var paths []string
	for _, r := range reps {
		paths = append(paths, r.paths...)
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	pathRank := make([][]uint32, len(reps))
	for i, r := range reps {
		pathRank[i] = make([]uint32, len(r.paths))
		for j, p := range r.paths {
			at, _ := slices.BinarySearch(paths, p)
			pathRank[i][j] = uint32(at)
		}
	}
	slices.SortFunc(refs, func(a, b ref) int {
		x, y := reps[a.report].rec(int(a.index)), reps[b.report].rec(int(b.index))
		if c := cmp.Compare(pre[a.report][x.kind], pre[b.report][y.kind]); c != 0 {
			return c
		}
		if c := cmp.Compare(pathRank[a.report][x.path], pathRank[b.report][y.path]); c != 0 {
			return c
		}
		if c := cmp.Compare(x.line, y.line); c != 0 {
			return c
		}
		if c := cmp.Compare(x.column, y.column); c != 0 {
			return c
		}
		if c := cmp.Compare(post[a.report][x.kind], post[b.report][y.kind]); c != 0 {
			return c
		}
		return compareIDs(reps[a.report].tag, int(a.index)+1, reps[b.report].tag, int(b.index)+1)
	})
}

// rankKinds ranks the kinds of each report (keys) among all of them by
// the part of their keys that part keeps, as the order o compares it:
// equal parts have equal ranks.
func rankKinds(keys [][]reports.SortKey, o reports.Order, part func(reports.SortKey) reports.SortKey) [][]uint32 {
	var all []reports.SortKey
	for _, ks := range keys {
		for _, k := range ks {
			all = append(all, part(k))
		}
	}
	slices.SortFunc(all, func(a, b reports.SortKey) int { return o.Compare(&a, &b) })
	all = slices.CompactFunc(all, func(a, b reports.SortKey) bool { return o.Compare(&a, &b) == 0 })
	ranks := make([][]uint32, len(keys))
	for i, ks := range keys {
		ranks[i] = make([]uint32, len(ks))
		for j, k := range ks {
			p := part(k)
			at, _ := slices.BinarySearchFunc(all, p, func(a, b reports.SortKey) int { return o.Compare(&a, &b) })
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

// compareIDs compares the ids tag-n as strings, as reports.Less does.
func compareIDs(tagA string, a int, tagB string, b int) int {
	var ba, bb [64]byte
	x := strconv.AppendInt(append(append(ba[:0], tagA...), '-'), int64(a), 10)
	y := strconv.AppendInt(append(append(bb[:0], tagB...), '-'), int64(b), 10)
	return bytes.Compare(x, y)
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
	ids   bool
	at    ref
	pulse *pulse // beats as the findings are passed over; nil: none
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
	f := c.kinds
	if len(f.Tools)+len(f.Rules)+len(f.Paths) == 0 {
		return
	}
	// The tools, rules and paths of the findings not passed over, and the
	// first finding of each kind and of each path.
	tools, rules, paths := map[string]bool{}, map[string]bool{}, map[string]bool{}
	firstKind, firstPath := make([][]int32, len(c.reps)), make([][]int32, len(c.reps))
	for ri, r := range c.reps {
		if r == nil {
			continue
		}
		firstKind[ri], firstPath[ri] = make([]int32, len(r.kinds)), make([]int32, len(r.paths))
		for k := range firstKind[ri] {
			firstKind[ri][k] = -1
		}
		for p := range firstPath[ri] {
			firstPath[ri][p] = -1
		}
		kept := make([]bool, len(r.kinds))
		for i := 0; i < r.n; i++ {
			x := r.rec(i)
			if firstKind[ri][x.kind] < 0 {
				firstKind[ri][x.kind] = int32(i)
			}
			if firstPath[ri][x.path] < 0 {
				firstPath[ri][x.path] = int32(i)
			}
			if c.skip[ri][x.kind] || c.skipPath[ri] != nil && c.skipPath[ri][x.path] {
				continue
			}
			kept[x.kind] = true
			paths[r.paths[x.path]] = true
		}
		for k, ok := range kept {
			if !ok {
				continue
			}
			x := &r.kinds[k]
			tools[strings.ToLower(x.tool)] = true
			for _, n := range kindRules(x) {
				rules[strings.ToLower(n)] = true
			}
		}
	}
	// Each tool, rule and path of the filter that no finding passed on
	// has: a finding that has it is handed on all the same (the filter
	// refuses it), or, when no finding has it, nothing is passed over.
	c.force = make([][]int32, len(c.reps))
	force := func(match func(r *report, k int) bool, matchPath func(p string) bool) bool {
		for ri, r := range c.reps {
			if r == nil {
				continue
			}
			if match != nil {
				for k := range r.kinds {
					if firstKind[ri][k] >= 0 && match(r, k) {
						c.force[ri] = append(c.force[ri], firstKind[ri][k])
						return true
					}
				}
			}
			if matchPath != nil {
				for p, path := range r.paths {
					if firstPath[ri][p] >= 0 && matchPath(path) {
						c.force[ri] = append(c.force[ri], firstPath[ri][p])
						return true
					}
				}
			}
		}
		return false
	}
	ok := true
	for _, t := range f.Tools {
		t := strings.ToLower(t)
		if !tools[t] {
			ok = ok && force(func(r *report, k int) bool { return strings.ToLower(r.kinds[k].tool) == t }, nil)
		}
	}
	for _, n := range f.Rules {
		n := strings.ToLower(n)
		if !rules[n] {
			ok = ok && force(func(r *report, k int) bool {
				return slices.ContainsFunc(kindRules(&r.kinds[k]), func(s string) bool { return strings.ToLower(s) == n })
			}, nil)
		}
	}
	globs, err := reports.CompileGlobs(f.Paths)
	ok = ok && err == nil
glob:
	for _, g := range globs {
		for p := range paths {
			if g.Match(p) {
				continue glob
			}
		}
		ok = ok && force(nil, g.Match)
	}
	if !ok {
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

// kindRules are the names the pipeline knows a kind's rule by: its id, its
// name and its short form.
func kindRules(k *kind) []string {
	return []string{k.rule, k.ruleName, reports.ShortRule(k.tool, k.rule)}
}

// Rereadable implements [pipeline.Rereadable]: the reports kept in the
// cache are read again at no cost; one read as it goes is not.
func (c *cached) Rereadable() bool { return !slices.Contains(c.reps, nil) }

// Read implements [pipeline.Source].
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
			if !keep(&f) {
				continue
			}
			if c.ids {
				f.ID, f.Fingerprint = reports.ID(r.tag, i+1), r.fingerprint(i)
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
	in, err := parsers.ReadFile(f.rel, reports.InputTag(f.rel, tagLen), opts, func(x reports.Finding) error { return emit(&x) })
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

// put stores b under a new id, dropping old buffers past the bounds.
func (s *bufferStore) put(b *buffer) {
	var raw [6]byte
	_, _ = rand.Read(raw[:])
	b.id = "b" + hex.EncodeToString(raw[:])
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
