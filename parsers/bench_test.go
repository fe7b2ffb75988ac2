package parsers

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/reports/reportstest"
)

// BenchmarkReadBench reads each large real report of ../shared/bench
// (gzip, as stored) through the streaming parsers and counts the findings,
// as recap summary does. The counts are those of the bench README.
func BenchmarkReadBench(b *testing.B) {
	dir := reportstest.SharedDir(b, "bench")
	for _, tc := range []struct {
		file string
		want int
	}{
		{"commons-lang.pmd7-all.sarif.gz", 30380},
		{"spring-framework.pmd7-all.sarif.gz", 314926},
		{"spring-framework.pmd7-all.xml.gz", 314926},
		{"spring-framework.checkstyle-sun.xml.gz", 395900},
	} {
		path := filepath.Join(dir, tc.file)
		if _, err := os.Stat(path); err != nil {
			b.Fatal(err)
		}
		b.Run(tc.file, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				n := 0
				inputs, err := ReadAll([]string{path}, ReadOptions{Root: "/nonexistent"}, func(reports.Finding) error {
					n++
					return nil
				})
				if err != nil || inputs[0].Error != "" {
					b.Fatalf("%v %+v", err, inputs)
				}
				if n != tc.want {
					b.Fatalf("%d findings, want %d", n, tc.want)
				}
			}
		})
	}
}
