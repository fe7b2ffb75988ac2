package pipeline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/internal/triagetest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/triage"
)

// TestTriageSettledDense: on made-up reports whose findings crowd a few
// lines (Checkstyle's and three PMD rules of one class of equivalent
// rules, on lines that chain, start together and hold each other; a class
// whose Checkstyle rule reaches a line down, reports.Anchors; a rule of no
// class), decisions on a fifth of the findings settled at the
// groups' resolution give the view a second run gives that triages their
// problems from the start, in each mode; so do decisions on the findings
// of one class alone (the others' are not put aside). These are the files the settling
// groups again (a hidden finding shifts the rank of a shown one of its
// rule, beside another rule's), where only the runs of nearby findings
// are grouped again: those settle the very queries that grouping the
// whole files again settles.
func TestTriageSettledDense(t *testing.T) {
	seeds := 60
	if testing.Short() {
		seeds = 15
	}
	pmdRules := []string{"ControlStatementBraces", "IfStmtsMustUseBraces", "WhileLoopsMustUseBraces", "ShortVariable", "OverrideBothEqualsAndHashcode"}
	settledOnce := 0
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(seed), 7))
			dir := t.TempDir()
			type made struct {
				tool, rule, path, msg string
			}
			var all []made
			var cs strings.Builder
			cs.WriteString(`<?xml version="1.0"?>` + "\n" + `<checkstyle version="8.36">` + "\n")
			var results []map[string]any
			for f := range 1 + rng.IntN(2) {
				path := fmt.Sprintf("src/F%d.java", f)
				lines := 12 + rng.IntN(30)
				n := 20 + rng.IntN(60)
				fmt.Fprintf(&cs, "<file name=%q>\n", filepath.Join(dir, path))
				for i := range n {
					line := 1 + rng.IntN(lines)
					end := line
					switch rng.IntN(6) {
					case 0:
						end = line + 1 + rng.IntN(3)
					case 1:
						end = line + rng.IntN(lines)
					}
					col := 1 + rng.IntN(4)
					msg := fmt.Sprintf("finding %d of F%d", i, f)
					if rng.IntN(3) == 0 {
						check := []string{"blocks.NeedBracesCheck", "coding.EqualsHashCodeCheck"}[rng.IntN(2)]
						fmt.Fprintf(&cs, "<error line=\"%d\" column=\"%d\" severity=\"%s\" message=%q source=\"com.puppycrawl.tools.checkstyle.checks.%s\"/>\n",
							line, col, []string{"error", "warning", "info"}[rng.IntN(3)], msg, check)
						all = append(all, made{"Checkstyle", "", path, msg})
						continue
					}
					rule := pmdRules[rng.IntN(len(pmdRules))]
					results = append(results, map[string]any{"ruleId": rule, "level": []string{"error", "warning", "note"}[rng.IntN(3)],
						"message": map[string]any{"text": msg},
						"locations": []any{map[string]any{"physicalLocation": map[string]any{"artifactLocation": map[string]any{"uri": path},
							"region": map[string]any{"startLine": line, "endLine": end, "startColumn": col}}}}})
					all = append(all, made{"PMD", rule, path, msg})
				}
				cs.WriteString("</file>\n")
			}
			cs.WriteString("</checkstyle>\n")
			sarif, err := json.Marshal(map[string]any{"version": "2.1.0", "runs": []any{map[string]any{
				"tool": map[string]any{"driver": map[string]any{"name": "PMD"}}, "results": results}}})
			if err != nil {
				t.Fatal(err)
			}
			for name, b := range map[string][]byte{"checkstyle.xml": []byte(cs.String()), "pmd.sarif": sarif} {
				if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			files := pipeline.Files{Paths: []string{filepath.Join(dir, "checkstyle.xml"), filepath.Join(dir, "pmd.sarif")},
				Options: parsers.ReadOptions{Root: dir}}
			// The entries: a fifth of the findings, as read (rule names
			// as the parsers give them).
			var read []reports.Finding
			if _, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: files, Keep: pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
				read = append(read, *f)
				return nil
			}}}); err != nil {
				t.Fatal(err)
			}
			if len(read) != len(all) {
				t.Fatalf("%d findings read, %d made", len(read), len(all))
			}
			// One seed in three decides findings of the braces' class
			// alone: the other classes' findings of the files are not put
			// aside, and settling must not need them.
			braces := grouping.ClassOf("PMD", "ControlStatementBraces")
			oneClass := seed%3 == 2
			var entries []triage.Entry
			for i := range read {
				if oneClass && grouping.ClassOf(read[i].Tool, reports.ShortRule(read[i].Tool, read[i].Rule)) != braces {
					continue
				}
				if rng.IntN(5) == 0 {
					e := triage.EntryFor(&read[i], nil)
					e.State, e.Reason = triage.FalsePositive, "dense"
					if rng.IntN(8) == 0 {
						e.State = triage.Confirmed
					}
					entries = append(entries, e)
				}
			}
			for _, mode := range []pipeline.TriagedMode{pipeline.TriagedExclude, pipeline.TriagedInclude} {
				output := func(settle, whole bool) (string, int) {
					was := pipeline.SettleAtResolution(settle)
					defer pipeline.SettleAtResolution(was)
					wasWhole := pipeline.RegroupWhole(whole)
					defer pipeline.RegroupWhole(wasWhole)
					reads := &counted{Source: files}
					res, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: reads, Classes: grouping.ClassOf, Triaged: mode,
						Triage: triage.NewMatcher(&triage.File{Version: 1, Entries: entries}, nil, triagetest.Now),
						Keep:   pipeline.Keep{Page: &pipeline.Page{Limit: 200}}})
					if err != nil {
						t.Fatal(err)
					}
					j, err := json.MarshalIndent(res.View, "", " ")
					if err != nil {
						t.Fatal(err)
					}
					return string(j), reads.n
				}
				want, _ := output(false, false)
				got, n := output(true, false)
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("%v, %d findings, %d entries: views differ (-second run +settled):\n%s", mode, len(all), len(entries), d)
				}
				// Grouping again the whole files settles the same queries.
				if _, whole := output(true, true); whole != n {
					t.Errorf("%v: %d reads grouping again nearby findings, %d the whole files", mode, n, whole)
				}
				if n == 1 {
					settledOnce++
				}
			}
		})
	}
	t.Logf("%d of %d queries settled in one read", settledOnce, 2*seeds)
	if settledOnce == 0 {
		t.Error("no query settled in one read")
	}
}
