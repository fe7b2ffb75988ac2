package mcpserver

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/recap-dev/recap/config"
	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/triage"
)

// Limits of getFinding's code snippet (docs/mcp.md).
const (
	snippetMaxLines  = 80
	snippetMaxTokens = 1200
	snippetRadius    = 10  // lines before and after the finding's lines
	snippetLineChars = 400 // characters of a line; longer ones are cut with …
)

// FindingAnswer is analysis.getFinding's answer.
type FindingAnswer struct {
	Finding reports.Finding `json:"finding"`
	// Excluded, when the repository's configuration leaves the finding
	// out, says so: which file and which of its keys; analysis.getReports
	// does not show it, and counts it in summary.excluded.
	Excluded string `json:"excluded,omitempty"`
	// Report is the report the finding comes from, relative to the root.
	Report string    `json:"report"`
	Rule   *RuleInfo `json:"rule,omitempty"`
	// Fix is the change the tool proposes, as a unified diff.
	Fix *FixInfo `json:"fix,omitempty"`
	// Flow is the steps of the finding's code flows, one flow after the
	// other, each step numbered with its flow when there are several (at
	// most reports.MaxFlows flows and reports.MaxFlowSteps steps;
	// finding.flowSteps counts them all), Related its
	// related locations, each with its line of code when the file is under
	// the root.
	Flow    []Step `json:"flow,omitempty"`
	Related []Step `json:"related,omitempty"`
	// Locations are the result's further locations: places the problem is
	// at too (at most reports.MaxLocations).
	Locations []Step `json:"locations,omitempty"`
	// Logical and Target are what the tool said of the finding's place:
	// its logical locations (beside its file, or without one), and the
	// artifact a finding without a file scanned.
	Logical []reports.LogicalLocation `json:"logical,omitempty"`
	Target  string                    `json:"target,omitempty"`
	// Problem, when other findings of the session's last analysis.getReports
	// report this finding's problem at its place: the id of the finding
	// that shows it (this one, or the one pages show instead) and the
	// others (docs/formats.md, "Duplicates").
	Problem *ProblemInfo `json:"problem,omitempty"`
	// Code is the source around the finding.
	Code    *Snippet          `json:"code,omitempty"`
	Omitted []budget.Omission `json:"omitted,omitempty"`
	Tokens  *budget.TokenInfo `json:"tokens,omitempty"`

	full    *Snippet  // the code before fitting
	msg     string    // the message before fitting
	snip    string    // the report's snippet before fitting
	snipAt  int32     // the line it starts at
	help    string    // the finding's help link before fitting
	rule    *RuleInfo // the rule before fitting
	fix     *FixInfo
	flow    []Step
	related []Step
	locs    []Step
	others  []reports.Also // the problem's other findings before fitting
	saved   bool
	short   bool // the line without place and message: the smallest budgets
}

// RuleInfo is what recap knows of a finding's rule, in the tool's own
// words, and how often the rule fires in the same report. What the finding
// says already (its tool and categories, its help link) is not repeated.
type RuleInfo struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	// ShortDescription and FullDescription say what the rule finds and why
	// it matters; Help how to fix it, as Markdown (the tool's).
	ShortDescription string  `json:"shortDescription,omitempty"`
	FullDescription  string  `json:"fullDescription,omitempty"`
	Help             string  `json:"help,omitempty"`
	HelpURI          string  `json:"helpUri,omitempty"`
	CWE              []int   `json:"cwe,omitempty"`
	SecuritySeverity float64 `json:"securitySeverity,omitempty"`
	Precision        string  `json:"precision,omitempty"`
	InReport         int     `json:"findingsInReport"`
}

// FixInfo is a fix as getFinding shows it: a unified diff against the
// files' current lines, and notes where they could not be read.
type FixInfo struct {
	Description string   `json:"description,omitempty"`
	Diff        string   `json:"diff"`
	Notes       []string `json:"notes,omitempty"`
}

// Step is a step of a code flow or a related location, with its line of
// code.
type Step struct {
	reports.Location
	// Flow numbers the step's code flow (1, 2, …) when the finding has
	// several, 0 otherwise.
	Flow int    `json:"flow,omitempty"`
	Code string `json:"code,omitempty"`
}

// Snippet is lines of a file around a finding.
type Snippet struct {
	Path  string                  `json:"path"`
	From  int                     `json:"from"`
	To    int                     `json:"to"`
	Lines []summarize.ContextLine `json:"lines"`
	Note  string                  `json:"note,omitempty"`
}

func (a *FindingAnswer) out() any { return a }

