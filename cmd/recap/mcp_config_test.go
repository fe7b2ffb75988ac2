package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// overridingConfig overrides every field a configuration can (impact,
// quality, severity, category), excludes by rule and by path, and makes
// two rules one problem; every pattern matches a finding of the sample.
const overridingConfig = `version: 1
exclude:
  paths: ["**/PriceCalculator.java"]
  rules: [Checkstyle:JavadocVariable]
overrides:
  - rules: ["Checkstyle:*"]
    impact: info
  - rules: [PMD:CloseResource]
    impact: blocker
    quality: security
    severity: note
    category: Performance
  - rules: [Checkstyle:FinalParameters]
    impact: high
    quality: reliability
    severity: error
    category: Security
  - rules: ["SpotBugs:SQL_*"]
    impact: low
    severity: warning
same:
  - [Checkstyle:DesignForExtension, PMD:ImmutableField]
`

// configView is what the command line and the server must agree on: the
// counts and, finding by finding in order, what the configuration changes.
type configView struct {
	Total, Problems, Excluded int
	ByImpact, BySeverity      map[string]int
	Findings                  []string // number impact quality severity category rule path:line baseline
}

func readConfigView(t *testing.T, b []byte) configView {
	t.Helper()
	var v struct {
		Summary struct {
			Total, Problems, Excluded int
			ByImpact, BySeverity      map[string]int
		}
		Findings []struct {
			ID, Impact, Quality, Severity, Category, Rule, Path, Baseline string
			Line                                                          int
		}
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %.300s", err, b)
	}
	out := configView{Total: v.Summary.Total, Problems: v.Summary.Problems, Excluded: v.Summary.Excluded, ByImpact: v.Summary.ByImpact, BySeverity: v.Summary.BySeverity}
	for _, f := range v.Findings {
		// The id's tag is the door's (4 characters on the command line, 8
		// in the server); the number is the finding's in its report.
		n := f.ID[strings.LastIndexByte(f.ID, '-')+1:]
		out.Findings = append(out.Findings, strings.Join([]string{n, f.Impact, f.Quality, f.Severity, f.Category, f.Rule, f.Path + ":" + itoa(f.Line), f.Baseline}, " "))
	}
	return out
}

