package parsers

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"sync"
)

// A result's locations past the first spillAfter are written compactly
// (varints, a table of the URIs already seen) into a buffer that goes to a
// temporary file past spillInMemory bytes, and read back when the result
// is converted: PMD 6.31–6.42 put every violation of a rule into one
// result, and a result of 3 million locations must not hold them as
// structs (640 MB). Only PMD's results need their locations past the
// first (see sarifRun.convert): another tool's are read and dropped.
const spillAfter = 4096

// spillInMemory is the bytes a spill keeps in memory (a variable for tests).
var spillInMemory = 8 << 20

// locSpill holds a result's locations past the first spillAfter.
type locSpill struct {
	n    int
	buf  bytes.Buffer
	f    *os.File // nil while buf holds them all
	w    *bufio.Writer
	uris map[string]uint64 // URIs written, by number
	err  error
	// byIndex: a location names its artifact by index alone.
	byIndex bool
	rec     []byte // the record being written
	once    sync.Once
}

// add writes l.
func (sp *locSpill) add(l *sarifLocation) {
	if sp.err != nil {
		return
	}
	if byIndex(l) {
		sp.byIndex = true
	}
	sp.rec = sp.encode(sp.rec[:0], l)
	rec := sp.rec
	sp.n++
	if sp.f == nil && sp.buf.Len()+len(rec) <= spillInMemory {
		sp.buf.Write(rec)
		return
	}
	if sp.f == nil {
		if sp.f, sp.err = os.CreateTemp("", "recap-locations-*"); sp.err != nil {
			return
		}
		sp.w = bufio.NewWriterSize(sp.f, 64<<10)
		_, sp.err = sp.w.Write(sp.buf.Bytes())
		sp.buf = bytes.Buffer{}
	}
	if sp.err == nil {
		_, sp.err = sp.w.Write(rec)
	}
}

// each calls fn with each location spilled, in order.
func (sp *locSpill) each(fn func(l sarifLocation) error) error {
	if sp.err != nil {
		return sp.err
	}
	var r *bufio.Reader
	if sp.f == nil {
		r = bufio.NewReader(bytes.NewReader(sp.buf.Bytes()))
	} else {
		if err := sp.w.Flush(); err != nil {
			return err
		}
		if _, err := sp.f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		r = bufio.NewReaderSize(sp.f, 64<<10)
	}
	var uris []string
	for i := 0; i < sp.n; i++ {
		l, err := decodeLocation(r, &uris)
		if err != nil {
			return errors.New("reading back the locations of a result: " + err.Error())
		}
		if err := fn(l); err != nil {
			return err
		}
	}
	return nil
}

// close removes the temporary file, once.
func (sp *locSpill) close() {
	if sp == nil {
		return
	}
	sp.once.Do(func() {
		if sp.f != nil {
			sp.f.Close()
			os.Remove(sp.f.Name())
		}
		sp.buf = bytes.Buffer{}
	})
}

// What a location record holds, flags first.
const (
	locPhysical = 1 << iota
	locArtifact
	locIndex
	locRegion
	locContext
	locMessage
)

func (sp *locSpill) encode(b []byte, l *sarifLocation) []byte {
	var flags byte
	pl := l.PhysicalLocation
	if pl != nil {
		flags |= locPhysical
		if pl.ArtifactLocation != nil {
			flags |= locArtifact
			if pl.ArtifactLocation.Index != nil {
				flags |= locIndex
			}
		}
		if pl.Region != nil {
			flags |= locRegion
		}
		if pl.ContextRegion != nil {
			flags |= locContext
		}
	}
	if l.Message != nil {
		flags |= locMessage
	}
	b = append(b, flags)
	if flags&locArtifact != 0 {
		a := pl.ArtifactLocation
		b = sp.uri(b, a.URI)
		b = putString(b, a.URIBaseID)
		if a.Index != nil {
			b = binary.AppendVarint(b, int64(*a.Index))
		}
	}
	if flags&locRegion != 0 {
		b = putRegion(b, pl.Region)
	}
	if flags&locContext != 0 {
		b = putRegion(b, pl.ContextRegion)
	}
	if flags&locMessage != 0 {
		m := l.Message
		b = putString(b, m.Text)
		b = putString(b, m.Markdown)
		b = putString(b, m.ID)
		b = binary.AppendUvarint(b, uint64(len(m.Arguments)))
		for _, a := range m.Arguments {
			b = putString(b, a)
		}
	}
	return b
}