func (a *FindingAnswer) text() string {
	f := &a.Finding
	rule := reports.ShortRule(f.Tool, f.Rule) // the finding keeps the full id
	line := fmt.Sprintf("recap: %s %s %s/%s at %s:%d: %s", f.ID, f.Level(), f.Tool, rule, f.Path, f.Line, firstLine(f.Message, 80))
	if a.short {
		line = fmt.Sprintf("recap: %s %s %s/%s", f.ID, f.Level(), f.Tool, rule)
	}
	if a.Excluded != "" {
		line += " [excluded by the configuration]"
	}
	if f.Triage != nil {
		// What the triage file decided of it ("false positive: reason"),
		// as the command line's findings mark it; the whole in triage.
		line += " [" + firstLine(f.Triage.Note(), 80) + "]"
	}
	b, _ := json.Marshal(a)
	return line + "\n" + string(b)
}

func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(s, "\n")
	return text.CutRunes(s, n)
}

// The kinds of a finding answer's parts, in the order they are admitted:
// what the rule is and why it matters, then how to fix it, then the code.
const (
	kindFindingCore     = iota // the finding, with the short first line
	kindFindingRule            // the rule's summary: ids, names, short description, CWE
	kindFindingPlace           // place and message in the first line
	kindFindingRuleFull        // the rule's full description
	kindFindingFix             // the fix as a diff
	kindFindingCode            // a line of code, the closest to the finding first
	kindFindingFlow            // a step of the code flow, in order
	kindFindingRelated         // a related location, in order
	kindFindingLocation        // a further location, in order
	kindFindingProblem         // another finding of its problem, in order
	kindFindingRuleHelp        // the rule's help
	kindFindingSnip            // the report's own snippet
)

// answerParts are where each optional part of an answer is in its plan
// (-1: none), and the order of the code lines.
type answerParts struct {
	rule, place, full, fix, help, snip int
	note                               int // the code's note when there is no code
	code, flow, related, locs, others  int // the first of each run of parts
	order                              []int
}

// fit keeps the answer within budget: the finding always; then its rule,
// the first line's place and message, the rule's description, the fix,
// the lines of code around it (closest first), the flow's steps and the
// related locations (in order), the rule's help and the report's snippet,
// as they fit; each left out with a marker. The last resort cuts a long
// message in half, and again.
func (a *FindingAnswer) fit(c budget.Counter, limit int) int {
	if !a.saved {
		a.saved, a.full, a.msg, a.rule, a.snip, a.help = true, a.Code, a.Finding.Message, a.Rule, a.Finding.Snippet, a.Finding.HelpURI
		a.snipAt = a.Finding.SnippetLine
		a.fix, a.flow, a.related, a.locs = a.Fix, a.Flow, a.Related, a.Locations
		if a.Problem != nil {
			a.others = a.Problem.Findings
		}
	}
	if a.Problem != nil {
		a.Problem.Findings = nil
	}
	a.Tokens = &budget.TokenInfo{}
	a.Code, a.Rule, a.Fix, a.Flow, a.Related, a.Locations, a.Finding.Snippet, a.Finding.Message, a.Omitted, a.short = nil, nil, nil, nil, nil, nil, "", a.msg, nil, true
	cost := func(v any) int {
		b, _ := json.Marshal(v)
		return budget.Cost(c, string(b))
	}
	ap := answerParts{rule: -1, full: -1, fix: -1, help: -1, snip: -1, note: -1}
	parts := []budget.Part{{Kind: kindFindingCore, Tokens: budget.Cost(c, a.text())}}
	add := func(kind, tokens, needs int) int {
		parts = append(parts, budget.Part{Kind: kind, Tokens: tokens, Needs: needs})
		return len(parts) - 1
	}
	if a.rule != nil {
		ap.rule = add(kindFindingRule, cost(a.rule.summary()), 0)
		if a.rule.FullDescription != "" {
			ap.full = add(kindFindingRuleFull, cost(a.rule.FullDescription), ap.rule+1)
		}
	}
	a.short = false
	long := a.text()
	a.short = true
	ap.place = add(kindFindingPlace, max(budget.Cost(c, long)-parts[0].Tokens, 0), 0)
	if a.fix != nil {
		ap.fix = add(kindFindingFix, cost(a.fix), 0)
	}
	if a.full != nil && len(a.full.Lines) == 0 {
		ap.note = add(kindFindingCode, cost(a.full), 0)
	}
	if a.full != nil && len(a.full.Lines) > 0 {
		ap.code = len(parts)
		ap.order = a.codeOrder()
		for _, i := range ap.order {
			add(kindFindingCode, cost(a.full.Lines[i]), 0)
		}
	}
	ap.flow = len(parts)
	for _, st := range a.flow {
		add(kindFindingFlow, cost(st), 0)
	}
	ap.related = len(parts)
	for _, st := range a.related {
		add(kindFindingRelated, cost(st), 0)
	}
	ap.locs = len(parts)
	for _, st := range a.locs {
		add(kindFindingLocation, cost(st), 0)
	}
	ap.others = len(parts)
	for _, o := range a.others {
		add(kindFindingProblem, cost(o), 0)
	}
	if a.rule != nil && a.rule.Help != "" {
		ap.help = add(kindFindingRuleHelp, cost(a.rule.Help), ap.rule+1)
	}
	if a.snip != "" {
		ap.snip = add(kindFindingSnip, cost(a.snip), 0)
	}
	msg := []rune(a.msg)
	halves := max(bits.Len(uint(len(msg)))-1, 0) // the message halved down to one character
	return budget.Fit(c, limit, budget.Plan{
		Parts: parts,
		Apply: func(keep []bool, level int) {
			a.apply(&ap, keep)
			if h := min(level, halves); h > 0 {
				n := len(msg) >> h
				a.Finding.Message = string(msg[:n]) + "…"
				a.Omitted = append(a.Omitted, budget.Omission{What: fmt.Sprintf("%d characters of the message: raise maxTokens", len(msg)-n)})
			}
			if level > halves { // the markers become one
				a.Omitted = []budget.Omission{{What: fmt.Sprintf("%d parts (code, rule, fix, flow, message): raise maxTokens", len(a.Omitted))}}
			}
			if level > halves+1 { // the help link goes (the rule's id names it)
				a.Finding.HelpURI = ""
			}
		},
		Levels: halves + 2,
		Render: a.text,
		Tokens: a.Tokens,
	})
}

