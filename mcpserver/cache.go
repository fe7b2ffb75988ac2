package mcpserver

import (
	"strings"
	"sync"
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
	ready chan struct{} // closed when r is set
	r     *report
}

func newReportCache(maxBytes int64, now func() time.Time) *reportCache {
	return &reportCache{maxBytes: maxBytes, now: now, entries: map[string]*cacheEntry{}}
}

// get returns the report at f, parsed now or earlier; concurrent callers
// of the same report wait for one parse. parsed says whether this call parsed.
func (c *reportCache) get(f file, rootDir string, format parsers.Format) (r *report, parsed bool) {
	for {
		c.mu.Lock()
		e, ok := c.entries[f.abs]
		if ok {
			c.mu.Unlock()
			<-e.ready
			if e.r != nil && e.r.size == f.info.Size() && e.r.mtime.Equal(f.info.ModTime()) {
				c.mu.Lock()
				e.r.used = c.now()
				c.mu.Unlock()
				return e.r, false
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
		e = &cacheEntry{ready: make(chan struct{})}
		c.entries[f.abs] = e
		c.mu.Unlock()

		r = parse(f, rootDir, format)
		r.used = c.now()
		c.mu.Lock()
		e.r = r
		close(e.ready)
		c.total += r.bytes
		c.evict(f.abs)
		c.mu.Unlock()
		return r, true
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

// parse reads one report whole. Strings that repeat from finding to finding
// (tool, rule, category, path) are interned, so that a report of 300,000
// findings holds each once.
func parse(f file, rootDir string, format parsers.Format) *report {
	r := &report{rel: f.rel, size: f.info.Size(), mtime: f.info.ModTime(), tag: reports.InputTag(f.rel, tagLen)}
	in, _ := parsers.ReadFile(f.abs, r.tag, parsers.ReadOptions{Root: rootDir, Format: format}, func(x reports.Finding) error {
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
	return r
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
