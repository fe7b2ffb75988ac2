package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/mcpserver"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/tokens"
)

// workspace is a real repository: the sample project committed on main,
// a feature branch with testdata/changes.diff committed and checked out
// (but for its rename of Order.java, so that the reports still match the
// files),
// and the sample's reports (PMD SARIF, Checkstyle XML, SpotBugs XML) in
// build/reports, untracked, as a build leaves them.
func workspace(t testing.TB) *gittest.Repo {
	t.Helper()
	root := reportstest.RepoRoot(t)
	g := gittest.Sample(t, root)
	cp := func(src, dst string) {
		t.Helper()
		if err := os.MkdirAll(dst, 0o755); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
			t.Fatalf("cp %s: %v\n%s", src, err, out)
		}
	}
	g.Git("checkout", "-q", "-b", "feature")
	g.Git("apply", "--index", filepath.Join(root, "testdata", "changes.diff"))
	g.Git("mv", "src/main/java/com/example/shop/PurchaseOrder.java", "src/main/java/com/example/shop/Order.java")
	svc := filepath.Join(g.Dir, "src/main/java/com/example/shop/OrderService.java")
	if err := os.WriteFile(svc, []byte(strings.Replace(readFile(t, svc), "order without customer", "an order has no customer", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	g.Git("add", "-A")
	g.Git("commit", "-q", "-m", "feature")
	for _, r := range []string{"pmd.sarif", "checkstyle.xml", "spotbugs.xml"} {
		cp(filepath.Join(root, "testdata", "reports", r), filepath.Join(g.Dir, "build", "reports"))
	}
	return g
}

// connect starts a server over dir and returns a client session to it.
func connect(t testing.TB, opts mcpserver.Options) (*mcp.ClientSession, *mcpserver.Server) {
	t.Helper()
	s, err := mcpserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Claude Code, a client known to take dotted names: the tests call
	// the tools as SPEC names them (TestToolNamesByClient covers the others).
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "claude-code"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs, s
}

// result is a call's answer as a test reads it.
type result struct {
	text  string
	isErr bool
	raw   json.RawMessage // structured content
}

func call(t testing.TB, cs *mcp.ClientSession, tool string, args map[string]any) result {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	var r result
	r.isErr = res.IsError
	for _, c := range res.Content {
		r.text += c.(*mcp.TextContent).Text
	}
	if res.StructuredContent != nil {
		if r.raw, err = json.Marshal(res.StructuredContent); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func (r result) decode(t testing.TB, v any) {
	t.Helper()
	if r.isErr {
		t.Fatalf("tool error: %s", r.text)
	}
	if err := json.Unmarshal(r.raw, v); err != nil {
		t.Fatalf("%v\n%s", err, r.raw)
	}
	// The text is a line, then the same JSON.
	_, js, ok := strings.Cut(r.text, "\n")
	if !ok || !strings.HasPrefix(r.text, "recap: ") {
		t.Fatalf("the text is not a line and the JSON:\n%.300s", r.text)
	}
	var a, b any
	if err := json.Unmarshal([]byte(js), &a); err != nil {
		t.Fatalf("the text's JSON: %v", err)
	}
	_ = json.Unmarshal(r.raw, &b)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Fatalf("the text's JSON differs from the structured content:\n%.500s\n%.500s", ja, jb)
	}
}

// errorCode returns the code of a tool error, failing when the call did not fail.
func (r result) errorCode(t testing.TB) string {
	t.Helper()
	if !r.isErr {
		t.Fatalf("no error: %.300s", r.text)
	}
	var e struct {
		Error mcpserver.ToolError `json:"error"`
	}
	if err := json.Unmarshal(r.raw, &e); err != nil || e.Error.Code == "" {
		t.Fatalf("no error object in %s (%v)", r.raw, err)
	}
	if !strings.HasPrefix(r.text, e.Error.Code+": ") || e.Error.Message == "" {
		t.Fatalf("the text %q does not start with the code %s", r.text, e.Error.Code)
	}
	return e.Error.Code
}

// expected reads reports as the CLI does, for the counts a view must have.
func expected(t testing.TB, root string, flt reports.Filter, paths ...string) ([]reports.Finding, summarize.Summary) {
	t.Helper()
	c := summarize.NewCollector()
	var all []reports.Finding
	_, err := parsers.ReadAll(paths, parsers.ReadOptions{Root: root}, func(f reports.Finding) error {
		if flt.Match(f) {
			c.Add(f)
			all = append(all, f)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return all, c.Summary()
}

func TestToolList(t *testing.T) {
	g := workspace(t)
	strict := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	sdk := regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)
	for _, mode := range []string{"dotted", "underscore"} {
		cs, _ := connect(t, mcpserver.Options{Root: g.Dir, ToolNames: mode})
		var names []string
		byName := map[string]*mcp.Tool{}
		for tool, err := range cs.Tools(context.Background(), nil) {
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, tool.Name)
			byName[tool.Name] = tool
		}
		want := []string{"analysis.getReports", "analysis.getFinding", "analysis.triage", "vcs.diff", "tokens.count", "server.stats"}
		for _, w := range want {
			if mode == "underscore" {
				w = strings.ReplaceAll(w, ".", "_")
			}
			tool := byName[w]
			if tool == nil {
				t.Fatalf("%s: no tool %s in %v", mode, w, names)
			}
			if !sdk.MatchString(w) || (mode == "underscore" && !strict.MatchString(w)) {
				t.Errorf("%s: tool name %q breaks the naming rule", mode, w)
			}
			b, _ := json.Marshal(tool.InputSchema)
			var sc struct {
				Properties map[string]struct {
					Minimum, Maximum *float64
					Default          json.RawMessage
				}
			}
			if err := json.Unmarshal(b, &sc); err != nil {
				t.Fatal(err)
			}
			mt := sc.Properties["maxTokens"]
			def := "10000"
			if strings.HasSuffix(w, "getReports") {
				def = "2000" // the first answer
			}
			if mt.Minimum == nil || *mt.Minimum != 256 || mt.Maximum == nil || *mt.Maximum != 25000 || string(mt.Default) != def {
				t.Errorf("%s: maxTokens schema %s", w, b)
			}
			if strings.HasSuffix(w, "getReports") {
				l := sc.Properties["limit"]
				if l.Maximum == nil || *l.Maximum != 200 || string(l.Default) != "5" {
					t.Errorf("limit schema: %s", b)
				}
			}
			if strings.HasSuffix(w, "diff") {
				if m := sc.Properties["maxHunks"].Maximum; m == nil || *m != 20 {
					t.Errorf("maxHunks schema: %s", b)
				}
			}
		}
		if len(names) != len(want) {
			t.Errorf("%s: tools %v", mode, names)
		}
	}
}

// view is getReports' structured content.
type view struct {
	summarize.View
}

func TestGetReports(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	reportsDir := filepath.Join(g.Dir, "build", "reports")
	_, want := expected(t, g.Dir, reports.Filter{}, reportsDir)
	if want.Total != tooltest.SampleFindings {
		t.Fatalf("the sample reports have %d findings, want %d", want.Total, tooltest.SampleFindings)
	}

	var sum view
	call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true}).decode(t, &sum)
	if sum.Summary.Total != want.Total || sum.Summary.BySeverity != want.BySeverity || sum.Findings != nil || sum.Page != nil {
		t.Fatalf("summary only: %+v", sum.Summary)
	}
	if len(sum.Inputs) != 3 || sum.BufferID == "" || sum.Tokens == nil || sum.Tokens.Budget != mcpserver.FirstAnswerTokens {
		t.Fatalf("inputs %d, bufferId %q, tokens %+v", len(sum.Inputs), sum.BufferID, sum.Tokens)
	}

	// Refine by category: the counts are the filter's, the page has context.
	cat := want.TopCategories[0].Name
	flt := reports.Filter{Categories: []string{cat}}
	wantCat, wantSum := expected(t, g.Dir, flt, reportsDir)
	var page view
	call(t, cs, "analysis.getReports", map[string]any{"categories": []string{cat}, "limit": 5}).decode(t, &page)
	if page.Summary.Total != wantSum.Total || page.Page.Total != page.Summary.Problems || page.Summary.Problems > len(wantCat) || len(page.Findings) != 5 {
		t.Fatalf("category %s: total %d page %+v, want %d", cat, page.Summary.Total, page.Page, wantSum.Total)
	}
	for _, f := range page.Findings {
		if f.Category != cat {
			t.Errorf("finding %s in category %s", f.ID, f.Category)
		}
		if len(f.Context) == 0 && f.Line > 0 {
			t.Errorf("finding %s at %s:%d has no context (%s)", f.ID, f.Path, f.Line, f.ContextNote)
		}
	}

	// Page through the rest by bufferId: every finding once, in view order.
	seen := map[string]bool{}
	for _, f := range page.Findings {
		seen[f.ID.String()] = true
	}
	next := page.Page.NextOffset
	for next != nil {
		var p view
		call(t, cs, "analysis.getReports", map[string]any{"bufferId": page.BufferID, "offset": *next, "limit": 5}).decode(t, &p)
		if p.BufferID != page.BufferID || p.Summary.Total != wantSum.Total {
			t.Fatalf("page at %d: buffer %s, total %d", *next, p.BufferID, p.Summary.Total)
		}
		for _, f := range p.Findings {
			if seen[f.ID.String()] {
				t.Fatalf("finding %s twice", f.ID)
			}
			seen[f.ID.String()] = true
		}
		next = p.Page.NextOffset
	}
	if len(seen) != page.Summary.Problems {
		t.Fatalf("paged %d findings, want the %d problems", len(seen), page.Summary.Problems)
	}

	// Explicit reports, globs and types.
	for _, tc := range []struct {
		args map[string]any
		want int
	}{
		{map[string]any{"reports": []string{"build/reports/pmd.sarif"}}, tooltest.SamplePMD},
		{map[string]any{"reports": []string{"build/**/*.xml"}}, tooltest.SampleCheckstyle + tooltest.SampleFindBugs},
		{map[string]any{"reports": []string{"build/reports"}, "types": []string{"sarif"}}, tooltest.SamplePMD},
		{map[string]any{"tools": []string{"SpotBugs"}}, tooltest.SampleFindBugs},
		{map[string]any{"severity": "error", "paths": []string{"**/OrderService.java"}}, -1},
		{map[string]any{"grep": "javadoc"}, -1},
	} {
		var v view
		call(t, cs, "analysis.getReports", tc.args).decode(t, &v)
		n := tc.want
		if n < 0 {
			f := reports.Filter{}
			if s, ok := tc.args["severity"]; ok {
				f.MinSeverity, _ = reports.ParseSeverity(s.(string))
			}
			if p, ok := tc.args["paths"]; ok {
				f.Paths = p.([]string)
			}
			if q, ok := tc.args["grep"]; ok {
				f.Grep = q.(string)
			}
			all, _ := expected(t, g.Dir, f, reportsDir)
			n = len(all)
			if n == 0 {
				t.Fatalf("%v keeps nothing: a test that cannot fail", tc.args)
			}
		}
		if v.Summary.Total != n {
			t.Errorf("%v: %d findings, want %d", tc.args, v.Summary.Total, n)
		}
	}
}

func TestChangedSince(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	all, _ := expected(t, g.Dir, reports.Filter{}, filepath.Join(g.Dir, "build", "reports"))
	changed := g.ChangedLines("main...feature")
	want := map[string]bool{}
	for _, f := range all {
		for _, l := range changed[f.Path] {
			if f.Line > 0 && l >= f.Line && l <= max(f.Line, f.EndLine) {
				want[key(f)] = true
				break
			}
		}
	}
	if len(want) == 0 || len(want) == len(all) {
		t.Fatalf("%d of %d findings on changed lines: the change is meant to touch some", len(want), len(all))
	}
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"changedSince": "main", "limit": 200, "context": false, "maxTokens": 25000}).decode(t, &v)
	if v.Summary.Total != len(want) || len(v.Findings) != len(want) {
		t.Fatalf("changedSince main: %d findings (%d shown), want %d", v.Summary.Total, len(v.Findings), len(want))
	}
	for _, f := range v.Findings {
		if !want[key(f.Finding)] {
			t.Errorf("finding %s at %s:%d is not on a changed line", f.ID, f.Path, f.Line)
		}
	}
	// The filter modes: anywhere in a changed file keeps those files'
	// findings; nofilter keeps all.
	files := map[string]bool{}
	for _, p := range strings.Fields(g.Git("diff", "--name-only", "--diff-filter=d", "main")) {
		files[p] = true
	}
	inFiles := 0
	for _, f := range all {
		if files[f.Path] {
			inFiles++
		}
	}
	for mode, n := range map[string]int{"file": inFiles, "nofilter": len(all)} {
		call(t, cs, "analysis.getReports", map[string]any{"changedSince": "main", "filterMode": mode, "summaryOnly": true}).decode(t, &v)
		if v.Summary.Total != n || n <= len(want) {
			t.Errorf("changedSince main, filterMode %s: %d findings, want %d (added: %d)", mode, v.Summary.Total, n, len(want))
		}
	}
	if code := call(t, cs, "analysis.getReports", map[string]any{"filterMode": "file"}).errorCode(t); code != mcpserver.CodeBadArgument {
		t.Errorf("filterMode without changedSince: %s", code)
	}
	// An uncommitted edit counts too.
	g.Write(map[string]string{"src/main/java/com/example/shop/PriceCalculator.java": strings.Replace(
		readFile(t, filepath.Join(g.Dir, "src/main/java/com/example/shop/PriceCalculator.java")), "package com.example.shop;", "package com.example.shop; // edited", 1)})
	var w view
	call(t, cs, "analysis.getReports", map[string]any{"changedSince": "HEAD", "summaryOnly": true}).decode(t, &w)
	if w.Summary.Total == 0 || w.Summary.TopFiles[0].Name != "src/main/java/com/example/shop/PriceCalculator.java" {
		t.Errorf("changedSince HEAD after an edit of line 1: %+v", w.Summary)
	}
}

