package reports

import "sort"

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
// Its memory is one entry per distinct fingerprint, never the baseline's
// findings: the entry keeps a count and the first finding, without its
// snippet, to name what was fixed.
type Baseline struct {
	left  map[string]*baselineEntry
	order []string // fingerprints in the baseline's order, for Fixed
}

type baselineEntry struct {
	n      int
	sample Finding
}

// NewBaseline returns an empty baseline.
func NewBaseline() *Baseline { return &Baseline{left: map[string]*baselineEntry{}} }

// Add records one finding of the earlier run.
func (b *Baseline) Add(f Finding) {
	e := b.left[f.Fingerprint]
	if e == nil {
		f.Snippet = ""
		e = &baselineEntry{sample: f}
		b.left[f.Fingerprint] = e
		b.order = append(b.order, f.Fingerprint)
	}
	e.n++
}

// State returns f's state against the baseline, new or unchanged, without
// changing f; an unchanged finding uses up its match, so State is asked once
// per finding of this run.
func (b *Baseline) State(f *Finding) string {
	if e := b.left[f.Fingerprint]; e != nil && e.n > 0 {
		e.n--
		return BaselineUnchanged
	}
	return BaselineNew
}

// Clone returns a copy of b with the matches it has left, so that the same
// findings can be marked again.
func (b *Baseline) Clone() *Baseline {
	c := &Baseline{left: make(map[string]*baselineEntry, len(b.left)), order: b.order}
	for fp, e := range b.left {
		x := *e
		c.left[fp] = &x
	}
	return c
}

// Mark sets f.Baseline to its [Baseline.State].
func (b *Baseline) Mark(f *Finding) { f.Baseline = b.State(f) }

// Fixed returns the baseline's findings that no finding of this run matched,
// one per match left (their Baseline set to fixed), in view order. Call it
// after the last Mark.
func (b *Baseline) Fixed() []Finding {
	var out []Finding
	for _, fp := range b.order {
		e := b.left[fp]
		for i := 0; i < e.n; i++ {
			f := e.sample
			f.Baseline = BaselineFixed
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return Less(&out[i], &out[j]) })
	return out
}
