package summarize

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
)

// TestTallyBounded: past its bound a tally's memory stays flat, the heavy
// names stay on top with counts that are sure (at most the truth, at least
// the truth less the floor), and the distinct names are estimated within
// 3%, the same each time.
func TestTallyBounded(t *testing.T) {
	t.Parallel()
	const max, distinct = 1000, 200_000
	tl := newTally(max, hashString)
	heavy := map[string]int{"hot/A.java": 5000, "hot/B.java": 3000, "hot/C.java": 1500}
	truth := map[string]int{}
	for i := 0; i < distinct; i++ {
		tl.add(fmt.Sprintf("src/f%07d.java", i))
		for name, n := range heavy { // spread through the stream
			if i%(distinct/n) == 0 {
				tl.add(name)
				truth[name]++
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
	top := top(tl.sure())
	for i, name := range []string{"hot/A.java", "hot/B.java", "hot/C.java"} {
		if top[i].Name != name || top[i].Count > truth[name] || top[i].Count < truth[name]-tl.floor {
			t.Errorf("top[%d] = %+v, want %s with %d (at most %d under)", i, top[i], name, truth[name], tl.floor)
		}
	}
	for name, n := range tl.sure() {
		want := truth[name]
		if want == 0 {
			want = 1
		}
		if n > want || n < 1 {
			t.Fatalf("%s: count %d, truth %d", name, n, want)
		}
	}
	again := newTally(max, hashString)
	for i := 0; i < distinct; i++ {
		again.add(fmt.Sprintf("src/f%07d.java", i))
		for name, n := range heavy {
			if i%(distinct/n) == 0 {
				again.add(name)
			}
		}
	}
	if n, _ := again.distinct(); n != got {
		t.Errorf("the same names estimated %d, then %d", got, n)
	}
}

// TestTallyEstimateBounded: an estimate of distinct names is never more
// than the names added (a million findings are not in more than a million
// files), nor fewer than the names held.
func TestTallyEstimateBounded(t *testing.T) {
	t.Parallel()
	for _, n := range []int{150, 1000, 5000} {
		tl := newTally(100, hashString)
		for i := 0; i < n; i++ {
			tl.add(fmt.Sprint(i))
		}
		if got, exact := tl.distinct(); exact || got > n || got < len(tl.m) {
			t.Errorf("%d names: estimate %d (exact %v, %d held)", n, got, exact, len(tl.m))
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
	m := tl.sure()
	if n, exact := tl.distinct(); n != 100 || !exact || m["99"] != 100 || m["0"] != 1 {
		t.Errorf("distinct %d exact %v, counts %d %d", n, exact, m["99"], m["0"])
	}
}

// TestTallyRunsAsOneByOne: a tally that counts the repeats of the last
// name apart counts, drops and estimates as one that looks up every add,
// over streams of runs of names, within its bound and past it, with
// names taken back between.
func TestTallyRunsAsOneByOne(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 200 {
		max := []int{4, 16, 1000}[round%3]
		got, want := newTally(max, hashString), newTally(max, hashString)
		names := 1 + rng.IntN(60)
		for range rng.IntN(3000) {
			k := fmt.Sprint("n", rng.IntN(names))
			if want.floor == 0 && rng.IntN(20) == 0 { // remove while exact, as the collector does
				got.remove(k)
				want.remove(k)
				continue
			}
			for range 1 + rng.IntN(6) {
				got.add(k)
				want.add(k)
				want.flush()
				want.hasLast = false // every add looked up
			}
		}
		gm, wm := got.sure(), want.sure()
		if !maps.Equal(gm, wm) || !maps.Equal(got.err, want.err) || got.floor != want.floor || got.adds != want.adds {
			t.Fatalf("round %d (bound %d): counts %v, err %v, floor %d, adds %d; one by one %v, %v, %d, %d",
				round, max, gm, got.err, got.floor, got.adds, wm, want.err, want.floor, want.adds)
		}
		gd, ge := got.distinct()
		wd, we := want.distinct()
		if gd != wd || ge != we {
			t.Fatalf("round %d: distinct %d (exact %v), one by one %d (%v)", round, gd, ge, wd, we)
		}
	}
}

// TestHyperLogLog: the estimate is within 3% (about 4 standard errors)
// from 1 to a million values, hashed by a fixed mixer so that the test is
// the same each run.
func TestHyperLogLog(t *testing.T) {
	t.Parallel()
	splitmix := mix
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