// key identifies a finding across runs that number them differently.
func key(f reports.Finding) string {
	return f.Tool + "|" + f.Rule + "|" + f.Path + "|" + strconv.Itoa(f.Line) + "|" + strconv.Itoa(f.Column) + "|" + f.Message
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestGetFinding(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	// Every finding, a page at a time.
	var v view
	for offset := 0; ; {
		var p view
		call(t, cs, "analysis.getReports", map[string]any{"limit": 200, "offset": offset, "context": false, "maxTokens": 25000}).decode(t, &p)
		v.Findings = append(v.Findings, p.Findings...)
		if p.Page.NextOffset == nil || len(p.Findings) == 0 {
			if len(v.Findings) != p.Page.Total {
				t.Fatalf("%d of %d findings", len(v.Findings), p.Page.Total)
			}
			break
		}
		offset = *p.Page.NextOffset
	}
	c, _ := tokens.New(tokens.O200k)
	withCode := 0
	for _, f := range v.Findings {
		var a mcpserver.FindingAnswer
		call(t, cs, "analysis.getFinding", map[string]any{"id": f.ID}).decode(t, &a)
		if a.Finding.ID != f.ID || a.Finding.Message != f.Message || a.Finding.Fingerprint == "" || a.Rule.ID != f.Rule || a.Rule.InReport < 1 {
			t.Fatalf("finding %s: %+v", f.ID, a)
		}
		if a.Code == nil || len(a.Code.Lines) == 0 {
			continue
		}
		withCode++
		b, _ := json.Marshal(a.Code)
		if len(a.Code.Lines) > 80 || c.Count(string(b)) > 1200 {
			t.Errorf("finding %s: %d lines of code, %d tokens", f.ID, len(a.Code.Lines), c.Count(string(b)))
		}
		if a.Code.From > f.Line || a.Code.To < f.Line {
			t.Errorf("finding %s at line %d: code %d-%d", f.ID, f.Line, a.Code.From, a.Code.To)
		}
	}
	if withCode == 0 {
		t.Fatal("no finding had code")
	}
	// A new server (a restart) finds the same ids in the reports on disk.
	cs2, _ := connect(t, mcpserver.Options{Root: g.Dir})
	var a mcpserver.FindingAnswer
	call(t, cs2, "analysis.getFinding", map[string]any{"id": v.Findings[0].ID}).decode(t, &a)
	if a.Finding.Message != v.Findings[0].Message {
		t.Errorf("after a restart: %+v", a.Finding)
	}
}

func TestErrors(t *testing.T) {
	g := workspace(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.sarif"), []byte(readFile(t, filepath.Join(g.Dir, "build/reports/pmd.sarif"))), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.sarif"), filepath.Join(g.Dir, "build", "link.sarif")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(g.Dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	g.Write(map[string]string{"build/broken/truncated.sarif": `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"a","message":{"text":"m"}`})
	many := map[string]string{}
	for i := 0; i < 1001; i++ {
		many["many/f"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+"/"+strconv.Itoa(i)+".txt"] = "x\n"
	}
	g.Write(many)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	for _, tc := range []struct {
		tool string
		args map[string]any
		code string
	}{
		{"analysis.getReports", map[string]any{"reports": []string{"nope.sarif"}}, "NOT_FOUND"},
		{"analysis.getReports", map[string]any{"reports": []string{"no/**/*.sarif"}}, "NOT_FOUND"},
		{"analysis.getReports", map[string]any{"bufferId": "b000000000000"}, "NOT_FOUND"},
		{"analysis.getReports", map[string]any{"changedSince": "no-such-branch"}, "NOT_FOUND"},
		{"analysis.getReports", map[string]any{"reports": []string{"build/broken/truncated.sarif"}}, "PARSE_ERROR"},
		{"analysis.getReports", map[string]any{"limit": 500}, "BAD_ARGUMENT"},
		{"analysis.getReports", map[string]any{"maxTokens": 100}, "BAD_ARGUMENT"},
		{"analysis.getReports", map[string]any{"severity": "fatal"}, "BAD_ARGUMENT"},
		{"analysis.getReports", map[string]any{"unknownArg": 1}, "BAD_ARGUMENT"},
		{"analysis.getReports", map[string]any{"bufferId": "b000000000000", "categories": []string{"x"}}, "BAD_ARGUMENT"},
		{"analysis.getReports", map[string]any{"changedSince": "main..feature"}, "BAD_ARGUMENT"},
		{"analysis.getReports", map[string]any{"reports": []string{"../x.sarif"}}, "OUTSIDE_ROOT"},
		{"analysis.getReports", map[string]any{"reports": []string{filepath.Join(outside, "secret.sarif")}}, "OUTSIDE_ROOT"},
		{"analysis.getReports", map[string]any{"reports": []string{"build/link.sarif"}}, "OUTSIDE_ROOT"},
		{"analysis.getReports", map[string]any{"reports": []string{"linkdir/secret.sarif"}}, "OUTSIDE_ROOT"},
		{"analysis.getReports", map[string]any{"reports": []string{"../**/*.sarif"}}, "OUTSIDE_ROOT"},
		{"analysis.getFinding", map[string]any{"id": "zzzzzzzz-1"}, "NOT_FOUND"},
		{"analysis.getFinding", map[string]any{"id": "no id"}, "BAD_ARGUMENT"},
		{"analysis.getFinding", map[string]any{}, "BAD_ARGUMENT"},
		{"vcs.diff", map[string]any{"head": "main"}, "BAD_ARGUMENT"},
		{"vcs.diff", map[string]any{"base": "nope"}, "NOT_FOUND"},
		{"vcs.diff", map[string]any{"maxHunks": 21}, "BAD_ARGUMENT"},
		{"vcs.diff", map[string]any{"paths": []string{"/etc/**"}}, "OUTSIDE_ROOT"},
		{"tokens.count", map[string]any{"paths": []string{"/etc/passwd"}}, "OUTSIDE_ROOT"},
		{"tokens.count", map[string]any{"paths": []string{"linkdir/secret.sarif"}}, "OUTSIDE_ROOT"},
		{"tokens.count", map[string]any{"paths": []string{"src"}}, "BAD_ARGUMENT"},
		{"tokens.count", map[string]any{"paths": []string{}}, "BAD_ARGUMENT"},
		{"tokens.count", map[string]any{"paths": []string{"many/**"}}, "TOO_LARGE"},
	} {
		if got := call(t, cs, tc.tool, tc.args).errorCode(t); got != tc.code {
			t.Errorf("%s %v: %s, want %s", tc.tool, tc.args, got, tc.code)
		}
	}
	// A symlink inside the root to a file inside it is fine.
	if err := os.Symlink("reports/pmd.sarif", filepath.Join(g.Dir, "build", "inside.sarif")); err != nil {
		t.Fatal(err)
	}
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"build/inside.sarif"}, "summaryOnly": true}).decode(t, &v)
	if v.Summary.Total != tooltest.SamplePMD {
		t.Errorf("through an inside symlink: %d findings", v.Summary.Total)
	}
	// An unknown tool is the protocol's error.
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "no.such.tool"}); err == nil {
		t.Error("an unknown tool gave no error")
	}
}

