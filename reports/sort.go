package reports

import (
	"cmp"
	"slices"
	"strings"
)

// Order is an order of the findings in a view (docs/formats.md, "The
// view"). Every order is total: the id breaks the last ties, so that pages
// are stable.
type Order uint8

const (
	// OrderImportance, the default, puts what matters first: the highest
	// impact, then the quality (security, reliability, maintainability),
	// then the higher security severity (a CVE of 9.8 before one of 9.0),
	// then the severity, then the place (path, line, column), then the
	// tool and rule.
	OrderImportance Order = iota
	// OrderSeverity is the most severe first as the reports say it, then
	// by category, rule and place.
	OrderSeverity
	// OrderLocation is by place (path, line, column), then by importance.
	OrderLocation
)

// OrderNames are the orders' names, as --sort and the MCP sort argument
// take them, by Order.
var OrderNames = []string{OrderImportance: "importance", OrderSeverity: "severity", OrderLocation: "location"}

// String returns the order's name.
func (o Order) String() string {
	if int(o) < len(OrderNames) {
		return OrderNames[o]
	}
	return "invalid"
}

// ParseOrder reads an order's name, case-insensitively; "" is the default.
func ParseOrder(name string) (Order, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" {
		return OrderImportance, nil
	}
	for i, s := range OrderNames {
		if s == n {
			return Order(i), nil
		}
	}
	return 0, UnknownWord("order", name, OrderNames, OrderNames)
}

// Less is the default order of findings in every view, [OrderImportance].
func Less(a, b *Finding) bool { return OrderImportance.Less(a, b) }

// Less reports whether a comes before b in the order.
func (o Order) Less(a, b *Finding) bool {
	ka, kb := KeyOf(a), KeyOf(b)
	return o.Compare(&ka, &kb) < 0
}

// SortKey is what the orders compare of a finding, for those that keep
// many findings' places in view order without the findings (a capped SARIF
// run).
type SortKey struct {
	Impact                     Impact
	Quality                    Quality
	SecuritySeverity           float64
	Severity                   Severity
	Category, Tool, Rule, Path string
	ID                         FindingID
	Line, Column               int
}

// KeyOf returns f's sort key.
func KeyOf(f *Finding) SortKey {
	return SortKey{Impact: f.Impact, Quality: f.Quality, SecuritySeverity: f.SecuritySeverity, Severity: f.Severity, Category: f.Category, Tool: f.Tool,
		Rule: f.Rule, Path: f.Path, ID: f.ID, Line: f.Line, Column: f.Column}
}

// Less orders keys as [Less] orders their findings.
func (k *SortKey) Less(o *SortKey) bool { return OrderImportance.Compare(k, o) < 0 }

// Compare returns -1 when a comes before b in the order, +1 when after, 0
// for findings with the same key.
//
// Every order compares in four steps: what the findings of one kind share
// that it puts before the place ([Order.compareBefore]), the place (path,
// line, column), what they share that it puts after it
// ([Order.compareAfter]), and the id. [CompareRanked] takes the same steps
// on ranks.
func (o Order) Compare(a, b *SortKey) int {
	if c := o.compareBefore(a, b); c != 0 {
		return c
	}
	if c := comparePlace(a, b); c != 0 {
		return c
	}
	if c := o.compareAfter(a, b); c != 0 {
		return c
	}
	return a.ID.Compare(b.ID)
}

// compareBefore compares what the order puts before the place: by
// importance, the importance; by severity, the severity, then the category
// and rule; by location, nothing.
func (o Order) compareBefore(a, b *SortKey) int {
	switch o {
	case OrderSeverity:
		if c := cmp.Compare(b.Severity, a.Severity); c != 0 {
			return c
		}
		if c := strings.Compare(a.Category, b.Category); c != 0 {
			return c
		}
		return strings.Compare(a.Rule, b.Rule)
	case OrderLocation:
		return 0
	}
	return compareImportance(a, b)
}

