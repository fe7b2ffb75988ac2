package summarize

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize/budget"
)

// A Layout renders a view as one output format writes it: whole, and in the
// parts that [Fit] prices on their own (package render provides one per
// format that can be budgeted). Parts are priced as they render, so that the
// budget holds for what is written, whatever the format.
type Layout interface {
	// View renders the whole view, exactly as it is written.
	View(v *View) string
	// TopLists renders the top categories, rules and files.
	TopLists(s *Summary) string
	// Finding renders one finding without its context; Context renders its
	// context lines and note alone.
	Finding(f *FindingView) string
	Context(f *FindingView) string
}

// A Speller writes a filter as the door that made the view takes it, in
// the suggestions of what would narrow a result: filter is "impact",
// "quality", "severity", "category", "rule" or "path", value its value. A [Layout] may implement
// it; without it a suggestion writes filter=value (severity=error,
// category="Design").
type Speller interface {
	Spell(filter, value string) string
}

// spell writes filter with value as sp spells it, or as filter=value.
func spell(sp Speller, filter, value string) string {
	if sp != nil {
		return sp.Spell(filter, value)
	}
	switch filter {
	case "severity", "impact", "quality":
		return filter + "=" + value
	}
	return fmt.Sprintf("%s=%q", filter, value)
}

// The kinds of a view's parts, in the order they are admitted: the first
// finding's code comes before a further finding (an agent's first answer
// shows the code of the most important finding, not only more findings).
const (
	kindSummary      = iota // the counts and the inputs: always kept
	kindTopLists            // top categories, rules and files
	kindFirst               // the first finding without its context
	kindFirstContext        // the first finding's context lines
	kindFinding             // one finding without its context
	kindContext             // one finding's context lines
)

// Fit makes v fit budget tokens as counted by c, and in 4 characters per
// budget token, when rendered by l (see [budget.Fit]). The summary counts and
// the inputs are always kept (their warnings go first when even they do not
// fit); then the top lists, the first finding and its context, the
// page's other findings and their contexts are admitted by value. Nothing is cut inside a finding. Each part left out gets
// a marker in Omitted; Suggestions name the largest groups that would narrow
// the result; Page and Tokens are updated. The last resorts, once only the
// summary is left: no suggestions, then one marker for all, then the counts
// of the largest tool alone. Suggestions the view had before (a filter that
// matches nothing) are kept, first. It returns what the view costs.
func Fit(v *View, c budget.Counter, limit int, l Layout) int {
	limit = budget.Clamp(limit)
	given := slices.Clone(v.Suggestions)
	v.Tokens = &budget.TokenInfo{Budget: limit, Tokenizer: c.Name()}
	sp, _ := l.(Speller)
	findings := v.Findings
	tops := [3]any{v.Summary.TopCategories, v.Summary.TopRules, v.Summary.TopFiles}
	topsCost := budget.Cost(c, l.TopLists(&v.Summary))

	v.Findings = nil
	v.Summary.TopCategories, v.Summary.TopRules, v.Summary.TopFiles = []Count{}, []RuleCount{}, []Count{}
	fitBase(v, c, limit, l)
	baseOmitted := slices.Clone(v.Omitted) // fitBase's markers, which every try starts from
	parts := []budget.Part{{Kind: kindSummary, Tokens: budget.Cost(c, l.View(v))}, {Kind: kindTopLists, Tokens: topsCost}}
	unlisted := unlist(findings, c, int(float64(limit)*budget.PackMargin)-parts[0].Tokens-topsCost, l)
	for i := range findings {
		f := &findings[i]
		kf, kc := kindFinding, kindContext
		if i == 0 {
			kf, kc = kindFirst, kindFirstContext
		}
		parts = append(parts,
			budget.Part{Kind: kf, Tokens: budget.Cost(c, l.Finding(f))},
			budget.Part{Kind: kc, Tokens: budget.Cost(c, l.Context(f)), Needs: len(parts) + 1})
	}
	return budget.Fit(c, limit, budget.Plan{
		Parts: parts,
		Apply: func(keep []bool, level int) {
			apply(v, baseOmitted, findings, tops, parts, keep, level == 0, sp)
			for i, n := range unlisted {
				if keep[2+2*i] {
					v.Omitted = append(v.Omitted, budget.Omission{What: fmt.Sprintf("alsoReportedBy of %s: the %s of its problem, over the budget: analysis.getFinding of %[1]s names them (recap findings --no-group lists every finding), or raise maxTokens",
						findings[i].ID, english.Plural(n, "other finding", "other findings"))})
				}
			}
			if level == 0 && len(given) > 0 {
				v.Suggestions = append(slices.Clone(given), v.Suggestions...)
			}
			squeeze(v, level-1)
		},
		Levels: 6,
		Render: func() string { return l.View(v) },
		Tokens: v.Tokens,
	})
}