// TestMCPConfigAgreesWithCLI: with a .recap.yml that overrides every
// field, excludes and groups, analysis.getReports and recap findings give
// the same findings in the same order with the same impact, quality,
// severity and category, and the same counts: all of them, filtered by an
// overridden impact, severity and category, by pages, against a baseline;
// analysis.getFinding shows a finding as the configuration says it.
func TestMCPConfigAgreesWithCLI(t *testing.T) {
	t.Parallel()
	dir := mcpWorkspace(t)
	if err := os.WriteFile(filepath.Join(dir, ".recap.yml"), []byte(overridingConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "baseline"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "baseline", "pmd.sarif"), []byte(readFile(t, filepath.Join(dir, "build", "reports", "pmd.sarif"))), 0o644); err != nil {
		t.Fatal(err)
	}
	reportsDir := "build/reports"
	cli := func(args ...string) configView {
		t.Helper()
		cmd := exec.Command(bin, append(append([]string{"findings", "--format", "json", "--max-tokens", "25000", "--no-context"}, args...), reportsDir)...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("recap findings %v: %v", args, err)
		}
		return readConfigView(t, out)
	}
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--root", dir)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(tool string, args map[string]any) []byte {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s %v: %v %v", tool, args, err, res)
		}
		b, _ := json.Marshal(res.StructuredContent)
		return b
	}
	server := func(args map[string]any) configView {
		t.Helper()
		args["reports"], args["maxTokens"], args["context"] = []string{reportsDir}, 25000, false
		return readConfigView(t, call("analysis.getReports", args))
	}
	for _, tc := range []struct {
		name string
		cli  []string
		mcp  map[string]any
	}{
		{"all", []string{"--limit", "200"}, map[string]any{"limit": 200}},
		{"the first page", nil, map[string]any{"limit": 50}},
		{"the second page", []string{"--offset", "50", "--limit", "50"}, map[string]any{"offset": 50, "limit": 50}},
		{"a page across the head's end", []string{"--offset", "45", "--limit", "10"}, map[string]any{"offset": 45, "limit": 10}},
		{"an overridden impact", []string{"--impact", "blocker", "--limit", "200"}, map[string]any{"impact": "blocker", "limit": 200}},
		{"an overridden severity", []string{"--severity", "error", "--limit", "200"}, map[string]any{"severity": "error", "limit": 200}},
		{"an overridden category", []string{"--category", "Security", "--limit", "200"}, map[string]any{"categories": []string{"Security"}, "limit": 200}},
		{"an overridden quality", []string{"--quality", "security", "--limit", "200"}, map[string]any{"qualities": []string{"security"}, "limit": 200}},
		{"against a baseline", []string{"--baseline", "baseline", "--limit", "200"}, map[string]any{"baseline": []string{"baseline"}, "limit": 200}},
		{"new against a baseline", []string{"--baseline", "baseline", "--new-only", "--limit", "200"}, map[string]any{"baseline": []string{"baseline"}, "newOnly": true, "limit": 200}},
	} {
		want, got := cli(tc.cli...), server(tc.mcp)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: the server and the command line disagree (-command line +server):\n%s", tc.name, diff)
		}
		if len(want.Findings) == 0 {
			t.Errorf("%s: no findings: the case shows nothing", tc.name)
		}
	}
	// Paged through 7 at a time, both give every problem once, in the order
	// of one page of all: the head of different rules, then the others.
	all := cli("--limit", "200")
	var cliPages, serverPages []string
	for off := 0; off < all.Problems; off += 7 {
		cliPages = append(cliPages, cli("--offset", itoa(off), "--limit", "7").Findings...)
		serverPages = append(serverPages, server(map[string]any{"offset": off, "limit": 7}).Findings...)
	}
	if diff := cmp.Diff(all.Findings, cliPages); diff != "" {
		t.Errorf("the command line's pages of 7 (-one page +pages):\n%s", diff)
	}
	if diff := cmp.Diff(all.Findings, serverPages); diff != "" {
		t.Errorf("the server's pages of 7 (-one page +pages):\n%s", diff)
	}
	if len(all.Findings) != all.Problems {
		t.Fatalf("%d findings shown of %d problems", len(all.Findings), all.Problems)
	}
	// Every override is seen: the blocker is PMD's CloseResource as a
	// security note of Performance, first; Checkstyle's FinalParameters are
	// high reliability errors of Security; the configuration excluded some.
	if !strings.Contains(all.Findings[0], " blocker security note Performance CloseResource ") {
		t.Errorf("the first finding is %q, want PMD's CloseResource as overridden", all.Findings[0])
	}
	if all.Excluded == 0 || all.ByImpact["info"] == 0 {
		t.Errorf("excluded %d, info %d: the configuration's exclusions and overrides did not apply", all.Excluded, all.ByImpact["info"])
	}
	seen := false
	for _, f := range all.Findings {
		if strings.Contains(f, "FinalParameters") {
			seen = true
			if !strings.Contains(f, " high reliability error Security ") {
				t.Errorf("FinalParameters shown as %q", f)
			}
		}
	}
	if !seen {
		t.Error("no FinalParameters finding: the case shows nothing")
	}
	// getFinding says the finding as the configuration does.
	var first struct{ Findings []struct{ ID string } }
	if err := json.Unmarshal(call("analysis.getReports", map[string]any{"reports": []string{reportsDir}}), &first); err != nil || len(first.Findings) == 0 {
		t.Fatalf("%v %+v", err, first)
	}
	id := first.Findings[0].ID
	var one struct {
		Finding struct{ Impact, Quality, Severity, Category, ToolCategory string }
	}
	if err := json.Unmarshal(call("analysis.getFinding", map[string]any{"id": id}), &one); err != nil {
		t.Fatal(err)
	}
	if f := one.Finding; f.Impact != "blocker" || f.Quality != "security" || f.Severity != "note" || f.Category != "Performance" {
		t.Errorf("getFinding %s: %+v, want the overrides (blocker, security, note, Performance)", id, f)
	}
}
