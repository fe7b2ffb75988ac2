package parsers

import (
	"hash/maphash"
)

// identities counts the findings of each identity of one input: an
// open-addressed table of the identities' sums and their counts, where a
// finding costs one probe of one slot most often. A Go map costs two (the
// count read, then written) and rehashes every entry as it grows; on
// Spring's PMD SARIF (314,926 findings, as many identities nearly) that
// was about a tenth of a second a read. The slot is found from the sum
// mixed with a seed of the process, so that sums a report chose (recap's
// own fingerprints, given back) cannot crowd one run of slots.
type identities struct {
	slots []identitySlot // a power of two; count 0: free
	n     int            // identities held
}

type identitySlot struct {
	sum   uint64
	count uint32
}

var identitySeed = maphash.Comparable(maphash.MakeSeed(), uint64(0x9e3779b97f4a7c15))

// at returns the count of sum, nil when sum is not held and add is false
// (or the table holds maxOccurrences identities); with add, a sum not
// held is added with a count of 0.
func (t *identities) at(sum uint64, add bool) *uint32 {
	if add && t.n >= maxOccurrences {
		add = false
	}
	if add && t.n >= len(t.slots)/4*3 {
		t.grow()
	}
	if len(t.slots) == 0 {
		return nil
	}
	mask := uint64(len(t.slots) - 1)
	for i := mix(sum) & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		switch {
		case s.count == 0:
			if !add {
				return nil
			}
			s.sum = sum
			t.n++
			return &s.count
		case s.sum == sum:
			return &s.count
		}
	}
}

// grow doubles the table (from 1,024 slots).
func (t *identities) grow() {
	old := t.slots
	t.slots = make([]identitySlot, max(1024, 2*len(old)))
	mask := uint64(len(t.slots) - 1)
	for _, s := range old {
		if s.count == 0 {
			continue
		}
		i := mix(s.sum) & mask
		for t.slots[i].count != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// mix spreads sum over the slots (MurmurHash3's finalizer of the sum and
// the seed: every bit of the sum moves the slot).
func mix(sum uint64) uint64 {
	k := sum ^ identitySeed
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}
