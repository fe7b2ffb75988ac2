package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/internal/reportstest"
)

// The tests in this file drive recap mcp with MCP clients other than the
// Go SDK's: the TypeScript SDK's client (testdata/mcp-clients/ts-sdk.mjs)
// and the MCP Inspector's CLI, an old release (0.15.0) and the newest
// (2.12.0), all from package.json's devDependencies, on the machine's node.

// strictName is the tool-name rule of the clients that refuse dots.
var strictName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// dottedTool finds a dotted tool name in a text.
var dottedTool = regexp.MustCompile(`analysis\.getReports|analysis\.getFinding|analysis\.triage|vcs\.diff|tokens\.count|server\.stats`)

// inspectors are the Inspector releases tried: their CLI's entry point
// under node_modules.
var inspectors = []struct{ version, entry string }{
	{"0.15.0", "mcp-inspector-0.15/cli/build/cli.js"},
	{"2.12.0", "mcp-inspector-latest/clients/launcher/build/index.js"},
}

// nodeClients returns node and the repository root, skipping the test when
// node or the npm packages are not installed.
func nodeClients(t *testing.T) (node, root string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the MCP client tests need it (and npm install)")
	}
	root = reportstest.RepoRoot(t)
	for _, p := range []string{"@modelcontextprotocol/sdk/package.json", inspectors[0].entry, inspectors[1].entry} {
		if _, err := os.Stat(filepath.Join(root, "node_modules", p)); err != nil {
			t.Skipf("node_modules/%s is missing: run npm install --ignore-scripts", p)
		}
	}
	return node, root
}

// serveHTTP starts recap mcp --http on a free port over dir, with more
// flags, and returns its URL and its standard error.
func serveHTTP(t *testing.T, dir string, flags ...string) (string, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"mcp", "--root", dir, "--http", "127.0.0.1:0"}, flags...)...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Error("recap mcp --http did not stop on an interrupt")
		}
	})
	logs := &syncBuffer{}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			logs.Write([]byte(sc.Text() + "\n"))
			if _, rest, ok := strings.Cut(sc.Text(), "serving http://"); ok {
				urls <- "http://" + strings.Fields(rest)[0]
			}
		}
	}()
	select {
	case url := <-urls:
		return url, logs
	case <-time.After(15 * time.Second):
		t.Fatal("recap mcp --http did not say where it listens")
	}
	return "", nil
}

// tsReport is what ts-sdk.mjs saw.
type tsReport struct {
	Clients map[string]struct {
		Name, Instructions string
		Errors             []string
		Logs               []struct {
			Level  string
			Logger string
			Data   any
		}
	}
	Steps []tsStep
	Fatal string
}

type tsStep struct {
	Op, Client, Name string
	OK               bool
	Result           json.RawMessage
	Error            string
	Code             any
	Progress         []struct {
		Progress, Total float64
		Message         string
		At              int64
	}
	Started, Ended int64
}

// toolResult is a tools/call result as the client got it.
type toolResult struct {
	Content []struct {
		Type, Text string
	}
	StructuredContent json.RawMessage
	IsError           bool
}

func (s tsStep) tool(t *testing.T) toolResult {
	t.Helper()
	if !s.OK {
		t.Fatalf("%s %s failed in the TypeScript client: %s", s.Op, s.Name, s.Error)
	}
	var r toolResult
	if err := json.Unmarshal(s.Result, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// text is the answer's text.
func (r toolResult) text() string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// runTS runs ts-sdk.mjs on a plan; stderr gets the stdio servers' logs.
func runTS(t *testing.T, plan map[string]any) (tsReport, *syncBuffer) {
	t.Helper()
	node, root := nodeClients(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(root, "testdata", "mcp-clients", "ts-sdk.mjs"))
	b, _ := json.Marshal(plan)
	cmd.Stdin = strings.NewReader(string(b))
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ts-sdk.mjs: %v\n%s", err, stderr.String())
	}
	var rep tsReport
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("ts-sdk.mjs: %v\n%.2000s", err, out)
	}
	if rep.Fatal != "" {
		t.Fatalf("ts-sdk.mjs: %s\n%s", rep.Fatal, stderr.String())
	}
	return rep, stderr
}

