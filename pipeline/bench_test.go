package pipeline_test

import (
	"context"
	"fmt"
	iofs "io/fs"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/reports/reportstest"
	"github.com/recap-dev/recap/triage"
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

// BenchmarkSummaryTriaged is recap summary's query on Spring's Checkstyle
// and PMD reports, grouped, without a triage file and with 10,000
// decisions on its findings: on findings alone in their problem (matched,
// one run), and on findings of problems several report (a second run over
// the reports triages their problems from the start). Spring's sources
// are not in the bench: the files of the decided findings are made up,
// each line its own text, so that location fingerprints match.
func BenchmarkSummaryTriaged(b *testing.B) {
	dir := reportstest.SharedDir(b, "bench")
	files := pipeline.Files{Paths: []string{filepath.Join(dir, "spring-framework.checkstyle-sun.xml.gz"), filepath.Join(dir, "spring-framework.pmd7-all.sarif.gz")},
		Options: parsers.ReadOptions{NoFingerprints: true}}
	// The problems: which findings lead one of several, which are alone.
	var alone, grouped []reports.Finding
	lines := map[string]int{}
	_, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: files, Classes: reports.ClassOf, Keep: pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
		if f.Line < 1 || f.Path == "" {
			return nil
		}
		lines[f.Path] = max(lines[f.Path], f.EndLine, f.Line)
		switch {
		case f.Detail != nil && len(f.Detail.Also) > 0:
			grouped = append(grouped, *f)
		default:
			alone = append(alone, *f)
		}
		return nil
	}}})
	if err != nil {
		b.Fatal(err)
	}
	m := fstest.MapFS{}
	src := absFS{m}
	for p, n := range lines {
		var sb strings.Builder
		for i := 1; i <= n+1; i++ {
			fmt.Fprintf(&sb, "line %d of %s\n", i, p)
		}
		m[strings.TrimPrefix(p, "/")] = &fstest.MapFile{Data: []byte(sb.String())}
	}
	entries := func(fs []reports.Finding) *triage.File {
		f := &triage.File{}
		step := max(len(fs)/10_000, 1)
		for i := 0; i < len(fs) && len(f.Entries) < 10_000; i += step {
			e := triage.EntryFor(&fs[i], src)
			e.State, e.Reason = triage.FalsePositive, "bench"
			f.Entries = append(f.Entries, e)
		}
		return f
	}
	for _, bc := range []struct {
		name string
		file *triage.File
	}{{"none", nil}, {"alone", entries(alone)}, {"problems", entries(grouped)}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				q := &pipeline.Query{Reports: files, Classes: reports.ClassOf}
				if bc.file != nil {
					q.Triage = triage.NewMatcher(bc.file, src, time.Now())
				}
				res, err := pipeline.Run(context.Background(), q)
				if err != nil {
					b.Fatal(err)
				}
				if t := res.View.Summary.Triaged; bc.file != nil && (t == nil || t.Problems < len(bc.file.Entries)/2) {
					b.Fatalf("%d entries triaged %+v", len(bc.file.Entries), t)
				}
			}
		})
	}
}

// absFS serves the made-up files by the reports' paths, absolute ones too
// (Spring's reports are not placed in a checkout).
type absFS struct{ m fstest.MapFS }

func (a absFS) Open(name string) (iofs.File, error) { return a.m.Open(strings.TrimPrefix(name, "/")) }
func (a absFS) ReadFile(name string) ([]byte, error) {
	return a.m.ReadFile(strings.TrimPrefix(name, "/"))
}
func (a absFS) Stat(name string) (iofs.FileInfo, error) {
	return a.m.Stat(strings.TrimPrefix(name, "/"))
}
