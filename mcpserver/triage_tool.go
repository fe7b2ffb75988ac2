package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/config"
	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/triage"
)

// TriageAnswer is analysis.triage's answer: the entry proposed, as the
// triage file writes it, and whether the server wrote it there.
type TriageAnswer struct {
	// Entry is the decision, the finding named by tool, rule, path and
	// location fingerprint (docs/triage.md).
	Entry triage.Entry `json:"entry"`
	// YAML is the entry as an item of the file's entries list.
	YAML string `json:"yaml"`
	// File is the triage file, relative to the root.
	File string `json:"file"`
	// Written: the server wrote the entry to File (it was started with
	// --allow-triage-writes); Replaced: an entry of the same finding was
	// there, and this one took its place.
	Written  bool `json:"written"`
	Replaced bool `json:"replaced,omitempty"`
	// Unchanged: the file held this decision already; nothing was
	// written.
	Unchanged bool `json:"unchanged,omitempty"`
	// Next says what to do now: commit the file, or how to write it.
	Next string `json:"next"`
	// Disagrees says how the decision disagrees with the triage file's
	// decision on another finding of its problem, when it does: a
	// confirmation overrules the decisions that suppress, so one that
	// suppresses a confirmed problem hides nothing, and a confirmation
	// shows again a problem another decision hid.
	Disagrees string            `json:"disagrees,omitempty"`
	Omitted   []budget.Omission `json:"omitted,omitempty"`
	Tokens    *budget.TokenInfo `json:"tokens,omitempty"`

	full       triage.Entry // the entry before fitting
	yaml, next string
	short      bool // the first line says the state and what was done only
}

func (a *TriageAnswer) out() any { return a }

func (a *TriageAnswer) text() string {
	verb := "proposed (not written)"
	switch {
	case a.Written && a.Replaced:
		verb = "written to " + a.File + ", replacing the entry it had (next)"
	case a.Written:
		verb = "written to " + a.File
	case a.Unchanged:
		verb = "unchanged in " + a.File
	}
	if a.Disagrees != "" {
		verb += "; it disagrees with the decision on another finding of its problem (disagrees)"
	}
	b, _ := json.Marshal(a)
	if a.short { // the entry below names the finding
		return fmt.Sprintf("recap: %s %s", a.Entry.State, verb) + "\n" + string(b)
	}
	return fmt.Sprintf("recap: %s %s/%s at %s %s", a.Entry.State, a.Entry.Tool, reports.ShortRule(a.Entry.Tool, a.Entry.Rule), a.Entry.Path, verb) + "\n" + string(b)
}

// fit keeps the answer within budget: the entry always, its names whole
// (tool, rule, path, location, commit); the YAML text goes first (the
// entry says the same), then the entry's long texts are cut (the file
// written has them whole; a proposal, only with a larger budget), then
// to a few words, with what to do next said short.
func (a *TriageAnswer) fit(c budget.Counter, limit int) int {
	if a.yaml == "" {
		a.full, a.yaml, a.next = a.Entry, a.YAML, a.Next
	}
	whole := "cut here: raise maxTokens for the entry whole"
	if a.Written || a.Unchanged {
		whole = "cut here: the file has them whole"
	}
	a.Tokens = &budget.TokenInfo{}
	return budget.Fit(c, limit, budget.Plan{
		Parts: []budget.Part{{Kind: 0, Tokens: budget.Cost(c, a.text())}},
		Apply: func(_ []bool, level int) {
			a.Entry, a.YAML, a.Next, a.Omitted, a.short = a.full, a.yaml, a.next, nil, false
			if level >= 1 {
				a.YAML = ""
				a.Omitted = append(a.Omitted, budget.Omission{What: "the entry's YAML text: the entry is the same, raise maxTokens"})
			}
			if level >= 2 {
				cut := 60
				if level >= 3 {
					cut, a.short = 16, true
					a.Omitted = a.Omitted[:0]
					a.Next = a.shortNext()
				}
				e := &a.Entry
				for _, s := range []*string{&e.Message, &e.Line, &e.Reason, &e.Link, &e.By} {
					*s = text.CutRunes(*s, cut)
				}
				a.Omitted = append(a.Omitted, budget.Omission{What: "the end of the entry's long texts (message, line, reason, link, by): " + whole})
			}
		},
		Levels: 3,
		Render: a.text,
		Tokens: a.Tokens,
	})
}