// minAlsoTokens is the least a name of alsoReportedBy costs
// ({"tool":"T","rule":"R","id":"abcd-1"}: 36 characters, 9 tokens at 4
// characters a token, and never fewer in o200k_base).
const minAlsoTokens = 8

// unlist takes alsoReportedBy off the findings that cannot be shown with it
// within room tokens (what the budget leaves beside the summary and the top
// lists): a problem's lead is shown without its list, with a marker, rather
// than left out (a problem of 100,000 findings names 99,999 others, some
// 2 million tokens). It returns how many names each such finding had, by
// index. A list too long for room by its length alone is not rendered.
func unlist(findings []FindingView, c budget.Counter, room int, l Layout) map[int]int {
	var out map[int]int
	for i := range findings {
		f := &findings[i]
		n := len(f.AlsoReportedBy)
		if n == 0 || n*minAlsoTokens <= room && budget.Cost(c, l.Finding(f)) <= room {
			continue
		}
		if out == nil {
			out = map[int]int{}
		}
		f.AlsoReportedBy, out[i] = nil, n
	}
	return out
}

// fitBase shrinks the always-kept part when it alone is over half the
// budget: first the inputs' warnings, then inputs from the end.
func fitBase(v *View, c budget.Counter, limit int, l Layout) {
	// An input's status costs more than a token: more inputs than the
	// budget never fit, and the view of them all (200,000 inputs: 30 MB
	// of JSON) is not rendered to learn it.
	if len(v.Inputs) <= limit && c.Count(l.View(v)) <= limit/2 {
		return
	}
	if v.InputsCounted == 0 {
		v.InputsCounted = reports.CountRead(v.Inputs) // before statuses go
	}
	warned := 0
	for i := range v.Inputs {
		if len(v.Inputs[i].Warnings) > 0 {
			warned++
			v.Inputs[i].Warnings = nil
		}
	}
	if warned > 0 {
		v.Omitted = append(v.Omitted, budget.Omission{What: fmt.Sprintf("warnings of %d input(s): read the inputs one at a time", warned)})
	}
	// Then the files the tools could not analyse, which the full answer names.
	if c.Count(l.View(v)) > limit/2 {
		files := 0
		for i := range v.Inputs {
			files += len(v.Inputs[i].NotAnalysed)
			v.Inputs[i].NotAnalysed = nil
		}
		if files > 0 {
			v.Omitted = append(v.Omitted, budget.Omission{What: fmt.Sprintf("the %d files the tools could not analyse: read the inputs one at a time", files)})
		}
	}
	dropped := len(v.Inputs) - keepInputs(v, c, limit, l)
	v.Inputs = v.Inputs[:len(v.Inputs)-dropped]
	if dropped > 0 {
		v.Omitted = append(v.Omitted, budget.Omission{What: fmt.Sprintf("the status of %s: read fewer inputs at a time", english.Plural(dropped, "more input", "more inputs"))})
	}
	// Many inputs of many tools in the smallest budgets: the last input's
	// status, then the counts of the smallest tools go too.
	if len(v.Inputs) == 1 && dropped > 0 && c.Count(l.View(v)) > limit/2 {
		v.Inputs = v.Inputs[:0]
		v.Omitted[len(v.Omitted)-1].What = fmt.Sprintf("the status of %s: read fewer inputs at a time", english.Plural(dropped+1, "input", "inputs"))
	}
	if len(v.Summary.ByTool) > 3 && c.Count(l.View(v)) > limit/2 {
		tools := make([]Count, 0, len(v.Summary.ByTool))
		for k, n := range v.Summary.ByTool {
			tools = append(tools, Count{k, n})
		}
		sortCounts(tools)
		byTool := map[string]int{}
		for _, t := range tools[:3] {
			byTool[t.Name] = t.Count
		}
		v.Summary.ByTool = byTool
		v.Omitted = append(v.Omitted, budget.Omission{What: fmt.Sprintf("the counts of %d more tools: filter by tool, or raise maxTokens", len(tools)-3)})
	}
}

