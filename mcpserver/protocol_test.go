//lint:file-ignore SA1019 MCP logging is deprecated from protocol 2026-07-28 on, but the clients in use speak 2025-11-25 and earlier, where notifications/message and logging/setLevel are how a server tells its client

package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/mcpserver"
)

// strictName is the tool-name rule of the clients that refuse dots.
var strictName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// dottedName finds a dotted tool name in a text.
var dottedName = regexp.MustCompile(`analysis\.getReports|analysis\.getFinding|vcs\.diff|tokens\.count|server\.stats`)

// connectAs connects a client of this clientInfo.name to s over in-memory
// transports.
func connectAs(t testing.TB, s *mcpserver.Server, name string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func newServer(t testing.TB, opts mcpserver.Options) *mcpserver.Server {
	t.Helper()
	s, err := mcpserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func listTools(t testing.TB, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	out := map[string]*mcp.Tool{}
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		out[tool.Name] = tool
	}
	return out
}

// everyCall calls every tool by the names of a session: successes and
// errors, with arrays and booleans. name maps a SPEC name to the served one.
func everyCall(t testing.TB, cs *mcp.ClientSession, name func(string) string) map[string]result {
	t.Helper()
	out := map[string]result{}
	do := func(key, tool string, args map[string]any) result {
		t.Helper()
		r := call(t, cs, name(tool), args)
		out[key] = r
		return r
	}
	page := do("getReports", "analysis.getReports", map[string]any{"paths": []string{"src/**"}, "context": true, "limit": 5, "types": []string{"sarif", "checkstyle", "spotbugs"}})
	var v view
	page.decode(t, &v)
	do("getReports summary", "analysis.getReports", map[string]any{"summaryOnly": true, "categories": []string{"Design"}})
	do("getReports page", "analysis.getReports", map[string]any{"bufferId": v.BufferID, "offset": 5, "limit": 5, "context": false})
	do("getReports unknown buffer", "analysis.getReports", map[string]any{"bufferId": "bffffffffffff"})
	do("getReports bad argument", "analysis.getReports", map[string]any{"limit": 0})
	do("getFinding", "analysis.getFinding", map[string]any{"id": v.Findings[0].ID})
	do("getFinding bad id", "analysis.getFinding", map[string]any{"id": "nope"})
	do("getFinding unknown", "analysis.getFinding", map[string]any{"id": v.Findings[0].ID.Tag + "-99999"})
	do("diff", "vcs.diff", map[string]any{"paths": []string{"src/**"}, "maxHunks": 5})
	do("diff unknown revision", "vcs.diff", map[string]any{"base": "no-such-revision"})
	do("tokens", "tokens.count", map[string]any{"paths": []string{"build/reports/*"}, "budget": 1000})
	do("tokens outside", "tokens.count", map[string]any{"paths": []string{"../outside"}})
	do("stats", "server.stats", map[string]any{"maxTokens": 1000})
	do("triage", "analysis.triage", map[string]any{"id": v.Findings[0].ID, "state": "false-positive", "reason": "checked by the caller"})
	do("triage no reason", "analysis.triage", map[string]any{"id": v.Findings[0].ID, "state": "false-positive"})
	return out
}

// wantErrors are the calls of everyCall that fail, with their codes.
var wantErrors = map[string]string{
	"getReports unknown buffer": mcpserver.CodeNotFound,
	"getReports bad argument":   mcpserver.CodeBadArgument,
	"getFinding bad id":         mcpserver.CodeBadArgument,
	"triage no reason":          mcpserver.CodeBadArgument,
	"getFinding unknown":        mcpserver.CodeNotFound,
	"diff unknown revision":     mcpserver.CodeNotFound,
	"tokens outside":            mcpserver.CodeOutsideRoot,
}

// TestToolNamesByClient: in auto mode every client but those known to take
// dots (by clientInfo.name) sees only names matching ^[a-zA-Z0-9_-]{1,64}$
// and no dotted name in any text (instructions, descriptions, schemas,
// answers, errors, statistics), and can call every tool by them; the
// clients known to take dots see the dotted names; --tool-names forces
// either.
func TestToolNamesByClient(t *testing.T) {
	g := workspace(t)
	for _, tc := range []struct {
		mode, client string
		underscore   bool
	}{
		{"auto", "claude-ai", true},
		{"", "codex-mcp-client", true},
		{"auto", "github-copilot-developer", true},
		{"auto", "cursor-vscode", true},
		{"auto", "some-new-client", true},
		{"auto", "", true},
		{"auto", "claude-code", false},
		{"auto", "Visual Studio Code", false},
		{"auto", "mcp-inspector", false},
		{"dotted", "claude-ai", false},
		{"underscore", "claude-code", true},
	} {
		t.Run(tc.mode+"/"+tc.client, func(t *testing.T) {
			s := newServer(t, mcpserver.Options{Root: g.Dir, ToolNames: tc.mode})
			cs := connectAs(t, s, tc.client, nil)
			name := func(spec string) string {
				if tc.underscore {
					return strings.ReplaceAll(spec, ".", "_")
				}
				return spec
			}
			tools := listTools(t, cs)
			var got []string
			for n := range tools {
				got = append(got, n)
			}
			var want []string
			for _, n := range []string{"analysis.getFinding", "analysis.getReports", "analysis.triage", "server.stats", "tokens.count", "vcs.diff"} {
				want = append(want, name(n))
			}
			if d := cmp.Diff(want, slices.Sorted(slices.Values(got))); d != "" {
				t.Fatalf("tools (-want +got):\n%s", d)
			}
			instructions := cs.InitializeResult().Instructions
			if !strings.Contains(instructions, name("analysis.getReports")) {
				t.Errorf("the instructions do not name %s: %s", name("analysis.getReports"), instructions)
			}
			calls := everyCall(t, cs, name)
			texts := []string{instructions, string(mustJSON(t, tools))}
			for key, r := range calls {
				if code, ok := wantErrors[key]; ok {
					if got := r.errorCode(t); got != code {
						t.Errorf("%s: code %s, want %s", key, got, code)
					}
				} else if r.isErr {
					t.Errorf("%s: %s", key, r.text)
				}
				texts = append(texts, r.text, string(r.raw))
			}
			// The answers that name a tool name it as the session sees it.
			for key, want := range map[string]string{
				"getFinding bad id":     "take one from " + name("analysis.getReports"),
				"diff unknown revision": name("vcs.diff") + ": ",
				"tokens":                "(" + name("analysis.getReports") + ")",
				"stats":                 `"tool":"` + name("analysis.getReports") + `"`,
			} {
				if !strings.Contains(calls[key].text, want) {
					t.Errorf("%s does not say %q: %.400s", key, want, calls[key].text)
				}
			}
			res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: mcpserver.StatsURI})
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, res.Contents[0].Text)
			if tc.underscore {
				for n := range tools {
					if !strictName.MatchString(n) {
						t.Errorf("tool name %q breaks ^[a-zA-Z0-9_-]{1,64}$", n)
					}
				}
				for _, text := range texts {
					if m := dottedName.FindString(text); m != "" {
						i := strings.Index(text, m)
						t.Errorf("a dotted name leaks: …%s…", text[max(0, i-100):min(len(text), i+100)])
					}
				}
				// A dotted name is still taken.
				if r := call(t, cs, "server.stats", nil); r.isErr {
					t.Errorf("server.stats by its dotted name: %s", r.text)
				}
			}
		})
	}
}