// shortNext is what to do next, in a few words.
func (a *TriageAnswer) shortNext() string {
	switch {
	case a.Unchanged:
		return "Unchanged: commit " + a.File + "."
	case a.Written:
		return "Written: commit " + a.File + "."
	}
	return "Not written (a read-only server): add the entry to " + a.File + " and commit it."
}

// triagePath is the triage file the server writes, relative to the root.
func (s *Server) triagePath() string {
	if s.opts.TriageFile != "" {
		return s.opts.TriageFile
	}
	return s.triageRel()
}

func (s *Server) triageTool(ctx context.Context, in *TriageIn) (answer, error) {
	id := in.ID
	switch {
	case in.ID != "" && in.Fingerprint != "":
		return nil, toolErrorf(CodeBadArgument, "give id or fingerprint, not both")
	case in.Fingerprint != "":
		if !isFingerprint(in.Fingerprint) {
			return nil, toolErrorf(CodeBadArgument, "%q is not a fingerprint (16 hex digits, and :2, :3 … for the further findings of one identity in a report): take one from %s", cut(in.Fingerprint), s.name(ctx, ToolGetReports))
		}
		id = in.Fingerprint
	case id == "":
		return nil, toolErrorf(CodeBadArgument, "give a finding's id or its fingerprint, from %s", s.name(ctx, ToolGetReports))
	}
	state, err := triage.CheckDecision(in.State, in.Reason, in.Until, s.opts.Now())
	if err != nil {
		return nil, toolErrorf(CodeBadArgument, "%v", err)
	}
	// Each value as the file's reader checks it: an entry written is one
	// recap reads back.
	for _, v := range []struct{ key, value string }{{"reason", in.Reason}, {"by", strings.TrimSpace(in.By)}, {"link", in.Link}} {
		if v.value == "" && v.key != "reason" {
			continue
		}
		if err := triage.CheckValue(v.key, v.value); err != nil {
			return nil, toolErrorf(CodeBadArgument, "%s: %s", v.key, cut(err.Error()))
		}
	}
	release, err := s.coldRead(ctx)
	if err != nil {
		return nil, err
	}
	loc, err := s.locate(withTurn(ctx), id) // a parse it starts reads in its turn
	release()
	if err == nil {
		err = s.staleID(ctx, id, &loc)
	}
	if err != nil {
		return nil, err
	}
	f := loc.f
	why := s.editedSince(&f, loc.rel)
	if why != "" {
		why += ", not committed"
	} else {
		// Changed by a commit made after the report was written: the
		// report's line may hold other code as well.
		why = s.committedSince(&f, loc.rel, map[string]reportHead{})
	}
	if why != "" {
		return nil, toolErrorf(CodeNotFound, "%s (%s at %s:%d): %s: the line the report names may hold other code now, and the decision would be on that code: run the tools again, then call %s for current ids (nothing was written)",
			cut(id), reports.ShortRule(f.Tool, f.Rule), f.Path, f.Line, why, s.name(ctx, ToolGetReports))
	}
	cfg, _, err := s.config()
	if err != nil {
		return nil, err
	}
	cfg.Apply(&f)
	e, err := triage.EntryOf(&f, s.root.fs.FS())
	if err != nil {
		return nil, toolErrorf(CodeNotFound, "%s (%s at %s:%d): %v: run the tools again, then call %s for current ids (nothing was written)", cut(id), reports.ShortRule(f.Tool, f.Rule), f.Path, f.Line, err, s.name(ctx, ToolGetReports))
	}
	e.State, e.Reason, e.Until, e.Link = state, strings.TrimSpace(in.Reason), in.Until, in.Link
	e.By = strings.TrimSpace(in.By)
	if e.By == "" {
		e.By = clientName(ctx)
		if triage.CheckValue("by", e.By) != nil {
			e.By = "" // a client's name recap cannot write
		}
	}
	e.Date = s.opts.Now().UTC().Format(triage.DateLayout)
	e.Commit = s.root.head()
	if err := e.Check(); err != nil {
		return nil, toolErrorf(CodeBadArgument, "%s (%s at %s:%d): its entry cannot be kept in the triage file (%v): nothing was written", cut(id), cut(reports.ShortRule(f.Tool, f.Rule)), cut(f.Path), f.Line, cut(err.Error()))
	}
	a := &TriageAnswer{Entry: e, File: s.triagePath()}
	if a.YAML, err = triage.EntriesYAML(e); err != nil {
		return nil, err
	}
	// Findings of its rule and message on its line are one line to an
	// entry: the decision covers them too.
	also := ""
	if n := s.sameLine(ctx, &f); n > 0 {
		also = fmt.Sprintf(" It covers %s of its rule and message on that line too: a decision tells findings apart by their line, not their column.",
			english.Plural(n, "other finding", "other findings"))
	}
	a.Disagrees = s.disagreement(ctx, cfg, &f, state)
	again, why := s.decidedAgain(ctx, &f, cfg, e.Key()), ""
	if again != "" {
		why = "that covered it from another path (its file renamed since, or its class with it)"
	} else {
		again, why = s.changedEntry(ctx, &f, cfg, e.Key())
	}
	if !s.opts.AllowTriageWrites {
		a.Next = fmt.Sprintf("Not written: the server is read-only (start it with recap mcp --allow-triage-writes to let it write %s). "+
			"To keep the decision, add the entry under entries: in %s and commit it, or run recap triage %s --as %s --reason \"…\".", a.File, a.File, f.Fingerprint, state) + also
		if why != "" {
			a.Next += " It would replace the entry of this finding " + why + ": remove that entry when adding this one (recap triage replaces it)."
		}
		return a, nil
	}
	other := s.coveredElsewhere(ctx, &f, cfg, e.Key())
	kept, changed := false, false
	if a.Replaced, kept, changed, err = s.writeTriage(a.File, e, other, again); err != nil {
		return nil, err
	}
	if !changed {
		a.Unchanged = true
		a.Next = fmt.Sprintf("Unchanged: %s holds this decision already (nothing was written); commit it if it is not yet, so that every door (the command line, CI, the review, this server) honours the decision.", a.File) + also
		return a, nil
	}
	a.Written = true
	a.Next = fmt.Sprintf("Written to %s: commit it, so that every door (the command line, CI, the review, this server) honours the decision.", a.File) + also
	if why != "" && a.Replaced {
		a.Next += " It replaces the entry of this finding " + why + "."
	}
	if kept {
		a.Next += fmt.Sprintf(" The entry that covered %s at %s:%d (the decided code, a copy of which was pasted above it) was kept, anchored where that finding is now.", other.ID, other.Path, other.Line)
	}
	return a, nil
}

