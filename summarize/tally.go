package summarize

import (
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
)

// MaxDistinct bounds the names (files, rules, categories, tools) a
// [Collector] counts exactly: past it, its memory stays flat whatever the
// number of distinct names (a report of millions of files), the names with
// the most findings are kept for the top lists (their counts may be over the
// truth by at most the largest count dropped), and the number of distinct
// files is estimated; [Summary.Approximate] says which counts are estimates.
const MaxDistinct = 100_000

// tally counts findings by a name: exactly while it has at most max names;
// then, on reaching max, it keeps the half with the largest counts and lets
// a new name start at the largest count dropped (so that a frequent name is
// never lost: its count can only be over the truth by at most that), and it
// estimates the distinct names with a HyperLogLog.
type tally[K comparable] struct {
	m     map[K]int
	max   int
	floor int          // the largest count dropped; 0 while exact
	hll   *hyperLogLog // the distinct names, once not exact
	hash  func(maphash.Seed, K) uint64
	seed  maphash.Seed
}

func newTally[K comparable](max int, hash func(maphash.Seed, K) uint64) *tally[K] {
	return &tally[K]{m: map[K]int{}, max: max, hash: hash, seed: maphash.MakeSeed()}
}

func (t *tally[K]) add(k K) {
	if t.hll != nil {
		t.hll.add(t.hash(t.seed, k))
	}
	if n, ok := t.m[k]; ok {
		t.m[k] = n + 1
		return
	}
	if len(t.m) >= t.max {
		t.shrink()
	}
	t.m[k] = t.floor + 1
}

// shrink drops the half of the names with the smallest counts.
func (t *tally[K]) shrink() {
	if t.hll == nil {
		t.hll = newHyperLogLog()
		for k := range t.m {
			t.hll.add(t.hash(t.seed, k))
		}
	}
	counts := make([]int, 0, len(t.m))
	for _, n := range t.m {
		counts = append(counts, n)
	}
	slices.Sort(counts)
	median := counts[len(counts)/2]
	for k, n := range t.m {
		if n <= median {
			delete(t.m, k)
		}
	}
	t.floor = max(t.floor, median)
}

// distinct returns the number of names, and whether it is exact.
func (t *tally[K]) distinct() (int, bool) {
	if t.hll == nil {
		return len(t.m), true
	}
	return t.hll.estimate(), false
}

func hashString(seed maphash.Seed, s string) uint64 { return maphash.String(seed, s) }

func hashInt(seed maphash.Seed, n int) uint64 { return maphash.Comparable(seed, n) }

func hashRule(seed maphash.Seed, k ruleKey) uint64 {
	return maphash.String(seed, k.tool) ^ bits.RotateLeft64(maphash.String(seed, k.rule), 17)
}

// hyperLogLog estimates the number of distinct values of a stream in 16 KB
// (2^14 registers; a standard error of about 0.8%), after Flajolet et al.
// (2007) with the small-range correction.
type hyperLogLog struct{ reg [1 << hllBits]uint8 }

const hllBits = 14

func newHyperLogLog() *hyperLogLog { return &hyperLogLog{} }

func (h *hyperLogLog) add(x uint64) {
	i := x >> (64 - hllBits)
	rho := uint8(bits.LeadingZeros64(x<<hllBits|1<<(hllBits-1)) + 1)
	if rho > h.reg[i] {
		h.reg[i] = rho
	}
}

func (h *hyperLogLog) estimate() int {
	const m = float64(1 << hllBits)
	sum, zeros := 0.0, 0
	for _, r := range h.reg {
		sum += math.Ldexp(1, -int(r))
		if r == 0 {
			zeros++
		}
	}
	e := 0.7213 / (1 + 1.079/m) * m * m / sum
	if e <= 2.5*m && zeros > 0 {
		e = m * math.Log(m/float64(zeros))
	}
	return int(e + 0.5)
}
