package pipeline

import (
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

// BenchmarkSeen notes the tools and rules of commons-lang's PMD report
// (30,380 findings), as a filtered query does for its suggestions: a name
// met again is looked up as written, not lowered again.
func BenchmarkSeen(b *testing.B) {
	dir := reportstest.SharedDir(b, "bench")
	var fs []reports.Finding
	if _, err := parsers.ReadAll([]string{filepath.Join(dir, "commons-lang.pmd7-all.sarif.gz")}, parsers.ReadOptions{}, func(f reports.Finding) error {
		fs = append(fs, f)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		s, err := newSeen(nil)
		if err != nil {
			b.Fatal(err)
		}
		for i := range fs {
			s.add(&fs[i])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(fs)), "ns/finding")
}