// TestSchemas: every input property has one plain type (no
// ["null","array"]), and every answer, success or error, is valid against
// its tool's declared output schema.
func TestSchemas(t *testing.T) {
	g := workspace(t)
	s := newServer(t, mcpserver.Options{Root: g.Dir})
	cs := connectAs(t, s, "claude-code", nil)
	tools := listTools(t, cs)
	resolved := map[string]*jsonschema.Resolved{}
	for name, tool := range tools {
		var in struct {
			Properties map[string]map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(mustJSON(t, tool.InputSchema), &in); err != nil {
			t.Fatal(err)
		}
		for p, sc := range in.Properties {
			if typ, ok := sc["type"].(string); !ok || typ == "null" {
				t.Errorf("%s: %s has type %v, want one plain type", name, p, sc["type"])
			}
		}
		if tool.OutputSchema == nil {
			t.Fatalf("%s: no output schema", name)
		}
		var out jsonschema.Schema
		if err := json.Unmarshal(mustJSON(t, tool.OutputSchema), &out); err != nil {
			t.Fatal(err)
		}
		if out.Type != "object" || out.Properties["error"] == nil {
			t.Errorf("%s: output schema %s", name, mustJSON(t, tool.OutputSchema))
		}
		r, err := out.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		resolved[name] = r
	}
	tool := map[string]string{"getReports": "analysis.getReports", "getFinding": "analysis.getFinding", "diff": "vcs.diff", "tokens": "tokens.count", "stats": "server.stats", "triage": "analysis.triage"}
	for key, r := range everyCall(t, cs, func(s string) string { return s }) {
		if r.raw == nil {
			t.Errorf("%s: no structured content", key)
			continue
		}
		var v any
		_ = json.Unmarshal(r.raw, &v)
		name := tool[strings.Fields(key)[0]]
		if err := resolved[name].Validate(v); err != nil {
			t.Errorf("%s: the structured content is not valid against %s's output schema: %v\n%.300s", key, name, err, r.raw)
		}
	}
	// An answer of neither shape is refused: the schema checks something.
	var bad any = map[string]any{"summary": 1}
	if resolved["analysis.getReports"].Validate(bad) == nil {
		t.Error("the getReports output schema takes anything")
	}
}

// TestBuffersBySession: a bufferId pages only in the session that made it,
// and its buffers go when that session ends.
func TestBuffersBySession(t *testing.T) {
	g := workspace(t)
	s := newServer(t, mcpserver.Options{Root: g.Dir})
	a := connectAs(t, s, "a", nil)
	b := connectAs(t, s, "b", nil)
	var v view
	call(t, a, "analysis.getReports", map[string]any{"limit": 5}).decode(t, &v)
	if v.BufferID == "" {
		t.Fatal("no bufferId")
	}
	if code := call(t, b, "analysis.getReports", map[string]any{"bufferId": v.BufferID}).errorCode(t); code != mcpserver.CodeNotFound {
		t.Errorf("B paging A's buffer: %s, want NOT_FOUND", code)
	}
	var own view
	call(t, a, "analysis.getReports", map[string]any{"bufferId": v.BufferID, "offset": 5, "limit": 5, "maxTokens": 4000}).decode(t, &own)
	if own.Page == nil || own.Page.Offset != 5 || len(own.Findings) != 5 {
		t.Errorf("A paging its buffer: %+v", own.Page)
	}
	// The same query in B makes B's own buffer.
	var vb view
	call(t, b, "analysis.getReports", map[string]any{"limit": 5}).decode(t, &vb)
	if vb.BufferID == v.BufferID || vb.BufferID == "" {
		t.Errorf("B's buffer %q, A's %q", vb.BufferID, v.BufferID)
	}
	buffers := func() int {
		var st mcpserver.Stats
		call(t, b, "server.stats", nil).decode(t, &st)
		return st.Buffers
	}
	if n := buffers(); n != 2 {
		t.Fatalf("%d buffers, want 2", n)
	}
	a.Close()
	deadline := time.Now().Add(5 * time.Second)
	for buffers() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("A ended: %d buffers, want B's 1", buffers())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSetLevelAndLogs: logging/setLevel refuses an unknown level with
// invalid params; once a level is set, the warnings of the reports a call
// reads come as notifications/message at level warning.
func TestSetLevelAndLogs(t *testing.T) {
	g := workspace(t)
	s := newServer(t, mcpserver.Options{Root: g.Dir})
	var mu sync.Mutex
	var logs []*mcp.LoggingMessageParams
	cs := connectAs(t, s, "claude-code", &mcp.ClientOptions{LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
		mu.Lock()
		logs = append(logs, r.Params)
		mu.Unlock()
	}})
	ctx := context.Background()
	err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "loud"})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("setLevel loud: %v, want invalid params", err)
	}
	// No level set: no messages.
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true}).decode(t, &v)
	// The Go SDK's client speaks the sessionless protocol, where the level
	// comes with each request.
	leveled := func(level string, args map[string]any) {
		t.Helper()
		p := &mcp.CallToolParams{Name: "analysis.getReports", Arguments: args, Meta: mcp.Meta{mcp.MetaKeyLogLevel: level}}
		res, err := cs.CallTool(ctx, p)
		if err != nil || res.IsError {
			t.Fatalf("%v %v", err, res)
		}
		if err := json.Unmarshal(mustJSON(t, res.StructuredContent), &v); err != nil {
			t.Fatal(err)
		}
	}
	leveled("warning", map[string]any{"summaryOnly": true, "paths": []string{"src/**"}})
	var want []string
	for _, in := range v.Inputs {
		for _, w := range in.Warnings {
			want = append(want, "warning "+in.Path+": "+w)
		}
	}
	if len(want) == 0 {
		t.Fatal("the sample reports have no warnings to log")
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		var got []string
		for _, l := range logs {
			got = append(got, fmt.Sprintf("%s %v", l.Level, l.Data))
		}
		mu.Unlock()
		if cmp.Equal(want, got) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("log messages (-want +got):\n%s", cmp.Diff(want, got))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// At level error the warnings are not sent; paging a buffer sends none.
	leveled("error", map[string]any{"summaryOnly": true, "paths": []string{"src/main/**"}})
	leveled("debug", map[string]any{"bufferId": v.BufferID})
	time.Sleep(100 * time.Millisecond)
	mu.Lock()
	n := len(logs)
	mu.Unlock()
	if n != len(want) {
		t.Errorf("%d messages at level error, want none more than the %d warnings", n-len(want), len(want))
	}
}

