package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/reports"
)

// TestSARIFRecordsRecap: the SARIF the binary writes records, in every
// run's conversion, recap and the version recap version prints.
func TestSARIFRecordsRecap(t *testing.T) {
	root := reportstest.RepoRoot(t)
	out, _, code := recap(t, root, nil, "version")
	if code != 0 || !strings.HasPrefix(out, "recap "+testVersion+" (") {
		t.Fatalf("recap version: %q (exit %d)", out, code)
	}
	sarif, stderr, code := recap(t, root, nil, "summary", "--format", "sarif", "--repo", "testdata/sample", "testdata/reports")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var log struct {
		Runs []struct {
			Conversion struct {
				Tool struct {
					Driver struct{ Name, Version string } `json:"driver"`
				} `json:"tool"`
			} `json:"conversion"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(sarif), &log); err != nil || len(log.Runs) != 3 {
		t.Fatalf("%v: %d runs", err, len(log.Runs))
	}
	for _, r := range log.Runs {
		if d := r.Conversion.Tool.Driver; d.Name != "recap" || d.Version != testVersion {
			t.Errorf("conversion driver %+v, want recap %s", d, testVersion)
		}
	}
}

// TestCodeClimateReadsBack: recap summary --format codeclimate on the
// sample's reports, read by recap again, gives the same findings (tool,
// rule, severity, path, line, message, and category but for
// Multithreading, which Code Climate calls a bug risk, and
// Internationalization, which it calls compatibility as it does Best
// Practices; see docs/ci.md), counted the same. Every finding: --no-group
// (grouped, Code Quality has an issue per problem).
func TestCodeClimateReadsBack(t *testing.T) {
	root := reportstest.RepoRoot(t)
	cq, stderr, code := recap(t, root, nil, "summary", "--format", "codeclimate", "--no-group", "--repo", "testdata/sample", "testdata/reports")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	file := filepath.Join(t.TempDir(), "gl-code-quality-report.json")
	if err := os.WriteFile(file, []byte(cq), 0o644); err != nil {
		t.Fatal(err)
	}
	type finding struct {
		Tool, Rule, Severity, Impact, Path, Message, Category string
		Line                                                  int
	}
	// read reads every finding, a page at a time.
	read := func(args ...string) (int, []string) {
		var all []finding
		total := 0
		for offset := 0; ; {
			out, stderr, code := recap(t, root, nil, append([]string{"findings", "--format", "json", "--limit", "200", "--max-tokens", "25000", "--no-context", "--offset", itoa(offset)}, args...)...)
			if code != 0 {
				t.Fatalf("recap findings %v: exit %d: %s", args, code, stderr)
			}
			var v struct {
				Summary struct {
					Total int `json:"total"`
				} `json:"summary"`
				Findings []finding `json:"findings"`
				Page     struct {
					NextOffset *int `json:"nextOffset"`
				} `json:"page"`
			}
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatal(err)
			}
			all, total = append(all, v.Findings...), v.Summary.Total
			if v.Page.NextOffset == nil || len(v.Findings) == 0 {
				break
			}
			offset = *v.Page.NextOffset
		}
		var keys []string
		for _, f := range all {
			switch f.Category {
			case reports.CategoryMultithreading:
				f.Category = reports.CategoryErrorProne
			case reports.CategoryInternationalization:
				f.Category = reports.CategoryBestPractices
			}
			// A Code Quality severity is the impact's: read back, the
			// severity is the impact's level.
			if imp, err := reports.ParseImpact(f.Impact); err == nil {
				f.Severity = reports.ImpactLevel(imp).String()
			}
			// check_name names a Checkstyle check by its name, not its class.
			keys = append(keys, strings.Join([]string{f.Tool, reports.ShortRule(f.Tool, f.Rule), f.Severity, f.Path, itoa(max(f.Line, 1)), f.Message, f.Category}, "|"))
		}
		sort.Strings(keys)
		return total, keys
	}
	wantTotal, want := read("--no-group", "--repo", "testdata/sample", "testdata/reports")
	gotTotal, got := read("--no-group", "--repo", "testdata/sample", file)
	if wantTotal != tooltest.SampleFindings || gotTotal != wantTotal {
		t.Fatalf("%d findings read back, %d written (want %d)", gotTotal, wantTotal, tooltest.SampleFindings)
	}
	if len(got) != len(want) || len(got) < 30 {
		t.Fatalf("%d findings read back, %d written", len(got), len(want))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read back (-written +read):\n%s", diff)
	}
}
