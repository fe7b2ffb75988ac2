package mcpserver

import (
	"container/list"
	"context"
	"errors"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/pipeline"
)

// sessions names each MCP session the server serves (standard input and
// output is one session; over HTTP each Mcp-Session-Id is one), so that a
// result buffer is paged only in the session that made it, and dropped when
// that session ends.
type sessions struct {
	mu    sync.Mutex
	keys  map[*mcp.ServerSession]string
	next  int
	ended func(key string) // called once a session has ended
}

// key returns the name of ss, registering it on first sight: its buffers
// are dropped when it ends. A nil session (a direct call in tests) is "".
func (s *sessions) key(ss *mcp.ServerSession) string {
	if ss == nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if k, ok := s.keys[ss]; ok {
		return k
	}
	if s.keys == nil {
		s.keys = map[*mcp.ServerSession]string{}
	}
	s.next++
	k := "s" + strconv.Itoa(s.next)
	s.keys[ss] = k
	go func() {
		_ = ss.Wait()
		s.mu.Lock()
		delete(s.keys, ss)
		s.mu.Unlock()
		if s.ended != nil {
			s.ended(k)
		}
	}()
	return k
}

// live returns the number of sessions seen and not ended.
func (s *sessions) live() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.keys)
}

type sessionKey struct{}

// withSession records the name of the call's session in ctx.
func withSession(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, sessionKey{}, key)
}

// sessionName returns the name of the session of ctx ("" outside a session).
func sessionName(ctx context.Context) string {
	k, _ := ctx.Value(sessionKey{}).(string)
	return k
}

// getFor returns the live buffer with this id if the session owner made it,
// or nil: a buffer id is no capability outside its session.
func (s *bufferStore) getFor(id, owner string) *buffer {
	s.mu.Lock()
	b := s.byID[id]
	s.mu.Unlock()
	if b == nil || b.owner != owner { // another session's use keeps it no longer alive
		return nil
	}
	return s.get(id)
}

// dropOwner drops the buffers of a session that ended.
func (s *bufferStore) dropOwner(owner string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.byID {
		if b.owner == owner {
			s.drop(b)
		}
	}
}

// recentQueries remembers, for each session, the reports and the baseline
// its last analysis.getReports read (paths relative to the root): a
// fingerprint names a finding of those reports first, never a baseline's
// copy of it while another report has it.
type recentQueries struct {
	mu sync.Mutex
	m  map[string]recentQuery
}

type recentQuery struct {
	reports   []string
	baselines map[string]bool
	grouped   *pipeline.Grouped // its problems: which findings repeat which (nil: not grouped)
}

// set records a session's last query.
func (q *recentQueries) set(session string, reports, baselines []file) {
	rq := recentQuery{baselines: map[string]bool{}, reports: make([]string, 0, len(reports))}
	for _, f := range reports {
		rq.reports = append(rq.reports, f.rel)
	}
	for _, f := range baselines {
		rq.baselines[f.rel] = true
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.m == nil {
		q.m = map[string]recentQuery{}
	}
	q.m[session] = rq
}

// setGrouped records the problems of a session's last query.
func (q *recentQueries) setGrouped(session string, g *pipeline.Grouped) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if rq, ok := q.m[session]; ok {
		rq.grouped = g
		q.m[session] = rq
	}
}

// get returns a session's last query.
func (q *recentQueries) get(session string) recentQuery {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.m[session]
}

// drop forgets an ended session.
func (q *recentQueries) drop(session string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.m, session)
}

// DefaultMaxSessions bounds the HTTP sessions open at once. A session the
// client abandons costs about 9 KiB until it is closed (the SDK's session,
// its transport and their goroutines; 60,000 cost 496 MiB), and lives
// SessionIdle without a request: 1,000 of them hold about 9 MiB. Its
// result buffers are the buffer store's, bounded for all sessions
// together (DefaultMaxBufferBytes).
const DefaultMaxSessions = 1000

