package pipeline

import (
	"context"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// DeepPage is the end (offset+limit) from which a page is found in several
// passes over the reports instead of in one pass that keeps the first
// offset+limit findings: the memory of a deep page stays that of a page
// ending at DeepPage (a few MB), whatever its offset, at the cost of going
// over the findings again (three or four times in all: the later passes
// replay a spool of the first, see replayable).
const DeepPage = 10_000

// The selection's bounds: the findings sampled in a pass to place the
// next pass's range, and the most findings of a range kept to sort.
const (
	deepSample     = 4096
	deepCandidates = 8192
	deepRounds     = 24
)

// runDeep finds a deep page in passes: the first counts and samples the
// findings' order; each next one keeps only the findings between two
// sampled ones around the page, counts those before, and samples again,
// until the range holds few enough findings to sort. It reports false when
// the reports cannot be read again (then a single pass does it).
func runDeep(ctx context.Context, s *scan) (bool, error) {
	src, cleanup, ok, err := replayable(s.q.Reports)
	if err != nil || !ok {
		return false, err
	}
	defer cleanup()
	s.src, s.reread = src, true
	page := *s.q.Keep.Page
	c := summarize.NewCollector()
	c.SortBy(s.q.Order)
	head := s.q.Order.HeadOrder()
	if head { // the head of different rules, which the page follows
		c.KeepPage(0, reports.FirstPageSize)
	}
	var counts summarize.BaselineCounts
	smp := newSample(s.q.Order)
	inputs, marked, err := s.pass(ctx, src, &counts, func(f *reports.Finding, state string) error {
		if f.Uncounted() {
			return nil
		}
		g := *f
		g.Baseline = state
		c.Add(g)
		smp.add(f)
		return nil
	})
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return true, err
	}
	if s.grouper != nil {
		explained := hasText(inputs)
		s.grouped = &Grouped{groups: s.grouper.Resolve(explained), ids: s.ids}
		s.res.Grouped = s.grouped
		again := s.tri.spread(s.grouped, explained)
		s.tri.countOutside(s.grouped, explained)
		if again {
			return true, errRegroup
		}
		if s.q.NewOnly && s.grouped.groups.NewOfOldProblems > 0 {
			if c, err = s.recount(ctx, c); err != nil {
				return true, err
			}
		}
	}
	v := c.View(inputs)
	s.summarizeBaseline(v, marked, &counts)
	total := v.Summary.Total
	if s.grouped != nil {
		_, dups := s.duplicates()
		total -= dups // the passes below skip them
	}
	var found []reports.Finding
	switch {
	case page.Offset >= total:
	case head:
		if found, ok, err = deepAfterHead(ctx, s, src, c, smp, total, page); err != nil || !ok {
			return ok, err
		}
	default:
		if found, ok, err = selectPage(ctx, s, src, smp, total, page); err != nil || !ok {
			return ok, err
		}
	}
	v.Findings = make([]summarize.FindingView, len(found))
	for i, f := range found {
		v.Findings[i] = summarize.FindingView{Finding: f, HostLevel: f.Level()}
	}
	v.Page = summarize.NewPage(page.Offset, page.Limit, len(found), total)
	s.res.View = v
	s.showGroups(v)
	s.tri.show(v, s.res.Index)
	return true, nil
}

// deepAfterHead finds a deep page of the default order, whose head of
// different rules (reports.FirstPage) comes first: the page is the view
// order's findings without the head's, from offset minus the head's size.
// The head is c's first page (again in a pass without the problems'
// duplicates when c kept some); the page is found in a window of the view
// order that starts the head's size earlier, the head's findings taken out.
func deepAfterHead(ctx context.Context, s *scan, src Source, c *summarize.Collector, smp *sample, total int, page Page) ([]reports.Finding, bool, error) {
	if s.grouped != nil && s.grouped.groups.Grouped() {
		c.Skip(s.duplicates())
	}
	if c.PageShort() {
		c = summarize.NewCollector()
		c.SortBy(s.q.Order)
		c.KeepPage(0, reports.FirstPageSize)
		if _, _, err := s.pass(ctx, src, nil, func(f *reports.Finding, _ string) error {
			if !f.Uncounted() {
				c.Add(*f)
			}
			return nil
		}); err != nil {
			return nil, true, err
		}
		if err := ctx.Err(); err != nil {
			return nil, true, err
		}
	}
	var headOf []reports.Finding
	for _, fv := range c.View(nil).Findings {
		headOf = append(headOf, fv.Finding)
	}
	n := len(headOf)
	window := Page{Offset: max(page.Offset-n, 0), Limit: page.Limit + n}
	found, ok, err := selectPage(ctx, s, src, smp, total, window)
	if err != nil || !ok || len(found) == 0 {
		return nil, ok, err
	}
	o := s.q.Order
	same := func(a, b *reports.Finding) bool { return !o.Less(a, b) && !o.Less(b, a) }
	before := 0 // the head's findings before the window
	for i := range headOf {
		if o.Less(&headOf[i], &found[0]) {
			before++
		}
	}
	rest := found[:0:0]
	for i := range found {
		if !slices.ContainsFunc(headOf, func(h reports.Finding) bool { return same(&h, &found[i]) }) {
			rest = append(rest, found[i])
		}
	}
	skip := before + (page.Offset - n - window.Offset) // 0 but for a page within the head's size of it
	if skip >= len(rest) {
		return nil, true, nil
	}
	return rest[skip:min(len(rest), skip+page.Limit)], true, nil
}

