package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// A Query is what a door asks of the reports. The zero value of each field
// but Reports asks for nothing: no filter, every line, no baseline, the
// counts alone.
type Query struct {
	// Reports are the findings read.
	Reports Source
	// Filter keeps the findings it matches (the zero value keeps all).
	Filter reports.Filter
	// Changes, when set, keeps the findings on changed lines.
	Changes *Changes
	// Baseline, when set, is an earlier run's reports: each finding is
	// marked new or unchanged against it, and what it has that this run has
	// not is counted as fixed.
	Baseline Source
	// NewOnly keeps only the findings new against Baseline.
	NewOnly bool
	// Keep says which findings the result holds, besides the counts.
	Keep Keep
}

// A Source gives findings. Read calls emit for each finding that keep
// accepts (keep sees every field but ID and Fingerprint, which a parser
// gives only to kept findings; emit gets the finding as keep left it, which
// may have moved its path and lines), in the reports' order, and returns the
// status of every input read; the error is non-nil only when emit or the
// context stopped it.
type Source interface {
	Read(ctx context.Context, keep func(*reports.Finding) bool, emit func(*reports.Finding) error) ([]reports.Input, error)
}

// Files is a [Source] of report files read by package parsers: files,
// gzip files, directories searched for reports, and "-" for Options.Stdin.
type Files struct {
	Paths   []string
	Options parsers.ReadOptions
}

// Read implements [Source].
func (f Files) Read(ctx context.Context, keep func(*reports.Finding) bool, emit func(*reports.Finding) error) ([]reports.Input, error) {
	opts := f.Options
	opts.Keep, opts.Context = keep, ctx
	return parsers.ReadAll(f.Paths, opts, func(x reports.Finding) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return emit(&x)
	})
}

// Keep says which findings a result holds besides the counts. At most one of
// Page and PerSeverity is set; Each may be set with either (recap review
// --checks takes every finding besides the review's page; a page past
// DeepPage does not call Each); none keeps the counts alone.
type Keep struct {
	// Page keeps one page of the findings in view order.
	Page *Page
	// PerSeverity keeps the first findings of each severity in view order
	// (GitHub shows 10 annotations of each level).
	PerSeverity int
	// Each receives every finding that passes, in the reports' order, with
	// its state against the baseline ("" without one); f is the source's
	// and must not be kept or changed.
	Each func(f *reports.Finding, baseline string) error
}

// Page is a page of findings: Limit findings (1 to summarize.MaxLimit) from
// Offset (0-based, at most MaxOffset).
type Page struct {
	Offset, Limit int
}

// MaxOffset is the deepest page's offset: more findings than this do not
// come out of one set of reports (a finding's id numbers them in an int32).
const MaxOffset = 1<<31 - 1

// Check reports a page out of bounds.
func (p Page) Check() error {
	if p.Limit < 1 || p.Limit > summarize.MaxLimit {
		return fmt.Errorf("limit must be between 1 and %d", summarize.MaxLimit)
	}
	if p.Offset < 0 || p.Offset > MaxOffset {
		return fmt.Errorf("offset must be between 0 and %d", MaxOffset)
	}
	return nil
}

// Result is what a query found.
type Result struct {
	// View is the summary, the inputs' status and what Keep asked for (a
	// page, or the first of each severity); with a baseline the summary
	// counts new, unchanged and fixed.
	View *summarize.View
	// Files and Index are the changes and their changed lines (with Changes).
	Files []diff.File
	Index *diff.Index
	// Outside counts the findings that passed the filter but are not on a
	// changed line.
	Outside int
	// NotInHead counts the findings that passed the filter on lines that
	// Changes.From has and Changes.Head has not (lines the base branch
	// brought into a merge commit): not kept, not in Outside.
	NotInHead int
}

// Run runs the query: it loads the changes, reads the baseline, then the
// reports through the steps in order, and counts.
//
// The steps, in order (each needs the one before):
//  1. the filter, on the finding as the parser gives it (paths placed);
//  2. the changed lines, on the same;
//  3. the baseline mark, which needs the fingerprint the reader gives kept findings;
//  4. new only, which needs the mark;
//  5. the counts and what Keep asks.
func Run(ctx context.Context, q *Query) (*Result, error) {
	res := &Result{}
	if q.Reports == nil {
		return nil, errors.New("no reports to read")
	}
	if q.NewOnly && q.Baseline == nil {
		return nil, errors.New("new only compares with a baseline: give one")
	}
	if p := q.Keep.Page; p != nil {
		if err := p.Check(); err != nil {
			return nil, err
		}
	}
	s := &scan{q: q, flt: q.Filter, res: res}
	if err := s.flt.Compile(); err != nil {
		return nil, err
	}
	if q.Changes != nil {
		files, idx, err := q.Changes.Load(ctx)
		if err != nil {
			return nil, err
		}
		res.Files, res.Index = files, idx
	}
	var err error
	if s.base, err = readBaseline(ctx, q.Baseline, &s.flt, res.Index); err != nil {
		return nil, err
	}
	if p := q.Keep.Page; p != nil && p.Offset+p.Limit > DeepPage {
		if done, err := runDeep(ctx, s); done || err != nil {
			return res, err
		}
	}

	c := summarize.NewCollector()
	switch k := q.Keep; {
	case k.Page != nil:
		c.KeepPage(k.Page.Offset, k.Page.Limit)
	case k.PerSeverity > 0:
		c.KeepTop(k.PerSeverity, k.PerSeverity, k.PerSeverity)
	}
	var counts summarize.BaselineCounts
	inputs, marked, err := s.pass(ctx, q.Reports, &counts, func(f *reports.Finding, state string) error {
		if q.Keep.Each != nil {
			if err := q.Keep.Each(f, state); err != nil {
				return err
			}
		}
		g := *f
		g.Baseline = state
		c.Add(g)
		return nil
	})
	if err == nil {
		err = ctx.Err() // a read stopped by the context is not a result
	}
	if err != nil {
		return nil, err
	}
	res.View = c.View(inputs)
	s.summarizeBaseline(res.View, marked, &counts)
	return res, nil
}

