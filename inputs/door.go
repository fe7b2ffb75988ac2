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
	"sync"
	"time"

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

// fact is what is known of a file of a given size and modification time.
type fact struct {
	size  int64
	mtime time.Time

	kind   Kind
	format string
	looked bool

	csize int64
	sized bool

	hash   [sha256.Size]byte
	hashOK bool
	hashed bool

	own             Own
	isOwn, ownKnown bool
}

// merge adds what o knows and f does not.
func (f *fact) merge(o fact) {
	if !f.looked && o.looked {
		f.kind, f.format, f.looked = o.kind, o.format, true
	}
	if !f.sized && o.sized {
		f.csize, f.sized = o.csize, true
	}
	if !f.hashed && o.hashed {
		f.hash, f.hashOK, f.hashed = o.hash, o.hashOK, true
	}
	if !f.ownKnown && o.ownKnown {
		f.own, f.isOwn, f.ownKnown = o.own, o.isOwn, true
	}
}

// known returns what is known of the file name of info, learning it with
// learn unless has says it is known already for its size and time.
func (d *Door) known(name string, info fs.FileInfo, learn func(*fact), has func(*fact) bool) fact {
	d.mu.Lock()
	f, hit := d.facts[name]
	d.mu.Unlock()
	if !hit || f.size != info.Size() || !f.mtime.Equal(info.ModTime()) {
		f = fact{size: info.Size(), mtime: info.ModTime()}
	} else if has(&f) {
		return f
	}
	learn(&f)
	d.mu.Lock()
	if len(d.facts) >= maxFacts {
		clear(d.facts)
	}
	if old, ok := d.facts[name]; ok && old.size == f.size && old.mtime.Equal(f.mtime) {
		f.merge(old) // learnt meanwhile by another caller
	}
	d.facts[name] = f
	d.mu.Unlock()
	return f
}

// Kind tells what the file name (of info) holds from its first bytes, and
// its format when it is a report; Unknown when it cannot be read.
func (d *Door) Kind(name string, info fs.FileInfo) (Kind, string) {
	f := d.known(name, info, func(f *fact) {
		if fh, _, err := d.open(name); err == nil {
			f.kind, f.format = d.look(fh)
			fh.Close()
		}
		f.looked = true
	}, func(f *fact) bool { return f.looked })
	return f.kind, f.format
}

// ContentSize is the size of a file's content: its size, or for a gzip
// file the size its trailer records (modulo 4 GiB; of its last member).
// It is a first filter of equal contents (a report and its gzip have the
// same), compared by hash before anything is left out; a bound on the
// bytes a search reads takes the larger of it and the file's size. False
// when the file cannot be read.
func (d *Door) ContentSize(name string, info fs.FileInfo) (int64, bool) {
	f := d.known(name, info, func(f *fact) {
		f.csize, f.sized = gzipSize(d.open, name)
	}, func(f *fact) bool { return f.sized })
	return f.csize, f.sized
}

// gzipSize is a file's content size (see ContentSize).
func gzipSize(open Open, name string) (int64, bool) {
	fh, fi, err := open(name)
	if err != nil {
		return 0, false
	}
	defer fh.Close()
	var magic [2]byte
	if _, err := io.ReadFull(fh, magic[:]); err != nil || magic != [2]byte{0x1f, 0x8b} || fi.Size() < 18 {
		return fi.Size(), true
	}
	var trailer [4]byte
	if _, err := fh.ReadAt(trailer[:], fi.Size()-4); err != nil {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint32(trailer[:])), true
}

// Hash is the SHA-256 of a file's content, gzip undone; false when it
// cannot be read.
func (d *Door) Hash(name string, info fs.FileInfo) ([sha256.Size]byte, bool) {
	f := d.known(name, info, func(f *fact) {
		f.hash, f.hashOK = hashContent(d.open, name)
		f.hashed = true
	}, func(f *fact) bool { return f.hashed })
	return f.hash, f.hashOK
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
	var r io.Reader = raw
	if content.IsGzip(raw) {
		if r, err = content.Decompress(raw); err != nil {
			return sum, false
		}
	}
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return sum, false
	}
	h.Sum(sum[:0])
	return sum, true
}

// Own reports whether a file is an output of recap, and which
// ([RecapOutput]).
func (d *Door) Own(name string, info fs.FileInfo) (Own, bool) {
	f := d.known(name, info, func(f *fact) {
		if fh, fi, err := d.open(name); err == nil {
			f.own, f.isOwn = RecapOutput(name, fh, fi.Size())
			fh.Close()
		}
		f.ownKnown = true
	}, func(f *fact) bool { return f.ownKnown })
	return f.own, f.isOwn
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
