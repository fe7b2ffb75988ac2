package render

import (
	"container/heap"
	"math/rand/v2"
	"testing"

	"github.com/recap-dev/recap/reports"
)

// refHeap is keptHeap through container/heap, as the stream kept its
// results before.
type refHeap []keptResult

func (h refHeap) Len() int           { return len(h) }
func (h refHeap) Less(i, j int) bool { return h[j].key.Less(&h[i].key) }
func (h refHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *refHeap) Push(x any)        { *h = append(*h, x.(keptResult)) }
func (h *refHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// TestKeptHeapAsContainerHeap: under a cap, the stream keeps the same
// results, in the same places, as container/heap did, ties included.
func TestKeptHeapAsContainerHeap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, capacity := range []int{1, 2, 7, 100} {
		var got keptHeap
		var want refHeap
		for seq := range 5000 {
			k := keptResult{seq: seq, key: reports.SortKey{Impact: reports.Impact(rng.IntN(3)), Rule: string(rune('a' + rng.IntN(3))), Line: rng.IntN(4)}}
			full := len(got) >= capacity
			if full && !k.key.Less(&got[0].key) {
				continue
			}
			if full {
				got.replaceRoot(k)
				want[0] = k
				heap.Fix(&want, 0)
			} else {
				got.push(k)
				heap.Push(&want, k)
			}
			for i := range got {
				if got[i].seq != want[i].seq {
					t.Fatalf("cap %d, after result %d: place %d holds %d, want %d", capacity, seq, i, got[i].seq, want[i].seq)
				}
			}
		}
	}
}
