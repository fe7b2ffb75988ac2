package summarize

import (
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/reports"
)

// TestPage checks the streamed page against a full sort with the head of
// different rules first (reports.FirstPage over every finding), for many
// offsets and limits, on findings in random order.
func TestPage(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var all []reports.Finding
	for i := 0; i < 500; i++ {
		all = append(all, reports.Finding{
			ID: reports.ID("f", i), Severity: reports.Severities[rng.Intn(3)],
			Category: []string{"a", "b", "c"}[rng.Intn(3)], Rule: fmt.Sprintf("r%d", rng.Intn(3)*rng.Intn(40)),
			Impact: reports.Impacts[rng.Intn(len(reports.Impacts))],
			Path:   []string{"x.java", "y.java"}[rng.Intn(2)], Line: rng.Intn(50),
		})
	}
	sorted := append([]reports.Finding(nil), all...)
	sort.Slice(sorted, func(i, j int) bool { return reports.Less(&sorted[i], &sorted[j]) })
	plain := append([]reports.Finding(nil), sorted...)
	sorted = reports.ReorderKeys(sorted, reports.FirstPageSize)
	if cmp.Equal(plain[:reports.FirstPageSize], sorted[:reports.FirstPageSize]) {
		t.Fatal("the head of different rules is the view order's: the test shows nothing")
	}
	for _, tc := range []struct{ offset, limit, wantLimit int }{
		{0, 0, DefaultLimit}, {0, 10, 10}, {37, 20, 20}, {45, 10, 10}, {50, 30, 30}, {3, 60, 60}, {490, 50, 50}, {499, 1, 1}, {500, 10, 10}, {0, 1000, MaxLimit}, {-5, 3, 3},
	} {
		c := NewCollector()
		c.KeepPage(tc.offset, tc.limit)
		for _, f := range all {
			c.Add(f)
		}
		v := c.View(nil)
		off := max(tc.offset, 0)
		end := min(off+tc.wantLimit, len(sorted))
		var want []reports.Finding
		if off < len(sorted) {
			want = sorted[off:end]
		}
		var got []reports.Finding
		for _, fv := range v.Findings {
			got = append(got, fv.Finding)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("offset %d limit %d: page mismatch (-want +got):\n%s", tc.offset, tc.limit, diff)
		}
		p := v.Page
		if p.Total != 500 || p.Returned != len(want) || p.Limit != tc.wantLimit {
			t.Errorf("offset %d limit %d: page %+v", tc.offset, tc.limit, *p)
		}
		if hasNext := end < len(sorted); hasNext != (p.NextOffset != nil) || hasNext && *p.NextOffset != end {
			t.Errorf("offset %d limit %d: nextOffset %v, want %d", tc.offset, tc.limit, p.NextOffset, end)
		}
	}
}

// TestPageShortForTheHead: a rule's first finding that is skipped (a
// duplicate) asks for a pass that skips duplicates as they come when the
// rule's next finding may belong in the head of different rules, and only
// then.
func TestPageShortForTheHead(t *testing.T) {
	for _, tc := range []struct {
		name    string
		rules   int            // rules of one high finding each
		skipped reports.Impact // the impact of the skipped first of rule Z
		want    bool
	}{
		{"a head short of its size", 10, reports.ImpactLow, true},
		{"a skipped first below a full head", 60, reports.ImpactLow, false},
		{"a skipped first above a full head", 60, reports.ImpactBlocker, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCollector()
			c.KeepPage(0, 10)
			for i := range tc.rules {
				c.Add(reports.Finding{ID: reports.ID("r", i), Tool: "T", Rule: fmt.Sprintf("R%02d", i), Impact: reports.ImpactHigh})
			}
			c.Add(reports.Finding{ID: reports.ID("z", 1), Tool: "T", Rule: "Z", Impact: tc.skipped, Line: 1})
			c.Add(reports.Finding{ID: reports.ID("z", 2), Tool: "T", Rule: "Z", Impact: tc.skipped, Line: 2})
			c.Skip(func(f *reports.Finding) bool { return f.ID == reports.ID("z", 1) }, 1)
			if got := c.PageShort(); got != tc.want {
				t.Errorf("PageShort %v, want %v", got, tc.want)
			}
		})
	}
}
