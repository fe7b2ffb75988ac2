package pipeline

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/triage"
)

// TriagedMode says what a query does with the findings that triage
// decisions leave out (docs/triage.md, "How decisions are honoured").
type TriagedMode int

const (
	// TriagedExclude leaves them out of the page, the counts and the
	// gates, and counts them apart (Summary.Triaged): the default.
	TriagedExclude TriagedMode = iota
	// TriagedInclude shows them among the others, marked; the gates still
	// leave them out.
	TriagedInclude
	// TriagedOnly shows them alone.
	TriagedOnly
)

// TriagedModes are the modes' words, as --triaged and the MCP argument
// take them.
var TriagedModes = []string{"exclude", "include", "only"}

func (m TriagedMode) String() string {
	if m >= 0 && int(m) < len(TriagedModes) {
		return TriagedModes[m]
	}
	return fmt.Sprintf("TriagedMode(%d)", int(m))
}

// ParseTriagedMode reads a mode's word; "" is TriagedExclude.
func ParseTriagedMode(s string) (TriagedMode, error) {
	if s == "" {
		return TriagedExclude, nil
	}
	for i, w := range TriagedModes {
		if s == w {
			return TriagedMode(i), nil
		}
	}
	return 0, fmt.Errorf("triaged must be exclude, include or only, not %q", s)
}

// errRegroup stops a run whose triage decisions cover problems reported
// by several findings in a way the first run cannot settle exactly (see
// settle): the run is made again, each such problem's findings all
// triaged from the start.
var errRegroup = errors.New("triaged problems to regroup")

// triaging is what a run does with the triage decisions: it decides each
// finding, marks it, hides it or not by the mode, and counts.
type triaging struct {
	m    *triage.Matcher
	d    *triage.Decider // m's, for this run's findings
	mode TriagedMode
	// problems are the decisions that cover a problem's other findings,
	// by their ids, found once the groups are resolved (by settle, or by
	// an earlier run); prior is that run's groups, which say which
	// triaged findings are duplicates.
	problems map[reports.FindingID]*reports.Triage
	prior    *Grouped
	// decided are the ids of the findings a decision hides, in the first
	// run, to find their problems.
	decided map[reports.FindingID]*reports.Triage
	// confirmed are the decisions of the findings decided confirmed, by
	// their ids (first run): their problems are not covered.
	confirmed map[reports.FindingID]*reports.Triage
	// marks are the marks of the findings with no decision of their own
	// in a problem another finding of which is confirmed: that
	// confirmation, through it (Via), found once the groups are known
	// (markConfirmed; carried to a run made again). The problem's lead,
	// shown, says the problem is confirmed when a duplicate of it was
	// decided so.
	marks map[reports.FindingID]*reports.Triage
	// marksOutside counts the confirmations of findings the filter or the
	// changed lines refuse that mark findings the query keeps
	// (markConfirmed; carried to a run made again): counted confirmed,
	// as the view without the filter counts them.
	marksOutside int
	// overruled are, by the id of a confirmed finding, the decisions its
	// confirmation overrules on other findings of its problem (hold;
	// carried to a run made again): the confirmation names them where it
	// marks a finding (withOverruled).
	overruled map[reports.FindingID][]reports.Overruled
	// expired are the findings whose own decision expired (first run):
	// marked by it, never by marks.
	expired map[reports.FindingID]bool
	// held says that a finding its own decision hides is in a problem
	// another finding of which is confirmed: the confirmation marks it
	// (problems), and the run is made again to show it.
	held   bool
	counts summarize.TriagedCounts
	// newOnly: the view is of the new findings of new problems (a
	// baseline and Query.NewOnly).
	newOnly bool
	// whole says that every finding of the run is decided (no filter or
	// new only; on changed lines, those off them are decided too, by
	// outside, unless the changes carry report lines onto the head's): an
	// entry of a tool decided (tools; tool the last finding's) that
	// matched none is told.
	whole bool
	tools map[string]bool
	tool  string
	// regroup says the run may be made again (its reports can be read
	// again); false in the second run.
	regroup bool
	// aside keeps, in the first run, the findings the grouper keeps of
	// the files some entry names: the only ones a decision can cover
	// through their problem, when no entry's file is gone. missed says
	// that a decision was taken on a finding of another file (an entry
	// whose file is gone matched it), which the grouper kept: aside may
	// then miss what it covers.
	aside  asides
	missed bool
	// The names of the findings aside, each kept once, by index; what is
	// known of the last path and of each rule, so that most findings
	// cost no lookup of their names.
	names     []string
	nameIndex map[string]uint32
	lastPath  string
	lastNamed bool
	lastIndex uint32
	lastTool  string
	toolIndex uint32
	ruleNames map[string]ruleNames
	lastRule  ruleNames // the last finding's rule's
	haveRule  bool
	// kinds are what findings aside of one tool and rule share, each
	// once (a finding aside holds its kind's index); the last one found.
	kinds       []kind
	kindIndex   map[[4]uint32]uint32
	lastKind    uint32
	lastKindKey [4]uint32
	haveKind    bool
	// byClass says that the findings of a file put aside are those of the
	// classes of its entries' rules (classes; -1 for no class: the
	// findings of no class the grouper keeps, by their CWE ids, match
	// findings of no class alone): the others can share no problem with a
	// decided finding, nor change how its problem groups, since the
	// grouping matches findings within a class alone. False
	// when an entry's file is gone (its decision may be on a finding of
	// any rule) or the configuration groups rules (a rule may be in
	// several groups).
	byClass     bool
	classOf     func(tool, rule string) int
	fileClasses map[uint32][]int32 // by path index, the classes of its entries' rules
	classes     []int32            // the last path's
	cwes        [][]int            // the CWE ids of findings aside
	owns        []*reports.Triage  // the decisions on findings aside
	// covered are the findings settle took out of the first pass's view
	// (with TriagedExclude): the page skips them.
	covered map[grouping.Ref]bool
	ids     *ids
	// hiddenRecs and byLine are moved's and near's buffers.
	hiddenRecs []hiddenRec
	byLine     [][2]int32 // line, record
	// grouper returns a grouper as the query's (to group a file again).
	grouper func() *grouping.Grouper
	// wide, in the first run of a query that the filter or the changed
	// lines narrow, groups what the query's grouper does not see as well:
	// the findings that passed the configuration, kept or not by the
	// filter and the changed lines, of the files some entry names (of
	// every file when an entry's file is gone, wideAll). A decision on a
	// finding they refuse (outside) covers its problem's findings they
	// keep, as it does without them. wideOut are the refs of the findings
	// refused, wideDecided the decisions that suppress some, by id.
	wide        *grouping.Grouper
	wideAll     bool
	wideOut     map[grouping.Ref]bool
	wideDecided map[reports.FindingID]*reports.Triage
	// wideConfirmed: a finding outside is decided confirmed.
	wideConfirmed bool
	widePath      string // the last path wideNames was asked about
	wideNamed     bool   // its answer
	// wideGroups are wide's groups once resolved.
	wideGroups *grouping.Groups
	// Of the findings off the changed lines (Result.Outside), of files
	// some entry names: offLines, the refs of those wide groups; offAlone,
	// how many of the others (alone in their problem, or no grouping) their
	// own decision suppresses; offTriaged, how many of them all a decision
	// suppresses (countOutside), carried to a run made again (again).
	offLines   []grouping.Ref
	offAlone   int
	offTriaged int
	offCounted bool
	again      bool
}

