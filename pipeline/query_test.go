package pipeline_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// sarifLog makes a SARIF log of n results spread over rules, levels, files
// and lines, with ties on everything the view orders by but the id.
func sarifLog(n int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	b.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Lint"}},"results":[`)
	levels := []string{"error", "warning", "note"}
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"ruleId":"R%02d","level":"%s","message":{"text":"problem %d"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/f%03d.go"},"region":{"startLine":%d}}}]}`,
			rng.IntN(40), levels[rng.IntN(3)], rng.IntN(1000), rng.IntN(300), 1+rng.IntN(50))
	}
	b.WriteString(`]}]}`)
	return b.String()
}

// opaque hides the Files of a source, so that Run takes one pass with a
// heap, as it does for a near page.
type opaque struct{ pipeline.Source }

// TestDeepPage: a deep page found in passes is the page one pass with a
// heap of offset+limit findings finds, for files and standard input, with
// filters, a baseline and new only; past the end it is empty.
func TestDeepPage(t *testing.T) {
	t.Parallel()
	const n = 30_000
	dir := t.TempDir()
	log := sarifLog(n, 1)
	path := filepath.Join(dir, "lint.sarif")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "base.sarif")
	if err := os.WriteFile(base, []byte(sarifLog(n/2, 2)), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(src pipeline.Source, q pipeline.Query, offset, limit int) *summarize.View {
		t.Helper()
		q.Reports = src
		q.Keep.Page = &pipeline.Page{Offset: offset, Limit: limit}
		res, err := pipeline.Run(context.Background(), &q)
		if err != nil {
			t.Fatal(err)
		}
		return res.View
	}
	files := pipeline.Files{Paths: []string{path}}
	stdin := func() pipeline.Files {
		return pipeline.Files{Paths: []string{"-"}, Options: parsers.ReadOptions{Stdin: strings.NewReader(log)}}
	}
	queries := map[string]pipeline.Query{
		"all":                         {},
		"filters":                     {Filter: reports.Filter{MinSeverity: reports.SeverityWarning, Paths: []string{"src/f1*.go"}}},
		"new only against a baseline": {Baseline: pipeline.Files{Paths: []string{base}}, NewOnly: true},
		"marked against a baseline":   {Baseline: pipeline.Files{Paths: []string{base}}},
	}
	for name, q := range queries {
		pages := [][2]int{{9_990, 50}, {12_345, 200}}
		if name == "all" {
			pages = append(pages, [2]int{10_000, 1}, [2]int{n - 150, 200}, [2]int{n - 1, 5}, [2]int{n, 10}, [2]int{n + 5, 10})
		}
		for _, page := range pages {
			t.Run(fmt.Sprintf("%s/offset=%d,limit=%d", name, page[0], page[1]), func(t *testing.T) {
				t.Parallel()
				want := run(opaque{files}, q, page[0], page[1])
				got := run(files, q, page[0], page[1])
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("deep page (-one pass +passes):\n%s", diff)
				}
				if page[0] < want.Summary.Total && len(got.Findings) == 0 {
					t.Errorf("no findings at offset %d of %d", page[0], want.Summary.Total)
				}
				if name == "all" && page[0] == 12_345 {
					fromStdin := run(stdin(), q, page[0], page[1])
					if diff := cmp.Diff(run(opaque{stdin()}, q, page[0], page[1]), fromStdin); diff != "" {
						t.Errorf("deep page of standard input (-one pass +passes):\n%s", diff)
					}
					if fromStdin.Inputs[0].Path != "-" {
						t.Errorf("standard input named %q", fromStdin.Inputs[0].Path)
					}
				}
			})
		}
	}
}

// TestBaselineOnChangedLines: with changed lines only, a finding of a
// changed file off the changed lines is neither shown nor counted, but it
// still takes its match in the baseline: only what the current reports
// have not at all is fixed (here one finding of the changed file), and the
// findings on the changed lines are new or unchanged as without the diff.
func TestBaselineOnChangedLines(t *testing.T) {
	dir := t.TempDir()
	result := func(rule, msg, file string, line int) string {
		return fmt.Sprintf(`{"ruleId":%q,"level":"warning","message":{"text":%q},"locations":[{"physicalLocation":{"artifactLocation":{"uri":%q},"region":{"startLine":%d}}}]}`, rule, msg, file, line)
	}
	log := func(results ...string) string {
		return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Lint"}},"results":[` + strings.Join(results, ",") + `]}]}`
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	base := write("base.sarif", log(result("A", "a", "src/x.go", 2), result("B", "b", "src/x.go", 8), result("C", "c", "src/x.go", 9),
		result("D", "d", "src/y.go", 1), result("E", "gone", "src/x.go", 12)))
	head := write("head.sarif", log(result("A", "a", "src/x.go", 2), result("B", "b", "src/x.go", 8), result("C", "c", "src/x.go", 9),
		result("D", "d", "src/y.go", 1), result("N", "new on a changed line", "src/x.go", 5)))
	diffFile := write("change.diff", "diff --git a/src/x.go b/src/x.go\n--- a/src/x.go\n+++ b/src/x.go\n@@ -4,3 +4,3 @@\n a\n-old\n+new\n b\n")
	for _, deep := range []bool{false, true} {
		q := pipeline.Query{Reports: pipeline.Files{Paths: []string{head}}, Baseline: pipeline.Files{Paths: []string{base}},
			Changes: &pipeline.Changes{DiffFile: diffFile}, Keep: pipeline.Keep{Page: &pipeline.Page{Limit: 10}}}
		if deep {
			q.Reports = opaque{q.Reports}
		}
		res, err := pipeline.Run(context.Background(), &q)
		if err != nil {
			t.Fatal(err)
		}
		b := res.View.Summary.Baseline
		if res.View.Summary.Total != 1 || b == nil || b.New != 1 || b.Unchanged != 0 || b.Fixed != 1 || res.Outside != 4 {
			t.Errorf("%d findings on the changed lines (%d outside), baseline %+v; want 1 (4 outside), 1 new, 0 unchanged, 1 fixed",
				res.View.Summary.Total, res.Outside, b)
		}
		if len(res.View.Findings) != 1 || res.View.Findings[0].Rule != "N" || res.View.Findings[0].Baseline != reports.BaselineNew {
			t.Errorf("findings %+v", res.View.Findings)
		}
	}
}
