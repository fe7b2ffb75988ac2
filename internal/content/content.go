// Package content holds the checks recap makes on the raw bytes of its
// inputs wherever they are read: whether a stream is gzip (undone before
// reading), whether a file is binary as git decides, and the plain message
// of an error from opening a path. It depends on the standard library and
// klauspost/compress's gzip, which undoes gzip a third faster than the
// standard library's, with the same errors.
package content

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// IsGzip reports whether br's content starts with gzip's magic bytes. It
// peeks, reading nothing.
func IsGzip(br *bufio.Reader) bool {
	magic, err := br.Peek(2)
	return err == nil && magic[0] == 0x1f && magic[1] == 0x8b
}

// Decompress returns br itself when its content is not gzip, and a reader of
// the decompressed content when it is. The error is the gzip header's,
// worded "gzip: …".
func Decompress(br *bufio.Reader) (io.Reader, error) {
	if !IsGzip(br) {
		return br, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	zr.Multistream(false)
	return &gzipStreams{zr: zr, br: br}, nil
}

// bare is an error's message without gzip's "gzip: ".
func bare(err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "cut short"
	}
	return strings.TrimPrefix(err.Error(), "gzip: ")
}

// gzipStreams reads gzip members one after the other (as gzip -d does),
// and says what is wrong when what follows a member is not one: junk
// after the compressed data, or a member cut short, are named as such, not
// left for the reader above to take as its own input ending early.
type gzipStreams struct {
	zr      *gzip.Reader
	br      *bufio.Reader
	members int
	err     error
}

func (g *gzipStreams) Read(p []byte) (int, error) {
	for g.err == nil {
		n, err := g.zr.Read(p)
		switch {
		case err == io.EOF:
			g.members++
			if _, perr := g.br.Peek(1); perr == io.EOF {
				g.err = io.EOF
			} else if rerr := g.zr.Reset(g.br); rerr != nil {
				g.err = fmt.Errorf("gzip: what follows the compressed data (member %d) is not gzip (%s)", g.members, bare(rerr))
			} else {
				g.zr.Multistream(false)
			}
		case errors.Is(err, io.ErrUnexpectedEOF):
			g.err = fmt.Errorf("gzip: the compressed data (member %d) is cut short", g.members+1)
		case err != nil:
			g.err = err // gzip's own, "gzip: invalid checksum"
			if !strings.HasPrefix(err.Error(), "gzip: ") {
				g.err = fmt.Errorf("gzip: %w", err)
			}
		}
		if n > 0 {
			return n, nil
		}
	}
	return 0, g.err
}

// BinarySniffLen is how many leading bytes [IsBinary] looks at, as git does.
const BinarySniffLen = 8000

// IsBinary decides as git does: content is binary when a NUL byte is among
// its first 8,000 bytes.
func IsBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), BinarySniffLen)], 0) >= 0
}

// PathErr drops the operation and path an *fs.PathError repeats ("open
// a.txt: no such file or directory" becomes "no such file or directory"),
// for messages that name the path already; other errors are returned as they
// are.
func PathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
