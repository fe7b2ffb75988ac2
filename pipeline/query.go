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
// accepts (keep sees every field but Fingerprint, which a parser gives
// only to kept findings; emit gets the finding as keep left it, which
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
	// One finding for all: emit may not keep it, and the reading calls it
	// one finding at a time. Taking each one's address moved every finding
	// to the heap (710,826 of them, 230 MB, in a summary of Spring's
	// reports).
	var f1 reports.Finding
	return parsers.ReadAll(f.Paths, opts, func(x reports.Finding) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		f1 = x
		return emit(&f1)
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
	// Early, with Each, has Each take the findings in the first pass,
	// before the problems are known, rather than each problem once in a
	// second pass over a spool of the first: every finding the second
	// pass could hand on, as the first knows it (its state against the
	// baseline and its triage decision before the problems are known, no
	// Detail.Also). Once the problems are known, Early.Settle is told what
	// the second pass would have made of each ([Fate]); when the run
	// starts again (decisions that cover problems), Early.Restart is
	// called before Each takes the findings again from the first.
	Early Early
}

// Early is what takes the findings of [Keep.Each] in the first pass: a
// page that holds them, once encoded, until it learns their fate.
type Early interface {
	// Settle is called once the problems are known, with fate, which
	// says of each finding Each took what the second pass would have made
	// of it: by its id, the state it was handed with, whether its
	// decision then suppressed it and whether it is a result that is no
	// finding (reports.Finding.Uncounted), whether to drop it, its state,
	// the decision that now marks it (nil: the same) and the other
	// findings of the problem it leads.
	Settle(fate func(id reports.FindingID, baseline string, suppressed, uncounted bool) (drop bool, state string, t *reports.Triage, also []reports.Also)) error
	// Restart forgets the findings Each took: the run starts again.
	Restart() error
}

// Page is a page of findings: Limit findings (1 to summarize.MaxLimit) from
// Offset (0-based, at most MaxOffset).
type Page struct {
	Offset, Limit int
}

// MaxOffset is the deepest page's offset: more findings than this do not
// come out of one set of reports (a finding's id numbers them in an int32).
const MaxOffset = 1<<31 - 1

// Mark is tr, the decision that marks finding id, as the run's views
// mark it: a confirmation names the decisions it overrules on the
// problem's other findings (reports.Triage.OverrulesOthers).
func (r *Result) Mark(id reports.FindingID, tr *reports.Triage) *reports.Triage {
	return markOverruled(r.overruled, id, tr)
}

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
	// changed line, and that the triaged mode would show: by default, not
	// those a triage decision suppresses.
	Outside int
	// Covering are the decisions that mark findings through their
	// problem, by the findings' ids: a decision on another finding that
	// covers one not decided, or a confirmation of
	// another finding that marks one decided otherwise (which is shown).
	Covering map[reports.FindingID]*reports.Triage
	// Marks are the confirmations that mark findings with no decision of
	// their own through their problem (Via), by the findings' ids.
	Marks map[reports.FindingID]*reports.Triage
	// overruled are, by confirmed finding, the decisions its
	// confirmation overrules on other findings of its problem (Mark).
	overruled map[reports.FindingID][]reports.Overruled
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

