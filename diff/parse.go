package diff

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// Bounds of the diff reader: a diff is read line by line as it streams,
// and these make an input that is not a diff (a binary file, a log, a
// stream of zeros) an error at its first lines, not a read of the whole.
const (
	// MaxLine bounds a line of a diff, in bytes: a line is held whole (by
	// the parser, and as a hunk's text). Lines of minified code rarely pass
	// 1 MiB; a longer line is an error.
	MaxLine = 8 << 20
	// MaxPreamble bounds the text before the first file header (diff --git,
	// or ---): a commit message in git format-patch output, a few KiB.
	MaxPreamble = 1 << 20
)

// diffLines gives go-gitdiff its lines (it reads with ReadString), checking
// them against MaxLine, and the text before the first file header against
// MaxPreamble and for NUL bytes, which no text diff has there.
type diffLines struct {
	r      *bufio.Reader
	line   int   // lines given
	header bool  // a file header was seen
	pre    int64 // bytes before it
	buf    []byte
}

func (d *diffLines) ReadString(delim byte) (string, error) {
	d.buf = d.buf[:0]
	for {
		chunk, err := d.r.ReadSlice(delim)
		if !d.header {
			if bytes.IndexByte(chunk, 0) >= 0 {
				return "", fmt.Errorf("line %d: binary data before any file header: not a diff", d.line+1)
			}
			if d.pre += int64(len(chunk)); d.pre > MaxPreamble {
				return "", fmt.Errorf("line %d: no file header (diff --git, or --- and +++ lines) in the first %d MiB: not a diff", d.line+1, MaxPreamble>>20)
			}
		}
		if len(d.buf)+len(chunk) > MaxLine {
			return "", fmt.Errorf("line %d: a line longer than %d MiB: not a diff", d.line+1, MaxLine>>20)
		}
		if err == bufio.ErrBufferFull {
			if need := len(d.buf) + len(chunk); need > cap(d.buf) {
				// Doubled, at most to the bound: a line near it leaves
				// at most as much again behind (append grows large
				// slices by a quarter, leaving four times the line).
				grown := make([]byte, len(d.buf), min(max(2*cap(d.buf), need), MaxLine))
				copy(grown, d.buf)
				d.buf = grown
			}
			d.buf = append(d.buf, chunk...)
			continue
		}
		var line string
		if len(d.buf) == 0 {
			line = string(chunk)
		} else {
			line = string(append(d.buf, chunk...))
		}
		if len(line) > 0 {
			d.line++
			if !d.header && (strings.HasPrefix(line, "diff ") || strings.HasPrefix(line, "--- ")) {
				d.header = true
			}
		}
		return line, err
	}
}

// stripPrefixes drops the a/ and b/ of a plain diff's names, as patch -p1
// would (git's own headers are stripped by the parser already, and for a
// plain diff it gives the +++ name to both sides).
func stripPrefixes(f *File) {
	ok := func(p string) bool { return p == "" || strings.HasPrefix(p, "a/") || strings.HasPrefix(p, "b/") }
	if !ok(f.OldPath) || !ok(f.NewPath) {
		return
	}
	strip := func(p string) string {
		if p == "" {
			return p
		}
		return p[2:]
	}
	f.OldPath, f.NewPath = strip(f.OldPath), strip(f.NewPath)
}
