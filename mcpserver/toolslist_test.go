package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/mcpserver"
)

// TestToolsListGolden pins the wire contract of the tools: the initialize
// answer (its instructions) and tools/list (names, titles, descriptions,
// input and output schemas, annotations) exactly as a client reads them
// on standard input and output, for a client served dotted names and for
// one served underscore names. The goldens are the raw JSON-RPC results,
// indented: a change of a byte in a schema shows.
func TestToolsListGolden(t *testing.T) {
	for _, tc := range []struct{ client, golden string }{
		{"claude-code", "tools-dotted.json"},
		{"some-client", "tools-underscore.json"},
	} {
		t.Run(tc.client, func(t *testing.T) {
			root := t.TempDir()
			s := newServer(t, mcpserver.Options{Root: root, Version: "v0.0.0-test"})
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- s.MCP().Run(ctx, mcpserver.StdioTransport(inR, outW)) }()
			t.Cleanup(func() { cancel(); inW.Close(); <-done })
			replies := bufio.NewScanner(outR)
			replies.Buffer(nil, 1<<24)
			ask := func(line string) json.RawMessage {
				t.Helper()
				if _, err := io.WriteString(inW, line+"\n"); err != nil {
					t.Fatal(err)
				}
				if !replies.Scan() {
					t.Fatalf("no reply to %s: %v", line, replies.Err())
				}
				var m struct {
					Result json.RawMessage `json:"result"`
				}
				if err := json.Unmarshal(replies.Bytes(), &m); err != nil || m.Result == nil {
					t.Fatalf("reply to %s: %v %s", line, err, replies.Bytes())
				}
				return m.Result
			}
			initRes := ask(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"` + tc.client + `","version":"1"}}}`)
			if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
				t.Fatal(err)
			}
			list := ask(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
			var got bytes.Buffer
			for _, part := range []struct {
				name string
				raw  json.RawMessage
			}{{"initialize", initRes}, {"tools/list", list}} {
				raw := bytes.ReplaceAll(part.raw, []byte(jsonString(t, s.Root())), []byte("ROOT"))
				got.WriteString("// " + part.name + "\n")
				if err := json.Indent(&got, raw, "", "  "); err != nil {
					t.Fatal(err)
				}
				got.WriteString("\n")
			}
			reportstest.Golden(t, filepath.Join("testdata", tc.golden), got.Bytes())
		})
	}
}

// jsonString is s as it appears inside a JSON string.
func jsonString(t testing.TB, s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Trim(string(b), `"`)
}
