// Package inputs is recap's one door for report files, shared by the
// command line (through parsers.ReadAll) and the MCP server: the bounded
// search of a directory (Walk), what is known of a file once looked at
// (Door: what its first bytes say, its content's size and hash, whether
// recap wrote it), kept by the file's size and modification time so that
// every pass of a query, and a server's later calls, look at a file once,
// and the choice of the inputs to read once (Door.Once: one of the names of
// a file, one of the files of a content, recap's own outputs a search found
// left out). It knows no format: what a file's first bytes say is asked of
// the Look the door is made with (parsers' format table).
package inputs

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"io"
	"io/fs"
	"os"
	"slices"
	"sync"

	"github.com/recap-dev/recap/internal/content"
)

// Kind is what a file's first bytes (gzip undone) say it holds.
type Kind int

const (
	Unknown Kind = iota // nothing that says what it is: empty, cut, unreadable, binary
	Report              // a report of a format recap reads
	JSON                // JSON of no format's (package.json)
	Other               // XML with another root element (a pom, a tool's configuration)
)

// Look tells what a file's content holds from its first bytes, and its
// format when it is a report.
type Look func(r io.Reader) (Kind, string)

// Open opens a file by its name for reading (a regular file only).
type Open func(name string) (*os.File, fs.FileInfo, error)

// A Door looks at files through one Open and one Look, and keeps what it
// learnt of each by its name, size and modification time: a file changed
// since is looked at again. It is safe for concurrent use.
type Door struct {
	open Open
	look Look

	mu    sync.Mutex
	facts map[string]fact
}

// maxFacts bounds the files a door remembers: past it, it forgets them all.
const maxFacts = 100_000

// New makes a door that opens files with open (nil: [content.Open], a
// name as it is given) and asks look what their first bytes say.
func New(open Open, look Look) *Door {
	if open == nil {
		open = content.Open
	}
	return &Door{open: open, look: look, facts: map[string]fact{}}
}

// fact is what is known of a file of a given size and modification time,
// kept small: a search of 200,000 reports keeps one for each.
type fact struct {
	size, mtime int64 // the file's size and modification time (Unix nanoseconds)
	csize       int64
	hash        *[sha256.Size]byte // nil: none, or it could not be read (hashed says)
	format      string
	kind        Kind
	own         int8 // the index of what recap wrote it as in owns, plus 1; 0: not recap's
	learnt      uint8
}

// What a fact has learnt.
const (
	looked uint8 = 1 << iota
	sized
	hashed
	ownKnown
)

// merge adds what o knows and f does not.
func (f *fact) merge(o fact) {
	if f.learnt&looked == 0 && o.learnt&looked != 0 {
		f.kind, f.format = o.kind, o.format
	}
	if f.learnt&sized == 0 && o.learnt&sized != 0 {
		f.csize = o.csize
	}
	if f.learnt&hashed == 0 && o.learnt&hashed != 0 {
		f.hash = o.hash
	}
	if f.learnt&ownKnown == 0 && o.learnt&ownKnown != 0 {
		f.own = o.own
	}
	f.learnt |= o.learnt
}

// known returns what is known of the file name of info, learning it with
// learn unless has says it is known already for its size and time.
func (d *Door) known(name string, info fs.FileInfo, what uint8, learn func(*fact)) fact {
	size, mtime := info.Size(), info.ModTime().UnixNano()
	d.mu.Lock()
	f, hit := d.facts[name]
	d.mu.Unlock()
	if !hit || f.size != size || f.mtime != mtime {
		f = fact{size: size, mtime: mtime}
	} else if f.learnt&what == what {
		return f
	}
	learn(&f)
	f.learnt |= what
	d.mu.Lock()
	if len(d.facts) >= maxFacts {
		clear(d.facts)
	}
	if old, ok := d.facts[name]; ok && old.size == f.size && old.mtime == f.mtime {
		f.merge(old) // learnt meanwhile by another caller
	}
	d.facts[name] = f
	d.mu.Unlock()
	return f
}