// aside is what the first run keeps of a finding the grouper kept in a
// file some entry names: what the first pass counted of it, to take it
// back when a decision covers it through its problem, and what the
// grouper took of it (its names are indexes into triaging.names).
type aside struct {
	ref               grouping.Ref
	path              uint32 // an index into names
	kind              uint32 // its tool and rule: kinds[kind]
	line, end, column int32
	cwe               int32 // its CWE ids: cwes[cwe-1]; 0: none
	severity          reports.Severity
	impact            reports.Impact
	quality           reports.Quality
	state             uint8 // against the baseline: see states
	security          bool
	counted           bool  // the first pass counted it (with new only, a new finding)
	hides             bool  // its own decision suppresses
	covered           bool  // settle found a decision on another finding of its problem that covers it
	own               int32 // its own decision: owns[own-1]; 0: none
}

// kind is a tool and a rule of findings aside, with the rule's name and
// category as they give them: indexes into triaging.names, and the short
// name's (-1: not known yet).
type kind struct {
	tool, rule, ruleName, category uint32
	short                          int32
	class                          int32 // its rule's class (-1: none; -2: not known yet)
}

// states are the states against the baseline that aside.state numbers.
var states = [...]string{"", reports.BaselineNew, reports.BaselineUnchanged}

// ruleNames are a rule's names as findings aside give them (indexes).
type ruleNames struct {
	ruleName, category string
	rule, name, cat    uint32
}

// finding is a as the collector and the grouper see it.
func (t *triaging) finding(a *aside) reports.Finding {
	n, k := t.names, &t.kinds[a.kind]
	f := reports.Finding{Tool: n[k.tool], Rule: n[k.rule], RuleName: n[k.ruleName], Category: n[k.category], Path: n[a.path],
		Severity: a.severity, Impact: a.impact, Quality: a.quality, Line: int(a.line), EndLine: int(a.end), Column: int(a.column),
		Baseline: states[a.state]}
	if a.cwe > 0 {
		f.CWE = t.cwes[a.cwe-1]
	}
	if a.security {
		f.SecuritySeverity = 1 // Security() holds as it held
	}
	return f
}

// shortOf returns the index of the short name of the rule of kind i (as
// the grouper and the collector name rules).
func (t *triaging) shortOf(i uint32) uint32 {
	k := &t.kinds[i]
	if k.short < 0 {
		k.short = int32(t.name(reports.ShortRule(t.names[k.tool], t.names[k.rule])))
	}
	return uint32(k.short)
}

// kindOf returns the index of the kind of tool and rule names (indexes),
// made when new.
func (t *triaging) kindOf(tool uint32, rn ruleNames) uint32 {
	key := [4]uint32{tool, rn.rule, rn.name, rn.cat}
	if t.haveKind && key == t.lastKindKey {
		return t.lastKind
	}
	i, ok := t.kindIndex[key]
	if !ok {
		i = uint32(len(t.kinds))
		t.kinds = append(t.kinds, kind{tool: tool, rule: rn.rule, ruleName: rn.name, category: rn.cat, short: -1, class: -2})
		t.kindIndex[key] = i
	}
	t.lastKind, t.lastKindKey, t.haveKind = i, key, true
	return i
}

func newTriaging(q *Query, prior *triaging, regroup bool) *triaging {
	if (q.Triage == nil || q.Triage.Len() == 0) && q.Triaged != TriagedOnly {
		return nil // (the triaged alone, of no decision, are none)
	}
	t := &triaging{m: q.Triage, d: q.Triage.Decider(), mode: q.Triaged, regroup: regroup && q.Classes != nil && prior == nil,
		whole: q.Filter.Empty() && (q.Changes == nil || q.Changes.Lines() == nil) && !q.NewOnly, newOnly: q.NewOnly && q.Baseline != nil}
	if prior != nil {
		t.problems, t.prior, t.marks, t.marksOutside = prior.problems, prior.prior, prior.marks, prior.marksOutside
		t.overruled = prior.overruled
		t.offTriaged, t.again = prior.offTriaged, true
	}
	if t.m.Len() == 0 {
		t.problems = map[reports.FindingID]*reports.Triage{} // none to find: every finding is hidden, none grouped
	}
	t.counts.ByState = map[string]int{}
	t.counts.Shown = q.Triaged != TriagedExclude
	t.grouper = func() *grouping.Grouper {
		g := grouping.NewGrouper(q.Classes)
		if q.Config != nil {
			g.More(q.Config.Groups)
		}
		return g
	}
	t.classOf = q.Classes
	t.byClass = keepByClass && t.regroup && !q.Triage.Orphaned() && (q.Config == nil || !q.Config.HasGroups())
	if t.regroup && (!q.Filter.Empty() || q.Changes != nil) {
		t.wide, t.wideAll, t.wideOut = t.grouper(), q.Triage.Orphaned(), map[grouping.Ref]bool{}
	}
	return t
}

// widens says whether the findings the filter or the changed lines
// refuse go to outside (see triaging.wide).
func (t *triaging) widens() bool { return t != nil && t.wide != nil }

// outside groups f, which passed the configuration but not the filter
// or the changed lines (off: it passed the filter), with the findings of
// its file (first pass of the first run), and notes its decision when it
// suppresses f.
func (t *triaging) outside(f *reports.Finding, ids *ids, off bool) {
	if t == nil || t.again || f.Uncounted() {
		return
	}
	t.seeTool(f)
	if !t.wideNames(f.Path) {
		return
	}
	var r grouping.Ref
	ok := false
	if t.wide != nil && ids != nil { // no grouping (--no-group): none
		r, ok = ids.ref(f.ID)
	}
	if !ok || !t.wide.Add(f, r) {
		// Alone in its problem (or no grouping): its own decision alone
		// may hide it.
		if off {
			if d := t.d.Decide(f).Mark(); d.Suppressed() && d.State != string(triage.Confirmed) {
				t.offAlone++
			}
		}
		return
	}
	t.wideOut[r] = true
	if off {
		t.offLines = append(t.offLines, r)
	}
	d := t.d.Decide(f).Mark()
	if t.noteConfirmed(f.ID, d) {
		t.wideConfirmed = true
	} else if d.Suppressed() {
		if t.wideDecided == nil {
			t.wideDecided = map[reports.FindingID]*reports.Triage{}
		}
		t.wideDecided[f.ID] = d
	}
}

// inside groups f, a finding the query keeps (r), with the findings
// outside groups (first pass of the first run).
func (t *triaging) inside(f *reports.Finding, r grouping.Ref) {
	if t.widens() && t.wideNames(f.Path) {
		t.wide.Add(f, r)
	}
}

// wideNames says whether wide groups the findings of path: every file's
// when an entry's file is gone, else those of the files some entry names
// (the last path's answer kept: reports list a file's findings together).
func (t *triaging) wideNames(path string) bool {
	if t.wideAll {
		return true
	}
	if path != t.widePath || t.widePath == "" {
		t.widePath, t.wideNamed = path, t.m.Names(path)
	}
	return t.wideNamed
}

