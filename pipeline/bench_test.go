package pipeline_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/reports/reportstest"
)

// BenchmarkSummaryGrouped is recap summary's query on Spring's Checkstyle
// and PMD reports (710,826 findings, 300,889 of rules in a class of
// reports.RuleClasses), with the grouping of duplicates and without: the
// grouping's goal is at most +10% of the time.
func BenchmarkSummaryGrouped(b *testing.B) {
	dir := reportstest.SharedDir(b, "bench")
	files := pipeline.Files{Paths: []string{filepath.Join(dir, "spring-framework.checkstyle-sun.xml.gz"), filepath.Join(dir, "spring-framework.pmd7-all.sarif.gz")},
		Options: parsers.ReadOptions{NoFingerprints: true}}
	for _, bc := range []struct {
		name    string
		classes func(tool, rule string) int
	}{{"grouped", reports.ClassOf}, {"no-group", nil}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: files, Classes: bc.classes})
				if err != nil || res.View.Summary.Total != 710826 {
					b.Fatalf("%v, %d findings", err, res.View.Summary.Total)
				}
			}
		})
	}
}
