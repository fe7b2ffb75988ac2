package summarize

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Counter counts tokens (package tokens provides them).
type Counter interface {
	Count(text string) int
	Name() string
}

// A Layout renders a view as one output format writes it: whole, and in the
// parts that [Fit] prices on their own (package render provides one per
// format). Parts are priced as they render, so that the budget holds for
// what is written, whatever the format.
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

// packMargin keeps room for what measuring parts one by one misses (commas,
// indentation, the tokens block itself); the final check trims if needed.
const packMargin = 0.97

// Fit makes v fit budget tokens as counted by c, and in 4 characters per
// budget token, when rendered by l. The summary counts and the
// inputs are always kept (their warnings go first when even they do not fit);
// then the top lists, the page's findings and their contexts are admitted by
// [Pack]. Nothing is cut inside a finding. Each part left out gets a marker
// in Omitted; Suggestions name the largest groups that would narrow the
// result; Page and Tokens are updated.
func Fit(v *View, c Counter, budget int, l Layout) {
	budget = min(max(budget, MinMaxTokens), MaxMaxTokens)
	v.Tokens = &TokenInfo{Budget: budget, Tokenizer: c.Name()}
	findings := v.Findings
	tops := [3]any{v.Summary.TopCategories, v.Summary.TopRules, v.Summary.TopFiles}
	cost := func(s string) int { return max(c.Count(s), (utf8.RuneCountInString(s)+3)/4) }
	topsCost := cost(l.TopLists(&v.Summary))

	v.Findings = nil
	v.Summary.TopCategories, v.Summary.TopRules, v.Summary.TopFiles = []Count{}, []RuleCount{}, []Count{}
	fitBase(v, c, budget, l)
	baseOmitted := len(v.Omitted)
	parts := []Part{{PartSummary, cost(l.View(v))}, {PartTopLists, topsCost}}
	for i := range findings {
		f := &findings[i]
		parts = append(parts, Part{PartFinding, cost(l.Finding(f))}, Part{PartContext, cost(l.Context(f))})
	}
	packBudget := int(float64(budget) * packMargin)
	keep, _ := Pack(parts, packBudget)

	// Parts priced alone miss what joins them (markers, notes, the tokens
	// line); while the whole is over, pack again into less, so that a part
	// dropped (the top lists) makes room for smaller ones (findings), and
	// when only the summary is left, drop the suggestions.
	suggest, squeezed := true, 0
	for {
		apply(v, baseOmitted, findings, tops, parts, keep, suggest)
		squeeze(v, squeezed)
		n := measure(v, c, l)
		over := max(n, (utf8.RuneCountInString(l.View(v))+3)/4) - budget
		if over <= 0 {
			return
		}
		if packBudget > parts[0].Tokens {
			packBudget -= max(over, budget/100)
			keep, _ = Pack(parts, packBudget)
			continue
		}
		if dropLast(keep) {
			continue
		}
		if !suggest {
			if squeezed < 2 {
				squeezed++
				continue
			}
			return // only the counts are left, as small as they get
		}
		suggest = false // the last thing to go: the summary's own counts say as much
	}
}

// measure sets v.Tokens.Estimated to the count of v as rendered, counting the
// tokens block with its final value.
func measure(v *View, c Counter, l Layout) int {
	return Measure(v.Tokens, c, func() string { return l.View(v) })
}

// Measure sets t.Estimated to the count of what render returns, which shows
// t itself: it counts again until the count it shows is the count it has.
//
// The first count is of the text showing 0; the next guess adds what the
// number costs more than "0" (a few tokens), so that one more count
// usually confirms it. A [SplitCounter] needs no second count: the number
// is priced alone, and the text is checked to differ from the first only
// by it.
func Measure(t *TokenInfo, c Counter, render func() string) int {
	if sc, ok := c.(SplitCounter); ok {
		if n, ok := measureSplit(t, sc, render); ok {
			return n
		}
	}
	t.Estimated = 0
	n := c.Count(render())
	t.Estimated = n + c.Count(strconv.Itoa(n)) - c.Count("0")
	for i := 0; i < 3; i++ {
		n := c.Count(render())
		if n == t.Estimated {
			break
		}
		t.Estimated = n
	}
	return t.Estimated
}

