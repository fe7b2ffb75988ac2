package diff

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/klauspost/compress/zlib"
)

// The pack reader: a revision diff reads its objects from the
// repository's pack files itself, mapped into memory, as git does, where
// go-git's reader cost recap diff two thirds of its time. go-git's
// reads each object through a buffered scanner a byte at a time, hashes
// every object it reads (delta bases included) with SHA-1 to key its
// cache, and reads a delta from its pack twice when it is larger than
// 16 KiB. Here an object is found in the pack's index by binary search,
// inflated straight from the mapped pack, and its delta bases are kept by
// their place in the pack (git's delta base cache), so that a chain of
// deltas shared by the two sides of a file is inflated once. Goroutines
// read at once: nothing is shared but the mapped files, which are never
// written, and the cache, which locks.
//
// What the reader does not take (a loose object, one in an alternate
// repository, a pack it cannot map, an object or a delta base larger than
// MaxDiffBytes, which go-git streams) is read by go-git as before.

// errNotPacked: go-git reads the object.
var errNotPacked = errors.New("not in a mapped pack")

// maxDeltaChain bounds the deltas of one object, one on another (git's
// pack.depth is 50, at most 4095): past it the pack is taken for broken.
const maxDeltaChain = 10000

// packStore is go-git's storage of a repository with the pack reader in
// front of it.
type packStore struct {
	*filesystem.Storage
	packs []*mappedPack
	bases *baseCache
}

// newPackStore maps the repository's packs, keeping what it reads in
// bases (a cache of objectCache bytes when nil); a pack it cannot map or
// check is left to go-git.
func newPackStore(s *filesystem.Storage, bases *baseCache) *packStore {
	if bases == nil {
		bases = newBaseCache(objectCache)
	}
	ps := &packStore{Storage: s, bases: bases}
	fs := s.Filesystem()
	dir := path.Join("objects", "pack")
	list, err := fs.ReadDir(dir)
	if err != nil {
		return ps
	}
	for _, fi := range list {
		name, ok := strings.CutSuffix(fi.Name(), ".idx")
		if !ok || !strings.HasPrefix(name, "pack-") || !fi.Mode().IsRegular() {
			continue
		}
		if p, err := openPack(fs, path.Join(dir, name)); err == nil {
			ps.packs = append(ps.packs, p)
		}
	}
	return ps
}

// Close unmaps the packs and closes go-git's storage.
func (s *packStore) Close() error {
	for _, p := range s.packs {
		p.close()
	}
	s.packs = nil
	return s.Storage.Close()
}

// EncodedObject reads object h: from a mapped pack, else through go-git.
func (s *packStore) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	o, err := s.packed(t, h)
	if err == errNotPacked {
		return s.Storage.EncodedObject(t, h)
	}
	return o, err
}

// EncodedObjectSize is the size of object h, read from its header.
func (s *packStore) EncodedObjectSize(h plumbing.Hash) (int64, error) {
	sz, err := s.packedSize(h)
	if err == errNotPacked {
		return s.Storage.EncodedObjectSize(h)
	}
	return sz, err
}

// packed reads object h from a mapped pack, or says errNotPacked. It is
// safe for concurrent use.
func (s *packStore) packed(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	for _, p := range s.packs {
		off, ok := p.find(h)
		if !ok {
			continue
		}
		typ, data, err := s.read(p, off)
		if err != nil {
			if err != errNotPacked {
				err = fmt.Errorf("object %s in %s.pack: %w", h, p.name, err)
			}
			return nil, err
		}
		if t != plumbing.AnyObject && t != typ {
			return nil, plumbing.ErrObjectNotFound
		}
		return &packedObject{hash: h, typ: typ, data: data}, nil
	}
	return nil, errNotPacked
}