// Run runs the query. Its steps, in order:
//  1. the query checked, its filter compiled;
//  2. the changes loaded: the diff and the index of its changed lines;
//  3. the baseline read through the configuration and the filter;
//  4. with triage decisions and groups, the reports made readable again,
//     for a second run that triages the findings of covered problems from
//     the start when the first finds some (errRegroup);
//  5. a run over the reports ([scan.run]): the passes, each finding
//     through the steps of [passing] (the configuration, the filter, the
//     changed lines, the baseline's mark, triage, the grouper, new only,
//     the counts and what Keep asks), then the groups resolved and the
//     view made.
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
		if r != nil && s.tri != nil {
			r.Covering, r.Marks, r.overruled = s.tri.problems, s.tri.marks, s.tri.overruled
			r.Outside = s.tri.shownOutside(r.Outside)
		}
		if errors.Is(err, errRegroup) {
			prior = s.tri
			if e := q.Keep.Early; e != nil && q.Keep.Each != nil {
				if err := e.Restart(); err != nil {
					return nil, err
				}
			}
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
// baseline are read. Its steps, in order:
//  1. start: the names the filter and the configuration give noted, the
//     grouper made;
//  2. a page past DeepPage found in passes of its own (runDeep), which
//     ends the run;
//  3. source: what the passes read, a spool of the first pass or the
//     reports read again when a later pass will or may come;
//  4. the first pass, each finding through the steps of [passing], into
//     the collector;
//  5. group: the problems resolved, triage's decisions settled over them,
//     the duplicates left out of the page (a second pass when they crowd
//     it) and, with new only, a recount;
//  6. eachProblem: Keep.Each handed each problem once, in a second pass,
//     or, with Keep.Early, told the fate of what it took in the first;
//  7. view: the counts and the page, the baseline's, the problems' and
//     triage's counts, the names that matched nothing.
func (s *scan) run(ctx context.Context) (*Result, error) {
	q := s.q
	if err := s.start(); err != nil {
		return nil, err
	}
	if p := q.Keep.Page; p != nil && p.Offset+p.Limit > DeepPage {
		if done, err := runDeep(ctx, s); done || err != nil {
			s.res.Unmatched = s.unmatched()
			return s.res, err
		}
	}
	c := s.collector()
	later, cleanup, err := s.source()
	if err != nil {
		return nil, err
	}
	defer cleanup()
	var counts summarize.BaselineCounts
	inputs, marked, err := s.firstPass(ctx, c, &counts, later)
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
	} else if e := q.Keep.Early; e != nil && q.Keep.Each != nil {
		if err := e.Settle(s.fate); err != nil {
			return nil, err
		}
	}
	s.view(c.View(inputs), inputs, marked, &counts)
	return s.res, nil
}

// start notes the names the first pass sees when the filter or the
// configuration names some, and makes the grouper (with Query.Classes).
func (s *scan) start() error {
	q := s.q
	if len(q.Filter.Tools)+len(q.Filter.Rules)+len(q.Filter.Paths) > 0 || q.Config != nil {
		var err error
		if s.seen, err = newSeen(q.Filter.Paths); err != nil {
			return err
		}
	}
	if q.Classes != nil {
		s.grouper, s.ids = grouping.NewGrouper(q.Classes), newIDs()
		if q.Config != nil {
			s.grouper.More(q.Config.Groups)
		}
	}
	return nil
}

// source sets what the passes read, s.src, and says whether Keep.Each
// waits for a second pass: with groups, the findings handed to Each wait
// for one, which skips the duplicates the first found (each problem once),
// unless Keep.Early takes them in the first. cleanup removes what it made.
func (s *scan) source() (later bool, cleanup func(), err error) {
	q := s.q
	later = s.grouper != nil && q.Keep.Each != nil && q.Keep.Early == nil
	cleanup = func() {}
	if s.grouper != nil && (later || q.Keep.Page != nil || q.NewOnly) {
		// A second pass for Each is sure: the first spools the findings for
		// it. One for a page crowded by duplicates, or a recount, is rare:
		// the reports are read again then, rather than every query paying
		// for a spool.
		open := rereadable
		if later {
			open = replayable
		}
		src, done, ok, err := open(q.Reports)
		if err != nil {
			return false, cleanup, err
		}
		if ok {
			s.src, s.reread, cleanup = src, true, done
		} else {
			later = false
		}
	}
	if s.src == nil {
		s.src = q.Reports
	}
	return later, cleanup, nil
}

