package parsers

import (
	"errors"
	"io"
)

// ahead reads a file, or undoes its gzip, on a goroutine of its own, a few
// chunks ahead of the parser that reads from it: the system's reads and
// the inflating of gzip (as long as the parsing of a gzip report) are then
// off the parser's core. Only inputs whose reads end promptly are read
// ahead (regular files): close waits for the goroutine's read under way.
type ahead struct {
	full chan aheadChunk
	free chan []byte
	quit chan struct{}
	done chan struct{}
	buf  []byte // the chunk being read, to be given back
	cur  []byte // its unread bytes
	err  error  // the error after cur
}

type aheadChunk struct {
	b        []byte
	err      error
	panicked any // a panic of the reader, raised again by Read
}

// aheadChunk is the size of the chunks read ahead, aheadChunks the chunks
// read and not yet taken: about 1 MiB ahead at most.
const (
	aheadSize   = 256 << 10
	aheadChunks = 3
	// aheadMin is the smallest file read ahead: a small report is read
	// by the parser's goroutine, with no goroutine started.
	aheadMin = 256 << 10
)

func newAhead(r io.Reader) *ahead {
	a := &ahead{
		full: make(chan aheadChunk, aheadChunks),
		free: make(chan []byte, aheadChunks+2),
		quit: make(chan struct{}),
		done: make(chan struct{}),
	}
	started.Add(1)
	go a.loop(r)
	return a
}

func (a *ahead) loop(r io.Reader) {
	defer close(a.done)
	defer func() {
		if v := recover(); v != nil {
			select {
			case a.full <- aheadChunk{err: io.ErrUnexpectedEOF, panicked: v}:
			case <-a.quit:
			}
		}
	}()
	for {
		var b []byte
		select {
		case b = <-a.free:
		case <-a.quit:
			return
		default:
			b = make([]byte, aheadSize)
		}
		n, err := io.ReadFull(r, b[:cap(b)])
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = io.EOF // a last chunk that is not full
		}
		select {
		case a.full <- aheadChunk{b: b[:n], err: err}:
		case <-a.quit:
			return
		}
		if err != nil {
			return
		}
	}
}

func (a *ahead) Read(p []byte) (int, error) {
	for len(a.cur) == 0 {
		if a.err != nil {
			return 0, a.err
		}
		if a.buf != nil {
			select {
			case a.free <- a.buf:
			default:
			}
			a.buf = nil
		}
		c := <-a.full
		if c.panicked != nil {
			a.err = c.err
			panic(c.panicked)
		}
		a.buf, a.cur, a.err = c.b, c.b, c.err
	}
	n := copy(p, a.cur)
	a.cur = a.cur[n:]
	return n, nil
}

// close stops the goroutine and waits for it: the file it reads may then
// be closed and its buffers used again.
func (a *ahead) close() {
	close(a.quit)
	<-a.done
}