// disagreement says how a decision of state st on f disagrees with the
// triage file's decision on another finding of f's problem (the one that
// marks the problem, as analysis.getReports groups it); "" when it does
// not, or cannot be told.
func (s *Server) disagreement(ctx context.Context, cfg *config.Config, f *reports.Finding, st triage.State) string {
	if m, _, err := s.triage(); err != nil || m == nil || m.Len() == 0 {
		return "" // no decision to disagree with
	}
	c, ok := s.coveringDecision(ctx, cfg, f)
	if !ok || c == nil || c.Via.IsZero() || c.Via == f.ID || c.Expired {
		return ""
	}
	other := c.Via.String()
	if c.Of.Tool != "" {
		other = fmt.Sprintf("%s (%s %s)", other, c.Of.Tool, reports.ShortRule(c.Of.Tool, c.Of.Rule))
	}
	reason := text.CutRunes(strings.Join(strings.Fields(c.Reason), " "), 100)
	switch {
	case st.Suppresses() && c.State == string(triage.Confirmed):
		return fmt.Sprintf("%s reports the same problem and is decided confirmed (%q): a confirmation overrules a decision that suppresses, so the problem stays shown, marked confirmed; to hide it, decide %s again (analysis.triage), or remove its entry.", other, reason, c.Via)
	case st == triage.Confirmed && c.Suppressed():
		return fmt.Sprintf("%s reports the same problem and is decided %s (%q): this confirmation overrules that decision, so the problem is shown, marked confirmed; if the %s stands, decide %s as %s instead.", other, c.State, reason, c.State, f.ID, c.State)
	}
	return ""
}