func TestDiffAndTokens(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	var d struct {
		Summary struct{ Files, Hunks, Added, Deleted, WhitespaceOnlyHunks int }
		Files   []struct{ Path, OldPath, Status string }
		Hunks   []struct{ Path string }
		Tokens  budget.TokenInfo
	}
	call(t, cs, "vcs.diff", map[string]any{"base": "main", "head": "feature"}).decode(t, &d)
	if d.Summary.Files != 3 || d.Summary.Hunks == 0 || d.Summary.WhitespaceOnlyHunks == 0 || len(d.Hunks) != d.Summary.Hunks {
		t.Fatalf("main...feature: %+v", d.Summary)
	}
	if d.Files[0].Path != "logo.png" {
		t.Errorf("files: %+v", d.Files)
	}
	call(t, cs, "vcs.diff", map[string]any{"base": "main", "maxHunks": 1, "paths": []string{"**/OrderService.java"}}).decode(t, &d)
	if d.Summary.Files != 1 || len(d.Hunks) != 1 {
		t.Errorf("one file, one hunk: %+v, %d hunks", d.Summary, len(d.Hunks))
	}
	// An absolute path inside the root is read relative to it.
	call(t, cs, "vcs.diff", map[string]any{"base": "main", "maxHunks": 1, "paths": []string{g.Dir + "/src/**/OrderService.java"}}).decode(t, &d)
	if d.Summary.Files != 1 || len(d.Hunks) != 1 {
		t.Errorf("an absolute path inside the root: %+v, %d hunks", d.Summary, len(d.Hunks))
	}
	call(t, cs, "vcs.diff", nil).decode(t, &d)
	if d.Summary.Files != 0 {
		t.Errorf("a clean working tree: %+v", d.Summary)
	}
	g.Write(map[string]string{"src/main/java/com/example/shop/PriceCalculator.java": "class PriceCalculator {}\n"})
	call(t, cs, "vcs.diff", nil).decode(t, &d)
	if d.Summary.Files != 1 || d.Files[0].Path != "src/main/java/com/example/shop/PriceCalculator.java" {
		t.Errorf("the working tree after an edit: %+v %+v", d.Summary, d.Files)
	}

	var tk mcpserver.TokensAnswer
	call(t, cs, "tokens.count", map[string]any{"paths": []string{"build/reports/*", "src/**/*.java"}, "budget": 1000}).decode(t, &tk)
	c, _ := tokens.New(tokens.Default)
	var abs []string
	for _, f := range tk.Files {
		abs = append(abs, filepath.Join(g.Dir, f.Path))
	}
	want := tokens.CountFiles(c, abs, 1000)
	if len(tk.Files) != 7 || tk.Total.Tokens != want.Total.Tokens || tk.Total.Bytes != want.Total.Bytes || tk.Recommendation == "" {
		t.Errorf("tokens: %d files, total %+v, want %+v; recommendation %q", len(tk.Files), tk.Total, want.Total, tk.Recommendation)
	}
}

