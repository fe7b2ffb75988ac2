package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/render"
)

// reportsAnswer is analysis.getReports' answer: the view of SPEC §6.
type reportsAnswer struct {
	v    *summarize.View
	orig summarize.View // before fitting: each fit starts from it
}

func newReportsAnswer(v *summarize.View) *reportsAnswer {
	return &reportsAnswer{v: v, orig: *v}
}

func (a *reportsAnswer) fit(c summarize.Counter, budget int) {
	v := a.orig
	v.Inputs = slices.Clone(v.Inputs)
	v.Findings = slices.Clone(v.Findings)
	v.Omitted = slices.Clone(v.Omitted)
	v.Summary.ByTool = maps.Clone(v.Summary.ByTool)
	if v.Page != nil {
		p := *v.Page
		v.Page = &p
	}
	*a.v = v
	summarize.Fit(a.v, c, budget, reportsLayout{})
}
func (a *reportsAnswer) measured() int { return a.v.Tokens.Estimated }
func (a *reportsAnswer) text() string  { return reportsLayout{}.View(a.v) }
func (a *reportsAnswer) out() any      { return a.v }

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
	return len(in.Reports)+len(in.Types)+len(in.Categories)+len(in.Tools)+len(in.Rules)+len(in.Paths) > 0 ||
		in.Severity != "" || in.Grep != "" || in.ChangedSince != ""
}

func (s *Server) getReports(ctx context.Context, in *GetReportsIn) (answer, error) {
	if in.Limit == 0 {
		in.Limit = summarize.DefaultLimit
	}
	if in.Limit < 1 || in.Limit > summarize.MaxLimit || in.Offset < 0 {
		return nil, toolErrorf(CodeBadArgument, "limit must be 1 to %d and offset not negative", summarize.MaxLimit)
	}
	var b *buffer
	if in.BufferID != "" {
		if in.hasQuery() {
			return nil, toolErrorf(CodeBadArgument, "bufferId %s pages an earlier result, whose reports and filters stay: drop bufferId to change them, or drop the other arguments to page", in.BufferID)
		}
		if b = s.buffers.get(in.BufferID); b == nil {
			return nil, toolErrorf(CodeNotFound, "bufferId %s is unknown or expired (buffers live %s without use): call again without bufferId, with the same filters", in.BufferID, s.opts.BufferTTL)
		}
	} else {
		var err error
		if b, err = s.query(ctx, in); err != nil {
			return nil, err
		}
	}
	v := &summarize.View{Summary: b.summary, Inputs: make([]summarize.InputStatus, len(b.inputs)), BufferID: b.id}
	copy(v.Inputs, b.inputs)
	if !in.SummaryOnly {
		from := min(in.Offset, len(b.refs))
		to := min(from+in.Limit, len(b.refs))
		src := &summarize.FileSource{Open: s.root.open}
		v.Findings = make([]summarize.FindingView, 0, to-from)
		for _, r := range b.refs[from:to] {
			fv := summarize.FindingView{Finding: *b.finding(r)}
			fv.Snippet = "" // the context shows the code; getFinding shows the snippet
			if in.Context == nil || *in.Context {
				summarize.AddContext(&fv, src)
			}
			v.Findings = append(v.Findings, fv)
		}
		v.Page = &summarize.Page{Offset: in.Offset, Limit: in.Limit, Returned: len(v.Findings), Total: len(b.refs)}
		if to < len(b.refs) {
			v.Page.NextOffset = &to
		}
	}
	return newReportsAnswer(v), nil
}