// summary is the rule without its full description and help.
func (r *RuleInfo) summary() *RuleInfo {
	s := *r
	s.FullDescription, s.Help = "", ""
	return &s
}

// codeOrder is the order the lines of the code are admitted in: the
// finding's own lines, then the others by their distance from them, the line
// before first on a tie.
func (a *FindingAnswer) codeOrder() []int {
	first, last := a.Finding.Line, max(a.Finding.EndLine, a.Finding.Line)
	dist := func(l int) int {
		switch {
		case l < first:
			return 2 * (first - l)
		case l > last:
			return 2*(l-last) + 1
		}
		return 0
	}
	order := make([]int, len(a.full.Lines))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return dist(a.full.Lines[order[i]].Line) < dist(a.full.Lines[order[j]].Line) })
	return order
}

// apply shows the parts keep says, with a marker for each one left out.
func (a *FindingAnswer) apply(ap *answerParts, keep []bool) {
	a.Omitted, a.Finding.Message, a.Finding.HelpURI = nil, a.msg, a.help
	kept := func(i int) bool { return i >= 0 && keep[i] }
	a.Rule = nil
	if kept(ap.rule) {
		a.Rule = a.rule.summary()
		if kept(ap.full) {
			a.Rule.FullDescription = a.rule.FullDescription
		}
		if kept(ap.help) {
			a.Rule.Help = a.rule.Help
		}
	}
	a.short = !keep[ap.place]
	a.Fix = nil
	if kept(ap.fix) {
		a.Fix = a.fix
	}
	a.Code = nil
	if kept(ap.note) {
		a.Code = a.full // no code, and the note that says why (left out unmarked)
	}
	a.applyCode(ap, keep)
	a.applySteps(ap, keep)
	a.applyProblem(ap, keep)
	a.Finding.Snippet, a.Finding.SnippetLine = "", 0
	if kept(ap.snip) {
		a.Finding.Snippet, a.Finding.SnippetLine = a.snip, a.snipAt
	} else if a.snip != "" {
		a.omit("the report's snippet")
	}
	a.omitLeftOut()
}

// omit marks a part left out.
func (a *FindingAnswer) omit(what string) {
	a.Omitted = append(a.Omitted, budget.Omission{What: what + ": raise maxTokens"})
}

