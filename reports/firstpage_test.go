package reports

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFirstPage: the head shows the first finding of each rule of an
// impact before a rule's second, never a less important finding before a
// more important one, and the findings past it keep view order.
func TestFirstPage(t *testing.T) {
	// Findings in view order, written impact:rule.
	for _, tc := range []struct {
		name  string
		view  string
		size  int
		want  string
		after string // the view from the head's end on
	}{
		{"one rule fills an impact", "b:A b:A b:A b:B b:C h:D", 4, "b:A b:B b:C b:A", "b:A h:D"},
		{"breadth within an impact, never across", "b:A b:A h:B h:C", 3, "b:A b:A h:B", "h:C"},
		{"a rule seen above has only seconds below", "b:A h:A h:B h:A", 3, "b:A h:B h:A", "h:A"},
		{"fewer findings than the size", "m:A m:A l:B", 5, "m:A m:A l:B", ""},
		{"the head ends within an impact", "h:A h:A h:B h:C h:D", 2, "h:A h:B", "h:A h:C h:D"},
		{"empty", "", 3, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fs []Finding
			for i, w := range strings.Fields(tc.view) {
				imp, rule, _ := strings.Cut(w, ":")
				x := map[string]Impact{"b": ImpactBlocker, "h": ImpactHigh, "m": ImpactMedium, "l": ImpactLow}[imp]
				fs = append(fs, Finding{ID: ID("n", i), Impact: x, Tool: "T", Rule: rule})
			}
			name := func(fs []Finding) string {
				var out []string
				for _, f := range fs {
					out = append(out, map[Impact]string{ImpactBlocker: "b", ImpactHigh: "h", ImpactMedium: "m", ImpactLow: "l"}[f.Impact]+":"+f.Rule)
				}
				return strings.Join(out, " ")
			}
			got := ReorderKeys(slices.Clone(fs), tc.size)
			n := min(tc.size, len(fs))
			if diff := cmp.Diff(tc.want, name(got[:n])); diff != "" {
				t.Errorf("head (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.after, name(got[n:])); diff != "" {
				t.Errorf("after the head (-want +got):\n%s", diff)
			}
			// Every finding once, the rest in view order.
			var ids, rest []string
			inHead := map[string]bool{}
			for i, f := range got {
				ids = append(ids, f.ID.String())
				if i < n {
					inHead[f.ID.String()] = true
				}
			}
			for _, f := range fs {
				if !inHead[f.ID.String()] {
					rest = append(rest, f.ID.String())
				}
			}
			slices.Sort(ids)
			want := make([]string, len(fs))
			for i := range fs {
				want[i] = fs[i].ID.String()
			}
			slices.Sort(want)
			if !slices.Equal(ids, want) {
				t.Errorf("findings lost or repeated: %v", ids)
			}
			var gotRest []string
			for _, f := range got[n:] {
				gotRest = append(gotRest, f.ID.String())
			}
			if !slices.Equal(gotRest, rest) {
				t.Errorf("after the head %v, want view order %v", gotRest, rest)
			}
		})
	}
}