// packedSize is the size of object h from its header in a mapped pack
// (a delta's from the head of the delta), or errNotPacked.
func (s *packStore) packedSize(h plumbing.Hash) (int64, error) {
	for _, p := range s.packs {
		off, ok := p.find(h)
		if !ok {
			continue
		}
		hd, err := p.header(off)
		if err == errNotPacked {
			return 0, err
		}
		if err != nil {
			return 0, fmt.Errorf("object %s in %s.pack: %w", h, p.name, err)
		}
		if !hd.typ.IsDelta() {
			return hd.size, nil
		}
		var head [2 * binary.MaxVarintLen64]byte
		n, err := p.inflatePrefix(hd, head[:])
		if err != nil {
			return 0, fmt.Errorf("object %s in %s.pack: %w", h, p.name, err)
		}
		_, rest, err := deltaSize(head[:n])
		if err != nil {
			return 0, fmt.Errorf("object %s in %s.pack: %w", h, p.name, err)
		}
		target, _, err := deltaSize(rest)
		if err != nil {
			return 0, fmt.Errorf("object %s in %s.pack: %w", h, p.name, err)
		}
		return int64(target), nil
	}
	return 0, errNotPacked
}

// read is the type and content of the object at off in pack p, its
// deltas applied: the chain is followed down to a whole object or a base
// in the cache, then each delta is applied on the way up, each result
// kept in the cache.
func (s *packStore) read(p *mappedPack, off int64) (plumbing.ObjectType, []byte, error) {
	var chain []objHeader
	var typ plumbing.ObjectType
	var data []byte
	for {
		if t, d, ok := s.bases.get(p.id, off); ok {
			typ, data = t, d
			break
		}
		hd, err := p.header(off)
		if err != nil {
			return 0, nil, err
		}
		if !hd.typ.IsDelta() {
			if hd.size > MaxDiffBytes {
				return 0, nil, errNotPacked
			}
			if data, err = p.inflate(hd); err != nil {
				return 0, nil, err
			}
			typ = hd.typ
			s.bases.put(p.id, off, typ, data)
			break
		}
		if len(chain) == maxDeltaChain {
			return 0, nil, fmt.Errorf("at %d: more than %d deltas one on another", hd.off, maxDeltaChain)
		}
		chain = append(chain, hd)
		off = hd.base
	}
	for k := len(chain) - 1; k >= 0; k-- {
		hd := chain[k]
		// A delta is at most its header's size; what it makes is checked
		// before it is made.
		if hd.size > 2*MaxDiffBytes {
			return 0, nil, errNotPacked
		}
		delta, err := p.inflate(hd)
		if err != nil {
			return 0, nil, err
		}
		src, rest, err := deltaSize(delta)
		if err == nil {
			var target uint64
			if target, _, err = deltaSize(rest); err == nil && target > MaxDiffBytes {
				return 0, nil, errNotPacked
			}
		}
		if err == nil && src != uint64(len(data)) {
			err = fmt.Errorf("its base is %d bytes, not %d", len(data), src)
		}
		if err == nil {
			data, err = packfile.PatchDelta(data, delta)
		}
		if err != nil {
			return 0, nil, fmt.Errorf("the delta at %d: %w", hd.off, err)
		}
		s.bases.put(p.id, hd.off, typ, data)
	}
	return typ, data, nil
}

// deltaSize reads one of the sizes at the head of a delta.
func deltaSize(b []byte) (uint64, []byte, error) {
	v, n := binary.Uvarint(b)
	if n <= 0 {
		return 0, nil, errors.New("a malformed delta")
	}
	return v, b[n:], nil
}

// packedObject is an object read from a mapped pack: its content is its
// own (never the mapped file) and is never written.
type packedObject struct {
	hash plumbing.Hash
	typ  plumbing.ObjectType
	data []byte
}

func (o *packedObject) Hash() plumbing.Hash             { return o.hash }
func (o *packedObject) Type() plumbing.ObjectType       { return o.typ }
func (o *packedObject) SetType(t plumbing.ObjectType)   { o.typ = t }
func (o *packedObject) Size() int64                     { return int64(len(o.data)) }
func (o *packedObject) SetSize(int64)                   {}
func (o *packedObject) Writer() (io.WriteCloser, error) { return nil, errReadOnly }
func (o *packedObject) Reader() (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(o.data)), nil
}

