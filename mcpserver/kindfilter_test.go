package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// TestKindFilter: the findings of the kinds a filter refuses are passed
// over without being made (kindFilter), and the answers are the same as
// the pipeline's filter alone gives: counts, suggestions, pages, on the
// sample's three reports and, when ../shared is there and not in -short
// (the race step's mode), the commons-lang bench (30,380 PMD and 41,609
// Checkstyle findings).
func TestKindFilter(t *testing.T) {
	dir := t.TempDir()
	repo := reportstest.RepoRoot(t)
	for _, r := range []string{"pmd.sarif", "checkstyle.xml", "spotbugs.xml"} {
		copyFile(t, filepath.Join(repo, "testdata", "reports", r), filepath.Join(dir, r))
	}
	bench, _ := reportstest.Shared(t, "bench")
	if testing.Short() {
		bench = ""
	}
	if bench != "" {
		for _, r := range []string{"commons-lang.pmd7-all.sarif.gz", "commons-lang.checkstyle-sun.xml.gz"} {
			copyFile(t, filepath.Join(bench, r), filepath.Join(dir, r))
		}
	}
	yes := true
	for _, c := range []struct {
		name string
		in   GetReportsIn
	}{
		{"impact", GetReportsIn{Impact: "high", Limit: 50}},
		{"severity", GetReportsIn{Severity: "warning", Limit: 50}},
		{"qualities", GetReportsIn{Qualities: []string{"security", "reliability"}, Limit: 50}},
		{"categories", GetReportsIn{Categories: []string{"Design", "BAD_PRACTICE"}, Limit: 50}},
		{"cwe", GetReportsIn{CWE: []string{"CWE-476", "89"}, Limit: 50}},
		{"security", GetReportsIn{SecurityOnly: true, Limit: 50}},
		{"impact and grep", GetReportsIn{Impact: "medium", Grep: "unused", Limit: 50}},
		{"category, ungrouped, a later page", GetReportsIn{Categories: []string{"Code Style"}, Group: new(bool), Offset: 100, Limit: 50}},
		{"impact, counts only", GetReportsIn{Impact: "low", SummaryOnly: true}},
		{"impact, context", GetReportsIn{Impact: "blocker", Context: &yes, Limit: 20}},
		{"tools", GetReportsIn{Tools: []string{"pmd"}, Limit: 50}},
		{"tools and severity", GetReportsIn{Tools: []string{"Checkstyle", "SpotBugs"}, Severity: "error", Limit: 50}},
		{"a tool no report has", GetReportsIn{Tools: []string{"PMD", "Sonar"}, Limit: 50}},
		{"rules", GetReportsIn{Rules: []string{"UnusedPrivateField", "MagicNumber", "LineLength"}, Limit: 50}},
		{"a rule no report has", GetReportsIn{Rules: []string{"MagicNumber", "MagicNumbers"}, Limit: 50}},
		{"paths", GetReportsIn{Paths: []string{"**/lang3/*Utils.java", "src/main/**/Order*.java"}, Limit: 50}},
		{"paths and category", GetReportsIn{Paths: []string{"**/lang3/**"}, Categories: []string{"Design"}, Limit: 50}},
		{"a path no finding has", GetReportsIn{Paths: []string{"**/lang3/**", "nowhere/**"}, Limit: 50}},
	} {
		t.Run(c.name, func(t *testing.T) {
			answer := func(on bool) string {
				kindFilters = on
				defer func() { kindFilters = true }()
				s, err := New(Options{Root: dir})
				if err != nil {
					t.Fatal(err)
				}
				in := c.in
				a, err := s.getReports(context.Background(), &in)
				if err != nil {
					t.Fatal(err)
				}
				v := a.(*reportsAnswer).v
				v.BufferID = ""
				raw, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				return string(raw)
			}
			with, without := answer(true), answer(false)
			if with != without {
				t.Errorf("passing over the kinds the filter refuses changed the answer:\nwith    %.2000s\nwithout %.2000s", with, without)
			}
			var v struct{ Summary struct{ Total int } }
			// Some filters keep none of the sample's findings, only the
			// bench's.
			if err := json.Unmarshal([]byte(with), &v); err != nil || v.Summary.Total == 0 && bench != "" {
				t.Errorf("the filter kept nothing (%v): the comparison shows little", err)
			}
		})
	}
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
