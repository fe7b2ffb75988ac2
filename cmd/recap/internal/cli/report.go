package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/inputs"
	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/summarize/tokens"
	"github.com/recap-dev/recap/triage"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// reportOptions are the flags of the commands that read reports.
type reportOptions struct {
	common        commonFlags
	filters       filterFlags
	offset, limit int
	paged         bool // --offset or --limit was given
	noContext     bool
	rev           string
	maxTokens     int
	tokenizer     string
	budgeted      bool // --max-tokens was given
	changedOnly   bool
	changes       diffSource
	gate          gateFlags
	triaged       string
}

func (o *reportOptions) registerChanged(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&o.changedOnly, "changed-only", false,
		"keep the findings whose lines touch a changed line (whitespace-only changes aside): of --base...--head, of --diff FILE, or else of the working tree against HEAD")
	o.changes.register(cmd, true)
	o.changes.registerIndex(cmd)
}

func (o *reportOptions) registerBudget(cmd *cobra.Command) {
	f := cmd.Flags()
	f.IntVar(&o.maxTokens, "max-tokens", budget.DefaultMaxTokens, "token budget of the output (256 to 25000); json output always has one, text and markdown when this flag is given")
	f.StringVar(&o.tokenizer, "tokenizer", tokens.Default, "how the budget counts: "+strings.Join(tokens.Names(), ", "))
}

// flagsChanged notes which defaults the user overrode, and refuses values
// given explicitly that would silently mean "not given".
func (o *reportOptions) flagsChanged(cmd *cobra.Command) error {
	o.budgeted = cmd.Flags().Changed("max-tokens")
	o.paged = cmd.Flags().Changed("offset") || cmd.Flags().Changed("limit")
	if cmd.Flags().Changed("max-new") && o.gate.maxNew < 0 {
		return usageError("--max-new must not be negative (0 allows no new finding)")
	}
	return emptyFlags(cmd)
}

// emptyFlags refuses a string flag given with an empty value (an unset CI
// variable, as in --base "$BASE"): it would otherwise mean "not given", and
// compare the working tree, read no baseline, or the like.
func emptyFlags(cmd *cobra.Command) error {
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if err != nil {
			return
		}
		switch v := f.Value.(type) {
		case pflag.SliceValue:
			for _, s := range v.GetSlice() {
				if strings.TrimSpace(s) == "" {
					err = usageError("--%s is empty: give a value (is a CI variable unset?)", f.Name)
				}
			}
		default:
			if f.Value.Type() == "string" && strings.TrimSpace(f.Value.String()) == "" {
				err = usageError("--%s is empty: give a value (is a CI variable unset?)", f.Name)
			}
		}
	})
	return err
}

// report is a checked command line of a report command: the query, and
// how its result is shown.
type report struct {
	query    pipeline.Query
	format   render.Format    // its View set up by the flags
	layout   summarize.Layout // nil: the format cannot be budgeted
	fit      bool             // apply the budget
	context  summarize.Source // nil: no context
	stream   render.Stream
	gate     pipeline.Gate
	gated    error    // the gate's verdict on the query's view, before the budget
	warnings []string // the inputs' warnings, before the budget
	// triageWarnings are the triage file's (decisions whose lines could
	// not be followed), which no view shows.
	triageWarnings []string
	stale          *staleJudge // an HTML page's, with the working tree's code
}