// mappedPack is a pack file and its index (version 2), mapped.
type mappedPack struct {
	name       string   // pack-HASH
	id         [20]byte // the pack's checksum: the same id, the same pack
	idx, data  []byte
	unmap      []func() error
	n          int
	fanout     []byte // 256 big-endian counts
	names      []byte // n hashes, sorted
	offsets    []byte // n 4-byte offsets
	largeOffs  []byte // 8-byte offsets
	packLength int64  // the pack's length less its checksum
	// read counts the bytes inflated from the pack since its pages were
	// last let go (see letGo).
	read atomic.Int64
}

// mappedResident bounds the bytes of a pack read before the pages of the
// pack and its index are let go: a page of a mapped file counts in the
// process's resident memory once read, until it is unmapped or let go
// (it stays in the page cache, and is mapped again when it is read
// again), and the Go runtime's memory limit does not see it.
const mappedResident = 4 << 20

// letGo counts n bytes read from the pack, and lets the pages of the pack
// and its index go past mappedResident of them.
func (p *mappedPack) letGo(n int64) {
	if p.read.Add(n) > mappedResident {
		p.read.Store(0)
		releasePages(p.data)
		releasePages(p.idx)
	}
}

// openPack maps the pack file base.pack and its index base.idx and
// checks that they are a pack and its index (version 2) that belong
// together.
func openPack(fs billy.Filesystem, base string) (p *mappedPack, err error) {
	p = &mappedPack{name: path.Base(base)}
	defer func() {
		if err != nil {
			p.close()
		}
	}()
	if p.idx, err = mapInto(fs, base+".idx", &p.unmap); err != nil {
		return nil, err
	}
	if p.data, err = mapInto(fs, base+".pack", &p.unmap); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", base, err)
	}
	return p, nil
}

// mapInto maps the file name of fs, adding its unmapping to unmap.
func mapInto(fs billy.Filesystem, name string, unmap *[]func() error) ([]byte, error) {
	f, err := fs.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, release, err := mapFile(f)
	if err != nil {
		return nil, err
	}
	*unmap = append(*unmap, release)
	return b, nil
}

var errBadPack = errors.New("not a pack and its index of version 2")

// check reads the index's tables and checks them against the pack.
func (p *mappedPack) check() error {
	const head = 8 + 256*4
	const hashes = 2 * 20 // the pack's checksum and the index's
	idx := p.idx
	if len(idx) < head+hashes || !bytes.Equal(idx[:8], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		return errBadPack
	}
	p.fanout = idx[8:head]
	prev := uint32(0)
	for k := range 256 {
		c := binary.BigEndian.Uint32(p.fanout[4*k:])
		if c < prev {
			return errBadPack
		}
		prev = c
	}
	n := int(prev)
	small := head + n*(20+4+4) + hashes
	if n < 0 || n > (len(idx)-head)/28 || len(idx) < small || (len(idx)-small)%8 != 0 || (len(idx)-small)/8 > n {
		return errBadPack
	}
	p.n = n
	p.names = idx[head : head+20*n]
	p.offsets = idx[head+24*n : head+28*n]
	p.largeOffs = idx[head+28*n : len(idx)-hashes]
	data := p.data
	if len(data) < 12+20 || string(data[:4]) != "PACK" {
		return errBadPack
	}
	if v := binary.BigEndian.Uint32(data[4:]); v != 2 && v != 3 {
		return errBadPack
	}
	if int(binary.BigEndian.Uint32(data[8:])) != n ||
		!bytes.Equal(data[len(data)-20:], idx[len(idx)-hashes:len(idx)-20]) {
		return errBadPack
	}
	p.packLength = int64(len(data) - 20)
	copy(p.id[:], data[len(data)-20:])
	return nil
}

func (p *mappedPack) close() {
	for _, f := range p.unmap {
		f()
	}
	p.unmap, p.idx, p.data = nil, nil, nil
}