// stdioClient is a plan's client that starts recap mcp over dir itself.
func stdioClient(name, dir string, flags ...string) map[string]any {
	return map[string]any{"name": name, "stdio": map[string]any{"command": bin, "args": append([]string{"mcp", "--root", dir}, flags...)}}
}

func httpClient(name, url string) map[string]any {
	return map[string]any{"name": name, "url": url}
}

// callPlan is every tool called with arrays and booleans, successes and
// errors, by one client, with the names it should see; "want" says which
// fail and with what code.
func callPlan(client string, name func(string) string) (steps []map[string]any, want map[int]string) {
	want = map[int]string{}
	add := func(code, tool string, args map[string]any, save string) {
		s := map[string]any{"client": client, "op": "call", "name": name(tool), "args": args}
		if save != "" {
			s["save"] = save
		}
		want[len(steps)+1] = code // +1: listTools comes first
		steps = append(steps, s)
	}
	r := client + "r"
	add("", "analysis.getReports", map[string]any{"paths": []string{"src/**"}, "context": true, "limit": 5, "types": []string{"sarif", "checkstyle", "spotbugs"}}, r)
	add("", "analysis.getReports", map[string]any{"summaryOnly": true, "categories": []string{"Design"}}, "")
	add("", "analysis.getReports", map[string]any{"bufferId": "$" + r + ".structuredContent.bufferId", "offset": 5, "limit": 5, "context": false}, "")
	add("NOT_FOUND", "analysis.getReports", map[string]any{"bufferId": "bffffffffffff"}, "")
	add("BAD_ARGUMENT", "analysis.getReports", map[string]any{"limit": 0}, "")
	add("", "analysis.getFinding", map[string]any{"id": "$" + r + ".structuredContent.findings.0.id", "maxTokens": 2000}, "")
	add("BAD_ARGUMENT", "analysis.getFinding", map[string]any{"id": "nope"}, "")
	add("NOT_FOUND", "analysis.getFinding", map[string]any{"id": "zzzzzzzz-99999"}, "")
	add("", "vcs.diff", map[string]any{"paths": []string{"src/**"}, "maxHunks": 5}, "")
	add("NOT_FOUND", "vcs.diff", map[string]any{"base": "no-such-revision"}, "")
	add("", "tokens.count", map[string]any{"paths": []string{"build/reports/*"}, "budget": 1000}, "")
	add("OUTSIDE_ROOT", "tokens.count", map[string]any{"paths": []string{"../outside"}}, "")
	add("", "server.stats", map[string]any{"maxTokens": 1000}, "")
	add("", "analysis.triage", map[string]any{"id": "$" + r + ".structuredContent.findings.0.id", "state": "false-positive", "reason": "checked by the caller"}, "")
	add("BAD_ARGUMENT", "analysis.triage", map[string]any{"id": "$" + r + ".structuredContent.findings.0.id", "state": "false-positive"}, "")
	return append([]map[string]any{{"client": client, "op": "listTools"}}, steps...), want
}

func underscore(s string) string { return strings.ReplaceAll(s, ".", "_") }
func dotted(s string) string     { return s }

