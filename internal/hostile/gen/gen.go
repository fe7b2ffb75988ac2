// Package gen makes large inputs on the fly, without holding them: a
// pattern repeated to a size, between a head and a tail. It imports only
// the standard library, so that test helpers of every package
// (internal/reportstest) use it without the hostile cases' dependencies.
package gen

import (
	"io"
	"strings"
)

// Repeat gives pattern repeated up to n bytes, made as it is read.
func Repeat(pattern string, n int64) io.Reader { return &repeater{p: []byte(pattern), n: n} }

type repeater struct {
	p   []byte
	n   int64
	off int
}

func (r *repeater) Read(b []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(b)) > r.n {
		b = b[:r.n]
	}
	w := 0
	for w < len(b) {
		c := copy(b[w:], r.p[r.off:])
		w += c
		r.off = (r.off + c) % len(r.p)
	}
	r.n -= int64(w)
	return w, nil
}

// Stream is head, pattern repeated to n bytes, and tail.
func Stream(head, pattern string, n int64, tail string) io.Reader {
	return io.MultiReader(strings.NewReader(head), Repeat(pattern, n), strings.NewReader(tail))
}