// query reads the reports a call names (or finds them), filters their
// findings, and returns the result's buffer: a live one for the same query
// on unchanged reports, else a new one.
func (s *Server) query(ctx context.Context, in *GetReportsIn) (*buffer, error) {
	flt := &reports.Filter{Categories: in.Categories, Tools: in.Tools, Rules: in.Rules, Paths: in.Paths, Grep: in.Grep}
	if in.Severity != "" {
		sev, err := reports.ParseSeverity(in.Severity)
		if err != nil {
			return nil, toolErrorf(CodeBadArgument, "severity: %v", err)
		}
		flt.MinSeverity = sev
	}
	if err := flt.Compile(); err != nil {
		return nil, toolErrorf(CodeBadArgument, "paths: %v", err)
	}
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
			err = toolErrorf(CodeNotFound, "no SARIF, SpotBugs, Checkstyle or PMD report under the root %s: run the analysis first (PMD: --format sarif; Checkstyle: -f xml; SpotBugs: -xml), or give reports", s.root.dir)
		}
	}
	if err != nil {
		return nil, err
	}
	if len(formats) > 0 {
		kept := files[:0]
		for _, f := range files {
			if format, ok := s.root.sniff(f); ok && formats[format] {
				kept = append(kept, f)
			}
		}
		if len(kept) == 0 {
			return nil, toolErrorf(CodeNotFound, "none of the %d reports is of the types %s: drop types, or give other reports", len(files), strings.Join(in.Types, ", "))
		}
		files = kept
	}

	keep := flt.Match
	key := ""
	if in.ChangedSince != "" {
		idx, err := s.changedSince(ctx, in.ChangedSince)
		if err != nil {
			return nil, err
		}
		keep = func(f reports.Finding) bool { return idx.Touches(f.Path, f.Line, f.EndLine) && flt.Match(f) }
	} else {
		k := struct {
			Files                           [][3]any
			Categories, Tools, Rules, Paths []string
			Severity, Grep                  string
		}{Categories: in.Categories, Tools: in.Tools, Rules: in.Rules, Paths: in.Paths, Severity: in.Severity, Grep: in.Grep}
		for _, f := range files {
			k.Files = append(k.Files, [3]any{f.abs, f.info.Size(), f.info.ModTime().UnixNano()})
		}
		raw, _ := json.Marshal(k)
		key = string(raw)
		if b := s.buffers.lookup(key); b != nil {
			return b, nil
		}
	}
	reps := make([]*report, len(files))
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, parsed := s.cache.get(f, s.root.dir, "")
		if parsed {
			s.stats.parsedOne()
		}
		reps[i] = r
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
		return nil, toolErrorf(CodeParseError, "no report could be read: %s. Check that each is a complete SARIF, SpotBugs, Checkstyle or PMD report", strings.Join(msgs, "; "))
	}
	b := buildBuffer(reps, func(f *reports.Finding) bool { return keep(*f) })
	b.key = key
	s.buffers.put(b)
	return b, nil
}

// changedSince indexes the lines changed since rev's merge base with HEAD
// (commits and the working tree), by paths relative to the root.
func (s *Server) changedSince(ctx context.Context, rev string) (*diff.Index, error) {
	repo, err := diff.Open(s.root.dir)
	if err != nil {
		return nil, gitError("changedSince", err)
	}
	repo.ChangedLines = true
	files, err := repo.WorkingTreeSince(ctx, rev)
	if err != nil {
		return nil, gitError("changedSince", err)
	}
	return diff.NewIndex(s.underRoot(repo, files)), nil
}

// underRoot keeps the files under the root when the repository's top level
// is above it, with paths relative to the root.
func (s *Server) underRoot(repo *diff.Repo, files []diff.File) []diff.File {
	top, err := filepath.EvalSymlinks(repo.Root)
	if err != nil {
		top = repo.Root
	}
	if rel, err := filepath.Rel(top, s.root.real); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		return diff.Under(files, filepath.ToSlash(rel))
	}
	return files
}

// gitError gives a repository error its code.
func gitError(arg string, err error) error {
	msg := err.Error()
	code := CodeBadArgument
	for _, s := range []string{"unknown revision", "not in this shallow clone", "not inside a git repository", "no merge base", "no common ancestor"} {
		if strings.Contains(msg, s) {
			code = CodeNotFound
		}
	}
	return toolErrorf(code, "%s: %s", arg, msg)
}