// selectPage narrows the range of findings that holds the page, pass by
// pass, and returns the page; false when the sample kept missing it.
func selectPage(ctx context.Context, s *scan, src Source, smp *sample, total int, page Page) ([]reports.Finding, bool, error) {
	var lo, hi *reports.Finding // the range, inclusive; nil: unbounded
	below, inRange := 0, total
	end := min(page.Offset+page.Limit, total)
	for round := 0; round < deepRounds; round++ {
		nlo, nhi := lo, hi
		if inRange > deepCandidates {
			keys := smp.sorted()
			n := len(keys)
			p := float64(page.Offset-below) / float64(inRange)
			m := int(4*math.Sqrt(float64(n)*p*(1-p))+2) << min(round, 10)
			if a := (page.Offset-below)*n/inRange - m; a > 0 && a < n {
				nlo = &keys[a]
			}
			if b := ((end-below)*n+inRange-1)/inRange + m; b >= 0 && b < n {
				nhi = &keys[b]
			}
		}
		nbelow, nin, over := below, 0, false
		var cands []reports.Finding
		next := newSample(s.q.Order)
		_, _, err := s.pass(ctx, src, nil, func(f *reports.Finding, state string) error {
			if f.Uncounted() || !within(s.q.Order, f, lo, hi) {
				return nil
			}
			if nlo != nil && s.q.Order.Less(f, nlo) {
				nbelow++
				return nil
			}
			if nhi != nil && s.q.Order.Less(nhi, f) {
				return nil
			}
			nin++
			next.add(f)
			switch {
			case over:
			case len(cands) < deepCandidates:
				g := *f
				g.Baseline = state
				cands = append(cands, g)
			default:
				over, cands = true, nil
			}
			return nil
		})
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return nil, true, err
		}
		if nbelow > page.Offset || nbelow+nin < end {
			continue // the sample missed the page: the same range, a wider margin
		}
		lo, hi, below, inRange, smp = nlo, nhi, nbelow, nin, next
		if !over {
			slices.SortFunc(cands, func(a, b reports.Finding) int {
				if s.q.Order.Less(&a, &b) {
					return -1
				}
				return 1
			})
			return cands[page.Offset-below : end-below], true, nil
		}
	}
	return nil, false, nil
}

// within reports whether lo ≤ f ≤ hi in the order (nil: unbounded).
func within(o reports.Order, f, lo, hi *reports.Finding) bool {
	return (lo == nil || !o.Less(f, lo)) && (hi == nil || !o.Less(hi, f))
}

// sample is a uniform sample of the findings of a pass (a reservoir), each
// kept with only what the view order compares.
type sample struct {
	keys  []reports.Finding
	seen  int
	rng   *rand.Rand
	order reports.Order
}

func newSample(o reports.Order) *sample {
	return &sample{rng: rand.New(rand.NewPCG(1, 2)), order: o} // the same passes give the same pages
}

func (s *sample) add(f *reports.Finding) {
	s.seen++
	k := reports.Finding{Impact: f.Impact, Quality: f.Quality, Severity: f.Severity, Category: f.Category, Tool: f.Tool, Rule: f.Rule,
		Path: f.Path, Line: f.Line, Column: f.Column, ID: f.ID}
	if len(s.keys) < deepSample {
		s.keys = append(s.keys, k)
		return
	}
	if i := s.rng.IntN(s.seen); i < deepSample {
		s.keys[i] = k
	}
}

func (s *sample) sorted() []reports.Finding {
	slices.SortFunc(s.keys, func(a, b reports.Finding) int {
		if s.order.Less(&a, &b) {
			return -1
		}
		return 1
	})
	return s.keys
}

// rereadable returns a source that can be read again and again: report
// files as they are, standard input kept in a temporary file (which cleanup
// removes) and read from its start at each pass; false for a source of
// another kind.
func rereadable(src Source) (Source, func(), bool, error) {
	if r, ok := src.(Rereadable); ok && r.Rereadable() {
		return src, func() {}, true, nil
	}
	files, ok := src.(Files)
	if !ok {
		return nil, nil, false, nil
	}
	if !slices.Contains(files.Paths, "-") || files.Options.Stdin == nil {
		return files, func() {}, true, nil
	}
	tmp, err := os.CreateTemp("", "recap-stdin-*")
	if err != nil {
		return nil, nil, false, err
	}
	cleanup := func() { tmp.Close(); os.Remove(tmp.Name()) }
	if _, err := io.Copy(tmp, files.Options.Stdin); err != nil {
		cleanup()
		return nil, nil, false, err
	}
	return rewound{files, tmp}, cleanup, true, nil
}

// rewound is report files whose standard input is a temporary file, read
// from its start at each pass.
type rewound struct {
	Files
	stdin *os.File
}

func (r rewound) Read(ctx context.Context, keep func(*reports.Finding) bool, emit func(*reports.Finding) error) ([]reports.Input, error) {
	if _, err := r.stdin.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	r.Files.Options.Stdin = r.stdin
	return r.Files.Read(ctx, keep, emit)
}