// A SplitCounter is a Counter whose count is made of a byte-pair encoding's
// count and the text's length in runes (as the max counter is). A BPE
// count is the sum of its pre-tokens' counts, and a run of digits with no
// digit either side is pre-tokens of its own: so a text that differs from
// another only by such a number is priced without being counted again.
type SplitCounter interface {
	Counter
	// BPE counts s by the byte-pair encoding alone.
	BPE(s string) int
	// Combine returns the count of a text from its BPE count and its runes.
	Combine(bpe, runes int) int
}

// measureSplit is Measure for a SplitCounter: the same steps, each count
// after the first made of the first and the number's own; false when the
// text shows the number in another way (twice, or next to digits), and
// Measure counts the texts whole.
func measureSplit(t *TokenInfo, c SplitCounter, render func() string) (int, bool) {
	t.Estimated = 0
	text0 := render()
	bpe0, runes0, zero := c.BPE(text0), utf8.RuneCountInString(text0), c.BPE("0")
	count := func(n int) int {
		d := strconv.Itoa(n)
		return c.Combine(bpe0-zero+c.BPE(d), runes0-1+len(d))
	}
	n := c.Combine(bpe0, runes0)
	est := n + c.Count(strconv.Itoa(n)) - c.Count("0")
	for i := 0; i < 3; i++ {
		n := count(est)
		if n == est {
			break
		}
		est = n
	}
	t.Estimated = est
	if !numberReplaced(text0, render(), strconv.Itoa(est)) {
		return 0, false
	}
	return est, true
}

