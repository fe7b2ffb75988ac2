package mcpserver

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

// tagLen is the length of a report's id tag: 40 bits of its path's hash.
const tagLen = 8

// reportCache keeps parsed reports by path, size and modification time, so
// that a second call does not parse again. It is bounded in the bytes the
// reports really hold (see report): a parse asks for its memory as it
// grows, the least recently used reports going first to make room; a
// report that does not fit even alone stops its parse and is not kept
// (errTooLarge: the call reads it as it goes, see stream). A report that
// leaves the cache takes the result buffers that refer to it along (evicted),
// so that what the cache counts is what the server holds.
type reportCache struct {
	maxBytes int64
	now      func() time.Time
	evicted  func(*report) // called with c.mu held; nil: nothing

	mu      sync.Mutex
	entries map[string]*cacheEntry // by absolute path
	total   int64                  // bytes of the reports kept and of the parses under way
	// idle counts the kept reports no call uses (pins 0): evict looks
	// for the oldest only when there is one, so that a call that pins
	// 200,000 reports past the bound does not scan them all for each.
	idle int
}

type cacheEntry struct {
	ready chan struct{} // closed when r is set, the report is too large, or the parse was cancelled (r nil)
	r     *report
	pins  int          // calls using r: not evicted while they run (guarded by the cache's mutex)
	big   bool         // the report did not fit the cache: not kept, read by each call
	info  [2]int64     // size and modification time (ns) of the file that was too large
	read  atomic.Int64 // bytes of the file read so far by its parse (progress)
	size  int64        // bytes of the file
}

func newReportCache(maxBytes int64, now func() time.Time) *reportCache {
	return &reportCache{maxBytes: maxBytes, now: now, entries: map[string]*cacheEntry{}}
}

// get returns the report at f, parsed now or earlier, pinned: it stays in
// the cache until unpin; concurrent callers of the same report wait for one
// parse. parsed says whether this call parsed. A parse whose ctx ends stops
// at once and leaves nothing behind: the callers waiting for it parse
// again, each with its own ctx. A report that does not fit gives
// errTooLarge: at once the next times while the file is unchanged when it
// is larger than the cache, or again after a parse when there was no room
// beside the reports that calls under way use.
func (c *reportCache) get(ctx context.Context, f file, rt *root, format parsers.Format) (r *report, parsed bool, err error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		c.mu.Lock()
		e, ok := c.entries[f.abs]
		if ok {
			c.mu.Unlock()
			select {
			case <-e.ready:
			default:
				watch(ctx, e) // the progress of the parse this call waits for
				select {
				case <-e.ready:
				case <-ctx.Done():
					return nil, false, ctx.Err()
				}
			}
			if e.big && e.info == [2]int64{f.info.Size(), f.info.ModTime().UnixNano()} {
				return nil, false, errTooLarge
			}
			c.mu.Lock()
			if e.r != nil && e.r.size == f.info.Size() && e.r.mtime.Equal(f.info.ModTime()) && c.entries[f.abs] == e {
				e.r.used = c.now()
				if e.pins == 0 {
					c.idle--
				}
				e.pins++
				c.mu.Unlock()
				return e.r, false, nil
			}
			if c.entries[f.abs] == e { // stale: drop it and parse again
				c.drop(f.abs)
			}
			c.mu.Unlock()
			continue
		}
		e = &cacheEntry{ready: make(chan struct{}), size: f.info.Size()}
		c.entries[f.abs] = e
		c.mu.Unlock()

		watch(ctx, e)
		r, err = parse(ctx, f, rt, format, &e.read, func(n int64) bool { return c.admit(n, f.abs) })
		c.mu.Lock()
		if r != nil {
			c.total -= r.admitted // counted again below, whole, when the report is kept
		}
		switch {
		case errors.Is(err, errTooLarge) && r.admitted > c.maxBytes: // larger than the cache: known until the file changes
			e.big, e.info = true, [2]int64{f.info.Size(), f.info.ModTime().UnixNano()}
			close(e.ready)
			c.mu.Unlock()
			return nil, false, err
		case err != nil: // cancelled, or no room beside the reports other calls use: a half-read report is not kept
			if c.entries[f.abs] == e {
				delete(c.entries, f.abs)
			}
			close(e.ready)
			c.mu.Unlock()
			return nil, false, err
		}
		r.used, r.abs = c.now(), f.abs
		e.r = r
		e.pins++
		close(e.ready)
		c.total += r.bytes
		c.evict(f.abs, 0)
		c.mu.Unlock()
		return r, true, nil
	}
}

