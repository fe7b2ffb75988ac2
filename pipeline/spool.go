package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/recap-dev/recap/reports"
)

// spoolMemory is the most a spool keeps in memory: past it, its records go
// to a temporary file.
var spoolMemory = 1 << 20

// spool is a [Source] read once: its first Read reads the source and
// writes each finding it emits (as keep left it, with its id and
// fingerprint) to the spool, in a compact encoding (spoolcodec.go); each
// next Read replays the spool, without keep (which the first Read asked:
// it accepted every finding spooled, and what it changes is spooled) and
// with the first Read's inputs. Parsing is most of a pass's cost: the
// passes after the first of a query (each problem once, a page taken again
// past its duplicates, a recount, a deep page's passes) replay instead.
//
// When the spool cannot be written (the temporary file), the next Reads
// read the source again when it can be (reread); else they fail.
type spool struct {
	src    Source
	reread Source // src, when it can be read again; nil else

	written bool // the first Read is done
	failed  error
	inputs  []reports.Input
	n       int // records
	size    int64

	mem  bytes.Buffer
	file *os.File
	w    *bufio.Writer
	enc  *encoder
	rec  []byte
}

// newSpool returns a spool of src, and the cleanup that removes its
// temporary file (on every path: call it when the query is done).
func newSpool(src, reread Source) (*spool, func()) {
	s := &spool{src: src, reread: reread}
	return s, s.close
}

func (s *spool) close() {
	if s.file != nil {
		s.file.Close()
		os.Remove(s.file.Name())
		s.file = nil
	}
	s.mem = bytes.Buffer{}
}

// Rereadable implements [Rereadable].
func (*spool) Rereadable() bool { return true }

// Read implements [Source].
func (s *spool) Read(ctx context.Context, keep func(*reports.Finding) bool, emit func(*reports.Finding) error) ([]reports.Input, error) {
	if !s.written {
		return s.record(ctx, keep, emit)
	}
	if s.failed != nil {
		if s.reread != nil {
			return s.reread.Read(ctx, keep, emit)
		}
		return nil, s.failed
	}
	return s.inputs, s.replay(ctx, emit)
}

// record is the first Read: the source's, each finding spooled before
// emit sees it (emit may change it).
func (s *spool) record(ctx context.Context, keep func(*reports.Finding) bool, emit func(*reports.Finding) error) ([]reports.Input, error) {
	s.written, s.enc = true, newEncoder()
	inputs, err := s.src.Read(ctx, keep, func(f *reports.Finding) error {
		if s.failed == nil {
			s.rec = appendRecord(s.rec[:0], s.enc.encode(f))
			if err := s.write(s.rec); err != nil {
				s.fail(err)
			} else {
				s.n++
				s.size += int64(len(s.rec))
			}
		}
		return emit(f)
	})
	if err == nil && s.failed == nil && s.w != nil {
		if err := s.w.Flush(); err != nil {
			s.fail(err)
		}
	}
	if err != nil {
		s.fail(err) // a spool of part of the reports replays nothing
	}
	s.inputs, s.enc = inputs, nil
	return inputs, err
}

func (s *spool) fail(err error) {
	if s.failed == nil {
		s.failed = fmt.Errorf("spool: %w", err)
	}
	s.close()
}

// write writes a record, in memory while the spool is small, then to its
// temporary file.
func (s *spool) write(rec []byte) error {
	if s.w == nil {
		if s.mem.Len()+len(rec) <= spoolMemory {
			s.mem.Write(rec)
			return nil
		}
		f, err := os.CreateTemp("", "recap-spool-*")
		if err != nil {
			return err
		}
		s.file, s.w = f, bufio.NewWriterSize(f, 1<<16)
		if _, err := s.w.Write(s.mem.Bytes()); err != nil {
			return err
		}
		s.mem = bytes.Buffer{}
	}
	_, err := s.w.Write(rec)
	return err
}

// appendRecord appends a record, its length first.
func appendRecord(b, rec []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(rec))), rec...)
}

// replay emits the spooled findings, in order.
func (s *spool) replay(ctx context.Context, emit func(*reports.Finding) error) error {
	var r io.Reader = bytes.NewReader(s.mem.Bytes())
	if s.file != nil {
		r = io.NewSectionReader(s.file, 0, s.size)
	}
	return replayRecords(ctx, bufio.NewReaderSize(r, 1<<16), s.size, s.n, emit)
}

// Records are decoded ahead, on a goroutine of their own, in batches of
// replayBatch, when there are replayAhead or more: emit (grouping,
// triage, an output's encoding) takes about three times the decoding, so
// that a replay of Spring's 710,826 findings takes the time of emit alone.
const (
	replayBatch = 256
	replayAhead = 4 * replayBatch
)

