package mcpserver

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestCacheIdle: the cache's count of the reports no call uses, which
// evict trusts to look for one only when there is one, stays the count of
// its entries through gets, unpins, eviction and a changed file; and
// eviction still makes room once reports are unpinned.
func TestCacheIdle(t *testing.T) {
	dir := t.TempDir()
	rt := rootAt(t, dir)
	files := make([]file, 6)
	write := func(i int, msg string) { files[i] = tinyReport(t, rt, dir, i, msg) }
	for i := range files {
		write(i, "m")
	}
	c := newReportCache(1<<30, time.Now)
	check := func(when string) {
		t.Helper()
		c.mu.Lock()
		defer c.mu.Unlock()
		n := 0
		for _, e := range c.entries {
			select {
			case <-e.ready:
				if e.r != nil && e.pins == 0 {
					n++
				}
			default:
			}
		}
		if c.idle != n {
			t.Fatalf("%s: idle %d, want %d", when, c.idle, n)
		}
	}
	get := func(i int) *report {
		t.Helper()
		r, _, err := c.get(context.Background(), files[i], rt, "")
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	var reps []*report
	for i := range files {
		reps = append(reps, get(i))
		check(fmt.Sprintf("get %d", i))
	}
	c.unpin(reps[:3]...)
	check("three unpinned")
	again := get(1) // pinned again
	check("one pinned again")
	c.unpin(again)
	check("unpinned again")
	write(2, "changed") // stale: dropped and read again
	reps[2] = get(2)
	check("a changed file read again")
	c.mu.Lock()
	c.maxBytes = c.total / 2 // room for about half: the idle ones go
	ok := c.evict("", 0)
	c.mu.Unlock()
	check("evicted")
	if kept, _ := c.held(); ok || kept != 4 {
		t.Errorf("evict: %v, %d kept; want false (the pinned ones stay) with 4 kept", ok, kept)
	}
	c.unpin(reps[2:]...)
	check("all unpinned")
	c.mu.Lock()
	ok = c.evict("", 0)
	c.mu.Unlock()
	check("evicted again")
	if !ok {
		t.Error("evict: no room made once every report was unpinned")
	}
}
