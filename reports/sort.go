package reports

// Less is the order of findings in every view (docs/formats.md, "The view"): the most severe
// first, then by category, rule, path, line and column; the id breaks ties so
// that the order is total and pages are stable.
func Less(a, b *Finding) bool {
	if a.Severity != b.Severity {
		return a.Severity > b.Severity
	}
	if a.Category != b.Category {
		return a.Category < b.Category
	}
	if a.Rule != b.Rule {
		return a.Rule < b.Rule
	}
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Column != b.Column {
		return a.Column < b.Column
	}
	return a.ID < b.ID
}
