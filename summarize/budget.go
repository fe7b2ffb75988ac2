package summarize

// Budget limits (SPEC §4).
const (
	DefaultMaxTokens = 10000 // what a response may cost unless asked otherwise; Claude Code warns above it
	MinMaxTokens     = 256   // below this not even a summary fits
	MaxMaxTokens     = 25000 // Claude Code refuses tool results above this by default
)

// PartKind orders the parts of a view by value: a part of a lower kind is
// admitted before any part of a higher one.
type PartKind uint8

// The kinds of parts, in the order they are admitted.
const (
	PartSummary  PartKind = iota // the counts and the inputs: always admitted
	PartTopLists                 // top categories, rules and files
	PartFinding                  // one finding without its context
	PartContext                  // one finding's context lines
)

// A Part is one rendered section of a view and what it costs.
type Part struct {
	Kind   PartKind
	Tokens int
}

// Pack admits parts by value until the budget is used: the summary always,
// then the top lists, then findings without context in view order, then their
// contexts in view order. Within findings and contexts it stops at the first
// part that does not fit, so that what is kept is a prefix (a page stays a
// page; context goes to the first findings). A context is admitted only with
// its finding: parts[i] of kind PartContext belongs to the nearest PartFinding
// before it. Pack is pure: it returns which parts to keep and the tokens used.
func Pack(parts []Part, budget int) (keep []bool, used int) {
	keep = make([]bool, len(parts))
	owner := make([]int, len(parts)) // for a context, the index of its finding
	last := -1
	for i, p := range parts {
		if p.Kind == PartFinding {
			last = i
		}
		owner[i] = last
	}
	for kind := PartSummary; kind <= PartContext; kind++ {
		for i, p := range parts {
			if p.Kind != kind {
				continue
			}
			if kind == PartContext && (owner[i] < 0 || !keep[owner[i]]) {
				break
			}
			if kind != PartSummary && used+p.Tokens > budget {
				break
			}
			keep[i] = true
			used += p.Tokens
		}
	}
	return keep, used
}
