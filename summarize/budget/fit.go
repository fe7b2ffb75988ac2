package budget

// A Part is one section of a view, rendered and priced on its own: a
// summary, a top list, a finding, a finding's context, a file line, a hunk,
// a line of code.
type Part struct {
	// Kind orders admission: every part of kind 0 is kept; then parts of
	// kind 1 are admitted, then kind 2, and so on.
	Kind int
	// Tokens is what the part costs.
	Tokens int
	// Needs is 1 + the index of the part this one is admitted only with
	// (a finding's context needs the finding); 0 when none. That part must
	// be of a lower kind.
	Needs int
}

// Pack admits parts by value until budget is used: kind 0 always, then
// each kind in turn, its parts in order. Within a kind it stops at the first
// part that does not fit, or whose needed part was left out, so that what is
// kept is a prefix (a page stays a page; context goes to the first
// findings). shares, when it has a kind, caps the parts of kinds 1 up to
// that kind at that percentage of the room kind 0 leaves (a diff's file
// lines may fill half of it, its hunks the rest). Pack is pure: it returns
// which parts to keep and the tokens used.
func Pack(parts []Part, budget int, shares map[int]int) (keep []bool, used int) {
	keep = make([]bool, len(parts))
	last := 0
	for i, p := range parts {
		if p.Kind == 0 {
			keep[i] = true
			used += p.Tokens
		}
		last = max(last, p.Kind)
	}
	base := used
	for kind := 1; kind <= last; kind++ {
		limit := budget
		if pct, ok := shares[kind]; ok {
			limit = base + max(budget-base, 0)*pct/100
		}
		for i, p := range parts {
			if p.Kind != kind {
				continue
			}
			if p.Needs > 0 && !keep[p.Needs-1] || used+p.Tokens > limit {
				break
			}
			keep[i] = true
			used += p.Tokens
		}
	}
	return keep, used
}

// A Plan is a view prepared for [Fit].
type Plan struct {
	// Parts are the view's sections, priced; see [Pack].
	Parts []Part
	// Shares caps kinds of parts to a share of the room; see [Pack].
	Shares map[int]int
	// Apply makes the view show the parts keep says, with a marker for each
	// one left out, then applies the last resorts up to level (0: none;
	// 1…Levels: each smaller than the one before, for when only kind 0 is
	// left). It rebuilds the view from its full form each time.
	Apply func(keep []bool, level int)
	// Levels is how many last resorts Apply knows.
	Levels int
	// Render returns the whole view as it is written.
	Render func() string
	// Tokens is the view's statement of its own size; Fit sets it. Nil when
	// the view states none.
	Tokens *TokenInfo
}

// Fit makes the view of p fit budget (clamped to [MinMaxTokens,
// MaxMaxTokens]) as counted by c, and never more than CharsPerToken
// characters per token: it packs the parts into PackMargin of the budget,
// renders the whole and measures it; while the whole is over, it packs again
// into less (a part left out may make room for smaller ones), then leaves out
// the last kept part of the highest kind, then applies the last resorts. It
// returns the whole's cost, which is over budget only when kind 0 at the last
// level is.
func Fit(c Counter, budget int, p Plan) int {
	budget = Clamp(budget)
	if p.Tokens != nil {
		*p.Tokens = TokenInfo{Budget: budget, Tokenizer: c.Name()}
	}
	base := 0
	for _, part := range p.Parts {
		if part.Kind == 0 {
			base += part.Tokens
		}
	}
	packBudget := int(float64(budget) * PackMargin)
	keep, _ := Pack(p.Parts, packBudget, p.Shares)
	level := 0
	for {
		p.Apply(keep, level)
		n := p.measure(c)
		over := n - budget
		switch {
		case over <= 0:
			return n
		case packBudget > base:
			packBudget -= max(over, budget/100)
			keep, _ = Pack(p.Parts, packBudget, p.Shares)
		case dropLast(p.Parts, keep):
		case level < p.Levels:
			level++
		default:
			return n
		}
	}
}

// measure is the cost of the rendered view, its own statement included.
func (p *Plan) measure(c Counter) int {
	if p.Tokens == nil {
		return Cost(c, p.Render())
	}
	n := Measure(p.Tokens, c, p.Render)
	return max(n, Floor(p.Render()))
}

// dropLast un-keeps the last kept part of the highest kind above 0; false
// when only kind 0 is left.
func dropLast(parts []Part, keep []bool) bool {
	at := -1
	for i := len(parts) - 1; i >= 0; i-- {
		if keep[i] && parts[i].Kind > 0 && (at < 0 || parts[i].Kind > parts[at].Kind) {
			at = i
		}
	}
	if at < 0 {
		return false
	}
	keep[at] = false
	return true
}

// FitList is [Fit] for a view made of a head, always kept, and rows kept as
// a prefix (files' counts, tools' figures): head and rows are their texts as
// priced, show(n) makes the view show the first n rows (with a marker for
// the rest), render returns the whole, t is its size statement (nil: none).
func FitList(c Counter, limit int, head string, rows []string, show func(n int), render func() string, t *TokenInfo) int {
	parts := make([]Part, 0, 1+len(rows))
	parts = append(parts, Part{Kind: 0, Tokens: Cost(c, head)})
	for _, r := range rows {
		parts = append(parts, Part{Kind: 1, Tokens: Cost(c, r)})
	}
	return Fit(c, limit, Plan{
		Parts: parts,
		Apply: func(keep []bool, _ int) {
			n := 0
			for n < len(rows) && keep[1+n] {
				n++
			}
			show(n)
		},
		Render: render,
		Tokens: t,
	})
}