// newReport checks the flags and maps them onto a query; page asks for a
// page of findings (findings, review), else the counts alone (summary).
func newReport(streams *IO, o *reportOptions, args []string, page bool) (*report, error) {
	format, inFormat, root, err := o.common.resolve()
	if err != nil {
		return nil, err
	}
	flt, err := o.filters.filter(root)
	if err != nil {
		return nil, err
	}
	if err := o.checkBudget(); err != nil {
		return nil, err
	}
	rep := &report{format: format}
	rep.layout, _ = format.View.(summarize.Layout)
	if o.budgeted && rep.layout == nil {
		return nil, usageError("--max-tokens does not apply to --format %s", o.common.format)
	}
	rep.fit = format.Fitted || o.budgeted
	if rep.gate, err = o.gate.check(); err != nil {
		return nil, err
	}
	readOpts := parsers.ReadOptions{Root: root, Format: inFormat, Stdin: streams.In, Wrap: progress(streams.ErrOut), Door: inputs.New(nil, parsers.Look)} // one door for every pass of the query
	if _, ok := format.View.(render.HTML); ok && !o.noContext && o.rev == "" {
		// The page shows each finding's code from the working tree, and
		// says when its file changed after its report was written.
		rep.stale = &staleJudge{root: root}
		readOpts.Tagged = rep.stale.tagged
	}
	if err := rep.setQuery(streams, o, root, args, readOpts, flt); err != nil {
		return nil, err
	}
	r, err := rep.htmlSource(o, root)
	if err != nil {
		return nil, err
	}
	if err := rep.setKeep(o, r, args, readOpts, page); err != nil {
		return nil, err
	}
	if page && !o.noContext && rep.layout != nil && rep.context == nil {
		rep.context = &summarize.Dir{Root: root}
		if o.rev != "" { // checked before the inputs are read: they may be large
			if rep.context, err = revSource(root, o.rev); err != nil {
				rep.close()
				return nil, err
			}
		}
	}
	return rep, nil
}

// checkBudget checks the budget's flags: --max-tokens within its bounds,
// a tokenizer recap has.
func (o *reportOptions) checkBudget() error {
	if o.maxTokens < budget.MinMaxTokens || o.maxTokens > budget.MaxMaxTokens {
		return usageError("--max-tokens must be between %d and %d", budget.MinMaxTokens, budget.MaxMaxTokens)
	}
	if !tokensName(o.tokenizer) {
		_, err := tokens.New(o.tokenizer)
		return usageError("--tokenizer: %v", err)
	}
	return nil
}

// setQuery maps the flags onto the query: the reports, the filter, the
// configuration and triage, the order, the changes and the baseline.
func (rep *report) setQuery(streams *IO, o *reportOptions, root string, args []string, readOpts parsers.ReadOptions, flt *reports.Filter) error {
	q := &rep.query
	q.Reports = pipeline.Files{Paths: args, Options: readOpts}
	q.Filter = *flt
	if err := o.common.query(q, root, streams.ErrOut); err != nil {
		return err
	}
	var err error
	if q.Triaged, err = o.triagedMode(rep.format); err != nil {
		return err
	}
	if q.Order, err = o.filters.order(); err != nil {
		return err
	}
	if q.Changes, err = o.changes.changes(o.changedOnly, root, streams); err != nil {
		return err
	}
	if len(o.gate.baseline) > 0 {
		baseOpts := readOpts
		baseOpts.Stdin, baseOpts.Wrap, baseOpts.Tagged = nil, nil, nil // the baseline's findings are judged by no report
		q.Baseline = pipeline.Files{Paths: o.gate.baseline, Options: baseOpts}
		q.NewOnly = o.gate.newOnly
	}
	return nil
}

// htmlSource gives the HTML page, which shows every finding with its code,
// its source, read as the findings stream by (the working tree, or the
// revision of --rev); it returns the renderer.
func (rep *report) htmlSource(o *reportOptions, root string) (render.Renderer, error) {
	r := rep.format.View
	h, ok := r.(render.HTML)
	if !ok || o.noContext {
		return r, nil
	}
	rep.context = &summarize.Dir{Root: root}
	if o.rev != "" {
		var err error
		if rep.context, err = revSource(root, o.rev); err != nil {
			return nil, err
		}
	}
	h.Source = rep.context
	if rep.stale != nil {
		h.Stale = rep.stale.why
	}
	rep.format.View = h
	return h, nil
}

