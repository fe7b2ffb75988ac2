package mcpserver

import (
	"context"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unique"
	"unsafe"

	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

// tagLen is the length of a report's id tag: 40 bits of its path's hash.
const tagLen = 8

// report is one parsed report, kept whole: its findings in the order the
// report gives them, so that finding n has the id tag-n.
type report struct {
	rel    string // path relative to the root
	size   int64
	mtime  time.Time
	tag    string
	input  reports.Input
	chunks [][]reports.Finding // the findings, chunkLen at a time (see at)
	n      int
	bytes  int64 // estimated memory
	used   time.Time
}

// reportCache keeps parsed reports by path, size and modification time, so
// that a second call does not parse again. It is bounded in estimated
// memory: the least recently used reports go first (a result buffer that
// still holds one keeps it alive until the buffer goes).
type reportCache struct {
	maxBytes int64
	now      func() time.Time

	mu      sync.Mutex
	entries map[string]*cacheEntry // by absolute path
	total   int64
}

type cacheEntry struct {
	ready chan struct{} // closed when r is set, or the parse was cancelled (r nil)
	r     *report
	read  atomic.Int64 // bytes of the file read so far by its parse (progress)
	size  int64        // bytes of the file
}

func newReportCache(maxBytes int64, now func() time.Time) *reportCache {
	return &reportCache{maxBytes: maxBytes, now: now, entries: map[string]*cacheEntry{}}
}

// get returns the report at f, parsed now or earlier; concurrent callers
// of the same report wait for one parse. parsed says whether this call
// parsed. A parse whose ctx ends stops at once and leaves nothing behind:
// the callers waiting for it parse again, each with its own ctx.
func (c *reportCache) get(ctx context.Context, f file, rootDir string, format parsers.Format) (r *report, parsed bool, err error) {
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
			if e.r != nil && e.r.size == f.info.Size() && e.r.mtime.Equal(f.info.ModTime()) {
				c.mu.Lock()
				e.r.used = c.now()
				c.mu.Unlock()
				return e.r, false, nil
			}
			c.mu.Lock()
			if c.entries[f.abs] == e { // stale: drop it and parse again
				delete(c.entries, f.abs)
				if e.r != nil {
					c.total -= e.r.bytes
				}
			}
			c.mu.Unlock()
			continue
		}
		e = &cacheEntry{ready: make(chan struct{}), size: f.info.Size()}
		c.entries[f.abs] = e
		c.mu.Unlock()

		watch(ctx, e)
		r, err = parse(ctx, f, rootDir, format, &e.read)
		c.mu.Lock()
		if err != nil { // cancelled: a half-read report is not kept
			if c.entries[f.abs] == e {
				delete(c.entries, f.abs)
			}
			close(e.ready)
			c.mu.Unlock()
			return nil, false, err
		}
		r.used = c.now()
		e.r = r
		close(e.ready)
		c.total += r.bytes
		c.evict(f.abs)
		c.mu.Unlock()
		return r, true, nil
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
// is over its bound. c.mu is held.
func (c *reportCache) evict(keep string) {
	for c.total > c.maxBytes {
		var oldest string
		var at time.Time
		for p, e := range c.entries {
			select {
			case <-e.ready:
			default:
				continue
			}
			if p == keep || e.r == nil {
				continue
			}
			if oldest == "" || e.r.used.Before(at) {
				oldest, at = p, e.r.used
			}
		}
		if oldest == "" {
			return
		}
		c.total -= c.entries[oldest].r.bytes
		delete(c.entries, oldest)
	}
}

// parse reads one report whole, counting the bytes read in read; it stops
// with ctx's error when ctx ends. Strings that repeat from finding to
// finding (tool, rule, category, path) are interned, so that a report of
// 300,000 findings holds each once.
func parse(ctx context.Context, f file, rootDir string, format parsers.Format, read *atomic.Int64) (*report, error) {
	r := &report{rel: f.rel, size: f.info.Size(), mtime: f.info.ModTime(), tag: reports.InputTag(f.rel, tagLen)}
	opts := parsers.ReadOptions{Root: rootDir, Format: format, Context: ctx,
		Wrap: func(in io.Reader, _ string, _ int64) io.Reader { return &countingReader{r: in, n: read} }}
	in, _ := parsers.ReadFile(f.abs, r.tag, opts, func(x reports.Finding) error {
		x.Tool = intern(x.Tool)
		x.ToolVersion = intern(x.ToolVersion)
		x.Rule = intern(x.Rule)
		x.RuleName = intern(x.RuleName)
		x.Category = intern(x.Category)
		x.Path = intern(x.Path)
		x.HelpURI = intern(x.HelpURI)
		r.add(x)
		return nil
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	in.Path = f.rel
	in.Error = strings.ReplaceAll(in.Error, f.abs, f.rel)
	for i, w := range in.Warnings {
		in.Warnings[i] = strings.ReplaceAll(w, f.abs, f.rel)
	}
	r.input = in
	r.bytes = int64(unsafe.Sizeof(reports.Finding{})) * int64(len(r.chunks)*chunkLen)
	for i := 0; i < r.n; i++ {
		x := r.at(i)
		r.bytes += int64(len(x.ID) + len(x.Fingerprint) + len(x.Message) + len(x.Snippet))
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

// chunkLen is the findings of one chunk of a report: appending to chunks
// never copies findings already read, as growing one slice of 300,000 would,
// several times over.
const chunkLen = 4096

// at returns the i-th finding (0-based) of the report.
func (r *report) at(i int) *reports.Finding { return &r.chunks[i/chunkLen][i%chunkLen] }

// add appends a finding.
func (r *report) add(f reports.Finding) {
	if r.n%chunkLen == 0 {
		r.chunks = append(r.chunks, make([]reports.Finding, 0, chunkLen))
	}
	last := &r.chunks[len(r.chunks)-1]
	*last = append(*last, f)
	r.n++
}

func intern(s string) string {
	if s == "" {
		return ""
	}
	return unique.Make(s).Value()
}