// find is the offset of object h in the pack, from the index.
func (p *mappedPack) find(h plumbing.Hash) (int64, bool) {
	lo := 0
	if h[0] > 0 {
		lo = int(binary.BigEndian.Uint32(p.fanout[4*(int(h[0])-1):]))
	}
	hi := int(binary.BigEndian.Uint32(p.fanout[4*int(h[0]):]))
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch bytes.Compare(p.names[20*m:20*m+20], h[:]) {
		case 0:
			return p.offset(m)
		case -1:
			lo = m + 1
		default:
			hi = m
		}
	}
	return 0, false
}

// offset is the offset of the index's k-th object.
func (p *mappedPack) offset(k int) (int64, bool) {
	o := binary.BigEndian.Uint32(p.offsets[4*k:])
	if o&0x80000000 == 0 {
		return int64(o), true
	}
	j := int(o &^ 0x80000000)
	if j >= len(p.largeOffs)/8 {
		return 0, false
	}
	big := binary.BigEndian.Uint64(p.largeOffs[8*j:])
	return int64(big), big < 1<<62
}

// objHeader is an object's header in a pack.
type objHeader struct {
	off   int64 // where the object starts
	typ   plumbing.ObjectType
	size  int64 // of the content, or of the delta
	start int64 // where its compressed data starts
	base  int64 // a delta's base
}

// header reads the header of the object at off: its type and size, and
// a delta's base (by offset, or by hash in the same pack).
func (p *mappedPack) header(off int64) (objHeader, error) {
	hd := objHeader{off: off}
	if off < 12 || off >= p.packLength {
		return hd, fmt.Errorf("an object at %d, outside the pack", off)
	}
	b := p.data[off:p.packLength]
	c := b[0]
	hd.typ = plumbing.ObjectType((c >> 4) & 7)
	size := uint64(c & 15)
	i, shift := 1, uint(4)
	for c&0x80 != 0 {
		if i >= len(b) || shift > 60 {
			return hd, fmt.Errorf("the object at %d: a malformed header", off)
		}
		c = b[i]
		size |= uint64(c&0x7f) << shift
		shift += 7
		i++
	}
	if size > 1<<62 {
		return hd, fmt.Errorf("the object at %d: a malformed header", off)
	}
	hd.size = int64(size)
	switch hd.typ {
	case plumbing.CommitObject, plumbing.TreeObject, plumbing.BlobObject, plumbing.TagObject:
	case plumbing.OFSDeltaObject:
		if i >= len(b) {
			return hd, fmt.Errorf("the object at %d: a malformed header", off)
		}
		c = b[i]
		i++
		rel := uint64(c & 0x7f)
		for c&0x80 != 0 {
			if i >= len(b) || rel > 1<<55 {
				return hd, fmt.Errorf("the object at %d: a malformed delta base", off)
			}
			c = b[i]
			i++
			rel = (rel+1)<<7 | uint64(c&0x7f)
		}
		if rel == 0 || rel > uint64(off) {
			return hd, fmt.Errorf("the object at %d: a delta base outside the pack", off)
		}
		hd.base = off - int64(rel)
	case plumbing.REFDeltaObject:
		if i+20 > len(b) {
			return hd, fmt.Errorf("the object at %d: a malformed header", off)
		}
		base, ok := p.find(plumbing.Hash(b[i : i+20]))
		if !ok {
			return hd, errNotPacked // a base elsewhere: go-git finds it
		}
		hd.base = base
		i += 20
	default:
		return hd, fmt.Errorf("the object at %d: unknown type %d", off, hd.typ)
	}
	hd.start = off + int64(i)
	return hd, nil
}

// inflaters are zlib readers kept for reuse.
var inflaters sync.Pool

// zreader is a zlib reader over a part of a mapped pack.
type zreader struct {
	src bytes.Reader
	z   io.ReadCloser
}