// decidesWide says whether a decision on a finding outside suppresses or
// confirms it: only then are wide's groups resolved.
func (t *triaging) decidesWide() bool { return t != nil && (len(t.wideDecided) > 0 || t.wideConfirmed) }

// coverWide adds to problems the findings the query keeps that a decision
// on a finding outside covers (their problem as wide groups them, and
// the other findings of their problem as g groups them), unless a
// decision of their own or one problems has covers them already: of a
// problem, the decision on its first decided finding (its lead first).
func (t *triaging) coverWide(g *Grouped, hasText func(tool, rule string) bool, problems map[reports.FindingID]*reports.Triage) {
	if !t.decidesWide() {
		return
	}
	wg := t.wide.Resolve(hasText)
	t.wide, t.wideGroups = nil, wg
	var leads []grouping.Ref
	seen := map[grouping.Ref]bool{}
	for id := range t.wideDecided {
		r, _ := g.ids.ref(id)
		if l, dup := wg.LeadOf(r); dup {
			r = l
		}
		if !seen[r] {
			seen[r] = true
			leads = append(leads, r)
		}
	}
	if t.wideConfirmed {
		// A problem a finding outside confirmed is covered by no
		// decision on the findings the query keeps either.
		for id := range t.confirmed {
			r, _ := g.ids.ref(id)
			if !t.wideOut[r] {
				continue
			}
			if l, dup := wg.LeadOf(r); dup {
				r = l
			}
			members := append([]grouping.Ref{r}, wg.Others(r)...)
			t.hold(g, members, problems)
		}
	}
	slices.SortFunc(leads, compareRefs)
	own := func(id reports.FindingID) *reports.Triage {
		if d := t.decided[id]; d != nil {
			return d
		}
		return t.wideDecided[id]
	}
	cover := func(r grouping.Ref, via *reports.Triage) {
		id := g.ids.id(r)
		if t.wideOut[r] || own(id) != nil || problems[id] != nil {
			return
		}
		problems[id] = via
	}
	for _, lead := range leads {
		members := append([]grouping.Ref{lead}, wg.Others(lead)...)
		if t.anyConfirmed(g, members) {
			t.hold(g, members, problems)
			continue
		}
		var via *reports.Triage
		for _, r := range members {
			id := g.ids.id(r)
			if d := own(id); d != nil {
				v := *d
				v.Via = id
				via = &v
				break
			}
		}
		for _, r := range members {
			if t.wideOut[r] {
				continue
			}
			cover(r, via)
			// The other findings of its problem as the query groups them.
			l, dup := g.groups.LeadOf(r)
			if !dup {
				l = r
			}
			cover(l, via)
			for _, o := range g.groups.Others(l) {
				cover(o, via)
			}
		}
	}
}

// countOutside counts, once the first run's problems are known, the
// findings off the changed lines that a decision suppresses: their own,
// or one on another finding of their problem as wide groups them, none of
// whose findings is confirmed (offTriaged). The review does not count
// them among the findings outside the changed lines (shownOutside).
func (t *triaging) countOutside(g *Grouped, hasText func(tool, rule string) bool) {
	if t == nil || t.again {
		return
	}
	t.offTriaged, t.offCounted = t.offAlone, true
	if len(t.offLines) == 0 || len(t.decided)+len(t.wideDecided) == 0 {
		return
	}
	wg := t.wideGroups
	if wg == nil {
		wg = t.wide.Resolve(hasText)
		t.wide, t.wideGroups = nil, wg
	}
	id := g.ids.id
	hidden := map[grouping.Ref]bool{} // by a problem's lead
	for _, r := range t.offLines {
		lead, dup := wg.LeadOf(r)
		if !dup {
			lead = r
		}
		h, known := hidden[lead]
		if !known {
			suppressed := false
			for _, m := range append([]grouping.Ref{lead}, wg.Others(lead)...) {
				if t.confirmed[id(m)] != nil {
					suppressed = false
					break
				}
				if t.decided[id(m)] != nil || t.wideDecided[id(m)] != nil {
					suppressed = true
				}
			}
			h, hidden[lead] = suppressed, suppressed
		}
		if h {
			t.offTriaged++
		}
	}
}

// shownOutside is how many of the n findings off the changed lines the
// mode shows (Result.Outside): with TriagedExclude, those no decision
// suppresses; with TriagedOnly, those one does.
func (t *triaging) shownOutside(n int) int {
	if t == nil {
		return n
	}
	off := t.offTriaged
	if !t.offCounted && !t.again {
		off = t.offAlone // no grouper: no problem of several findings
	}
	switch t.mode {
	case TriagedExclude:
		return max(n-off, 0)
	case TriagedOnly:
		return min(off, n)
	}
	return n
}

// keep puts aside f, which the grouper kept, of the given state against
// the baseline, when an entry names its file (first run only); counted
// says the first pass counts it.
func (t *triaging) keep(f *reports.Finding, r grouping.Ref, state string, counted bool) {
	if t == nil || !t.regroup || t.problems != nil {
		return
	}
	if t.nameIndex == nil {
		t.nameIndex, t.ruleNames, t.kindIndex = map[string]uint32{}, map[string]ruleNames{}, map[[4]uint32]uint32{}
		t.lastPath, t.lastNamed = f.Path, t.m.Names(f.Path)
		t.lastTool, t.toolIndex = f.Tool, t.name(f.Tool)
		if t.lastNamed {
			t.lastIndex = t.name(f.Path)
			t.classes = t.classesOf(t.lastIndex)
		}
	}
	if f.Path != t.lastPath {
		t.lastPath, t.lastNamed = f.Path, t.m.Names(f.Path)
		if t.lastNamed {
			t.lastIndex = t.name(f.Path)
			t.classes = t.classesOf(t.lastIndex)
		}
	}
	if !t.lastNamed {
		if f.Triage.Suppressed() {
			t.missed = true
		}
		return
	}
	if f.Tool != t.lastTool {
		t.lastTool, t.toolIndex = f.Tool, t.name(f.Tool)
	}
	rn, ok := t.lastRule, t.haveRule && t.names[t.lastRule.rule] == f.Rule
	if !ok {
		rn, ok = t.ruleNames[f.Rule]
	}
	if !ok || rn.ruleName != f.RuleName || rn.category != f.Category {
		rn = ruleNames{ruleName: f.RuleName, category: f.Category, rule: t.name(f.Rule), name: t.name(f.RuleName), cat: t.name(f.Category)}
		rn.ruleName, rn.category = t.names[rn.name], t.names[rn.cat]
		t.ruleNames[t.names[rn.rule]] = rn
	}
	t.lastRule, t.haveRule = rn, true
	k := t.kindOf(t.toolIndex, rn)
	if t.byClass && !t.decidable(k) {
		return
	}
	a := aside{ref: r, hides: f.Triage.Suppressed(), path: t.lastIndex, kind: k,
		line: clamp32(f.Line), end: clamp32(max(f.Line, f.EndLine)), column: clamp32(f.Column),
		severity: f.Severity, impact: f.Impact, quality: f.Quality, security: f.Security(), counted: counted}
	switch state {
	case reports.BaselineNew:
		a.state = 1
	case reports.BaselineUnchanged:
		a.state = 2
	}
	if len(f.CWE) > 0 {
		t.cwes = append(t.cwes, slices.Clone(f.CWE))
		a.cwe = int32(len(t.cwes))
	}
	if f.Triage != nil {
		t.owns = append(t.owns, f.Triage)
		a.own = int32(len(t.owns))
	}
	t.aside.add(a)
}

