// Package triagetest makes triage files of the sample's real findings for
// the tests of every output that honours them.
package triagetest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/triage"
)

// Now is the day the tests judge expiries on.
var Now = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

// States are the states of Sample's entries, in the order of the first
// page: 3 false positives, a won't fix and an accepted risk.
var States = []triage.State{triage.FalsePositive, triage.FalsePositive, triage.WontFix, triage.FalsePositive, triage.AcceptedRisk}

// Sample returns a triage file of five entries, one for each of the first
// five problems of the first page of the sample's three reports (by
// default order, grouped), made with triage.EntryFor from the sample's
// source, and those findings.
func Sample(t testing.TB) (*triage.File, []reports.Finding) {
	t.Helper()
	root := reportstest.RepoRoot(t)
	sample := filepath.Join(root, "testdata", "sample")
	var paths []string
	for _, n := range []string{"checkstyle.xml", "pmd.sarif", "spotbugs.xml"} {
		paths = append(paths, filepath.Join(root, "testdata", "reports", n))
	}
	res, err := pipeline.Run(context.Background(), &pipeline.Query{
		Reports: pipeline.Files{Paths: paths, Options: parsers.ReadOptions{Root: sample}},
		Classes: grouping.ClassOf, Keep: pipeline.Keep{Page: &pipeline.Page{Limit: len(States)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	f := &triage.File{Name: triage.DefaultPath, Version: 1}
	var found []reports.Finding
	src := os.DirFS(sample)
	for i, fv := range res.View.Findings {
		e := triage.EntryFor(&fv.Finding, src)
		e.State, e.Reason, e.By, e.Date = States[i], "decided in review "+fv.ID.String(), "octocat", "2026-11-01"
		f.Put(e)
		found = append(found, fv.Finding)
	}
	if len(found) != len(States) {
		t.Fatalf("the sample's first page has %d findings, want %d", len(found), len(States))
	}
	return f, found
}

// Write writes f as the triage file of a copy of the sample: dir/.recap/triage.yml.
func Write(t testing.TB, dir string, f *triage.File) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(triage.DefaultPath))
	if err := triage.WriteFile(p, f); err != nil {
		t.Fatal(err)
	}
	return p
}
