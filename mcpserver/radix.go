package mcpserver

import (
	"math"
	"math/bits"
	"slices"

	"github.com/recap-dev/recap/reports"
)

// radixMin is the fewest refs sorted by radixRefs: fewer are compared.
const radixMin = 1 << 10

// radixDigit is the bits a pass of the radix sort places by.
const radixDigit = 11

// packed is a ref and its ranks packed in one word (see radixRefs).
type packed struct {
	key uint64
	ref
}

// radixRefs sorts refs as sortRefs does, by a radix sort of keys that pack
// each finding's ranks (its kind's before the place, its path's, its line
// and column, its kind's after the place) in one word, each in as many
// bits as its greatest value among the reports' findings takes, then by
// id where keys tie.
// It returns false, refs untouched, when refs are few or their ranks take
// more than 64 bits.
//
// A comparison sort of 700,000 refs moves 40-byte elements through 20
// rounds of comparisons of three words; the radix sort moves 24 bytes in
// five passes (the ranks of Spring's two reports take 54 bits), skipping
// the passes where every key has the same digit.
func radixRefs(reps []*report, refs []ref, kinds [][]reports.KindRank, paths [][]uint32) bool {
	if len(refs) < radixMin {
		return false
	}
	// The widths are those of every finding of the reports, not only of
	// refs: what the reports know without a pass over refs.
	var maxBefore, maxPath, maxAfter uint32
	minLine, maxLine := int32(math.MaxInt32), int32(math.MinInt32)
	minCol, maxCol := minLine, maxLine
	for ri, r := range reps {
		for _, k := range kinds[ri] {
			maxBefore, maxAfter = max(maxBefore, k.Before), max(maxAfter, k.After)
		}
		for _, p := range paths[ri] {
			maxPath = max(maxPath, p)
		}
		sp := r.spanOf()
		minLine, maxLine = min(minLine, sp.minLine), max(maxLine, sp.maxLine)
		minCol, maxCol = min(minCol, sp.minCol), max(maxCol, sp.maxCol)
	}
	if minLine > maxLine { // no finding
		return false
	}
	wAfter := uint(bits.Len32(maxAfter))
	wCol := uint(bits.Len64(uint64(int64(maxCol) - int64(minCol))))
	wLine := uint(bits.Len64(uint64(int64(maxLine) - int64(minLine))))
	wPath := uint(bits.Len32(maxPath))
	wBefore := uint(bits.Len32(maxBefore))
	total := wAfter + wCol + wLine + wPath + wBefore
	if total > 64 {
		return false
	}
	sCol := wAfter
	sLine := sCol + wCol
	sPath := sLine + wLine
	sBefore := sPath + wPath
	buf := make([]packed, len(refs))
	for i, r := range refs {
		x := reps[r.report].rec(int(r.index))
		k := kinds[r.report][x.kind]
		key := uint64(k.After) | uint64(int64(x.column)-int64(minCol))<<sCol | uint64(int64(x.line)-int64(minLine))<<sLine
		// A width of 0 has its shift at 64 or its value at 0: either way
		// nothing is added.
		if wPath > 0 {
			key |= uint64(paths[r.report][x.path]) << sPath
		}
		if wBefore > 0 {
			key |= uint64(k.Before) << sBefore
		}
		buf[i] = packed{key, r}
	}
	buf = radixSort(buf, total)
	// Keys that tie are the same ranks: by id, as sortRefs orders them.
	for i := 0; i < len(buf); {
		j := i + 1
		for j < len(buf) && buf[j].key == buf[i].key {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(buf[i:j], func(a, b packed) int {
				return reports.FindingID{Tag: reps[a.report].tag, N: uint32(a.index) + 1}.Compare(reports.FindingID{Tag: reps[b.report].tag, N: uint32(b.index) + 1})
			})
		}
		i = j
	}
	for i := range buf {
		refs[i] = buf[i].ref
	}
	return true
}

// radixSort sorts a by key, whose values take at most width bits, least
// significant digit first; it returns the sorted elements, in a or in a
// slice of its length.
func radixSort(a []packed, width uint) []packed {
	passes := int(width+radixDigit-1) / radixDigit
	if passes == 0 {
		return a
	}
	const buckets = 1 << radixDigit
	counts := make([][buckets]int, passes)
	for _, e := range a {
		k := e.key
		for p := range counts {
			counts[p][k&(buckets-1)]++
			k >>= radixDigit
		}
	}
	var tmp []packed
	for p := range counts {
		c := &counts[p]
		if slices.Contains(c[:], len(a)) {
			continue // every key has this digit
		}
		if tmp == nil {
			tmp = make([]packed, len(a))
		}
		at := 0
		for d, n := range c {
			c[d] = at
			at += n
		}
		shift := uint(p * radixDigit)
		for _, e := range a {
			d := e.key >> shift & (buckets - 1)
			tmp[c[d]] = e
			c[d]++
		}
		a, tmp = tmp, a
	}
	return a
}
