package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/triage"
)

// triageFile reads the root's triage file, failing when it does not parse.
func triageFile(t *testing.T, dir string) *triage.File {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".recap", "triage.yml"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := triage.Parse("triage.yml", b)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestMCPTriage runs recap mcp as real subprocesses over stdio: one
// read-only (the default), which proposes the entry and writes nothing,
// and two with --allow-triage-writes over the same root, asked for
// decisions at once: every decision is in the file.
func TestMCPTriage(t *testing.T) {
	t.Parallel()
	dir := mcpWorkspace(t)
	ctx := context.Background()
	start := func(flags ...string) *mcp.ClientSession {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"mcp", "--root", dir}, flags...)...)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "claude-code"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	call := func(cs *mcp.ClientSession, tool string, args map[string]any, out any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Errorf("%s: %v", tool, err)
			return
		}
		if res.IsError {
			t.Errorf("%s %v: %s", tool, args, res.Content[0].(*mcp.TextContent).Text)
			return
		}
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			t.Error(err)
		}
	}
	type answer struct {
		Entry   triage.Entry
		YAML    string
		Written bool
		Next    string
	}
	ro := start()
	var page struct {
		Findings []struct {
			ID, Fingerprint, Path string
			Line                  int
		}
	}
	call(ro, "analysis.getReports", map[string]any{"limit": 40, "context": false, "group": false, "maxTokens": 25000}, &page)
	var lined []string
	for _, f := range page.Findings {
		if f.Line > 0 {
			lined = append(lined, f.Fingerprint)
		}
	}
	if len(lined) < 12 {
		t.Fatalf("%d findings with a line, want 12", len(lined))
	}
	var a answer
	call(ro, "analysis.triage", map[string]any{"fingerprint": lined[0], "state": "used-in-tests", "reason": "only the tests build it"}, &a)
	if a.Written || a.Entry.State != triage.UsedInTests || !strings.Contains(a.Next, "--allow-triage-writes") || !strings.Contains(a.YAML, "reason: only the tests build it") {
		t.Errorf("read-only: %+v", a)
	}
	if _, err := os.Stat(filepath.Join(dir, ".recap")); err == nil {
		t.Fatal("the read-only server wrote .recap")
	}
	w1, w2 := start("--allow-triage-writes"), start("--allow-triage-writes")
	var wg sync.WaitGroup
	for i, fp := range lined[:12] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cs := w1
			if i%2 == 1 {
				cs = w2
			}
			var a answer
			call(cs, "analysis.triage", map[string]any{"fingerprint": fp, "state": "accepted-risk", "reason": fmt.Sprintf("decision %d", i)}, &a)
			if !a.Written {
				t.Errorf("decision %d not written: %+v", i, a)
			}
		}()
	}
	wg.Wait()
	f := triageFile(t, dir)
	seen := map[string]bool{}
	for _, e := range f.Entries {
		seen[e.Reason] = true
		if e.By != "claude-code" || e.Location == "" || e.Date == "" {
			t.Errorf("entry %+v: want by claude-code, a location and a date", e)
		}
	}
	for i := range 12 {
		if !seen[fmt.Sprintf("decision %d", i)] {
			t.Errorf("decision %d lost: %d entries", i, len(f.Entries))
		}
	}
}

