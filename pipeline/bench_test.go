package pipeline_test

import (
	"context"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/triage"
)

// BenchmarkSummaryGrouped is recap summary's query on Spring's Checkstyle
// and PMD reports (710,826 findings, 300,889 of rules in a class of
// grouping.RuleClasses), with the grouping of duplicates and without: the
// grouping's goal is at most +10% of the time.
func BenchmarkSummaryGrouped(b *testing.B) {
	dir := reportstest.SharedDir(b, "bench")
	files := pipeline.Files{Paths: []string{filepath.Join(dir, "spring-framework.checkstyle-sun.xml.gz"), filepath.Join(dir, "spring-framework.pmd7-all.sarif.gz")},
		Options: parsers.ReadOptions{NoFingerprints: true}}
	for _, bc := range []struct {
		name    string
		classes func(tool, rule string) int
	}{{"grouped", grouping.ClassOf}, {"no-group", nil}} {
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

// BenchmarkSummaryTriaged carries triage's speed goal: recap summary's
// query on Spring's Checkstyle and PMD reports (grouped, as the command
// runs it) with a triage file of 10,000 decisions costs at most 5% more
// than without one. One op is a whole query, the matcher made and the
// files of the entries read. Sub-benchmarks: "none", no triage file;
// "realistic", 10,000 findings of spring-web alone in their problem, as
// --path 'spring-web/**' would decide them; "spread", one finding in N of
// the whole run, alone in its problem (every entry in a file of its own,
// most often: the worst case for reading sources); "grouped", findings of
// problems several findings report, whose decisions cover the others;
// "grouped-filtered", those decisions with the query and its pair kept to
// Checkstyle's findings (--tool Checkstyle): the decisions on PMD's
// findings, which the filter leaves out, cover Checkstyle's of their
// problems all the same.
// "none-paired" pairs the query without a triage file with itself: its
// %none is what the pairing makes of no difference at all (the order of
// the two queries, the collector's state), the floor the others' figures
// stand on.
// Spring's sources are not in the bench: each file an entry names is made
// up, Java-like lines as long as Spring's (38 characters on average), each
// line different, as many as its findings need. The machine may be
// shared: cpu-ms/op is the process's CPU time of the query with the
// triage file, %none that time over none's, each op running the query
// without a triage file too, just before (paired: the drift of a shared
// machine and of the collector's state touches both), reads/op the passes
// over the reports. A CPU profile tells the two queries apart by their
// pprof labels: query (none, triaged) and decisions (the sub-benchmark),
// as in go tool pprof -tagfocus query=triaged -tagignore
// decisions=grouped; the collector's background work carries none.
func BenchmarkSummaryTriaged(b *testing.B) {
	files, all := springFindings(b)
	alone, module, grouped := springKinds(all)
	cases := []struct {
		name   string
		picked []int
		filter reports.Filter
		file   *triage.File
		src    *diskFS
		paired bool
	}{{name: "none"}, {name: "none-paired", paired: true}, {name: "realistic", picked: module}, {name: "spread", picked: alone}, {name: "grouped", picked: grouped},
		{name: "grouped-filtered", picked: grouped, filter: reports.Filter{Tools: []string{"Checkstyle"}}}}
	// Each case's decisions and sources made first, and the findings they
	// were picked from let go: a process of the command holds neither.
	for i := range cases {
		if c := &cases[i]; c.picked != nil {
			c.file, c.src = springEntries(b, all, c.picked, 10_000)
			c.picked = nil
		}
	}
	all, alone, module, grouped = nil, nil, nil, nil
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			file, src := bc.file, iofs.FS(bc.src)
			paired := file != nil || bc.paired
			runtime.GC()
			b.ReportAllocs()
			runs := 0
			var triaged int
			var withCPU, noneCPU, pair time.Duration
			var ratios []float64     // each op's CPU time over its pair's
			var wallRatios []float64 // each op's wall time over its pair's
			var pairWall time.Duration
			reads := &counted{Source: files}
			for b.Loop() {
				if paired {
					// The pair: the same query without the triage file,
					// outside the timer (ns/op and B/op are the query's).
					b.StopTimer()
					runtime.GC() // each query from a collected heap: none pays for the other's garbage
					start, wall := cpuTime(), time.Now()
					var err error
					pprof.Do(context.Background(), pprof.Labels("query", "none", "decisions", bc.name), func(ctx context.Context) {
						_, err = pipeline.Run(ctx, &pipeline.Query{Reports: files, Classes: grouping.ClassOf, Filter: bc.filter})
					})
					if err != nil {
						b.Fatal(err)
					}
					pair, pairWall = cpuTime()-start, time.Since(wall)
					noneCPU += pair
					runtime.GC()
					b.StartTimer()
				}
				start, wall := cpuTime(), time.Now()
				q := &pipeline.Query{Reports: reads, Classes: grouping.ClassOf, Filter: bc.filter}
				if file != nil {
					q.Triage = triage.NewMatcher(file, src, time.Now())
					q.Triage.ReadAhead() // as the command does
				}
				var res *pipeline.Result
				var err error
				pprof.Do(context.Background(), pprof.Labels("query", "triaged", "decisions", bc.name), func(ctx context.Context) {
					res, err = pipeline.Run(ctx, q)
				})
				if err != nil {
					b.Fatal(err)
				}
				if t := res.View.Summary.Triaged; file != nil && (t == nil || t.Problems < len(file.Entries)/2) {
					b.Fatalf("%d entries triaged %+v", len(file.Entries), t)
				} else if t != nil {
					triaged = t.Total
				}
				withCPU += cpuTime() - start
				if paired {
					ratios = append(ratios, 100*float64(cpuTime()-start)/float64(pair))
					wallRatios = append(wallRatios, 100*float64(time.Since(wall))/float64(pairWall))
				}
				runs++
			}
			b.ReportMetric(float64(withCPU)/float64(runs)/1e6, "cpu-ms/op")
			b.ReportMetric(float64(reads.n)/float64(runs), "reads/op")
			if noneCPU > 0 {
				b.ReportMetric(100*float64(withCPU)/float64(noneCPU), "%none")
				// The median of the pairs' ratios: a pair that a busy
				// neighbour slowed, one query of it or both, moves it least.
				b.ReportMetric(median(ratios), "%none-median")
				// What the user waits: the other core's work is not counted.
				b.ReportMetric(median(wallRatios), "%none-wall-median")
			}
			if file != nil {
				b.ReportMetric(float64(len(file.Entries)), "entries")
				b.ReportMetric(float64(bc.src.files), "files")
				b.ReportMetric(float64(triaged), "triaged")
			}
		})
	}
}

