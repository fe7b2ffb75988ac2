package review

import (
	"container/heap"
	"sort"

	"github.com/recap-dev/recap/reports"
)

// Which findings a review shows, and in which order, is decided here and
// nowhere else: the view's order (reports.Order: importance unless --sort
// says otherwise; reports.Less). The inline comments come from the view's
// page (already in this order), and the check run's annotations and the
// job summary keep the first findings of this order within their bounds,
// while the findings stream by.

// picker keeps the first findings in order whose costs add up to at most
// budget (0: no bound), and counts the others; its memory is what it
// keeps.
type picker struct {
	order   reports.Order
	budget  int
	used    int
	h       pickHeap
	dropped int
}

// picked is a finding kept, with its cost and what was made of it.
type picked struct {
	f    reports.Finding
	cost int
	text string
}

// add offers f at cost, with text made of it.
func (p *picker) add(f *reports.Finding, cost int, text string) {
	p.h.order = p.order
	heap.Push(&p.h, picked{f: *f, cost: cost, text: text})
	p.used += cost
	for p.budget > 0 && p.used > p.budget && p.h.Len() > 0 {
		out := heap.Pop(&p.h).(picked)
		p.used -= out.cost
		p.dropped++
	}
}

// sorted returns the kept findings in order.
func (p *picker) sorted() []picked {
	out := append([]picked(nil), p.h.items...)
	sort.Slice(out, func(i, j int) bool { return p.order.Less(&out[i].f, &out[j].f) })
	return out
}

// pickHeap is a max-heap in order: its root goes first.
type pickHeap struct {
	order reports.Order
	items []picked
}

func (h *pickHeap) Len() int           { return len(h.items) }
func (h *pickHeap) Less(i, j int) bool { return h.order.Less(&h.items[j].f, &h.items[i].f) }
func (h *pickHeap) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *pickHeap) Push(x any)         { h.items = append(h.items, x.(picked)) }
func (h *pickHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

// Annotated keeps the first Max findings in view order (most important
// first) of those given to Add, and counts the others, while they stream
// by: its memory is Max findings. Findings without a path are counted
// apart (an annotation needs a file).
type Annotated struct {
	Max    int           // 0: every finding
	Order  reports.Order // the view's (the zero value: importance)
	p      picker
	noFile int
}

// Add offers f (copied).
func (a *Annotated) Add(f *reports.Finding) {
	if f.Path == "" {
		a.noFile++
		return
	}
	a.p.budget, a.p.order = a.Max, a.Order
	a.p.add(f, 1, "")
}

// Findings returns the kept findings in view order, the number left out
// by the cap, and the number without a file.
func (a *Annotated) Findings() (kept []reports.Finding, omitted, noFile int) {
	for _, p := range a.p.sorted() {
		kept = append(kept, p.f)
	}
	return kept, a.p.dropped, a.noFile
}
