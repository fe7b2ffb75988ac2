package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/triage"
)

// reportsAnswer is analysis.getReports' answer: the findings view.
type reportsAnswer struct {
	v      *summarize.View
	layout *reportsLayout
}

func newReportsAnswer(v *summarize.View) *reportsAnswer {
	l := &reportsLayout{inputs: reports.CountRead(v.Inputs), twice: reports.SameFiles(v.Inputs)} // recap's own outputs listed, not read: not counted
	for _, in := range v.Inputs {
		if in.Error != "" {
			l.failed++
		}
	}
	return &reportsAnswer{v: v, layout: l}
}

func (a *reportsAnswer) fit(c budget.Counter, limit int) int {
	return summarize.Fit(a.v, c, limit, a.layout)
}
func (a *reportsAnswer) text() string { return a.layout.View(a.v) }
func (a *reportsAnswer) out() any     { return a.v }

// reportsLayout renders a view as the tool sends it: a line, then the JSON.
// The line counts the inputs before the budget left any out.
type reportsLayout struct {
	render.JSON
	inputs, failed int
	twice          int // inputs beside another report of their tool on the same files (reports.SameFiles)
}

// Spell writes a filter of a suggestion as the tool's arguments take it
// (categories=["Design"], not the command line's category="Design").
func (l *reportsLayout) Spell(filter, value string) string { return argSpelling{}.Spell(filter, value) }

// argSpelling spells filters as the tools' arguments: severity and impact
// are strings, the others are lists.
type argSpelling struct{}

func (argSpelling) Spell(filter, value string) string {
	q, _ := json.Marshal(value)
	switch filter {
	case "severity", "impact":
		return filter + "=" + string(q)
	case "quality":
		return "qualities=[" + string(q) + "]"
	case "category":
		return "categories=[" + string(q) + "]"
	case "rule":
		return "rules=[" + string(q) + "]"
	case "path":
		return "paths=[" + string(q) + "]"
	}
	return filter + "=" + string(q)
}

func (l *reportsLayout) View(v *summarize.View) string {
	return reportsLine(v, l.inputs, l.failed, l.twice) + "\n" + strings.TrimSuffix(l.JSON.View(v), "\n")
}

// reportsLine is the answer in one line: the counts, the page, the buffer.
func reportsLine(v *summarize.View, inputs, failed, twice int) string {
	s := &v.Summary
	var b strings.Builder
	// At the budget's floor (the top lists and the inputs left out), the
	// impacts are in the JSON's summary alone.
	floor := len(v.Omitted) > 0 && len(v.Inputs) == 0 && len(s.TopRules) == 0
	problems := ""
	if d := s.Duplicates; d != nil && d.Findings > 0 && !floor {
		problems = ", " + english.Plural(s.Problems, "problem", "problems")
	}
	fmt.Fprintf(&b, "recap: %s%s in %s from %s", english.Plural(s.Total, "finding", "findings"), problems,
		s.FilesText(), english.Plural(inputs, "report", "reports"))
	if by := impactList(s.ByImpact); by != "" && !floor {
		b.WriteString(": " + by)
	}
	if s.Security != nil {
		fmt.Fprintf(&b, "; %d about security", s.Security.Findings)
	}
	if twice > 0 { // counted before the budget left the warnings out
		see := " (see inputs[].warnings)"
		if reports.SameFiles(v.Inputs) == 0 {
			see = ""
		}
		fmt.Fprintf(&b, "; counted twice: %s of a tool beside another on the same files%s", english.Plural(twice, "report", "reports"), see)
	}
	if t := s.Triaged; t != nil && t.Problems > 0 {
		grave := ""
		if g := t.Grave(); g != "" {
			grave = " (" + g + ")" // a grave finding decided stays in sight
		}
		switch {
		case t.Shown:
			fmt.Fprintf(&b, "; %d triaged%s, shown", t.Problems, grave)
		case floor: // the docs say how to show them
			fmt.Fprintf(&b, "; %d triaged, left out", t.Problems)
		default:
			fmt.Fprintf(&b, "; %d triaged%s, left out (triaged=\"include\" shows them)", t.Problems, grave)
		}
	}
	if t := s.Triaged; t != nil && t.Expired > 0 {
		fmt.Fprintf(&b, "; %s back: triage expired", english.Plural(t.Expired, "finding", "findings"))
	}
	if t := s.Triaged; t != nil && t.Unmatched > 0 && !floor {
		in := ""
		if t.UnmatchedChanged {
			in = " in the files changed"
		}
		fmt.Fprintf(&b, "; %s of the triage file%s %s no finding (recap triage check says which)", english.Plural(t.Unmatched, "decision", "decisions"), in, english.Verb(t.Unmatched, "matches", "match"))
	}
	if failed > 0 {
		shown := 0
		for _, in := range v.Inputs {
			if in.Error != "" {
				shown++
			}
		}
		switch {
		case shown >= failed:
			fmt.Fprintf(&b, ", %d not read (see inputs[].error)", failed)
		case shown == 0 && floor: // omitted names the statuses left out
			fmt.Fprintf(&b, ", %d not read", failed)
		case shown == 0: // the budget left their status out
			fmt.Fprintf(&b, ", %d not read (errors left out: raise maxTokens)", failed)
		default:
			fmt.Fprintf(&b, ", %d not read (see inputs[].error for %d; raise maxTokens for the others)", failed, shown)
		}
	}
	if p := v.Page; p != nil {
		if p.Returned > 0 {
			fmt.Fprintf(&b, "; findings %d-%d shown", p.Offset+1, p.Offset+p.Returned)
		} else {
			b.WriteString("; no findings in this page")
		}
		if p.NextOffset != nil {
			fmt.Fprintf(&b, ", next offset=%d", *p.NextOffset)
		}
	}
	if v.BufferID != "" {
		fmt.Fprintf(&b, "; bufferId=%s", v.BufferID)
	}
	if len(v.Omitted) > 0 {
		b.WriteString("; parts left out (see omitted)")
	}
	return b.String()
}

