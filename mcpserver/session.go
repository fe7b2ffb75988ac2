package mcpserver

import (
	"context"
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
	rq := recentQuery{baselines: map[string]bool{}}
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