// httpSessions are the HTTP sessions open, least recently used first: a new
// session past the bound closes the one whose last request is the oldest
// among those without a request in flight.
type httpSessions struct {
	max int
	// live gives the ids of the sessions open (the SDK's; a session ended
	// by its client or its idle time is not among them), close closes one.
	live  func() map[string]bool
	close func(id string)

	mu      sync.Mutex
	order   *list.List // of *httpSession, least recently used first
	byID    map[string]*list.Element
	pending int // sessions being made
}

type httpSession struct {
	id   string
	busy int // requests in flight
}

func newHTTPSessions(max int, live func() map[string]bool, close func(string)) *httpSessions {
	return &httpSessions{max: max, live: live, close: close, order: list.New(), byID: map[string]*list.Element{}}
}

// errSessionsFull: every session is serving a request; none may be closed.
var errSessionsFull = errors.New("full")

// admit makes room for a new session: past the bound, the sessions ended
// on their own are forgotten, then the least recently used one without a
// request in flight is closed (its buffers go with it). errSessionsFull
// when each is serving a request. made ends the admission with the new
// session's id ("" when none was made).
func (h *httpSessions) admit() (made func(id string), closed string, err error) {
	h.mu.Lock()
	if len(h.byID)+h.pending >= h.max {
		h.mu.Unlock()
		live := h.live() // outside the lock: the SDK locks its own
		h.mu.Lock()
		for e := h.order.Front(); e != nil; {
			next := e.Next()
			if s := e.Value.(*httpSession); !live[s.id] && s.busy == 0 {
				h.order.Remove(e)
				delete(h.byID, s.id)
			}
			e = next
		}
	}
	if len(h.byID)+h.pending >= h.max {
		for e := h.order.Front(); e != nil; e = e.Next() {
			if s := e.Value.(*httpSession); s.busy == 0 {
				h.order.Remove(e)
				delete(h.byID, s.id)
				closed = s.id
				break
			}
		}
		if closed == "" {
			h.mu.Unlock()
			return nil, "", errSessionsFull
		}
	}
	h.pending++
	h.mu.Unlock()
	if closed != "" {
		h.close(closed)
	}
	return func(id string) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.pending--
		if id != "" && h.byID[id] == nil {
			h.byID[id] = h.order.PushBack(&httpSession{id: id})
		}
	}, closed, nil
}

// begin marks a request of session id in flight (the session is not
// closed for another meanwhile); end marks its end, and the session the
// most recently used.
func (h *httpSessions) begin(id string) (end func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e := h.byID[id]
	if e == nil {
		return func() {}
	}
	s := e.Value.(*httpSession)
	s.busy++
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		s.busy--
		if e, ok := h.byID[s.id]; ok {
			h.order.MoveToBack(e)
		}
	}
}

// forget drops a session its client ended (DELETE).
func (h *httpSessions) forget(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if e := h.byID[id]; e != nil {
		h.order.Remove(e)
		delete(h.byID, id)
	}
}

// listedIDs are, by report tag, the digest of the report whose findings'
// ids the server last gave (analysis.getReports, analysis.getFinding): an
// id of a report that changed since then was listed from other content,
// and may name another finding now.
type listedIDs struct {
	mu sync.Mutex
	m  map[string]uint64
}

// note records that the ids of reps (nil ones: read as they go, not
// known) were given.
func (l *listedIDs) note(reps ...*report) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range reps {
		if r == nil || r.digest == 0 {
			continue
		}
		if l.m == nil {
			l.m = map[string]uint64{}
		}
		l.m[r.tag] = r.digest
	}
}

// changed says whether the report of that tag, of that digest now, had
// other content when its ids were last given (false when they were not,
// or it is not known).
func (l *listedIDs) changed(tag string, digest uint64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	was, ok := l.m[tag]
	return ok && digest != 0 && was != digest
}