// applyCode shows the lines of code keep says, in the order of the file.
func (a *FindingAnswer) applyCode(ap *answerParts, keep []bool) {
	if a.full == nil || len(a.full.Lines) == 0 {
		return
	}
	var lines []int
	for k, at := range ap.order {
		if keep[ap.code+k] {
			lines = append(lines, at)
		}
	}
	if len(lines) == 0 {
		what := "the code around the finding"
		if summarize.IsEditedSinceNote(a.full.Note) {
			what += " (" + summarize.EditedSinceShort + ")" // what the code would have said
		}
		a.omit(what)
		return
	}
	sort.Ints(lines)
	cut := *a.full
	cut.Lines = make([]summarize.ContextLine, len(lines))
	for k, at := range lines {
		cut.Lines[k] = a.full.Lines[at]
	}
	cut.From, cut.To = cut.Lines[0].Line, cut.Lines[len(cut.Lines)-1].Line
	a.Code = &cut
	if len(lines) < len(ap.order) {
		a.omit(fmt.Sprintf("%d lines of code around the finding", len(ap.order)-len(lines)))
	}
}

// applySteps shows the steps of the flow, the related and the further
// locations that keep says, each list's first.
func (a *FindingAnswer) applySteps(ap *answerParts, keep []bool) {
	a.Flow, a.Related, a.Locations = keptSteps(a.flow, keep[ap.flow:]), keptSteps(a.related, keep[ap.related:]), keptSteps(a.locs, keep[ap.locs:])
	if n := len(a.flow) - len(a.Flow); n > 0 {
		a.omit(fmt.Sprintf("%d of the %d steps of the code flow kept", n, len(a.flow)))
	}
	if n := len(a.related) - len(a.Related); n > 0 {
		a.omit(fmt.Sprintf("%d of the %d related locations kept", n, len(a.related)))
	}
	if n := len(a.locs) - len(a.Locations); n > 0 {
		a.omit(fmt.Sprintf("%d of the %d further locations kept", n, len(a.locs)))
	}
}

// applyProblem shows the other findings of the problem that keep says,
// the first.
func (a *FindingAnswer) applyProblem(ap *answerParts, keep []bool) {
	if a.Problem == nil {
		return
	}
	n := 0
	for n < len(a.others) && keep[ap.others+n] {
		n++
	}
	a.Problem.Findings = append([]reports.Also{}, a.others[:n]...)
	if n < len(a.others) {
		a.omit(fmt.Sprintf("%d of the %d other findings of its problem (problem.findings)", len(a.others)-n, len(a.others)))
	}
}

// omitLeftOut marks the fix and the parts of the rule left out.
func (a *FindingAnswer) omitLeftOut() {
	if a.fix != nil && a.Fix == nil {
		a.omit("the fix the tool proposes")
	}
	if a.rule == nil {
		return
	}
	switch {
	case a.Rule == nil:
		a.omit("the rule's summary")
	default:
		if a.Rule.FullDescription == "" && a.rule.FullDescription != "" {
			a.omit("the rule's full description")
		}
		if a.Rule.Help == "" && a.rule.Help != "" {
			a.omit("the rule's help")
		}
	}
}

// keptSteps is the prefix of steps that keep admits.
func keptSteps(steps []Step, keep []bool) []Step {
	n := 0
	for n < len(steps) && keep[n] {
		n++
	}
	if n == 0 {
		return nil
	}
	return steps[:n]
}

func (s *Server) getFinding(ctx context.Context, in *GetFindingIn) (answer, error) {
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
	s.ids.note(loc.report)
	f := loc.f
	// The finding as the configuration says it, as analysis.getReports
	// and the command line show it.
	cfg, key, err := s.config()
	if err != nil {
		return nil, err
	}
	excluded := ""
	if by := cfg.ExcludedBy(&f); by != "" { // asked before Apply, as the pipeline asks
		name := filepath.Base(key[:max(strings.LastIndexByte(key, ' '), 0)]) // the root's .recap.yml or .recap.yaml
		excluded = fmt.Sprintf("excluded by %s (%s): %s leaves it out and counts it in summary.excluded", name, by, s.name(ctx, ToolGetReports))
	}
	cfg.Apply(&f)
	// The decision of the triage file that covers it, if any.
	m, _, err := s.triage()
	if err != nil {
		return nil, err
	}
	f.Triage = m.Decide(&f).Mark()
	a := &FindingAnswer{Finding: f, Excluded: excluded, Report: loc.rel, Rule: ruleInfo(&f, loc.rule)}
	a.Rule.InReport = loc.inReport
	a.Code = s.snippet(&f)
	if c := a.Code; c != nil && len(c.Lines) > 0 && c.Note == "" {
		why := s.editedSince(&f, loc.rel)
		if why == "" {
			why = s.committedSince(&f, loc.rel, map[string]reportHead{})
		}
		if why != "" {
			c.Note = summarize.EditedSinceNote(why)
		}
	}
	if d := f.Detail; d != nil {
		src := &summarize.FileSource{Open: s.root.open}
		if d.Fix != nil {
			diff, notes := summarize.FixDiff(d.Fix, src)
			a.Fix = &FixInfo{Description: d.Fix.Description, Diff: diff, Notes: notes}
		}
		a.Flow, a.Related, a.Locations = flowSteps(d, src), steps(d.Related, src), steps(d.Locations, src)
		a.Logical, a.Target = d.Logical, d.Target
	}
	a.Problem = s.problemOf(ctx, &f)
	if m != nil && m.Len() > 0 {
		// A decision on another finding of its problem covers it (a
		// confirmation marks it even when its own decision suppresses
		// it), as analysis.getReports counts it, whatever the session's
		// last call grouped (its filters may have left the decided
		// finding out).
		t, ok := s.coveringDecision(ctx, cfg, &f)
		if !ok && !f.Triage.Suppressed() && a.Problem != nil {
			t = s.problemDecision(ctx, m, cfg, a.Problem)
		}
		if t != nil && (!f.Triage.Suppressed() || !t.Suppressed()) {
			a.Finding.Triage = t
		}
	}
	if f.Fixable && a.Fix == nil {
		a.Fix = &FixInfo{Notes: []string{fmt.Sprintf("the report proposes a fix that recap does not keep, without a description: more than %d replacements, "+
			"a text over %d bytes, binary content, or regions given by bytes; the report has it", reports.MaxFixReplacements, reports.MaxFixText)}}
	}
	return a, nil
}