func TestCacheAndStats(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	stats := func() mcpserver.StatsAnswer {
		var s mcpserver.StatsAnswer
		call(t, cs, "server.stats", nil).decode(t, &s)
		return s
	}
	call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true})
	if s := stats(); s.ReportsParsed != 3 || s.ReportsCached != 3 {
		t.Fatalf("after one call: %+v", s.Stats)
	}
	call(t, cs, "analysis.getReports", map[string]any{"categories": []string{"design"}})
	call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true})
	if s := stats(); s.ReportsParsed != 3 {
		t.Fatalf("a second call parsed again: %+v", s.Stats)
	}
	// A report is known by its content: touched, it is kept; changed in
	// place, with its size and its modification time as they were, it is
	// read again.
	p := filepath.Join(g.Dir, "build", "reports", "spotbugs.xml")
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	for _, c := range []struct {
		name   string
		change func() error
		parsed int
	}{
		{"a touch", func() error { return os.Chtimes(p, later, later) }, 3},
		{"the same size and time, another content", func() error {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(b), `start="12"`, `start="13"`, 1)), 0o644); err != nil {
				return err
			}
			return os.Chtimes(p, later, later)
		}, 4},
	} {
		if err := c.change(); err != nil {
			t.Fatal(err)
		}
		call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true})
		if s := stats(); s.ReportsParsed != c.parsed {
			t.Fatalf("after %s: parsed %d, want %d: %+v", c.name, s.ReportsParsed, c.parsed, s.Stats)
		}
	}
	if now, err := os.Stat(p); err != nil || now.Size() != info.Size() {
		t.Fatalf("the report's size changed: %v", err)
	}
	s := stats()
	byTool := map[string]mcpserver.ToolStats{}
	for _, ts := range s.Tools {
		byTool[ts.Tool] = ts
	}
	if gr := byTool["analysis.getReports"]; gr.Calls != 5 || gr.MeanTokens <= 0 || gr.P95Tokens < gr.MeanTokens/2 || gr.MaxTokens > 10000 {
		t.Errorf("getReports stats: %+v", gr)
	}
	// The same figures as a resource.
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: mcpserver.StatsURI})
	if err != nil {
		t.Fatal(err)
	}
	var rs mcpserver.Stats
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &rs); err != nil {
		t.Fatal(err)
	}
	if len(rs.Tools) < 2 || rs.ReportsParsed != 4 {
		t.Errorf("resource: %+v", rs)
	}
	// Every tool called, then the statistics in the smallest budget: the
	// busiest tools' rows that fit, a marker for the rest.
	call(t, cs, "vcs.diff", nil)
	call(t, cs, "tokens.count", map[string]any{"paths": []string{"build/reports/*"}})
	call(t, cs, "analysis.getFinding", map[string]any{"id": "nope-1"})
	r := call(t, cs, "server.stats", map[string]any{"maxTokens": 256})
	exact, _ := tokens.New(tokens.O200k)
	if n := exact.Count(r.text); n > 256 || len([]rune(r.text)) > 4*256 {
		t.Errorf("server.stats in 256 tokens: %d tokens, %d characters:\n%s", n, len([]rune(r.text)), r.text)
	}
	var small struct {
		mcpserver.Stats
		Omitted []struct{ What string }
	}
	r.decode(t, &small)
	if len(small.Tools) == 0 || len(small.Tools) >= 5 || len(small.Omitted) != 1 || small.Tools[0].Tool != "analysis.getReports" {
		t.Errorf("server.stats in 256 tokens: %d rows, omitted %v", len(small.Tools), small.Omitted)
	}
}

