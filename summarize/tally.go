package summarize

import (
	"math"
	"math/bits"
	"slices"
)

// MaxDistinct bounds the names (files, rules, categories, tools) a
// [Collector] counts exactly: past it, its memory stays flat whatever the
// number of distinct names (a report of millions of files), the names with
// the most findings are kept for the top lists (their counts shown are what
// is sure: at most the truth, never over it), and the number of distinct
// files is estimated (never more than the findings that have a file);
// [Summary.Approximate] says which counts are estimates.
const MaxDistinct = 100_000

// tally counts findings by a name: exactly while it has at most max names;
// then, on reaching max, it keeps the half with the largest counts and lets
// a new name start at the largest count dropped (so that a frequent name is
// never lost: its count can only be over the truth by at most that), and it
// estimates the distinct names with a HyperLogLog. A name that starts at
// the floor has that much of its count unsure (err): its count less err is
// sure, and is what the counts show. The hash is fixed, so that the same
// findings give the same estimate every run.
type tally[K comparable] struct {
	m     map[K]int
	err   map[K]int // the unsure part of a count, for names that started at the floor
	max   int
	adds  int          // names added, repeats included: a bound of the distinct names
	floor int          // the largest count dropped; 0 while exact
	hll   *hyperLogLog // the distinct names, once not exact
	hash  func(K) uint64
	// last is the name added last, once there is one (hasLast), and run
	// the adds of it not yet in m: a report lists a file's findings
	// together, and a tool's, so that most adds repeat the name before,
	// and cost a comparison rather than two lookups in m (flush puts
	// them there).
	last    K
	run     int
	hasLast bool
	// lastHashed: the HyperLogLog has the last name's hash (a repeat
	// adds it once the HyperLogLog is made, as an add looked up does).
	lastHashed bool
}

func newTally[K comparable](max int, hash func(K) uint64) *tally[K] {
	return &tally[K]{m: map[K]int{}, max: max, hash: hash}
}

func (t *tally[K]) add(k K) {
	t.adds++
	if t.hasLast && k == t.last {
		t.run++
		if t.hll != nil && !t.lastHashed { // made since the name's first add
			t.hll.add(t.hash(k))
			t.lastHashed = true
		}
		return
	}
	t.flush()
	t.last, t.hasLast, t.lastHashed = k, true, t.hll != nil
	if t.hll != nil {
		t.hll.add(t.hash(k))
	}
	if n, ok := t.m[k]; ok {
		t.m[k] = n + 1
		return
	}
	if len(t.m) >= t.max {
		t.shrink()
	}
	t.m[k] = t.floor + 1
	if t.floor > 0 {
		if t.err == nil {
			t.err = map[K]int{}
		}
		t.err[k] = t.floor
	}
}

// flush puts the adds of the last name not yet counted in m.
func (t *tally[K]) flush() {
	if t.run > 0 {
		t.m[t.last] += t.run
		t.run = 0
	}
}

// remove takes back one add of k, exactly while the tally is exact (no
// name dropped yet).
func (t *tally[K]) remove(k K) {
	if t == nil {
		return
	}
	t.flush()
	t.hasLast = false // k may leave m
	t.adds--
	switch n := t.m[k]; {
	case n > 1:
		t.m[k] = n - 1
	case n == 1:
		delete(t.m, k)
	}
}

// sure returns the counts that are sure (at most the truth): the counts
// themselves while the tally is exact.
func (t *tally[K]) sure() map[K]int {
	t.flush()
	if len(t.err) == 0 {
		return t.m
	}
	out := make(map[K]int, len(t.m))
	for k, n := range t.m {
		out[k] = n - t.err[k]
	}
	return out
}

// shrink drops the half of the names with the smallest counts.
func (t *tally[K]) shrink() {
	if t.hll == nil {
		t.hll = newHyperLogLog()
		for k := range t.m {
			t.hll.add(t.hash(k))
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
			delete(t.err, k)
		}
	}
	t.floor = max(t.floor, median)
}

// distinct returns the number of names, and whether it is exact. An
// estimate is never below the names held nor above the names added.
func (t *tally[K]) distinct() (int, bool) {
	if t.hll == nil {
		return len(t.m), true
	}
	return min(max(t.hll.estimate(), len(t.m)), t.adds), false
}

// The tallies' hashes: FNV-1a, mixed by splitmix64's finalizer so that
// every bit depends on every byte (HyperLogLog reads the top bits). Fixed,
// not seeded: the same findings give the same estimate.
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return mix(h)
}

func hashInt(n int) uint64 { return mix(uint64(n)) }

func hashRule(k ruleKey) uint64 {
	return hashString(k.tool) ^ bits.RotateLeft64(hashString(k.rule), 17)
}

func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
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