// setKeep says what the query keeps besides the counts, by what the
// renderer r shows: every finding streamed, the first of each severity,
// or a page; and whether the findings need their fingerprints.
func (rep *report) setKeep(o *reportOptions, r render.Renderer, args []string, readOpts parsers.ReadOptions, page bool) error {
	q := &rep.query
	st, streamer := r.(render.Streamer)
	sel, selects := r.(render.Selector)
	shown, ok := r.(interface{ ShowsFingerprints() bool })
	if !page && !streamer && !selects && q.Baseline == nil || ok && !shown.ShowsFingerprints() && q.Baseline == nil {
		// Counts alone, or findings shown without their fingerprints:
		// none is compared, so none needs its fingerprint.
		readOpts.NoFingerprints = true
		q.Reports = pipeline.Files{Paths: args, Options: readOpts}
	}
	switch {
	case streamer && !(page && o.paged):
		if all, ok := r.(render.AllResults); ok && all.AllResults() {
			// The results that are no findings (suppressed, passes) too.
			readOpts.Uncounted = true
			q.Reports = pipeline.Files{Paths: args, Options: readOpts}
		}
		rep.stream = st.NewStream()
		q.Keep.Each = func(f *reports.Finding, state string) error {
			g := *f
			g.Baseline = state
			return rep.stream.Add(&g)
		}
		if a, ok := rep.stream.(interface {
			AddState(f *reports.Finding, baseline string) error
		}); ok {
			q.Keep.Each = a.AddState // no copy of each finding to set its state
		}
		if e, ok := rep.stream.(pipeline.Early); ok && q.Classes != nil {
			// The page takes the findings in the first pass and learns
			// their problems after (see run); without groups the first
			// pass is the only one.
			q.Keep.Early = e
		}
	case selects:
		q.Keep.PerSeverity = sel.PerSeverity()
	case page:
		q.Keep.Page = &pipeline.Page{Offset: o.offset, Limit: o.limit}
		if err := q.Keep.Page.Check(); err != nil {
			return usageError("--%v", err)
		}
	}
	return nil
}

// close removes what the stream left on disk and releases the working
// tree read for context.
func (rep *report) close() {
	if rep.stream != nil {
		rep.stream.Close()
	}
	if c, ok := rep.context.(interface{ Close() error }); ok {
		c.Close()
	}
	if rep.stale != nil {
		rep.stale.close()
	}
}

// run runs the query and prepares its view: context for the page, then the
// budget (the vocabularies, 20 MB, are loaded once the reading's garbage
// can make room for them).
func (rep *report) run(ctx context.Context, o *reportOptions) (*pipeline.Result, error) {
	if e, ok := rep.query.Keep.Early.(interface{ SetEarly() }); ok {
		e.SetEarly() // unless another took Each since (a review's annotations)
	}
	res, err := pipeline.Run(ctx, &rep.query)
	if err != nil {
		return nil, queryError(err)
	}
	v := res.View
	// The gate counts what the query found, before a small budget leaves
	// counts out of the view.
	rep.gated = rep.gate.Check(v)
	if rep.context != nil {
		for i := range v.Findings {
			summarize.AddContext(&v.Findings[i], rep.context)
		}
		if d, ok := rep.context.(*summarize.Dir); ok {
			noteEditedSince(v, d.Root)
		}
	}
	rep.warnings = inputWarnings(v) // a budget may leave them out of the view
	if n := rep.query.Triage.Unfollowed(); n > 0 {
		rep.triageWarnings = append(rep.triageWarnings, fmt.Sprintf("recap: warning: triage: %s of %s %s not in this clone (a shallow one: git fetch --unshallow): where the decided code was copied, or its neighbours changed, %s matched by location alone and may cover a copy (recap triage list shows what each decision matches)",
			english.Verb(n, "the commit", "the commits"), english.Plural(n, "decision", "decisions"), english.Verb(n, "is", "are"), english.Verb(n, "it is", "they are")))
	}
	for _, w := range []string{ambiguousWarning(rep.query.Triage), unreadWarning(rep.query.Triage)} {
		if w != "" {
			rep.triageWarnings = append(rep.triageWarnings, w)
		}
	}
	if n, err := rep.query.Triage.Unfetched(); n > 0 {
		rep.triageWarnings = append(rep.triageWarnings, fmt.Sprintf("recap: warning: triage: the decided code of %s is not in this partial clone, and git could not fetch it (%v): where the decided code was copied, or its neighbours changed, %s matched by location alone and may cover a copy (recap triage list shows what each decision matches)",
			english.Plural(n, "decision", "decisions"), err, english.Verb(n, "it is", "they are")))
	}
	if n := rep.query.Triage.Squashed(); n > 0 {
		rep.triageWarnings = append(rep.triageWarnings, fmt.Sprintf("recap: warning: triage: %s of %s %s in no branch of this repository, and the decided code as it was in no commit since (a branch squashed or rebased after the code changed): where the decided code was copied, or its neighbours changed, %s matched by location alone and may cover a copy (recap triage list shows what each decision matches, check those that match nothing, to decide again)",
			english.Verb(n, "the commit", "the commits"), english.Plural(n, "decision", "decisions"), english.Verb(n, "is", "are"), english.Verb(n, "it is", "they are")))
	}
	if t := v.Summary.Triaged; t != nil && t.Unmatched > 0 && o.common.triageRoot != "" {
		t.UnmatchedOlder = unmatchedOlder(rep.query.Triage, o.common.triageRoot, v.Inputs)
	}
	if rep.fit {
		counter, err := tokens.New(o.tokenizer)
		if err != nil {
			return nil, usageError("--tokenizer: %v", err)
		}
		summarize.Fit(v, counter, o.maxTokens, rep.layout)
	}
	return res, nil
}