func TestBuffers(t *testing.T) {
	g := workspace(t)
	now := time.Now()
	clock := func() time.Time { return now }
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir, Now: clock, MaxBuffers: 2})
	first := func(args map[string]any) string {
		var v view
		call(t, cs, "analysis.getReports", args).decode(t, &v)
		return v.BufferID
	}
	a := first(map[string]any{"limit": 1})
	if b := first(map[string]any{"limit": 1, "offset": 1}); b != a {
		t.Errorf("the same query made a new buffer: %s, %s", a, b)
	}
	now = now.Add(9 * time.Minute)
	call(t, cs, "analysis.getReports", map[string]any{"bufferId": a, "offset": 2}).decode(t, &view{})
	now = now.Add(9 * time.Minute) // 9 idle minutes since its last use: alive
	call(t, cs, "analysis.getReports", map[string]any{"bufferId": a, "offset": 3}).decode(t, &view{})
	now = now.Add(11 * time.Minute)
	if code := call(t, cs, "analysis.getReports", map[string]any{"bufferId": a}).errorCode(t); code != "NOT_FOUND" {
		t.Errorf("an expired buffer: %s", code)
	}
	// At most two buffers: the oldest goes first.
	b1 := first(map[string]any{"tools": []string{"PMD"}})
	now = now.Add(time.Second)
	b2 := first(map[string]any{"tools": []string{"Checkstyle"}})
	now = now.Add(time.Second)
	first(map[string]any{"tools": []string{"SpotBugs"}})
	if call(t, cs, "analysis.getReports", map[string]any{"bufferId": b1}).errorCode(t) != "NOT_FOUND" {
		t.Error("the oldest buffer was kept past the bound")
	}
	call(t, cs, "analysis.getReports", map[string]any{"bufferId": b2}).decode(t, &view{})
}