// pipeClient connects a client to s over the server's stdio transport on
// pipes; raw receives every line the server writes.
func pipeClient(t testing.TB, s *mcpserver.Server, opts *mcp.ClientOptions) (*mcp.ClientSession, *lines) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.MCP().Run(ctx, mcpserver.StdioTransport(inR, outW)) }()
	raw := &lines{}
	tr, tw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			raw.add(sc.Text())
			_, _ = tw.Write(append(sc.Bytes(), '\n'))
		}
		tw.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "claude-code"}, opts).Connect(ctx, &mcp.IOTransport{Reader: tr, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		inW.Close()
		cancel()
		<-done
	})
	return cs, raw
}

// lines are the lines a server wrote.
type lines struct {
	mu sync.Mutex
	l  []string
}

func (l *lines) add(s string) {
	l.mu.Lock()
	l.l = append(l.l, s)
	l.mu.Unlock()
}

func (l *lines) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.l...)
}

// TestStdioMalformed: a line that is not JSON-RPC is answered with -32700
// (or -32600) and id null, and the session goes on; a request before the
// session is initialized is answered with -32600 (the SDK's plain error
// would go out with code 0).
func TestStdioMalformed(t *testing.T) {
	g := workspace(t)
	s := newServer(t, mcpserver.Options{Root: g.Dir})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.MCP().Run(ctx, mcpserver.StdioTransport(inR, outW)) }()
	replies := bufio.NewScanner(outR)
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	next := func() map[string]any {
		t.Helper()
		if !replies.Scan() {
			t.Fatalf("no reply: %v", replies.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(replies.Bytes(), &m); err != nil {
			t.Fatalf("%v: %s", err, replies.Text())
		}
		return m
	}
	// A request before the session is initialized gets a JSON-RPC code.
	send(`{"jsonrpc":"2.0","id":0,"method":"tools/list"}`)
	if m := next(); m["id"] != float64(0) || m["error"] == nil || m["error"].(map[string]any)["code"] != float64(jsonrpc.CodeInvalidRequest) {
		t.Errorf("tools/list before initialize: %v, want error %d", m, jsonrpc.CodeInvalidRequest)
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := next(); m["id"] != float64(1) || m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, tc := range []struct {
		line string
		code float64
	}{
		{`{"jsonrpc":"2.0","id":2,"method":"ping"`, jsonrpc.CodeParseError},
		{`garbage`, jsonrpc.CodeParseError},
		{`42`, jsonrpc.CodeInvalidRequest},
		{`{"hello":"world"}`, jsonrpc.CodeInvalidRequest},
		{`[]`, jsonrpc.CodeInvalidRequest},
	} {
		send(tc.line)
		m := next()
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != tc.code || m["id"] != nil {
			t.Errorf("%s: %v, want error %v with id null", tc.line, m, tc.code)
		}
		if _, ok := m["id"]; !ok {
			t.Errorf("%s: the error has no id member: %v", tc.line, m)
		}
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"server.stats","arguments":{}}}`)
	if m := next(); m["id"] != float64(3) || m["result"] == nil {
		t.Fatalf("a call after the malformed lines: %v", m)
	}
	inW.Close()
	if err := <-done; err != nil && !strings.Contains(err.Error(), "EOF") {
		t.Errorf("run: %v", err)
	}
}

// TestCancel: a call cancelled during its parse stops it, is not answered
// (no response on the wire), is counted as cancelled and not as an error,
// and leaves no half-read report in the cache; a call after it parses
// afresh and reports its progress.
func TestCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("parses an 80 MB report")
	}
	g := workspace(t)
	size := reportstest.BigSARIF(t, filepath.Join(g.Dir, "build", "big.sarif"), 300_000)
	s := newServer(t, mcpserver.Options{Root: g.Dir})
	var mu sync.Mutex
	var progress []*mcp.ProgressNotificationParams
	var lastAt time.Time // when the last notification came
	first := make(chan struct{}, 1)
	cs, raw := pipeClient(t, s, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		progress = append(progress, r.Params)
		lastAt = time.Now()
		mu.Unlock()
		select {
		case first <- struct{}{}:
		default:
		}
	}})
	ctx, cancel := context.WithCancel(context.Background())
	params := &mcp.CallToolParams{Name: "analysis.getReports", Arguments: map[string]any{"reports": []string{"build/big.sarif"}, "summaryOnly": true}}
	params.SetProgressToken("p1")
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, params)
		errc <- err
	}()
	select {
	case <-first:
	case <-time.After(30 * time.Second):
		t.Fatal("no progress")
	}
	start := time.Now()
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled call: %v", err)
	}
	var st mcpserver.Stats
	var gr mcpserver.ToolStats
	deadline := time.Now().Add(10 * time.Second)
	for {
		call(t, cs, "server.stats", nil).decode(t, &st)
		for _, ts := range st.Tools {
			if ts.Tool == "analysis.getReports" {
				gr = ts
			}
		}
		if gr.Cancelled == 1 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	stopped := time.Since(start)
	if gr.Tool != "analysis.getReports" || gr.Cancelled != 1 || gr.Errors != 0 || gr.Calls != 0 {
		t.Errorf("statistics after the cancelled call: %+v", gr)
	}
	if st.ReportsCached != 0 || st.ReportsParsed != 0 {
		t.Errorf("after the cancelled parse: %d reports cached, %d parsed, want none", st.ReportsCached, st.ReportsParsed)
	}
	if stopped > 2*time.Second {
		t.Errorf("the cancelled call ended %v after the cancel", stopped)
	}
	// Nothing on the wire answers the cancelled call (its id is 2: 1 was
	// initialize).
	for _, l := range raw.all() {
		var m struct {
			ID     any             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		_ = json.Unmarshal([]byte(l), &m)
		if m.ID == float64(2) {
			t.Errorf("the cancelled call was answered: %.300s", l)
		}
	}
	// A new call parses the report afresh, with progress at least every second.
	mu.Lock()
	progress = nil
	mu.Unlock()
	params.SetProgressToken("p2")
	t0 := time.Now()
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("the call after: %v %v", err, res)
	}
	took := time.Since(t0)
	time.Sleep(300 * time.Millisecond) // notifications sent before the answer may be handled after it
	mu.Lock()
	defer mu.Unlock()
	// At least one a second while the report is read: up to the last
	// notification (what follows the read, counting and grouping, sends
	// none, and takes long on a loaded machine).
	if reading := lastAt.Sub(t0); len(progress) == 0 || len(progress) < int(reading/time.Second) {
		t.Errorf("%d progress notifications in %v of reading (the call took %v)", len(progress), reading, took)
	}
	last := 0.0
	for _, p := range progress {
		if p.ProgressToken != "p2" || p.Total != float64(size) || p.Progress <= last || p.Progress > p.Total {
			t.Errorf("progress %+v after %v (total %d)", p, last, size)
		}
		last = p.Progress
	}
}

// TestHTTPChecks: over HTTP a foreign Origin gets 403 (any method); the
// server's own origin under a loopback name and requests without Origin
// are served; a request without a session id other than initialize gets
// 400; an unknown method the JSON-RPC error -32601.
func TestHTTPChecks(t *testing.T) {
	g := workspace(t)
	s := newServer(t, mcpserver.Options{Root: g.Dir})
	ts := httptest.NewServer(s.HTTPHandler(mcpserver.HTTPOptions{AllowedOrigins: []string{"https://allowed.example"}}))
	defer ts.Close()
	port := ts.URL[strings.LastIndex(ts.URL, ":")+1:]
	post := func(origin, session, body string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
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
		return resp, string(b)
	}
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	for _, tc := range []struct {
		origin string
		status int
	}{
		{"", http.StatusOK},
		{"http://127.0.0.1:" + port, http.StatusOK},
		{"http://localhost:" + port, http.StatusOK},
		{"http://[::1]:" + port, http.StatusOK},
		{"https://allowed.example", http.StatusOK},
		{"http://evil.example", http.StatusForbidden},
		{"http://localhost:1", http.StatusForbidden},
		{"null", http.StatusForbidden},
	} {
		resp, body := post(tc.origin, "", initialize)
		if resp.StatusCode != tc.status {
			t.Errorf("Origin %q: %d %s, want %d", tc.origin, resp.StatusCode, body, tc.status)
		}
	}
	resp, _ := post("", "", initialize)
	session := resp.Header.Get("Mcp-Session-Id")
	if session == "" {
		t.Fatal("no session id")
	}
	post("", session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	// A GET (the server's event stream) from a foreign origin is refused too.
	req, _ := http.NewRequest(http.MethodGet, ts.URL, nil)
	req.Header.Set("Origin", "http://evil.example")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	if r, err := http.DefaultClient.Do(req); err != nil || r.StatusCode != http.StatusForbidden {
		t.Errorf("GET from a foreign origin: %v %v", r.StatusCode, err)
	}
	resp, body := post("", "", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	var e struct {
		ID    any `json:"id"`
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &e); resp.StatusCode != http.StatusBadRequest || err != nil || e.Error.Code != jsonrpc.CodeInvalidRequest || e.ID != float64(2) {
		t.Errorf("tools/list without a session: %d %s", resp.StatusCode, body)
	}
	resp, body = post("", session, `{"jsonrpc":"2.0","id":3,"method":"tools/lisst"}`)
	if err := json.Unmarshal([]byte(body), &e); resp.StatusCode != http.StatusOK || err != nil || e.Error.Code != jsonrpc.CodeMethodNotFound || e.ID != float64(3) {
		t.Errorf("an unknown method: %d %s", resp.StatusCode, body)
	}
	resp, body = post("", session, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`)
	// A client recap does not know is served underscore names.
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"analysis_getReports"`) || dottedName.MatchString(body) {
		t.Errorf("tools/list in the session: %d %.300s", resp.StatusCode, body)
	}
}

// TestLongNamesCut: names a client sends that are no tool, method or level
// of the server's (1 MB each) are quoted in the errors cut to 100
// characters, over standard input and output and over HTTP.
func TestLongNamesCut(t *testing.T) {
	g := workspace(t)
	s := newServer(t, mcpserver.Options{Root: g.Dir})
	long := strings.Repeat("x", 1<<20)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.MCP().Run(ctx, mcpserver.StdioTransport(inR, outW))
	replies := bufio.NewScanner(outR)
	replies.Buffer(nil, 4<<20)
	exchange := func(line string) string {
		t.Helper()
		go io.WriteString(inW, line+"\n")
		if !replies.Scan() {
			t.Fatalf("no reply: %v", replies.Err())
		}
		return replies.Text()
	}
	exchange(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	go io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	cases := map[string]string{
		"a tool":   `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"` + long + `","arguments":{}}}`,
		"a method": `{"jsonrpc":"2.0","id":3,"method":"` + long + `"}`,
		"a level":  `{"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":{"level":"` + long + `"}}`,
	}
	for _, name := range []string{"a tool", "a method", "a level"} {
		reply := exchange(cases[name])
		if len(reply) > 1000 || !strings.Contains(reply, "xxx…") || !strings.Contains(reply, `"error"`) {
			t.Errorf("stdio, %s of 1 MB: a reply of %d bytes: %.300s", name, len(reply), reply)
		}
	}
	ts := httptest.NewServer(s.HTTPHandler(mcpserver.HTTPOptions{}))
	defer ts.Close()
	for name, c := range map[string]struct{ body, origin string }{
		"a method":                   {body: cases["a method"]},
		"a method without a session": {body: `{"jsonrpc":"2.0","id":5,"method":"tools/call` + long + `"}`},
		"an origin":                  {body: cases["a method"], origin: "http://" + long},
	} {
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if len(b) > 1000 || !strings.Contains(string(b), "xxx…") {
			t.Errorf("HTTP, %s of 1 MB: %d, a reply of %d bytes: %.300s", name, resp.StatusCode, len(b), b)
		}
	}
}
