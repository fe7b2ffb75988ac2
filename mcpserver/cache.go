package mcpserver

import (
	"context"
	"errors"
	"hash/maphash"
	"io"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

// tagLen is the length of a report's id tag: 40 bits of its path's hash.
const tagLen = 8

// reportCache keeps parsed reports by path, each with its file's stamp
// (see stamp) and its content's digest, so that a second call does not
// parse again. It is bounded in the bytes the
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
	// turn, when set, waits for a turn to read before a parse (see
	// Server.coldRead); a parse started by a call that holds a turn
	// (withTurn) reads in that turn.
	turn  func(context.Context) (func(), error)
	pulse *pulse // beats as parses read; nil: none
	// parsed, when set, is told of each parse that ended with a report.
	parsed func()

	mu      sync.Mutex
	entries map[string]*cacheEntry // by absolute path
	total   int64                  // bytes of the reports kept and of the parses under way
	// idle counts the kept reports no call uses (pins 0): evict looks
	// for the oldest only when there is one, so that a call that pins
	// 200,000 reports past the bound does not scan them all for each.
	idle int
}

type cacheEntry struct {
	abs   string        // the file's absolute path, the entry's key
	ready chan struct{} // closed when r is set, the report is too large, or the parse ended without a report (r nil, err)
	r     *report
	err   error        // why the parse ended without a report (with ready closed)
	pins  int          // calls using r: not evicted while they run (guarded by the cache's mutex)
	big   bool         // the report did not fit the cache: not kept, read by each call
	info  stamp        // the stamp of the file that was too large
	read  atomic.Int64 // bytes of the file read so far by its parse (progress)
	size  int64        // bytes of the file
	// While the parse runs: the calls waiting for it, and cancel, which
	// stops it once the last of them has left. When it ends with a
	// report, each call still waiting is given a pin of it (handed), which
	// it takes as it wakes.
	waiting, handed int
	cancel          context.CancelFunc
}

func newReportCache(maxBytes int64, now func() time.Time) *reportCache {
	return &reportCache{maxBytes: maxBytes, now: now, entries: map[string]*cacheEntry{}}
}

// get returns the report at f, parsed now or earlier, pinned: it stays in
// the cache until unpin. Concurrent callers of the same report share one
// parse, which runs on its own: a caller whose ctx ends leaves at once,
// and the parse goes on for the others; it stops, leaving nothing behind,
// when the last caller waiting for it has left. parsed says whether this
// call started the parse. A report kept is known by its file's stamp; a
// file whose stamp changed is read again unless its content's digest is
// the one kept (the same content written again, touched, or copied in
// place), and then the report is kept. A report that does not fit gives
// errTooLarge: at once the next times while the file is unchanged when it
// is larger than the cache, or again after a parse when there was no room
// beside the reports that calls under way use.
func (c *reportCache) get(ctx context.Context, f file, rt *root, format parsers.Format) (r *report, parsed bool, err error) {
	st := stampOf(f.info)
	for {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		c.mu.Lock()
		e, ok := c.entries[f.abs]
		if !ok && c.idle == 0 && c.total+reportSize > c.maxBytes {
			// No room, and every report kept in use: the parse would be
			// refused at its first bytes (see admit). The call reads it as
			// it goes.
			c.mu.Unlock()
			return nil, false, errTooLarge
		}
		if !ok {
			e = &cacheEntry{abs: f.abs, ready: make(chan struct{}), size: f.info.Size(), waiting: 1}
			c.entries[f.abs] = e
			pctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
			e.cancel = cancel
			c.mu.Unlock()
			go c.parse(pctx, e, f, rt, format, held(ctx))
			r, err := c.wait(ctx, e, st, true)
			if err == errStale {
				continue
			}
			return r, r != nil, err
		}
		select {
		case <-e.ready:
		default:
			e.waiting++
		}
		c.mu.Unlock()
		r, err := c.wait(ctx, e, st, false)
		if err == errStale {
			continue
		}
		return r, false, err
	}
}

// errStale says that a report kept is not the file's now: get reads it again.
var errStale = errors.New("stale")