// TestMCPClientsTypeScript: the TypeScript SDK's client, over stdio and
// over HTTP, as Cursor ("cursor-vscode"), as a client recap does not know
// and as Claude Code ("claude-code") at once: the first two see only names
// matching ^[a-zA-Z0-9_-]{1,64}$ and no dotted name in any text, Claude
// Code the dotted names; each calls every
// tool by its names with arrays and booleans, and every answer, success or
// error, passes the client's check of structuredContent against the tool's
// output schema.
func TestMCPClientsTypeScript(t *testing.T) {
	t.Parallel()
	nodeClients(t)
	dir := mcpWorkspace(t)
	url, _ := serveHTTP(t, dir)
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			clients := map[string]any{}
			var steps []map[string]any
			wants := map[string]map[int]string{}
			offsets := map[string]int{}
			for _, c := range []struct {
				id, name string
				names    func(string) string
			}{{"a", "cursor-vscode", underscore}, {"b", "claude-code", dotted}, {"c", "recap-test", underscore}} {
				if transport == "stdio" {
					clients[c.id] = stdioClient(c.name, dir)
				} else {
					clients[c.id] = httpClient(c.name, url)
				}
				s, w := callPlan(c.id, c.names)
				offsets[c.id] = len(steps)
				steps = append(steps, s...)
				wants[c.id] = w
			}
			rep, logs := runTS(t, map[string]any{"clients": clients, "steps": steps})
			for _, id := range []string{"a", "b", "c"} {
				under := id != "b"
				seen := rep.Clients[id]
				if len(seen.Errors) > 0 {
					t.Errorf("%s: client errors: %v", id, seen.Errors)
				}
				texts := []string{seen.Instructions}
				var list struct {
					Tools []struct {
						Name         string
						OutputSchema json.RawMessage
					}
				}
				first := rep.Steps[offsets[id]]
				if !first.OK || json.Unmarshal(first.Result, &list) != nil {
					t.Fatalf("%s: tools/list: %s", id, first.Error)
				}
				texts = append(texts, string(first.Result))
				var names []string
				for _, tool := range list.Tools {
					names = append(names, tool.Name)
					if under != strictName.MatchString(tool.Name) {
						t.Errorf("%s (%s): tool %s", id, seen.Name, tool.Name)
					}
					if len(tool.OutputSchema) == 0 {
						t.Errorf("%s: %s has no output schema", id, tool.Name)
					}
				}
				if len(names) != 6 {
					t.Errorf("%s: tools %v", id, names)
				}
				for i, code := range wants[id] {
					s := rep.Steps[offsets[id]+i]
					r := s.tool(t)
					texts = append(texts, r.text(), string(r.StructuredContent))
					var e struct{ Error struct{ Code string } }
					_ = json.Unmarshal(r.StructuredContent, &e)
					if r.IsError != (code != "") || e.Error.Code != code || len(r.StructuredContent) == 0 {
						t.Errorf("%s: %s: isError %v code %q, want %q: %.300s", id, s.Name, r.IsError, e.Error.Code, code, r.text())
					}
				}
				for _, text := range texts {
					if m := dottedTool.FindStringIndex(text); under && m != nil {
						t.Errorf("%s (%s): a dotted name leaks: …%s…", id, seen.Name, text[max(0, m[0]-80):min(len(text), m[1]+80)])
					}
				}
				if all := strings.Join(texts, "\n"); !under && !strings.Contains(all, "analysis.getReports") {
					t.Errorf("%s (%s): no dotted name anywhere", id, seen.Name)
				}
			}
			if t.Failed() {
				t.Logf("server log:\n%s", logs.String())
			}
		})
	}
}

// inspect runs an Inspector CLI release with args; it returns the result
// it printed.
func inspect(t *testing.T, entry string, args ...string) toolResult {
	t.Helper()
	node, root := nodeClients(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{filepath.Join(root, "node_modules", entry), "--cli"}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir()) // the newer CLI keeps a catalog under ~/.mcp-inspector
	var stderr syncBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("inspector %v: %v\n%s\n%s", args, err, out, stderr.String())
	}
	var r toolResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("inspector %v: %v\n%.1000s", args, err, out)
	}
	return r
}