func mustJSON(t testing.TB, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestConcurrentCalls: 100 calls at once, of every tool, on a cold server
// (the first ones race to parse the same reports): every answer is right,
// and the reports are parsed once. The test command runs it under -race.
func TestConcurrentCalls(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir, MaxBuffers: 8})
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(g.Dir, "escape")); err != nil {
		t.Fatal(err)
	}
	type job struct {
		tool  string
		args  map[string]any
		check func(result) string
	}
	total := func(want int) func(result) string {
		return func(r result) string {
			var v view
			if r.isErr || json.Unmarshal(r.raw, &v) != nil || v.Summary.Total != want {
				return fmt.Sprintf("total %d, want %d: %.200s", v.Summary.Total, want, r.text)
			}
			return ""
		}
	}
	code := func(want string) func(result) string {
		return func(r result) string {
			if !r.isErr || !strings.HasPrefix(r.text, want+":") {
				return "want " + want + ": " + r.text
			}
			return ""
		}
	}
	ok := func(r result) string {
		if r.isErr {
			return r.text
		}
		return ""
	}
	jobs := []job{
		{"analysis.getReports", map[string]any{"summaryOnly": true}, total(tooltest.SampleFindings)},
		{"analysis.getReports", map[string]any{"tools": []string{"PMD"}, "limit": 7}, total(tooltest.SamplePMD)},
		{"analysis.getReports", map[string]any{"reports": []string{"build/reports/spotbugs.xml"}}, total(tooltest.SampleFindBugs)},
		{"analysis.getReports", map[string]any{"changedSince": "main", "summaryOnly": true}, ok},
		{"analysis.getReports", map[string]any{"reports": []string{"escape/x.sarif"}}, code("OUTSIDE_ROOT")},
		{"analysis.getReports", map[string]any{"reports": []string{"../../etc/passwd"}}, code("OUTSIDE_ROOT")},
		{"vcs.diff", map[string]any{"base": "main"}, ok},
		{"tokens.count", map[string]any{"paths": []string{"src/**/*.java"}}, ok},
		{"server.stats", nil, ok},
	}
	const n = 100
	errs := make(chan string, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		j := jobs[i%len(jobs)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: j.tool, Arguments: j.args})
			if err != nil {
				errs <- err.Error()
				return
			}
			r := result{isErr: res.IsError}
			for _, c := range res.Content {
				r.text += c.(*mcp.TextContent).Text
			}
			r.raw, _ = json.Marshal(res.StructuredContent)
			if msg := j.check(r); msg != "" {
				errs <- fmt.Sprintf("%s %v: %s", j.tool, j.args, msg)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	var s mcpserver.StatsAnswer
	call(t, cs, "server.stats", nil).decode(t, &s)
	if s.ReportsParsed != 3 {
		t.Errorf("%d reports parsed by 100 concurrent calls, want 3 (each once)", s.ReportsParsed)
	}
}