// impactList says counts by impact, most important first: "2 high, 30
// medium"; "" when there are none.
func impactList(c summarize.ImpactCounts) string {
	var parts []string
	for _, i := range reports.Impacts {
		if n := c.Of(i); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, i))
		}
	}
	return strings.Join(parts, ", ")
}

// filterless reports whether the call filters nothing.
func (in *GetReportsIn) filterless() bool {
	return len(in.Categories)+len(in.Tools)+len(in.Rules)+len(in.Paths)+len(in.Qualities) == 0 && in.Severity == "" && in.Grep == "" &&
		in.Impact == ""
}

// hasQuery reports whether the call names reports or filters, which a
// bufferId fixes.
func (in *GetReportsIn) hasQuery() bool {
	return len(in.Reports)+len(in.Types)+len(in.Categories)+len(in.Tools)+len(in.Rules)+len(in.Paths)+len(in.Baseline)+len(in.CWE) > 0 ||
		in.Severity != "" || in.Grep != "" || in.ChangedSince != "" || (in.FilterMode != "" && in.FilterMode != string(pipeline.Added)) ||
		in.NewOnly || in.SecurityOnly || (in.Triaged != "" && in.Triaged != "exclude") || in.Impact != "" || len(in.Qualities) > 0 || (in.Sort != "" && in.Sort != reports.OrderImportance.String())
}

func (s *Server) getReports(ctx context.Context, in *GetReportsIn) (answer, error) {
	if in.Limit == 0 {
		in.Limit = FirstAnswerLimit
	}
	page := pipeline.Page{Offset: in.Offset, Limit: in.Limit}
	if err := page.Check(); err != nil {
		return nil, toolErrorf(CodeBadArgument, "%v", err)
	}
	var b *buffer
	if in.BufferID != "" {
		if in.hasQuery() {
			return nil, toolErrorf(CodeBadArgument, "bufferId %s pages an earlier result, whose reports and filters stay: drop bufferId to change them, or drop the other arguments to page", cut(in.BufferID))
		}
		if b = s.buffers.getFor(in.BufferID, sessionName(ctx)); b == nil {
			return nil, toolErrorf(CodeNotFound, "bufferId %s is unknown or expired (buffers live %s without use): call again without bufferId, with the same filters", cut(in.BufferID), s.opts.BufferTTL)
		}
	} else {
		var streamed *summarize.View
		var err error
		if b, streamed, err = s.query(ctx, in); err != nil {
			return nil, err
		}
		if streamed != nil {
			s.showPage(streamed.Findings, streamed.Inputs, in)
			return newReportsAnswer(streamed), nil
		}
	}
	v := &summarize.View{Summary: b.summary, Inputs: make([]reports.Input, len(b.inputs)), BufferID: b.id, Suggestions: slices.Clone(b.notes)}
	copy(v.Inputs, b.inputs)
	if !in.SummaryOnly {
		b.sorted()
		from := min(in.Offset, len(b.refs))
		to := min(from+in.Limit, len(b.refs))
		v.Findings = make([]summarize.FindingView, 0, to-from)
		for _, r := range b.refs[from:to] {
			fv := summarize.FindingView{Finding: b.finding(r), AlsoReportedBy: b.also[[2]int32{r.report, r.index}]}
			fv.Baseline, fv.HostLevel = r.baseline(), fv.Level()
			fv.Triage = b.triage[[2]int32{r.report, r.index}]
			v.Findings = append(v.Findings, fv)
		}
		s.showPage(v.Findings, v.Inputs, in)
		v.Page = summarize.NewPage(in.Offset, in.Limit, len(v.Findings), len(b.refs))
	}
	return newReportsAnswer(v), nil
}

