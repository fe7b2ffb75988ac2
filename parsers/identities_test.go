package parsers

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestIdentitiesAsMap counts identities with the table and with a map, in
// the same order, and compares every count: random sums, sums seen again,
// the sum 0, and sums a report could choose to share their low bits (a
// table indexed by the sum alone would probe through all of them).
func TestIdentitiesAsMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := map[string]func(i int) uint64{
		"random":    func(int) uint64 { return r.Uint64() },
		"repeated":  func(i int) uint64 { return uint64(r.IntN(1 + i/3)) },
		"low bits":  func(i int) uint64 { return uint64(i) << 32 },
		"high bits": func(i int) uint64 { return uint64(i) },
	}
	for name, sum := range cases {
		t.Run(name, func(t *testing.T) {
			var tab identities
			want := map[uint64]uint32{}
			start := time.Now()
			for i := range 200_000 {
				s := sum(i)
				if c := tab.at(s, false); (c == nil) != (want[s] == 0) || c != nil && *c != want[s] {
					t.Fatalf("sum %x before: held %v, want %d", s, c != nil, want[s])
				}
				p := tab.at(s, true)
				*p++
				want[s]++
				if *p != want[s] {
					t.Fatalf("sum %x: count %d, want %d", s, *p, want[s])
				}
			}
			if tab.n != len(want) {
				t.Fatalf("%d identities held, want %d", tab.n, len(want))
			}
			for s, c := range want {
				if p := tab.at(s, false); p == nil || *p != c {
					t.Fatalf("sum %x after: %v, want %d", s, p, c)
				}
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Fatalf("200,000 sums took %v: the slots are crowded", d)
			}
		})
	}
}

// TestIdentitiesCapped holds that past maxOccurrences identities a new
// one is not added, and those held still count.
func TestIdentitiesCapped(t *testing.T) {
	if testing.Short() {
		t.Skip("adds 4 million identities")
	}
	var tab identities
	for i := range maxOccurrences {
		*tab.at(uint64(i)+1, true) = 1
	}
	if p := tab.at(0, true); p != nil {
		t.Fatal("a new identity was added past the bound")
	}
	if p := tab.at(7, true); p == nil || *p != 1 {
		t.Fatalf("an identity held: %v", p)
	}
	var o occurrences
	o.seen = tab
	if fp := o.next(1 << 60); fp != "1000000000000000" || !o.capped {
		t.Fatalf("past the bound: %q, capped %v", fp, o.capped)
	}
	if fp := o.next(7); fp != "0000000000000007:2" {
		t.Fatalf("held: %q", fp)
	}
}