// TestMCPClientsInspector: both Inspector CLI releases call every tool with
// arrays and booleans (typed from the tools' input schemas), over stdio and
// over HTTP.
func TestMCPClientsInspector(t *testing.T) {
	t.Parallel()
	nodeClients(t)
	dir := mcpWorkspace(t)
	url, _ := serveHTTP(t, dir)
	for _, in := range inspectors {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(in.version+"/"+transport, func(t *testing.T) {
				target := []string{bin, "mcp", "--root", dir}
				if transport == "http" {
					target = []string{url, "--transport", "http"}
				}
				callTool := func(tool string, args ...string) toolResult {
					t.Helper()
					a := append(append([]string{}, target...), "--method", "tools/call", "--tool-name", tool)
					for _, x := range args {
						a = append(a, "--tool-arg", x)
					}
					r := inspect(t, in.entry, a...)
					if r.IsError || len(r.StructuredContent) == 0 || !strings.HasPrefix(r.text(), "recap: ") {
						t.Errorf("%s %v: %.400s", tool, args, r.text())
					}
					return r
				}
				r := callTool("analysis.getReports", `paths=["src/**"]`, `types=["sarif","checkstyle","spotbugs"]`, "context=false", "limit=3")
				var v struct {
					Findings []struct{ ID, Path string }
					Page     struct{ Returned int }
				}
				if err := json.Unmarshal(r.StructuredContent, &v); err != nil || v.Page.Returned != 3 || len(v.Findings) != 3 || !strings.HasPrefix(v.Findings[0].Path, "src/") {
					t.Fatalf("getReports: %v %.400s", err, r.StructuredContent)
				}
				callTool("analysis.getReports", "summaryOnly=true", `categories=["Design","Security"]`)
				f := callTool("analysis.getFinding", "id="+v.Findings[0].ID, "maxTokens=2000")
				if !strings.Contains(string(f.StructuredContent), v.Findings[0].ID) {
					t.Errorf("getFinding: %.300s", f.StructuredContent)
				}
				callTool("vcs.diff", `paths=["src/**"]`, "maxHunks=5")
				tk := callTool("tokens.count", `paths=["build/reports/*"]`, "budget=1000")
				var tc struct{ Files []struct{ Path string } }
				if json.Unmarshal(tk.StructuredContent, &tc) != nil || len(tc.Files) != 3 {
					t.Errorf("tokens.count: %.300s", tk.StructuredContent)
				}
				callTool("server.stats", "maxTokens=1000")
			})
		}
	}
}