// wait waits for e's parse (when counted, as one of its waiting calls) or
// ctx, and returns e's report pinned, when it is the file's of stamp st.
// When it returns errStale, the call's progress no longer counts e: get
// parses the file again, and that parse counts it.
func (c *reportCache) wait(ctx context.Context, e *cacheEntry, st stamp, counted bool) (r *report, err error) {
	select {
	case <-e.ready:
	default:
		counted = true // counted by get, under the mutex, before the parse ended
		watch(ctx, e)  // the progress of the parse this call waits for
		defer func() {
			if err == errStale {
				unwatch(ctx, e)
			}
		}()
		select {
		case <-e.ready:
		case <-ctx.Done():
			c.leave(e)
			return nil, ctx.Err()
		}
	}
	c.mu.Lock()
	pinned := false
	if counted && e.handed > 0 {
		e.handed--
		pinned = true
	}
	switch {
	case e.big:
		c.mu.Unlock()
		if e.info == st {
			return nil, errTooLarge
		}
		c.mu.Lock()
		if c.entries[e.abs] == e {
			delete(c.entries, e.abs)
		}
		c.mu.Unlock()
		return nil, errStale
	case e.r == nil:
		c.mu.Unlock()
		if e.err != nil && ctx.Err() == nil && !errors.Is(e.err, context.Canceled) {
			return nil, e.err
		}
		return nil, errStale // cancelled by the callers that left: parse again
	}
	if c.entries[e.r.abs] != e {
		if pinned {
			c.unpinLocked(e)
		}
		c.mu.Unlock()
		return nil, errStale
	}
	if e.r.stamp != st {
		if e.r.stamp.size != st.size {
			if pinned {
				c.unpinLocked(e)
			}
			c.drop(e.r.abs)
			c.mu.Unlock()
			return nil, errStale
		}
		c.mu.Unlock()
		d, ok := e.r.rt.digestOf(e.r.rel)
		c.mu.Lock()
		if c.entries[e.r.abs] != e {
			if pinned {
				c.unpinLocked(e)
			}
			c.mu.Unlock()
			return nil, errStale
		}
		if !ok || d != e.r.digest {
			if pinned {
				c.unpinLocked(e)
			}
			c.drop(e.r.abs)
			c.mu.Unlock()
			return nil, errStale
		}
		e.r.stamp = st // the same content: kept
	}
	e.r.used = c.now()
	if !pinned {
		if e.pins == 0 {
			c.idle--
		}
		e.pins++
	}
	c.mu.Unlock()
	return e.r, nil
}

// leave ends the wait of a call whose ctx ended: the last call waiting
// stops the parse; a pin handed to it is given back.
func (c *reportCache) leave(e *cacheEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-e.ready:
		if e.handed > 0 {
			e.handed--
			c.unpinLocked(e)
		}
		return
	default:
	}
	if e.waiting--; e.waiting == 0 {
		e.cancel()
	}
}

// unpinLocked gives back one pin of e's report; c.mu is held.
func (c *reportCache) unpinLocked(e *cacheEntry) {
	if e.pins > 0 {
		if e.pins--; e.pins == 0 && e.r != nil && c.entries[e.r.abs] == e {
			c.idle++
		}
	}
}

