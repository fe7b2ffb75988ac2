package mcpserver

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultSessionIdle is how long an HTTP session lives without a request.
const DefaultSessionIdle = 30 * time.Minute

// HTTPOptions configure the streamable HTTP handler.
type HTTPOptions struct {
	// SessionIdle closes a session that received no request for this long
	// (DefaultSessionIdle when zero); its result buffers go with it.
	SessionIdle time.Duration
	// AllowedOrigins are browser origins (scheme://host[:port]) served
	// besides the server's own: a request with any other Origin is refused
	// with 403, as the MCP specification asks.
	AllowedOrigins []string
	// Token, when set, is the bearer token every request must carry
	// (Authorization: Bearer TOKEN), else 401. A server that listens beyond
	// loopback needs one (the command line refuses to start without it).
	Token string
	// MaxBodyBytesInFlight bounds the bytes of request bodies held at once,
	// over all connections (DefaultMaxBodyBytesInFlight when zero): a
	// request whose body would go past it gets 503 with Retry-After, so
	// that 600 connections sending 4 MiB bodies slowly hold this much, not
	// 2.4 GB. A body has BodyReadTimeout to arrive whole.
	MaxBodyBytesInFlight int64
	// MaxSessions bounds the sessions open at once (DefaultMaxSessions
	// when zero): a new one past it closes the least recently used
	// session without a request in flight; when each has one, initialize
	// is refused with 503 and a JSON-RPC error that says so.
	MaxSessions int
}

// Bounds of the request bodies being read.
const (
	DefaultMaxBodyBytesInFlight = 16 << 20
	BodyReadTimeout             = 30 * time.Second
)

// MinTokenLen is the fewest characters of a bearer token.
const MinTokenLen = 16

// HTTPHandler serves MCP over streamable HTTP: the SDK's handler (a session
// per Mcp-Session-Id, closed after o.SessionIdle without a request, and
// DNS-rebinding protection on loopback addresses), behind recap's checks:
//   - a request that came in on a loopback address and names another host
//     than a loopback name with the server's port (localhost, 127.0.0.1,
//     [::1]) is refused with 421: a page of another site whose name was
//     made to lead to 127.0.0.1 (DNS rebinding) cannot reach the server;
//   - with o.Token, a request without Authorization: Bearer TOKEN gets 401
//     (compared in constant time);
//   - a request whose Origin is neither the server's own (any loopback name
//     with the server's port) nor in o.AllowedOrigins is refused with 403,
//     whatever its method; a request without Origin (non-browser clients
//     send none) is served;
//   - a POST without Mcp-Session-Id that is not an initialize request gets
//     400 with a JSON-RPC error;
//   - a call of a method MCP does not have gets the JSON-RPC error -32601;
//   - a call the client cancels is not answered: its POST ends without it.
func (s *Server) HTTPHandler(o HTTPOptions) http.Handler {
	if o.SessionIdle <= 0 {
		o.SessionIdle = DefaultSessionIdle
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv },
		&mcp.StreamableHTTPOptions{SessionTimeout: o.SessionIdle, Logger: s.log})
	allowed := map[string]bool{}
	for _, a := range o.AllowedOrigins {
		allowed[strings.TrimSuffix(strings.ToLower(a), "/")] = true
	}
	if o.MaxBodyBytesInFlight <= 0 {
		o.MaxBodyBytesInFlight = DefaultMaxBodyBytesInFlight
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	c := &httpChecks{next: h, allowed: allowed, calls: map[callKey]context.CancelFunc{}, bodyRoom: o.MaxBodyBytesInFlight,
		sessions: newHTTPSessions(o.MaxSessions, s.liveSessions, s.closeSession), log: s.log}
	if o.Token != "" {
		c.token = []byte(o.Token)
	}
	return c
}