// first is what one open of a file learns: what its first bytes say,
// its content's size, and whether recap wrote it (a search asks all
// three of most files it looks at).
const first = looked | sized | ownKnown

// learnFirst learns first of the file name in one open.
func (d *Door) learnFirst(name string) func(*fact) {
	return func(f *fact) {
		f.csize = -1
		fh, fi, err := d.open(name)
		if err != nil {
			return
		}
		defer fh.Close()
		f.kind, f.format = d.look(fh)
		f.csize = contentSize(fh, fi.Size())
		if ownNamed(name) {
			if own, ok := RecapOutput(name, fh, fi.Size()); ok {
				f.own = int8(slices.Index(owns, own) + 1)
			}
		}
	}
}

// Kind tells what the file name (of info) holds from its first bytes, and
// its format when it is a report; Unknown when it cannot be read.
func (d *Door) Kind(name string, info fs.FileInfo) (Kind, string) {
	f := d.known(name, info, first, d.learnFirst(name))
	return f.kind, f.format
}

// ContentSize is the size of a file's content: its size, or for a gzip
// file the size its trailer records (modulo 4 GiB; of its last member).
// It is a first filter of equal contents (a report and its gzip have the
// same), compared by hash before anything is left out; a bound on the
// bytes a search reads takes the larger of it and the file's size. False
// when the file cannot be read.
func (d *Door) ContentSize(name string, info fs.FileInfo) (int64, bool) {
	f := d.known(name, info, first, d.learnFirst(name))
	return f.csize, f.csize >= 0
}

// contentSize is the content size of a file of size bytes read through r
// (see ContentSize); -1 when it cannot be read.
func contentSize(r io.ReaderAt, size int64) int64 {
	var magic [2]byte
	if _, err := r.ReadAt(magic[:], 0); err != nil || magic != [2]byte{0x1f, 0x8b} || size < 18 {
		return size
	}
	var trailer [4]byte
	if _, err := r.ReadAt(trailer[:], size-4); err != nil {
		return -1
	}
	return int64(binary.LittleEndian.Uint32(trailer[:]))
}

// Hash is the SHA-256 of a file's content, gzip undone; false when it
// cannot be read.
func (d *Door) Hash(name string, info fs.FileInfo) ([sha256.Size]byte, bool) {
	f := d.known(name, info, hashed, func(f *fact) {
		if sum, ok := hashContent(d.open, name); ok {
			f.hash = &sum
		}
	})
	if f.hash == nil {
		return [sha256.Size]byte{}, false
	}
	return *f.hash, true
}

// readers are the buffers files are hashed through.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

func hashContent(open Open, name string) ([sha256.Size]byte, bool) {
	var sum [sha256.Size]byte
	fh, _, err := open(name)
	if err != nil {
		return sum, false
	}
	defer fh.Close()
	raw := readers.Get().(*bufio.Reader)
	raw.Reset(fh)
	defer func() { raw.Reset(nil); readers.Put(raw) }()
	r := raw
	if content.IsGzip(raw) {
		zr, err := content.Decompress(raw)
		if err != nil {
			return sum, false
		}
		r = bufio.NewReaderSize(zr, 64<<10)
	}
	h := sha256.New()
	for {
		b, err := r.Peek(r.Size()) // the reader's own buffer: nothing allocated
		h.Write(b)
		r.Discard(len(b))
		switch {
		case err == io.EOF:
			h.Sum(sum[:0])
			return sum, true
		case err != nil && err != bufio.ErrBufferFull:
			return sum, false
		}
	}
}

// Own reports whether a file is an output of recap, and which
// ([RecapOutput]).
func (d *Door) Own(name string, info fs.FileInfo) (Own, bool) {
	f := d.known(name, info, first, d.learnFirst(name))
	if f.own == 0 {
		return Own{}, false
	}
	return owns[f.own-1], true
}

// Stat gives the information of a file, as the door opens it.
func (d *Door) Stat(name string) (fs.FileInfo, error) {
	fh, fi, err := d.open(name)
	if err != nil {
		return nil, err
	}
	fh.Close()
	return fi, nil
}
