package parsers

import (
	"bytes"
	"io"
)

// lineCounter is a reader that lets an error at a byte offset be turned into a
// line and column without keeping the input: it counts newlines as bytes pass
// and keeps only the last two chunks read, where a decoder's error offsets fall.
type lineCounter struct {
	r        io.Reader
	read     int64 // bytes read so far
	lines    int   // newlines before chunks[0]
	start    int64 // offset of chunks[0]
	chunks   [2][]byte
	inChunk0 int // newlines in chunks[0]
}

func newLineCounter(r io.Reader) *lineCounter { return &lineCounter{r: r} }

func (c *lineCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		// chunks[1] becomes chunks[0]; the new data becomes chunks[1].
		c.lines += c.inChunk0
		c.start += int64(len(c.chunks[0]))
		c.chunks[0], c.chunks[1] = c.chunks[1], append(c.chunks[0][:0], p[:n]...)
		c.inChunk0 = bytes.Count(c.chunks[0], []byte{'\n'})
		c.read += int64(n)
	}
	return n, err
}

// position returns the 1-based line and column of a byte offset, or 0, 0 when
// the offset is no longer among the kept chunks.
func (c *lineCounter) position(off int64) (line, col int) {
	if off < c.start || off > c.read {
		return 0, 0
	}
	kept := append(append([]byte{}, c.chunks[0]...), c.chunks[1]...)
	rel := int(off - c.start)
	if rel > len(kept) {
		rel = len(kept)
	}
	before := kept[:rel]
	line = c.lines + bytes.Count(before, []byte{'\n'}) + 1
	col = rel - (bytes.LastIndexByte(before, '\n') + 1) + 1
	if bytes.LastIndexByte(before, '\n') < 0 && c.start > 0 {
		return line, 0 // the line starts before the kept chunks
	}
	return line, col
}