// authorized reports whether an Authorization header carries the token:
// "Bearer TOKEN", the scheme in any case, the token compared in constant
// time.
func (c *httpChecks) authorized(h string) bool {
	scheme, token, ok := strings.Cut(h, " ")
	return ok && strings.EqualFold(scheme, "Bearer") && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(token)), c.token) == 1
}

type httpChecks struct {
	next    http.Handler
	allowed map[string]bool
	token   []byte // nil: none asked

	mu    sync.Mutex
	calls map[callKey]context.CancelFunc // the POSTs of calls in flight

	bodyMu   sync.Mutex
	bodyRoom int64 // the bytes bodies may still take (MaxBodyBytesInFlight less those held)

	sessions *httpSessions
	log      *slog.Logger
}

// liveSessions are the ids of the MCP sessions open.
func (s *Server) liveSessions() map[string]bool {
	live := map[string]bool{}
	for ss := range s.srv.Sessions() {
		live[ss.ID()] = true
	}
	return live
}

// closeSession closes the MCP session id (its buffers are dropped as it
// ends).
func (s *Server) closeSession(id string) {
	for ss := range s.srv.Sessions() {
		if ss.ID() == id {
			ss.Close()
			return
		}
	}
}

// errBodyRoom: the bodies held take all the room there is.
var errBodyRoom = errors.New("no room")

// take reserves n bytes of body room; false when there is not.
func (c *httpChecks) take(n int64) bool {
	c.bodyMu.Lock()
	defer c.bodyMu.Unlock()
	if n > c.bodyRoom {
		return false
	}
	c.bodyRoom -= n
	return true
}

func (c *httpChecks) give(n int64) {
	c.bodyMu.Lock()
	c.bodyRoom += n
	c.bodyMu.Unlock()
}

// readBody reads a request body of at most limit bytes (more is cut at
// limit+1, for the SDK to refuse), within BodyReadTimeout, its memory taken
// from the room of all bodies as it grows. held is what it took, to give
// back once the request is answered. A body that does not arrive whole
// leaves the read deadline passed: nothing more is read of it.
func (c *httpChecks) readBody(w http.ResponseWriter, r *http.Request, limit int64) (body []byte, held int64, err error) {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(BodyReadTimeout))
	var buf bytes.Buffer
	chunk := make([]byte, 32<<10)
	if !c.take(int64(len(chunk))) {
		return nil, 0, errBodyRoom
	}
	held = int64(len(chunk))
	in := io.LimitReader(r.Body, limit+1)
	for {
		n, rerr := in.Read(chunk)
		if n > 0 {
			if grow := int64(buf.Len()+n) - int64(buf.Cap()); grow > 0 {
				want := int64(max(2*buf.Cap(), buf.Len()+n)) - int64(buf.Cap()) // what bytes.Buffer will take
				if !c.take(want) {
					return nil, held, errBodyRoom
				}
				held += want
			}
			buf.Write(chunk[:n])
		}
		if rerr == io.EOF {
			_ = rc.SetReadDeadline(time.Time{}) // whole: the call may take its time
			return buf.Bytes(), held, nil
		}
		if rerr != nil {
			return nil, held, rerr
		}
	}
}

// callKey names a call in flight: its session and its JSON-RPC id.
type callKey struct {
	session string
	id      jsonrpc.ID
}