// coveringDecision is the decision that marks f through its problem as
// analysis.getReports without filters groups it (pipeline.Result.Covering,
// and Marks: a confirmation of another finding marks f when f has no
// decision of its own):
// the problems of f's file made of every finding of the reports there (a
// file's findings are grouped apart from the others'), decided as
// getReports decides them. nil when none does; false when it could not be
// told (f has no file, the reports could not be read).
func (s *Server) coveringDecision(ctx context.Context, cfg *config.Config, f *reports.Finding) (*reports.Triage, bool) {
	if f.Path == "" || f.ID.IsZero() {
		return nil, false
	}
	m, _, err := s.triage() // a matcher of its own: the pipeline's decisions count its entries' use
	if err != nil || m == nil {
		return nil, false
	}
	release, err := s.coldRead(ctx)
	if err != nil {
		return nil, false
	}
	defer release()
	ctx = withTurn(ctx)
	g, err := s.root.discover(".", s.root.maxReport)
	if err != nil {
		return nil, false
	}
	defer s.cache.hold(callFileBytes * int64(len(g.files)))()
	reps, err := s.readAll(ctx, g.files)
	if err != nil {
		return nil, false
	}
	defer s.cache.unpin(reps...)
	q := pipeline.Query{Reports: &cached{reps: reps, files: g.files, root: s.root, ids: true}, Filter: reports.Filter{Paths: []string{globQuote(f.Path)}},
		Classes: grouping.ClassOf, Config: cfg, Triage: m, Triaged: pipeline.TriagedInclude}
	res, err := pipeline.Run(ctx, &q)
	if err != nil {
		return nil, false
	}
	if t := res.Covering[f.ID]; t != nil {
		return t, true
	}
	if t := res.Marks[f.ID]; t != nil {
		return res.Mark(f.ID, t), true
	}
	if t := res.Mark(f.ID, f.Triage); t != f.Triage {
		return t, true // its own confirmation, naming the decisions it overrules
	}
	return nil, true
}