// springFindings reads Spring's Checkstyle and PMD reports as the triage
// benchmarks query them, and returns them with their findings of a file
// and a line (each with its problem's other findings, when it leads one
// of several).
func springFindings(tb testing.TB) (pipeline.Files, []reports.Finding) {
	dir := reportstest.SharedDir(tb, "bench")
	files := pipeline.Files{Paths: []string{filepath.Join(dir, "spring-framework.checkstyle-sun.xml.gz"), filepath.Join(dir, "spring-framework.pmd7-all.sarif.gz")},
		Options: parsers.ReadOptions{NoFingerprints: true}}
	var all []reports.Finding
	_, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: files, Classes: grouping.ClassOf, Keep: pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
		if f.Line < 1 || f.Path == "" {
			return nil
		}
		g := *f
		g.Message = strings.Clone(g.Message)
		if f.Detail != nil && len(f.Detail.Also) > 0 {
			g.Detail = &reports.Detail{Also: f.Detail.Also}
		} else {
			g.Detail = nil
		}
		all = append(all, g)
		return nil
	}}})
	if err != nil {
		tb.Fatal(err)
	}
	return files, all
}

// springKinds returns the indexes of the findings alone in their problem,
// of those of spring-web among them, and of the leads of problems of
// several findings.
func springKinds(all []reports.Finding) (alone, module, grouped []int) {
	for i := range all {
		switch f := &all[i]; {
		case f.Detail != nil:
			grouped = append(grouped, i)
		case strings.Contains(f.Path, "/spring-web/"):
			module = append(module, i)
			alone = append(alone, i)
		default:
			alone = append(alone, i)
		}
	}
	return alone, module, grouped
}

// springEntries returns a triage file deciding at most n of the picked
// findings, spread evenly among them, and the source files they name,
// written to a temporary directory and read as the command reads a
// checkout's: made up (Spring's sources are not in the bench), Java-like
// lines as long as Spring's, each line different, as many as the files'
// findings need.
func springEntries(tb testing.TB, all []reports.Finding, picked []int, n int) (*triage.File, *diskFS) {
	step := max(len(picked)/n, 1)
	var chosen []int
	for i := 0; i < len(picked) && len(chosen) < n; i += step {
		chosen = append(chosen, picked[i])
	}
	lines := map[string]int{}
	for _, i := range chosen {
		lines[all[i].Path] = 0
	}
	for i := range all {
		if l, ok := lines[all[i].Path]; ok {
			lines[all[i].Path] = max(l, all[i].Line, all[i].EndLine)
		}
	}
	dir := tb.TempDir()
	for p, n := range lines {
		var sb strings.Builder
		for i := 1; i <= n+3; i++ {
			fmt.Fprintf(&sb, "        int v%d = compute(v%d, %d);\n", i, i-1, len(p))
		}
		name := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(p, "/")))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(sb.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	root, err := content.OpenRoot(dir)
	if err != nil {
		tb.Fatal(err)
	}
	src := &diskFS{fs: root.FS(), files: len(lines)}
	f := &triage.File{}
	for _, i := range chosen {
		e := triage.EntryFor(&all[i], src)
		e.State, e.Reason = triage.FalsePositive, "bench"
		f.Entries = append(f.Entries, e)
	}
	return f, src
}

