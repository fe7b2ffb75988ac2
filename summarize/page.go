package summarize

import (
	"container/heap"
	"sort"

	"github.com/recap-dev/recap/reports"
)

// Limits of a page of findings (docs/formats.md, "Limits of a view").
const (
	DefaultLimit = 50  // findings in one response unless asked otherwise
	MaxLimit     = 200 // findings in one response at most
)

// pageHeap keeps the first offset+limit findings in view order while they
// stream by, without sorting them all: a max-heap whose root is the last of
// the kept ones, replaced when a finding that sorts before it arrives.
// Memory is offset+limit findings, whatever the number streamed.
type pageHeap struct {
	fs    []reports.Finding
	order reports.Order
}

func (h *pageHeap) Len() int           { return len(h.fs) }
func (h *pageHeap) Less(i, j int) bool { return h.order.Less(&h.fs[j], &h.fs[i]) } // max-heap
func (h *pageHeap) Swap(i, j int)      { h.fs[i], h.fs[j] = h.fs[j], h.fs[i] }
func (h *pageHeap) Push(x any)         { h.fs = append(h.fs, x.(reports.Finding)) }
func (h *pageHeap) Pop() any {
	old := h.fs
	x := old[len(old)-1]
	h.fs = old[:len(old)-1]
	return x
}

// NewPage locates a page of returned findings from offset among total,
// asked for with limit: its next offset is set when findings are left after it.
func NewPage(offset, limit, returned, total int) *Page {
	p := &Page{Offset: offset, Limit: limit, Returned: returned, Total: total}
	if next := offset + returned; next < total {
		p.NextOffset = &next
	}
	return p
}

type pager struct {
	offset, limit int
	keep          int
	order         reports.Order
	h             pageHeap
	// firsts keeps the first finding of each of the first rules, for the
	// head of the default order (reports.FirstPage); nil in other orders.
	firsts *firstsHeap
}

// firstsHeap keeps, while findings stream by, the first finding in view
// order of each of the first n rules: a max-heap of one finding per rule
// (tool, rule), whose root is the last kept, with the index of each rule's.
// A rule's first finding put out by a better rule's stays out: every later
// finding of that rule is after it, so after every finding kept.
type firstsHeap struct {
	n      int
	order  reports.Order
	fs     []reports.Finding
	byRule map[ruleKey]int
}

func newFirstsHeap(n int, o reports.Order) *firstsHeap {
	return &firstsHeap{n: n, order: o, byRule: map[ruleKey]int{}}
}

func (h *firstsHeap) Len() int           { return len(h.fs) }
func (h *firstsHeap) Less(i, j int) bool { return h.order.Less(&h.fs[j], &h.fs[i]) } // max-heap
func (h *firstsHeap) Swap(i, j int) {
	h.fs[i], h.fs[j] = h.fs[j], h.fs[i]
	h.byRule[ruleKey{h.fs[i].Tool, h.fs[i].Rule}] = i
	h.byRule[ruleKey{h.fs[j].Tool, h.fs[j].Rule}] = j
}
func (h *firstsHeap) Push(x any) {
	f := x.(reports.Finding)
	h.byRule[ruleKey{f.Tool, f.Rule}] = len(h.fs)
	h.fs = append(h.fs, f)
}
func (h *firstsHeap) Pop() any {
	old := h.fs
	x := old[len(old)-1]
	h.fs = old[:len(old)-1]
	delete(h.byRule, ruleKey{x.Tool, x.Rule})
	return x
}

// add keeps f when it is its rule's first so far and among the first n
// rules' firsts; f is copied when kept.
func (h *firstsHeap) add(f *reports.Finding) {
	k := ruleKey{f.Tool, f.Rule}
	if i, ok := h.byRule[k]; ok {
		if h.order.Less(f, &h.fs[i]) {
			h.fs[i] = *f
			heap.Fix(h, i)
		}
		return
	}
	switch {
	case len(h.fs) < h.n:
		heap.Push(h, *f)
	case h.order.Less(f, &h.fs[0]):
		delete(h.byRule, ruleKey{h.fs[0].Tool, h.fs[0].Rule})
		h.fs[0] = *f
		h.byRule[k] = 0
		heap.Fix(h, 0)
	}
}

// add keeps f when it is among the first keep findings so far; f is
// copied when kept, never held.
func (p *pager) add(f *reports.Finding) {
	if p.keep == 0 {
		return
	}
	p.h.order = p.order
	if len(p.h.fs) < p.keep {
		heap.Push(&p.h, *f)
		return
	}
	if p.order.Less(f, &p.h.fs[0]) {
		p.h.fs[0] = *f
		heap.Fix(&p.h, 0)
	}
}

// addFirst offers f to the rules' firsts (the head of the default order).
func (p *pager) addFirst(f *reports.Finding) {
	if p.firsts != nil {
		p.firsts.add(f)
	}
}