// runReport runs a report command: the query, the view written in its
// format, then the exit code (an input not read, then the gates).
func runReport(ctx context.Context, streams *IO, o *reportOptions, args []string, page bool) error {
	rep, err := newReport(streams, o, args, page)
	if err != nil {
		return err
	}
	defer rep.close()
	res, err := rep.run(ctx, o)
	if err != nil {
		return err
	}
	v := res.View
	if err := writeOutput(streams.Out, o.common.output, rep, v); err != nil {
		return err
	}
	if !shownInLog(streams, rep.format, v) {
		for _, w := range rep.warnings {
			fmt.Fprintln(streams.ErrOut, w)
		}
	}
	for _, w := range rep.triageWarnings { // no view shows them
		fmt.Fprintln(streams.ErrOut, w)
	}
	reportInputs(streams.ErrOut, v, false)
	reportUnmatched(streams.ErrOut, res.Unmatched)
	if w, ok := rep.stream.(render.Warner); ok {
		for _, line := range w.Warnings() {
			fmt.Fprintln(streams.ErrOut, "recap: warning: "+line)
		}
	}
	if v.Failed() {
		return errInputs
	}
	return gateError(rep.gated, o)
}

// writeOutput writes the view in its format to standard output or to
// the file --output names (see writeTo).
func writeOutput(stdout io.Writer, path string, rep *report, v *summarize.View) error {
	return writeTo(stdout, path, rep.format, func(w io.Writer) error {
		if rep.stream != nil {
			return rep.stream.Write(w, v)
		}
		return rep.format.View.Render(w, v)
	})
}

// reportUnmatched warns of the --tool and --rule values no finding has,
// naming the closest the reports have.
func reportUnmatched(w io.Writer, un []pipeline.Unmatched) {
	for _, u := range un {
		msg := fmt.Sprintf("recap: warning: --%s %s matches no finding of the inputs", u.What, render.InertLine(u.Name))
		if u.Where != "" {
			msg = fmt.Sprintf("recap: warning: %s: %s matches no finding of the inputs", render.InertLine(u.Where), render.InertLine(u.Name))
		}
		if len(u.Closest) > 0 {
			msg += "; closest: " + render.InertLine(strings.Join(u.Closest, ", "))
		}
		fmt.Fprintln(w, msg)
	}
}

// reportInputs writes the inputs' errors and warnings on stderr, where CI
// shows them whatever the format of the output (which may hold them too);
// the warnings only when asked.
func reportInputs(w io.Writer, v *summarize.View, warnings bool) {
	if warnings {
		for _, line := range inputWarnings(v) {
			fmt.Fprintln(w, line)
		}
	}
	for _, in := range v.Inputs {
		if in.Error != "" {
			fmt.Fprintf(w, "recap: %s\n", render.InertLine(in.Error))
		}
	}
}

// inputWarnings are the lines of the inputs' warnings on stderr.
func inputWarnings(v *summarize.View) []string {
	var lines []string
	for _, in := range v.Inputs {
		for _, warn := range in.Warnings {
			lines = append(lines, fmt.Sprintf("recap: warning: %s: %s", render.InertLine(in.Path), render.InertLine(warn)))
		}
	}
	return lines
}

func tokensName(name string) bool {
	for _, n := range tokens.Names() {
		if n == name {
			return true
		}
	}
	return false
}

