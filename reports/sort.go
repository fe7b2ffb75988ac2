package reports

// Less is the order of findings in every view (docs/formats.md, "The view"): the most severe
// first, then by category, rule, path, line and column; the id breaks ties so
// that the order is total and pages are stable.
func Less(a, b *Finding) bool {
	return less(a.Severity, b.Severity, a.Category, b.Category, a.Rule, b.Rule, a.Path, b.Path, a.Line, b.Line, a.Column, b.Column, a.ID, b.ID)
}

// SortKey is what [Less] compares of a finding, for those that keep many
// findings' places in view order without the findings (a capped SARIF run).
type SortKey struct {
	Severity                 Severity
	Category, Rule, Path, ID string
	Line, Column             int
}

// KeyOf returns f's sort key.
func KeyOf(f *Finding) SortKey {
	return SortKey{Severity: f.Severity, Category: f.Category, Rule: f.Rule, Path: f.Path, ID: f.ID, Line: f.Line, Column: f.Column}
}

// Less orders keys as [Less] orders their findings.
func (k *SortKey) Less(o *SortKey) bool {
	return less(k.Severity, o.Severity, k.Category, o.Category, k.Rule, o.Rule, k.Path, o.Path, k.Line, o.Line, k.Column, o.Column, k.ID, o.ID)
}

// less is the view order of two findings given by their fields, a's then b's.
func less(sa, sb Severity, ca, cb, ra, rb, pa, pb string, la, lb, ka, kb int, ia, ib string) bool {
	if sa != sb {
		return sa > sb
	}
	if ca != cb {
		return ca < cb
	}
	if ra != rb {
		return ra < rb
	}
	if pa != pb {
		return pa < pb
	}
	if la != lb {
		return la < lb
	}
	if ka != kb {
		return ka < kb
	}
	return ia < ib
}
