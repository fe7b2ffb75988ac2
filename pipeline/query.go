package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/recap-dev/recap/config"
	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/triage"
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
	// Order is the order of the findings kept (the zero value is
	// reports.OrderImportance).
	Order reports.Order
	// Classes, when set, groups the findings that report one problem at
	// one place (docs/formats.md, "Duplicates"): it gives the index of a
	// rule's class of equivalent rules (by the rule's short name), -1 for
	// none, as grouping.ClassOf does. The summary then counts the problems,
	// the page shows each problem once, by its most important finding,
	// which names the others, and Result.Grouped says which are which.
	Classes func(tool, rule string) int
	// Config, when set, is the repository's configuration (docs/config.md):
	// the findings it excludes are counted and left out before every step,
	// its overrides change the others before the filter sees them, and its
	// groups of same rules join Classes'. Each finding of the reports and
	// of the baseline goes through it.
	Config *config.Config
	// Triage, when set, decides each finding that passes the configuration,
	// the filter and the changed lines (docs/triage.md): a decision that
	// suppresses (every state but confirmed, until it expires) covers its
	// finding's whole problem, which Triaged then leaves out of the page,
	// the counts and the gates (TriagedExclude), shows among the others
	// (TriagedInclude) or alone (TriagedOnly); the summary counts them
	// apart (Summary.Triaged), and every decision marks its finding
	// (Finding.Triage). Keep.Each sees what the mode shows.
	Triage  *triage.Matcher
	Triaged TriagedMode
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

// Rereadable is a [Source] that can say it gives the same findings, with
// the same ids, each time it is read (Files can, their standard input kept
// in a file): a query reads such a source again to page past duplicates,
// deep pages, and to hand Keep.Each each problem once. Report files
// (Files) are not read again for a deep page or Keep.Each: those passes
// replay a spool of the first (spool.go).
type Rereadable interface {
	Source
	Rereadable() bool
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
	// and must not be kept or changed. When the source gives the results
	// that are no findings too (parsers.ReadOptions.Uncounted), Each
	// receives them, with no state, and nothing counts them.
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
	// Unmatched are the tools and rules the filter names that no finding
	// of the reports has, with the closest ones the reports have, and its
	// path globs that no finding's path matches: a typo in a gate would
	// otherwise pass silently.
	Unmatched []Unmatched
	// Excluded counts the findings Query.Config left out.
	Excluded int
	// Grouped says which findings repeat another's problem (with
	// Query.Classes; nil without).
	Grouped *Grouped
}

// Unmatched is a tool, rule or path glob a filter names that no finding has.
type Unmatched struct {
	What    string   // "tool", "rule" or "path"
	Name    string   // as the filter or the configuration gives it
	Closest []string // the nearest names the reports have
	// Where is the place in the configuration file of a pattern that
	// matched nothing ("file:line:column: key"); "" for a filter's.
	Where string
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
	flt := q.Filter
	if err := flt.Compile(); err != nil {
		return nil, err
	}
	if q.Changes != nil {
		files, idx, err := q.Changes.Load(ctx)
		if err != nil {
			return nil, err
		}
		res.Files, res.Index = files, idx
	}
	base, err := readBaseline(ctx, q.Baseline, &flt, res.Index, q.Config)
	if err != nil {
		return nil, err
	}
	// A decision on one finding of a problem covers the problem: when the
	// first run finds such problems, a second one triages their findings
	// from the start, which needs reports that can be read again.
	regroup := false
	if q.Triage != nil && q.Triage.Len() > 0 && q.Classes != nil {
		src, cleanup, ok, err := rereadable(q.Reports)
		if err != nil {
			return nil, err
		}
		if ok {
			defer cleanup()
			qq := *q
			qq.Reports, regroup = again{src}, true
			q = &qq
		}
	}
	var prior *triaging
	for {
		s := &scan{q: q, flt: flt, base: base, res: &Result{Files: res.Files, Index: res.Index}}
		s.tri = newTriaging(q, prior, regroup)
		r, err := s.run(ctx)
		if errors.Is(err, errRegroup) {
			prior = s.tri
			continue
		}
		return r, err
	}
}

// again is a source that can be read again, as rereadable made it.
type again struct{ Source }

// Rereadable implements [Rereadable].
func (again) Rereadable() bool { return true }