// parse reads f into e, in a turn of its own unless the call that started
// it holds one (turnHeld), and ends e: its report kept and pinned for each
// call still waiting, or the error.
func (c *reportCache) parse(ctx context.Context, e *cacheEntry, f file, rt *root, format parsers.Format, turnHeld bool) {
	defer e.cancel()
	var r *report
	err := ctx.Err()
	if c.turn != nil && !turnHeld && err == nil {
		var release func()
		if release, err = c.turn(ctx); err == nil {
			defer release()
		}
	}
	if err == nil {
		r, err = parse(ctx, f, rt, format, &e.read, c.pulse, func(n int64) bool { return c.admit(n, f.abs) })
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	defer close(e.ready)
	e.cancel = nil // called by the defer above; ready, no call leaves it any more: the parse's context is let go
	if r != nil {
		c.total -= r.admitted // counted again below, whole, when the report is kept
	}
	switch {
	case errors.Is(err, errTooLarge) && r != nil && r.admitted > c.maxBytes: // larger than the cache: known until the file changes
		e.big, e.info = true, stampOf(f.info)
		return
	case err == nil && ctx.Err() != nil:
		err = ctx.Err()
	}
	if err != nil { // cancelled, busy, or no room beside the reports other calls use: a half-read report is not kept
		e.err = err
		if c.entries[f.abs] == e {
			delete(c.entries, f.abs)
		}
		return
	}
	r.used, r.abs, r.rt = c.now(), f.abs, rt
	e.r = r
	if c.parsed != nil {
		c.parsed()
	}
	e.pins, e.handed = e.waiting, e.waiting
	if e.pins == 0 {
		c.idle++
	}
	c.total += r.bytes
	c.evict(f.abs, 0)
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

// hold counts n bytes that a call holds beside the reports it reads (what
// it keeps of each file it reads, see callFileBytes), making room for them
// by dropping the least recently used reports that no call uses; they
// count even past the bound, and the reports that do not fit beside them
// are then read as they go, not kept. release gives them back.
func (c *reportCache) hold(n int64) (release func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total += n
	c.evict("", 0)
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.total -= n
	}
}

// pin adds a use of reports that get returned and that a call still
// uses (so they are kept).
func (c *reportCache) pin(reps ...*report) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range reps {
		if r == nil {
			continue
		}
		if e := c.entries[r.abs]; e != nil && e.r == r {
			if e.pins == 0 {
				c.idle--
			}
			e.pins++
		}
	}
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
func parse(ctx context.Context, f file, rt *root, format parsers.Format, read *atomic.Int64, p *pulse, admit func(int64) bool) (*report, error) {
	r := newReport(f.rel, reports.InputTag(f.rel, tagLen), stampOf(f.info))
	r.admit = admit
	r.grow(reportSize)
	opts := rt.readOptions(ctx)
	opts.Format, opts.Context = format, ctx
	opts.Runs = true      // one tool's run in two formats is read once (sameRuns)
	opts.Uncounted = true // (the triaged results of recap's SARIF are kept: report.add)
	var digest maphash.Hash
	digest.SetSeed(digestSeed)
	opts.Wrap = func(in io.Reader, _ string, _ int64) io.Reader {
		return &countingReader{r: in, n: read, h: &digest, p: p}
	}
	in, _ := parsers.ReadFile(f.rel, r.tag, opts, func(x reports.Finding) error { return r.add(&x) })
	r.done()
	if err := ctx.Err(); err != nil {
		return r, err
	}
	if r.stop != nil {
		return r, r.stop
	}
	r.digest = digest.Sum64()
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

// countingReader adds the bytes it reads to n, and to the digest h, and
// beats p.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
	h *maphash.Hash
	p *pulse
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n.Add(int64(k))
	c.h.Write(p[:k])
	c.p.beat()
	return k, err
}

// digestSeed seeds the digests of the reports' content: the process's
// own, so that no one outside it can make two contents of one digest.
var digestSeed = maphash.MakeSeed()

// digestOf hashes the bytes of the file rel as they are on disk (gzip
// kept), as a parse does; false when it cannot be read.
func (r *root) digestOf(rel string) (uint64, bool) {
	fh, _, err := r.openReport(rel)
	if err != nil {
		return 0, false
	}
	defer fh.Close()
	var h maphash.Hash
	h.SetSeed(digestSeed)
	if _, err := io.Copy(&h, fh); err != nil {
		return 0, false
	}
	return h.Sum64(), true
}

// A stamp is what tells a file from another at one path without reading
// it: its size and modification time, and where the system has them, its
// inode and change time, which every write and rename moves (a change
// time cannot be set back as a modification time can).
type stamp struct {
	size, mtime, ctime int64
	dev, ino           uint64
}

// stampOf is the stamp of a file of info.
func stampOf(info fs.FileInfo) stamp {
	if fi, ok := info.(*fileInfo); ok {
		return fi.st
	}
	return statStamp(info)
}

// fileInfo is what the server keeps of a file a search found: its name,
// mode and stamp, 64 bytes, where the fs.FileInfo of a directory entry
// holds the whole of its stat (about 300 bytes with its name). A call
// holds one for each report it reads: 200,000 reports under the root
// hold 13 MB of them rather than 65 MB.
type fileInfo struct {
	name string
	mode fs.FileMode
	st   stamp
}

// compactInfo is info, of the file named name, as a search keeps it.
func compactInfo(info fs.FileInfo, name string) fs.FileInfo {
	if name != info.Name() {
		name = info.Name()
	}
	return &fileInfo{name: name, mode: info.Mode(), st: stampOf(info)}
}

func (fi *fileInfo) Name() string       { return fi.name }
func (fi *fileInfo) Size() int64        { return fi.st.size }
func (fi *fileInfo) Mode() fs.FileMode  { return fi.mode }
func (fi *fileInfo) ModTime() time.Time { return time.Unix(0, fi.st.mtime) }
func (fi *fileInfo) IsDir() bool        { return fi.mode.IsDir() }
func (fi *fileInfo) Sys() any           { return nil }
