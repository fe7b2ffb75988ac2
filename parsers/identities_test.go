package parsers

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/reports"
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

// plainFingerprints numbers findings as occurrences did before it kept
// the identities of a path: each finding hashed, its identity counted in
// a map (no partial fingerprints of recap's SARIF in these tests).
func plainFingerprints(fs []reports.Finding, partials []map[string]string) []string {
	seen := map[uint64]int{}
	out := make([]string, len(fs))
	for i := range fs {
		sum := reports.FingerprintSum(fs[i], partials[i])
		seen[sum]++
		out[i] = reports.Occurrence(reports.FingerprintHex(sum), seen[sum])
	}
	return out
}

// TestOccurrencesAsHashedAlone holds that the fingerprints occurrences
// gives are those of every finding hashed alone: on every report of the
// corpus, in its order and reversed, on findings whose paths alternate,
// and on a path of more identities than are kept of one.
func TestOccurrencesAsHashedAlone(t *testing.T) {
	check := func(t *testing.T, fs []reports.Finding, partials []map[string]string) {
		t.Helper()
		want := plainFingerprints(fs, partials)
		var o occurrences
		for i := range fs {
			if got := o.fingerprint(&fs[i], partials[i]); got != want[i] {
				t.Fatalf("finding %d (%s %s %s): %q, want %q", i, fs[i].Rule, fs[i].Path, fs[i].Message, got, want[i])
			}
		}
	}
	t.Run("made up", func(t *testing.T) {
		var fs []reports.Finding
		for i := range 5000 {
			fs = append(fs, reports.Finding{Tool: "PMD", Rule: "R" + strconv.Itoa(i%7), Path: "src/F" + strconv.Itoa(i%3) + ".java", Message: "m  " + strconv.Itoa(i%5)})
		}
		for i := range 3 * maxOfPath {
			fs = append(fs, reports.Finding{Tool: "PMD", Rule: "R", Path: "src/Big.java", Message: "m" + strconv.Itoa(i%(2*maxOfPath))})
		}
		fs = append(fs, reports.Finding{Tool: "PMD", Rule: "R", Path: "src/Big.java", Message: "m\t0"}, reports.Finding{Tool: "Other", Rule: "R", Path: "src/Big.java", Message: "m 0"})
		partials := make([]map[string]string, len(fs))
		partials[len(fs)-1] = map[string]string{"own/v1": "x"}
		check(t, fs, partials)
	})
	dir, files := reportstest.CorpusIfPresent(t)
	for _, cf := range files {
		format, ok := corpusFormats[cf.Dir()]
		if !ok {
			continue
		}
		t.Run(cf.Path, func(t *testing.T) {
			p, err := New(format, Options{Name: cf.Path, Root: dir})
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(filepath.Join(dir, cf.Path))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var fs []reports.Finding
			var partials []map[string]string
			_, err = p.Parse(f, func(x reports.Finding, partial map[string]string) error {
				if _, own := partial[reports.SARIFFingerprintKey]; !own {
					fs, partials = append(fs, x), append(partials, partial)
				}
				return nil
			})
			if err != nil {
				return // the invalid ones: what they gave is enough
			}
			check(t, fs, partials)
			slices.Reverse(fs)
			slices.Reverse(partials)
			check(t, fs, partials)
		})
	}
}