// keepByClass: keep puts aside the findings of the decided classes alone
// (byClass); tests turn it off, to compare with every finding put aside.
var keepByClass = true

// classesOf returns the classes of the rules of the entries of the file
// of path index p (byClass), worked out once a file.
func (t *triaging) classesOf(p uint32) []int32 {
	if !t.byClass {
		return nil
	}
	if cs, ok := t.fileClasses[p]; ok {
		return cs
	}
	var cs []int32
	t.m.EachRule(t.names[p], func(tool, rule string) {
		if c := int32(max(t.classOf(tool, reports.ShortRule(tool, rule)), -1)); !slices.Contains(cs, c) {
			cs = append(cs, c)
		}
	})
	if t.fileClasses == nil {
		t.fileClasses = map[uint32][]int32{}
	}
	t.fileClasses[p] = cs
	return cs
}

// decidable says whether a finding of kind k, of the last path, is put
// aside (byClass): of a class of the file's entries' rules (-1, no class,
// among them: the findings of no class the grouper keeps, by their CWE
// ids, group with findings of no class alone).
func (t *triaging) decidable(k uint32) bool {
	kd := &t.kinds[k]
	if kd.class == -2 {
		kd.class = int32(max(t.classOf(t.names[kd.tool], reports.ShortRule(t.names[kd.tool], t.names[kd.rule])), -1))
	}
	return slices.Contains(t.classes, kd.class)
}

// asides are the records put aside, in chunks: a run that keeps 300,000
// of them grew one slice by doubling, copying it and clearing the rest
// each time (2% of the query's CPU time); chunks are neither copied nor
// cleared twice. A chunk is asideChunk records; the last one may be
// shorter.
type asides struct {
	chunks [][]aside
	n      int
}

const (
	asideShift = 12
	asideChunk = 1 << asideShift
)

// len is the number of records.
func (l *asides) len() int { return l.n }

// at returns the i-th record.
func (l *asides) at(i int) *aside { return &l.chunks[i>>asideShift][i&(asideChunk-1)] }

// add appends a.
func (l *asides) add(a aside) {
	if l.n&(asideChunk-1) == 0 {
		// The first chunk starts small: most runs put few records aside.
		l.chunks = append(l.chunks, make([]aside, 0, min(asideChunk, max(64, l.n))))
	}
	last := &l.chunks[len(l.chunks)-1]
	if len(*last) == cap(*last) {
		*last = slices.Grow(*last, min(asideChunk, 2*cap(*last))-cap(*last))
	}
	*last = append(*last, a)
	l.n++
}

// sort orders the records by ref (as ids number findings), stably, when
// they are not in that order already (a run reads its reports in order:
// they most often are).
func (l *asides) sort() {
	sorted := true
	for i := 1; i < l.n && sorted; i++ {
		sorted = compareRefs(l.at(i-1).ref, l.at(i).ref) <= 0
	}
	if sorted {
		return
	}
	all := make([]aside, 0, l.n)
	for _, c := range l.chunks {
		all = append(all, c...)
	}
	slices.SortStableFunc(all, func(a, b aside) int { return compareRefs(a.ref, b.ref) })
	for k := range l.chunks {
		l.chunks[k] = all[k<<asideShift : min((k+1)<<asideShift, l.n)]
	}
}

// search returns the index of the record of r, and whether there is one
// (the records are sorted).
func (l *asides) search(r grouping.Ref) (int, bool) {
	i := sort.Search(l.n, func(i int) bool { return compareRefs(l.at(i).ref, r) >= 0 })
	return i, i < l.n && l.at(i).ref == r
}

// clamp32 is n within an int32.
func clamp32(n int) int32 { return int32(min(max(n, math.MinInt32), math.MaxInt32)) }

// name returns the index of s among the names kept (not the report's
// memory).
func (t *triaging) name(s string) uint32 {
	if i, ok := t.nameIndex[s]; ok {
		return i
	}
	i := uint32(len(t.names))
	s = strings.Clone(s)
	t.names = append(t.names, s)
	t.nameIndex[s] = i
	return i
}

// decide marks f with the decision that covers it, its own or its
// problem's, and reports whether the mode hides it.
func (t *triaging) decide(f *reports.Finding) (hide bool) {
	if t == nil || f.Uncounted() {
		return false
	}
	t.seeTool(f)
	f.Triage = nil
	f.Triage = t.d.Decide(f).Mark()
	// Its problem's decision marks it unless its own suppresses it; a
	// confirmation of another finding of its problem marks it all the
	// same (it is shown).
	if p := t.problems[f.ID]; p != nil && (!f.Triage.Suppressed() || !p.Suppressed()) {
		f.Triage = p
	}
	if f.Triage == nil {
		f.Triage = t.marks[f.ID]
	}
	return t.hides(f.Triage.Suppressed())
}

// seeTool notes f's tool among the run's (whole).
func (t *triaging) seeTool(f *reports.Finding) {
	if t.whole && (t.tools == nil || f.Tool != t.tool) {
		if t.tools == nil {
			t.tools = map[string]bool{}
		}
		t.tool, t.tools[f.Tool] = f.Tool, true
	}
}

// hides says whether the mode hides a finding whose decision suppresses
// it or not.
func (t *triaging) hides(suppressed bool) bool {
	if t == nil {
		return false
	}
	switch t.mode {
	case TriagedInclude:
		return false
	case TriagedOnly:
		return !suppressed
	}
	return suppressed
}

// grouped says whether the first pass hands f, hidden or not, to the
// grouper: every finding in the first run (to find the problems decisions
// cover), those shown in the second (to count their problems).
func (t *triaging) grouped(hide bool) bool {
	return t == nil || t.problems == nil || !hide
}

// noteDecided notes f, marked, when its own decision suppresses it (first
// pass of the first run, every finding, new only or not): its decision
// covers its problem's other findings (covering), in every view alike.
func (t *triaging) noteDecided(f *reports.Finding) {
	if t == nil || t.problems != nil {
		return
	}
	if f.Triage != nil && f.Triage.Expired {
		if t.expired == nil {
			t.expired = map[reports.FindingID]bool{}
		}
		t.expired[f.ID] = true // marked by its own decision: no other's mark
	}
	if t.noteConfirmed(f.ID, f.Triage) || !f.Triage.Suppressed() {
		return
	}
	if t.decided == nil {
		t.decided = map[reports.FindingID]*reports.Triage{}
	}
	t.decided[f.ID] = f.Triage
}

