package summarize_test

import (
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/reports/reportstest"
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