// keepInputs is how many of v's first inputs (at least one) the view may
// keep within half the budget. It doubles the inputs tried until they do
// not fit, then halves the gap: the views it renders hold at most twice the
// inputs kept, so that ten thousand inputs cost a few small renders, not
// one render of them all per input dropped.
func keepInputs(v *View, c budget.Counter, limit int, l Layout) int {
	all := v.Inputs
	defer func() { v.Inputs = all }()
	fits := func(k int) bool {
		v.Inputs = all[:k]
		return c.Count(l.View(v)) <= limit/2
	}
	lo, hi := 1, 2 // lo fits (or is the least kept); hi is the first tried past it
	for hi <= len(all) && fits(hi) {
		lo, hi = hi, 2*hi
	}
	hi = min(hi, len(all)+1)
	// Between lo and hi: the first that does not fit.
	return lo + sort.Search(hi-lo-1, func(i int) bool { return !fits(lo + 1 + i) })
}

// squeeze is the last resort of the smallest budgets, once only the
// summary is left: at level 1 the markers become one, at level 2 the counts
// by tool keep only the largest and the counts by quality and impact at once
// go (byImpact and byQuality stay), at level 3 the security counts lose
// their impacts and CWE ids, the counts by quality and by level (which
// byImpact gives), the duplicates' and the triaged findings' impacts and
// severities go (byImpact stays),
// at level 4 the security counts, the counts by tool and the inputs'
// statuses go, at level 5 the triaged problems' counts by state (their
// total stays).
func squeeze(v *View, level int) {
	if level >= 2 && len(v.Summary.ByTool) > 1 {
		best, n := "", -1
		for k, c := range v.Summary.ByTool {
			if c > n || c == n && k < best {
				best, n = k, c
			}
		}
		v.Summary.ByTool = map[string]int{best: n}
	}
	if level >= 2 {
		v.Summary.ByQualityImpact = QualityImpactCounts{}
	}
	if t := v.Summary.Triaged; t != nil && level >= 3 {
		// What the decisions left out, by state: their impacts and
		// severities go as the summary's do.
		v.Summary.Triaged = &TriagedCounts{Total: t.Total, Problems: t.Problems, ByState: t.ByState, New: t.New, Confirmed: t.Confirmed, Expired: t.Expired, Overruled: t.Overruled, Unmatched: t.Unmatched, UnmatchedChanged: t.UnmatchedChanged, UnmatchedOlder: t.UnmatchedOlder, Shown: t.Shown}
	}
	if level >= 3 {
		v.Summary.ByQuality = QualityCounts{}
		v.Summary.ByLevel = SeverityCounts{}
		if d := v.Summary.Duplicates; d != nil {
			v.Summary.Duplicates = &DuplicateCounts{Findings: d.Findings, Problems: d.Problems}
		}
	}
	if level >= 4 {
		v.Summary.ByTool = map[string]int{}
	}
	triagedStates := false
	if t := v.Summary.Triaged; t != nil && level >= 5 && len(t.ByState) > 0 {
		c := *t
		c.ByState = map[string]int{} // the total and the problems stay
		v.Summary.Triaged, triagedStates = &c, true
	}
	statuses := false
	if level >= 4 && len(v.Inputs) > 0 {
		v.Inputs = v.Inputs[:0]
		statuses = true
	}
	if sec := v.Summary.Security; sec != nil && level >= 3 {
		if level >= 4 {
			v.Summary.Security = nil
		} else if len(sec.TopCWE) > 0 || sec.ByImpact.Total() > 0 {
			v.Summary.Security = &SecurityCounts{Findings: sec.Findings, TopCWE: []Count{}}
		}
	}
	if level < 1 {
		return
	}
	// The markers become one, which names the counts cut: a byTool of one
	// tool must not read as the only tool that reported.
	var cut []string
	tools := 0
	for _, n := range v.Summary.ByTool {
		tools += n
	}
	qualities := level >= 3 && v.Summary.Total > 0
	switch {
	case len(v.Summary.ByTool) > 0 && tools < v.Summary.Total && qualities:
		cut = append(cut, "other tools', quality and level counts")
	case len(v.Summary.ByTool) > 0 && tools < v.Summary.Total:
		cut = append(cut, "other tools' counts")
	case len(v.Summary.ByTool) == 0 && v.Summary.Total > 0 && qualities:
		cut = append(cut, "tool, quality and level counts")
	case len(v.Summary.ByTool) == 0 && v.Summary.Total > 0:
		cut = append(cut, "tool counts")
	case qualities:
		cut = append(cut, "quality and level counts")
	}
	if triagedStates {
		cut = append(cut, "triaged states")
	}
	if len(v.Omitted) > 1 || len(cut) > 0 {
		total := 0
		for _, o := range v.Omitted {
			total += o.Tokens
		}
		what := []string{"findings", "top lists", "statuses"}
		if len(v.Omitted) == 1 {
			what = []string{v.Omitted[0].What} // one marker: what it says, and the counts
			if i := strings.Index(what[0], ": "); i > 0 {
				what[0] = what[0][:i]
			}
		}
		v.Omitted = []budget.Omission{{What: fmt.Sprintf("%d parts (%s): raise maxTokens, or narrow the filters", len(v.Omitted)+len(cut), strings.Join(append(what, cut...), ", ")), Tokens: total}}
	}
	if statuses && !strings.Contains(v.Omitted[0].What, "statuses") {
		v.Omitted[0].What = "inputs' statuses, " + v.Omitted[0].What
	}
}