// TestMCPStdioMalformedLine: a line that is not JSON on standard input is
// answered with the JSON-RPC parse error (id null) and the server goes on:
// through a raw pipe, and for the TypeScript SDK's client after it.
func TestMCPStdioMalformedLine(t *testing.T) {
	dir := mcpWorkspace(t)
	cmd := exec.Command(bin, "mcp", "--root", dir)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	replies := bufio.NewScanner(stdout)
	replies.Buffer(nil, 16<<20)
	reply := func() string {
		t.Helper()
		if !replies.Scan() {
			t.Fatalf("no reply: %v", replies.Err())
		}
		var m struct {
			ID     any
			Error  *struct{ Code int }
			Result json.RawMessage
		}
		if err := json.Unmarshal(replies.Bytes(), &m); err != nil {
			t.Fatalf("%v: %s", err, replies.Text())
		}
		if m.Error != nil {
			return fmt.Sprintf("id %v error %d", m.ID, m.Error.Code)
		}
		return fmt.Sprintf("id %v result %v", m.ID, len(m.Result) > 0)
	}
	send := func(l string) {
		t.Helper()
		if _, err := io.WriteString(stdin, l+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	got := []string{reply()}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"`) // cut short
	got = append(got, reply())
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"server.stats","arguments":{}}}`)
	got = append(got, reply())
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("recap mcp after the malformed line: %v", err)
	}
	want := []string{"id 1 result true", "id <nil> error -32700", "id 3 result true"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("replies %q, want %q", got, want)
	}

	// The TypeScript client, whose server got a malformed line first.
	sh := fmt.Sprintf(`{ printf 'not json\n'; cat; } | %q mcp --root %q`, bin, dir)
	rep, logs := runTS(t, map[string]any{
		"clients": map[string]any{"a": map[string]any{"name": "recap-test", "stdio": map[string]any{"command": "sh", "args": []string{"-c", sh}}}},
		"steps": []map[string]any{{"client": "a", "op": "listTools"},
			{"client": "a", "op": "call", "name": "tokens.count", "args": map[string]any{"paths": []string{"build/reports/*"}}}},
	})
	if !rep.Steps[0].OK || rep.Steps[1].tool(t).IsError {
		t.Errorf("the TypeScript client after a malformed line: %+v\n%s", rep.Steps, logs.String())
	}
}

// TestMCPHTTPOrigins: over HTTP a foreign Origin is refused with 403; the
// server's own origin (any loopback name and its port) and requests without
// Origin are served; a request without a session id other than initialize
// gets 400, an unknown method -32601; raw and through the TypeScript
// client.
func TestMCPHTTPOrigins(t *testing.T) {
	dir := mcpWorkspace(t)
	url, _ := serveHTTP(t, dir)
	port := url[strings.LastIndex(url, ":")+1 : strings.LastIndex(url, "/")]
	post := func(origin, session, body string) (int, string, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), string(b)
	}
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	for origin, want := range map[string]int{
		"":                         http.StatusOK,
		"http://localhost:" + port: http.StatusOK,
		"http://127.0.0.1:" + port: http.StatusOK,
		"https://evil.example":     http.StatusForbidden,
		"http://localhost:9":       http.StatusForbidden,
	} {
		if got, _, body := post(origin, "", initialize); got != want {
			t.Errorf("Origin %q: %d %s, want %d", origin, got, body, want)
		}
	}
	_, session, _ := post("", "", initialize)
	post("", session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if code, _, body := post("", "", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); code != http.StatusBadRequest || !strings.Contains(body, `"code":-32600`) {
		t.Errorf("without a session id: %d %s", code, body)
	}
	if code, _, body := post("", session, `{"jsonrpc":"2.0","id":3,"method":"tools/lisst"}`); code != http.StatusOK || !strings.Contains(body, `"code":-32601`) || !strings.Contains(body, `"id":3`) {
		t.Errorf("an unknown method: %d %s", code, body)
	}
	foreign := httpClient("recap-test", url)
	foreign["headers"] = map[string]string{"Origin": "https://evil.example"}
	own := httpClient("recap-test", url)
	own["headers"] = map[string]string{"Origin": "http://localhost:" + port}
	rep, _ := runTS(t, map[string]any{
		"clients": map[string]any{"foreign": foreign, "own": own},
		"steps":   []map[string]any{{"client": "foreign", "op": "connect"}, {"client": "own", "op": "call", "name": "server.stats"}},
	})
	if rep.Steps[0].OK || fmt.Sprint(rep.Steps[0].Code) != "403" || !strings.Contains(rep.Steps[0].Error, "Origin https://evil.example") {
		t.Errorf("the TypeScript client from a foreign origin: %+v", rep.Steps[0])
	}
	if rep.Steps[1].tool(t).IsError {
		t.Errorf("the TypeScript client from the server's own origin: %+v", rep.Steps[1])
	}
}

// TestMCPHTTPSessions: two HTTP clients: B gets NOT_FOUND for A's bufferId;
// A's buffer is gone once A ends its session (DELETE), and a session idle
// for longer than --session-idle is closed with its buffers.
func TestMCPHTTPSessions(t *testing.T) {
	t.Parallel()
	dir := mcpWorkspace(t)
	url, logs := serveHTTP(t, dir, "--session-idle", "2s")
	stats := func(client string) map[string]any {
		return map[string]any{"client": client, "op": "call", "name": "server.stats"}
	}
	rep, _ := runTS(t, map[string]any{
		"clients": map[string]any{"a": httpClient("a", url), "b": httpClient("b", url), "c": httpClient("c", url), "d": httpClient("d", url)},
		"steps": []map[string]any{
			{"client": "a", "op": "call", "name": "analysis.getReports", "args": map[string]any{"limit": 5}, "save": "ra"},
			{"client": "b", "op": "call", "name": "analysis.getReports", "args": map[string]any{"bufferId": "$ra.structuredContent.bufferId"}},
			{"client": "a", "op": "call", "name": "analysis.getReports", "args": map[string]any{"bufferId": "$ra.structuredContent.bufferId", "offset": 5, "limit": 5}},
			stats("b"), // 3
			{"client": "a", "op": "terminate"},
			{"op": "sleep", "ms": 300},
			stats("b"), // 6
			{"client": "c", "op": "call", "name": "analysis.getReports", "args": map[string]any{"limit": 5}},
			{"op": "sleep", "ms": 3500}, // b and c idle past 2s
			stats("d"),                  // 9
		},
	})
	type st struct {
		Buffers, Sessions int
	}
	get := func(i int) st {
		var s st
		if err := json.Unmarshal(rep.Steps[i].tool(t).StructuredContent, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	b := rep.Steps[1].tool(t)
	if !b.IsError || !strings.HasPrefix(b.text(), "NOT_FOUND: ") {
		t.Errorf("B paging A's buffer: %.300s", b.text())
	}
	if a := rep.Steps[2].tool(t); a.IsError {
		t.Errorf("A paging its buffer: %.300s", a.text())
	}
	for i, want := range map[int]st{3: {Buffers: 1, Sessions: 2}, 6: {Buffers: 0, Sessions: 1}, 9: {Buffers: 0, Sessions: 1}} {
		if got := get(i); got != want {
			t.Errorf("step %d: %+v, want %+v\n%s", i, got, want, logs.String())
		}
	}
}

// TestMCPCancelAndProgress: with the TypeScript client, over stdio and
// HTTP, a call on an 80 MB report sends progress notifications (bytes read
// of the report's size) at least once a second; a call aborted during its
// parse stops the parse, is not answered (the client would report a
// response to an unknown id), and counts as cancelled, not as an error.
func TestMCPCancelAndProgress(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("parses a 160 MB report")
	}
	nodeClients(t)
	dir := mcpWorkspace(t)
	size := reportstest.BigSARIF(t, filepath.Join(dir, "build", "big.sarif"), 600_000)
	url, httpLogs := serveHTTP(t, dir)
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			client := stdioClient("claude-code", dir)
			if transport == "http" {
				client = httpClient("claude-code", url)
			}
			big := map[string]any{"reports": []string{"build/big.sarif"}, "summaryOnly": true}
			rep, stderr := runTS(t, map[string]any{
				"clients": map[string]any{"a": client},
				"steps": []map[string]any{
					{"client": "a", "op": "call", "name": "analysis.getReports", "args": big, "progress": true, "abortAfterProgress": 1, "waitMs": 2000},
					{"client": "a", "op": "call", "name": "server.stats"},
					{"client": "a", "op": "call", "name": "analysis.getReports", "args": big, "progress": true},
					{"client": "a", "op": "call", "name": "server.stats"},
				},
			})
			logs := stderr.String()
			if transport == "http" {
				logs = httpLogs.String()
			}
			if s := rep.Steps[0]; s.OK || !strings.Contains(s.Error, "cancelled by the test") {
				t.Errorf("the aborted call: %+v", s)
			}
			// A progress notification the server sent before the
			// cancellation reached it may arrive after the client forgot
			// the token: MCP's cancellation says such late messages are to
			// be ignored ("due to communication latency"), and the server
			// sends none once it knows (startProgress); on a loaded
			// machine, over HTTP's two streams, one can be in flight.
			var errs []string
			for _, e := range rep.Clients["a"].Errors {
				if !strings.HasPrefix(e, "Received a progress notification for an unknown token") {
					errs = append(errs, e)
				}
			}
			if len(errs) > 0 {
				t.Errorf("client errors (an answer to the cancelled call?): %v", errs)
			}
			type stats struct {
				Tools []struct {
					Tool                     string
					Calls, Errors, Cancelled int
				}
				ReportsParsed, ReportsCached int
			}
			var st stats
			if err := json.Unmarshal(rep.Steps[1].tool(t).StructuredContent, &st); err != nil {
				t.Fatal(err)
			}
			if len(st.Tools) == 0 || st.Tools[0].Tool != "analysis.getReports" || st.Tools[0].Cancelled != 1 || st.Tools[0].Errors != 0 || st.Tools[0].Calls != 0 ||
				st.ReportsParsed != 0 || st.ReportsCached != 0 {
				t.Errorf("statistics after the cancel: %+v", st)
			}
			// The log says where the parse stopped: before the end.
			m := regexp.MustCompile(`msg="call cancelled" tool=analysis.getReports duration=\S+ read=(\d+) of=(\d+)`).FindStringSubmatch(logs)
			if m == nil || m[2] != fmt.Sprint(size) || len(m[1]) == 0 || m[1] == m[2] {
				t.Errorf("no log of the parse stopped before its end (%d bytes): %v\n%s", size, m, logs)
			}
			s := rep.Steps[2]
			if r := s.tool(t); r.IsError {
				t.Fatalf("the call after: %s", r.text())
			}
			// One every progressInterval (250 ms) while the parse reads:
			// a call that took a second or more had several.
			if took := s.Ended - s.Started; len(s.Progress) < 1 || took >= 1000 && len(s.Progress) < 2 {
				t.Fatalf("%d progress notifications in %d ms", len(s.Progress), took)
			}
			at, last := s.Started, 0.0
			for _, p := range s.Progress {
				if p.Total != float64(size) || p.Progress <= last || p.Progress > p.Total || p.At-at > 1000 {
					t.Errorf("progress %+v after %v at %d ms (total %d)", p, last, p.At-at, size)
				}
				at, last = p.At, p.Progress
			}
			if err := json.Unmarshal(rep.Steps[3].tool(t).StructuredContent, &st); err != nil || st.ReportsParsed != 1 || st.Tools[0].Calls != 1 || st.Tools[0].Errors != 0 {
				t.Errorf("statistics at the end: %+v", st)
			}
		})
	}
}

// TestMCPLogging: with the TypeScript client, logging/setLevel refuses an
// unknown level (invalid params, -32602); at level warning the warnings of
// the reports a call reads come as notifications/message, at level error
// they do not.
func TestMCPLogging(t *testing.T) {
	nodeClients(t)
	dir := mcpWorkspace(t)
	url, _ := serveHTTP(t, dir)
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			client := stdioClient("recap-test", dir)
			if transport == "http" {
				client = httpClient("recap-test", url)
			}
			rep, _ := runTS(t, map[string]any{
				"clients": map[string]any{"a": client},
				"steps": []map[string]any{
					{"client": "a", "op": "setLevel", "level": "loud"},
					{"client": "a", "op": "setLevel", "level": "warning"},
					{"client": "a", "op": "call", "name": "analysis.getReports", "args": map[string]any{"summaryOnly": true, "paths": []string{"src/**"}}},
					{"client": "a", "op": "setLevel", "level": "error"},
					{"client": "a", "op": "call", "name": "analysis.getReports", "args": map[string]any{"summaryOnly": true, "paths": []string{"src/main/**"}}},
					{"op": "sleep", "ms": 200},
				},
			})
			if s := rep.Steps[0]; s.OK || fmt.Sprint(s.Code) != "-32602" {
				t.Errorf("setLevel loud: %+v", s)
			}
			var v struct {
				Inputs []struct {
					Path     string
					Warnings []string
				}
			}
			if err := json.Unmarshal(rep.Steps[2].tool(t).StructuredContent, &v); err != nil {
				t.Fatal(err)
			}
			var want, got []string
			for _, in := range v.Inputs {
				for _, w := range in.Warnings {
					want = append(want, "warning recap "+in.Path+": "+w)
				}
			}
			for _, l := range rep.Clients["a"].Logs {
				got = append(got, fmt.Sprintf("%s %s %v", l.Level, l.Logger, l.Data))
			}
			if len(want) == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("log messages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestMCPSchemasAjvStrict: every tool's input and output schema compiles in
// ajv's strict mode (a required property is defined beside it, no unknown
// keyword, no ambiguous type), and answers of every tool, successes and
// errors, are valid against the output schema ajv compiled.
func TestMCPSchemasAjvStrict(t *testing.T) {
	t.Parallel()
	node, root := nodeClients(t)
	if _, err := os.Stat(filepath.Join(root, "node_modules", "ajv", "package.json")); err != nil {
		t.Skip("node_modules/ajv is missing: run npm install --ignore-scripts")
	}
	dir := mcpWorkspace(t)
	cmd := exec.Command(bin, "mcp", "--root", dir, "--tool-names", "dotted")
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "claude-code"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		Tool              string `json:"tool"`
		StructuredContent any    `json:"structuredContent"`
	}
	var answers []answer
	ask := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		answers = append(answers, answer{tool, res.StructuredContent})
		m, _ := res.StructuredContent.(map[string]any)
		return m
	}
	v := ask("analysis.getReports", map[string]any{"limit": 3})
	ask("analysis.getReports", map[string]any{"summaryOnly": true, "severity": "error"})
	ask("analysis.getReports", map[string]any{"bufferId": "bnope"})
	if fs, _ := v["findings"].([]any); len(fs) > 0 {
		ask("analysis.getFinding", map[string]any{"id": fs[0].(map[string]any)["id"]})
	}
	ask("analysis.getFinding", map[string]any{"id": "nope"})
	ask("vcs.diff", map[string]any{})
	ask("vcs.diff", map[string]any{"base": "no-such-revision"})
	ask("tokens.count", map[string]any{"paths": []string{"build/reports/*"}})
	ask("server.stats", map[string]any{})
	in, err := json.Marshal(map[string]any{"tools": tools.Tools, "answers": answers})
	if err != nil {
		t.Fatal(err)
	}
	run := exec.Command(node, filepath.Join(root, "testdata", "mcp-clients", "ajv-strict.mjs"))
	run.Dir = root
	run.Stdin = strings.NewReader(string(in))
	out, err := run.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("ajv-strict.mjs: %v\n%s", err, stderr)
	}
	var rep struct {
		Errors              []string
		Compiled, Validated int
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, e := range rep.Errors {
		t.Error(e)
	}
	if rep.Compiled != 2*len(tools.Tools) || rep.Validated != len(answers) {
		t.Errorf("ajv compiled %d schemas and validated %d answers, want %d and %d", rep.Compiled, rep.Validated, 2*len(tools.Tools), len(answers))
	}
}

// TestMCPStdioAnswersBeforeExit: a client that writes its calls and closes
// the server's input at once (a script piping them in) gets every answer
// before the server exits, in every run: the end of input waits for the
// calls under way.
func TestMCPStdioAnswersBeforeExit(t *testing.T) {
	t.Parallel()
	dir := mcpWorkspace(t)
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"script","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"analysis.getReports","arguments":{"limit":1}}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"analysis.getReports","arguments":{"summaryOnly":true}}}` + "\n"
	for run := range 5 {
		cmd := exec.Command(bin, "mcp", "--root", dir)
		cmd.Stdin = strings.NewReader(in)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		var ids []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			var m struct {
				ID     any
				Result json.RawMessage
			}
			if json.Unmarshal([]byte(l), &m) == nil && len(m.Result) > 0 {
				ids = append(ids, fmt.Sprint(m.ID))
			}
		}
		slices.Sort(ids) // calls are answered as they end
		if strings.Join(ids, " ") != "1 2 3" {
			t.Fatalf("run %d: answers to %v, want 1 2 3:\n%.2000s", run, ids, out)
		}
	}
}