// uri writes a URI: its number when written before (+1), else 0 and the
// URI, numbered while maxInterned are.
func (sp *locSpill) uri(b []byte, u string) []byte {
	if n, ok := sp.uris[u]; ok {
		return binary.AppendUvarint(b, n+1)
	}
	b = binary.AppendUvarint(b, 0)
	b = putString(b, u)
	if sp.uris == nil {
		sp.uris = map[string]uint64{}
	}
	if len(sp.uris) < maxInterned {
		sp.uris[u] = uint64(len(sp.uris))
	}
	return b
}

func putString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func putRegion(b []byte, r *sarifRegion) []byte {
	for _, v := range []int{r.StartLine, r.StartColumn, r.EndLine, r.EndColumn} {
		b = binary.AppendVarint(b, int64(v))
	}
	if r.Snippet == nil {
		return append(b, 0)
	}
	b = append(b, 1)
	b = putString(b, r.Snippet.Text)
	return putString(b, r.Snippet.Markdown)
}

func decodeLocation(r *bufio.Reader, uris *[]string) (sarifLocation, error) {
	var l sarifLocation
	flags, err := r.ReadByte()
	if err != nil {
		return l, err
	}
	if flags&locPhysical != 0 {
		l.PhysicalLocation = &sarifPhysicalLocation{}
	}
	pl := l.PhysicalLocation
	if flags&locArtifact != 0 {
		a := &sarifArtifactLocation{}
		n, err := binary.ReadUvarint(r)
		if err != nil {
			return l, err
		}
		if n == 0 {
			if a.URI, err = getString(r); err != nil {
				return l, err
			}
			if len(*uris) < maxInterned {
				*uris = append(*uris, a.URI)
			}
		} else if int(n-1) < len(*uris) {
			a.URI = (*uris)[n-1]
		} else {
			return l, errors.New("a URI out of the table")
		}
		if a.URIBaseID, err = getString(r); err != nil {
			return l, err
		}
		if flags&locIndex != 0 {
			v, err := binary.ReadVarint(r)
			if err != nil {
				return l, err
			}
			i := int(v)
			a.Index = &i
		}
		pl.ArtifactLocation = a
	}
	if flags&locRegion != 0 {
		if pl.Region, err = getRegion(r); err != nil {
			return l, err
		}
	}
	if flags&locContext != 0 {
		if pl.ContextRegion, err = getRegion(r); err != nil {
			return l, err
		}
	}
	if flags&locMessage != 0 {
		m := &sarifMessage{}
		for _, dst := range []*string{&m.Text, &m.Markdown, &m.ID} {
			if *dst, err = getString(r); err != nil {
				return l, err
			}
		}
		n, err := binary.ReadUvarint(r)
		if err != nil {
			return l, err
		}
		for ; n > 0; n-- {
			a, err := getString(r)
			if err != nil {
				return l, err
			}
			m.Arguments = append(m.Arguments, a)
		}
		l.Message = m
	}
	return l, nil
}

func getString(r *bufio.Reader) (string, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return "", err
	}
	if n > 1<<30 {
		return "", errors.New("a string too long")
	}
	b := make([]byte, n)
	_, err = io.ReadFull(r, b)
	return string(b), err
}

func getRegion(r *bufio.Reader) (*sarifRegion, error) {
	g := &sarifRegion{}
	for _, dst := range []*int{&g.StartLine, &g.StartColumn, &g.EndLine, &g.EndColumn} {
		v, err := binary.ReadVarint(r)
		if err != nil {
			return nil, err
		}
		*dst = int(v)
	}
	has, err := r.ReadByte()
	if err != nil || has == 0 {
		return g, err
	}
	g.Snippet = &sarifMultiformat{}
	if g.Snippet.Text, err = getString(r); err != nil {
		return nil, err
	}
	g.Snippet.Markdown, err = getString(r)
	return g, err
}