// count counts f, marked, in the first pass (state: against the baseline).
func (t *triaging) count(f *reports.Finding, state string) {
	if t == nil || f.Triage == nil || f.Triage == t.marks[f.ID] {
		return // (a mark of another finding's confirmation: that one counts)
	}
	c := &t.counts
	if state == reports.BaselineNew && t.prior.OfOldProblem(f) {
		// A new finding of a problem the baseline had makes no new
		// problem, and new only leaves it out.
		if t.newOnly {
			return
		}
		state = reports.BaselineUnchanged
	}
	switch {
	case f.Triage.Expired:
		c.Expired++
		return
	case !f.Triage.Suppressed():
		c.Confirmed++
		if f.Triage.Overrules != "" {
			c.Overruled++
		}
		return
	}
	c.Total++
	if t.prior.Duplicate(f) {
		return
	}
	c.Problems++
	c.ByState[f.Triage.State]++
	switch f.Severity {
	case reports.SeverityError:
		c.BySeverity.Error++
	case reports.SeverityWarning:
		c.BySeverity.Warning++
	case reports.SeverityNote:
		c.BySeverity.Note++
	}
	if p := impactCount(&c.ByImpact, f.Impact); p != nil {
		*p++
	}
	if state == reports.BaselineNew {
		c.New++
	}
}

func impactCount(c *summarize.ImpactCounts, i reports.Impact) *int {
	switch i {
	case reports.ImpactBlocker:
		return &c.Blocker
	case reports.ImpactHigh:
		return &c.High
	case reports.ImpactMedium:
		return &c.Medium
	case reports.ImpactLow:
		return &c.Low
	case reports.ImpactInfo:
		return &c.Info
	}
	return nil
}

// spread finds, once the first run's problems are known, the findings
// that a decision on another finding of their problem covers; it reports
// whether the run must be made again for them (errRegroup), which it
// prepares in t. A deep page's passes use it; the others settle.
func (t *triaging) spread(g *Grouped, hasText func(tool, rule string) bool) bool {
	problems, ok := t.resolved(g, hasText)
	if !ok {
		return false
	}
	t.problems, t.prior = problems, g
	return true
}

// resolved returns, once the first run's problems are known (g), the
// decisions that mark findings through their problem (covering); false
// when the run has nothing to settle: no decision in a problem of
// several findings. Only the mode that shows the triaged alone counts
// other problems than theirs: it settles whenever there are problems.
func (t *triaging) resolved(g *Grouped, hasText func(tool, rule string) bool) (map[reports.FindingID]*reports.Triage, bool) {
	if t == nil || !t.regroup || g == nil || !g.groups.Grouped() && !t.decidesWide() {
		return nil, false
	}
	problems := t.covering(g, hasText)
	if len(problems) == 0 && t.mode != TriagedOnly && !t.decidedGrouped(g) {
		return nil, false
	}
	return problems, true
}

// decidedGrouped says whether a finding its own decision hides is in a
// problem of several findings in g: its problem is settled (or the run
// made again) even when none of its findings is covered: when every
// finding of it has a decision of its own (counted triaged once each,
// and left in the groups), or when one of them is confirmed (the
// decided one, hidden by the first run, is shown: hold).
func (t *triaging) decidedGrouped(g *Grouped) bool {
	for id := range t.decided {
		r, ok := g.ref(&reports.Finding{ID: id})
		if !ok {
			continue
		}
		if _, dup := g.groups.LeadOf(r); dup || len(g.groups.Others(r)) > 0 {
			return true
		}
	}
	return false
}

// noteConfirmed notes the finding of that id when its decision, d, is
// confirmed (not expired): a problem one of whose findings someone
// confirmed is not covered by a decision on another of them, and is
// shown whole (hold). It reports whether it noted it.
func (t *triaging) noteConfirmed(id reports.FindingID, d *reports.Triage) bool {
	if d == nil || d.Expired || d.State != string(triage.Confirmed) {
		return false
	}
	if t.confirmed == nil {
		t.confirmed = map[reports.FindingID]*reports.Triage{}
	}
	t.confirmed[id] = d
	return true
}

// hold settles a problem some finding of which is confirmed (members,
// refs of g's ids): no decision on another of its findings covers the
// others (they are taken out of problems), and a finding the query keeps
// whose own decision suppresses it is marked by the confirmation
// instead, through the confirmed finding (Via), and shown (held: the
// first run hid it).
func (t *triaging) hold(g *Grouped, members []grouping.Ref, problems map[reports.FindingID]*reports.Triage) {
	var via *reports.Triage
	for _, r := range members {
		id := g.ids.id(r)
		if d := t.confirmed[id]; d != nil {
			v := *d
			v.Via = id
			via = &v
			break
		}
	}
	for _, r := range members {
		id := g.ids.id(r)
		delete(problems, id)
		own := t.decided[id]
		if own == nil {
			own = t.wideDecided[id]
		}
		if own != nil && !t.wideOut[r] {
			problems[id] = overruling(via, own)
			t.held = true
		}
		if own != nil && via != nil {
			if t.overruled == nil {
				t.overruled = map[reports.FindingID][]reports.Overruled{}
			}
			if o := (reports.Overruled{ID: id, Tool: own.Of.Tool, Rule: own.Of.Rule, State: own.State}); !slices.Contains(t.overruled[via.Via], o) {
				t.overruled[via.Via] = append(t.overruled[via.Via], o)
			}
		}
	}
}

// withOverruled is tr, the mark of finding id, naming the decisions of
// other findings of its problem its confirmation overrules (overruled,
// by the confirmed finding: id's own, or the one it marks through);
// tr itself when there are none.
func (t *triaging) withOverruled(id reports.FindingID, tr *reports.Triage) *reports.Triage {
	if t == nil {
		return tr
	}
	return markOverruled(t.overruled, id, tr)
}

// markOverruled is withOverruled of the decisions overruled, by confirmed
// finding.
func markOverruled(overruled map[reports.FindingID][]reports.Overruled, id reports.FindingID, tr *reports.Triage) *reports.Triage {
	if len(overruled) == 0 || tr == nil || tr.Expired || tr.State != string(triage.Confirmed) {
		return tr
	}
	by := id
	if !tr.Via.IsZero() {
		by = tr.Via
	}
	var others []reports.Overruled
	for _, o := range overruled[by] {
		if o.ID != id { // its own: Overrules says it
			others = append(others, o)
		}
	}
	if len(others) == 0 {
		return tr
	}
	c := *tr
	c.OverrulesOthers = others
	return &c
}

// overruling is the confirmation via as it marks a finding whose own
// decision, own, suppresses it: saying which decision it overrules, so
// that the two that disagree are both in sight.
func overruling(via, own *reports.Triage) *reports.Triage {
	if via == nil || own == nil {
		return via
	}
	v := *via
	v.Overrules = own.State
	return &v
}

