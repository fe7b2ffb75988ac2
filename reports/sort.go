package reports

import (
	"cmp"
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
	Impact                         Impact
	Quality                        Quality
	SecuritySeverity               float64
	Severity                       Severity
	Category, Tool, Rule, Path, ID string
	Line, Column                   int
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
func (o Order) Compare(a, b *SortKey) int {
	switch o {
	case OrderSeverity:
		if c := cmp.Compare(b.Severity, a.Severity); c != 0 {
			return c
		}
		if c := strings.Compare(a.Category, b.Category); c != 0 {
			return c
		}
		if c := strings.Compare(a.Rule, b.Rule); c != 0 {
			return c
		}
		if c := comparePlace(a, b); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	case OrderLocation:
		if c := comparePlace(a, b); c != 0 {
			return c
		}
		if c := compareImportance(a, b); c != 0 {
			return c
		}
	default:
		if c := compareImportance(a, b); c != 0 {
			return c
		}
		if c := comparePlace(a, b); c != 0 {
			return c
		}
	}
	if c := strings.Compare(a.Tool, b.Tool); c != 0 {
		return c
	}
	if c := strings.Compare(a.Rule, b.Rule); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
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
