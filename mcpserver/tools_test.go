package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/summarize/budget"
)

// echoIn, echoAnswer and echo are a tool this test adds: it says a word
// back, with the budget its answer was given.
type echoIn struct {
	Word string `json:"word,omitempty" jsonschema:"the word to say back"`
	TokenBudget
}

type echoAnswer struct {
	Word   string `json:"word"`
	Budget int    `json:"budget"`
}

func (a *echoAnswer) fit(c budget.Counter, limit int) int {
	a.Budget = limit
	return budget.Cost(c, a.text())
}
func (a *echoAnswer) text() string {
	b, _ := json.Marshal(a)
	return "recap: " + a.Word + "\n" + string(b)
}
func (a *echoAnswer) out() any { return a }

func (s *Server) echo(ctx context.Context, in *echoIn) (answer, error) {
	if in.Word == "" {
		return nil, toolErrorf(CodeBadArgument, "word: give a word to say back, or call %s", s.name(ctx, ToolServerStats))
	}
	return &echoAnswer{Word: in.Word}, nil
}

// TestAddToolIsOneRow: a tool is its handler and one row of the tool table.
// From the row alone it is listed under both names with its schemas
// (maxTokens bounded, its default the row's), called by either name,
// answered within the call's budget or the row's, its errors and argument
// errors coded, its figures counted under its name, and the tool names in
// its texts served as the session names them.
func TestAddToolIsOneRow(t *testing.T) {
	row := tool{
		name:        "test.echo",
		title:       "Say a word back",
		description: "Says the word back; " + ToolGetReports + " reads the reports.",
		maxTokens:   3000,
		args:        func(p props) { p["word"].MaxLength = jsonschema.Ptr(20) },
		handler:     handle((*Server).echo),
		answer:      outputSchema[echoAnswer],
	}
	s, err := newServer(Options{Root: t.TempDir()}, append(slices.Clone(tools), row))
	if err != nil {
		t.Fatal(err)
	}
	connect := func(client string) *mcp.ClientSession {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := s.MCP().Connect(context.Background(), st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: client}, nil).Connect(context.Background(), ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close(); ss.Wait() })
		return cs
	}
	call := func(cs *mcp.ClientSession, name string, args map[string]any) (echoAnswer, string, map[string]any) {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		raw, _ := json.Marshal(res.StructuredContent)
		var a echoAnswer
		var e struct {
			Error map[string]any `json:"error"`
		}
		if res.IsError {
			_ = json.Unmarshal(raw, &e)
		} else if err := json.Unmarshal(raw, &a); err != nil {
			t.Fatalf("%s: %v: %s", name, err, raw)
		}
		return a, text, e.Error
	}

	for _, tc := range []struct{ client, name, other, getReports, stats string }{
		{"claude-code", "test.echo", "test_echo", "analysis.getReports", "server.stats"},
		{"some-client", "test_echo", "test.echo", "analysis_getReports", "server_stats"},
	} {
		cs := connect(tc.client)
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var listed *mcp.Tool
		for _, x := range res.Tools {
			if x.Name == tc.name {
				listed = x
			}
		}
		if listed == nil || len(res.Tools) != len(tools)+1 {
			t.Fatalf("%s: %s is not listed among %d tools", tc.client, tc.name, len(res.Tools))
		}
		if listed.Title != row.title || listed.Description != "Says the word back; "+tc.getReports+" reads the reports." {
			t.Errorf("%s: title %q, description %q", tc.client, listed.Title, listed.Description)
		}
		in, _ := json.Marshal(listed.InputSchema)
		var sc jsonschema.Schema
		if err := json.Unmarshal(in, &sc); err != nil {
			t.Fatal(err)
		}
		mt, word := sc.Properties["maxTokens"], sc.Properties["word"]
		if mt == nil || mt.Type != "integer" || string(mt.Default) != "3000" || *mt.Minimum != budget.MinMaxTokens || *mt.Maximum != budget.MaxMaxTokens ||
			mt.Description != "token budget of the answer" {
			t.Errorf("%s: maxTokens' schema in %s", tc.client, in)
		}
		if word == nil || word.Type != "string" || word.MaxLength == nil || *word.MaxLength != 20 || word.Description != "the word to say back" {
			t.Errorf("%s: word's schema in %s", tc.client, in)
		}
		out, _ := json.Marshal(listed.OutputSchema)
		if !strings.Contains(string(out), `"word":{"type":"string"}`) || !strings.Contains(string(out), `"error":`) {
			t.Errorf("%s: output schema %s", tc.client, out)
		}
		if listed.Annotations == nil || !listed.Annotations.ReadOnlyHint {
			t.Errorf("%s: annotations %+v", tc.client, listed.Annotations)
		}

		if a, text, _ := call(cs, tc.name, map[string]any{"word": "hi"}); a.Word != "hi" || a.Budget != 3000 || !strings.HasPrefix(text, "recap: hi\n") {
			t.Errorf("%s: without maxTokens: %+v %q, want the row's budget 3000", tc.client, a, text)
		}
		if a, _, _ := call(cs, tc.other, map[string]any{"word": "hi", "maxTokens": 500}); a.Budget != 500 {
			t.Errorf("%s: by its other name, maxTokens 500: %+v", tc.client, a)
		}
		if _, text, e := call(cs, tc.name, nil); e["code"] != CodeBadArgument || text != "BAD_ARGUMENT: word: give a word to say back, or call "+tc.stats {
			t.Errorf("%s: no word: %v %q", tc.client, e, text)
		}
		if _, text, e := call(cs, tc.name, map[string]any{"word": strings.Repeat("w", 21)}); e["code"] != CodeBadArgument || !strings.Contains(text, "word") {
			t.Errorf("%s: a word over its maxLength: %v %q", tc.client, e, text)
		}
	}
	figures, _ := s.stats.snapshot()
	for _, f := range figures {
		if f.Tool == row.name && (f.Calls != 8 || f.Errors != 4) {
			t.Errorf("%s's figures: %+v, want 8 calls, 4 errors", row.name, f)
		}
		if f.Tool == "test_echo" {
			t.Errorf("figures under the underscore name: %+v", f)
		}
	}
	if !slices.ContainsFunc(figures, func(f ToolStats) bool { return f.Tool == row.name }) {
		t.Errorf("no figures of %s: %+v", row.name, figures)
	}
}