// revSource opens the repository at root and serves revision rev's files.
func revSource(root, rev string) (summarize.Source, error) {
	repo, err := openRepo(root)
	if err != nil {
		return nil, usageError("--rev: %v", err)
	}
	open, err := repo.OpenAt(rev)
	if err != nil {
		return nil, usageError("--rev: %v", err)
	}
	return &summarize.FileSource{Open: open}, nil
}

// noteEditedSince notes, of each finding of the page whose context is its
// file's lines in the working tree (root), when the file changed after
// its report was written and is not committed: the lines are today's,
// and the tool may have read other code at the finding's line (lines
// added above it since).
func noteEditedSince(v *summarize.View, root string) {
	if len(v.Findings) == 0 {
		return
	}
	e, done := editedSinceAt(root, v.Inputs)
	if e == nil {
		return
	}
	defer done()
	for i := range v.Findings {
		if fv := &v.Findings[i]; len(fv.Context) > 0 && fv.ContextNote == "" {
			if why := e.why(&fv.Finding); why != "" {
				fv.ContextNote = summarize.EditedSinceNote(why)
			}
		}
	}
}

// maxOlderAsked bounds the decisions that matched no finding whose files
// unmatchedOlder looks at.
const maxOlderAsked = 64

// unmatchedOlder says why the reports look older than the code of a
// decision of m that matched no finding (its file, under root, changed
// after the report of its tool among inputs was written: not committed,
// in a commit since, or by a stash), of the first such one; "" when none
// does (of the first maxOlderAsked).
func unmatchedOlder(m *triage.Matcher, root string, inputs []reports.Input) string {
	type asked struct{ tool, path string }
	var list []asked
	m.Unmatched(func(e *triage.Entry, path string) bool {
		if len(list) < maxOlderAsked {
			list = append(list, asked{e.Tool, path})
		}
		return false
	})
	if len(list) == 0 {
		return ""
	}
	e, done := editedSinceAt(root, inputs)
	if e == nil {
		return ""
	}
	defer done()
	for _, a := range list {
		if why := e.why(&reports.Finding{Tool: a.tool, Path: a.path}); why != "" {
			return why
		}
	}
	return ""
}

// editedSinceAt is an editedSince of the inputs over the working tree at
// root, which judges files changed by a commit since too; done lets the
// tree go. It is nil when root cannot be opened.
func editedSinceAt(root string, inputs []reports.Input) (e *editedSince, done func()) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, nil
	}
	croot, err := content.OpenRoot(abs)
	if err != nil {
		return nil, nil
	}
	var repo *diff.Repo
	opened := false
	e = newEditedSinceOf(abs, croot.Stat, func() *diff.Repo {
		if !opened {
			opened = true
			repo, _ = diff.Open(abs)
		}
		return repo
	}, inputs)
	e.committed = true // a file changed by a commit since the report is judged too
	return e, func() { croot.Close() }
}

// staleJudge tells, as an HTML page streams the findings by with their
// code from the working tree (root), those whose file changed after
// their report was written: the reports are known from the reading
// (parsers.ReadOptions.Tagged), before any finding.
type staleJudge struct {
	root string
	mu   sync.Mutex
	e    *editedSince // of the reports of the first pass; nil before it, or when root cannot be opened
	done func()
	// The last finding's report and path, and what was said of them.
	lastTag, lastPath, lastWhy string
}

func (j *staleJudge) tagged(names, tags []string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.done != nil { // a later pass reads the same reports
		return
	}
	if j.e, j.done = editedSinceAt(j.root, nil); j.e == nil {
		j.done = func() {}
		return
	}
	for i := range names {
		j.e.addReport(names[i], tags[i], "")
	}
}

// why says why f's code, from the working tree, may not be what its
// report describes, "" when nothing says so.
func (j *staleJudge) why(f *reports.Finding) string {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.e == nil {
		return ""
	}
	if f.ID.Tag != j.lastTag || f.Path != j.lastPath { // a report lists a file's findings together
		j.lastTag, j.lastPath, j.lastWhy = f.ID.Tag, f.Path, j.e.why(f)
	}
	return j.lastWhy
}

func (j *staleJudge) close() {
	if j.done != nil {
		j.done()
	}
}
