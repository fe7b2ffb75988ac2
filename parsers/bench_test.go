package parsers

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/reports/reportstest"
)

// BenchmarkReadBench reads each large real report of ../shared/bench
// (gzip, as stored) through the streaming parsers and counts the findings,
// as recap summary does, with the repository root the reports were made in
// (their paths are placed under it). The counts are those of the bench
// README; the bytes per second are of the uncompressed report.
func BenchmarkReadBench(b *testing.B) {
	dir := reportstest.SharedDir(b, "bench")
	const spring, commons = "/home/runner/work/spring-framework/spring-framework", "/home/runner/work/commons-lang/commons-lang"
	for _, tc := range []struct {
		file string
		root string
		size int64
		want int
	}{
		{"commons-lang.pmd7-all.sarif.gz", commons, 30947527, 30380},
		{"commons-lang.checkstyle-sun.xml.gz", commons, 7117301, 41609},
		{"spring-framework.pmd7-all.sarif.gz", spring, 349679735, 314926},
		{"spring-framework.pmd7-all.xml.gz", spring, 139038771, 314926},
		{"spring-framework.checkstyle-sun.xml.gz", spring, 73695747, 395900},
	} {
		path := filepath.Join(dir, tc.file)
		if _, err := os.Stat(path); err != nil {
			b.Fatal(err)
		}
		b.Run(tc.file, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(tc.size)
			for i := 0; i < b.N; i++ {
				n := 0
				inputs, err := ReadAll([]string{path}, ReadOptions{Root: tc.root}, func(reports.Finding) error {
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

// BenchmarkParseCorpus reads the largest corpus report of each format that
// has no bench file (SpotBugs XML and SARIF) and one of each other format,
// from memory, for the parsers' speed on small and mid-sized inputs.
func BenchmarkParseCorpus(b *testing.B) {
	dir := reportstest.SharedDir(b, "corpus")
	for _, name := range []string{
		"spotbugs-xml/findbugs-1.3.9-issue7238-large.xml",
		"spotbugs-sarif/spotbugs-4.8.2-findsecbugs.sarif",
		"checkstyle-xml/checkstyle-10.3.3-35-files.xml",
		"pmd-xml/pmd-4.1-669-violations.xml",
	} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(name), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				_, in := ParseAll(bytes.NewReader(data), name, ReadOptions{})
				if in.Error != "" {
					b.Fatal(in.Error)
				}
			}
		})
	}
}
