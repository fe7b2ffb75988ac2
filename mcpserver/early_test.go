package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/internal/triagetest"
	"github.com/recap-dev/recap/mcpserver"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/triage"
)

// TestEarlyPassLikeSecond: a grouped analysis.getReports that takes its
// findings in the first pass and settles them once the problems are known
// answers as the second pass over the cache does: the same pages, counts,
// decisions and others of each problem, whatever the triage mode, the
// baseline, new only, the filters and the page.
func TestEarlyPassLikeSecond(t *testing.T) {
	root, g := sampleReports(t)
	file, _ := triagetest.Sample(t)
	file.Entries = append(file.Entries, duplicatesDecided(t, root)...)
	triagetest.Write(t, g.Dir, file)
	queries := []map[string]any{
		{},
		{"triaged": "include"},
		{"triaged": "only"},
		{"offset": 20, "limit": 30},
		{"tools": []string{"PMD"}},
		{"impact": "medium", "triaged": "include"},
		{"sort": "location", "paths": []string{"src/**"}},
		{"baseline": []string{"build/reports/pmd.sarif"}},
		{"baseline": []string{"build/reports/pmd.sarif"}, "newOnly": true},
		{"baseline": []string{"build/reports/checkstyle.xml"}, "triaged": "include"},
		{"group": false},
	}
	answers := func(early bool) [][]byte {
		defer mcpserver.SetEarlyPass(early)()
		cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
		var out [][]byte
		for _, q := range queries {
			args := map[string]any{"limit": 200, "maxTokens": 25000, "context": false}
			for k, v := range q {
				args[k] = v
			}
			r := call(t, cs, "analysis.getReports", args)
			if r.isErr {
				t.Fatalf("%v: %s", q, r.text)
			}
			var v map[string]any
			r.decode(t, &v)
			delete(v, "bufferId") // each server its own,
			delete(v, "tokens")   // and so the answer's tokens
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
		return out
	}
	second, early := answers(false), answers(true)
	for i := range queries {
		if !bytes.Equal(second[i], early[i]) {
			t.Errorf("%v: taken early\n%s\nwant, as the second pass\n%s", queries[i], early[i], second[i])
		}
	}
}

// duplicatesDecided are decisions on findings that repeat another's
// problem in the sample (a false positive, a won't fix, a confirmed one):
// a decision that covers a problem whose lead is shown.
func duplicatesDecided(t *testing.T, root string) []triage.Entry {
	t.Helper()
	sample := filepath.Join(root, "testdata", "sample")
	var paths []string
	for _, n := range []string{"checkstyle.xml", "pmd.sarif", "spotbugs.xml"} {
		paths = append(paths, filepath.Join(root, "testdata", "reports", n))
	}
	src := pipeline.Files{Paths: paths, Options: parsers.ReadOptions{Root: sample}}
	dup := map[reports.FindingID]bool{}
	if _, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: src, Classes: grouping.ClassOf, Keep: pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
		if f.Detail != nil {
			for _, a := range f.Detail.Also {
				dup[a.ID] = true
			}
		}
		return nil
	}}}); err != nil {
		t.Fatal(err)
	}
	states := []triage.State{triage.FalsePositive, triage.WontFix, triage.Confirmed}
	var out []triage.Entry
	if _, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: src, Keep: pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
		if len(out) < len(states) && dup[f.ID] && f.Line > 0 {
			e := triage.EntryFor(f, os.DirFS(sample))
			e.State, e.Reason, e.By, e.Date = states[len(out)], "a duplicate decided", "octocat", "2026-11-01"
			out = append(out, e)
		}
		return nil
	}}}); err != nil {
		t.Fatal(err)
	}
	if len(out) != len(states) {
		t.Fatalf("%d duplicates decided, want %d", len(out), len(states))
	}
	return out
}