// sameLine counts the other findings of f's report of its tool, rule,
// path, line and message (white space folded): an entry does not tell
// them from f. 0 when the report is not held.
func (s *Server) sameLine(ctx context.Context, f *reports.Finding) int {
	if f.Line < 1 || f.ID.IsZero() {
		return 0
	}
	_, r, err := s.reportByTag(ctx, f.ID.Tag)
	if err != nil || r == nil {
		return 0
	}
	defer s.cache.unpin(r)
	msg, n := strings.Join(strings.Fields(f.Message), " "), 0
	for i := range r.n {
		x := r.finding(i)
		if x.Line == f.Line && x.Path == f.Path && x.Tool == f.Tool && x.Rule == f.Rule && x.ID != f.ID && strings.Join(strings.Fields(x.Message), " ") == msg {
			n++
		}
	}
	return n
}

// coveredElsewhere returns the finding of f's report, of its tool, rule
// and path, that the triage file's entry of key k covers now when that is
// not f: the decided code, whose occurrence a copy pasted above it (f)
// took. nil when there is none, or the report is not held.
func (s *Server) coveredElsewhere(ctx context.Context, f *reports.Finding, cfg *config.Config, k string) *reports.Finding {
	m, _, err := s.triage()
	if err != nil || m == nil || f.ID.IsZero() {
		return nil
	}
	if d := m.Decide(f); d != nil && d.Entry.Key() == k {
		return nil // f's own entry: decided again
	}
	_, r, err := s.reportByTag(ctx, f.ID.Tag)
	if err != nil || r == nil {
		return nil
	}
	defer s.cache.unpin(r)
	for i := range r.n {
		x := r.finding(i)
		if x.Path != f.Path || x.Tool != f.Tool || x.Rule != f.Rule || x.ID == f.ID {
			continue
		}
		cfg.Apply(&x)
		if d := m.Decide(&x); d != nil && d.Entry.Key() == k {
			return &x
		}
	}
	return nil
}

// decidedAgain returns the key of the entry that covers f now under
// another key than k (f's file renamed since the decision, its class
// with it) when it covers no other finding of f's report: the decision
// on f replaces it, as recap triage's does. "" when there is none.
func (s *Server) decidedAgain(ctx context.Context, f *reports.Finding, cfg *config.Config, k string) string {
	m, _, err := s.triage()
	if err != nil || m == nil || f.ID.IsZero() {
		return ""
	}
	d := m.Decide(f)
	if d == nil || d.Entry.Key() == k {
		return ""
	}
	old := d.Entry.Key()
	_, r, err := s.reportByTag(ctx, f.ID.Tag)
	if err != nil || r == nil {
		return ""
	}
	defer s.cache.unpin(r)
	for i := range r.n {
		x := r.finding(i)
		if x.Tool != f.Tool || x.Rule != f.Rule || x.ID == f.ID {
			continue
		}
		cfg.Apply(&x)
		if d := m.Decide(&x); d != nil && d.Entry.Key() == old {
			return "" // it covers another finding too: it stays
		}
	}
	return old
}

