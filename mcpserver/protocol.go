//lint:file-ignore SA1019 MCP logging is deprecated from protocol 2026-07-28 on, but the clients in use speak 2025-11-25 and earlier, where notifications/message and logging/setLevel are how a server tells its client

package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLineBytes bounds one message on standard input, as the SDK's own
// stdio transport does.
const maxLineBytes = mcp.DefaultMaxLineLength

// StdioTransport serves MCP on in and out, one JSON-RPC message a line, as
// the SDK's StdioTransport does, but a line that is not JSON-RPC is
// answered with a JSON-RPC error (-32700 parse error, -32600 invalid
// request; id null) and the session goes on, where the SDK's transport ends
// it; and a call the client cancelled (notifications/cancelled) is not
// answered, as the MCP specification asks.
func StdioTransport(in io.Reader, out io.Writer) mcp.Transport {
	return &stdioTransport{in: in, out: out}
}

type stdioTransport struct {
	in  io.Reader
	out io.Writer
}

func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	w := &lockedWriter{w: t.out}
	r := &lineFilter{br: bufio.NewReaderSize(t.in, 64<<10), w: w}
	conn, err := (&mcp.IOTransport{Reader: io.NopCloser(r), Writer: w, MaxLineLength: maxLineBytes + 1}).Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &cancelConn{Connection: conn, cancelled: map[jsonrpc.ID]bool{}, pending: map[jsonrpc.ID]bool{}, answered: make(chan struct{}, 1)}, nil
}

// lockedWriter serialises the transport's messages and the filter's errors.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// lineFilter passes on the lines of its input that are JSON-RPC messages
// (or batches of them) and answers the others with a JSON-RPC error.
type lineFilter struct {
	br   *bufio.Reader
	w    io.Writer
	line []byte // what is left of the line being passed on
	err  error
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.line) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		line, err := f.readLine()
		if err != nil {
			f.err = err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if code, msg := checkMessage(line); code != 0 {
			f.reply(code, msg)
			continue
		}
		f.line = append(line, '\n')
	}
	n := copy(p, f.line)
	f.line = f.line[n:]
	return n, nil
}

// readLine reads the next line without its end; a line longer than
// maxLineBytes is skipped and answered as too long.
func (f *lineFilter) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := f.br.ReadSlice('\n')
		if len(line)+len(chunk) > maxLineBytes {
			line = nil
			for errors.Is(err, bufio.ErrBufferFull) { // skip the rest of the line
				_, err = f.br.ReadSlice('\n')
			}
			f.reply(jsonrpc.CodeParseError, fmt.Sprintf("Parse error: a message longer than %d bytes", maxLineBytes))
			if err != nil {
				return nil, err
			}
			continue
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}

// checkMessage returns a JSON-RPC error code and message for a line that is
// not a JSON-RPC message or batch, or 0.
func checkMessage(line []byte) (int, string) {
	if !json.Valid(line) {
		var v any
		err := json.Unmarshal(line, &v)
		return jsonrpc.CodeParseError, fmt.Sprintf("Parse error: %v", err)
	}
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) == nil {
		if len(batch) == 0 {
			return jsonrpc.CodeInvalidRequest, "Invalid Request: an empty batch"
		}
		for _, m := range batch {
			if _, err := jsonrpc.DecodeMessage(m); err != nil {
				return jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: %v", err)
			}
		}
		return 0, ""
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: %v", err)
	}
	return 0, ""
}

func (f *lineFilter) reply(code int, msg string) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
	_, _ = f.w.Write(append(b, '\n'))
}

// cancelConn drops the answer to a call the client cancelled, and answers
// the calls read before the input ended: a client that writes its calls
// and closes its end (a script piping them in) gets every answer before
// the server exits, where the end of input used to close the session
// with calls under way, their answers lost.
type cancelConn struct {
	mcp.Connection
	mu        sync.Mutex
	cancelled map[jsonrpc.ID]bool
	pending   map[jsonrpc.ID]bool // calls read, not answered yet
	answered  chan struct{}       // a call was answered
}

// drainWait bounds how long the end of input waits for the calls under
// way to be answered.
const drainWait = 2 * time.Minute

func (c *cancelConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		c.drain(ctx)
		return msg, err
	}
	if r, ok := msg.(*jsonrpc.Request); ok && r.ID.IsValid() {
		c.mu.Lock()
		if len(c.pending) < 10_000 {
			c.pending[r.ID] = true
		}
		c.mu.Unlock()
	}
	if r, ok := msg.(*jsonrpc.Request); ok && err == nil && !knownMethods[r.Method] && len(r.Method) > maxEcho {
		r.Method = cut(r.Method) // the SDK's error quotes an unknown method whole
	}
	if r, ok := msg.(*jsonrpc.Request); ok && err == nil && r.Method == "notifications/cancelled" {
		if id, ok := cancelledID(r.Params); ok {
			c.mu.Lock()
			if len(c.cancelled) > 1000 { // ids of calls already answered: start again
				clear(c.cancelled)
			}
			c.cancelled[id] = true
			delete(c.pending, id) // not answered: the end of input does not wait for it
			c.mu.Unlock()
		}
	}
	return msg, err
}

// drain waits, at the end of input, until every call read is answered
// (or drainWait passes, or ctx ends).
func (c *cancelConn) drain(ctx context.Context) {
	timeout := time.NewTimer(drainWait)
	defer timeout.Stop()
	for {
		c.mu.Lock()
		n := len(c.pending)
		c.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.answered:
		case <-timeout.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

func (c *cancelConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		drop := c.cancelled[r.ID]
		delete(c.cancelled, r.ID)
		delete(c.pending, r.ID)
		c.mu.Unlock()
		defer func() {
			select {
			case c.answered <- struct{}{}:
			default:
			}
		}()
		if drop {
			return nil
		}
		if r.Error != nil {
			c := *r
			c.Error = rpcError(r.Error)
			msg = &c
		}
	}
	return c.Connection.Write(ctx, msg)
}

// rpcError gives an error a JSON-RPC code: the SDK answers some requests
// with a plain error, which goes out with code 0, no JSON-RPC code. A
// request before the session is initialized is an invalid request (-32600);
// another plain error is an internal error (-32603).
func rpcError(err error) error {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return err
	}
	msg := err.Error()
	if strings.Contains(msg, "invalid during session initialization") {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
			Message: "Invalid Request: " + msg + ": send initialize, then notifications/initialized, before other requests"}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msg}
}

// cancelledID reads the requestId of notifications/cancelled.
func cancelledID(params json.RawMessage) (jsonrpc.ID, bool) {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || p.RequestID == nil {
		return jsonrpc.ID{}, false
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	return id, err == nil
}

// loggingLevels are the levels logging/setLevel accepts (RFC 5424's).
var loggingLevels = map[mcp.LoggingLevel]bool{
	"debug": true, "info": true, "notice": true, "warning": true,
	"error": true, "critical": true, "alert": true, "emergency": true,
}

// checkSetLevel refuses logging/setLevel with an unknown level (JSON-RPC
// invalid params), which the SDK would take.
func (s *Server) checkSetLevel(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "logging/setLevel" {
			if p, ok := req.GetParams().(*mcp.SetLoggingLevelParams); ok && !loggingLevels[p.Level] {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
					Message: fmt.Sprintf("logging/setLevel: unknown level %q: want debug, info, notice, warning, error, critical, alert or emergency", cut(string(p.Level)))}
			}
		}
		return next(ctx, method, req)
	}
}
