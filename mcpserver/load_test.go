package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/mcpserver"
)

// answerOf is a call's answer as the load tests look at it.
type answerOf struct {
	err     error
	isErr   bool
	text    string
	summary string // the summary's JSON
	took    time.Duration
}

// callAll sends each call from its own session, all at once, and returns
// the answers in order.
func callAll(t *testing.T, s *mcpserver.Server, calls []map[string]any) []answerOf {
	t.Helper()
	sessions := make([]*mcp.ClientSession, len(calls))
	for i := range calls {
		sessions[i] = connectAs(t, s, "claude-code", nil)
	}
	out := make([]answerOf, len(calls))
	var wg sync.WaitGroup
	for i, args := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			res, err := sessions[i].CallTool(context.Background(), &mcp.CallToolParams{Name: "analysis.getReports", Arguments: args})
			out[i] = answerOf{err: err, took: time.Since(t0)}
			if err != nil {
				return
			}
			out[i].isErr, out[i].text = res.IsError, res.Content[0].(*mcp.TextContent).Text
			var v struct{ Summary json.RawMessage }
			if raw, err := json.Marshal(res.StructuredContent); err == nil && json.Unmarshal(raw, &v) == nil {
				out[i].summary = string(v.Summary)
			}
		}()
	}
	wg.Wait()
	return out
}

func statsOf(t *testing.T, s *mcpserver.Server) mcpserver.Stats {
	t.Helper()
	var st mcpserver.StatsAnswer
	call(t, connectAs(t, s, "claude-code", nil), "server.stats", nil).decode(t, &st)
	return st.Stats
}

// TestColdLoad: calls of analysis.getReports at once on a cold
// server, each from its own session, are all answered, none BUSY; the
// report is parsed once for all of them; identical calls share one pass
// (their result is held once); calls with other filters share the parse.
// With one turn to read and a ColdWait shorter than the calls wait for
// their turn, calls wait while the reads go on, rather than being answered
// BUSY.
func TestColdLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("parses a report of 150,000 findings a few times")
	}
	dir := t.TempDir()
	reportstest.BigSARIF(t, filepath.Join(dir, "big.sarif"), 150_000)
	identical := func(n int, args map[string]any) []map[string]any {
		out := make([]map[string]any, n)
		for i := range out {
			out[i] = args
		}
		return out
	}
	filters := func(n int) []map[string]any {
		var out []map[string]any
		for i := range n {
			f := []map[string]any{
				{"impact": []string{"blocker", "high", "medium", "low", "info"}[i%5]},
				{"paths": []string{fmt.Sprintf("src/F%d*.java", i%10)}},
				{"grep": fmt.Sprintf("%d", i)},
				{"severity": []string{"error", "warning", "note"}[i%3], "limit": 20},
			}[i%4]
			f["offset"] = i
			out = append(out, f)
		}
		return out
	}
	// The price of one result: the same call, alone, on a server of its own.
	one := newServer(t, mcpserver.Options{Root: dir})
	if a := callAll(t, one, identical(1, map[string]any{})); a[0].err != nil || a[0].isErr {
		t.Fatalf("one call: %v %s", a[0].err, a[0].text)
	}
	price := statsOf(t, one).BufferBytes
	for _, c := range []struct {
		name  string
		opts  mcpserver.Options
		calls []map[string]any
		// shared: the calls are identical: one result held
		shared bool
	}{
		{"20 identical", mcpserver.Options{}, identical(20, map[string]any{}), true},
		{"20 identical, counts only", mcpserver.Options{}, identical(20, map[string]any{"summaryOnly": true}), true},
		{"20 filters", mcpserver.Options{}, filters(20), false},
		{"one turn, ColdWait shorter than the calls' wait", mcpserver.Options{MaxColdReads: 1, ColdWait: time.Second}, append(identical(10, map[string]any{}), filters(10)...), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := c.opts
			opts.Root = dir
			s := newServer(t, opts)
			answers := callAll(t, s, c.calls)
			for i, a := range answers {
				if a.err != nil || a.isErr {
					t.Errorf("call %d (%v): %v %.300s", i, c.calls[i], a.err, a.text)
				}
				if c.shared && a.summary != answers[0].summary {
					t.Errorf("call %d: %s, call 0: %s", i, a.summary, answers[0].summary)
				}
			}
			st := statsOf(t, s)
			if st.ReportsParsed != 1 {
				t.Errorf("the report was parsed %d times", st.ReportsParsed)
			}
			if c.shared && st.BufferBytes > price {
				t.Errorf("%d identical calls hold %d bytes of results, one holds %d: their passes were not shared", len(c.calls), st.BufferBytes, price)
			}
			if c.shared && st.Buffers != len(c.calls) {
				t.Errorf("%d buffers for %d sessions", st.Buffers, len(c.calls))
			}
		})
	}
}

