package mcpserver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/recap-dev/recap/internal/reportstest"
)

// TestCacheCancelledParse: a parse whose call is cancelled stops, keeps
// nothing in the cache, and a caller that was waiting for it parses the
// report itself, whole.
func TestCacheCancelledParse(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.sarif")
	reportstest.BigSARIF(t, path, 100_000)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	f := file{abs: path, rel: "big.sarif", info: info}
	c := newReportCache(1<<30, time.Now)
	rt := rootAt(t, dir)

	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, _, err := c.get(ctx, f, rt, "")
		first <- err
	}()
	// Once the first parse has read something, a second caller waits for it.
	var e *cacheEntry
	for deadline := time.Now().Add(10 * time.Second); ; {
		c.mu.Lock()
		e = c.entries[path]
		c.mu.Unlock()
		if e != nil && e.read.Load() > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the parse did not start")
		}
		time.Sleep(time.Millisecond)
	}
	type got struct {
		r      *report
		parsed bool
		err    error
	}
	second := make(chan got, 1)
	go func() {
		r, parsed, err := c.get(context.Background(), f, rt, "")
		second <- got{r, parsed, err}
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-first; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled parse: %v", err)
	}
	if read := e.read.Load(); read >= info.Size() {
		t.Errorf("the cancelled parse read all %d bytes", read)
	}
	g := <-second
	if g.err != nil || !g.parsed || g.r == nil || g.r.n != 100_000 || g.r.input.Error != "" {
		t.Fatalf("the waiting caller: parsed %v, err %v, report %+v", g.parsed, g.err, g.r)
	}
	c.mu.Lock()
	n := len(c.entries)
	c.mu.Unlock()
	if n != 1 {
		t.Errorf("%d cache entries, want the whole report's 1", n)
	}
}