// TestBaseline: getReports marks findings against an earlier run's reports
// (the same Checkstyle report with 3 findings that are new since, and one
// that was fixed), counts new, unchanged and fixed, keeps the new ones
// with newOnly, and pages them by bufferId with their states.
func TestBaseline(t *testing.T) {
	g := workspace(t)
	now := readFile(t, filepath.Join(g.Dir, "build/reports/checkstyle.xml"))
	var lines []string
	removed := 0
	for _, l := range strings.Split(now, "\n") {
		if strings.HasPrefix(l, "<error ") && strings.Contains(l, "magic number") && removed < 3 {
			removed++ // new since the baseline
			continue
		}
		lines = append(lines, l)
		if strings.Contains(l, "JavadocPackageCheck") && !strings.Contains(strings.Join(lines, "\n"), "gone away") {
			lines = append(lines, `<error line="3" severity="warning" message="A finding that has gone away." source="com.puppycrawl.tools.checkstyle.checks.coding.MagicNumberCheck"/>`)
		}
	}
	if err := os.MkdirAll(filepath.Join(g.Dir, "main"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(g.Dir, "main", "checkstyle.xml"), []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	args := map[string]any{"reports": []string{"build/reports/checkstyle.xml"}, "baseline": []string{"main/*.xml"}, "limit": 200, "context": false,
		"maxTokens": 25000}
	var v view
	call(t, cs, "analysis.getReports", args).decode(t, &v)
	unchanged := tooltest.SampleCheckstyle - 3
	if b := v.Summary.Baseline; b == nil || b.New != 3 || b.Unchanged != unchanged || b.Fixed != 1 {
		t.Fatalf("baseline counts %+v, want 3 new, %d unchanged, 1 fixed", v.Summary.Baseline, unchanged)
	}
	states := map[string]int{}
	for _, f := range v.Findings {
		states[f.Baseline]++
	}
	if states["new"] != 3 || states["unchanged"] != unchanged {
		t.Errorf("finding states %v", states)
	}
	args["newOnly"] = true
	call(t, cs, "analysis.getReports", args).decode(t, &v)
	if v.Summary.Total != 3 || len(v.Findings) != 3 || v.Findings[0].Baseline != "new" || !strings.Contains(v.Findings[0].Message, "magic number") {
		t.Fatalf("newOnly: %d findings (%+v)", v.Summary.Total, v.Findings)
	}
	var p view
	call(t, cs, "analysis.getReports", map[string]any{"bufferId": v.BufferID, "offset": 1, "limit": 1}).decode(t, &p)
	if len(p.Findings) != 1 || p.Findings[0].ID != v.Findings[1].ID || p.Findings[0].Baseline != "new" {
		t.Errorf("paged by bufferId: %+v", p.Findings)
	}
	if code := call(t, cs, "analysis.getReports", map[string]any{"newOnly": true}).errorCode(t); code != mcpserver.CodeBadArgument {
		t.Errorf("newOnly without a baseline: %s", code)
	}
	if code := call(t, cs, "analysis.getReports", map[string]any{"baseline": []string{"main/nope.sarif"}}).errorCode(t); code != mcpserver.CodeNotFound {
		t.Errorf("a missing baseline: %s", code)
	}
	if code := call(t, cs, "analysis.getReports", map[string]any{"baseline": []string{"../x.sarif"}}).errorCode(t); code != mcpserver.CodeOutsideRoot {
		t.Errorf("a baseline outside the root: %s", code)
	}
}

// TestFindingByFingerprint: getFinding takes a fingerprint as well as an id,
// and finds the finding again after the report was made again (its ids
// renumbered: here, one finding fewer before it).
func TestFindingByFingerprint(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"build/reports/checkstyle.xml"}, "limit": 200, "context": false}).decode(t, &v)
	want := v.Findings[len(v.Findings)-1]
	var a mcpserver.FindingAnswer
	call(t, cs, "analysis.getFinding", map[string]any{"id": want.Fingerprint}).decode(t, &a)
	if a.Finding.ID != want.ID || a.Finding.Message != want.Message {
		t.Fatalf("by fingerprint: %+v, want %s", a.Finding, want.ID)
	}
	// The report made again without its first finding: the id now names
	// another finding, the fingerprint the same one.
	path := filepath.Join(g.Dir, "build/reports/checkstyle.xml")
	text := readFile(t, path)
	i := strings.Index(text, "<error ")
	j := i + strings.Index(text[i:], "\n") + 1
	if err := os.WriteFile(path, []byte(text[:i]+text[j:]), 0o644); err != nil {
		t.Fatal(err)
	}
	call(t, cs, "analysis.getFinding", map[string]any{"id": want.Fingerprint}).decode(t, &a)
	if a.Finding.Message != want.Message || a.Finding.Path != want.Path || a.Finding.Line != want.Line {
		t.Errorf("after the report was made again: %+v, want %+v", a.Finding, want.Finding)
	}
	for id, code := range map[string]string{"0123456789abcdef": mcpserver.CodeNotFound, "not-an-id!": mcpserver.CodeBadArgument} {
		if got := call(t, cs, "analysis.getFinding", map[string]any{"id": id}).errorCode(t); got != code {
			t.Errorf("getFinding %q: %s, want %s", id, got, code)
		}
	}
}