// globQuote is a path glob that matches p alone (\ quotes a character
// that globs read).
func globQuote(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`*?[]{}\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// problemDecision is the decision of the triage file on the first of p's
// other findings that one suppresses (the lead first), marked as covering
// the problem through that finding (Via); nil when none does.
func (s *Server) problemDecision(ctx context.Context, m *triage.Matcher, cfg *config.Config, p *ProblemInfo) *reports.Triage {
	if m == nil || m.Len() == 0 {
		return nil
	}
	release, err := s.coldRead(ctx)
	if err != nil {
		return nil
	}
	defer release()
	for _, o := range p.Findings {
		loc, err := s.locate(withTurn(ctx), o.ID.String())
		if err != nil {
			continue
		}
		g := loc.f
		if cfg.ExcludedBy(&g) != "" {
			continue
		}
		cfg.Apply(&g)
		if t := m.Decide(&g).Mark(); t.Suppressed() {
			via := *t
			via.Via = g.ID
			return &via
		}
	}
	return nil
}

// ProblemInfo is the problem a finding reports with others.
type ProblemInfo struct {
	// ShownBy is the id of the finding that pages show for the problem.
	ShownBy reports.FindingID `json:"shownBy"`
	// Others counts the problem's other findings; Findings names them, by
	// tool, rule and id, as many as the budget holds.
	Others   int            `json:"others"`
	Findings []reports.Also `json:"findings"`
}

// problemOf is the problem f shares with other findings of the session's
// last analysis.getReports; nil when none.
func (s *Server) problemOf(ctx context.Context, f *reports.Finding) *ProblemInfo {
	g := s.recent.get(sessionName(ctx)).grouped
	if g == nil || f.ID.IsZero() {
		return nil
	}
	lead := f
	if id, dup := g.LeadID(f); dup {
		lead = &reports.Finding{ID: id}
	}
	others := g.Others(lead)
	if len(others) == 0 {
		return nil
	}
	p := &ProblemInfo{ShownBy: lead.ID}
	if lead != f {
		if name, ok := g.Name(lead); ok {
			p.Findings = append(p.Findings, name)
		}
	}
	for _, o := range others {
		if o.ID != f.ID {
			p.Findings = append(p.Findings, o)
		}
	}
	p.Others = len(p.Findings)
	return p
}

// located is a finding found by its id or fingerprint: the finding, its
// report (relative to the root), and how often its rule fires there.
type located struct {
	f        reports.Finding
	rel      string
	inReport int
	rule     *reports.Rule // what the report says of the rule, nil: nothing
	report   *report       // the report it is of, when the cache holds it (unpinned)
}

// inReport counts the findings of r of f's tool and rule.
func inReport(r *report, f *reports.Finding) int {
	n := 0
	for _, k := range r.kinds {
		if k.rule == f.Rule && k.tool == f.Tool {
			n += k.n
		}
	}
	return n
}

// ruleInfo is what getFinding says of a finding's rule: its id and name,
// and what its report says of the rule (nil: nothing).
func ruleInfo(f *reports.Finding, r *reports.Rule) *RuleInfo {
	info := &RuleInfo{ID: f.Rule, Name: f.RuleName, CWE: f.CWE, SecuritySeverity: f.SecuritySeverity}
	if r == nil {
		return info
	}
	if info.Name == "" {
		info.Name = r.Name
	}
	if r.HelpURI != f.HelpURI {
		info.HelpURI = r.HelpURI
	}
	info.ShortDescription, info.FullDescription, info.Help, info.Precision = r.Short, r.Full, cmp.Or(r.HelpMarkdown, r.Help), r.Precision
	info.CWE = r.CWE // the rule's own; the finding's are finding.cwe
	info.SecuritySeverity = max(info.SecuritySeverity, r.SecuritySeverity)
	return info
}

// steps are a flow's steps or related locations with their lines of code,
// read from the root when the file is there.
func steps(locs []reports.Location, src summarize.Source) []Step {
	out := make([]Step, len(locs))
	for i, l := range locs {
		out[i] = Step{Location: l}
		if l.Path == "" || l.Line <= 0 || l.Base != "" { // Base: outside the repository
			continue
		}
		if lines, err := src.Lines(l.Path, l.Line, l.Line); err == nil && len(lines) == 1 {
			line := lines[0]
			if r := []rune(line); len(r) > snippetLineChars {
				line = string(r[:snippetLineChars-1]) + "…"
			}
			out[i].Code = line
		}
	}
	return out
}

// flowSteps is the steps of d's flows, one flow after the other, each
// step numbered with its flow when there are several.
func flowSteps(d *reports.Detail, src summarize.Source) []Step {
	var out []Step
	for i := range d.Flows {
		s := steps(d.Flows[i].Steps, src)
		if len(d.Flows) > 1 {
			for j := range s {
				s[j].Flow = i + 1
			}
		}
		out = append(out, s...)
	}
	return out
}

// locate finds a finding by its id (tag-n), or by its fingerprint among the
// reports under the root.
func (s *Server) locate(ctx context.Context, id string) (located, error) {
	if p, ok := reports.ParseID(id); ok {
		n := int(p.N)
		f, r, err := s.reportByTag(ctx, p.Tag)
		if err != nil {
			return located{}, err
		}
		notFound := toolErrorf(CodeNotFound, "no finding %s: the reports may have changed since it was listed; call %s again for current ids, or give the finding's fingerprint", cut(id), s.name(ctx, ToolGetReports))
		switch {
		case f == nil && len(p.Tag) != tagLen:
			// Not an id of this server's: the command line's ids name the
			// reports of its run (a shorter tag), not the root's files.
			return located{}, toolErrorf(CodeNotFound, "no finding %s: this server's ids have %d characters before the dash (%s-12); an id of recap findings on the command line names a finding of that run only: call %s for this server's ids, or give the finding's fingerprint, the same in both", cut(id), tagLen, strings.Repeat("a", tagLen), s.name(ctx, ToolGetReports))
		case f == nil:
			return located{}, notFound
		case r != nil:
			defer s.cache.unpin(r)
			if n > r.n {
				return located{}, notFound
			}
			x := r.finding(n - 1)
			return located{f: x, rel: r.rel, inReport: inReport(r, &x), rule: r.input.Rules.Lookup(x.Tool, x.Rule), report: r}, nil
		}
		loc, ok, err := s.scan(ctx, *f, func(i int, _ *reports.Finding) bool { return i == n }, nil)
		if err == nil && !ok {
			err = notFound
		}
		return loc, err
	}
	if !isFingerprint(id) {
		return located{}, toolErrorf(CodeBadArgument, "%q is neither a finding id (ids look like %s-12) nor a fingerprint (16 hex digits, and :2, :3 … for the further findings of one identity in a report): take one from %s", cut(id), strings.Repeat("a", tagLen), s.name(ctx, ToolGetReports))
	}
	id = reports.NormalFingerprint(id) // "…:1", as SARIF writes it, is the first
	g, err := s.root.discover(".", s.root.maxReport)
	if err != nil {
		return located{}, err
	}
	files := s.fingerprintOrder(ctx, g.files)
	defer s.cache.hold(callFileBytes * int64(len(files)))()
	reps, err := s.readAll(ctx, files)
	if err != nil {
		return located{}, err
	}
	defer s.cache.unpin(reps...)
	base, occ := reports.SplitFingerprint(id)
	fp, _ := strconv.ParseUint(base, 16, 64)
	for ri, r := range reps {
		if r == nil { // too large for the cache: read as it goes
			loc, ok, err := s.scan(ctx, files[ri], nil, func(x *reports.Finding) bool { return x.Fingerprint == id })
			if err != nil || ok {
				return loc, err
			}
			continue
		}
		for i := 0; i < r.n; i++ {
			if r.rec(i).fp == fp && r.occurrence(i) == occ && (r.fps == nil || r.fingerprint(i) == id) {
				x := r.finding(i)
				return located{f: x, rel: r.rel, inReport: inReport(r, &x), rule: r.input.Rules.Lookup(x.Tool, x.Rule), report: r}, nil
			}
		}
	}
	left := ""
	if len(g.big) > 0 {
		left = fmt.Sprintf(" (%d reports over %s were not searched: give the finding's id)", len(g.big), sizeName(s.root.maxReport))
	}
	return located{}, toolErrorf(CodeNotFound, "no finding with the fingerprint %s in the reports under the root%s: it may have been fixed; call %s for the current findings", id, left, s.name(ctx, ToolGetReports))
}

// scan reads a report too large for the cache from its file for one
// finding: the n-th (byIndex, 1-based) or the first that match accepts
// (given its id and fingerprint); it counts the findings of each rule on the
// way, for the finding's inReport.
func (s *Server) scan(ctx context.Context, f file, byIndex func(int, *reports.Finding) bool, match func(*reports.Finding) bool) (located, bool, error) {
	type toolRule struct{ tool, rule string }
	count := map[toolRule]int{}
	var hit *reports.Finding
	n := 0
	keep := func(x *reports.Finding) bool {
		n++
		count[toolRule{x.Tool, x.Rule}]++
		return hit == nil && (byIndex == nil || byIndex(n, x))
	}
	in, err := readFile(ctx, f, s.root, keep, func(x *reports.Finding) error {
		if hit == nil && (match == nil || match(x)) {
			c := *x
			hit = &c
		}
		return nil
	})
	if err != nil || hit == nil {
		return located{}, false, err
	}
	return located{f: *hit, rel: f.rel, inReport: count[toolRule{hit.Tool, hit.Rule}], rule: in.Rules.Lookup(hit.Tool, hit.Rule)}, true, nil
}

// isFingerprint reports whether id has the form of a finding's
// fingerprint: 16 hex digits, and the occurrence (":2") of a further
// finding of the same identity in its report.
func isFingerprint(id string) bool {
	base, n := reports.SplitFingerprint(id)
	if len(base) != 16 || n < 1 || base == id && strings.Contains(id, ":") {
		return false
	}
	for _, c := range base {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// fingerprintOrder is the order the reports under the root are searched
// for a fingerprint: the reports of the session's last analysis.getReports
// first (the current ones), then the others, and the files it read as a
// baseline last, so that a fingerprint names the current finding, not the
// baseline's copy of it.
func (s *Server) fingerprintOrder(ctx context.Context, found []file) []file {
	recent := s.recent.get(sessionName(ctx))
	var first, rest, baseline []file
	seen := map[string]bool{}
	for _, rel := range recent.reports {
		if f, err := s.root.resolve(rel); err == nil && !seen[f.abs] {
			seen[f.abs] = true
			first = append(first, f)
		}
	}
	for _, f := range found {
		switch {
		case seen[f.abs]:
		case recent.baselines[f.rel]:
			baseline = append(baseline, f)
		default:
			rest = append(rest, f)
		}
		seen[f.abs] = true
	}
	return append(append(first, rest...), baseline...)
}

// reportByTag finds the report whose id tag is tag: cached, or among the
// reports under the root (those a search leaves out for their size too);
// it is read again when it changed on disk. It returns the report's file
// (nil when none has the tag) and the report, pinned (nil when it is too
// large for the cache: scan reads it).
func (s *Server) reportByTag(ctx context.Context, tag string) (*file, *report, error) {
	rel := ""
	if r := s.cache.byTag(tag); r != nil {
		rel = r.rel
	} else {
		g, err := s.root.discover(".", s.root.maxReport)
		if err != nil {
			return nil, nil, err
		}
		for _, f := range append(g.files, g.big...) {
			if reports.InputTag(f.rel, tagLen) == tag {
				rel = f.rel
				break
			}
		}
	}
	if rel == "" || ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	f, err := s.root.resolve(rel)
	if err != nil {
		return nil, nil, nil // the report is gone
	}
	r, _, err := s.cache.get(ctx, f, s.root, "")
	if errors.Is(err, errTooLarge) {
		return &f, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return &f, r, nil
}

// snippet reads the code around f: its lines and snippetRadius more each
// side, at most snippetMaxLines lines and snippetMaxTokens tokens.
func (s *Server) snippet(f *reports.Finding) *Snippet {
	if f.Line <= 0 || f.Path == "" {
		return nil
	}
	end := max(f.EndLine, f.Line)
	src := &summarize.FileSource{Open: s.root.open}
	note := ""
	if end-f.Line+1 > snippetMaxLines {
		end = f.Line + snippetMaxLines - 1
		note = fmt.Sprintf("the finding spans lines %d-%d; the first %d are shown", f.Line, f.EndLine, snippetMaxLines)
	}
	pad := min(snippetRadius, (snippetMaxLines-(end-f.Line+1))/2)
	for ; pad >= 0; pad-- {
		from := max(f.Line-pad, 1)
		lines, err := src.Lines(f.Path, from, end+pad)
		if err != nil {
			return &Snippet{Path: f.Path, Note: fmt.Sprintf("no code: %v", err)}
		}
		sn := &Snippet{Path: f.Path, From: from, To: from + len(lines) - 1, Note: note}
		for i, l := range lines {
			if r := []rune(l); len(r) > snippetLineChars {
				l = string(r[:snippetLineChars-1]) + "…"
			}
			sn.Lines = append(sn.Lines, summarize.ContextLine{Line: from + i, Text: l})
		}
		b, _ := json.Marshal(sn)
		if budget.Cost(s.counter, string(b)) <= snippetMaxTokens {
			return sn
		}
		if pad == 0 { // the finding's own lines are over: show the first that fit
			for len(sn.Lines) > 1 {
				sn.Lines = sn.Lines[:len(sn.Lines)-1]
				sn.To = sn.Lines[len(sn.Lines)-1].Line
				sn.Note = fmt.Sprintf("lines %d-%d of the finding are shown, within %d tokens", sn.From, sn.To, snippetMaxTokens)
				b, _ := json.Marshal(sn)
				if budget.Cost(s.counter, string(b)) <= snippetMaxTokens {
					return sn
				}
			}
			return sn
		}
	}
	return nil
}

// staleID refuses id, when it is an id (not a fingerprint), of a report
// whose content changed since the server gave its ids: the number may
// name another finding now.
func (s *Server) staleID(ctx context.Context, id string, loc *located) error {
	if _, ok := reports.ParseID(id); !ok || loc.report == nil || !s.ids.changed(loc.report.tag, loc.report.digest) {
		return nil
	}
	return toolErrorf(CodeNotFound, "%s: %s changed since its ids were listed, and the id may name another finding now: call %s again for current ids, or give the finding's fingerprint",
		cut(id), loc.rel, s.name(ctx, ToolGetReports))
}