// admit counts n more bytes for the parse of keep, making room by
// dropping the least recently used reports; false when the cache cannot
// hold them even so (the parse then stops). The bytes stay counted until
// the parse ends.
func (c *reportCache) admit(n int64, keep string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total += n
	return c.evict(keep, 0)
}

// unpin ends a call's use of reports that get returned.
func (c *reportCache) unpin(reps ...*report) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range reps {
		if r == nil {
			continue
		}
		if e := c.entries[r.abs]; e != nil && e.r == r && e.pins > 0 {
			e.pins--
			if e.pins == 0 {
				c.idle++
			}
		}
	}
}

// byTag returns a cached report with this id tag.
func (c *reportCache) byTag(tag string) *report {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		select {
		case <-e.ready:
			if e.r != nil && e.r.tag == tag {
				return e.r
			}
		default:
		}
	}
	return nil
}

// evict drops the least recently used reports, never keep, while the cache
// is over its bound by more than slack, and reports whether it is within
// it. c.mu is held.
func (c *reportCache) evict(keep string, slack int64) bool {
	for c.total > c.maxBytes+slack {
		if c.idle == 0 {
			return false // every report kept is in use
		}
		var oldest string
		var at time.Time
		for p, e := range c.entries {
			select {
			case <-e.ready:
			default:
				continue
			}
			if p == keep || e.r == nil || e.pins > 0 {
				continue
			}
			if oldest == "" || e.r.used.Before(at) {
				oldest, at = p, e.r.used
			}
		}
		if oldest == "" {
			return false
		}
		c.drop(oldest)
	}
	return true
}

// drop removes an entry; c.mu is held.
func (c *reportCache) drop(abs string) {
	e := c.entries[abs]
	delete(c.entries, abs)
	if e != nil && e.r != nil {
		if e.pins == 0 {
			c.idle--
		}
		c.total -= e.r.bytes
		if c.evicted != nil {
			c.evicted(e.r)
		}
	}
}

// held returns the reports kept and the bytes counted.
func (c *reportCache) held() (int, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, e := range c.entries {
		select {
		case <-e.ready:
			if e.r != nil {
				n++
			}
		default:
		}
	}
	return n, c.total
}

// parse reads one report whole into its compact form, counting the bytes
// read in read and asking admit for each growth of its memory; it stops
// with ctx's error when ctx ends, and with errTooLarge when admit refuses
// (the report returned then holds what it was admitted, to give back).
func parse(ctx context.Context, f file, rt *root, format parsers.Format, read *atomic.Int64, admit func(int64) bool) (*report, error) {
	r := newReport(f.rel, reports.InputTag(f.rel, tagLen), f.info.Size(), f.info.ModTime())
	r.admit = admit
	r.grow(reportSize)
	opts := rt.readOptions(ctx)
	opts.Format, opts.Context = format, ctx
	opts.Runs = true // one tool's run in two formats is read once (sameRuns)
	opts.Wrap = func(in io.Reader, _ string, _ int64) io.Reader { return &countingReader{r: in, n: read} }
	in, _ := parsers.ReadFile(f.rel, r.tag, opts, func(x reports.Finding) error { return r.add(&x) })
	r.done()
	if err := ctx.Err(); err != nil {
		return r, err
	}
	if r.stop != nil {
		return r, r.stop
	}
	in.Path = f.rel
	in.Error = strings.ReplaceAll(in.Error, f.abs, f.rel)
	for i, w := range in.Warnings {
		in.Warnings[i] = strings.ReplaceAll(w, f.abs, f.rel)
	}
	r.input = in
	r.bytes += int64(len(in.Path) + len(in.Format) + len(in.Tool) + len(in.ToolVersion) + len(in.Error) + in.Rules.Bytes())
	for _, w := range in.Warnings {
		r.bytes += stringSize + int64(len(w))
	}
	for _, n := range in.NotAnalysed {
		r.bytes += 2*stringSize + int64(len(n.Path)+len(n.Reason))
	}
	return r, nil
}

// countingReader adds the bytes it reads to n.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n.Add(int64(k))
	return k, err
}
