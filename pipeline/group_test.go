package pipeline_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
)

// pairClasses puts rules A of tool One and B of tool Two in one class.
func pairClasses(tool, rule string) int {
	if tool == "One" && rule == "A" || tool == "Two" && rule == "B" {
		return 0
	}
	return -1
}

// twoTools makes two SARIF logs, of tools One and Two, where many of One's
// findings of rule A share their line with Two's of rule B.
func twoTools(t *testing.T, dir string, n int) []string {
	rng := rand.New(rand.NewPCG(3, 9))
	var one, two strings.Builder
	one.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"One"}},"results":[`)
	two.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Two"}},"results":[`)
	res := func(b *strings.Builder, first bool, rule, level string, file, line int) {
		if !first {
			b.WriteString(",")
		}
		fmt.Fprintf(b, `{"ruleId":"%s","level":"%s","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/f%03d.go"},"region":{"startLine":%d}}}]}`,
			rule, level, file, line)
	}
	levels := []string{"error", "warning", "note"}
	for i := 0; i < n; i++ {
		file, line := rng.IntN(200), 1+rng.IntN(40)
		rule := []string{"A", "C"}[rng.IntN(2)]
		res(&one, i == 0, rule, levels[rng.IntN(3)], file, line)
		if rule == "A" && rng.IntN(3) > 0 { // two of three A's are reported by Two too
			res(&two, two.Len() < 80, "B", levels[rng.IntN(3)], file, line)
		}
	}
	res(&two, two.Len() < 80, "D", "note", 1, 1)
	one.WriteString(`]}]}`)
	two.WriteString(`]}]}`)
	var paths []string
	for name, b := range map[string]*strings.Builder{"one.sarif": &one, "two.sarif": &two} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return paths
}

// TestGroupedPages: with grouping, every page, near or deep, is the page
// of the findings that lead their problem (or stand alone), in view order;
// the summary counts the findings and the problems; a page's leads name
// the others.
func TestGroupedPages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	paths := twoTools(t, dir, 24_000)
	// The reference: every finding, grouped by the grouper alone.
	var all []reports.Finding
	if _, err := parsers.ReadAll(paths, parsers.ReadOptions{}, func(f reports.Finding) error {
		all = append(all, f)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	g := grouping.NewGrouper(pairClasses)
	tags := map[string]uint32{}
	refOf := func(id string) grouping.Ref {
		i := strings.LastIndexByte(id, '-')
		if _, ok := tags[id[:i]]; !ok {
			tags[id[:i]] = uint32(len(tags))
		}
		var n uint32
		fmt.Sscan(id[i+1:], &n)
		return grouping.Ref{Input: tags[id[:i]], N: n}
	}
	for i := range all {
		g.Add(&all[i], refOf(all[i].ID.String()))
	}
	gs := g.Resolve(nil)
	var leads []reports.Finding
	for _, f := range all {
		if _, dup := gs.LeadOf(refOf(f.ID.String())); !dup {
			leads = append(leads, f)
		}
	}
	slices.SortFunc(leads, func(a, b reports.Finding) int {
		if reports.Less(&a, &b) {
			return -1
		}
		return 1
	})
	leads = reports.ReorderKeys(leads, reports.FirstPageSize) // the head of different rules first
	if gs.Duplicates < 5000 {
		t.Fatalf("only %d duplicates: the test needs many", gs.Duplicates)
	}
	for _, page := range [][2]int{{0, 50}, {0, 200}, {37, 5}, {45, 10}, {50, 20}, {9_990, 50}, {12_000, 200}, {len(leads) - 3, 10}} {
		for _, src := range []pipeline.Source{pipeline.Files{Paths: paths}, opaque{pipeline.Files{Paths: paths}}} {
			name := fmt.Sprintf("offset=%d,limit=%d,%T", page[0], page[1], src)
			q := pipeline.Query{Reports: src, Classes: pairClasses, Keep: pipeline.Keep{Page: &pipeline.Page{Offset: page[0], Limit: page[1]}}}
			res, err := pipeline.Run(context.Background(), &q)
			if err != nil {
				t.Fatal(err)
			}
			v := res.View
			if v.Summary.Total != len(all) || v.Summary.Problems != len(leads) || v.Summary.Duplicates == nil ||
				v.Summary.Duplicates.Findings != gs.Duplicates || v.Summary.Duplicates.Problems != gs.Problems() {
				t.Fatalf("%s: total %d problems %d duplicates %+v; want %d, %d, %d in %d", name, v.Summary.Total, v.Summary.Problems,
					v.Summary.Duplicates, len(all), len(leads), gs.Duplicates, gs.Problems())
			}
			if v.Page.Total != len(leads) {
				t.Errorf("%s: page total %d, want %d", name, v.Page.Total, len(leads))
			}
			var got, want []string
			for _, f := range v.Findings {
				got = append(got, f.ID.String())
				if o := gs.Others(refOf(f.ID.String())); len(o) != len(f.AlsoReportedBy) {
					t.Errorf("%s: %s names %d others, leads %d", name, f.ID, len(f.AlsoReportedBy), len(o))
				}
			}
			for _, f := range leads[min(page[0], len(leads)):min(page[0]+page[1], len(leads))] {
				want = append(want, f.ID.String())
			}
			if _, isOpaque := src.(opaque); isOpaque && len(got) < len(want) {
				continue // one pass, and the reports cannot be read again: a shorter page is all it can give
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: page (-want +got):\n%s", name, diff)
			}
		}
	}
}
