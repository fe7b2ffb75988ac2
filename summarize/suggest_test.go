package summarize

import (
	"slices"
	"testing"
)

// TestSuggestionsJudgmentFirst: the suggestions propose recap's impact
// (the gravest that keeps some but not all, at or above it) and quality
// before the tools' severity; none that keeps every finding.
func TestSuggestionsJudgmentFirst(t *testing.T) {
	tests := []struct {
		name string
		s    Summary
		want []string
	}{
		{"the sample's counts", Summary{Total: 171, ByImpact: ImpactCounts{High: 1, Medium: 34, Low: 136},
			ByQuality: QualityCounts{Security: 1, Reliability: 29, Maintainability: 141}, BySeverity: SeverityCounts{Error: 71, Warning: 80, Note: 20}},
			[]string{"impact=high keeps 1 of 171 findings", "quality=security keeps 1 of 171 findings", "severity=error keeps 71 of 171 findings"}},
		{"no high: medium and above", Summary{Total: 10, ByImpact: ImpactCounts{Medium: 4, Low: 6},
			ByQuality: QualityCounts{Reliability: 4, Maintainability: 6}, BySeverity: SeverityCounts{Error: 10}},
			[]string{"impact=medium keeps 4 of 10 findings", "quality=reliability keeps 4 of 10 findings"}},
		{"one impact, one quality, one severity", Summary{Total: 5, ByImpact: ImpactCounts{Low: 5},
			ByQuality: QualityCounts{Maintainability: 5}, BySeverity: SeverityCounts{Note: 5}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := suggestions(&tc.s, nil); !slices.Equal(got, tc.want) {
				t.Errorf("suggestions %q, want %q", got, tc.want)
			}
		})
	}
}
