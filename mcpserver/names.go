package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/internal/text"
)

// Tool-name modes (Options.ToolNames).
const (
	NamesAuto       = "auto"       // dotted names for the clients in dotAcceptingClients, underscore names for the others
	NamesDotted     = "dotted"     // analysis.getReports, whatever the client
	NamesUnderscore = "underscore" // analysis_getReports, whatever the client
)

// dotAcceptingClients are the clientInfo.name values (lower case) of the
// clients known to take tool names with dots; in auto mode they are served
// analysis.getReports and so on, and every other client
// analysis_getReports: the MCP specification allows dots, but many clients
// pass a tool's name on to a model API whose pattern refuses them, and a
// client unknown to recap is safer with the names every client takes.
// Sources:
//   - "claude-code": Claude Code (clientInfo as observed in
//     github.com/screenpipe/screenpipe/pull/5796); it rewrites a dot to an
//     underscore when it prefixes a tool's name (github.com/MeshInspector/MeshLib/pull/6150,
//     github.com/barryw/ImmichMCP/pull/8, github.com/kbanc85/claudia/pull/32).
//   - "visual studio code", "visual studio code - insiders": VS Code, which
//     maps dotted names to underscores itself and only warns about them
//     (github.com/github/copilot-cli/issues/2581, github.com/microsoft/vscode/issues/308463).
//   - "mcp-inspector", "inspector-cli", "mcp-inspector-tui": the MCP
//     Inspector's web client, CLI and TUI (their clientInfo in the
//     @modelcontextprotocol/inspector packages), which show and call any name.
//
// Clients known to refuse dots, served underscore names like every client
// not listed: "claude-ai" (the Claude desktop app: "tools.N.
// FrontendRemoteMcpToolDefinition.name: String should match pattern
// '^[a-zA-Z0-9_-]{1,64}$'", github.com/barryw/ImmichMCP/issues/4),
// "cursor-vscode" (Cursor: "must only contain alphanumeric characters and
// underscores"), "github-copilot-developer" (GitHub Copilot CLI,
// github.com/github/copilot-cli/issues/2581), "codex-mcp-client" (OpenAI
// Codex CLI, github.com/openai/codex/issues/8174).
var dotAcceptingClients = map[string]bool{
	"claude-code":                   true,
	"visual studio code":            true,
	"visual studio code - insiders": true,
	"mcp-inspector":                 true,
	"inspector-cli":                 true,
	"mcp-inspector-tui":             true,
}

// underscoreName is a tool's name with its dots made underscores.
func underscoreName(spec string) string { return strings.ReplaceAll(spec, ".", "_") }

// clientAcceptsDots reports whether a client, by its clientInfo.name, is
// one known to take dotted tool names.
func clientAcceptsDots(name string) bool {
	return dotAcceptingClients[strings.ToLower(strings.TrimSpace(name))]
}

// underscoreFor reports whether a session is served underscore names: the
// forced mode, else by the client's name (a session whose client has not
// said its name yet gets underscore names).
func (s *Server) underscoreFor(ss *mcp.ServerSession) bool {
	switch s.opts.ToolNames {
	case NamesUnderscore:
		return true
	case NamesDotted:
		return false
	}
	if ss == nil {
		return true
	}
	p := ss.InitializeParams()
	return p == nil || p.ClientInfo == nil || !clientAcceptsDots(p.ClientInfo.Name)
}

type underscoreKey struct{}

// withNames records in ctx whether the call's session is served underscore
// names.
func withNames(ctx context.Context, underscore bool) context.Context {
	return context.WithValue(ctx, underscoreKey{}, underscore)
}

// name is the name of a tool as the session of ctx sees it.
func (s *Server) name(ctx context.Context, spec string) string {
	if u, ok := ctx.Value(underscoreKey{}).(bool); ok && u || !ok && s.opts.ToolNames == NamesUnderscore {
		return underscoreName(spec)
	}
	return spec
}

// text is a text recap wrote, with the tool names the session of ctx sees.
func (s *Server) text(ctx context.Context, t string) string {
	if s.name(ctx, ToolGetReports) != ToolGetReports {
		return s.listed.underscoreText(t)
	}
	return t
}