// showPage readies a page's findings to be shown: the code around each
// (unless the call said context: false), taken from the report's snippet
// when the file is not under the root, and noted when the file changed
// after its report (of inputs) was written; the snippet itself is left
// to getFinding.
func (s *Server) showPage(page []summarize.FindingView, inputs []reports.Input, in *GetReportsIn) {
	src := &summarize.FileSource{Open: s.root.open}
	var rels map[string]string       // the reports' paths by their ids' tag, made when first needed
	judged := map[[2]string]string{} // why, by report and file
	var heads map[string]reportHead  // HEAD when each report was written
	for i := range page {
		fv := &page[i]
		if in.Context == nil || *in.Context {
			summarize.AddContext(fv, src)
		}
		fv.Snippet, fv.SnippetLine = "", 0
		if len(fv.Context) == 0 || fv.ContextNote != "" {
			continue
		}
		if rels == nil {
			rels = make(map[string]string, len(inputs))
			for _, x := range inputs {
				rels[reports.InputTag(x.Path, tagLen)] = x.Path
			}
		}
		k := [2]string{rels[fv.ID.Tag], fv.Path}
		why, ok := judged[k]
		if !ok {
			if why = s.editedSince(&fv.Finding, k[0]); why == "" {
				if heads == nil {
					heads = map[string]reportHead{}
				}
				why = s.committedSince(&fv.Finding, k[0], heads)
			}
			judged[k] = why
		}
		if why != "" {
			fv.ContextNote = summarize.EditedSinceNote(why)
		}
	}
}

// query reads the reports a call names (or finds them) and runs the
// pipeline on them, and returns the result's buffer: a live one for the same
// query on unchanged reports, else a new one. When a report is too large
// for the cache, the reports are read as they go, for this call only, and
// the view with its page is returned instead (streamed).
func (s *Server) query(ctx context.Context, in *GetReportsIn) (b *buffer, streamed *summarize.View, err error) {
	q, cfgKey, tri, err := s.queryOf(in)
	if err != nil {
		return nil, nil, err
	}
	var base found
	var baseFiles []file
	if len(in.Baseline) > 0 {
		// Named as a baseline: read whatever their size (without them every
		// finding would look new).
		if base, err = s.root.expand(in.Baseline, true, math.MaxInt64); err != nil {
			return nil, nil, err
		}
		baseFiles, _ = s.root.dedupe(base.files)
	}
	g, copies, err := s.reportFiles(in, baseFiles)
	if err != nil {
		return nil, nil, err
	}
	files := g.files
	s.recent.set(sessionName(ctx), files, baseFiles)
	if q.Changes, err = s.changedLines(in); err != nil {
		return nil, nil, err
	}
	// The reports, parsed once for the calls that need them at once (each
	// parse in a turn of its own, see reportCache.get), pinned while this
	// call uses them, beside what the call keeps of each file.
	defer s.cache.hold(callFileBytes * int64(len(files)+len(baseFiles)))()
	reps, err := s.readAll(ctx, files)
	if err != nil {
		return nil, nil, err
	}
	defer s.cache.unpin(reps...)
	s.ids.note(reps...)
	if files, reps, g.runs, err = readable(files, reps); err != nil {
		return nil, nil, err
	}
	var baseReps []*report
	if len(baseFiles) > 0 {
		if baseReps, err = s.readAll(ctx, baseFiles); err != nil {
			return nil, nil, err
		}
		defer s.cache.unpin(baseReps...)
		q.NewOnly = in.NewOnly
	}
	run := queryRun{q: q, tri: tri, in: in, files: files, reps: reps, baseFiles: baseFiles, baseReps: baseReps, copies: copies, g: g}
	if slices.Contains(reps, nil) { // a report too large to keep: read as it goes, for this call
		v, err := s.stream(ctx, &run)
		return nil, v, err
	}
	b, err = s.result(ctx, &run, cfgKey)
	return b, nil, err
}

// queryOf makes the pipeline's query of a call's arguments, with the
// server's configuration, and reads the triage file (tri: the query's
// Triage is made of it when the query runs, withTriage); cfgKey names the
// configuration and triage, for the query's key.
func (s *Server) queryOf(in *GetReportsIn) (q pipeline.Query, cfgKey string, tri *triageLoad, err error) {
	filter, err := reports.ParseFilter(reports.FilterWords{Root: s.root.dir, Categories: in.Categories, Tools: in.Tools, Rules: in.Rules, Paths: in.Paths,
		CWE: in.CWE, Qualities: in.Qualities, Severity: in.Severity, Impact: in.Impact, Grep: in.Grep, Security: in.SecurityOnly})
	if err != nil {
		return q, "", nil, toolErrorf(CodeBadArgument, "%v", err)
	}
	q.Filter = *filter
	if q.Order, err = reports.ParseOrder(in.Sort); err != nil {
		return q, "", nil, toolErrorf(CodeBadArgument, "sort: %v", err)
	}
	if in.Group == nil || *in.Group {
		q.Classes = grouping.ClassOf
	}
	if q.Config, cfgKey, err = s.config(); err != nil {
		return q, "", nil, err
	}
	if q.Triaged, err = pipeline.ParseTriagedMode(in.Triaged); err != nil {
		return q, "", nil, toolErrorf(CodeBadArgument, "%v", err)
	}
	if tri, err = s.triageFile(); err != nil {
		return q, "", nil, err
	}
	triageKey := ""
	if tri != nil {
		triageKey = tri.key
	}
	if in.NewOnly && len(in.Baseline) == 0 {
		return q, "", nil, toolErrorf(CodeBadArgument, "newOnly compares with a baseline: give baseline (the paths of an earlier run's reports)")
	}
	return q, cfgKey + "\x00" + triageKey, tri, nil
}

