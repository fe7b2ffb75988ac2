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

// TestCacheCancelledParse: callers of one report share its parse. A caller
// whose ctx ends leaves at once; the parse goes on for the callers still
// waiting, who get the report whole; when the last one leaves, the parse
// stops and keeps nothing in the cache.
func TestCacheCancelledParse(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.sarif")
	reportstest.BigSARIF(t, path, 100_000)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	f := file{abs: path, rel: "big.sarif", info: info}
	rt := rootAt(t, dir)
	for _, c := range []struct {
		name    string
		callers int // callers, the first of whom is cancelled
		cancel  int // how many are cancelled
	}{
		{"the one caller leaves", 1, 1},
		{"one of two leaves", 2, 1},
		{"one of five leaves", 5, 1},
		{"both leave", 2, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			cache := newReportCache(1<<30, time.Now)
			type got struct {
				r      *report
				parsed bool
				err    error
				at     time.Time
			}
			out := make([]chan got, c.callers)
			cancels := make([]context.CancelFunc, c.callers)
			for i := range c.callers {
				ctx, cancel := context.WithCancel(context.Background())
				cancels[i], out[i] = cancel, make(chan got, 1)
				go func() {
					r, parsed, err := cache.get(ctx, f, rt, "")
					out[i] <- got{r, parsed, err, time.Now()}
				}()
				if i == 0 { // the others come once the parse has read something
					waitRead(t, cache, path)
				}
			}
			time.Sleep(20 * time.Millisecond)
			e := entry(cache, path)
			cancelled := time.Now()
			for i := range c.cancel {
				cancels[i]()
			}
			for i := range c.cancel {
				g := <-out[i]
				if !errors.Is(g.err, context.Canceled) || g.r != nil {
					t.Errorf("caller %d, cancelled: %v, %v", i, g.err, g.r)
				}
				if d := g.at.Sub(cancelled); d > 500*time.Millisecond {
					t.Errorf("caller %d left %s after its cancel", i, d)
				}
			}
			if c.cancel == c.callers {
				<-e.ready
				if read := e.read.Load(); read >= info.Size() {
					t.Errorf("the parse no one waits for read all %d bytes", read)
				}
				if n := len(cache.entries); n != 0 {
					t.Errorf("%d cache entries after a parse every caller left", n)
				}
				return
			}
			for i := c.cancel; i < c.callers; i++ {
				g := <-out[i]
				if g.err != nil || g.parsed || g.r == nil || g.r.n != 100_000 || g.r.input.Error != "" {
					t.Fatalf("caller %d, waiting: parsed %v, err %v", i, g.parsed, g.err)
				}
			}
			cache.mu.Lock()
			defer cache.mu.Unlock()
			if n, pins := len(cache.entries), e.pins; n != 1 || pins != c.callers-c.cancel || e.handed != 0 {
				t.Errorf("%d cache entries, %d pins (%d handed), want 1 entry pinned by the %d callers left", n, pins, e.handed, c.callers-c.cancel)
			}
		})
	}
}

// waitRead waits until the parse of path has read something.
func waitRead(t *testing.T, c *reportCache, path string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		if e := entry(c, path); e != nil && e.read.Load() > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the parse did not start")
		}
		time.Sleep(time.Millisecond)
	}
}

func entry(c *reportCache, path string) *cacheEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[path]
}
