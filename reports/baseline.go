package reports

import (
	"hash/maphash"
	"slices"
)

// Baseline states of a finding against an earlier run (SARIF §3.27.24 names
// the first two the same way; a fixed finding is SARIF's "absent").
const (
	BaselineNew       = "new"       // not in the baseline
	BaselineUnchanged = "unchanged" // in the baseline too, wherever its line is now
	BaselineFixed     = "fixed"     // only in the baseline
)

// A Baseline is the findings of an earlier run, by fingerprint, for marking
// the findings of this run. Fingerprints leave lines out, so a finding whose
// code moved is unchanged. Findings that share a fingerprint (the same
// message twice in one file) match one for one: a third one where the
// baseline had two is new.
//
// It keeps what matching needs and nothing else: 8 bytes a finding of the
// baseline (a 63-bit hash of its fingerprint, and whether it counts as
// fixed when nothing matches it, see Scope), sorted once the first finding
// is marked, and a bit per finding for the matches used. Three million
// findings take 24 MB, whatever their messages and paths.
type Baseline struct {
	// Scope, when set before the first Add, says which of the baseline's
	// findings count as fixed when no finding of this run matches them
	// (with changed lines only: those of a changed file). Nil: all.
	Scope func(f *Finding) bool

	seed   maphash.Seed
	recs   []uint64 // hash<<1 | in scope; sorted once sealed
	used   []uint64 // a bit per rec: matched
	sealed bool
}

// NewBaseline returns an empty baseline.
func NewBaseline() *Baseline { return &Baseline{seed: maphash.MakeSeed()} }

// key is the hash of a fingerprint, its low bit clear.
func (b *Baseline) key(fp string) uint64 { return maphash.String(b.seed, fp) &^ 1 }

// Add records one finding of the earlier run.
func (b *Baseline) Add(f Finding) {
	k := b.key(f.Fingerprint)
	if b.Scope == nil || b.Scope(&f) {
		k |= 1
	}
	b.recs = append(b.recs, k)
	b.sealed = false
}

// AddTriaged records one finding of the earlier run that a triage
// decision left out (recap's SARIF writes it suppressed): a finding of
// this run that matches it is unchanged, but it is never counted fixed,
// as it was not counted then.
func (b *Baseline) AddTriaged(f Finding) {
	b.recs = append(b.recs, b.key(f.Fingerprint))
	b.sealed = false
}

// seal sorts the records, once, and makes room for their marks.
func (b *Baseline) seal() {
	if b.sealed {
		return
	}
	b.recs = slices.Clip(b.recs)
	slices.Sort(b.recs)
	b.used = make([]uint64, (len(b.recs)+63)/64)
	b.sealed = true
}

// State returns f's state against the baseline, new or unchanged, without
// changing f; an unchanged finding uses up its match, so State is asked once
// per finding of this run.
func (b *Baseline) State(f *Finding) string {
	b.seal()
	k := b.key(f.Fingerprint)
	i, _ := slices.BinarySearch(b.recs, k)
	for ; i < len(b.recs) && b.recs[i]&^1 == k; i++ {
		if b.used[i/64]&(1<<(i%64)) == 0 {
			b.used[i/64] |= 1 << (i % 64)
			return BaselineUnchanged
		}
	}
	return BaselineNew
}

// Clone returns a copy of b with the matches it has left, so that the same
// findings can be marked again; the records are shared.
func (b *Baseline) Clone() *Baseline {
	b.seal()
	c := *b
	c.used = slices.Clone(b.used)
	return &c
}

// Fixed counts the baseline's findings in scope that no finding of this
// run matched. Call it after the last Mark.
func (b *Baseline) Fixed() int {
	b.seal()
	n := 0
	for i, k := range b.recs {
		if k&1 == 1 && b.used[i/64]&(1<<(i%64)) == 0 {
			n++
		}
	}
	return n
}
