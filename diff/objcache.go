package diff

import (
	"container/list"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// objectLRU is a cache of git objects, the least recently used dropped
// first, safe for concurrent use. Unlike go-git's, it counts what an object
// holds beside its content (objectOverhead): in go-git's, the 600,000
// one-line blobs of two commits, 18 MB of content, held about 100 MB.
type objectLRU struct {
	mu     sync.Mutex
	max    int64
	actual int64
	ll     *list.List
	cache  map[plumbing.Hash]*list.Element
}

// objectOverhead is about what a cached object holds beside its content:
// its record, its slice, the list's element and the map's entry.
const objectOverhead = 300

func newObjectLRU(max int64) *objectLRU {
	return &objectLRU{max: max, ll: list.New(), cache: map[plumbing.Hash]*list.Element{}}
}

var _ cache.Object = (*objectLRU)(nil)

func cost(o plumbing.EncodedObject) int64 { return o.Size() + objectOverhead }

func (c *objectLRU) Put(o plumbing.EncodedObject) {
	c.mu.Lock()
	defer c.mu.Unlock()
	size := cost(o)
	if size > c.max {
		return
	}
	if e, ok := c.cache[o.Hash()]; ok {
		c.ll.MoveToFront(e)
		old := e.Value.(plumbing.EncodedObject)
		c.actual += size - cost(old)
		e.Value = o
	} else {
		c.cache[o.Hash()] = c.ll.PushFront(o)
		c.actual += size
	}
	for c.actual > c.max {
		last := c.ll.Back()
		if last == nil {
			c.actual = 0
			break
		}
		lo := last.Value.(plumbing.EncodedObject)
		c.ll.Remove(last)
		delete(c.cache, lo.Hash())
		c.actual -= cost(lo)
	}
}

func (c *objectLRU) Get(k plumbing.Hash) (plumbing.EncodedObject, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.cache[k]
	if !ok {
		return nil, false
	}
	c.ll.MoveToFront(e)
	return e.Value.(plumbing.EncodedObject), true
}

func (c *objectLRU) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ll.Init()
	clear(c.cache)
	c.actual = 0
}

// lockedObjects is an object storage that goroutines share: one reads
// an object at a time (go-git's storages are not safe to share). What it
// returns is read without the lock: an object's content in memory, or a
// large object streamed from a pack file opened for its reader.
type lockedObjects struct {
	storer.EncodedObjectStorer
	mu sync.Mutex
}

func (l *lockedObjects) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	if ps, ok := l.EncodedObjectStorer.(*packStore); ok {
		// the packs are read at once, without the lock
		if o, err := ps.packed(t, h); err != errNotPacked {
			return o, err
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.EncodedObjectStorer.EncodedObject(t, h)
}

func (l *lockedObjects) EncodedObjectSize(h plumbing.Hash) (int64, error) {
	if ps, ok := l.EncodedObjectStorer.(*packStore); ok {
		if sz, err := ps.packedSize(h); err != errNotPacked {
			return sz, err
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.EncodedObjectStorer.EncodedObjectSize(h)
}

func (l *lockedObjects) HasEncodedObject(h plumbing.Hash) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.EncodedObjectStorer.HasEncodedObject(h)
}
