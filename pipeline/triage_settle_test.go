package pipeline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/triagetest"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/triage"
)

// TestTriageSettled: the triage decisions that cover whole problems,
// settled once the first run's groups are resolved, give every output the
// second run gives that triages those problems from the start (the way
// before settling): the full JSON view, SARIF, what Each gets, in every
// mode, with and without a baseline and new only, for a page, a later
// page, the first of each severity, Each and the counts alone, on the
// sample's three reports with decisions on single findings, on leads and
// on duplicates of problems several findings report, with states that
// hide and that do not (confirmed, expired) in one problem, and on every
// finding. Without only, most queries read the reports once.
func TestTriageSettled(t *testing.T) {
	src := os.DirFS(filepath.Join(reportstest.RepoRoot(t), "testdata", "sample"))
	reportFiles := []string{"checkstyle.xml", "pmd.sarif", "spotbugs.xml"}
	// Every finding, and the problems of several (their lead's id: the
	// others').
	var all []reports.Finding
	if _, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: sampleFiles(t, reportFiles...), Keep: pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
		all = append(all, *f)
		return nil
	}}}); err != nil {
		t.Fatal(err)
	}
	var leads []string
	others := map[string][]string{}
	if _, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: sampleFiles(t, reportFiles...), Classes: grouping.ClassOf, Keep: pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
		if f.Detail != nil && len(f.Detail.Also) > 0 {
			leads = append(leads, f.ID.String())
			for _, a := range f.Detail.Also {
				others[f.ID.String()] = append(others[f.ID.String()], a.ID.String())
			}
		}
		return nil
	}}}); err != nil {
		t.Fatal(err)
	}
	inProblem := map[string]bool{}
	for l, os := range others {
		inProblem[l] = true
		for _, o := range os {
			inProblem[o] = true
		}
	}
	byID := map[string]*reports.Finding{}
	for i := range all {
		byID[all[i].ID.String()] = &all[i]
	}
	if len(leads) < 8 {
		t.Fatalf("%d problems of several findings in the sample", len(leads))
	}
	states := []triage.State{triage.FalsePositive, triage.WontFix, triage.AcceptedRisk, triage.UsedInTests}
	entry := func(id string, state triage.State, until string) triage.Entry {
		e := triage.EntryFor(byID[id], src)
		e.State, e.Reason, e.Until = state, "decided on "+id, until
		return e
	}
	sample, _ := triagetest.Sample(t)
	sets := []struct {
		name    string
		entries func() []triage.Entry
	}{
		{"sample", func() []triage.Entry { return sample.Entries }},
		{"duplicates", func() []triage.Entry {
			var es []triage.Entry
			for i, l := range leads {
				if i%2 == 0 {
					es = append(es, entry(others[l][0], states[i%len(states)], ""))
				}
			}
			return es
		}},
		{"leads", func() []triage.Entry {
			var es []triage.Entry
			for i, l := range leads {
				if i%3 == 0 {
					es = append(es, entry(l, states[i%len(states)], ""))
				}
			}
			return es
		}},
		{"singles", func() []triage.Entry {
			var es []triage.Entry
			for i := range all {
				if !inProblem[all[i].ID.String()] && i%4 == 0 {
					es = append(es, entry(all[i].ID.String(), states[i%len(states)], ""))
				}
			}
			return es
		}},
		{"confirmed and expired", func() []triage.Entry {
			var es []triage.Entry
			for i, l := range leads {
				switch i % 3 {
				case 0: // the lead confirmed, a duplicate a false positive
					es = append(es, entry(l, triage.Confirmed, ""), entry(others[l][0], triage.FalsePositive, ""))
				case 1: // the lead's decision expired, a duplicate won't fix
					es = append(es, entry(l, triage.FalsePositive, "2026-10-01"), entry(others[l][0], triage.WontFix, ""))
				case 2: // a duplicate's decision expired alone
					es = append(es, entry(others[l][0], triage.AcceptedRisk, "2026-10-01"))
				}
			}
			return es
		}},
		{"every finding", func() []triage.Entry {
			var es []triage.Entry
			for i := range all {
				es = append(es, entry(all[i].ID.String(), states[i%len(states)], ""))
			}
			return es
		}},
	}
	keeps := []struct {
		name string
		keep func(each func(*reports.Finding, string) error) pipeline.Keep
	}{
		{"page", func(func(*reports.Finding, string) error) pipeline.Keep {
			return pipeline.Keep{Page: &pipeline.Page{Limit: 10}}
		}},
		{"later page", func(func(*reports.Finding, string) error) pipeline.Keep {
			return pipeline.Keep{Page: &pipeline.Page{Offset: 20, Limit: 15}}
		}},
		{"per severity", func(func(*reports.Finding, string) error) pipeline.Keep { return pipeline.Keep{PerSeverity: 3} }},
		{"each", func(each func(*reports.Finding, string) error) pipeline.Keep {
			return pipeline.Keep{Page: &pipeline.Page{Limit: 5}, Each: each}
		}},
		{"each early", func(each func(*reports.Finding, string) error) pipeline.Keep {
			e := &earlyEach{each: each}
			return pipeline.Keep{Page: &pipeline.Page{Limit: 5}, Each: e.take, Early: e}
		}},
		{"each alone", func(each func(*reports.Finding, string) error) pipeline.Keep { return pipeline.Keep{Each: each} }},
		{"each alone early", func(each func(*reports.Finding, string) error) pipeline.Keep {
			e := &earlyEach{each: each}
			return pipeline.Keep{Each: e.take, Early: e}
		}},
		{"counts", func(func(*reports.Finding, string) error) pipeline.Keep { return pipeline.Keep{} }},
	}
	baselines := []struct {
		name     string
		baseline []string
		newOnly  bool
	}{{"no baseline", nil, false}, {"baseline", []string{"checkstyle.xml"}, false}, {"new only", []string{"checkstyle.xml"}, true},
		{"pmd baseline new only", []string{"pmd.sarif", "spotbugs.xml"}, true}}
	sarif, err := render.Lookup(render.Findings, "sarif")
	if err != nil {
		t.Fatal(err)
	}
	output := func(set []triage.Entry, mode pipeline.TriagedMode, b int, k int, settle bool) (string, int) {
		was := pipeline.SettleAtResolution(settle)
		defer pipeline.SettleAtResolution(was)
		var each strings.Builder
		reads := &counted{Source: sampleFiles(t, reportFiles...)}
		q := &pipeline.Query{Reports: reads, Classes: grouping.ClassOf, Triaged: mode,
			Triage: triage.NewMatcher(&triage.File{Version: 1, Entries: set}, src, triagetest.Now),
			Keep: keeps[k].keep(func(f *reports.Finding, state string) error {
				j, _ := json.Marshal(f)
				fmt.Fprintf(&each, "%s %s\n", state, j)
				return nil
			})}
		if bl := baselines[b]; bl.baseline != nil {
			q.Baseline, q.NewOnly = sampleFiles(t, bl.baseline...), bl.newOnly
		}
		res, err := pipeline.Run(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		j, err := json.MarshalIndent(res.View, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		var s bytes.Buffer
		if err := sarif.View.Render(&s, res.View); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("JSON:\n%s\nSARIF:\n%s\nEach:\n%s\noutside %d, excluded %d", j, s.String(), each.String(), res.Outside, res.Excluded), reads.n
	}
	settledOnce, regrouped := 0, 0
	for _, set := range sets {
		if testing.Short() && set.name != "sample" && set.name != "duplicates" {
			continue // -short: the sample's decisions and those on duplicates
		}
		entries := set.entries()
		for _, mode := range []pipeline.TriagedMode{pipeline.TriagedExclude, pipeline.TriagedInclude, pipeline.TriagedOnly} {
			for b := range baselines {
				for k := range keeps {
					name := fmt.Sprintf("%s/%v/%s/%s", set.name, mode, baselines[b].name, keeps[k].name)
					t.Run(name, func(t *testing.T) {
						want, before := output(entries, mode, b, k, false)
						got, after := output(entries, mode, b, k, true)
						if d := cmp.Diff(want, got); d != "" {
							t.Errorf("%d entries: outputs differ (-second run +settled):\n%s", len(entries), d)
						}
						if late, ok := strings.CutSuffix(keeps[k].name, " early"); ok {
							// Each taking the findings early and told their
							// fate gets what it gets in the second pass.
							if keeps[k-1].name != late {
								t.Fatalf("%s follows %s", keeps[k].name, keeps[k-1].name)
							}
							if lateOut, _ := output(entries, mode, b, k-1, true); lateOut != got {
								t.Errorf("early: outputs differ (-second pass +early):\n%s", cmp.Diff(lateOut, got))
							}
						}
						if after > before {
							t.Errorf("settled: %d reads, the second run %d", after, before)
						}
						if after < before {
							settledOnce++
						}
						if mode != pipeline.TriagedOnly && keeps[k].name == "counts" && before > 1 && after > 1 {
							regrouped++
						}
					})
				}
			}
		}
	}
	t.Logf("%d queries read the reports fewer times settled; %d without only, counts alone, read them again", settledOnce, regrouped)
	if settledOnce == 0 {
		t.Error("no query settled")
	}
}

// earlyEach is a [pipeline.Early] that hands each finding it took, once
// settled, to each, as Keep.Each would have been handed it in a second
// pass.
type earlyEach struct {
	each  func(*reports.Finding, string) error
	taken []earlyTaken
}

type earlyTaken struct {
	f     reports.Finding
	state string
}

func (e *earlyEach) take(f *reports.Finding, state string) error {
	g := *f
	g.Baseline = "" // the grouper's mark in the first pass: Each is handed the state apart
	e.taken = append(e.taken, earlyTaken{g, state})
	return nil
}

func (e *earlyEach) Settle(fate func(id reports.FindingID, baseline string, suppressed, uncounted bool) (bool, string, *reports.Triage, []reports.Also)) error {
	for _, t := range e.taken {
		drop, state, tri, also := fate(t.f.ID, t.state, t.f.Triage.Suppressed(), t.f.Uncounted())
		if drop {
			continue
		}
		g := t.f
		if tri != nil {
			g.Triage = tri
		}
		if len(also) > 0 {
			d := reports.Detail{}
			if g.Detail != nil {
				d = *g.Detail
			}
			d.Also = also
			g.Detail = &d
		}
		if err := e.each(&g, state); err != nil {
			return err
		}
	}
	e.taken = nil
	return nil
}

func (e *earlyEach) Restart() error {
	e.taken = nil
	return nil
}