// run is one run of the query over the reports, after the changes and the
// baseline are read.
func (s *scan) run(ctx context.Context) (*Result, error) {
	q, res := s.q, s.res
	if len(q.Filter.Tools)+len(q.Filter.Rules)+len(q.Filter.Paths) > 0 || q.Config != nil {
		var err error
		if s.seen, err = newSeen(q.Filter.Paths); err != nil {
			return nil, err
		}
	}
	if q.Classes != nil {
		s.grouper, s.ids = grouping.NewGrouper(q.Classes), newIDs()
		if q.Config != nil {
			s.grouper.More(q.Config.Groups)
		}
	}
	if p := q.Keep.Page; p != nil && p.Offset+p.Limit > DeepPage {
		if done, err := runDeep(ctx, s); done || err != nil {
			res.Unmatched = append(s.seen.unmatched(&q.Filter), s.seen.unmatchedConfig(q.Config)...)
			return res, err
		}
	}

	c := s.collector()
	// With groups, the findings handed to Each wait for a second pass,
	// which skips the duplicates the first found: each problem once.
	later := s.grouper != nil && q.Keep.Each != nil
	if s.grouper != nil && (later || q.Keep.Page != nil || q.NewOnly) {
		// A second pass for Each is sure: the first spools the findings for
		// it. One for a page crowded by duplicates, or a recount, is rare:
		// the reports are read again then, rather than every query paying
		// for a spool.
		open := rereadable
		if later {
			open = replayable
		}
		src, cleanup, ok, err := open(q.Reports)
		if err != nil {
			return nil, err
		}
		if ok {
			defer cleanup()
			s.src, s.reread = src, true
		} else {
			later = false
		}
	}
	if s.src == nil {
		s.src = q.Reports
	}
	var counts summarize.BaselineCounts
	inputs, marked, err := s.pass(ctx, s.src, &counts, func(f *reports.Finding, state string) error {
		if q.Keep.Each != nil && !later {
			if err := q.Keep.Each(f, state); err != nil {
				return err
			}
		}
		if f.Uncounted() {
			return nil // for Each alone
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
	if c, err = s.group(ctx, c, inputs, &counts); err != nil {
		return nil, err
	}
	if later {
		if err := s.eachProblem(ctx); err != nil {
			return nil, err
		}
	}
	res.View = c.View(inputs)
	if s.page != nil { // the second pass's
		for i := range s.page {
			s.page[i].RuleInfo = reports.RuleOf(inputs, &s.page[i].Finding)
		}
		p := res.View.Page
		res.View.Findings = s.page
		*p = *summarize.NewPage(p.Offset, p.Limit, len(s.page), p.Total)
	}
	s.summarizeBaseline(res.View, marked, &counts)
	s.showGroups(res.View)
	s.tri.show(res.View)
	res.Unmatched = append(s.seen.unmatched(&q.Filter), s.seen.unmatchedConfig(q.Config)...)
	return res, nil
}

// collector returns a collector of the query's findings, keeping what
// Query.Keep asks.
func (s *scan) collector() *summarize.Collector {
	c := summarize.NewCollector()
	c.SortBy(s.q.Order)
	switch k := s.q.Keep; {
	case k.Page != nil:
		c.KeepPage(k.Page.Offset, k.Page.Limit)
		if s.grouper != nil { // room for the duplicates among the first findings
			c.Slack(k.Page.Offset + k.Page.Limit)
		}
	case k.PerSeverity > 0:
		c.KeepTop(k.PerSeverity, k.PerSeverity, k.PerSeverity)
		if s.grouper != nil {
			c.Slack(k.PerSeverity)
		}
	}
	return c
}

// group resolves the groups of the findings the first pass saw, and has
// the collector leave the duplicates out of its page; when too many of the
// findings it kept were duplicates, a second pass that skips them as they
// come gives the page (when the reports can be read again). It returns the
// collector to view: with new only, when new findings make no new problem
// (their problem the baseline had), one that a pass without them counted.
func (s *scan) group(ctx context.Context, c *summarize.Collector, inputs []reports.Input, counts *summarize.BaselineCounts) (*summarize.Collector, error) {
	if s.grouper == nil {
		return c, nil
	}
	s.grouped = &Grouped{groups: s.grouper.Resolve(hasText(inputs)), ids: s.ids}
	s.res.Grouped = s.grouped
	gs := s.grouped.groups
	// A pass counts again with new only, without the new findings of
	// problems the baseline had, and when the first of each severity kept
	// findings triage took out (a second run would have kept others).
	recount := func() bool {
		if s.tri.coveredKept(c, s.q.Keep) {
			s.reread = true // Run made the reports readable again for triage
			return true
		}
		return s.reread && s.q.NewOnly && gs.NewOfOldProblems > 0
	}
	if s.base == nil {
		counts = nil
	}
	if err := s.tri.settle(s.grouped, c, counts, hasText(inputs), recount); err != nil {
		return c, err
	}
	if !gs.Grouped() && !s.tri.covers() {
		return c, nil
	}
	if recount() {
		var err error
		if c, err = s.recount(ctx, c); err != nil {
			return c, err
		}
	}
	c.Skip(s.tri.skip(s.duplicates()))
	p := s.q.Keep.Page
	if p == nil || !c.PageShort() {
		return c, nil
	}
	if !s.reread {
		return c, nil
	}
	src := s.src
	again := summarize.NewCollector()
	again.SortBy(s.q.Order)
	again.KeepPage(p.Offset, p.Limit)
	if _, _, err := s.pass(ctx, src, nil, func(f *reports.Finding, state string) error {
		g := *f
		g.Baseline = state
		again.Add(g)
		return nil
	}); err != nil {
		return c, err
	}
	if err := ctx.Err(); err != nil {
		return c, err
	}
	s.page = again.View(nil).Findings
	return c, nil
}

// duplicates returns what the views of the findings leave out, as the
// passes after the first do, and how many of the findings counted they are:
// the duplicates; with new only, those of the new problems, and the new
// findings of problems the baseline had when no pass counted without them.
func (s *scan) duplicates() (func(*reports.Finding) bool, int) {
	gs := s.grouped.groups
	if !s.q.NewOnly {
		return s.grouped.Duplicate, gs.Duplicates
	}
	if s.reread || gs.NewOfOldProblems == 0 {
		return s.grouped.Duplicate, gs.New.Findings
	}
	return func(f *reports.Finding) bool { return s.grouped.Duplicate(f) || s.grouped.OfOldProblem(f) }, gs.New.Findings + gs.NewOfOldProblems
}

// recount counts the findings of a view of the new findings again, in a
// pass that leaves out those of problems the baseline had (their problem
// is not new), when the reports can be read again; else it returns c.
func (s *scan) recount(ctx context.Context, c *summarize.Collector) (*summarize.Collector, error) {
	if !s.reread {
		return c, nil
	}
	fresh := s.collector()
	s.recounting = true
	_, _, err := s.pass(ctx, s.src, nil, func(f *reports.Finding, state string) error {
		if !f.Uncounted() {
			g := *f
			g.Baseline = state
			fresh.Add(g)
		}
		return nil
	})
	s.recounting = false
	if err == nil {
		err = ctx.Err()
	}
	return fresh, err
}

// eachProblem hands Query.Keep.Each the findings of a second pass, which
// skips the duplicates: each problem once, by the finding that shows it,
// which names the others (reports.Detail.Also).
func (s *scan) eachProblem(ctx context.Context) error {
	each := s.q.Keep.Each
	_, _, err := s.pass(ctx, s.src, nil, func(f *reports.Finding, state string) error {
		others := s.grouped.Others(f)
		if len(others) == 0 {
			return each(f, state)
		}
		g := *f
		d := reports.Detail{}
		if f.Detail != nil {
			d = *f.Detail
		}
		d.Also = others
		g.Detail = &d
		return each(&g, state)
	})
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// showGroups puts the counts of problems (and of the findings the
// configuration excluded) in v's summary, and names the other findings of
// each problem its page shows.
func (s *scan) showGroups(v *summarize.View) {
	v.Summary.Excluded = s.res.Excluded
	if s.grouped == nil {
		return
	}
	v.Summary.Duplicates = s.grouped.counts(s.q.NewOnly)
	if d := v.Summary.Duplicates; d != nil {
		v.Summary.Problems = v.Summary.Total - d.Findings
	}
	if b := v.Summary.Baseline; b != nil {
		gs := s.grouped.Groups()
		n := b.New - gs.NewNotProblems
		b.NewProblems = &n
		// A finding of a problem the baseline had is not new (with new
		// only, the passes after the first leave it out).
		b.New -= gs.NewOfOldProblems
		b.Unchanged += gs.NewOfOldProblems
	}
	for i := range v.Findings {
		f := &v.Findings[i]
		f.AlsoReportedBy = s.grouped.Others(&f.Finding)
		if f.Baseline == reports.BaselineNew && s.grouped.Known(&f.Finding) {
			f.Baseline = reports.BaselineUnchanged
		}
	}
}

// scan is one query's steps, for the passes over the reports: the filter,
// the changed lines, the baseline and new only.
type scan struct {
	q    *Query
	flt  reports.Filter
	base *reports.Baseline // as read; each pass marks a copy; nil without one
	res  *Result
	seen *seen // the tools and rules of the first pass, when the filter names some
	// grouper sees the findings of the first pass (with Query.Classes),
	// grouped is what it found, which later passes skip the duplicates of.
	grouper *grouping.Grouper
	ids     *ids
	grouped *Grouped
	tri     *triaging               // the triage decisions; nil without
	page    []summarize.FindingView // the page of a second pass that skipped the duplicates
	// src is the reports as the passes read them: Query.Reports, or, when
	// they are read again, a spool of the first pass (replayable) or the
	// reports as rereadable gives them.
	src    Source
	reread bool // src can be read again
	// recounting: the pass counts the findings again, duplicates too.
	recounting bool
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
	// changed keeps the findings on the changed lines, carried onto the
	// head's lines, and counts the others.
	changed := func(f *reports.Finding) bool {
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
	// With a baseline, every finding that passes the filter takes its match
	// in the baseline, also one off the changed lines: else an unchanged
	// finding of a changed file, not shown, would leave its match to be
	// counted as fixed. Without one, the changed lines are asked before the
	// reader gives a finding its id and fingerprint.
	keep := func(f *reports.Finding) bool {
		if first && s.seen != nil {
			s.seen.add(f)
		}
		if cfg := s.q.Config; cfg != nil {
			if cfg.Excluded(f) {
				if first {
					s.res.Excluded++
				}
				return false
			}
			cfg.Apply(f)
		}
		return s.flt.Match(*f) && (base != nil || changed(f))
	}
	inputs, err := src.Read(ctx, keep, func(f *reports.Finding) error {
		if f.Uncounted() { // asked for recap's SARIF: no state, no count
			if base != nil && !changed(f) {
				return nil
			}
			return visit(f, "")
		}
		state := ""
		if base != nil {
			state = base.State(f)
			if !changed(f) {
				return nil
			}
		}
		if !first && !s.recounting && s.grouped.Duplicate(f) {
			return nil
		}
		if !first && state == reports.BaselineNew && s.grouped.Known(f) {
			state = reports.BaselineUnchanged // its problem is not new
		}
		hide := s.tri.decide(f)
		// The grouper sees every finding, also with new only: a new finding
		// of a problem the baseline had makes no new problem.
		if first && s.grouper != nil && s.tri.grouped(hide) {
			s.groupOne(f, state)
		}
		if base != nil {
			if first && !hide {
				counts.Add(state)
			}
			if s.q.NewOnly && state != reports.BaselineNew {
				return nil
			}
			if s.q.NewOnly && !first && s.grouped.OfOldProblem(f) {
				return nil
			}
		}
		if first {
			s.tri.count(f, state)
		}
		if hide {
			return nil
		}
		return visit(f, state)
	})
	return inputs, base, err
}

// groupOne hands f, of the given state against the baseline, to the
// grouper, and puts aside what triage may take back of it (first run).
func (s *scan) groupOne(f *reports.Finding, state string) {
	if r, ok := s.ids.ref(f.ID); ok {
		f.Baseline = state // the grouper counts the new problems
		if s.grouper.Add(f, r) {
			s.tri.keep(f, r, state, !s.q.NewOnly || state == reports.BaselineNew)
		}
	}
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
func readBaseline(ctx context.Context, src Source, flt *reports.Filter, idx *diff.Index, cfg *config.Config) (*reports.Baseline, error) {
	if src == nil {
		return nil, nil
	}
	b := reports.NewBaseline()
	if idx != nil {
		b.Scope = func(f *reports.Finding) bool { return idx.Changed(f.Path) }
	}
	keep := func(f *reports.Finding) bool {
		if cfg != nil {
			if cfg.Excluded(f) {
				return false
			}
			cfg.Apply(f)
		}
		return flt.Match(*f)
	}
	inputs, err := src.Read(ctx, keep, func(f *reports.Finding) error {
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