// apply rebuilds v's findings, top lists, page and markers from keep.
func apply(v *View, baseOmitted []budget.Omission, findings []FindingView, tops [3]any, parts []budget.Part, keep []bool, suggest bool, sp Speller) {
	v.Omitted, v.Suggestions = append([]budget.Omission(nil), baseOmitted...), nil
	if keep[kindTopLists] {
		v.Summary.TopCategories, v.Summary.TopRules, v.Summary.TopFiles = tops[0].([]Count), tops[1].([]RuleCount), tops[2].([]Count)
	} else {
		v.Summary.TopCategories, v.Summary.TopRules, v.Summary.TopFiles = []Count{}, []RuleCount{}, []Count{}
		v.Omitted = append(v.Omitted, budget.Omission{What: "top categories, rules and files: raise maxTokens", Tokens: parts[kindTopLists].Tokens})
	}
	v.Findings = v.Findings[:0]
	droppedN, droppedTok, noCtxN, noCtxTok := 0, 0, 0, 0
	for i, f := range findings {
		fi, ci := 2+2*i, 3+2*i
		if !keep[fi] {
			droppedN++
			droppedTok += parts[fi].Tokens + parts[ci].Tokens
			continue
		}
		if !keep[ci] && (len(f.Context) > 0 || f.RuleInfo != nil) {
			if len(f.Context) > 0 {
				note := "context omitted to keep the token budget"
				if IsEditedSinceNote(f.ContextNote) {
					// What the lines would have said: the line may not be the code the tool read.
					note += "; " + EditedSinceShort
				}
				f.Context, f.ContextNote = nil, note
			}
			f.RuleInfo = nil // a format that shows the rule shows it with the context
			noCtxN++
			noCtxTok += parts[ci].Tokens
		}
		v.Findings = append(v.Findings, f)
	}
	if v.Page == nil {
		return
	}
	p := v.Page
	p.Returned = len(v.Findings)
	next := p.Offset + p.Returned
	p.NextOffset = nil
	if next < p.Total && next > p.Offset { // never the offset just asked for: a caller following it would loop
		p.NextOffset = &next
	}
	if noCtxN > 0 {
		v.Omitted = append(v.Omitted, budget.Omission{What: fmt.Sprintf("context of %s: raise maxTokens, or ask for fewer findings (limit)", english.Plural(noCtxN, "finding", "findings")), Tokens: noCtxTok})
	}
	switch {
	case droppedN > 0 && p.Returned == 0:
		v.Omitted = append(v.Omitted, budget.Omission{What: fmt.Sprintf("%s of the requested page: not one fits beside the summary; raise maxTokens, or narrow the filters", english.Plural(droppedN, "finding", "findings")), Tokens: droppedTok})
	case droppedN > 0:
		v.Omitted = append(v.Omitted, budget.Omission{What: fmt.Sprintf("%s of the requested page: raise maxTokens, narrow the filters, or page with offset=%d", english.Plural(droppedN, "finding", "findings"), next), Tokens: droppedTok})
	}
	if after := p.Total - p.Offset - len(findings); after > 0 && len(findings) > 0 {
		avg := (droppedTok + sumKept(parts, keep)) / len(findings)
		v.Omitted = append(v.Omitted, budget.Omission{What: fmt.Sprintf("%s after the requested page: page with offset=%d, or narrow the filters", english.Plural(after, "finding", "findings"), p.Offset+len(findings)), Tokens: avg * after})
	}
	if suggest && (droppedN > 0 || !keep[kindTopLists] || (p.NextOffset != nil && p.Total > 2*len(v.Findings))) {
		v.Suggestions = suggestions(&v.Summary, sp)
	}
}

