package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
)

// TestMCPBaselineAgreesWithCLI: analysis.getReports with a baseline, with
// and without reports and changedSince, marks the same findings new and
// unchanged, and counts the same fixed, as the command line's --baseline
// (and --changed-only --base HEAD~1) on the same reports; without reports,
// the baseline's file is no current report.
func TestMCPBaselineAgreesWithCLI(t *testing.T) {
	t.Parallel()
	dir := mcpWorkspace(t) // build/reports: the sample's reports; OrderService.java line 15 edited
	pmd := readFile(t, filepath.Join(dir, "build", "reports", "pmd.sarif"))
	// The baseline is the report as it was; the current report has one
	// finding more, on the edited line, and one fewer (fixed).
	if err := os.MkdirAll(filepath.Join(dir, "baseline"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, r := range []string{"pmd.sarif", "checkstyle.xml", "spotbugs.xml"} {
		if err := os.WriteFile(filepath.Join(dir, "baseline", r), []byte(readFile(t, filepath.Join(dir, "build", "reports", r))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var log map[string]any
	if err := json.Unmarshal([]byte(pmd), &log); err != nil {
		t.Fatal(err)
	}
	run := log["runs"].([]any)[0].(map[string]any)
	results := run["results"].([]any)
	added := map[string]any{"ruleId": "SystemPrintln", "message": map[string]any{"text": "Usage of System.out/err, newly"}, "level": "warning",
		"locations": []any{map[string]any{"physicalLocation": map[string]any{
			"artifactLocation": map[string]any{"uri": "file:///home/runner/work/shop/shop/src/main/java/com/example/shop/OrderService.java"},
			"region":           map[string]any{"startLine": 15}}}}}
	run["results"] = append(results[1:], added)
	b, _ := json.Marshal(log)
	if err := os.WriteFile(filepath.Join(dir, "build", "reports", "pmd.sarif"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	// The edit committed: the command line's --base HEAD~1 and the
	// server's changedSince HEAD~1 see the same change.
	git := exec.Command("git", "commit", "-q", "-am", "edit")
	git.Dir = dir
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}

	type state = struct {
		Total, New, Unchanged, Fixed int
		Findings                     []string // rule path:line state
	}
	cli := func(baseline string, args ...string) state {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"findings", "--format", "json", "--limit", "200", "--max-tokens", "25000", "--baseline", baseline}, args...)...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("recap %v: %v", args, err)
		}
		return viewState(t, out)
	}
	cmd := exec.Command(bin, "mcp", "--root", dir)
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "claude-code"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	server := func(baseline string, args map[string]any) state {
		t.Helper()
		args["baseline"] = []string{baseline}
		args["limit"], args["maxTokens"], args["context"] = 200, 25000, false
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "analysis.getReports", Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("getReports %v: %v %v", args, err, res)
		}
		b, _ := json.Marshal(res.StructuredContent)
		return viewState(t, b)
	}
	all := []string{"build/reports/pmd.sarif", "build/reports/checkstyle.xml", "build/reports/spotbugs.xml"}
	for name, tc := range map[string]struct {
		baseline string
		cli      []string
		mcp      map[string]any
	}{
		"reports named":                        {"baseline", all, map[string]any{"reports": all}},
		"reports found":                        {"baseline", all, map[string]any{}},
		"reports named, changed since HEAD~1":  {"baseline", append([]string{"--changed-only", "--base", "HEAD~1"}, all...), map[string]any{"reports": all, "changedSince": "HEAD~1"}},
		"reports found, changed since HEAD~1":  {"baseline", append([]string{"--changed-only", "--base", "HEAD~1"}, all...), map[string]any{"changedSince": "HEAD~1"}},
		"the PMD report, changed since HEAD~1": {"baseline/pmd.sarif", []string{"--changed-only", "--base", "HEAD~1", "build/reports/pmd.sarif"}, map[string]any{"reports": []string{"build/reports/pmd.sarif"}, "changedSince": "HEAD~1"}},
	} {
		t.Run(name, func(t *testing.T) {
			want, got := cli(tc.baseline, tc.cli...), server(tc.baseline, tc.mcp)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("the server's baseline states (-command line +server):\n%s", diff)
			}
			if want.New != 1 {
				t.Errorf("%d new, want 1", want.New)
			}
			if strings.Contains(name, "changed") && (want.Fixed != 0 || want.Total != 2) {
				t.Errorf("%d findings on the changed line, %d fixed; want 2, 0", want.Total, want.Fixed)
			}
			if !strings.Contains(name, "changed") && (want.Fixed != 1 || want.Total != tooltest.SampleFindings) {
				t.Errorf("%d findings, %d fixed; want %d, 1", want.Total, want.Fixed, tooltest.SampleFindings)
			}
		})
	}
}

// viewState reads the counts and the findings' states of a JSON view.
func viewState(t *testing.T, b []byte) (s struct {
	Total, New, Unchanged, Fixed int
	Findings                     []string
}) {
	t.Helper()
	var v struct {
		Summary struct {
			Total, Problems int
			Baseline        *struct{ New, Unchanged, Fixed int }
		}
		Findings []struct {
			Rule, Path, Baseline string
			Line                 int
		}
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %.300s", err, b)
	}
	s.Total = v.Summary.Total
	if v.Summary.Baseline != nil {
		s.New, s.Unchanged, s.Fixed = v.Summary.Baseline.New, v.Summary.Baseline.Unchanged, v.Summary.Baseline.Fixed
	}
	for _, f := range v.Findings {
		s.Findings = append(s.Findings, f.Rule+" "+f.Path+":"+itoa(f.Line)+" "+f.Baseline)
	}
	sort.Strings(s.Findings)
	if len(v.Findings) != v.Summary.Problems {
		t.Errorf("%d findings shown of %d problems", len(v.Findings), v.Summary.Problems)
	}
	return s
}

// TestBaselineOfRecapSARIF: recap's SARIF of reports, kept as the
// baseline (as a CI keeps its artifact), matches the reports: nothing new,
// nothing fixed, every finding unchanged, and --max-new 0 passes; for the
// sample's reports and for real reports of the corpus (ESLint's SARIF,
// SpotBugs' and PMD's XML, which recap's SARIF converts), and with one
// tool in several reports that share findings, merged into one run of
// recap's SARIF: the corpus's folders of PMD's, Checkstyle's and
// SpotBugs' reports, the sample's reports beside an edited copy of them
// (a byte more, the same findings) and beside an exact copy (read once).
func TestBaselineOfRecapSARIF(t *testing.T) {
	t.Parallel()
	root := reportstest.RepoRoot(t)
	sample := filepath.Join(root, "testdata", "reports")
	dir := t.TempDir()
	edited, copied := filepath.Join(dir, "edited"), filepath.Join(dir, "copied")
	for _, d := range []string{edited, copied} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(sample)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(sample, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(copied, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(edited, e.Name()), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inputs := [][]string{{sample}, {sample, edited}, {sample, copied}}
	if corpus, ok := reportstest.Shared(t, "corpus"); ok {
		for _, f := range []string{"sarif-other/eslint-9.36.0-large.sarif", "spotbugs-xml/findbugs-1.3.9-issue7238-large.xml",
			"pmd-xml/pmd-6.1.0-262-violations.xml", "pmd-xml/pmd-6.55.0-suppressed.xml", "sarif-other/suppressions-synthetic.sarif"} {
			inputs = append(inputs, []string{filepath.Join(corpus, f)})
		}
		// Folders of one tool's reports: PMD's SARIF reports share
		// findings (one finding in two of them gave 2 new and 2 fixed
		// when recap's SARIF numbered it again).
		for _, d := range []string{"pmd-sarif", "pmd-xml", "checkstyle-xml", "checkstyle-sarif", "spotbugs-xml", "spotbugs-sarif"} {
			inputs = append(inputs, []string{filepath.Join(corpus, d)})
		}
		inputs = append(inputs, []string{filepath.Join(corpus, "pmd-sarif"), filepath.Join(corpus, "pmd-xml"), sample, edited})
	}
	for i, in := range inputs {
		out := filepath.Join(dir, fmt.Sprintf("recap-%d.sarif", i))
		cmd := exec.Command(bin, append([]string{"findings", "--format", "sarif", "--max-results", "0"}, in...)...)
		cmd.Dir = root
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("recap findings --format sarif %v: %v", in, err)
		}
		if err := os.WriteFile(out, b, 0o644); err != nil {
			t.Fatal(err)
		}
		raw, _ := runJSON(t, root, append([]string{"summary", "--format", "json"}, in...)...)
		v, code := runJSON(t, root, append([]string{"summary", "--format", "json", "--max-new", "0", "--baseline", out}, in...)...)
		b2 := v.Summary.Baseline
		if code != 0 || b2 == nil || b2.New != 0 || b2.Fixed != 0 || b2.Unchanged != raw.Summary.Total || raw.Summary.Total == 0 {
			t.Errorf("%v against recap's SARIF of it: exit %d, baseline %+v of %d findings; want all unchanged", in, code, b2, raw.Summary.Total)
		}
		// Read as a report, recap's SARIF gives the same problems: it
		// writes each problem once.
		back, _ := runJSON(t, root, "summary", "--format", "json", out)
		if back.Summary.Total != raw.Summary.Problems || back.Summary.Problems != raw.Summary.Problems {
			t.Errorf("%v: recap's SARIF reads back %d findings (%d problems), the report has %d problems", in, back.Summary.Total, back.Summary.Problems, raw.Summary.Problems)
		}
	}
}

// TestBaselineOfRecapCodeQuality: recap's Code Quality report of some
// reports, given as --baseline, finds no new and no fixed finding in
// them: its fingerprints are the findings' own (each problem once, its
// duplicates unchanged with it), for the sample's reports, the sample
// beside a copy of them, and real reports of the corpus.
func TestBaselineOfRecapCodeQuality(t *testing.T) {
	t.Parallel()
	root := reportstest.RepoRoot(t)
	sample := filepath.Join(root, "testdata", "reports")
	dir := t.TempDir()
	edited := filepath.Join(dir, "edited")
	if err := os.Mkdir(edited, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(sample)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(sample, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(edited, e.Name()), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		inputs []string
		group  bool
	}{
		{"the sample", []string{sample}, true},
		{"the sample, no grouping", []string{sample}, false},
		{"the sample beside an edited copy", []string{sample, edited}, true},
	}
	if corpus, ok := reportstest.Shared(t, "corpus"); ok {
		for _, f := range []string{"sarif-other/eslint-9.36.0-large.sarif", "spotbugs-xml/findbugs-1.3.9-issue7238-large.xml",
			"pmd-xml/pmd-6.1.0-262-violations.xml", "checkstyle-xml"} {
			tests = append(tests, struct {
				name   string
				inputs []string
				group  bool
			}{f, []string{filepath.Join(corpus, f)}, true})
		}
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, fmt.Sprintf("quality-%d.json", i))
			args := []string{"summary", "--repo", "testdata/sample", "--format", "codeclimate"}
			if !tc.group {
				args = append(args, "--no-group")
			}
			cmd := exec.Command(bin, append(args, tc.inputs...)...)
			cmd.Dir = root
			b, err := cmd.Output()
			if err != nil {
				t.Fatalf("recap summary --format codeclimate %v: %v", tc.inputs, err)
			}
			if err := os.WriteFile(out, b, 0o644); err != nil {
				t.Fatal(err)
			}
			args = []string{"summary", "--repo", "testdata/sample", "--format", "json", "--max-new", "0", "--baseline", out}
			if !tc.group {
				args = append(args, "--no-group")
			}
			v, code := runJSON(t, root, append(args, tc.inputs...)...)
			bl := v.Summary.Baseline
			if code != 0 || bl == nil || bl.New != 0 || bl.Fixed != 0 || bl.Unchanged != v.Summary.Total || v.Summary.Total == 0 {
				t.Errorf("%v against recap's Code Quality report of it: exit %d, baseline %+v of %d findings; want all unchanged", tc.inputs, code, bl, v.Summary.Total)
			}
		})
	}
}