// errReplayStopped ends the decoding when emit failed.
var errReplayStopped = errors.New("replay stopped")

// replayRecords decodes n records from r, size bytes, and emits each, in
// order, on the caller's goroutine: an error when r does not hold exactly
// n records that decode (after the findings of those before are emitted),
// or emit's first error.
func replayRecords(ctx context.Context, r *bufio.Reader, size int64, n int, emit func(*reports.Finding) error) (err error) {
	if n < replayAhead {
		return decodeRecords(ctx, r, size, n, emit)
	}
	batches := make(chan []reports.Finding, 2)
	free := make(chan []reports.Finding, 3)
	stop := make(chan struct{})
	var (
		decodeErr error
		panicked  any
	)
	go func() {
		defer close(batches)
		defer func() { panicked = recover() }()
		batch := make([]reports.Finding, 0, replayBatch)
		decodeErr = decodeRecords(ctx, r, size, n, func(f *reports.Finding) error {
			batch = append(batch, *f)
			if len(batch) < replayBatch {
				return nil
			}
			select {
			case batches <- batch:
			case <-stop:
				return errReplayStopped
			}
			select {
			case batch = <-free:
				batch = batch[:0]
			default:
				batch = make([]reports.Finding, 0, replayBatch)
			}
			return nil
		})
		if len(batch) > 0 && decodeErr != errReplayStopped {
			// those decoded before the end or a record that failed
			select {
			case batches <- batch:
			case <-stop:
			}
		}
	}()
	stopped := false
	defer func() {
		if !stopped { // emit panicked: the decoding ends too
			close(stop)
			for range batches {
			}
		}
	}()
	for batch := range batches {
		for i := 0; i < len(batch) && err == nil; i++ {
			err = emit(&batch[i])
		}
		if err != nil && !stopped {
			stopped = true
			close(stop)
		}
		select {
		case free <- batch:
		default:
		}
	}
	stopped = true // batches is closed: the goroutine is done
	if panicked != nil {
		panic(panicked)
	}
	if err != nil {
		return err
	}
	return decodeErr
}

// decodeRecords is replayRecords on the caller's goroutine alone.
func decodeRecords(ctx context.Context, r *bufio.Reader, size int64, n int, emit func(*reports.Finding) error) error {
	var (
		d   decoder
		f   reports.Finding
		buf []byte
	)
	for i := 0; i < n; i++ {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		l, err := binary.ReadUvarint(r)
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return recordError(i, err)
		}
		size -= int64(uvarintLen(l))
		if l > uint64(max(size, 0)) {
			return recordError(i, io.ErrUnexpectedEOF)
		}
		size -= int64(l)
		var rec []byte
		peeked := int(l) <= r.Buffered()
		if peeked {
			rec, _ = r.Peek(int(l)) // no copy: decoded before the next read
		} else {
			if cap(buf) < int(l) {
				buf = make([]byte, l)
			}
			rec = buf[:l]
			if _, err := io.ReadFull(r, rec); err != nil {
				if err == io.EOF {
					err = io.ErrUnexpectedEOF
				}
				return recordError(i, err)
			}
		}
		err = d.decode(rec, &f)
		if peeked {
			r.Discard(int(l))
		}
		if err != nil {
			return recordError(i, err)
		}
		if err := emit(&f); err != nil {
			return err
		}
	}
	if _, err := r.ReadByte(); err != io.EOF {
		return recordError(n, errors.New("more than the records written"))
	}
	return nil
}

func uvarintLen(x uint64) int {
	n := 1
	for ; x >= 0x80; x >>= 7 {
		n++
	}
	return n
}

// replayable returns the source of a query's passes when it has several:
// a spool of report files (standard input too), which the first pass
// writes and the later ones replay; a [Rereadable] source as it is (the
// MCP server's reports, already parsed in memory, are made again at less
// cost than a spool's decoding); false for a source of another kind.
// cleanup removes the spool's temporary file. With RECAP_NO_SPOOL set in
// the environment, report files are parsed again at each pass instead (to
// compare).
func replayable(src Source) (Source, func(), bool, error) {
	if os.Getenv("RECAP_NO_SPOOL") != "" {
		return rereadable(src)
	}
	inner, wrapped := src, false
	if a, ok := src.(again); ok {
		inner, wrapped = a.Source, true
	}
	switch x := inner.(type) {
	case Files:
		var reread Source
		if wrapped || !slices.Contains(x.Paths, "-") || x.Options.Stdin == nil {
			reread = src
		}
		sp, cleanup := newSpool(src, reread)
		return sp, cleanup, true, nil
	case rewound:
		sp, cleanup := newSpool(src, src)
		return sp, cleanup, true, nil
	}
	return rereadable(src)
}