// page returns the kept findings from offset on, in view order, at most
// limit of them, without those skip accepts (nil: none).
func (p *pager) page(skip func(*reports.Finding) bool) []reports.Finding {
	out := make([]reports.Finding, 0, len(p.h.fs))
	for i := range p.h.fs {
		if skip == nil || !skip(&p.h.fs[i]) {
			out = append(out, p.h.fs[i])
		}
	}
	sort.Slice(out, func(i, j int) bool { return p.order.Less(&out[i], &out[j]) })
	if p.firsts != nil {
		out = p.withHead(out, skip)
	}
	if p.offset >= len(out) {
		return nil
	}
	return out[p.offset:min(len(out), p.offset+p.limit)]
}

// withHead returns the kept findings, in view order, with the head of
// the default order first (reports.FirstPage): the head is found among the
// first findings kept and the rules' firsts, together in view order (see
// reports.FirstPage), and the kept findings that are not in it follow.
func (p *pager) withHead(kept []reports.Finding, skip func(*reports.Finding) bool) []reports.Finding {
	return withHead(kept, p.firsts.fs, skip, p.order)
}

// withHead puts the head of the default order before the findings of
// sorted (in view order) that are not in it: the head is found among the
// first reports.FirstPageSize findings of sorted and firsts (each rule's
// first finding, of the first rules; those skip accepts left out).
func withHead(sorted, firsts []reports.Finding, skip func(*reports.Finding) bool, o reports.Order) []reports.Finding {
	cands, head := headOf(sorted, firsts, skip, o)
	out := make([]reports.Finding, 0, len(sorted)+len(head))
	inHead := make(map[int]bool, len(head))
	for _, i := range head {
		out = append(out, *cands[i].f)
		if cands[i].kept >= 0 {
			inHead[cands[i].kept] = true
		}
	}
	for i := range sorted {
		if !inHead[i] {
			out = append(out, sorted[i])
		}
	}
	return out
}

// headCand is a finding that may be in the head: its index in the sorted
// findings kept, -1 when it is not there.
type headCand struct {
	f    *reports.Finding
	kept int
}

// headOf returns the candidates of the head, in view order, and the head,
// as indexes into them (see withHead).
func headOf(sorted, firsts []reports.Finding, skip func(*reports.Finding) bool, o reports.Order) ([]headCand, []int) {
	type cand = headCand
	n := min(len(sorted), reports.FirstPageSize)
	cands := make([]cand, 0, n+len(firsts))
	for i := range sorted[:n] {
		cands = append(cands, cand{&sorted[i], i})
	}
	for i := range firsts {
		f := &firsts[i]
		if skip != nil && skip(f) {
			continue
		}
		at, found := sort.Find(len(sorted), func(j int) int { return o.Compare(ptrKey(f), ptrKey(&sorted[j])) })
		if found && at < n {
			continue // among the first already
		}
		k := -1
		if found {
			k = at
		}
		cands = append(cands, cand{f, k})
	}
	sort.SliceStable(cands, func(i, j int) bool { return o.Less(cands[i].f, cands[j].f) })
	head := reports.FirstPage(len(cands), reports.FirstPageSize, func(i int) reports.Impact { return cands[i].f.Impact },
		func(i int) ruleKey { return ruleKey{cands[i].f.Tool, cands[i].f.Rule} })
	return cands, head
}

// headMisses reports whether a rule's first finding that skip accepts (a
// duplicate, whose problem another finding shows) may hide that rule's
// next finding from the head: the head is short, or the skipped finding,
// as its rule's first, would come before the head's last. A rule's next
// finding comes after its first in view order, so a skipped first that
// would not make the head leaves the head as it is: no pass is needed.
func (p *pager) headMisses(skip func(*reports.Finding) bool) bool {
	if p.firsts == nil || skip == nil {
		return false
	}
	var skipped []*reports.Finding
	for i := range p.firsts.fs {
		if skip(&p.firsts.fs[i]) {
			skipped = append(skipped, &p.firsts.fs[i])
		}
	}
	if len(skipped) == 0 {
		return false
	}
	sorted := make([]reports.Finding, 0, len(p.h.fs))
	for i := range p.h.fs {
		if !skip(&p.h.fs[i]) {
			sorted = append(sorted, p.h.fs[i])
		}
	}
	sort.Slice(sorted, func(i, j int) bool { return p.order.Less(&sorted[i], &sorted[j]) })
	cands, head := headOf(sorted, p.firsts.fs, skip, p.order)
	if len(head) < reports.FirstPageSize {
		return true
	}
	last := cands[head[len(head)-1]].f
	lastFirst := true // whether last is its rule's first among the candidates
	for _, c := range cands {
		if c.f == last {
			break
		}
		if c.f.Tool == last.Tool && c.f.Rule == last.Rule {
			lastFirst = false
			break
		}
	}
	for _, f := range skipped {
		switch {
		case f.Impact != last.Impact:
			if f.Impact > last.Impact {
				return true
			}
		case !lastFirst || p.order.Less(f, last):
			return true
		}
	}
	return false
}

func ptrKey(f *reports.Finding) *reports.SortKey {
	k := reports.KeyOf(f)
	return &k
}