// listedTools are the server's tools as tools/list shows them, dotted and
// underscore variants by name (the names of the tool table).
type listedTools struct {
	names              []string
	dotted, underscore map[string]*mcp.Tool
}

// listTools records how tools/list shows each tool (t.Name is its dotted
// name): with its output schema, and an underscore variant whose name,
// description and schemas name tools with underscores.
func listTools(ts []*mcp.Tool) listedTools {
	l := listedTools{dotted: map[string]*mcp.Tool{}, underscore: map[string]*mcp.Tool{}}
	for _, t := range ts {
		l.names = append(l.names, t.Name)
		l.dotted[t.Name] = t
	}
	for _, t := range ts {
		u := *t
		u.Name = underscoreName(t.Name)
		u.Description = l.underscoreText(t.Description)
		u.InputSchema = l.underscoreSchema(t.InputSchema)
		u.OutputSchema = l.underscoreSchema(t.OutputSchema)
		l.underscore[t.Name] = &u
	}
	return l
}

// specName returns the dotted name of a served tool name (dotted or
// underscore), or name unchanged when it is no tool of the server.
func (l *listedTools) specName(name string) string {
	for _, t := range l.names {
		if name == underscoreName(t) {
			return t
		}
	}
	return name
}

// underscoreText replaces the dotted tool names in a text recap wrote (a
// description, a recommendation, an error) by their underscore names.
func (l *listedTools) underscoreText(s string) string {
	for _, t := range l.names {
		s = strings.ReplaceAll(s, t, underscoreName(t))
	}
	return s
}

// underscoreSchema copies a schema with the tool names in its text made
// underscore names.
func (l *listedTools) underscoreSchema(sc any) any {
	if sc == nil {
		return nil
	}
	b, err := json.Marshal(sc)
	if err != nil {
		panic(err) // the schemas are recap's own: a failure is a bug any test catches
	}
	var out jsonschema.Schema
	if err := json.Unmarshal([]byte(l.underscoreText(string(b))), &out); err != nil {
		panic(err)
	}
	return &out
}

// toolNames is the receiving middleware that serves each session its tool
// names: the initialize answer's instructions and tools/list in the
// session's names, and tools/call by either name.
func (s *Server) toolNames(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/call":
			if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok {
				p.Name = s.listed.specName(p.Name)
				if !slices.Contains(s.listed.names, p.Name) {
					// the SDK's own error would quote a name of any length whole
					msg := fmt.Sprintf("unknown tool %q: the tools are %s", cut(p.Name), text.List(s.listed.names, "and"))
					if s.underscoreFor(sessionOf(req)) {
						msg = s.listed.underscoreText(msg)
					}
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
				}
			}
		case "initialize", "server/discover":
			// The session knows its client once initialize (or, in the
			// sessionless protocol, each request's _meta) has told it.
			res, err := next(ctx, method, req)
			if err != nil || !s.underscoreFor(sessionOf(req)) {
				return res, err
			}
			switch r := res.(type) {
			case *mcp.InitializeResult:
				c := *r
				c.Instructions = s.listed.underscoreText(r.Instructions)
				return &c, nil
			case *mcp.DiscoverResult:
				c := *r
				c.Instructions = s.listed.underscoreText(r.Instructions)
				return &c, nil
			}
			return res, err
		case "tools/list":
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.ListToolsResult); ok && err == nil {
				shown := s.listed.dotted
				if s.underscoreFor(sessionOf(req)) {
					shown = s.listed.underscore
				}
				c := *r
				c.Tools = make([]*mcp.Tool, len(r.Tools))
				for i, t := range r.Tools {
					if x := shown[t.Name]; x != nil {
						t = x
					}
					c.Tools[i] = t
				}
				return &c, nil
			}
			return res, err
		}
		return next(ctx, method, req)
	}
}

// sessionOf returns the server session a request came in on (nil when none).
func sessionOf(req mcp.Request) *mcp.ServerSession {
	if req == nil {
		return nil
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	return ss
}