// changedEntry returns the key of the entry that recap triage check calls
// changed for f (its finding's message changed since, or its decided
// line was edited and f is on the line git says took its place), and
// why, when that key is not k: the decision on f replaces it, as recap
// triage's does. "" when there is none (or f's report is not held).
func (s *Server) changedEntry(ctx context.Context, f *reports.Finding, cfg *config.Config, k string) (key, why string) {
	l, err := s.triageFile()
	if l == nil || err != nil || f.ID.IsZero() {
		return "", ""
	}
	m := s.matcherOf(l, true)
	_, r, err := s.reportByTag(ctx, f.ID.Tag)
	if err != nil || r == nil {
		return "", ""
	}
	defer s.cache.unpin(r)
	// The findings of f's file in its report, each decided: what the
	// entries of that file match, and which finding an unmatched one's
	// decided line now holds.
	for i := range r.n {
		x := r.finding(i)
		if x.Path != f.Path || x.Tool != f.Tool {
			continue
		}
		cfg.Apply(&x)
		m.Decide(&x)
	}
	for _, st := range m.Statuses() {
		c := st.Changed
		if c == nil || c.ID != f.ID || st.Entry.Key() == k {
			continue
		}
		decided := fmt.Sprintf("decided %s: %q", st.Entry.State, text.CutRunes(strings.Join(strings.Fields(st.Entry.Reason), " "), 60))
		if by := st.Entry.By; by != "" {
			decided += " by " + text.CutRunes(by, 60)
		}
		if st.Entry.Date != "" {
			decided += " on " + st.Entry.Date
		}
		why = fmt.Sprintf("whose message changed since (the message was %q; %s)", text.CutRunes(st.Entry.Message, 80), decided)
		if c.Code != "" {
			why = fmt.Sprintf("whose decided line was edited since (the line was %q; %s)", text.CutRunes(st.Entry.Line, 80), decided)
		}
		return st.Entry.Key(), why
	}
	return "", ""
}

// writeTriage puts e in the triage file at name under the root, as one of
// several writers: the file is read again under the lock, e put in it
// (replacing the entry of the same finding, and the entry of key again
// that covered it under another key), and written whole through a
// temporary file renamed over it. It reports whether e replaced an entry,
// and whether the file changed (the same decision again leaves it as it
// is, unwritten). An entry of e's key that covers another finding now
// (other: the decided code, a copy of which e decides) is kept, anchored
// where other is (kept).
func (s *Server) writeTriage(name string, e triage.Entry, other *reports.Finding, again string) (replaced, kept, changed bool, err error) {
	// A link to a file inside the root stays, its target written; never a
	// file in .git.
	to, err := triage.WriteTarget(s.root.dir, name)
	if err != nil {
		return false, false, false, toolErrorf(CodeOutsideRoot, "the triage file %v: nothing was written", err)
	}
	err = s.root.fs.Update(to, func(old []byte) ([]byte, error) {
		tf, err := triage.Parse(name, old)
		if err != nil {
			return nil, toolErrorf(CodeParseError, "the triage file %v: fix it, then call again (nothing was written)", err)
		}
		gone := again != "" && len(tf.Remove(func(x *triage.Entry) bool { return x.Key() == again })) > 0
		_, had := tf.Get(e.Key())
		changed, kept = tf.PutBeside(e, other, s.root.fs.FS())
		changed = changed || kept || gone
		if !changed {
			return old, nil // Update writes nothing
		}
		replaced = had && !kept || gone
		b, err := tf.Marshal()
		if err != nil { // over the bounds recap reads
			return nil, toolErrorf(CodeTooLarge, "the triage file %s: %v", name, err)
		}
		return b, nil
	})
	var te *ToolError
	switch {
	case err == nil || errors.As(err, &te):
		return replaced, kept, changed, err
	case errors.Is(err, content.ErrOutside), errors.Is(err, content.ErrLinkOutside):
		return false, false, false, toolErrorf(CodeOutsideRoot, "the triage file %s %s %s: nothing was written", name, s.root.fs.LinkOutside(name, "the root"), s.root.dir)
	case errors.Is(err, content.ErrNotRegular):
		return false, false, false, s.notRegular(to)
	case errors.Is(err, content.ErrLocked):
		return false, false, false, toolErrorf(CodeBusy, "the triage file %s is being written by another writer for more than %s: call again", name, content.LockWait)
	case errors.Is(err, fs.ErrPermission):
		return false, false, false, toolErrorf(CodeBadArgument, "the triage file %s cannot be written (%v): nothing was written", name, err)
	}
	return false, false, false, fmt.Errorf("writing the triage file %s: %w", name, err)
}