// TestSharedCancel: of the calls waiting for one parse and one pass, those
// that are cancelled leave at once and the others are answered whole, from
// that one parse; the progress of the parse goes to each caller that asked
// for it, also to those that did not start it.
func TestSharedCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("parses a report of 300,000 findings")
	}
	dir := t.TempDir()
	size := reportstest.BigSARIF(t, filepath.Join(dir, "big.sarif"), 300_000)
	for _, c := range []struct {
		name            string
		callers, cancel int
	}{
		{"the first of two leaves", 2, 1},
		{"three of five leave", 5, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newServer(t, mcpserver.Options{Root: dir})
			type progress struct {
				sync.Mutex
				n    int
				last float64
				bad  string
			}
			progs := make([]*progress, c.callers)
			started := make(chan struct{}, c.callers)
			sessions := make([]*mcp.ClientSession, c.callers)
			for i := range c.callers {
				p := &progress{}
				progs[i] = p
				sessions[i] = connectAs(t, s, "claude-code", &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
					p.Lock()
					defer p.Unlock()
					if r.Params.Total != float64(size) || r.Params.Progress <= p.last {
						p.bad = fmt.Sprintf("%+v after %v", r.Params, p.last)
					}
					p.n, p.last = p.n+1, r.Params.Progress
					if p.n == 1 {
						started <- struct{}{}
					}
				}})
			}
			type got struct {
				res *mcp.CallToolResult
				err error
				at  time.Time
			}
			out := make([]chan got, c.callers)
			cancels := make([]context.CancelFunc, c.callers)
			for i := range c.callers {
				ctx, cancel := context.WithCancel(context.Background())
				cancels[i], out[i] = cancel, make(chan got, 1)
				params := &mcp.CallToolParams{Name: "analysis.getReports", Arguments: map[string]any{"limit": 3}}
				params.SetProgressToken(fmt.Sprintf("p%d", i))
				go func() {
					res, err := sessions[i].CallTool(ctx, params)
					out[i] <- got{res, err, time.Now()}
				}()
			}
			for range c.callers { // each caller hears of the parse
				select {
				case <-started:
				case <-time.After(60 * time.Second):
					t.Fatal("a caller had no progress")
				}
			}
			cancelled := time.Now()
			for i := range c.cancel {
				cancels[i]()
			}
			var answers []string
			for i := range c.callers {
				g := <-out[i]
				if i < c.cancel {
					if !errors.Is(g.err, context.Canceled) {
						t.Errorf("caller %d, cancelled: %v", i, g.err)
					}
					if d := g.at.Sub(cancelled); d > 2*time.Second {
						t.Errorf("caller %d left %v after its cancel", i, d)
					}
					continue
				}
				if g.err != nil || g.res.IsError {
					t.Fatalf("caller %d: %v %v", i, g.err, g.res)
				}
				text := g.res.Content[0].(*mcp.TextContent).Text
				if !strings.HasPrefix(text, "recap: 300000 findings") {
					t.Errorf("caller %d: %.200s", i, text)
				}
				line, _, _ := strings.Cut(text, "\n")
				answers = append(answers, line[:strings.Index(line, "bufferId=")])
			}
			for i, a := range answers {
				if a != answers[0] {
					t.Errorf("answer %d: %s, first: %s", i, a, answers[0])
				}
			}
			for i, p := range progs {
				p.Lock()
				if p.bad != "" {
					t.Errorf("caller %d: progress %s", i, p.bad)
				}
				p.Unlock()
			}
			if st := statsOf(t, s); st.ReportsParsed != 1 {
				t.Errorf("parsed %d times", st.ReportsParsed)
			}
		})
	}
}