func (p *mappedPack) zlib(hd objHeader) (*zreader, error) {
	zr, _ := inflaters.Get().(*zreader)
	if zr == nil {
		zr = &zreader{}
	}
	zr.src.Reset(p.data[hd.start:p.packLength])
	var err error
	if zr.z == nil {
		zr.z, err = zlib.NewReader(&zr.src)
	} else {
		err = zr.z.(zlib.Resetter).Reset(&zr.src, nil)
	}
	if err != nil {
		zr.z = nil
		inflaters.Put(zr)
		return nil, fmt.Errorf("the object at %d: %w", hd.off, err)
	}
	return zr, nil
}

func (zr *zreader) release() {
	zr.src.Reset(nil)
	inflaters.Put(zr)
}

// inflate is the content of the object hd heads (a delta's delta), which
// must end where its header says: its checksum is checked.
func (p *mappedPack) inflate(hd objHeader) ([]byte, error) {
	zr, err := p.zlib(hd)
	if err != nil {
		return nil, err
	}
	defer zr.release()
	defer func() { p.letGo(int64(len(p.data[hd.start:p.packLength]) - zr.src.Len())) }()
	out := make([]byte, hd.size)
	if _, err := io.ReadFull(zr.z, out); err != nil {
		return nil, fmt.Errorf("the object at %d: %w", hd.off, unexpected(err))
	}
	var one [1]byte
	if n, err := zr.z.Read(one[:]); n != 0 || err != io.EOF {
		if err == nil || err == io.EOF {
			err = errors.New("longer than its header says")
		}
		return nil, fmt.Errorf("the object at %d: %w", hd.off, err)
	}
	return out, nil
}

// inflatePrefix inflates the first bytes of the object hd heads into b.
func (p *mappedPack) inflatePrefix(hd objHeader, b []byte) (int, error) {
	zr, err := p.zlib(hd)
	if err != nil {
		return 0, err
	}
	defer zr.release()
	n, err := io.ReadFull(zr.z, b[:min(int64(len(b)), hd.size)])
	if err != nil {
		return n, fmt.Errorf("the object at %d: %w", hd.off, unexpected(err))
	}
	return n, nil
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// baseCache keeps objects read from packs by their place (the pack's
// checksum and the offset), the least recently used dropped first, within
// max bytes counted as objectLRU counts them. It holds copies, never the
// mapped files, and outlives the diffs: a Repo keeps one for all of its
// diffs (and its Reopen's). It is safe for concurrent use.
type baseCache struct {
	mu         sync.Mutex
	max, bytes int64
	m          map[baseKey]*baseEntry
	head       baseEntry // of the ring, most recent next
}

type baseKey struct {
	pack [20]byte
	off  int64
}

type baseEntry struct {
	key        baseKey
	typ        plumbing.ObjectType
	data       []byte
	prev, next *baseEntry
}

func newBaseCache(max int64) *baseCache {
	c := &baseCache{max: max, m: map[baseKey]*baseEntry{}}
	c.head.prev, c.head.next = &c.head, &c.head
	return c
}

func (c *baseCache) unlink(e *baseEntry) {
	e.prev.next, e.next.prev = e.next, e.prev
}

func (c *baseCache) front(e *baseEntry) {
	e.prev, e.next = &c.head, c.head.next
	e.prev.next, e.next.prev = e, e
}

func (c *baseCache) get(pack [20]byte, off int64) (plumbing.ObjectType, []byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[baseKey{pack, off}]
	if !ok {
		return 0, nil, false
	}
	c.unlink(e)
	c.front(e)
	return e.typ, e.data, true
}

func (c *baseCache) put(pack [20]byte, off int64, typ plumbing.ObjectType, data []byte) {
	size := int64(len(data)) + objectOverhead
	if size > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	k := baseKey{pack, off}
	if _, ok := c.m[k]; ok {
		return
	}
	e := &baseEntry{key: k, typ: typ, data: data}
	c.m[k] = e
	c.front(e)
	c.bytes += size
	for c.bytes > c.max {
		last := c.head.prev
		c.unlink(last)
		delete(c.m, last.key)
		c.bytes -= int64(len(last.data)) + objectOverhead
	}
}