// changedLines reads the lines changed since the call's changedSince (nil
// without it), as its filterMode chooses them.
func (s *Server) changedLines(in *GetReportsIn) (*pipeline.Changes, error) {
	mode, err := pipeline.ParseFilterMode(in.FilterMode)
	if err != nil {
		return nil, toolErrorf(CodeBadArgument, "filterMode: %v", err)
	}
	if in.ChangedSince == "" && mode != pipeline.Added {
		return nil, toolErrorf(CodeBadArgument, "filterMode chooses the lines of changedSince: give changedSince (a revision, for example main)")
	}
	if in.ChangedSince == "" {
		return nil, nil
	}
	changes, err := s.root.changes(pipeline.Changes{Since: in.ChangedSince, Mode: mode})
	if err != nil {
		return nil, gitError("changedSince", err)
	}
	return changes, nil
}

// readable keeps one report of each run ([sameRuns]), and fails when no
// report could be read.
func readable(files []file, reps []*report) ([]file, []*report, map[string][]string, error) {
	failed := 0
	var msgs []string
	for _, r := range reps {
		if r != nil && r.input.Error != "" && r.n == 0 {
			failed++
			msgs = append(msgs, r.input.Error)
		}
	}
	files, reps, runs := sameRuns(files, reps)
	if failed == len(reps) {
		return files, reps, runs, toolErrorf(CodeParseError, "no report could be read: %s. Check that each is a complete %s report", strings.Join(msgs, "; "), parsers.FormatTitles("or"))
	}
	return files, reps, runs, nil
}

// queryRun is a query with the reports it runs on, read: the call's, and
// the baseline's.
type queryRun struct {
	q pipeline.Query
	// tri is the triage file's decisions, which the run that decides
	// findings makes its q.Triage of (withTriage): a page of a result
	// already made needs no matcher.
	tri              *triageLoad
	in               *GetReportsIn
	files, baseFiles []file
	reps, baseReps   []*report
	copies           map[string][]string
	g                found
}

// withTriage is run's query with the matcher of its triage file's
// decisions.
func (s *Server) withTriage(run *queryRun) pipeline.Query {
	q := run.q
	q.Triage = s.matcher(run.tri)
	return q
}