// TestMCPTriageTypeScript: the TypeScript SDK's client, a client that is
// not recap's, calls analysis_triage (served with underscores to
// cursor-vscode) on a server with writes allowed and on a read-only one;
// the client checks each answer's structured content against the tool's
// output schema, and the file holds the entry it was answered.
func TestMCPTriageTypeScript(t *testing.T) {
	t.Parallel()
	nodeClients(t)
	dir := mcpWorkspace(t)
	plan := map[string]any{
		"clients": map[string]any{"w": stdioClient("cursor-vscode", dir, "--allow-triage-writes"), "r": stdioClient("cursor-vscode", dir)},
		"steps": []map[string]any{
			{"client": "w", "op": "call", "name": "analysis_getReports", "args": map[string]any{"limit": 5, "context": false, "maxTokens": 10000}, "save": "p"},
			{"client": "w", "op": "call", "name": "analysis_triage", "args": map[string]any{"id": "$p.structuredContent.findings.0.id", "state": "false-positive",
				"reason": "the value is checked before", "link": "https://example.com/issues/7", "until": "2099-01-01"}},
			{"client": "r", "op": "call", "name": "analysis_triage", "args": map[string]any{"fingerprint": "$p.structuredContent.findings.1.fingerprint", "state": "wont-fix", "reason": "to go"}},
			{"client": "r", "op": "call", "name": "analysis_triage", "args": map[string]any{"id": "$p.structuredContent.findings.1.id", "state": "maybe", "reason": "r"}},
		},
	}
	rep, _ := runTS(t, plan)
	if len(rep.Steps) != 4 {
		t.Fatalf("%d steps: %+v", len(rep.Steps), rep.Steps)
	}
	var w, r struct {
		Entry   triage.Entry
		Written bool
	}
	for i, out := range []any{&w, &r} {
		res := rep.Steps[i+1].tool(t)
		if res.IsError {
			t.Fatalf("step %d: %s", i+1, res.text())
		}
		if err := json.Unmarshal(res.StructuredContent, out); err != nil {
			t.Fatal(err)
		}
	}
	if !w.Written || r.Written || r.Entry.State != triage.WontFix {
		t.Errorf("written: %v (want true), read-only: %v %s (want false, wont-fix)", w.Written, r.Written, r.Entry.State)
	}
	bad := rep.Steps[3].tool(t)
	if !bad.IsError || !strings.Contains(bad.text(), "BAD_ARGUMENT") || !strings.Contains(bad.text(), "state") {
		t.Errorf("an unknown state: %s", bad.text())
	}
	f := triageFile(t, dir)
	if len(f.Entries) != 1 || f.Entries[0] != w.Entry || w.Entry.Link != "https://example.com/issues/7" || w.Entry.By != "cursor-vscode" {
		t.Errorf("the file holds %+v, the answer was %+v", f.Entries, w.Entry)
	}

	// Two findings of one problem decided apart: the answer says the
	// decision disagrees (disagrees, in the output schema the client
	// checks), naming the confirmed finding.
	var page struct {
		Findings []struct {
			ID             string
			AlsoReportedBy []struct{ ID string }
		}
	}
	if err := json.Unmarshal(rep.Steps[0].tool(t).StructuredContent, &page); err != nil {
		t.Fatal(err)
	}
	lead, dup := "", ""
	for _, f := range page.Findings {
		if len(f.AlsoReportedBy) > 0 {
			lead, dup = f.ID, f.AlsoReportedBy[0].ID
			break
		}
	}
	if lead == "" {
		t.Fatalf("no problem of several findings in the page: %s", rep.Steps[0].tool(t).StructuredContent)
	}
	rep, _ = runTS(t, map[string]any{
		"clients": map[string]any{"w": stdioClient("cursor-vscode", dir, "--allow-triage-writes"), "r": stdioClient("cursor-vscode", dir)},
		"steps": []map[string]any{
			{"client": "w", "op": "call", "name": "analysis_getReports", "args": map[string]any{"limit": 5, "context": false, "maxTokens": 10000}},
			{"client": "w", "op": "call", "name": "analysis_triage", "args": map[string]any{"id": dup, "state": "confirmed", "reason": "must fix"}},
			{"client": "r", "op": "call", "name": "analysis_getReports", "args": map[string]any{"limit": 5, "context": false, "maxTokens": 10000}},
			{"client": "r", "op": "call", "name": "analysis_triage", "args": map[string]any{"id": lead, "state": "false-positive", "reason": "checked"}},
		},
	})
	var d struct {
		Written   bool
		Disagrees string
	}
	for _, i := range []int{1, 3} {
		if res := rep.Steps[i].tool(t); res.IsError {
			t.Fatalf("step %d: %s", i, res.text())
		}
	}
	if err := json.Unmarshal(rep.Steps[3].tool(t).StructuredContent, &d); err != nil {
		t.Fatal(err)
	}
	if d.Written || !strings.HasPrefix(d.Disagrees, dup+" (") || !strings.Contains(d.Disagrees, "is decided confirmed (\"must fix\"): a confirmation overrules a decision that suppresses") {
		t.Errorf("false positive on %s, whose problem %s is confirmed: written %v, disagrees %q", lead, dup, d.Written, d.Disagrees)
	}
}
