package parsers

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/reports"
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

// BenchmarkSARIFShapes reads SARIF logs of the shapes that used to take
// quadratic time — runs of distinct tools, artifacts and notifications
// (from a file and through a pipe), rules, one result's locations — at n
// and 4n items: ns/item stays the same (linear in the items).
func BenchmarkSARIFShapes(b *testing.B) {
	shapes := []struct {
		name  string
		n     int
		write func(w *bytes.Buffer, n int)
	}{
		{"runs of distinct tools", 5_000, func(w *bytes.Buffer, n int) {
			w.WriteString(`{"version":"2.1.0","runs":[`)
			for i := 0; i < n; i++ {
				if i > 0 {
					w.WriteByte(',')
				}
				fmt.Fprintf(w, `{"tool":{"driver":{"name":"T%d"}},"results":[{"ruleId":"R","message":{"text":"m"}}]}`, i)
			}
			w.WriteString(`]}`)
		}},
		{"artifacts", 20_000, func(w *bytes.Buffer, n int) {
			w.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"artifacts":[`)
			for i := 0; i < n; i++ {
				if i > 0 {
					w.WriteByte(',')
				}
				fmt.Fprintf(w, `{"location":{"uri":"src/f%d.java"}}`, i)
			}
			w.WriteString(`],"results":[`)
			for i := 0; i < n; i++ {
				if i > 0 {
					w.WriteByte(',')
				}
				fmt.Fprintf(w, `{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"index":%d},"region":{"startLine":1}}}]}`, i)
			}
			w.WriteString(`]}]}`)
		}},
		{"notifications", 20_000, func(w *bytes.Buffer, n int) {
			w.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"invocations":[{"executionSuccessful":false,"toolExecutionNotifications":[`)
			for i := 0; i < n; i++ {
				if i > 0 {
					w.WriteByte(',')
				}
				fmt.Fprintf(w, `{"level":"error","message":{"text":"problem %d"}}`, i)
			}
			w.WriteString(`]}],"results":[{"ruleId":"R","message":{"text":"m"}}]}]}`)
		}},
		{"rules", 20_000, func(w *bytes.Buffer, n int) {
			w.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T","rules":[`)
			for i := 0; i < n; i++ {
				if i > 0 {
					w.WriteByte(',')
				}
				fmt.Fprintf(w, `{"id":"R%d","shortDescription":{"text":"rule number %d"}}`, i, i)
			}
			w.WriteString(`]}},"results":[{"ruleId":"R1","ruleIndex":1,"message":{"text":"m"}}]}]}`)
		}},
		{"locations of one result", 50_000, func(w *bytes.Buffer, n int) {
			w.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","message":{"text":"m"},"locations":[`)
			for i := 0; i < n; i++ {
				if i > 0 {
					w.WriteByte(',')
				}
				fmt.Fprintf(w, `{"physicalLocation":{"artifactLocation":{"uri":"src/f%d.java"},"region":{"startLine":%d}}}`, i%1000, 1+i%90)
			}
			w.WriteString(`]}]}]}`)
		}},
	}
	for _, sh := range shapes {
		for _, n := range []int{sh.n, 4 * sh.n} {
			var log bytes.Buffer
			sh.write(&log, n)
			path := filepath.Join(b.TempDir(), "log.sarif")
			if err := os.WriteFile(path, log.Bytes(), 0o644); err != nil {
				b.Fatal(err)
			}
			for _, pipe := range []bool{false, true} {
				how := "file"
				if pipe {
					how = "pipe"
				}
				b.Run(fmt.Sprintf("%s/%s/n=%d", sh.name, how, n), func(b *testing.B) {
					b.SetBytes(int64(log.Len()))
					for i := 0; i < b.N; i++ {
						args, opts := []string{path}, ReadOptions{}
						if pipe {
							args, opts.Stdin = []string{"-"}, struct{ io.Reader }{bytes.NewReader(log.Bytes())} // a reader and nothing more, as a pipe is
						}
						inputs, err := ReadAll(args, opts, func(reports.Finding) error { return nil })
						if err != nil || len(inputs) != 1 || inputs[0].Error != "" {
							b.Fatalf("%v %+v", err, inputs)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/item")
				})
			}
		}
	}
}

// BenchmarkSARIFName looks up the member names of a PMD SARIF result, as
// the stream reads them, and one name of a tool's own: the names SARIF
// defines come back without allocating.
func BenchmarkSARIFName(b *testing.B) {
	var names [][]byte
	for _, n := range []string{"ruleId", "ruleIndex", "message", "text", "locations", "physicalLocation",
		"artifactLocation", "uri", "uriBaseId", "region", "startLine", "startColumn", "endLine", "endColumn",
		"properties", "level", "kind", "partialFingerprints", "description", "threadFlowLocation"} {
		names = append(names, []byte(n))
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, n := range names {
			if _, ok := sarifName(n); !ok {
				b.Fatalf("%s is not known", n)
			}
		}
	}
}

// BenchmarkTwoCores reads Spring's PMD SARIF (350 MB) and Checkstyle XML
// (74 MB), decompressed, as recap summary does (no fingerprints), on the
// readers' goroutines, and before each timed read, untimed, the same bytes
// with the format's tokenizer alone (the floor: jsontext, encoding/xml)
// and with every reader on the caller's goroutine (serial). Reads
// alternate, so that a shared machine's load weighs on all three alike;
// x-floor and x-serial are the timed reads' time over theirs. The goal on
// the SARIF: x-floor ≤ 1.5 on two idle cores (docs/performance.md).
func BenchmarkTwoCores(b *testing.B) {
	dir := reportstest.SharedDir(b, "bench")
	tmp := b.TempDir()
	for _, tc := range []struct {
		file  string
		want  int
		floor func(r io.Reader) error
	}{
		{"spring-framework.pmd7-all.sarif.gz", 314926, jsonFloor},
		{"spring-framework.checkstyle-sun.xml.gz", 395900, xmlFloor},
	} {
		path := gunzipTo(b, filepath.Join(dir, tc.file), tmp)
		st, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		read := func() {
			n := 0
			inputs, err := ReadAll([]string{path}, ReadOptions{Root: "/home/runner/work/spring-framework/spring-framework", NoFingerprints: true}, func(reports.Finding) error {
				n++
				return nil
			})
			if err != nil || inputs[0].Error != "" || n != tc.want {
				b.Fatalf("%v %s: %d findings, want %d", err, inputs[0].Error, n, tc.want)
			}
		}
		b.Run(filepath.Base(path), func(b *testing.B) {
			b.SetBytes(st.Size())
			var floor, one, two time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				t := time.Now()
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				err = tc.floor(f)
				f.Close()
				if err != nil {
					b.Fatal(err)
				}
				floor += time.Since(t)
				serial = true
				t = time.Now()
				read()
				one += time.Since(t)
				serial = false
				b.StartTimer()
				t = time.Now()
				read()
				two += time.Since(t)
			}
			b.ReportMetric(two.Seconds()/floor.Seconds(), "x-floor")
			b.ReportMetric(two.Seconds()/one.Seconds(), "x-serial")
		})
	}
}

// jsonFloor reads JSON with jsontext's tokenizer alone, as scripts/bench's
// floor does.
func jsonFloor(r io.Reader) error {
	d := jsontext.NewDecoder(bufio.NewReaderSize(r, 64<<10), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	for {
		tok, err := d.ReadToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if tok.Kind() == '"' && d.StackDepth() == 3 && tok.String() == "results" && d.PeekKind() == '[' {
			d.ReadToken()
			for d.PeekKind() != ']' {
				if err := d.SkipValue(); err != nil {
					return err
				}
			}
		}
	}
}

// xmlFloor reads XML with encoding/xml's tokenizer alone.
func xmlFloor(r io.Reader) error {
	d := xml.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	for {
		if _, err := d.RawToken(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// gunzipTo decompresses a .gz file into dir, once.
func gunzipTo(b *testing.B, gz, dir string) string {
	dst := filepath.Join(dir, strings.TrimSuffix(filepath.Base(gz), ".gz"))
	if _, err := os.Stat(dst); err == nil {
		return dst
	}
	in, err := os.Open(gz)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		b.Fatal(err)
	}
	out, err := os.Create(dst)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		b.Fatal(err)
	}
	if err := out.Close(); err != nil {
		b.Fatal(err)
	}
	return dst
}