// markConfirmed finds, once the first run's problems are known (g), the
// marks of the findings with no decision of their own in a problem
// another finding of which is confirmed (marks): a confirmation on a
// duplicate marks the problem's lead, which the page shows.
func (t *triaging) markConfirmed(g *Grouped) {
	if t == nil || len(t.confirmed) == 0 || t.marks != nil || g == nil || !g.groups.Grouped() && t.wideGroups == nil {
		return
	}
	t.marks = map[reports.FindingID]*reports.Triage{}
	var refs []grouping.Ref
	for id := range t.confirmed {
		if r, ok := g.ids.ref(id); ok {
			refs = append(refs, r)
		}
	}
	slices.SortFunc(refs, compareRefs) // of a problem confirmed twice, the first finding's
	for _, r := range refs {
		id := g.ids.id(r)
		// A finding the filter or the changed lines refuse is in the
		// groups of wide (when some decision settled them), with the
		// findings the query keeps of its problem.
		gs := g.groups
		if t.wideOut[r] {
			if t.wideGroups == nil {
				continue
			}
			gs = t.wideGroups
		}
		lead := r
		if l, dup := gs.LeadOf(r); dup {
			lead = l
		}
		via := *t.confirmed[id]
		via.Via = id
		marked := false
		for _, m := range append([]grouping.Ref{lead}, gs.Others(lead)...) {
			mid := g.ids.id(m)
			if t.confirmed[mid] == nil && t.decided[mid] == nil && !t.expired[mid] && t.marks[mid] == nil {
				t.marks[mid] = &via
				marked = marked || !t.wideOut[m]
			}
		}
		if marked && t.wideOut[r] && !t.newOnly {
			t.marksOutside++
		}
	}
}

// anyConfirmed says whether one of the members (refs of g's ids) was
// confirmed.
func (t *triaging) anyConfirmed(g *Grouped, members []grouping.Ref) bool {
	if len(t.confirmed) == 0 {
		return false
	}
	for _, r := range members {
		if t.confirmed[g.ids.id(r)] != nil {
			return true
		}
	}
	return false
}

// covering returns the decisions that cover the other findings of the
// decided findings' problems, by the covered findings' ids: of a problem,
// the decision on its first decided finding (its lead first, the others
// most important first).
func (t *triaging) covering(g *Grouped, hasText func(tool, rule string) bool) map[reports.FindingID]*reports.Triage {
	problems := map[reports.FindingID]*reports.Triage{}
	defer t.coverWide(g, hasText, problems)
	gs := g.groups
	byRef := make(map[grouping.Ref]reports.FindingID, len(t.decided))
	leads := map[grouping.Ref]bool{}
	for id := range t.decided {
		r, ok := g.ids.ref(id)
		if !ok {
			continue
		}
		byRef[r] = id
		if l, dup := gs.LeadOf(r); dup {
			r = l
		}
		leads[r] = true
	}
	for lead := range leads {
		others := gs.Others(lead)
		if len(others) == 0 {
			continue
		}
		members := append([]grouping.Ref{lead}, others...)
		if t.anyConfirmed(g, members) {
			t.hold(g, members, problems)
			continue
		}
		var via reports.Triage
		for _, r := range members {
			if id, own := byRef[r]; own {
				via = *t.decided[id]
				via.Via = id
				break
			}
		}
		for _, r := range members {
			if _, own := byRef[r]; !own {
				problems[g.ids.id(r)] = &via
			}
		}
	}
	return problems
}

// settleAtResolution: settle settles what it can (tests turn it off to
// compare with the second run).
var settleAtResolution = true

// settle decides, once the first run's problems are known (g), the
// findings a decision on another finding of their problem covers, without
// reading the reports again: their marks (the later passes' findings
// through decide, the page's through show) and the triaged counts, and,
// with TriagedExclude, it takes them out of the baseline's counts
// (counts, nil without one), the groups (their problems as if never
// added: Groups.Drop) and, unless the caller counts again (recount), the
// collector c (Collector.Remove; the page skips them). Every count is then
// what a second run that triaged them from the start counts. It reports
// errRegroup, having changed nothing, when it cannot do so exactly: with
// TriagedOnly (the other problems, not seen, would be counted), a
// collector past its bound of names, a covered finding not put aside (a
// decision on a finding of a file no entry names: the entry's file is
// gone), a finding a decision hides in a problem the decision does not
// cover (new only: a decision on a finding that is not new), or one whose
// absence could group the findings of its file and rule left otherwise
// (see conflicts).
func (t *triaging) settle(g *Grouped, c *summarize.Collector, counts *summarize.BaselineCounts, hasText func(tool, rule string) bool,
	recount func() bool) error {
	problems, ok := t.resolved(g, hasText)
	if !ok {
		return nil
	}
	covered, dups, exact := t.exactly(g, problems, c, hasText)
	t.problems, t.prior = problems, g
	if !exact {
		return errRegroup
	}
	t.countCovered(g, problems, covered, dups)
	if t.mode == TriagedExclude {
		t.takeOut(g, c, counts, covered, recount)
	}
	return nil
}

// exactly finds the records of the findings the problems' decisions
// cover (not those their own decision hides: with new only, one on a
// finding that is not new) and of the decided findings that are
// duplicates (a second run counts them triaged but not as problems), and
// reports whether settling them is exact (see settle).
func (t *triaging) exactly(g *Grouped, problems map[reports.FindingID]*reports.Triage, c *summarize.Collector, hasText func(tool, rule string) bool) (covered, dups []*aside, exact bool) {
	if t.mode == TriagedOnly || t.missed || t.held || !settleAtResolution {
		return nil, nil, false
	}
	t.aside.sort()
	t.ids = g.ids
	covered = make([]*aside, 0, len(problems))
	for id := range problems {
		a := t.record(id)
		if a == nil {
			return nil, nil, false
		}
		if !a.hides {
			a.covered = true
			covered = append(covered, a)
		}
	}
	for id := range t.decided {
		if !g.Duplicate(&reports.Finding{ID: id}) {
			continue
		}
		a := t.record(id)
		if a == nil {
			return nil, nil, false
		}
		dups = append(dups, a)
	}
	if t.mode == TriagedExclude && (!c.Exact() || t.conflicts(g, hasText)) {
		return nil, nil, false
	}
	slices.SortFunc(covered, func(a, b *aside) int { return compareRefs(a.ref, b.ref) })
	return covered, dups, true
}

// record returns the record put aside of the finding of that id, nil
// when there is none.
func (t *triaging) record(id reports.FindingID) *aside {
	r, ok := t.ids.ref(id)
	if !ok {
		return nil
	}
	return t.at(r)
}

// at returns the record put aside of r, nil when there is none (the
// records are sorted).
func (t *triaging) at(r grouping.Ref) *aside {
	i, found := t.aside.search(r)
	if !found {
		return nil
	}
	return t.aside.at(i)
}