type clientKey struct{}

// withClient records in ctx the name the call's client gave at initialize.
func withClient(ctx context.Context, ss *mcp.ServerSession) context.Context {
	if ss == nil {
		return ctx
	}
	if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil {
		return context.WithValue(ctx, clientKey{}, text.CutRunes(strings.TrimSpace(p.ClientInfo.Name), 100))
	}
	return ctx
}

// clientName is the name the call's client gave ("" when none).
func clientName(ctx context.Context) string {
	n, _ := ctx.Value(clientKey{}).(string)
	return n
}

// head is the hash of the commit the root's repository has checked out,
// "" without a repository: the commit a decision is taken on, from which
// the matcher follows renames.
func (r *root) head() string {
	if r.repo == nil {
		return ""
	}
	rp, err := r.repo.Reopen()
	if err != nil {
		return ""
	}
	c, err := rp.Commit("HEAD")
	if err != nil {
		return ""
	}
	return c.Hash.String()
}

// editedSince says why f's line in its file may not be the code its
// report (rel) describes: the file was edited after the report was
// written, and not committed (lines added above it move its code). ""
// when nothing says so; a file as HEAD has it is not judged (a checkout
// writes reports and code in no set order).
func (s *Server) editedSince(f *reports.Finding, rel string) string {
	if f.Path == "" || f.Line < 1 || rel == "" {
		return ""
	}
	rs, err := s.root.fs.Stat(rel)
	if err != nil {
		return ""
	}
	st, err := s.root.fs.Stat(f.Path)
	if err != nil || !st.ModTime().After(rs.ModTime()) {
		return ""
	}
	var repo *diff.Repo
	if s.root.repo != nil {
		repo, _ = s.root.repo.Reopen() // HEAD as it is now
	}
	if !triage.EditedSince(repo, s.root.dir, f.Path, st, rs.ModTime()) {
		return ""
	}
	return fmt.Sprintf("%s changed after %s was written", f.Path, rel)
}

// reportHead is what committedSince knows of a report: the commit HEAD
// was at when it was written, and whether it is in HEAD as it is.
type reportHead struct {
	then       string
	checkedOut bool
}

// committedSince says, of a finding whose file is as HEAD has it, when a
// commit made after its report (rel) was written changed the file: HEAD
// then (by its reflog, else the commits' times; heads keeps it by report)
// holds it otherwise; or when a stash made since holds it otherwise (the
// report described the work git stash took away). "" when nothing says
// so: no git, a file older than the report, or as it was then.
func (s *Server) committedSince(f *reports.Finding, rel string, heads map[string]reportHead) string {
	if f.Path == "" || rel == "" || s.root.repo == nil {
		return ""
	}
	rs, err := s.root.fs.Stat(rel)
	if err != nil {
		return ""
	}
	st, err := s.root.fs.Stat(f.Path)
	if err != nil || !st.ModTime().After(rs.ModTime()) {
		return ""
	}
	repo, err := s.root.repo.Reopen() // HEAD as it is now
	if err != nil {
		return ""
	}
	defer repo.Close()
	h, ok := heads[rel]
	if !ok {
		h.then, _ = repo.HeadAt(rs.ModTime(), 2000)
		// A report in HEAD as it is may have been written by a checkout,
		// with the code (triage.CommittedSince).
		top, err := filepath.Rel(repo.Root, filepath.Join(s.root.dir, filepath.FromSlash(rel)))
		h.checkedOut = err == nil && filepath.IsLocal(top) && repo.Unchanged(filepath.ToSlash(top))
		heads[rel] = h
	}
	if triage.StashedSince(repo, s.root.dir, f.Path, st, rs.ModTime()) {
		return fmt.Sprintf("%s changed after %s was written (stashed since)", f.Path, rel)
	}
	if !triage.CommittedSince(repo, s.root.dir, f.Path, st, rs.ModTime(), h.then, h.checkedOut) {
		return ""
	}
	return fmt.Sprintf("%s changed after %s was written (committed since)", f.Path, rel)
}