// scan is one query's steps, for the passes over the reports: the filter,
// the changed lines, the baseline and new only.
type scan struct {
	q    *Query
	flt  reports.Filter
	base *reports.Baseline // as read; each pass marks a copy; nil without one
	res  *Result
}

// pass reads src once through the steps and calls visit for each finding
// that passes, with its state against the baseline. The first pass (counts
// given) counts the states, and the findings left out for the changed lines.
// Each pass marks a fresh copy of the baseline, which it returns, so that
// every pass sees the same states.
func (s *scan) pass(ctx context.Context, src Source, counts *summarize.BaselineCounts, visit func(f *reports.Finding, state string) error) ([]reports.Input, *reports.Baseline, error) {
	var base *reports.Baseline
	if s.base != nil {
		base = s.base.Clone()
	}
	first, idx := counts != nil, s.res.Index
	var lines *diff.LineMap
	if s.q.Changes != nil {
		lines = s.q.Changes.Lines()
	}
	keep := func(f *reports.Finding) bool {
		if !s.flt.Match(*f) {
			return false
		}
		if lines != nil && !moveLines(lines, f) {
			if first {
				s.res.NotInHead++
			}
			return false
		}
		if idx != nil && !idx.Touches(f.Path, f.Line, f.EndLine) {
			if first {
				s.res.Outside++
			}
			return false
		}
		return true
	}
	inputs, err := src.Read(ctx, keep, func(f *reports.Finding) error {
		state := ""
		if base != nil {
			state = base.State(f)
			if first {
				counts.Add(state)
			}
			if s.q.NewOnly && state != reports.BaselineNew {
				return nil
			}
		}
		return visit(f, state)
	})
	return inputs, base, err
}

// summarizeBaseline puts the counts against the baseline in v's summary,
// with the fixed ones: the findings of the baseline that no finding marked
// matched (on changed lines only, those of a changed file).
func (s *scan) summarizeBaseline(v *summarize.View, marked *reports.Baseline, counts *summarize.BaselineCounts) {
	if marked == nil {
		return
	}
	counts.Fixed = marked.Fixed()
	v.Summary.Baseline = counts
}

// readBaseline reads the baseline's findings through the filter; nil
// without one. With changed lines (idx), only the findings of changed files
// count as fixed when nothing matches them. A baseline that cannot be read
// is an error: without it every finding would look new.
func readBaseline(ctx context.Context, src Source, flt *reports.Filter, idx *diff.Index) (*reports.Baseline, error) {
	if src == nil {
		return nil, nil
	}
	b := reports.NewBaseline()
	if idx != nil {
		b.Scope = func(f *reports.Finding) bool { return idx.Changed(f.Path) }
	}
	inputs, err := src.Read(ctx, func(f *reports.Finding) bool { return flt.Match(*f) }, func(f *reports.Finding) error {
		b.Add(*f)
		return nil
	})
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	var errs []string
	for _, in := range inputs {
		if in.Error != "" {
			errs = append(errs, in.Error)
		}
	}
	if len(errs) > 0 {
		return nil, &BaselineError{Reason: strings.Join(errs, "; ")}
	}
	if len(inputs) == 0 {
		return nil, &BaselineError{Reason: "no report found"}
	}
	return b, nil
}

// BaselineError says why a baseline could not be read.
type BaselineError struct{ Reason string }

func (e *BaselineError) Error() string { return "baseline: " + e.Reason }

// moveLines carries f's path and lines onto the new side of m; false when
// the new side has not its line. The reader keeps what keep changed in the
// finding it emits.
func moveLines(m *diff.LineMap, f *reports.Finding) bool {
	p, line, ok := m.Map(f.Path, f.Line)
	if !ok {
		return false
	}
	if f.EndLine > f.Line {
		if _, end, ok := m.Map(f.Path, f.EndLine); ok && end >= line {
			f.EndLine = end
		} else {
			f.EndLine = line
		}
	} else if f.EndLine > 0 {
		f.EndLine = line
	}
	f.Path, f.Line = p, line
	return true
}