func sumKept(parts []budget.Part, keep []bool) int {
	n := 0
	for i := 2; i < len(parts); i++ {
		if keep[i] {
			n += parts[i].Tokens
		}
	}
	return n
}

// suggestions name the largest groups that would narrow a result, each
// filter spelled by sp.
func suggestions(s *Summary, sp Speller) []string {
	var out []string
	// recap's judgment first: the gravest impact that keeps some but not
	// all (at or above it), the first quality that does; the tools' own
	// severity after them.
	atOrAbove := 0
	for _, i := range reports.Impacts[:len(reports.Impacts)-1] {
		atOrAbove += s.ByImpact.Of(i)
		if atOrAbove > 0 && atOrAbove < s.Total {
			out = append(out, fmt.Sprintf("%s keeps %d of %s", spell(sp, "impact", i.String()), atOrAbove, english.Plural(s.Total, "finding", "findings")))
			break
		}
	}
	for _, q := range reports.Qualities {
		if n := s.ByQuality.Of(q); n > 0 && n < s.Total {
			out = append(out, fmt.Sprintf("%s keeps %d of %s", spell(sp, "quality", q.String()), n, english.Plural(s.Total, "finding", "findings")))
			break
		}
	}
	for _, sev := range []struct {
		name string
		n    int
	}{{"error", s.BySeverity.Error}, {"warning", s.BySeverity.Warning}} {
		if sev.n > 0 && sev.n < s.Total {
			out = append(out, fmt.Sprintf("%s keeps %d of %s", spell(sp, "severity", sev.name), sev.n, english.Plural(s.Total, "finding", "findings")))
			break
		}
	}
	if len(s.TopCategories) > 0 {
		c := s.TopCategories[0]
		out = append(out, fmt.Sprintf("%s has %s", spell(sp, "category", c.Name), english.Plural(c.Count, "finding", "findings")))
	}
	if len(s.TopRules) > 0 {
		r := s.TopRules[0]
		out = append(out, fmt.Sprintf("%s (%s) has %s", spell(sp, "rule", r.Name), r.Tool, english.Plural(r.Count, "finding", "findings")))
	}
	if len(s.TopFiles) > 0 {
		f := s.TopFiles[0]
		out = append(out, fmt.Sprintf("%s has %s", spell(sp, "path", f.Name), english.Plural(f.Count, "finding", "findings")))
	}
	return out
}