// countCovered counts triaged the covered findings the first pass
// counted, each a problem unless a duplicate, and takes back the problems
// counted of decided duplicates; the first pass counted a new finding
// new, which a second run, knowing its problem the baseline had, counts
// unchanged, or leaves out with new only (count).
func (t *triaging) countCovered(g *Grouped, problems map[reports.FindingID]*reports.Triage, covered, dups []*aside) {
	c := &t.counts
	isNew := func(a *aside) bool { return states[a.state] == reports.BaselineNew }
	oldProblem := func(a *aside) bool { return isNew(a) && g.groups.OfOldProblem(a.ref) }
	for _, a := range dups {
		if a.counted { // a decided finding that is not new is not counted with new only
			t.countProblem(a, t.owns[a.own-1], -1, isNew(a))
			if t.newOnly && oldProblem(a) {
				c.Total--
			}
		}
	}
	for id := range t.decided {
		a := t.record(id)
		if a == nil || !a.counted || g.Duplicate(&reports.Finding{ID: id}) {
			continue // (a duplicate's problem is taken back above)
		}
		if !oldProblem(a) {
			continue
		}
		if t.newOnly {
			t.countProblem(a, t.owns[a.own-1], -1, true)
			c.Total--
		} else {
			c.New--
		}
	}
	for _, a := range covered {
		if !a.counted {
			continue
		}
		switch {
		case a.own == 0:
		case t.owns[a.own-1].Expired:
			c.Expired--
		default:
			c.Confirmed--
		}
		old := oldProblem(a)
		if t.newOnly && old {
			continue
		}
		c.Total++
		id := g.ids.id(a.ref)
		if !g.Duplicate(&reports.Finding{ID: id}) {
			t.countProblem(a, problems[id], 1, isNew(a) && !old)
		}
	}
}

// takeOut takes the covered findings out of the page, the baseline's
// counts, the groups and, unless the caller counts again (recount), the
// collector c (TriagedExclude).
func (t *triaging) takeOut(g *Grouped, c *summarize.Collector, counts *summarize.BaselineCounts, covered []*aside, recount func() bool) {
	t.covered = make(map[grouping.Ref]bool, len(covered))
	for _, a := range covered {
		t.covered[a.ref] = true
		if counts == nil {
			continue
		}
		switch states[a.state] {
		case reports.BaselineNew:
			counts.New--
		case reports.BaselineUnchanged:
			counts.Unchanged--
		}
	}
	for i := range t.aside.len() {
		if a := t.aside.at(i); a.hidden() {
			g.groups.Drop(a.ref)
		}
	}
	if recount() {
		return
	}
	for _, a := range covered {
		if a.counted {
			c.Remove(t.finding(a))
		}
	}
}

// compareRefs orders refs as ids number findings: by input, then ordinal.
func compareRefs(a, b grouping.Ref) int {
	return cmp.Or(cmp.Compare(a.Input, b.Input), cmp.Compare(a.N, b.N))
}

// uncountOld takes back, with new only, the confirmed and expired
// findings the first pass counted that are new findings of problems the
// baseline had (g's): the view leaves them out, and a second run does not
// count them (count). The covered ones settle took back already.
func (t *triaging) uncountOld(g *Grouped) {
	if t == nil || !t.newOnly || !t.regroup || g == nil || !g.groups.Grouped() {
		return
	}
	c := &t.counts
	for i := range t.aside.len() {
		a := t.aside.at(i)
		if a.own == 0 || a.covered || !a.counted || states[a.state] != reports.BaselineNew || !g.groups.OfOldProblem(a.ref) {
			continue
		}
		switch d := t.owns[a.own-1]; {
		case d.Expired:
			c.Expired--
		case !d.Suppressed():
			c.Confirmed--
		}
	}
}

// countProblem counts a's problem triaged by d (by -1: takes it back),
// new or not.
func (t *triaging) countProblem(a *aside, d *reports.Triage, by int, isNew bool) {
	c := &t.counts
	c.Problems += by
	c.ByState[d.State] += by
	if c.ByState[d.State] == 0 {
		delete(c.ByState, d.State)
	}
	switch a.severity {
	case reports.SeverityError:
		c.BySeverity.Error += by
	case reports.SeverityWarning:
		c.BySeverity.Warning += by
	case reports.SeverityNote:
		c.BySeverity.Note += by
	}
	if p := impactCount(&c.ByImpact, a.impact); p != nil {
		*p += by
	}
	if isNew {
		c.New += by
	}
}

// conflicts reports whether a second run, whose grouper would not see the
// findings TriagedExclude hides, could group the findings left otherwise
// than the first run's groups less the problems hidden: when a hidden
// finding is in a problem not all hidden, or when, in a file where a
// hidden finding and a shown one of its rule nest (one's lines hold the
// other's, on one line too: the rank of a finding among its rule's on its
// line, and whether it holds another of its rule, are what the grouping
// matches by; the first two lines count as one, a rule's reach up being
// one line), the findings left, grouped again, make other problems than
// the first run's.
func (t *triaging) conflicts(g *Grouped, hasText func(tool, rule string) bool) bool {
	rules := t.shortRules()
	at, idx := t.byFile()
	var hidden, moved, shown, left []int32
	for p := range len(at) - 1 {
		list := idx[at[p]:at[p+1]]
		hidden = hidden[:0]
		for _, i := range list {
			if a := t.aside.at(int(i)); a.hidden() {
				if a.hides && !t.hiddenWhole(g, a) {
					return true
				}
				hidden = append(hidden, i)
			}
		}
		if len(hidden) == 0 {
			continue
		}
		moved = t.moved(list, hidden, rules, moved[:0])
		if len(moved) == 0 || !t.besideOtherRules(list, moved, rules) {
			continue
		}
		shown = shown[:0]
		for _, i := range list {
			if !t.aside.at(int(i)).hidden() {
				shown = append(shown, i)
			}
		}
		left = t.near(shown, moved, left)
	}
	if len(left) == 0 {
		return false
	}
	// The findings left of those files near a moved one, grouped again
	// alone.
	slices.Sort(left)
	gr := t.grouper()
	refs := make([]grouping.Ref, len(left))
	for k, i := range left {
		a := t.aside.at(int(i))
		f := t.finding(a)
		gr.Add(&f, a.ref)
		refs[k] = a.ref
	}
	return !g.groups.SameFor(gr.Resolve(hasText), refs)
}

// hidden says whether the mode hides the finding: its own decision, or
// its problem's.
func (a *aside) hidden() bool { return a.hides || a.covered }

// shortRules returns, by kind, the tool and the short name of its rule
// (indexes into names), as the grouping tells rules apart.
func (t *triaging) shortRules() [][2]uint32 {
	rules := make([][2]uint32, len(t.kinds))
	for k := range t.kinds {
		rules[k] = [2]uint32{t.kinds[k].tool, t.shortOf(uint32(k))}
	}
	return rules
}

// byFile returns the records put aside by file: those of the file of
// path index p are idx[at[p]:at[p+1]], in order.
func (t *triaging) byFile() (at, idx []int32) {
	n := t.aside.len()
	at = make([]int32, len(t.names)+2)
	for i := range n {
		at[t.aside.at(i).path+2]++
	}
	for p := 2; p < len(at); p++ {
		at[p] += at[p-1]
	}
	idx = make([]int32, n)
	for i := range n {
		p := t.aside.at(i).path + 1
		idx[at[p]] = int32(i)
		at[p]++
	}
	return at[:len(at)-1], idx
}

// hiddenWhole reports whether every finding of a's problem is hidden (a
// covered finding's problem is).
func (t *triaging) hiddenWhole(g *Grouped, a *aside) bool {
	lead := a.ref
	if l, dup := g.groups.LeadOf(a.ref); dup {
		lead = l
		if b := t.at(l); b == nil || !b.hidden() {
			return false
		}
	}
	for _, o := range g.groups.Others(lead) {
		if b := t.at(o); b == nil || !b.hidden() {
			return false
		}
	}
	return true
}

