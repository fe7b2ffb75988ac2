package summarize_test

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/reports/reportstest"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/summarize/tokens"
)

var markerCount = regexp.MustCompile(`^(\d+) findings (of|after) the requested page`)

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
	var layouts []struct {
		name string
		render.Renderer
	}
	for _, n := range render.Names() {
		r, _ := render.Lookup(n)
		layouts = append(layouts, struct {
			name string
			render.Renderer
		}{n, r})
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
			budget := summarize.MinMaxTokens + rng.Intn(summarize.MaxMaxTokens-summarize.MinMaxTokens+1)
			if rng.Intn(2) == 0 { // small budgets are where packing happens
				budget = summarize.MinMaxTokens + rng.Intn(4000)
			}
			name := fmt.Sprintf("%s/filter=%v,%v/offset=%d/limit=%d/budget=%d", filepath.Base(path), flt.Categories, flt.MinSeverity, offset, limit, budget)

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
			summarize.Fit(v, counter, budget, r.Renderer)
			var out strings.Builder
			if err := r.Render(&out, v); err != nil {
				t.Fatal(err)
			}
			runs++
			text := out.String()
			if n := o200k.Count(text); n > budget {
				t.Errorf("%s: o200k count %d over the budget", name, n)
			}
			if n := (len([]rune(text)) + 3) / 4; n > budget {
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
			for _, f := range v.Findings {
				if f.ID == "" || f.Message == "" || !f.Severity.Valid() {
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

// plainCounter hides a counter's SplitCounter methods, so that Measure
// counts every text whole.
type plainCounter struct{ summarize.Counter }

// TestMeasureSplit: Measure with a split counter (one count, the number
// priced alone) gives what counting every text whole gives, wherever the
// number stands; where it cannot be priced alone (twice, next to digits),
// the texts are counted whole.
func TestMeasureSplit(t *testing.T) {
	long := strings.Repeat(`{"id":"ab12-3","message":"Avoid unused imports such as 'java.util.List'","line":120} `, 300)
	renders := map[string]func(n int) string{
		"json": func(n int) string {
			return `{"tokens":{"estimated":` + strconv.Itoa(n) + `,"budget":8000},"x":` + long + `}`
		},
		"text":          func(n int) string { return long + "\n~" + strconv.Itoa(n) + " tokens\n" },
		"after letters": func(n int) string { return long + "estimated" + strconv.Itoa(n) + "tokens" },
		"after digits":  func(n int) string { return long + "12" + strconv.Itoa(n) },
		"before digits": func(n int) string { return strconv.Itoa(n) + "٣" + long },
		"twice":         func(n int) string { return strconv.Itoa(n) + long + strconv.Itoa(n) },
		"at the end":    func(n int) string { return long + strconv.Itoa(n) },
		"short":         func(n int) string { return strconv.Itoa(n) },
		"unicode":       func(n int) string { return "é" + strconv.Itoa(n) + "ü " + long },
	}
	for _, name := range tokens.Names() {
		c, err := tokens.New(name)
		if err != nil {
			t.Fatal(err)
		}
		for what, render := range renders {
			var split, whole summarize.TokenInfo
			got := summarize.Measure(&split, c, func() string { return render(split.Estimated) })
			want := summarize.Measure(&whole, plainCounter{c}, func() string { return render(whole.Estimated) })
			if got != want || split.Estimated != want {
				t.Errorf("%s, %s: Measure = %d (estimated %d), counting whole texts %d", name, what, got, split.Estimated, want)
			}
			if n := c.Count(render(got)); n != got {
				t.Errorf("%s, %s: the text shows %d and counts %d", name, what, got, n)
			}
		}
	}
}
