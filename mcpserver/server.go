// Package mcpserver is recap's MCP server: analysis.getReports,
// analysis.getFinding, analysis.triage, vcs.diff, tokens.count and
// server.stats over the
// reports and the repository of one root directory (docs/mcp.md). Every answer
// is a compact text line followed by the answer's JSON, the same JSON as
// structured content, and stays inside its token budget: what does not fit
// is left out with a marker, never cut in the middle of an item.
//
//	s, err := mcpserver.New(mcpserver.Options{Root: dir})
//	err = s.MCP().Run(ctx, &mcp.StdioTransport{})
package mcpserver

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/tokens"
)

// Tool names, as docs/mcp.md gives them. Clients that accept only
// ^[a-zA-Z0-9_-]{1,64}$ are served them with underscores for dots (see
// Options.ToolNames and names.go).
const (
	ToolGetReports  = "analysis.getReports"
	ToolGetFinding  = "analysis.getFinding"
	ToolDiff        = "vcs.diff"
	ToolTokens      = "tokens.count"
	ToolServerStats = "server.stats"
	ToolTriage      = "analysis.triage"
)

// StatsURI is the resource that serves the per-tool statistics.
const StatsURI = "recap://stats"

// Defaults of Options. With them the server keeps within 256 MiB (see
// [Server.MemoryBound]): the parsed reports 96 MiB (Spring's 315,000 PMD
// findings take 19 MiB), the results 32 MiB (the references and groups of
// about 900,000 findings), and a call's work beside them.
const (
	DefaultBufferTTL      = 10 * time.Minute
	DefaultMaxBuffers     = 64
	DefaultMaxBufferBytes = 32 << 20
	DefaultMaxCacheBytes  = 96 << 20
	DefaultMaxColdReads   = 2
	DefaultColdWait       = 10 * time.Second
	// MaxColdWaiting bounds the calls waiting for a turn to read
	// reports: past it a call is answered BUSY at once.
	MaxColdWaiting = 1000
)

// MemoryHeadroom is the memory a server needs beside its cache and its
// buffers: the tokenizer's vocabularies (about 30 MB), the calls reading
// reports (at most MaxColdReads at once, a report too large for the cache
// read as it goes), the pages being answered, HTTP bodies in flight (see
// MaxBodyBytesInFlight), and the collector's slack.
const MemoryHeadroom = 128 << 20

// Options configure a server. Only Root is required.
type Options struct {
	// Root is the directory served: reports are found and paths are
	// confined there. Paths in findings are relative to it.
	Root string
	// ToolNames is "auto" (the default: dotted names such as
	// analysis.getReports for the clients known to take dots, recognised
	// by clientInfo.name; underscore names such as analysis_getReports for
	// the others), "dotted" or "underscore" (for every client).
	ToolNames string
	// Version is reported to clients.
	Version string
	// Logger receives a line per call (tool, tokens, bytes, duration); nil
	// discards. It must not write to the protocol's stream.
	Logger *slog.Logger
	// Tokenizer counts the budget (tokens.Default when empty).
	Tokenizer string
	// BufferTTL is how long a result buffer lives without use.
	BufferTTL time.Duration
	// MaxBuffers and MaxBufferBytes bound the result buffers.
	MaxBuffers     int
	MaxBufferBytes int64
	// MaxCacheBytes bounds the memory of the parsed reports kept
	// (DefaultMaxCacheBytes when zero): a report that does not fit alone is
	// read by each call that needs it, and not kept.
	MaxCacheBytes int64
	// MaxColdReads bounds the reads of reports at once (a parse, a pass of
	// the pipeline over the reports, looking a finding up, token counts);
	// the other calls wait for their turn while the reads move on, and are
	// answered BUSY when they have not moved for ColdWait, or at once when
	// MaxColdWaiting calls wait already (DefaultMaxColdReads and
	// DefaultColdWait when zero). A page of a buffer is never made to wait.
	MaxColdReads int
	ColdWait     time.Duration
	// MaxReportBytes is the size (gzip undone) over which a search for
	// reports (the default search, a directory, a glob) leaves a report
	// out: a path that names it reads it (DefaultMaxReportBytes when zero).
	MaxReportBytes int64
	// MaxWalkFiles and MaxWalkTime bound each walk of the root's files
	// (DefaultMaxWalkFiles and DefaultMaxWalkTime when zero).
	MaxWalkFiles int
	MaxWalkTime  time.Duration
	// Now is the clock (tests); time.Now when nil.
	Now func() time.Time
	// AllowTriageWrites lets analysis.triage write the decisions it is
	// given to TriageFile (recap mcp --allow-triage-writes); without it
	// the tool only proposes the entry.
	AllowTriageWrites bool
	// TriageFile is the triage file, relative to Root
	// (triage.DefaultPath when "").
	TriageFile string
}

