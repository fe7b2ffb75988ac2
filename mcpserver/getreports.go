package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/render"
)

// reportsAnswer is analysis.getReports' answer: the findings view.
type reportsAnswer struct{ v *summarize.View }

func (a *reportsAnswer) fit(c budget.Counter, limit int) int {
	return summarize.Fit(a.v, c, limit, reportsLayout{})
}
func (a *reportsAnswer) text() string { return reportsLayout{}.View(a.v) }
func (a *reportsAnswer) out() any     { return a.v }

// reportsLayout renders a view as the tool sends it: a line, then the JSON.
type reportsLayout struct{ render.JSON }

func (l reportsLayout) View(v *summarize.View) string {
	return reportsLine(v) + "\n" + strings.TrimSuffix(l.JSON.View(v), "\n")
}

// reportsLine is the answer in one line: the counts, the page, the buffer.
func reportsLine(v *summarize.View) string {
	s := &v.Summary
	var b strings.Builder
	fmt.Fprintf(&b, "recap: %d findings (%d error, %d warning, %d note) in %d files from %d reports",
		s.Total, s.BySeverity.Error, s.BySeverity.Warning, s.BySeverity.Note, s.Files, len(v.Inputs))
	failed := 0
	for _, in := range v.Inputs {
		if in.Error != "" {
			failed++
		}
	}
	if failed > 0 {
		fmt.Fprintf(&b, ", %d not read (see inputs[].error)", failed)
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
		fmt.Fprintf(&b, "; %d left out (see omitted)", len(v.Omitted))
	}
	return b.String()
}

// hasQuery reports whether the call names reports or filters, which a
// bufferId fixes.
func (in *GetReportsIn) hasQuery() bool {
	return len(in.Reports)+len(in.Types)+len(in.Categories)+len(in.Tools)+len(in.Rules)+len(in.Paths)+len(in.Baseline)+len(in.CWE) > 0 ||
		in.Severity != "" || in.Grep != "" || in.ChangedSince != "" || (in.FilterMode != "" && in.FilterMode != string(pipeline.Added)) ||
		in.NewOnly || in.SecurityOnly
}

func (s *Server) getReports(ctx context.Context, in *GetReportsIn) (answer, error) {
	if in.Limit == 0 {
		in.Limit = summarize.DefaultLimit
	}
	page := pipeline.Page{Offset: in.Offset, Limit: in.Limit}
	if err := page.Check(); err != nil {
		return nil, toolErrorf(CodeBadArgument, "%v", err)
	}
	var b *buffer
	if in.BufferID != "" {
		if in.hasQuery() {
			return nil, toolErrorf(CodeBadArgument, "bufferId %s pages an earlier result, whose reports and filters stay: drop bufferId to change them, or drop the other arguments to page", in.BufferID)
		}
		if b = s.buffers.getFor(in.BufferID, sessionName(ctx)); b == nil {
			return nil, toolErrorf(CodeNotFound, "bufferId %s is unknown or expired (buffers live %s without use): call again without bufferId, with the same filters", in.BufferID, s.opts.BufferTTL)
		}
	} else {
		var err error
		if b, err = s.query(ctx, in); err != nil {
			return nil, err
		}
	}
	v := &summarize.View{Summary: b.summary, Inputs: make([]reports.Input, len(b.inputs)), BufferID: b.id}
	copy(v.Inputs, b.inputs)
	if !in.SummaryOnly {
		from := min(in.Offset, len(b.refs))
		to := min(from+in.Limit, len(b.refs))
		src := &summarize.FileSource{Open: s.root.open}
		v.Findings = make([]summarize.FindingView, 0, to-from)
		for _, r := range b.refs[from:to] {
			fv := summarize.FindingView{Finding: *b.finding(r)}
			fv.Baseline = r.baseline()
			fv.Snippet = "" // the context shows the code; getFinding shows the snippet
			if in.Context == nil || *in.Context {
				summarize.AddContext(&fv, src)
			}
			v.Findings = append(v.Findings, fv)
		}
		v.Page = summarize.NewPage(in.Offset, in.Limit, len(v.Findings), len(b.refs))
	}
	return &reportsAnswer{v: v}, nil
}

