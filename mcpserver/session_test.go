package mcpserver

import (
	"errors"
	"testing"
)

// TestHTTPSessionsAdmit: past the bound, sessions ended on their own are
// forgotten first, then the least recently used one without a request in
// flight is closed; when each has one, no session is made.
func TestHTTPSessionsAdmit(t *testing.T) {
	tests := map[string]struct {
		open   []string        // made in this order
		used   []string        // then used, in this order
		busy   []string        // with a request in flight
		ended  map[string]bool // ended on their own
		closed string          // closed for the next one ("": none)
		full   bool
	}{
		"room left":                    {open: []string{"a", "b"}},
		"the least recently made":      {open: []string{"a", "b", "c"}, closed: "a"},
		"the least recently used":      {open: []string{"a", "b", "c"}, used: []string{"a", "b"}, closed: "c"},
		"not one with a request":       {open: []string{"a", "b", "c"}, busy: []string{"a"}, closed: "b"},
		"an ended one is forgotten":    {open: []string{"a", "b", "c"}, ended: map[string]bool{"b": true}},
		"each with a request: refused": {open: []string{"a", "b", "c"}, busy: []string{"a", "b", "c"}, full: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var closed []string
			h := newHTTPSessions(3, func() map[string]bool {
				live := map[string]bool{}
				for _, id := range tc.open {
					live[id] = !tc.ended[id]
				}
				return live
			}, func(id string) { closed = append(closed, id) })
			for _, id := range tc.open {
				made, _, err := h.admit()
				if err != nil {
					t.Fatal(err)
				}
				made(id)
			}
			for _, id := range tc.used {
				h.begin(id)()
			}
			for _, id := range tc.busy {
				h.begin(id)
			}
			made, got, err := h.admit()
			if tc.full {
				if !errors.Is(err, errSessionsFull) || len(closed) > 0 {
					t.Fatalf("admit: %v, closed %v; want refused, none closed", err, closed)
				}
				return
			}
			if err != nil || got != tc.closed || (tc.closed == "") != (len(closed) == 0) {
				t.Fatalf("admit: closed %q (%v), %v; want %q", got, closed, err, tc.closed)
			}
			made("new")
			if n := h.open(); n > 3 {
				t.Errorf("%d sessions open, bound 3", n)
			}
		})
	}
}

// open counts the sessions known open.
func (h *httpSessions) open() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.byID)
}
