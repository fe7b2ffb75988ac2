package parsers

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// charsetReader lets encoding/xml read the 8-bit encodings older Checkstyle,
// PMD and FindBugs reports declare (ISO-8859-1, Windows-1252 is read as
// Latin-1). Anything else is an error that names the encoding.
func charsetReader(label string, r io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return r, nil
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "windows-1252", "cp1252":
		return &latin1Reader{r: bufio.NewReader(r)}, nil
	}
	return nil, fmt.Errorf("unsupported XML encoding %q (recap reads UTF-8 and ISO-8859-1)", label)
}

// latin1Reader converts ISO-8859-1 bytes to UTF-8.
type latin1Reader struct {
	r   *bufio.Reader
	buf []byte
}

func (l *latin1Reader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(l.buf) > 0 {
			c := copy(p[n:], l.buf)
			l.buf = l.buf[c:]
			n += c
			continue
		}
		b, err := l.r.ReadByte()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		if b < utf8.RuneSelf {
			p[n] = b
			n++
			continue
		}
		var enc [2]byte
		utf8.EncodeRune(enc[:], rune(b))
		c := copy(p[n:], enc[:])
		l.buf = append(l.buf[:0], enc[c:]...)
		n += c
	}
	return n, nil
}