// query reads the reports a call names (or finds them) and runs the
// pipeline on them, and returns the result's buffer: a live one for the same
// query on unchanged reports, else a new one.
func (s *Server) query(ctx context.Context, in *GetReportsIn) (*buffer, error) {
	q := pipeline.Query{Filter: reports.Filter{Categories: in.Categories, Tools: in.Tools, Rules: in.Rules, Paths: in.Paths, Grep: in.Grep,
		Security: in.SecurityOnly}}
	for _, c := range in.CWE {
		id, err := reports.ParseCWE(c)
		if err != nil {
			return nil, toolErrorf(CodeBadArgument, "cwe: %v", err)
		}
		q.Filter.CWE = append(q.Filter.CWE, id)
	}
	if in.Severity != "" {
		sev, err := reports.ParseSeverity(in.Severity)
		if err != nil {
			return nil, toolErrorf(CodeBadArgument, "severity: %v", err)
		}
		q.Filter.MinSeverity = sev
	}
	if err := q.Filter.Compile(); err != nil {
		return nil, toolErrorf(CodeBadArgument, "paths: %v", err)
	}
	if in.NewOnly && len(in.Baseline) == 0 {
		return nil, toolErrorf(CodeBadArgument, "newOnly compares with a baseline: give baseline (the paths of an earlier run's reports)")
	}
	files, err := s.reportFiles(in)
	if err != nil {
		return nil, err
	}
	var baseFiles []file
	if len(in.Baseline) > 0 {
		if baseFiles, err = s.root.expand(in.Baseline, true); err != nil {
			return nil, err
		}
	}
	key := ""
	mode, err := pipeline.ParseFilterMode(in.FilterMode)
	if err != nil {
		return nil, toolErrorf(CodeBadArgument, "filterMode: %v", err)
	}
	if in.ChangedSince == "" && mode != pipeline.Added {
		return nil, toolErrorf(CodeBadArgument, "filterMode chooses the lines of changedSince: give changedSince (a revision, for example main)")
	}
	if in.ChangedSince != "" {
		q.Changes = &pipeline.Changes{Root: s.root.dir, Since: in.ChangedSince, Mode: mode}
	} else {
		key = sessionName(ctx) + "\x00" + queryKey(in, files, baseFiles) // a session reuses its own buffers only
		if b := s.buffers.lookup(key); b != nil {
			return b, nil
		}
	}
	reps, err := s.readAll(ctx, files)
	if err != nil {
		return nil, err
	}
	failed := 0
	var msgs []string
	for _, r := range reps {
		if r.input.Error != "" && r.n == 0 {
			failed++
			msgs = append(msgs, r.input.Error)
		}
	}
	if failed == len(reps) {
		return nil, toolErrorf(CodeParseError, "no report could be read: %s. Check that each is a complete %s report", strings.Join(msgs, "; "), parsers.FormatTitles("or"))
	}
	if len(baseFiles) > 0 {
		baseReps, err := s.readAll(ctx, baseFiles)
		if err != nil {
			return nil, err
		}
		q.Baseline, q.NewOnly = &cached{reps: baseReps}, in.NewOnly
	}
	src := &cached{reps: reps}
	b := &buffer{reports: reps, key: key, owner: sessionName(ctx)}
	q.Reports = src
	q.Keep.Each = func(_ *reports.Finding, state string) error {
		b.refs = append(b.refs, ref{report: src.at.report, index: src.at.index, state: stateOf(state)})
		return nil
	}
	res, err := pipeline.Run(ctx, &q)
	if err != nil {
		return nil, queryError(err)
	}
	b.summary, b.inputs = res.View.Summary, res.View.Inputs
	b.sort()
	s.buffers.put(b)
	return b, nil
}

// reportFiles are the reports a call names, or those under the root, of
// the types it asks for.
func (s *Server) reportFiles(in *GetReportsIn) ([]file, error) {
	formats := map[parsers.Format]bool{}
	for _, t := range in.Types {
		f, err := parsers.ParseFormat(t)
		if err != nil {
			return nil, toolErrorf(CodeBadArgument, "types: %v", err)
		}
		formats[f] = true
	}
	var files []file
	var err error
	if len(in.Reports) > 0 {
		files, err = s.root.expand(in.Reports, true)
	} else {
		files, err = s.root.discover(s.root.dir)
		if err == nil && len(files) == 0 {
			err = toolErrorf(CodeNotFound, "no %s report under the root %s: run the analysis first (PMD: --format sarif; Checkstyle: -f xml; SpotBugs: -xml), or give reports", parsers.FormatTitles("or"), s.root.dir)
		}
	}
	if err != nil || len(formats) == 0 {
		return files, err
	}
	kept := files[:0]
	for _, f := range files {
		if format, ok := s.root.sniff(f); ok && formats[format] {
			kept = append(kept, f)
		}
	}
	if len(kept) == 0 {
		return nil, toolErrorf(CodeNotFound, "none of the %d reports is of the types %s: drop types, or give other reports", len(files), strings.Join(in.Types, ", "))
	}
	return kept, nil
}

// queryKey identifies a query on reports as they are on disk, so that the
// same query again reuses its buffer.
func queryKey(in *GetReportsIn, files, baseline []file) string {
	k := struct {
		Files, Baseline                      [][3]any
		Categories, Tools, Rules, Paths, CWE []string
		Severity, Grep                       string
		NewOnly, SecurityOnly                bool
	}{Categories: in.Categories, Tools: in.Tools, Rules: in.Rules, Paths: in.Paths, CWE: in.CWE, Severity: in.Severity, Grep: in.Grep,
		NewOnly: in.NewOnly, SecurityOnly: in.SecurityOnly}
	for _, f := range files {
		k.Files = append(k.Files, [3]any{f.abs, f.info.Size(), f.info.ModTime().UnixNano()})
	}
	for _, f := range baseline {
		k.Baseline = append(k.Baseline, [3]any{f.abs, f.info.Size(), f.info.ModTime().UnixNano()})
	}
	raw, _ := json.Marshal(k)
	return string(raw)
}

// readAll returns the reports at files, parsed now or before.
func (s *Server) readAll(ctx context.Context, files []file) ([]*report, error) {
	reps := make([]*report, len(files))
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, parsed, err := s.cache.get(ctx, f, s.root.dir, "")
		if err != nil {
			return nil, err
		}
		if parsed {
			s.stats.parsedOne()
		}
		reps[i] = r
	}
	return reps, nil
}

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
// revision, the history of a shallow clone, a repository, a merge base) is
// NOT_FOUND, anything else a bad argument.
func gitError(arg string, err error) error {
	code := CodeBadArgument
	for _, kind := range []error{diff.ErrUnknownRevision, diff.ErrShallow, diff.ErrNotRepository, diff.ErrNoMergeBase} {
		if errors.Is(err, kind) {
			code = CodeNotFound
		}
	}
	return toolErrorf(code, "%s: %s", arg, err)
}