// numberReplaced reports whether b is a with one "0" replaced by the digits
// d, and no number character either side of them.
func numberReplaced(a, b, d string) bool {
	if len(b) != len(a)-1+len(d) {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if i == len(a) {
		return a == b // d is "0"
	}
	if a[i] != '0' || b[i:i+len(d)] != d || a[i+1:] != b[i+len(d):] {
		return false
	}
	if r, _ := utf8.DecodeLastRuneInString(a[:i]); i > 0 && unicode.IsNumber(r) {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(a[i+1:]); i+1 < len(a) && unicode.IsNumber(r) {
		return false
	}
	return true
}

// fitBase shrinks the always-kept part when it alone is over budget: first
// the inputs' warnings, then inputs from the end.
func fitBase(v *View, c Counter, budget int, l Layout) {
	if c.Count(l.View(v)) <= budget/2 {
		return
	}
	warned := 0
	for i := range v.Inputs {
		if len(v.Inputs[i].Warnings) > 0 {
			warned++
			v.Inputs[i].Warnings = nil
		}
	}
	if warned > 0 {
		v.Omitted = append(v.Omitted, Omission{What: fmt.Sprintf("warnings of %d input(s): read the inputs one at a time", warned)})
	}
	dropped := 0
	for len(v.Inputs) > 1 && c.Count(l.View(v)) > budget/2 {
		v.Inputs = v.Inputs[:len(v.Inputs)-1]
		dropped++
	}
	if dropped > 0 {
		v.Omitted = append(v.Omitted, Omission{What: fmt.Sprintf("the status of %d more inputs: read fewer inputs at a time", dropped)})
	}
	// Many inputs of many tools in the smallest budgets: the last input's
	// status, then the counts of the smallest tools go too.
	if len(v.Inputs) == 1 && dropped > 0 && c.Count(l.View(v)) > budget/2 {
		v.Inputs = v.Inputs[:0]
		v.Omitted[len(v.Omitted)-1].What = fmt.Sprintf("the status of %d inputs: read fewer inputs at a time", dropped+1)
	}
	if len(v.Summary.ByTool) > 3 && c.Count(l.View(v)) > budget/2 {
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
		v.Omitted = append(v.Omitted, Omission{What: fmt.Sprintf("the counts of %d more tools: filter by tool, or raise maxTokens", len(tools)-3)})
	}
}

// squeeze is the last resort of the smallest budgets, once only the
// summary is left: at level 1 the markers become one, at level 2 the counts
// by tool keep only the largest.
func squeeze(v *View, level int) {
	if level >= 1 && len(v.Omitted) > 1 {
		total := 0
		for _, o := range v.Omitted {
			total += o.Tokens
		}
		v.Omitted = []Omission{{What: fmt.Sprintf("%d parts (findings, top lists, statuses): raise maxTokens, or narrow the filters", len(v.Omitted)), Tokens: total}}
	}
	if level >= 2 && len(v.Summary.ByTool) > 1 {
		best, n := "", -1
		for k, c := range v.Summary.ByTool {
			if c > n || c == n && k < best {
				best, n = k, c
			}
		}
		v.Summary.ByTool = map[string]int{best: n}
	}
}

// apply rebuilds v's findings, top lists, page and markers from keep.
func apply(v *View, baseOmitted int, findings []FindingView, tops [3]any, parts []Part, keep []bool, suggest bool) {
	v.Omitted, v.Suggestions = v.Omitted[:baseOmitted], nil
	if keep[1] {
		v.Summary.TopCategories, v.Summary.TopRules, v.Summary.TopFiles = tops[0].([]Count), tops[1].([]RuleCount), tops[2].([]Count)
	} else {
		v.Summary.TopCategories, v.Summary.TopRules, v.Summary.TopFiles = []Count{}, []RuleCount{}, []Count{}
		v.Omitted = append(v.Omitted, Omission{What: "top categories, rules and files: raise maxTokens", Tokens: parts[1].Tokens})
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
		if !keep[ci] && len(f.Context) > 0 {
			f.Context, f.ContextNote = nil, "context omitted to keep the token budget"
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
	if next < p.Total {
		p.NextOffset = &next
	}
	if noCtxN > 0 {
		v.Omitted = append(v.Omitted, Omission{What: fmt.Sprintf("context of %d findings: raise maxTokens, or ask for fewer findings (limit)", noCtxN), Tokens: noCtxTok})
	}
	if droppedN > 0 {
		v.Omitted = append(v.Omitted, Omission{What: fmt.Sprintf("%d findings of the requested page: raise maxTokens, narrow the filters, or page with offset=%d", droppedN, next), Tokens: droppedTok})
	}
	if after := p.Total - p.Offset - len(findings); after > 0 && len(findings) > 0 {
		avg := (droppedTok + sumKept(parts, keep)) / len(findings)
		v.Omitted = append(v.Omitted, Omission{What: fmt.Sprintf("%d findings after the requested page: page with offset=%d, or narrow the filters", after, p.Offset+len(findings)), Tokens: avg * after})
	}
	if suggest && (droppedN > 0 || !keep[1] || (p.NextOffset != nil && p.Total > 2*len(v.Findings))) {
		v.Suggestions = suggestions(&v.Summary)
	}
}

func sumKept(parts []Part, keep []bool) int {
	n := 0
	for i := 2; i < len(parts); i++ {
		if keep[i] {
			n += parts[i].Tokens
		}
	}
	return n
}

// suggestions name the largest groups that would narrow a result.
func suggestions(s *Summary) []string {
	var out []string
	for _, sev := range []struct {
		name string
		n    int
	}{{"error", s.BySeverity.Error}, {"warning", s.BySeverity.Warning}} {
		if sev.n > 0 && sev.n < s.Total {
			out = append(out, fmt.Sprintf("severity=%s keeps %d of %d findings", sev.name, sev.n, s.Total))
			break
		}
	}
	if len(s.TopCategories) > 0 {
		c := s.TopCategories[0]
		out = append(out, fmt.Sprintf("category=%q has %d findings", c.Name, c.Count))
	}
	if len(s.TopRules) > 0 {
		r := s.TopRules[0]
		out = append(out, fmt.Sprintf("rule=%q (%s) has %d findings", r.Name, r.Tool, r.Count))
	}
	if len(s.TopFiles) > 0 {
		f := s.TopFiles[0]
		out = append(out, fmt.Sprintf("path=%q has %d findings", f.Name, f.Count))
	}
	return out
}

// dropLast un-keeps the last kept context, else the last kept finding, else
// the top lists; false when only the summary is left.
func dropLast(keep []bool) bool {
	for i := len(keep) - 1; i >= 3; i -= 2 {
		if keep[i] {
			keep[i] = false
			return true
		}
	}
	for i := len(keep) - 2; i >= 2; i -= 2 {
		if keep[i] {
			keep[i] = false
			return true
		}
	}
	if keep[1] {
		keep[1] = false
		return true
	}
	return false
}

// Marker is the omission as one line, its cost after its subject:
// "[omitted: 150 findings of the requested page (~31000 tokens): raise maxTokens, …]".
func (o Omission) Marker() string {
	subject, how, ok := strings.Cut(o.What, ": ")
	if o.Tokens <= 0 {
		return "[omitted: " + o.What + "]"
	}
	if !ok {
		return fmt.Sprintf("[omitted: %s (~%d tokens)]", o.What, o.Tokens)
	}
	return fmt.Sprintf("[omitted: %s (~%d tokens): %s]", subject, o.Tokens, how)
}