// Server serves recap's tools over MCP.
type Server struct {
	opts    Options
	root    *root
	srv     *mcp.Server
	counter tokens.Counter
	cache   *reportCache
	buffers *bufferStore
	counts  countCache
	stats   *stats
	listed  listedTools // the tools as tools/list shows them
	clients sessions
	recent  recentQueries // each session's last reports and baseline
	log     *slog.Logger
	started time.Time
	cold    chan struct{} // a token per call reading reports (MaxColdReads)
	pulse   *pulse        // when the reads of reports last moved on
	waiting atomic.Int64  // calls waiting for a turn
	flights flights       // the results being made, shared by the calls that ask the same
	parsed  parsedTriage  // the triage file parsed last (see triageFile)
	ids     listedIDs     // the report contents whose ids were given
}

// New makes a server over opts.Root.
func New(opts Options) (*Server, error) { return newServer(opts, tools) }

// newServer makes a server of the tools of table.
func newServer(opts Options, table []tool) (*Server, error) {
	r, err := newRoot(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("--root: %w", err)
	}
	switch opts.ToolNames {
	case "":
		opts.ToolNames = NamesAuto
	case NamesAuto, NamesDotted, NamesUnderscore:
	default:
		return nil, fmt.Errorf("--tool-names %q: want auto, dotted or underscore", opts.ToolNames)
	}
	if opts.Tokenizer == "" {
		opts.Tokenizer = tokens.Default
	}
	c, err := tokens.New(opts.Tokenizer)
	if err != nil {
		return nil, fmt.Errorf("--tokenizer: %w", err)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.BufferTTL <= 0 {
		opts.BufferTTL = DefaultBufferTTL
	}
	if opts.MaxBuffers <= 0 {
		opts.MaxBuffers = DefaultMaxBuffers
	}
	if opts.MaxBufferBytes <= 0 {
		opts.MaxBufferBytes = DefaultMaxBufferBytes
	}
	if opts.MaxCacheBytes <= 0 {
		opts.MaxCacheBytes = DefaultMaxCacheBytes
	}
	if opts.MaxColdReads <= 0 {
		opts.MaxColdReads = DefaultMaxColdReads
	}
	if opts.ColdWait <= 0 {
		opts.ColdWait = DefaultColdWait
	}
	if opts.MaxReportBytes > 0 {
		r.maxReport = opts.MaxReportBytes
	}
	if opts.MaxWalkFiles > 0 {
		r.maxWalkFiles = opts.MaxWalkFiles
	}
	if opts.MaxWalkTime > 0 {
		r.maxWalkTime = opts.MaxWalkTime
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{
		opts: opts, root: r, counter: c, log: log, started: opts.Now(),
		cache:   newReportCache(opts.MaxCacheBytes, opts.Now),
		buffers: newBufferStore(opts.BufferTTL, opts.MaxBuffers, opts.MaxBufferBytes, opts.Now),
		stats:   newStats(),
		cold:    make(chan struct{}, opts.MaxColdReads),
		pulse:   &pulse{},
	}
	s.clients.ended = func(session string) {
		s.buffers.dropOwner(session)
		s.recent.drop(session)
	}
	s.cache.evicted = s.buffers.dropReport
	s.cache.turn, s.cache.pulse, s.cache.parsed = s.coldRead, s.pulse, s.stats.parsedOne
	s.srv = mcp.NewServer(&mcp.Implementation{Name: "recap", Title: "recap: summary-first static analysis and diffs", Version: opts.Version},
		&mcp.ServerOptions{
			Logger: log,
			Instructions: "recap reads the static-analysis reports (" + parsers.FormatTitles("") + ") and the git history of " + r.dir +
				". Start with " + ToolGetReports + " without arguments: the counts by quality and impact and the 5 most important " +
				"findings, in at most 2,000 tokens; then narrow with impact/categories/paths and page with bufferId (raise limit " +
				"and maxTokens for larger pages); " + ToolGetFinding + " shows one finding with more code. " +
				"Every answer stays within maxTokens.",
		})
	s.srv.AddReceivingMiddleware(s.toolNames, s.checkSetLevel, s.argumentErrors)
	s.addTools(table)
	s.srv.AddResource(&mcp.Resource{URI: StatsURI, Name: "stats", Title: "recap server statistics",
		Description: "Per-tool calls, errors, tokens (mean, p95, max) and durations, and the caches' state, as JSON.",
		MIMEType:    "application/json"}, s.readStats)
	return s, nil
}

// MemoryBound is the memory the server keeps within: its cache, its
// buffers and MemoryHeadroom. The command line makes it the Go runtime's
// memory limit, so that the collector works harder before the process
// goes past it.
func (s *Server) MemoryBound() int64 {
	return s.opts.MaxCacheBytes + s.opts.MaxBufferBytes + MemoryHeadroom
}

// RuntimeMemoryLimit is the Go runtime's memory limit that keeps the
// process within MemoryBound: the bound less what the process holds that
// the runtime does not count (ProcessOverhead).
func (s *Server) RuntimeMemoryLimit() int64 {
	return s.MemoryBound() - ProcessOverhead
}

// ProcessOverhead is the memory of the server's process that the Go
// runtime does not count in its limit: the program's own pages (its code
// and data, most of the 36 MB binary, read in as they are used) and what
// what the runtime maps past its soft limit. Measured on a root of
// 200,000 one-finding reports, a server whose runtime kept within 224 MiB
// reached 264 MiB; within 192 MiB, 241–259 MiB; within 176 MiB, 247–252 MiB.
const ProcessOverhead = 80 << 20

// coldRead waits for a turn to read reports: a server asked by 500 agents
// at once reads for MaxColdReads of them at a time and keeps the others
// waiting, holding nothing but their arguments, as long as the reads go
// on (a turn handed over, bytes read, findings passed over: see pulse);
// a call is answered BUSY when they have not moved for ColdWait (a read
// is stuck), or at once when MaxColdWaiting calls wait already. release
// ends the turn.
func (s *Server) coldRead(ctx context.Context) (release func(), err error) {
	release = func() {
		<-s.cold
		s.pulse.beat()
	}
	select {
	case s.cold <- struct{}{}:
		return release, nil
	default:
	}
	if s.waiting.Add(1) > MaxColdWaiting {
		s.waiting.Add(-1)
		return nil, toolErrorf(CodeBusy, "the server is busy: %d calls are reading reports and %d more wait for their turn; call again in a few seconds (a page of a bufferId is served at once)",
			cap(s.cold), MaxColdWaiting)
	}
	defer s.waiting.Add(-1)
	t := time.NewTimer(s.opts.ColdWait)
	defer t.Stop()
	for {
		select {
		case s.cold <- struct{}{}:
			return release, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
			since := s.pulse.since()
			if since < s.opts.ColdWait { // the reads went on meanwhile
				t.Reset(s.opts.ColdWait - since)
				continue
			}
			return nil, toolErrorf(CodeBusy, "the server is busy: %d calls are reading reports, and their reads have not moved for %s; call again in a few seconds (a page of a bufferId is served at once)",
				cap(s.cold), s.opts.ColdWait)
		}
	}
}

// pulse is when the reads of reports last moved on: a turn handed over,
// bytes of a report read, findings of a kept report passed over.
type pulse struct{ at atomic.Int64 }

// beat says the reads moved on now; a nil pulse is nobody's.
func (p *pulse) beat() {
	if p != nil {
		p.at.Store(time.Now().UnixNano())
	}
}

// since is how long ago the reads last moved on.
func (p *pulse) since() time.Duration { return time.Since(time.Unix(0, p.at.Load())) }

// turnKey marks the context of a call that holds a turn to read reports:
// a parse it starts reads in that turn rather than waiting for another.
type turnKey struct{}

// withTurn marks ctx as the context of a call that holds a turn.
func withTurn(ctx context.Context) context.Context { return context.WithValue(ctx, turnKey{}, true) }

// held reports whether ctx's call holds a turn (withTurn).
func held(ctx context.Context) bool { v, _ := ctx.Value(turnKey{}).(bool); return v }

// MCP returns the MCP server, to Run on a transport.
func (s *Server) MCP() *mcp.Server { return s.srv }

// Root returns the directory served.
func (s *Server) Root() string { return s.root.dir }

// An answer is a tool's result: fit packs it into a budget through
// [budget.Fit] and returns what it costs, text renders what is sent (a
// line, then the JSON), out is the structured content.
type answer interface {
	fit(c budget.Counter, limit int) int
	text() string
	out() any
}

// addTool registers a tool behind the one wrapper that every tool shares:
// it packs the answer into its budget (the call's maxTokens, else the
// tool's) and checks it, turns errors into tool errors with a code,
// recovers from panics, logs the call and records its figures.
// A call the client cancelled stops, is not counted as an error, and is not
// answered (the transports drop its answer).
func addTool[In any, P input[In]](s *Server, t *tool, mt *mcp.Tool, h func(context.Context, P) (answer, error)) {
	spec := t.name
	mcp.AddTool(s.srv, mt, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		start := time.Now()
		args := P(&in)
		limit := t.budget(args.tokenBudget().MaxTokens)
		ctx = withNames(withSession(ctx, s.clients.key(req.Session)), s.underscoreFor(req.Session))
		ctx = withClient(ctx, req.Session)
		ctx, prog, stop := s.startProgress(ctx, req)
		a, text, n, err := s.run(spec, limit, func() (answer, error) {
			a, err := h(ctx, args)
			if err == nil && !pages(args) {
				s.logInputs(ctx, req.Session, a)
			}
			return a, err
		})
		stop()
		if ctx.Err() != nil {
			s.stats.cancel(spec)
			read, total := prog.state()
			s.log.Info("call cancelled", "tool", spec, "duration", time.Since(start).Round(time.Microsecond), "read", read, "of", total)
			return nil, nil, ctx.Err()
		}
		if err != nil {
			te, text, n := fitError(s.counter, asToolError(err), limit, echoes(args))
			s.done(spec, n, len(text), time.Since(start), te.Code)
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}, errorAnswer{te}, nil
		}
		s.done(spec, n, len(text), time.Since(start), "")
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, a.out(), nil
	})
}