// compareAfter compares what the order puts after the place: by
// importance, the tool and rule; by location, the importance, then the
// tool and rule; by severity, nothing.
func (o Order) compareAfter(a, b *SortKey) int {
	switch o {
	case OrderSeverity:
		return 0
	case OrderLocation:
		if c := compareImportance(a, b); c != 0 {
			return c
		}
	}
	if c := strings.Compare(a.Tool, b.Tool); c != 0 {
		return c
	}
	return strings.Compare(a.Rule, b.Rule)
}

// KindRank is the rank of a kind of findings (findings that share all an
// order compares but their place and id: a rule's findings, in practice)
// among the kinds of a set: of what the order compares of it before the
// place, and of what after. Kinds whose parts compare equal have equal
// ranks.
type KindRank struct{ Before, After uint32 }

// RankKinds ranks the kinds of keys (their place and id are not looked
// at) among them in the order o, for [CompareRanked].
func (o Order) RankKinds(keys []SortKey) []KindRank {
	ranks := make([]KindRank, len(keys))
	at := make([]int, len(keys))
	for _, step := range []struct {
		compare func(a, b *SortKey) int
		set     func(r *KindRank, n uint32)
	}{
		{o.compareBefore, func(r *KindRank, n uint32) { r.Before = n }},
		{o.compareAfter, func(r *KindRank, n uint32) { r.After = n }},
	} {
		for i := range at {
			at[i] = i
		}
		slices.SortFunc(at, func(i, j int) int { return step.compare(&keys[i], &keys[j]) })
		n := uint32(0)
		for i, k := range at {
			if i > 0 && step.compare(&keys[at[i-1]], &keys[k]) != 0 {
				n++
			}
			step.set(&ranks[k], n)
		}
	}
	return ranks
}

// Ranked is a finding as a sort of many findings compares it, in small
// numbers: its kind's ranks ([Order.RankKinds]), its path's rank among
// the paths (in byte order), its line and column (as a store of many
// findings holds them, in 32 bits), and its id.
type Ranked struct {
	Kind         KindRank
	Path         uint32
	Line, Column int32
	ID           FindingID
}

// RankKey is what [CompareRanked] compares of a finding before its id,
// packed in words compared in turn, for a sort of many findings that keeps
// one by each (comparing them touches nothing else).
type RankKey [3]uint64

// Key returns r's key: the kind's rank before the place and the path's
// rank; the line and the column; the kind's rank after the place.
func (r *Ranked) Key() RankKey {
	const sign = 1 << 31 // negative numbers first
	return RankKey{
		uint64(r.Kind.Before)<<32 | uint64(r.Path),
		uint64(uint32(r.Line)^sign)<<32 | uint64(uint32(r.Column)^sign),
		uint64(r.Kind.After),
	}
}

// Compare compares keys as [CompareRanked] compares their findings, but
// for the id.
func (k *RankKey) Compare(o *RankKey) int {
	if c := cmp.Compare(k[0], o[0]); c != 0 {
		return c
	}
	if c := cmp.Compare(k[1], o[1]); c != 0 {
		return c
	}
	return cmp.Compare(k[2], o[2])
}

// CompareRanked compares findings as their order's [Order.Compare]
// compares their keys, given their kinds' ranks of one RankKinds call and
// their paths' ranks of one ranking: by their [RankKey], then by id.
func CompareRanked(a, b *Ranked) int {
	ka, kb := a.Key(), b.Key()
	if c := ka.Compare(&kb); c != 0 {
		return c
	}
	return a.ID.Compare(b.ID)
}

// compareImportance puts the higher impact first, then the quality that
// matters more, then the higher security severity, then the more severe.
func compareImportance(a, b *SortKey) int {
	if c := cmp.Compare(b.Impact, a.Impact); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Quality, a.Quality); c != 0 {
		return c
	}
	if c := cmp.Compare(b.SecuritySeverity, a.SecuritySeverity); c != 0 {
		return c
	}
	return cmp.Compare(b.Severity, a.Severity)
}

// comparePlace orders by path, line and column.
func comparePlace(a, b *SortKey) int {
	if c := strings.Compare(a.Path, b.Path); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	return cmp.Compare(a.Column, b.Column)
}
