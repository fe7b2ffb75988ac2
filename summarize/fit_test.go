package summarize_test

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/summarize/tokens"
)

var markerCount = regexp.MustCompile(`^(\d+) findings? (of|after) the requested page`)

// TestFitCorpus is the budget's property test: over every corpus report,
// with random filters, offsets, limits, budgets (256…25,000) and output
// formats, what a view renders to stays within the budget by the exact o200k_base count and
// by chars/4; the page and the omission markers add up to the filtered total;
// and every finding comes whole.
func TestFitCorpus(t *testing.T) {
	dir, files := reportstest.Corpus(t)
	o200k, err := tokens.New(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	counter, _ := tokens.New(tokens.Max)
	rng := rand.New(rand.NewSource(7))
	cats := []string{"", "Code Style", "Best Practices", "javadoc", "CORRECTNESS", "uncategorized"}
	// Every format that can be budgeted.
	type layout interface {
		render.Renderer
		summarize.Layout
	}
	var layouts []struct {
		name string
		layout
	}
	for _, n := range render.Names(render.Findings) {
		f, _ := render.Lookup(render.Findings, n)
		r := f.View
		if l, ok := r.(layout); ok {
			layouts = append(layouts, struct {
				name string
				layout
			}{n, l})
		}
	}
	runs, trimmed, noContext := 0, 0, 0
	type input struct{ path, root string }
	var inputs []input
	for _, cf := range files {
		if cf.Dir() != "invalid" && cf.Dir() != "diffs" {
			inputs = append(inputs, input{filepath.Join(dir, cf.Path), dir})
		}
	}
	// The sample's reports, whose source is here: every finding has context.
	top := reportstest.RepoRoot(t)
	for _, r := range []string{"pmd.sarif", "checkstyle.xml", "spotbugs.xml"} {
		for i := 0; i < 10; i++ {
			inputs = append(inputs, input{filepath.Join(top, "testdata", "reports", r), filepath.Join(top, "testdata", "sample")})
		}
	}
	for _, in := range inputs {
		path, root := in.path, in.root
		for round := 0; round < 4; round++ {
			flt := reports.Filter{}
			if c := cats[rng.Intn(len(cats))]; c != "" && rng.Intn(2) == 0 {
				flt.Categories = []string{c}
			}
			if rng.Intn(3) == 0 {
				flt.MinSeverity = reports.Severities[rng.Intn(3)]
			}
			offset, limit := rng.Intn(30), 1+rng.Intn(summarize.MaxLimit)
			maxTok := budget.MinMaxTokens + rng.Intn(budget.MaxMaxTokens-budget.MinMaxTokens+1)
			if rng.Intn(2) == 0 { // small budgets are where packing happens
				maxTok = budget.MinMaxTokens + rng.Intn(4000)
			}
			name := fmt.Sprintf("%s/filter=%v,%v/offset=%d/limit=%d/maxTok=%d", filepath.Base(path), flt.Categories, flt.MinSeverity, offset, limit, maxTok)

			c := summarize.NewCollector()
			c.KeepPage(offset, limit)
			inputs, err := parsers.ReadAll([]string{path}, parsers.ReadOptions{Root: root}, func(f reports.Finding) error {
				if flt.Match(f) {
					c.Add(f)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			v := c.View(inputs)
			src := &summarize.Dir{Root: root}
			for i := range v.Findings {
				summarize.AddContext(&v.Findings[i], src)
			}
			r := layouts[rng.Intn(len(layouts))]
			name += "/" + r.name
			summarize.Fit(v, counter, maxTok, r.layout)
			var out strings.Builder
			if err := r.Render(&out, v); err != nil {
				t.Fatal(err)
			}
			runs++
			text := out.String()
			if n := o200k.Count(text); n > maxTok {
				t.Errorf("%s: o200k count %d over the budget", name, n)
			}
			if n := (len([]rune(text)) + 3) / 4; n > maxTok {
				t.Errorf("%s: chars/4 %d over the budget", name, n)
			}
			p := v.Page
			accounted := min(p.Offset, p.Total) + p.Returned
			for _, o := range v.Omitted {
				if strings.Contains(o.What, "of the requested page") {
					trimmed++
				}
				if strings.HasPrefix(o.What, "context of") {
					noContext++
				}
				if m := markerCount.FindStringSubmatch(o.What); m != nil {
					n, _ := strconv.Atoi(m[1])
					accounted += n
				}
			}
			if accounted != p.Total || p.Returned != len(v.Findings) {
				t.Errorf("%s: offset %d + returned %d + omitted = %d, total %d", name, p.Offset, p.Returned, accounted, p.Total)
			}
			// Never the offset just asked for: a caller following it would loop.
			if p.NextOffset != nil && *p.NextOffset <= p.Offset {
				t.Errorf("%s: next offset %d after offset %d", name, *p.NextOffset, p.Offset)
			}
			for _, o := range v.Omitted {
				if strings.Contains(o.What, fmt.Sprintf("offset=%d,", p.Offset)) || strings.HasSuffix(o.What, fmt.Sprintf("offset=%d", p.Offset)) {
					t.Errorf("%s: a marker suggests the offset asked for: %s", name, o.What)
				}
			}
			for _, f := range v.Findings {
				if f.ID.IsZero() || f.Message == "" || !f.Severity.Valid() {
					t.Errorf("%s: finding cut: %+v", name, f.Finding)
				}
			}
		}
	}
	if runs < 200 || trimmed < 10 || noContext < 5 {
		t.Errorf("%d runs, %d trimmed a page, %d dropped context: the test does not exercise the budget", runs, trimmed, noContext)
	}
	t.Logf("%d runs, %d trimmed a page, %d dropped context", runs, trimmed, noContext)
}