// run calls a tool's handler and packs its answer into budget: the text
// sent and its cost. A panic becomes an INTERNAL tool error.
func (s *Server) run(tool string, limit int, h func() (answer, error)) (a answer, text string, n int, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic", "tool", tool, "panic", p, "stack", string(debug.Stack()))
			a, err = nil, toolErrorf(codeInternal, "recap failed on this call (%v): please report it", p)
		}
	}()
	if a, err = h(); err != nil {
		return nil, "", 0, err
	}
	n = a.fit(s.counter, limit)
	return a, a.text(), n, nil
}

func (s *Server) done(tool string, tok, bytes int, d time.Duration, code string) {
	s.stats.record(tool, tok, bytes, d, code != "")
	attrs := []any{"tool", tool, "tokens", tok, "bytes", bytes, "duration", d.Round(time.Microsecond)}
	if code != "" {
		attrs = append(attrs, "error", code)
	}
	s.log.Info("call", attrs...)
}

// argumentErrors gives the SDK's own argument errors (schema validation:
// a bound, an enum, an unknown argument) the BAD_ARGUMENT code and the
// error object every other tool error has.
func (s *Server) argumentErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		// "arguments": null (or none) is no arguments: the schema's defaults
		// are applied to an object. An argument given as null is left out:
		// the schemas type every argument plainly (an array, a boolean).
		if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok {
			if a := strings.TrimSpace(string(p.Arguments)); a == "" || a == "null" {
				p.Arguments = json.RawMessage("{}")
			} else if strings.Contains(a, "null") {
				var args map[string]json.RawMessage
				if json.Unmarshal(p.Arguments, &args) == nil {
					for k, v := range args {
						if string(v) == "null" {
							delete(args, k)
						}
					}
					p.Arguments, _ = json.Marshal(args)
				}
			}
		}
		start := time.Now()
		res, err := next(ctx, method, req)
		if err != nil || ctx.Err() != nil { // a cancelled call is no argument error
			return res, err
		}
		r, ok := res.(*mcp.CallToolResult)
		if !ok || !r.IsError || r.StructuredContent != nil {
			return res, err
		}
		msg := ""
		for _, c := range r.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				msg += t.Text
			}
		}
		tool, limit := "", budget.DefaultMaxTokens
		var args any
		if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok {
			tool = s.listed.specName(p.Name)
			_ = json.Unmarshal(p.Arguments, &args)
			if m, ok := args.(map[string]any); ok {
				if n, ok := m["maxTokens"].(float64); ok && n == float64(int(n)) && n >= budget.MinMaxTokens && n <= budget.MaxMaxTokens {
					limit = int(n) // the call's budget, when it is one
				}
			}
		}
		te := toolErrorf(CodeBadArgument, "%s: see the tool's input schema for the arguments, their bounds and defaults", schemaError(strings.TrimSpace(msg)))
		te, text, n := fitError(s.counter, te, limit, echoes(args))
		r.Content = []mcp.Content{&mcp.TextContent{Text: text}}
		raw, _ := json.Marshal(errorAnswer{te})
		r.StructuredContent = json.RawMessage(raw)
		s.done(tool, n, len(text), time.Since(start), te.Code)
		return r, nil
	}
}

