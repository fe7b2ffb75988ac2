package parsers

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// bugQueue keeps bugs' fields in order until the end of the document: the
// first spotbugsHeld in memory, and, past them, all in a temporary file,
// so that memory does not grow with the number of bugs.
type bugQueue struct {
	mem  []*bugFields
	file *os.File
	w    *bufio.Writer
	n    int // bugs in the file
}

func (q *bugQueue) add(b *bugFields) error {
	if q.file == nil && len(q.mem) < spotbugsHeld {
		q.mem = append(q.mem, b)
		return nil
	}
	if q.file == nil {
		f, err := os.CreateTemp("", "recap-spotbugs-*")
		if err != nil {
			return fmt.Errorf("a temporary file for the bugs: %w", err)
		}
		os.Remove(f.Name()) // gone once closed, whatever happens; Windows refuses, close removes it there
		q.file, q.w = f, bufio.NewWriterSize(f, 64<<10)
		for _, m := range q.mem {
			q.write(m)
		}
		q.mem = nil
	}
	q.write(b)
	return nil
}

func (q *bugQueue) write(b *bugFields) {
	var buf [binary.MaxVarintLen64]byte
	str := func(s string) {
		q.w.Write(buf[:binary.PutUvarint(buf[:], uint64(len(s)))])
		q.w.WriteString(s)
	}
	num := func(n int) { q.w.Write(buf[:binary.PutVarint(buf[:], int64(n))]) }
	for _, s := range []string{b.typ, b.category, b.abbrev, b.hash, b.sourcepath, b.start, b.end, b.field, b.sig, b.clsStart, b.clsEnd, b.message, b.where} {
		str(s)
	}
	num(b.priority)
	num(b.rank)
	num(b.cwe)
	if b.hasLine {
		num(1)
	} else {
		num(0)
	}
	q.n++
}

// each calls f with every bug, in order.
func (q *bugQueue) each(f func(*bugFields) error) error {
	for _, b := range q.mem {
		if err := f(b); err != nil {
			return err
		}
	}
	if q.file == nil {
		return nil
	}
	if err := q.w.Flush(); err != nil {
		return fmt.Errorf("the temporary file of the bugs: %w", err)
	}
	if _, err := q.file.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("the temporary file of the bugs: %w", err)
	}
	r := bufio.NewReaderSize(q.file, 64<<10)
	var b bugFields
	for i := 0; i < q.n; i++ {
		if err := readBug(r, &b); err != nil {
			return fmt.Errorf("the temporary file of the bugs: %w", err)
		}
		if err := f(&b); err != nil {
			return err
		}
	}
	return nil
}

func readBug(r *bufio.Reader, b *bugFields) error {
	var err error
	str := func() string {
		if err != nil {
			return ""
		}
		var n uint64
		if n, err = binary.ReadUvarint(r); err != nil {
			return ""
		}
		if n > maxBugText {
			err = errors.New("a field too long")
			return ""
		}
		p := make([]byte, n)
		_, err = io.ReadFull(r, p)
		return string(p)
	}
	num := func() int {
		if err != nil {
			return 0
		}
		var n int64
		n, err = binary.ReadVarint(r)
		return int(n)
	}
	for _, s := range []*string{&b.typ, &b.category, &b.abbrev, &b.hash, &b.sourcepath, &b.start, &b.end, &b.field, &b.sig, &b.clsStart, &b.clsEnd, &b.message, &b.where} {
		*s = str()
	}
	b.priority, b.rank, b.cwe, b.hasLine = num(), num(), num(), num() == 1
	return err
}

// close removes the temporary file, if any.
func (q *bugQueue) close() {
	if q.file != nil {
		q.file.Close()
		os.Remove(q.file.Name())
	}
}