// ServeHTTP checks a request before the SDK serves it: its Host, its
// token and its Origin; a POST's body is read whole within its time, and
// a JSON-RPC call is checked for its session and method (see route).
func (c *httpChecks) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !c.admitted(w, r) {
		return
	}
	if id := r.Header.Get("Mcp-Session-Id"); id != "" {
		switch r.Method {
		case http.MethodPost:
			defer c.sessions.begin(id)()
		case http.MethodDelete:
			defer c.sessions.forget(id)
		}
	}
	if r.Method != http.MethodPost || r.Body == nil {
		c.next.ServeHTTP(w, r)
		return
	}
	body, held, err := c.readBody(w, r, mcp.DefaultMaxRequestBodyBytes)
	defer c.give(held)
	if errors.Is(err, errBodyRoom) {
		w.Header().Set("Retry-After", "2")
		w.Header().Set("Connection", "close")
		http.Error(w, "Service Unavailable: the server holds as many request bodies as it may at once; send the request again in a few seconds", http.StatusServiceUnavailable)
		return
	}
	if err != nil {
		w.Header().Set("Connection", "close") // what is left of the body is not read
		http.Error(w, fmt.Sprintf("Bad Request: the body did not arrive whole within %s", BodyReadTimeout), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	c.route(w, r, body)
}

// admitted checks the request's Host (on a loopback address, one of the
// server's names), its token and its Origin, and answers it when one is
// not the server's.
func (c *httpChecks) admitted(w http.ResponseWriter, r *http.Request) bool {
	if local, ok := localAddr(r); ok && isLoopback(local.Hostname()) && !ownHost(r.Host, local.Port()) {
		http.Error(w, fmt.Sprintf("Misdirected Request: Host %s is not this server's: on a loopback address recap mcp answers localhost:%s, 127.0.0.1:%s and [::1]:%s only", cutHost(r.Host), local.Port(), local.Port(), local.Port()), http.StatusMisdirectedRequest)
		return false
	}
	if c.token != nil && !c.authorized(r.Header.Get("Authorization")) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="recap mcp"`)
		http.Error(w, "Unauthorized: this server needs the header Authorization: Bearer TOKEN, with the token it was started with (--http-token or RECAP_HTTP_TOKEN)", http.StatusUnauthorized)
		return false
	}
	if origin := r.Header.Get("Origin"); origin != "" && !c.trusted(origin, r) {
		http.Error(w, fmt.Sprintf("Forbidden: Origin %s is not this server's: recap mcp serves browser pages of its own origin only (see --allow-origin)", cutHost(origin)), http.StatusForbidden)
		return false
	}
	return true
}

// route serves a POST whose body is read: a JSON-RPC message without a
// session but initialize, or of an unknown method, is answered here; a new
// session is admitted within the bound; a cancellation ends its call; a
// tool call can be cancelled. The rest (a batch, a response, no JSON) is
// the SDK's.
func (c *httpChecks) route(w http.ResponseWriter, r *http.Request, body []byte) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Method == "" { // a batch, a response, or no JSON: the SDK's
		c.next.ServeHTTP(w, r)
		return
	}
	isCall := len(msg.ID) > 0 && string(msg.ID) != "null"
	id := jsonrpcID(msg.ID)
	session := r.Header.Get("Mcp-Session-Id")
	switch {
	case session == "" && msg.Method != "initialize":
		writeRPCError(w, http.StatusBadRequest, id, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("Bad Request: %s needs the Mcp-Session-Id header of a session: initialize one first", cut(msg.Method)))
		return
	case !knownMethods[msg.Method]:
		if !isCall { // an unknown notification is dropped
			w.WriteHeader(http.StatusAccepted)
			return
		}
		writeRPCError(w, http.StatusOK, id, jsonrpc.CodeMethodNotFound, fmt.Sprintf("Method not found: %q", cut(msg.Method)))
		return
	case session == "" && msg.Method == "initialize":
		c.initialize(w, r, id)
		return
	case msg.Method == "notifications/cancelled":
		c.cancel(session, msg.Params)
	case msg.Method == "tools/call" && isCall && session != "":
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		defer c.calling(callKey{session, id}, cancel)()
		r = r.WithContext(ctx)
	}
	c.next.ServeHTTP(w, r)
}

// initialize admits a new session within the bound of sessions, closing
// the least recently used idle one when it must.
func (c *httpChecks) initialize(w http.ResponseWriter, r *http.Request, id jsonrpc.ID) {
	made, closed, err := c.sessions.admit()
	if err != nil {
		writeRPCError(w, http.StatusServiceUnavailable, id, jsonrpc.CodeInternalError,
			fmt.Sprintf("Service Unavailable: the server has %d sessions open, its bound, and each is serving a request: try again when one ends, or end a session of yours (DELETE with its Mcp-Session-Id)", c.sessions.max))
		return
	}
	if closed != "" {
		c.log.Info("closed the least recently used HTTP session for a new one", "closed", closed, "bound", c.sessions.max)
	}
	c.next.ServeHTTP(w, r)
	made(w.Header().Get("Mcp-Session-Id"))
}

// cancel ends the call in flight that a notifications/cancelled of the
// session names: its POST ends without its answer.
func (c *httpChecks) cancel(session string, params json.RawMessage) {
	cid, ok := cancelledID(params)
	if !ok {
		return
	}
	c.mu.Lock()
	cancel := c.calls[callKey{session, cid}]
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// calling notes a tool call in flight, which cancel can end, until the
// function it returns is called.
func (c *httpChecks) calling(k callKey, cancel context.CancelFunc) func() {
	c.mu.Lock()
	c.calls[k] = cancel
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		delete(c.calls, k)
		c.mu.Unlock()
	}
}

// trusted reports whether a request's Origin is the server's own (its Host,
// or a loopback name with the port of the address it came in on) or allowed.
func (c *httpChecks) trusted(origin string, r *http.Request) bool {
	o := strings.TrimSuffix(strings.ToLower(origin), "/")
	if c.allowed[o] {
		return true
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false // "null" among them
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	_, localPort, err := net.SplitHostPort(local.String())
	if err != nil {
		return false
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	if port != localPort {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// hostPort is an address split in its host and port.
type hostPort struct{ host, port string }

func (a hostPort) Hostname() string { return a.host }
func (a hostPort) Port() string     { return a.port }

// localAddr is the address a request came in on.
func localAddr(r *http.Request) (hostPort, bool) {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil {
		return hostPort{}, false
	}
	host, port, err := net.SplitHostPort(local.String())
	if err != nil {
		return hostPort{}, false
	}
	return hostPort{host, port}, true
}

// isLoopback reports whether host is a loopback name or address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// ownHost reports whether a request's Host names this server on loopback:
// a loopback name with the port it listens on (80 when Host gives none).
func ownHost(host, port string) bool {
	h, p, err := net.SplitHostPort(host)
	if err != nil {
		h, p = host, "80"
	}
	return isLoopback(h) && p == port
}

// cutHost shortens a Host header quoted in a message.
func cutHost(h string) string { return cut(strings.ToValidUTF8(h, "?")) }

// IsLoopbackAddr reports whether a listening address (host:port, or a
// host) is on loopback only: its host is localhost or a loopback IP.
// An empty host (every interface) is not.
func IsLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	return host != "" && isLoopback(host)
}

// knownMethods are the JSON-RPC methods an MCP server takes (those of the
// go-sdk's server).
var knownMethods = map[string]bool{
	"initialize": true, "ping": true, "server/discover": true,
	"tools/list": true, "tools/call": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
	"resources/subscribe": true, "resources/unsubscribe": true, "subscriptions/listen": true,
	"prompts/list": true, "prompts/get": true, "completion/complete": true, "logging/setLevel": true,
	"notifications/initialized": true, "notifications/cancelled": true,
	"notifications/progress": true, "notifications/roots/list_changed": true,
}

// jsonrpcID reads a JSON-RPC id (a string or an integer); the zero ID when
// there is none.
func jsonrpcID(raw json.RawMessage) jsonrpc.ID {
	var v any
	if json.Unmarshal(raw, &v) != nil || v == nil {
		return jsonrpc.ID{}
	}
	id, _ := jsonrpc.MakeID(v)
	return id
}

// writeRPCError answers with a JSON-RPC error object.
func writeRPCError(w http.ResponseWriter, status int, id jsonrpc.ID, code int, msg string) {
	resp := map[string]any{"jsonrpc": "2.0", "id": id.Raw(), "error": map[string]any{"code": code, "message": msg}}
	b, _ := json.Marshal(resp)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