// median returns the median of x (sorting it).
func median(x []float64) float64 {
	slices.Sort(x)
	return (x[(len(x)-1)/2] + x[len(x)/2]) / 2
}

// counted is a source that counts the times the query reads it (a second
// run over the reports shows as 2 reads an op).
type counted struct {
	pipeline.Source
	n int
}

func (c *counted) Read(ctx context.Context, keep func(*reports.Finding) bool, emit func(*reports.Finding) error) ([]reports.Input, error) {
	c.n++
	return c.Source.Read(ctx, keep, emit)
}

func (*counted) Rereadable() bool { return true }

// cpuTime is the process's CPU time so far: on a shared machine it is not
// inflated by the others' load as the wall time is.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// diskFS serves the made-up files of a directory, as the command's
// checkout (content.Root) serves them, by the reports' paths, absolute
// ones too (Spring's reports are not placed in a checkout).
type diskFS struct {
	fs    iofs.FS
	files int
}

func (d *diskFS) Open(name string) (iofs.File, error) {
	return d.fs.Open(strings.TrimPrefix(name, "/"))
}
func (d *diskFS) Stat(name string) (iofs.FileInfo, error) {
	return iofs.Stat(d.fs, strings.TrimPrefix(name, "/"))
}

// StatAll is content.Root's, which the matcher asks when it can.
func (d *diskFS) StatAll(names []string) []iofs.FileInfo {
	rel := make([]string, len(names))
	for i, n := range names {
		rel[i] = strings.TrimPrefix(n, "/")
	}
	return d.fs.(interface {
		StatAll([]string) []iofs.FileInfo
	}).StatAll(rel)
}

// BenchmarkEachProblem carries the goal of the outputs that take each
// problem once (recap's SARIF, Code Quality, the HTML report; one op a
// whole query of Spring's Checkstyle and PMD reports, grouped): the passes
// after the first replay a spool of the findings instead of parsing the
// reports again. Sub-benchmarks: "summary", the counts alone (recap summary
// --format json: no fingerprints); "each", every problem handed to
// Keep.Each (fingerprints read, as the outputs that show them do), with the
// spool and, "each-reread", with the reports parsed again (RECAP_NO_SPOOL);
// "no-group", every finding in one pass. cpu-ms/op is the process's CPU
// time (the machine may be shared), %summary the CPU time over summary's.
func BenchmarkEachProblem(b *testing.B) {
	dir := reportstest.SharedDir(b, "bench")
	paths := []string{filepath.Join(dir, "spring-framework.checkstyle-sun.xml.gz"), filepath.Join(dir, "spring-framework.pmd7-all.sarif.gz")}
	var summaryCPU float64
	for _, bc := range []struct {
		name    string
		each    bool
		classes func(tool, rule string) int
		env     string
	}{{"summary", false, grouping.ClassOf, ""}, {"each", true, grouping.ClassOf, ""}, {"each-reread", true, grouping.ClassOf, "1"}, {"no-group", true, nil, ""}} {
		b.Run(bc.name, func(b *testing.B) {
			b.Setenv("RECAP_NO_SPOOL", bc.env)
			files := pipeline.Files{Paths: paths, Options: parsers.ReadOptions{NoFingerprints: !bc.each}}
			runtime.GC()
			b.ReportAllocs()
			runs, start := 0, time.Duration(0)
			for b.Loop() {
				if runs == 0 {
					start = cpuTime()
				}
				n := 0
				q := &pipeline.Query{Reports: files, Classes: bc.classes}
				if bc.each {
					q.Keep.Each = func(f *reports.Finding, _ string) error { n++; return nil }
				}
				res, err := pipeline.Run(context.Background(), q)
				if err != nil || res.View.Summary.Total != 710826 {
					b.Fatalf("%v, %d findings", err, res.View.Summary.Total)
				}
				if want := res.View.Summary.Problems; bc.each && bc.classes != nil && n != want {
					b.Fatalf("%d problems handed on, want %d", n, want)
				}
				runs++
			}
			cpu := float64(cpuTime()-start) / float64(runs) / 1e6
			b.ReportMetric(cpu, "cpu-ms/op")
			if bc.name == "summary" {
				summaryCPU = cpu
			} else if summaryCPU > 0 {
				b.ReportMetric(100*cpu/summaryCPU, "%summary")
			}
		})
	}
}