// moved appends to moved, in order, the shown findings of a file (list,
// its records in order; hidden, its hidden ones) whose rank among their
// rule's on their line, or whose holding another of their rule, may
// change without a hidden one: they start on the line of a hidden one of
// their rule, or hold it. rules are the kinds' (shortRules).
func (t *triaging) moved(list, hidden []int32, rules [][2]uint32, moved []int32) []int32 {
	start := func(line int32) int32 { return max(line, 2) }
	hs := t.hiddenRecs[:0]
	for _, h := range hidden {
		a := t.aside.at(int(h))
		hs = append(hs, hiddenRec{rules[a.kind], start(a.line), a.end})
	}
	t.hiddenRecs = hs
	// The hidden ones by rule, to look up each shown one's among them.
	slices.SortStableFunc(hs, func(x, y hiddenRec) int {
		return cmp.Or(cmp.Compare(x.rule[0], y.rule[0]), cmp.Compare(x.rule[1], y.rule[1]))
	})
	for _, i := range list {
		s := t.aside.at(int(i))
		if s.hidden() {
			continue
		}
		r, k := rules[s.kind], 0
		if len(hs) > 8 {
			k, _ = slices.BinarySearchFunc(hs, r, func(h hiddenRec, r [2]uint32) int {
				return cmp.Or(cmp.Compare(h.rule[0], r[0]), cmp.Compare(h.rule[1], r[1]))
			})
		}
		for ; k < len(hs) && hs[k].rule[0] <= r[0]; k++ {
			if h := &hs[k]; h.rule == r && (start(s.line) == h.line || start(s.line) <= h.line && h.end <= s.end) {
				moved = append(moved, i)
				break
			}
		}
	}
	return moved
}

// hiddenRec is what moved compares of a hidden finding: its rule (tool,
// short name), its first line as the grouping counts it, its last.
type hiddenRec struct {
	rule      [2]uint32
	line, end int32
}

// besideOtherRules says whether a file (list, its records) has a shown
// finding of another rule than a moved one whose lines overlap the moved
// one's (a rule's reach is a line at most): only there may it matter.
func (t *triaging) besideOtherRules(list, moved []int32, rules [][2]uint32) bool {
	for _, i := range moved {
		s := t.aside.at(int(i))
		for _, j := range list {
			if o := t.aside.at(int(j)); !o.hidden() && rules[o.kind][1] != rules[s.kind][1] && o.line-1 <= s.end+1 && s.line-1 <= o.end+1 {
				return true
			}
		}
	}
	return false
}

// regroupWhole: near takes every finding left of the files (tests turn
// the bound off to compare).
var regroupWhole = false

// near appends to left the findings of a file left (shown, not hidden,
// in order) that a moved finding's may group with: the runs of them whose
// lines come within three of each other's, that hold a moved one.
// Findings two lines apart at most are all that may match (a rule's reach
// up is a line, the first two lines count as one), and a finding's
// problem is decided among those it matches, so a run of them groups as
// the whole file groups it.
func (t *triaging) near(shown, moved, left []int32) []int32 {
	if regroupWhole {
		return append(left, shown...)
	}
	lines := t.byLine[:0]
	for _, i := range shown {
		lines = append(lines, [2]int32{t.aside.at(int(i)).line, i})
	}
	t.byLine = lines
	slices.SortFunc(lines, func(x, y [2]int32) int { return cmp.Compare(x[0], y[0]) })
	from, end, holds := 0, int32(math.MinInt32), false
	take := func(to int) {
		for _, l := range lines[from:to] {
			left = append(left, l[1])
		}
	}
	for k, l := range lines {
		a := t.aside.at(int(l[1]))
		if start := max(a.line, 2); start > end+3 && k > 0 {
			if holds {
				take(k)
			}
			from, holds = k, false
		}
		end = max(end, a.end, a.line, 2)
		if !holds {
			_, holds = slices.BinarySearch(moved, l[1])
		}
	}
	if holds {
		take(len(lines))
	}
	return left
}

// skip returns what the page leaves out: the duplicates (dup, n of them
// among the findings counted), and the findings settle took out.
func (t *triaging) skip(dup func(*reports.Finding) bool, n int) (func(*reports.Finding) bool, int) {
	if t == nil || len(t.covered) == 0 {
		return dup, n
	}
	return func(f *reports.Finding) bool {
		if dup(f) {
			return true
		}
		r, ok := t.ids.ref(f.ID)
		return ok && t.covered[r]
	}, n
}

// covers says whether settle took findings out of the page.
func (t *triaging) covers() bool { return t != nil && len(t.covered) > 0 }

// coveredKept says whether c keeps for its first of each severity a
// finding settle took out: a second run would have kept another in its
// place (the pass that counts again gives them).
func (t *triaging) coveredKept(c *summarize.Collector, k Keep) bool {
	if !t.covers() || k.PerSeverity == 0 {
		return false
	}
	return c.KeepsAny(func(f *reports.Finding) bool {
		r, ok := t.ids.ref(f.ID)
		return ok && t.covered[r]
	})
}

// show puts the counts in v's summary; idx, the changed lines' index
// (nil: none), bounds the decisions that match no finding to those of
// the files changed.
func (t *triaging) show(v *summarize.View, idx *diff.Index) {
	if t == nil {
		return
	}
	if t.problems != nil { // the page's findings a decision on another of their problem covers
		for i := range v.Findings {
			f := &v.Findings[i].Finding
			if p := t.problems[f.ID]; p != nil && !f.Triage.Suppressed() {
				f.Triage = p
			}
		}
	}
	for i := range v.Findings {
		f := &v.Findings[i].Finding
		if f.Triage == nil {
			f.Triage = t.marks[f.ID]
		}
		f.Triage = t.withOverruled(f.ID, f.Triage)
	}
	c := t.counts
	c.Confirmed += t.marksOutside
	if t.whole && v.Summary.Excluded == 0 && !suppresses(v.Inputs) {
		c.Unmatched = t.unmatched(idx)
		c.UnmatchedChanged = idx != nil
	}
	if c.Total+c.Confirmed+c.Expired+c.Unmatched == 0 {
		return
	}
	v.Summary.Triaged = &c
}

// suppresses says whether an input suppresses results, as recap's own
// SARIF suppresses the findings the triage file decided: the run decides
// none of them, while recap triage check matches entries on them, so
// which entries match no finding is not told.
func suppresses(inputs []reports.Input) bool {
	for i := range inputs {
		if inputs[i].Suppressed > 0 {
			return true
		}
	}
	return false
}

// unmatched counts the entries of the tools of the run's findings that
// matched none of them; with the changed lines' index idx, those of the
// files changed alone (by their path then or now): a change that fixed
// or edited decided code, or deleted its file, says so, and the others
// were told before it (a review of every pull request does not repeat
// them).
func (t *triaging) unmatched(idx *diff.Index) int {
	if t.m == nil {
		return 0
	}
	return t.m.Unmatched(func(e *triage.Entry, path string) bool {
		return t.tools[e.Tool] && (idx == nil || idx.Changed(path) || idx.Changed(e.Path))
	})
}
