package mcpserver

import (
	"context"
	"testing"
)

// TestUnwatch: a parse a call waited for, then parses again (it ended
// without a report, cancelled by the calls that left it), no longer
// counts in the call's progress, whether it is still listed or already
// folded into the sums: its file counts once (TestCancel saw a total of
// twice the report's size).
func TestUnwatch(t *testing.T) {
	for _, folded := range []bool{false, true} {
		p := &callProgress{}
		ctx := context.WithValue(context.Background(), progressKey{}, p)
		cancelled := &cacheEntry{ready: make(chan struct{}), size: 100}
		cancelled.read.Store(40)
		close(cancelled.ready)
		watch(ctx, cancelled)
		if folded {
			p.mu.Lock()
			p.fold()
			p.mu.Unlock()
		}
		again := &cacheEntry{ready: make(chan struct{}), size: 100}
		again.read.Store(10)
		unwatch(ctx, cancelled)
		watch(ctx, again)
		if read, total := p.state(); read != 10 || total != 100 {
			t.Errorf("folded %v: progress %d of %d, want 10 of 100", folded, read, total)
		}
	}
}
