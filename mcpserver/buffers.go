package mcpserver

import (
	"crypto/rand"
	"encoding/hex"
	"sort"
	"sync"
	"time"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// ref is one finding of a buffer: its report and its index there.
type ref struct {
	report int32
	index  int32
}

// buffer is the result of one getReports query, kept so that its pages are
// served without reading or filtering the reports again: the summary, the
// inputs' status, and the matching findings in view order.
type buffer struct {
	id      string
	key     string // the query's key; "" when the query cannot be reused
	owner   string // the session that made it (see sessions)
	reports []*report
	refs    []ref
	summary summarize.Summary
	inputs  []summarize.InputStatus
	bytes   int64
	used    time.Time
}

func (b *buffer) finding(r ref) *reports.Finding {
	return b.reports[r.report].at(int(r.index))
}

// buildBuffer filters the reports' findings into a buffer, counted and in
// view order.
func buildBuffer(reps []*report, keep func(*reports.Finding) bool) *buffer {
	b := &buffer{reports: reps}
	c := summarize.NewCollector()
	inputs := make([]reports.Input, len(reps))
	for ri, r := range reps {
		inputs[ri] = r.input
		for i := 0; i < r.n; i++ {
			f := r.at(i)
			if keep(f) {
				c.Add(*f)
				b.refs = append(b.refs, ref{int32(ri), int32(i)})
			}
		}
	}
	sort.Slice(b.refs, func(i, j int) bool { return reports.Less(b.finding(b.refs[i]), b.finding(b.refs[j])) })
	v := c.View(inputs)
	b.summary, b.inputs = v.Summary, v.Inputs
	b.bytes = int64(len(b.refs))*8 + 4096
	return b
}

// bufferStore keeps result buffers: each expires after ttl without use, and
// the store holds at most max buffers and maxBytes of them, dropping the
// least recently used first.
type bufferStore struct {
	ttl      time.Duration
	max      int
	maxBytes int64
	now      func() time.Time

	mu    sync.Mutex
	byID  map[string]*buffer
	byKey map[string]*buffer
	total int64
}

func newBufferStore(ttl time.Duration, max int, maxBytes int64, now func() time.Time) *bufferStore {
	return &bufferStore{ttl: ttl, max: max, maxBytes: maxBytes, now: now, byID: map[string]*buffer{}, byKey: map[string]*buffer{}}
}

// get returns the live buffer with this id, or nil.
func (s *bufferStore) get(id string) *buffer {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	b := s.byID[id]
	if b != nil {
		b.used = s.now()
	}
	return b
}

// lookup returns the live buffer of a query key, or nil.
func (s *bufferStore) lookup(key string) *buffer {
	if key == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	b := s.byKey[key]
	if b != nil {
		b.used = s.now()
	}
	return b
}

// put stores b under a new id, dropping old buffers past the bounds.
func (s *bufferStore) put(b *buffer) {
	var raw [6]byte
	_, _ = rand.Read(raw[:])
	b.id = "b" + hex.EncodeToString(raw[:])
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	b.used = s.now()
	if old := s.byKey[b.key]; old != nil && b.key != "" {
		s.drop(old)
	}
	s.byID[b.id] = b
	if b.key != "" {
		s.byKey[b.key] = b
	}
	s.total += b.bytes
	for len(s.byID) > s.max || (s.total > s.maxBytes && len(s.byID) > 1) {
		var oldest *buffer
		for _, x := range s.byID {
			if x != b && (oldest == nil || x.used.Before(oldest.used)) {
				oldest = x
			}
		}
		if oldest == nil {
			break
		}
		s.drop(oldest)
	}
}

// len returns the number of live buffers.
func (s *bufferStore) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	return len(s.byID)
}

// expire drops the buffers idle for longer than ttl; s.mu is held.
func (s *bufferStore) expire() {
	now := s.now()
	for _, b := range s.byID {
		if now.Sub(b.used) > s.ttl {
			s.drop(b)
		}
	}
}

func (s *bufferStore) drop(b *buffer) {
	delete(s.byID, b.id)
	if b.key != "" && s.byKey[b.key] == b {
		delete(s.byKey, b.key)
	}
	s.total -= b.bytes
}
