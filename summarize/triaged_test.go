package summarize

import "testing"

// TestTriagedText: the triaged counts in words, in problems (with their
// findings when more), the blockers and high-impact problems among them
// named.
func TestTriagedText(t *testing.T) {
	fp := map[string]int{"false-positive": 3, "accepted-risk": 1}
	for _, tc := range []struct {
		name string
		c    *TriagedCounts
		want string
	}{
		{"none", nil, ""},
		{"nothing left out", &TriagedCounts{Confirmed: 2}, ""},
		{"low only", &TriagedCounts{Total: 5, Problems: 4, ByState: fp, ByImpact: ImpactCounts{Low: 4}}, "4 problems triaged (5 findings): 3 false positive, 1 accepted risk"},
		{"one high", &TriagedCounts{Total: 5, Problems: 4, ByState: fp, ByImpact: ImpactCounts{High: 1, Low: 3}}, "4 problems triaged (5 findings; 1 high): 3 false positive, 1 accepted risk"},
		{"blockers and highs", &TriagedCounts{Total: 5, Problems: 4, ByState: fp, ByImpact: ImpactCounts{Blocker: 2, High: 1, Medium: 1}}, "4 problems triaged (5 findings; 2 blocker, 1 high): 3 false positive, 1 accepted risk"},
		{"one finding each", &TriagedCounts{Total: 1, Problems: 1, ByState: map[string]int{"wont-fix": 1}, ByImpact: ImpactCounts{Low: 1}}, "1 problem triaged: 1 won't fix"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.Text(); got != tc.want {
				t.Errorf("Text() = %q, want %q", got, tc.want)
			}
		})
	}
}
