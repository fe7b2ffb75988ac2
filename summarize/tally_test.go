package summarize

import (
	"fmt"
	"testing"
)

// TestTallyBounded: past its bound a tally's memory stays flat, the heavy
// names stay on top with counts at or over the truth, and the distinct
// names are estimated within 3%.
func TestTallyBounded(t *testing.T) {
	t.Parallel()
	const max, distinct = 1000, 200_000
	tl := newTally(max, hashString)
	heavy := map[string]int{"hot/A.java": 5000, "hot/B.java": 3000, "hot/C.java": 1500}
	for i := 0; i < distinct; i++ {
		tl.add(fmt.Sprintf("src/f%07d.java", i))
		for name, n := range heavy { // spread through the stream
			if i%(distinct/n) == 0 {
				tl.add(name)
			}
		}
		if len(tl.m) > max {
			t.Fatalf("after %d names the tally holds %d, over its bound %d", i+1, len(tl.m), max)
		}
	}
	got, exact := tl.distinct()
	if exact || got < distinct*97/100 || got > distinct*103/100+len(heavy) {
		t.Errorf("distinct = %d (exact %v), want about %d", got, exact, distinct+len(heavy))
	}
	top := top(tl.m)
	for i, name := range []string{"hot/A.java", "hot/B.java", "hot/C.java"} {
		if top[i].Name != name || top[i].Count < heavy[name] || top[i].Count > heavy[name]+tl.floor {
			t.Errorf("top[%d] = %+v, want %s with %d (at most %d over)", i, top[i], name, heavy[name], tl.floor)
		}
	}
}

// TestTallyExact: within its bound a tally is exact.
func TestTallyExact(t *testing.T) {
	t.Parallel()
	tl := newTally(100, hashString)
	for i := 0; i < 100; i++ {
		for j := 0; j <= i; j++ {
			tl.add(fmt.Sprint(i))
		}
	}
	if n, exact := tl.distinct(); n != 100 || !exact || tl.m["99"] != 100 || tl.m["0"] != 1 {
		t.Errorf("distinct %d exact %v, counts %d %d", n, exact, tl.m["99"], tl.m["0"])
	}
}

// TestHyperLogLog: the estimate is within 3% (about 4 standard errors)
// from 1 to a million values, hashed by a fixed mixer so that the test is
// the same each run.
func TestHyperLogLog(t *testing.T) {
	t.Parallel()
	splitmix := func(x uint64) uint64 {
		x += 0x9e3779b97f4a7c15
		x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
		x = (x ^ x>>27) * 0x94d049bb133111eb
		return x ^ x>>31
	}
	for _, n := range []int{1, 10, 1000, 50_000, 1_000_000} {
		h := newHyperLogLog()
		for i := 0; i < n; i++ {
			h.add(splitmix(uint64(i)))
		}
		if got := h.estimate(); got < n*97/100 || got > n*103/100+1 {
			t.Errorf("%d values: estimate %d", n, got)
		}
	}
}