// snapshot returns the server's statistics, with the tool names the
// session of ctx sees.
func (s *Server) snapshot(ctx context.Context) Stats {
	tools, parsed := s.stats.snapshot()
	for i := range tools {
		tools[i].Tool = s.name(ctx, tools[i].Tool)
	}
	cached, bytes := s.cache.held()
	return Stats{Tools: tools, ReportsParsed: parsed, ReportsCached: cached, CacheBytes: bytes, Buffers: s.buffers.len(),
		BufferBytes: s.buffers.held(), Memory: memoryNow(s.MemoryBound()),
		UptimeSeconds: s.opts.Now().Sub(s.started).Seconds(), TokenizerName: s.counter.Name(), Sessions: s.clients.live(),
		DefaultBudget: budget.DefaultMaxTokens, MaxBudget: budget.MaxMaxTokens, BufferIdleSecs: s.opts.BufferTTL.Seconds()}
}

func (s *Server) readStats(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	if req.Params.URI != StatsURI {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	b, err := json.MarshalIndent(s.snapshot(withNames(ctx, s.underscoreFor(req.Session))), "", "  ")
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: StatsURI, MIMEType: "application/json", Text: string(b)}}}, nil
}

// The schema validator's words for an argument out of its bounds:
// `validating "arguments": validating root: validating /properties/offset:
// maximum: 1000…(309 digits)/1 is greater than 1073741824.000000`.
var (
	schemaPlace = regexp.MustCompile(`^validating "arguments": validating root: validating /properties/([A-Za-z]+): `)
	schemaBound = regexp.MustCompile(`^(maximum|minimum): (-?[0-9]+)(?:/([0-9]+))? is (?:greater|less) than (-?[0-9.]+)$`)
)

// schemaError says the validator's message plainly: the argument named
// first, a number out of its bounds in a few digits with the bound (an
// offset of 1e308 is not echoed in 309 digits).
func schemaError(msg string) string {
	m := schemaPlace.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	name, rest := m[1], msg[len(m[0]):]
	b := schemaBound.FindStringSubmatch(rest)
	if b == nil {
		return name + ": " + rest
	}
	v, _ := new(big.Rat).SetString(b[2] + "/" + cmp.Or(b[3], "1"))
	f, _ := v.Float64()
	bound, _ := strconv.ParseFloat(b[4], 64)
	word := "largest"
	if b[1] == "minimum" {
		word = "smallest"
	}
	return fmt.Sprintf("%s: %s is out of bounds (the %s is %s)", name, strconv.FormatFloat(f, 'g', 6, 64), word, strconv.FormatFloat(bound, 'f', -1, 64))
}
