//lint:file-ignore SA1019 MCP logging is deprecated from protocol 2026-07-28 on, but the clients in use speak 2025-11-25 and earlier, where notifications/message and logging/setLevel are how a server tells its client

package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/summarize"
)

// progressInterval is how often a call that gave a progressToken is told
// how far the parses it waits for have read.
const progressInterval = 250 * time.Millisecond

// maxLogMessages bounds the notifications/message a call sends.
const maxLogMessages = 20

// callProgress gathers the parses a call waits for (its own, or another
// call's of the same report), whose bytes read make its progress.
type callProgress struct {
	mu      sync.Mutex
	entries []*cacheEntry
	// done sums the bytes read and to read of the parses that ended,
	// taken out of entries (fold): a call that reads 200,000 reports does
	// not hold on to their entries.
	doneRead, doneTotal int64
}

type progressKey struct{}

// watch adds a parse to the progress of ctx's call, if it reports progress.
func watch(ctx context.Context, e *cacheEntry) {
	p, _ := ctx.Value(progressKey{}).(*callProgress)
	if p == nil {
		return
	}
	p.mu.Lock()
	if len(p.entries) >= 64 && len(p.entries) == cap(p.entries) {
		p.fold()
	}
	p.entries = append(p.entries, e)
	p.mu.Unlock()
}

// unwatch takes a parse that ctx's call watched out of its progress: one
// that ended without a report, cancelled by the calls that left it, which
// the call parses again (its file would count twice).
func unwatch(ctx context.Context, e *cacheEntry) {
	p, _ := ctx.Value(progressKey{}).(*callProgress)
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if i := slices.Index(p.entries, e); i >= 0 {
		p.entries = slices.Delete(p.entries, i, i+1)
		return
	}
	// Folded: it ended before, and counted what it counts now.
	p.doneRead -= min(e.read.Load(), e.size)
	p.doneTotal -= e.size
}

// fold takes the parses that ended out of entries, into the sums; p.mu is
// held.
func (p *callProgress) fold() {
	kept := p.entries[:0]
	for _, e := range p.entries {
		select {
		case <-e.ready:
			p.doneRead += min(e.read.Load(), e.size)
			p.doneTotal += e.size
		default:
			kept = append(kept, e)
		}
	}
	clear(p.entries[len(kept):])
	p.entries = kept
}

// state returns the bytes read and the bytes to read of the parses watched.
func (p *callProgress) state() (read, total int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	read, total = p.doneRead, p.doneTotal
	for _, e := range p.entries {
		read += min(e.read.Load(), e.size)
		total += e.size
	}
	return read, total
}

// startProgress sends notifications/progress for the call of req, every
// progressInterval while its parses read on, when the client gave a
// progressToken. It returns ctx to run the call with, the call's progress,
// and stop, which ends the notifications before the answer is sent.
func (s *Server) startProgress(ctx context.Context, req *mcp.CallToolRequest) (context.Context, *callProgress, func()) {
	p := &callProgress{} // kept for the log of a cancelled call, token or not
	ctx = context.WithValue(ctx, progressKey{}, p)
	if req == nil || req.Params == nil || req.Session == nil || req.Params.GetProgressToken() == nil {
		return ctx, p, func() {}
	}
	tok := req.Params.GetProgressToken()
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(progressInterval)
		defer t.Stop()
		var sent int64
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			read, total := p.state()
			if read <= sent { // progress must increase with each notification
				continue
			}
			sent = read
			if ctx.Err() != nil {
				return // cancelled while the state was read: the client forgot the token
			}
			err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok,
				Progress: float64(read), Total: float64(total),
				Message: fmt.Sprintf("reading reports: %.1f of %.1f MB", float64(read)/1e6, float64(total)/1e6)})
			if err != nil {
				s.log.Debug("progress", "error", err)
			}
		}
	}()
	return ctx, p, func() {
		close(done)
		<-finished
	}
}

// logInputs sends the warnings and errors of the inputs a call read as
// notifications/message at their level (warning, error), to a client that
// set a level with logging/setLevel; at most maxLogMessages a call.
func (s *Server) logInputs(ctx context.Context, ss *mcp.ServerSession, a answer) {
	if ss == nil || a == nil {
		return
	}
	v, ok := a.out().(*summarize.View)
	if !ok {
		return
	}
	type msg struct {
		level mcp.LoggingLevel
		text  string
	}
	var msgs []msg
	for _, in := range v.Inputs {
		if in.Error != "" {
			msgs = append(msgs, msg{"error", in.Error})
		}
		for _, w := range in.Warnings {
			msgs = append(msgs, msg{"warning", in.Path + ": " + w})
		}
	}
	for i, m := range msgs {
		if i == maxLogMessages-1 && len(msgs) > maxLogMessages {
			m = msg{"warning", fmt.Sprintf("%d more warnings and errors: see inputs[].warnings and inputs[].error", len(msgs)-i)}
		}
		if err := ss.Log(ctx, &mcp.LoggingMessageParams{Level: m.level, Logger: "recap", Data: m.text}); err != nil {
			s.log.Debug("log message", "error", err)
			return
		}
		if i == maxLogMessages-1 {
			return
		}
	}
}