// firstPass reads the reports once into c, counting the states against
// the baseline into counts, and hands each finding to Keep.Each unless it
// waits for a later pass.
func (s *scan) firstPass(ctx context.Context, c *summarize.Collector, counts *summarize.BaselineCounts, later bool) ([]reports.Input, *reports.Baseline, error) {
	each := s.q.Keep.Each
	inputs, marked, err := s.pass(ctx, s.src, counts, func(f *reports.Finding, state string) error {
		if each != nil && !later {
			if err := each(f, state); err != nil {
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
	return inputs, marked, err
}

// view completes the result's view v: the page of a second pass, the
// counts against the baseline, of the problems and of triage, and the
// names that matched nothing.
func (s *scan) view(v *summarize.View, inputs []reports.Input, marked *reports.Baseline, counts *summarize.BaselineCounts) {
	s.res.View = v
	if s.page != nil { // the second pass's
		for i := range s.page {
			s.page[i].RuleInfo = reports.RuleOf(inputs, &s.page[i].Finding)
		}
		p := v.Page
		v.Findings = s.page
		*p = *summarize.NewPage(p.Offset, p.Limit, len(s.page), p.Total)
	}
	s.summarizeBaseline(v, marked, counts)
	s.showGroups(v)
	s.tri.show(v, s.res.Index)
	s.res.Unmatched = s.unmatched()
}

// unmatched is the filter's and the configuration's names that matched
// nothing.
func (s *scan) unmatched() []Unmatched {
	return append(s.seen.unmatched(&s.q.Filter), s.seen.unmatchedConfig(s.q.Config)...)
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
	err := s.tri.settle(s.grouped, c, counts, hasText(inputs), recount)
	s.tri.markConfirmed(s.grouped)
	s.tri.countOutside(s.grouped, hasText(inputs))
	if err != nil {
		return c, err
	}
	s.tri.uncountOld(s.grouped)
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
	c := s.grouped.cursor() // the pass's findings come in the order of their refs
	_, _, err := s.pass(ctx, s.src, nil, func(f *reports.Finding, state string) error {
		others := s.grouped.othersFrom(f, c)
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

// fate is what the second pass of eachProblem would make of a finding the
// first handed to Keep.Each (Keep.Early): the steps of [passing.emit]
// after the first pass's, from what the first knew of it. That pass hands
// on no finding the first did not: a decision on another finding of its
// problem only adds to what is hidden, but with TriagedOnly, which shows
// what it covers, and then the run starts again, the problems known from
// the first pass (settle, errRegroup).
func (s *scan) fate(id reports.FindingID, state string, suppressed, uncounted bool) (drop bool, st string, t *reports.Triage, also []reports.Also) {
	if uncounted {
		return false, state, nil, nil
	}
	g := s.grouped
	var r grouping.Ref
	grouped := g != nil && g.groups.Grouped()
	if grouped {
		r, grouped = g.ids.ref(id)
	}
	var others []grouping.Ref
	if grouped {
		if s.cursor == nil {
			s.cursor = g.groups.Cursor() // Each took the findings in the order of their refs
		}
		var dup bool
		if dup, others = s.cursor.Role(r); dup {
			return true, "", nil, nil
		}
		if state == reports.BaselineNew && g.groups.Known(r) {
			state = reports.BaselineUnchanged // its problem is not new
		}
	}
	if s.tri != nil && !suppressed {
		if p := s.tri.problems[id]; p != nil {
			t, suppressed = p, p.Suppressed()
		} else if m := s.tri.marks[id]; m != nil {
			t = m // another finding of its problem confirmed (it has no decision of its own)
		}
	}
	if s.base != nil && s.q.NewOnly && (state != reports.BaselineNew || grouped && g.groups.OfOldProblem(r)) {
		return true, "", nil, nil
	}
	if s.tri.hides(suppressed) {
		return true, "", nil, nil
	}
	if len(others) > 0 {
		also = g.named(others)
	}
	return false, state, t, also
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
	cursor  *grouping.Cursor        // fate's, over grouped
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
	p := &passing{s: s, first: counts != nil, counts: counts, visit: visit, idx: s.res.Index}
	if s.base != nil {
		p.base = s.base.Clone()
	}
	if s.q.Changes != nil {
		p.lines = s.q.Changes.Lines()
	}
	inputs, err := src.Read(ctx, p.keep, p.emit)
	return inputs, p.base, err
}

// passing is one pass over the reports. Each finding goes through the
// query's steps in this order, each needing the ones before it:
//
//	step      what it does (the first pass counts what it says)
//	read      the parser gives the finding, its paths placed (Source.Read)
//	seen      the tools, rules and paths the filter names noted (the names that matched nothing)
//	config    .recap.yml's exclusions (Result.Excluded) and overrides
//	filter    Query.Filter
//	changed   the changed lines, the finding carried onto the head's lines (Result.NotInHead, Result.Outside)
//	          — the reader gives the finding its id and fingerprint —
//	mark      its state against the baseline, new or unchanged; with a baseline, the changed lines now
//	problem   later passes: the duplicates the first found left out, a new finding of an old problem unchanged
//	triage    the triage file's decision marks it; a suppressing one hides it
//	group     the first pass hands it to the grouper (Result.Grouped)
//	states    the first pass counts the states against the baseline (Summary.Baseline)
//	new only  with Query.NewOnly, only new findings of new problems go on
//	triaged   the first pass counts what triage decided (Summary.Triaged)
//	visit     what the pass is for: the collector's counts and what Keep asks, Each, a recount
//
// The steps up to changed are keep's, before the reader hashes the
// finding: a finding they refuse costs no id and no fingerprint. With a
// baseline, every finding that passes the filter takes its match in the
// baseline, also one off the changed lines: else an unchanged finding of a
// changed file, not shown, would leave its match to be counted as fixed.
// The grouper sees every finding, also with new only: a new finding of a
// problem the baseline had makes no new problem.
type passing struct {
	s      *scan
	first  bool                      // the first pass: it counts
	counts *summarize.BaselineCounts // the first pass's counts of the states
	base   *reports.Baseline         // this pass's copy of the baseline; nil without one
	lines  *diff.LineMap             // the changes' lines carried onto the head; nil without
	idx    *diff.Index               // the changed lines; nil without changes
	visit  func(f *reports.Finding, state string) error
}

// keep runs the steps before the reader gives f its id and fingerprint:
// seen, config, filter and, without a baseline, changed.
func (p *passing) keep(f *reports.Finding) bool {
	p.see(f)
	if !p.configure(f) {
		return false
	}
	if !p.s.flt.Match(*f) {
		if p.first && p.s.tri.widens() && (p.lines == nil || moveLines(p.lines, f)) {
			p.s.tri.outside(f, p.s.ids, false)
		}
		return false
	}
	return p.base != nil || p.changed(f)
}

// emit runs the steps after the reader gave f its id and fingerprint.
func (p *passing) emit(f *reports.Finding) error {
	if f.Uncounted() { // asked for recap's SARIF: no state, no count
		if p.base != nil && !p.changed(f) {
			return nil
		}
		return p.visit(f, "")
	}
	state, ok := p.mark(f)
	if !ok || p.duplicate(f) {
		return nil
	}
	state = p.problem(f, state)
	hide := p.s.tri.decide(f)
	if p.first {
		p.s.tri.noteDecided(f)
	}
	p.group(f, state, hide)
	p.countState(state, hide)
	if !p.newOnly(f, state) {
		return nil
	}
	if p.first {
		p.s.tri.count(f, state)
	}
	if hide {
		return nil
	}
	f.Triage = p.s.tri.withOverruled(f.ID, f.Triage) // (counted as the mark it copies)
	return p.visit(f, state)
}

// see notes f's tool, rule and path, when the filter or the configuration
// names some (first pass).
func (p *passing) see(f *reports.Finding) {
	if p.first && p.s.seen != nil {
		p.s.seen.add(f)
	}
}

// configure applies the configuration to f: false when it excludes f
// (counted by the first pass), else its overrides applied.
func (p *passing) configure(f *reports.Finding) bool {
	cfg := p.s.q.Config
	if cfg == nil {
		return true
	}
	if cfg.Excluded(f) {
		if p.first {
			p.s.res.Excluded++
		}
		return false
	}
	cfg.Apply(f)
	return true
}

// changed keeps the findings on the changed lines, carried onto the
// head's lines, and counts the others (first pass). One off the changed
// lines goes to triage (outside) all the same.
func (p *passing) changed(f *reports.Finding) bool {
	if p.lines != nil && !moveLines(p.lines, f) {
		if p.first {
			p.s.res.NotInHead++
		}
		return false
	}
	if p.idx != nil && !p.idx.Touches(f.Path, f.Line, f.EndLine) {
		if p.first {
			p.s.res.Outside++
			p.s.tri.outside(f, p.s.ids, true)
		}
		return false
	}
	return true
}

// mark returns f's state against the baseline ("" without one), and
// whether f is on the changed lines when a baseline left them to now.
func (p *passing) mark(f *reports.Finding) (string, bool) {
	if p.base == nil {
		return "", true
	}
	return p.base.State(f), p.changed(f)
}

// duplicate says whether a pass after the first leaves f out, a duplicate
// of a problem the first found (a recount keeps them).
func (p *passing) duplicate(f *reports.Finding) bool {
	return !p.first && !p.s.recounting && p.s.grouped.Duplicate(f)
}

// problem returns f's state as its problem has it: on the passes after
// the first, a new finding of a problem the baseline had is unchanged.
func (p *passing) problem(f *reports.Finding, state string) string {
	if !p.first && state == reports.BaselineNew && p.s.grouped.Known(f) {
		return reports.BaselineUnchanged // its problem is not new
	}
	return state
}

// group hands f to the grouper on the first pass, unless triage hid it
// where its problem does not count.
func (p *passing) group(f *reports.Finding, state string, hide bool) {
	if p.first && p.s.grouper != nil && p.s.tri.grouped(hide) {
		p.s.groupOne(f, state)
	}
}

// countState counts f's state against the baseline (first pass, shown
// findings).
func (p *passing) countState(state string, hide bool) {
	if p.base != nil && p.first && !hide {
		p.counts.Add(state)
	}
}

// newOnly says whether f goes on with Query.NewOnly: only a new finding,
// and, on the passes after the first, one of a new problem.
func (p *passing) newOnly(f *reports.Finding, state string) bool {
	if p.base == nil || !p.s.q.NewOnly {
		return true
	}
	return state == reports.BaselineNew && (p.first || !p.s.grouped.OfOldProblem(f))
}

// groupOne hands f, of the given state against the baseline, to the
// grouper, and puts aside what triage may take back of it (first run).
func (s *scan) groupOne(f *reports.Finding, state string) {
	if r, ok := s.ids.ref(f.ID); ok {
		f.Baseline = state // the grouper counts the new problems
		s.tri.inside(f, r)
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
	if fs, ok := src.(Files); ok {
		// The results a triage decision left out (recap's SARIF writes
		// them suppressed) were findings: one of this run that matches
		// one is unchanged, not new.
		fs.Options.Uncounted = true
		src = fs
	}
	inputs, err := src.Read(ctx, keep, func(f *reports.Finding) error {
		switch {
		case !f.Uncounted():
			b.Add(*f)
		case f.Detail.Kind == "" && f.Detail.Triaged():
			b.AddTriaged(*f)
		}
		return nil
	})
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	if t, ok := src.(TriagedSource); ok {
		t.EachTriaged(func(fp string) { b.AddTriaged(reports.Finding{Fingerprint: fp}) })
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

// TriagedSource is a source that holds, beside its findings, the
// fingerprints of the results a triage decision left out (recap's SARIF
// writes them suppressed): as a baseline, they are matched (unchanged),
// never counted fixed. (A source of files reads them itself.)
type TriagedSource interface {
	EachTriaged(fn func(fingerprint string))
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
