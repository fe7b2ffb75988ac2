package summarize_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/summarize/tokens"
)

// BenchmarkSummarize counts the 314,926 findings of the Spring Framework
// PMD SARIF (read into memory once) and keeps a page of 200, as recap
// findings does after the parser; then fits the page to the default budget
// in JSON. Bytes per second are of the report the findings came from.
func BenchmarkSummarize(b *testing.B) {
	path := filepath.Join(reportstest.SharedDir(b, "bench"), "spring-framework.pmd7-all.sarif.gz")
	var all []reports.Finding
	inputs, err := parsers.ReadAll([]string{path}, parsers.ReadOptions{Root: "/home/runner/work/spring-framework/spring-framework"},
		func(f reports.Finding) error { all = append(all, f); return nil })
	if err != nil || inputs[0].Error != "" || len(all) != 314926 {
		b.Fatalf("%v %+v %d", err, inputs, len(all))
	}
	counter, err := tokens.New(tokens.Default)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("collect", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(349679735)
		for i := 0; i < b.N; i++ {
			c := summarize.NewCollector()
			c.KeepPage(0, summarize.MaxLimit)
			for j := range all {
				c.Add(all[j])
			}
			if v := c.View(inputs); v.Summary.Total != len(all) || len(v.Findings) != summarize.MaxLimit {
				b.Fatalf("%d findings, page of %d", v.Summary.Total, len(v.Findings))
			}
		}
	})
	c := summarize.NewCollector()
	c.KeepPage(0, summarize.DefaultLimit)
	for j := range all {
		c.Add(all[j])
	}
	b.Run("fit", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			v := c.View(inputs)
			summarize.Fit(v, counter, budget.DefaultMaxTokens, render.JSON{})
			if v.Tokens.Estimated > budget.DefaultMaxTokens {
				b.Fatalf("%d tokens", v.Tokens.Estimated)
			}
		}
	})
}

// BenchmarkManyInputs reads a directory of n one-finding SARIF logs and
// writes the summary as JSON and as text, as recap summary does: the time
// per input stays the same from 1,000 inputs to 8,000 (linear in the
// inputs; ns/input is the figure to compare).
func BenchmarkManyInputs(b *testing.B) {
	counter, err := tokens.New(tokens.Default)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1000, 8000} {
		dir := b.TempDir()
		for i := 0; i < n; i++ {
			log := fmt.Sprintf(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R%d","message":{"text":"m"},`+
				`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/f%d.java"},"region":{"startLine":1}}}]}]}]}`, i%50, i)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%05d.sarif", i)), []byte(log), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		for _, out := range []struct {
			name string
			r    render.Renderer
		}{{"json", render.JSON{}}, {"text", render.Text{}}} {
			b.Run(fmt.Sprintf("%s/inputs=%d", out.name, n), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					c := summarize.NewCollector()
					c.KeepPage(0, summarize.DefaultLimit)
					inputs, err := parsers.ReadAll([]string{dir}, parsers.ReadOptions{Root: dir}, func(f reports.Finding) error { c.Add(f); return nil })
					if err != nil || len(inputs) != n {
						b.Fatalf("%v: %d inputs", err, len(inputs))
					}
					v := c.View(inputs)
					if l, ok := out.r.(summarize.Layout); ok {
						summarize.Fit(v, counter, budget.DefaultMaxTokens, l)
					}
					if err := out.r.Render(io.Discard, v); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/input")
			})
		}
	}
}