// TestFIFOUnderRoot: a FIFO under the root (named like a report) neither
// blocks discovery, a glob, nor a call that names it: named, it is refused.
func TestFIFOUnderRoot(t *testing.T) {
	g := workspace(t)
	if err := syscall.Mkfifo(filepath.Join(g.Dir, "build", "reports", "live.sarif"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var v view
		call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true}).decode(t, &v)
		if v.Summary.Total != tooltest.SampleFindings {
			t.Errorf("discovery beside a FIFO: %d findings, want %d", v.Summary.Total, tooltest.SampleFindings)
		}
		call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"build/reports/*.sarif"}, "summaryOnly": true}).decode(t, &v)
		if len(v.Inputs) != 1 {
			t.Errorf("a glob beside a FIFO: %d inputs", len(v.Inputs))
		}
		if code := call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"build/reports/live.sarif"}}).errorCode(t); code != mcpserver.CodeBadArgument {
			t.Errorf("a FIFO named: %s", code)
		}
		var tk mcpserver.TokensAnswer
		call(t, cs, "tokens.count", map[string]any{"paths": []string{"build/reports/*"}}).decode(t, &tk)
		if len(tk.Files) != 3 {
			t.Errorf("tokens.count of a glob beside a FIFO: %d files", len(tk.Files))
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("a call blocked on the FIFO")
	}
}

// TestTwoRunsOfOneToolSaid: an older run of PMD left under the root beside
// the new one is read too (they are different runs), and the later input
// says so, naming the other and the files both name: every finding both
// give counts twice. The other inputs say nothing of it.
func TestTwoRunsOfOneToolSaid(t *testing.T) {
	g := workspace(t)
	cur := filepath.Join(g.Dir, "build", "reports", "pmd.sarif")
	old := strings.Replace(readFile(t, cur), `"7.28.0"`, `"7.27.0"`, 1)
	if err := os.MkdirAll(filepath.Join(g.Dir, "build", "old"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(g.Dir, "build", "old", "pmd.sarif"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	for range 2 { // the second answer from the cache
		var v view
		r := call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true})
		r.decode(t, &v)
		if first, _, _ := strings.Cut(r.text, "\n"); !strings.Contains(first, "; counted twice: 1 report of a tool beside another on the same files (see inputs[].warnings)") {
			t.Errorf("the first line does not say findings count twice: %s", first)
		}
		said := 0
		for _, in := range v.Inputs {
			for _, w := range in.Warnings {
				if strings.Contains(w, "on the same files too") {
					said++
					if want := "build/old/pmd.sarif is a report of PMD on the same files too (4 files in common): both are read, and a finding both give counts twice; if one is an older run (7.27.0 there, 7.28.0 here), give the newer alone"; in.Path != "build/reports/pmd.sarif" || w != want {
						t.Errorf("%s: %q, want on build/reports/pmd.sarif %q", in.Path, w, want)
					}
				}
			}
		}
		if said != 1 || v.Summary.Total != tooltest.SampleFindings+tooltest.SamplePMD {
			t.Errorf("%d inputs said so, %d findings; want 1, and %d", said, v.Summary.Total, tooltest.SampleFindings+tooltest.SamplePMD)
		}
	}
	// A budget that leaves the inputs' warnings out keeps the first line's
	// word.
	for _, budget := range []int{800, 1000, 1200} {
		r := call(t, cs, "analysis.getReports", map[string]any{"maxTokens": budget})
		if first, _, _ := strings.Cut(r.text, "\n"); !strings.Contains(first, "; counted twice: 1 report of a tool beside another on the same files") {
			t.Errorf("in %d tokens, the first line does not say findings count twice: %s", budget, first)
		}
	}
}

// writeAt writes s to the file name, modified at: an edit made after the
// reports were written.
func writeAt(t testing.TB, name, s string, at time.Time) {
	t.Helper()
	if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(name, at, at); err != nil {
		t.Fatal(err)
	}
}
