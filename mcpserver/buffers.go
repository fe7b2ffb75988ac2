package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sort"
	"sync"
	"time"
	"unsafe"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// ref is one finding of a buffer: its report and its index there, and its
// state against the query's baseline.
type ref struct {
	report int32
	index  int32
	state  uint8
}

// The states of a ref against a baseline: none, new or unchanged.
const (
	stateNone uint8 = iota
	stateNew
	stateUnchanged
)

func stateOf(s string) uint8 {
	switch s {
	case reports.BaselineNew:
		return stateNew
	case reports.BaselineUnchanged:
		return stateUnchanged
	}
	return stateNone
}

// baseline is the finding's state against the query's baseline, "" without one.
func (r ref) baseline() string {
	switch r.state {
	case stateNew:
		return reports.BaselineNew
	case stateUnchanged:
		return reports.BaselineUnchanged
	}
	return ""
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
	inputs  []reports.Input
	bytes   int64
	used    time.Time
}

func (b *buffer) finding(r ref) *reports.Finding {
	return b.reports[r.report].at(int(r.index))
}

// sort puts the buffer's findings in view order and prices the buffer.
func (b *buffer) sort() {
	sort.Slice(b.refs, func(i, j int) bool { return reports.Less(b.finding(b.refs[i]), b.finding(b.refs[j])) })
	b.bytes = int64(len(b.refs))*int64(unsafe.Sizeof(ref{})) + 4096
}

// cached is a [pipeline.Source] over parsed reports: it hands out their
// findings in order, and at says which one it is handing out.
type cached struct {
	reps []*report
	at   ref
}

// Read implements [pipeline.Source].
func (c *cached) Read(ctx context.Context, keep func(*reports.Finding) bool, emit func(*reports.Finding) error) ([]reports.Input, error) {
	inputs := make([]reports.Input, len(c.reps))
	for ri, r := range c.reps {
		inputs[ri] = r.input
		for i := 0; i < r.n; i++ {
			if i%chunkLen == 0 {
				if err := ctx.Err(); err != nil {
					return inputs, err
				}
			}
			f := r.at(i)
			if !keep(f) {
				continue
			}
			c.at = ref{report: int32(ri), index: int32(i)}
			if err := emit(f); err != nil {
				return inputs, err
			}
		}
	}
	return inputs, nil
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
