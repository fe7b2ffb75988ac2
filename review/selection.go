package review

import (
	"container/heap"
	"sort"

	"github.com/recap-dev/recap/reports"
)

// Which findings a review shows, and in which order, is decided here and
// nowhere else: the inline comments come from the view's page (already in
// this order), and the check run's annotations, the workflow annotations
// and the job summary keep the first findings of this order within their
// bounds, while the findings stream by.

// first reports whether a comes before b: the view order (reports.Less).
func first(a, b *reports.Finding) bool { return reports.Less(a, b) }

// picker keeps the first findings (in the order of first) whose costs add
// up to at most budget (0: no bound), and counts the others; its memory is
// what it keeps.
type picker struct {
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
	heap.Push(&p.h, picked{f: *f, cost: cost, text: text})
	p.used += cost
	for p.budget > 0 && p.used > p.budget && len(p.h) > 0 {
		out := heap.Pop(&p.h).(picked)
		p.used -= out.cost
		p.dropped++
	}
}

// sorted returns the kept findings in order.
func (p *picker) sorted() []picked {
	out := append([]picked(nil), p.h...)
	sort.Slice(out, func(i, j int) bool { return first(&out[i].f, &out[j].f) })
	return out
}

// pickHeap is a max-heap in the order of first: its root goes first.
type pickHeap []picked

func (h pickHeap) Len() int           { return len(h) }
func (h pickHeap) Less(i, j int) bool { return first(&h[j].f, &h[i].f) }
func (h pickHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *pickHeap) Push(x any)        { *h = append(*h, x.(picked)) }
func (h *pickHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Annotated keeps the first Max findings in view order (most important
// first) of those given to Add, and counts the others, while they stream
// by: its memory is Max findings. Findings without a path are counted
// apart (an annotation needs a file).
type Annotated struct {
	Max    int // 0: every finding
	p      picker
	noFile int
}

// Add offers f (copied).
func (a *Annotated) Add(f *reports.Finding) {
	if f.Path == "" {
		a.noFile++
		return
	}
	a.p.budget = a.Max
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