// stream runs the query with the reports read as they go, for this call
// alone (one is too large for the cache), and returns its view.
func (s *Server) stream(ctx context.Context, run *queryRun) (*summarize.View, error) {
	in, q := run.in, s.withTriage(run)
	if in.Offset+in.Limit > pipeline.DeepPage {
		return nil, toolErrorf(CodeTooLarge, "pages past the first %d findings are not served while a report is larger than the cache (%s), since each call reads it again: narrow with filters (categories, severity, paths)",
			pipeline.DeepPage, sizeName(s.opts.MaxCacheBytes))
	}
	release, err := s.coldRead(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	if len(run.baseFiles) > 0 {
		q.Baseline = &cached{reps: run.baseReps, files: run.baseFiles, root: s.root, ids: true, fingerprints: true}
	}
	q.Reports = &cached{reps: run.reps, files: run.files, root: s.root, ids: true, fingerprints: true}
	if !in.SummaryOnly {
		q.Keep.Page = &pipeline.Page{Offset: in.Offset, Limit: in.Limit}
	}
	res, err := pipeline.Run(ctx, &q)
	if err != nil {
		return nil, queryError(err)
	}
	res.View.Inputs = s.noteInputs(res.View.Inputs, run.files, run.reps, run.copies, run.g)
	res.View.Suggestions = append(append(unmatchedNotes(res.Unmatched), triageNotes(q.Triage)...), res.View.Suggestions...)
	s.recent.setGrouped(sessionName(ctx), res.Grouped)
	return res.View, nil
}

// result returns the buffer of the query's result: this session's of the
// same query of the same content, another session's, or the one being
// made for a call that asked it first (each caller waits for one pass),
// else a new one.
func (s *Server) result(ctx context.Context, run *queryRun, cfgKey string) (*buffer, error) {
	key, own := "", ""
	if run.q.Changes == nil {
		key = cfgKey + "\x00" + queryKey(run.in, run.files, run.reps, run.baseFiles, run.baseReps)
		own = sessionName(ctx) + "\x00" + key // a session pages its own buffers only
		if b := s.buffers.lookup(own); b != nil {
			s.recent.setGrouped(sessionName(ctx), b.grouped)
			return b, nil
		}
		if r := s.buffers.shared(key); r != nil && slices.Equal(r.reports, run.reps) {
			return s.keep(ctx, r, own, run.files, run.reps, run.copies, run.g), nil
		}
	}
	res, err := s.newResult(ctx, run, key)
	if err != nil {
		return nil, err
	}
	return s.keep(ctx, res, own, run.files, run.reps, run.copies, run.g), nil
}

// newResult runs the query over the reports in the cache, in a turn of
// its own, once for the calls that ask the same query (key) at once.
func (s *Server) newResult(ctx context.Context, run *queryRun, key string) (*result, error) {
	pass := func(ctx context.Context) (*result, error) {
		release, err := s.coldRead(ctx)
		if err != nil {
			return nil, err
		}
		defer release()
		res, err := s.pass(ctx, s.withTriage(run), run.in, key, run.reps, run.files, run.baseReps, run.baseFiles)
		if err == nil && !run.in.SummaryOnly {
			res.sorted() // in the turn: the sorts at once are as many as the turns
		}
		return res, err
	}
	if key == "" {
		return pass(ctx)
	}
	return s.flights.do(ctx, key, func() func(context.Context) (*result, error) {
		// The pass pins the reports for itself: it goes on when this
		// call leaves, for the others waiting.
		s.cache.pin(run.reps...)
		s.cache.pin(run.baseReps...)
		return func(ctx context.Context) (*result, error) {
			defer s.cache.unpin(run.baseReps...)
			defer s.cache.unpin(run.reps...)
			return pass(ctx)
		}
	})
}

// keep stores a buffer of this call's session over the result res, with
// the inputs' status as this call found them (see noteInputs).
func (s *Server) keep(ctx context.Context, res *result, key string, files []file, reps []*report, copies map[string][]string, g found) *buffer {
	b := &buffer{key: key, owner: sessionName(ctx), result: res, inputs: s.noteInputs(res.inputs, files, reps, copies, g)}
	s.recent.setGrouped(sessionName(ctx), res.grouped)
	s.buffers.put(b)
	return b
}

// pass runs the query q over the reports kept in the cache and returns its
// result (key: the query's, "" when it cannot be reused).
func (s *Server) pass(ctx context.Context, q pipeline.Query, in *GetReportsIn, key string, reps []*report, files []file, baseReps []*report, baseFiles []file) (*result, error) {
	if len(baseFiles) > 0 {
		q.Baseline = &cached{reps: baseReps, files: baseFiles, root: s.root, ids: true, fingerprints: true}
	}
	// A baseline matches fingerprints, groups know findings by id; the
	// pages are made from the cache, with their fingerprints, afterwards.
	src := &cached{reps: reps, files: files, root: s.root, ids: q.Baseline != nil || q.Classes != nil, fingerprints: q.Baseline != nil, pulse: s.pulse}
	src.kinds = kindFilter(&q)
	q.Reports = src
	b := &result{key: key, reports: reps, order: q.Order, cfg: q.Config}
	refs := &gathered[ref]{}
	if in.filterless() && q.Changes == nil && !q.NewOnly { // every finding: room for them at once
		n := 0
		for _, r := range reps {
			n += r.n
		}
		refs.room(n)
	}
	var early *earlyRefs
	if earlyPass && q.Classes != nil && src.Rereadable() {
		// The findings are taken in the first pass and settled once the
		// problems are known, rather than handed on again in a second.
		early = &earlyRefs{b: b, reps: reps, refs: refs}
		q.Keep.Early = early
	}
	q.Keep.Each = func(f *reports.Finding, state string) error {
		if refs.len()%recChunk == 0 {
			s.pulse.beat()
		}
		refs.add(ref{report: src.at.report, index: src.at.index, state: stateOf(state)})
		if early != nil {
			early.take(f)
		}
		if f.Triage != nil {
			if b.triage == nil {
				b.triage = map[[2]int32]*reports.Triage{}
			}
			b.triage[[2]int32{src.at.report, src.at.index}] = f.Triage
		}
		if f.Detail != nil && len(f.Detail.Also) > 0 {
			if b.also == nil {
				b.also = map[[2]int32][]summarize.AlsoReported{}
			}
			b.also[[2]int32{src.at.report, src.at.index}] = f.Detail.Also
		}
		return nil
	}
	res, err := pipeline.Run(ctx, &q)
	if err != nil {
		return nil, queryError(err)
	}
	if early == nil || !early.settled {
		b.refs = refs.slice()
	}
	b.summary, b.inputs = res.View.Summary, res.View.Inputs
	b.notes = append(unmatchedNotes(res.Unmatched), triageNotes(q.Triage)...)
	b.grouped = res.Grouped
	b.price()
	return b, nil
}

// earlyPass has a grouped pass take its findings early (tests turn it off
// to compare with the second pass).
var earlyPass = true

// earlyRefs takes a pass's findings as refs in its first pass
// ([pipeline.Keep.Early]) and settles them once the problems are known:
// the refs, states, decisions and others of the problems that a second
// pass would have handed on.
type earlyRefs struct {
	b       *result
	reps    []*report
	refs    *gathered[ref]  // taken, until settled into b.refs
	flags   gathered[uint8] // by ref: earlySuppressed, earlyUncounted
	settled bool
}

const (
	earlySuppressed uint8 = 1 << iota
	earlyUncounted
)

// take notes what fate asks of f, the finding of the ref just taken.
func (e *earlyRefs) take(f *reports.Finding) {
	var fl uint8
	if f.Triage.Suppressed() {
		fl |= earlySuppressed
	}
	if f.Uncounted() {
		fl |= earlyUncounted
	}
	e.flags.add(fl)
}

// Settle implements [pipeline.Early].
func (e *earlyRefs) Settle(fate func(id reports.FindingID, baseline string, suppressed, uncounted bool) (drop bool, state string, t *reports.Triage, also []reports.Also)) error {
	b := e.b
	b.refs, e.settled = e.refs.slice(), true
	flags := e.flags.slice()
	kept := b.refs[:0]
	for i, r := range b.refs {
		key := [2]int32{r.report, r.index}
		fl := flags[i]
		drop, state, t, also := fate(reports.ID(e.reps[r.report].tag, int(r.index)+1), r.baseline(), fl&earlySuppressed != 0, fl&earlyUncounted != 0)
		if drop {
			delete(b.triage, key) // the second pass would not have handed it on
			continue
		}
		r.state = stateOf(state)
		if t != nil {
			if b.triage == nil {
				b.triage = map[[2]int32]*reports.Triage{}
			}
			b.triage[key] = t
		}
		if len(also) > 0 {
			if b.also == nil {
				b.also = map[[2]int32][]summarize.AlsoReported{}
			}
			b.also[key] = also
		}
		kept = append(kept, r)
	}
	b.refs = kept
	return nil
}

// Restart implements [pipeline.Early]: the run starts again.
func (e *earlyRefs) Restart() error {
	e.refs.reset()
	e.flags.reset()
	e.b.refs, e.settled = nil, false
	e.b.triage, e.b.also = nil, nil
	return nil
}

// kindFilter returns the part of q's filter that what the findings of one
// kind share decides (severity, impact, qualities, categories, CWE,
// security, tools, rules), and its paths, when the pipeline's keep does
// nothing but filter: without a configuration (which counts what it
// excludes), changes (which count what lies outside them) or a baseline
// (which every finding must meet); see cached.skips for its tools, rules
// and paths. nil otherwise, or when that part keeps every finding.
func kindFilter(q *pipeline.Query) *reports.Filter {
	f := &q.Filter
	if !kindFilters || q.Config != nil || q.Changes != nil || q.Baseline != nil {
		return nil
	}
	if q.Triage != nil && q.Triage.Len() > 0 && q.Classes != nil {
		// A decision covers its problem's findings that the filter keeps
		// through those it refuses: the pipeline sees them all.
		return nil
	}
	k := &reports.Filter{Categories: f.Categories, MinSeverity: f.MinSeverity, MinImpact: f.MinImpact, Qualities: f.Qualities, CWE: f.CWE, Security: f.Security,
		Tools: f.Tools, Rules: f.Rules, Paths: f.Paths}
	if len(k.Categories)+len(k.Qualities)+len(k.CWE)+len(k.Tools)+len(k.Rules)+len(k.Paths) == 0 && !k.MinSeverity.Valid() && !k.MinImpact.Valid() && !k.Security {
		return nil
	}
	return k
}

// kindFilters turns kindFilter on (tests compare the results without it).
var kindFilters = true

// unmatchedNotes say which tools and rules of the call's filter no
// finding of the reports has, and the closest ones they have.
func unmatchedNotes(un []pipeline.Unmatched) []string {
	var out []string
	for _, u := range un {
		msg := fmt.Sprintf("%ss: %q matches no finding of the reports", u.What, u.Name)
		if u.Where != "" {
			msg = fmt.Sprintf("%s: %s matches no finding of the reports", u.Where, u.Name)
		}
		if len(u.Closest) > 0 {
			msg += "; closest: " + strings.Join(u.Closest, ", ")
		}
		out = append(out, msg)
	}
	return out
}

// triageNotes say which decisions of the triage file could not be
// followed through git where their code was copied or its neighbours
// changed (matched by location alone): their commit not in a shallow
// clone, or in no branch, or their code not in a partial clone.
func triageNotes(m *triage.Matcher) []string {
	var out []string
	if n := m.Unfollowed(); n > 0 {
		out = append(out, fmt.Sprintf("triage: the commit of %s is not in this clone (a shallow one: git fetch --unshallow): where the decided code was copied, or its neighbours changed, matched by location alone and may cover a copy (recap triage list shows what each decision matches)", english.Plural(n, "decision", "decisions")))
	}
	if n, at := m.Ambiguous(); n > 0 {
		out = append(out, fmt.Sprintf("triage: %s a finding by location while git's history says the decided line is another of the same text (first: %s): the block was copied, or moved, and the copy changed; may cover the copy (recap triage list shows what each decision matches)", english.Plural(n, "decision covers", "decisions cover"), at))
	}
	if n, err := m.Unfetched(); n > 0 {
		out = append(out, fmt.Sprintf("triage: the decided code of %s is not in this partial clone, and git could not fetch it (%v): where the decided code was copied, or its neighbours changed, matched by location alone and may cover a copy (recap triage list shows what each decision matches)", english.Plural(n, "decision", "decisions"), err))
	}
	if n := m.Squashed(); n > 0 {
		out = append(out, fmt.Sprintf("triage: the commit of %s is in no branch, and the decided code as it was in no commit since (a branch squashed or rebased after the code changed): where the decided code was copied, or its neighbours changed, matched by location alone and may cover a copy (recap triage list shows what each decision matches, check those that match nothing, to decide again)", english.Plural(n, "decision", "decisions")))
	}
	return out
}

// noteInputs adds to the inputs' status what the call should know of them:
// the copies counted once, a report too large to keep, the reports a
// search left out for their size (as inputs not read), a search stopped.
func (s *Server) noteInputs(inputs []reports.Input, files []file, reps []*report, copies map[string][]string, g found) []reports.Input {
	out := make([]reports.Input, len(inputs), len(inputs)+len(g.big))
	copy(out, inputs)
	warn := func(i int, msg string) {
		out[i].Warnings = slices.Clone(out[i].Warnings)
		out[i].Warn(msg)
	}
	for i, f := range files {
		if i >= len(out) {
			break
		}
		if c := copies[f.abs]; len(c) > 0 {
			names := c
			more := ""
			if len(c) > 5 {
				names, more = c[:5], fmt.Sprintf(" and %d more", len(c)-5)
			}
			verb := "has" // as the command line words it: the copies named, this file kept
			if len(c) > 1 {
				verb = "have"
			}
			warn(i, fmt.Sprintf("%s%s %s the same content: counted once", strings.Join(names, ", "), more, verb))
		}
		for _, note := range g.runs[f.abs] {
			warn(i, note)
		}
		if reps[i] == nil {
			warn(i, fmt.Sprintf("larger than the cache (%s): read again by each call, not kept, so no bufferId and no page past the first %d findings", sizeName(s.opts.MaxCacheBytes), pipeline.DeepPage))
		}
	}
	// Two reports of one tool on the same files: both read, said.
	parsers.WarnSameFiles(out[:min(len(files), len(out))], func(i int) ([]string, bool) {
		if i < len(reps) && reps[i] != nil {
			return reps[i].paths, false
		}
		return nil, false
	})
	for _, f := range g.own {
		out = append(out, reports.Input{Path: f.rel, Format: string(f.own.Format), Warnings: []string{f.own.Warning}, LeftOut: true})
	}
	for _, f := range g.big {
		out = append(out, reports.Input{Path: f.rel, Error: fmt.Sprintf("not read: %s, over the %s a search reads; give its path in reports to read it", sizeName(s.root.contentSize(f)), sizeName(s.root.maxReport))})
	}
	if g.stopped != "" && len(out) > 0 {
		warn(0, fmt.Sprintf("the search for reports stopped (%s): reports further on were not looked for; give reports to name them", g.stopped))
	}
	return out
}

// reportFiles are the reports a call names, or those under the root, of
// the types it asks for, each content once (copies: the files left out as
// copies, by the kept one's absolute path). A search leaves out the
// baseline's files: they are the earlier run, not a report of this one.
func (s *Server) reportFiles(in *GetReportsIn, baseline []file) (g found, copies map[string][]string, err error) {
	formats := map[parsers.Format]bool{}
	for _, t := range in.Types {
		f, err := parsers.ParseFormat(t)
		if err != nil {
			return found{}, nil, toolErrorf(CodeBadArgument, "types: %v", err)
		}
		formats[f] = true
	}
	if len(in.Reports) > 0 {
		g, err = s.root.expand(in.Reports, true, s.root.maxReport)
	} else {
		g, err = s.root.discover(".", s.root.maxReport)
		if len(baseline) > 0 {
			isBase := map[string]bool{}
			for _, f := range baseline {
				isBase[f.abs] = true
			}
			g.files = slices.DeleteFunc(g.files, func(f file) bool { return isBase[f.abs] })
			g.big = slices.DeleteFunc(g.big, func(f file) bool { return isBase[f.abs] })
		}
		if err == nil && len(g.files) == 0 {
			if len(g.big) > 0 || g.stopped != "" || g.skipped.n > 0 {
				err = noReport("the root "+s.root.dir, g, s.root)
			} else {
				err = toolErrorf(CodeNotFound, "no %s report under the root %s: run the analysis first (PMD: --format sarif; Checkstyle: -f xml; SpotBugs: -xml), or give reports", parsers.FormatTitles("or"), s.root.dir)
			}
		}
	}
	if err != nil {
		return found{}, nil, err
	}
	if len(formats) > 0 {
		of := func(files []file) []file {
			var kept []file
			for _, f := range files {
				if format, ok := s.root.sniff(f); ok && formats[format] {
					kept = append(kept, f)
				}
			}
			return kept
		}
		n := len(g.files)
		g.files, g.big = of(g.files), of(g.big)
		if len(g.files) == 0 {
			return found{}, nil, toolErrorf(CodeNotFound, "none of the %d reports is of the types %s: drop types, or give other reports", n, strings.Join(in.Types, ", "))
		}
	}
	g.files, copies = s.root.dedupe(g.files)
	return g, copies, nil
}

// queryKey identifies a query on reports by their content: what
// determines its result, the filters, each report's path relative to the
// root (its findings' ids) and the digest and size of its bytes, so that
// the same query again, from any session, reuses its result, and the
// same query at once shares one pass.
func queryKey(in *GetReportsIn, files []file, reps []*report, baseline []file, baseReps []*report) string {
	k := struct {
		Files, Baseline                                 [][3]any
		Categories, Tools, Rules, Paths, CWE, Qualities []string
		Severity, Grep, Impact, Sort                    string
		NewOnly, SecurityOnly, Ungrouped                bool
		Triaged                                         string
	}{Triaged: in.Triaged, Ungrouped: in.Group != nil && !*in.Group, Categories: in.Categories, Tools: in.Tools, Rules: in.Rules, Paths: in.Paths, CWE: in.CWE, Qualities: in.Qualities, Severity: in.Severity,
		Grep: in.Grep, Impact: in.Impact, Sort: in.Sort, NewOnly: in.NewOnly, SecurityOnly: in.SecurityOnly}
	for i, f := range files {
		k.Files = append(k.Files, [3]any{f.rel, reps[i].digest, reps[i].stamp.size})
	}
	for i, f := range baseline {
		k.Baseline = append(k.Baseline, [3]any{f.rel, baseReps[i].digest, baseReps[i].stamp.size})
	}
	raw, _ := json.Marshal(k)
	return string(raw)
}

// sameRuns leaves out the reports that are an earlier one's tool's run in
// another format (PMD's XML and its SARIF of one run, see
// parsers.SameRuns), returning new slices (the callers unpin the ones they
// had) and, by the kept file's absolute path, what it says of those left
// out; reports of the same findings in different directories are both
// kept, each naming the other. A report too large for the cache is not
// compared.
func sameRuns(files []file, reps []*report) ([]file, []*report, map[string][]string) {
	ins := make([]*reports.Input, len(reps))
	for i, r := range reps {
		if r != nil {
			ins[i] = &r.input
		}
	}
	var drop map[int]bool
	var notes map[string][]string
	for _, p := range parsers.SameRuns(ins) {
		if drop == nil {
			drop, notes = map[int]bool{}, map[string][]string{}
		}
		keep, other := files[p.Keep], files[p.Drop]
		if p.Apart { // the same findings in another directory: both read, each naming the other
			notes[keep.abs] = append(notes[keep.abs], fmt.Sprintf("%s holds the same %s of %s in another format, but lies in another directory: both counted (one run's formats lie side by side)", other.rel, english.Plural(p.Findings, "finding", "findings"), p.Run))
			notes[other.abs] = append(notes[other.abs], fmt.Sprintf("%s holds the same %s of %s in another format, but lies in another directory: both counted (one run's formats lie side by side)", keep.rel, english.Plural(p.Findings, "finding", "findings"), p.Run))
			continue
		}
		drop[p.Drop] = true
		notes[keep.abs] = append(notes[keep.abs], fmt.Sprintf("%s is the same %s run in another format (%d findings alike): counted once", other.rel, p.Run, p.Findings))
	}
	if len(drop) == 0 {
		return files, reps, notes
	}
	keptFiles, keptReps := make([]file, 0, len(files)-len(drop)), make([]*report, 0, len(reps)-len(drop))
	for i := range files {
		if !drop[i] {
			keptFiles, keptReps = append(keptFiles, files[i]), append(keptReps, reps[i])
		}
	}
	return keptFiles, keptReps, notes
}

// readAll returns the reports at files, parsed now or before, pinned in
// the cache until the caller unpins them; nil for a report too large for
// the cache (read as it goes: see cached).
func (s *Server) readAll(ctx context.Context, files []file) ([]*report, error) {
	reps := make([]*report, len(files))
	for i, f := range files {
		err := ctx.Err()
		var r *report
		if err == nil {
			r, _, err = s.cache.get(ctx, f, s.root, "")
		}
		if errors.Is(err, errTooLarge) {
			continue
		}
		if err != nil {
			s.cache.unpin(reps...)
			return nil, err
		}
		reps[i] = r
	}
	return reps, nil
}

// callFileBytes is about what a call keeps of each report file it reads,
// beside the report (its place and stamp, what the search learnt of it,
// its input's status, its id tag): the cache counts it while the call
// lasts ([reportCache.hold]), so that 200,000 files of one finding each
// under the root are read as they go rather than kept past the server's
// memory bound.
const callFileBytes = 768

// queryError gives an error of the pipeline its code: the changes' git
// errors, or a baseline that cannot be read.
func queryError(err error) error {
	var be *pipeline.BaselineError
	switch {
	case errors.As(err, &be):
		return toolErrorf(CodeParseError, "baseline: %s. Give the complete reports of an earlier run", be.Reason)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	return gitError("changedSince", err)
}

// gitError gives a repository error its code: what is not there (a
// revision, the history of a shallow clone, a partial clone's content git
// could not fetch, a repository, a merge base) is
// NOT_FOUND, anything else a bad argument.
func gitError(arg string, err error) error {
	code := CodeBadArgument
	for _, kind := range []error{diff.ErrUnknownRevision, diff.ErrShallow, diff.ErrPartial, diff.ErrNotRepository, diff.ErrNoMergeBase} {
		if errors.Is(err, kind) {
			code = CodeNotFound
		}
	}
	return toolErrorf(code, "%s: %s", arg, err)
}
