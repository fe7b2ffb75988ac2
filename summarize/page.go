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
	if p.offset >= len(out) {
		return nil
	}
	return out[p.offset:min(len(out), p.offset+p.limit)]
}
