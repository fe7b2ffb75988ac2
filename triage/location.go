package triage

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Window is how many lines a location fingerprint covers: the finding's
// line and the next non-blank lines after it, up to Window in all.
const Window = 3

// Locations returns the location fingerprint of every line of src (index
// 0 for line 1): "hash:occurrence", where hash is 16 hex digits of the
// SHA-256 of the normalized text of the line and of the next non-blank
// lines (Window in all; white space removed, so that re-indenting or
// re-wrapping spaces changes nothing), and occurrence counts the lines of
// equal hash from the top of the file (1 for the first). A line keeps its
// fingerprint while lines are added or removed above it, its block is
// re-indented, or it moves within the file, as long as it and its
// neighbours below read the same and no equal line comes before it.
func Locations(src []byte) []string {
	lines := splitLines(src)
	norm := make([][]byte, len(lines))
	for i, l := range lines {
		norm[i] = normalize(l)
	}
	out := make([]string, len(lines))
	seen := map[string]int{}
	var buf []byte
	for i := range lines {
		buf = buf[:0]
		n := 0
		for j := i; j < len(lines) && n < Window; j++ {
			if j > i && len(norm[j]) == 0 {
				continue
			}
			buf = append(append(buf, norm[j]...), '\n')
			n++
		}
		sum := sha256.Sum256(buf)
		h := hex.EncodeToString(sum[:8])
		seen[h]++
		out[i] = h + ":" + strconv.Itoa(seen[h])
	}
	return out
}

// LineText returns line n (1-based) of src as the entry's Line keeps it:
// trimmed, cut to 200 characters; "" when src has no such line.
func LineText(src []byte, n int) string {
	lines := splitLines(src)
	if n < 1 || n > len(lines) {
		return ""
	}
	s := strings.TrimSpace(string(lines[n-1]))
	if utf8.RuneCountInString(s) > 200 {
		r := []rune(s)
		s = string(r[:199]) + "…"
	}
	return s
}

// SplitLocation returns a location's hash and occurrence ("ab…:2" → "ab…", 2).
func SplitLocation(loc string) (string, int) {
	i := strings.LastIndexByte(loc, ':')
	if i < 0 {
		return loc, 1
	}
	n, err := strconv.Atoi(loc[i+1:])
	if err != nil || n < 1 {
		return loc, 1
	}
	return loc[:i], n
}

func splitLines(src []byte) [][]byte {
	if len(src) == 0 {
		return nil
	}
	lines := bytes.Split(src, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// normalize removes every white space character of l.
func normalize(l []byte) []byte {
	out := make([]byte, 0, len(l))
	for i := 0; i < len(l); {
		c := l[i]
		if c < utf8.RuneSelf {
			if c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v' {
				out = append(out, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(l[i:])
		if !unicode.IsSpace(r) {
			out = append(out, l[i:i+n]...)
		}
		i += n
	}
	return out
}

// FindLine returns the number (1-based) of the first line of src that
// reads as an entry's Line (white space aside; a Line cut with "…" as the
// line's beginning), 0 when none does or line is "".
func FindLine(src []byte, line string) int {
	if line == "" {
		return 0
	}
	el := newEntryLine(line)
	sf := newSourceFile(src)
	for i := range sf.n() {
		if lineIs(sf.line(i), el) {
			return i + 1
		}
	}
	return 0
}

// LineReads reports whether line n (1-based) of src reads as an entry's
// Line, as FindLine compares them.
func LineReads(src []byte, n int, line string) bool {
	if line == "" || n < 1 {
		return false
	}
	sf := newSourceFile(src)
	return n <= sf.n() && lineIs(sf.line(n-1), newEntryLine(line))
}

// LocationAt returns the location fingerprint of line n (1-based) of src,
// as Locations gives it; "" when src has no such line.
func LocationAt(src []byte, n int) string {
	sf := newSourceFile(src)
	if n < 1 || n > sf.n() {
		return ""
	}
	return sf.location(n - 1)
}

// LineOf returns the line (1-based) of src where e's finding would be: the
// line of e's location fingerprint, else the first that reads as e's Line;
// 0 when none does (the code is gone, or changed).
func LineOf(src []byte, e *Entry) int {
	if e.Location != "" {
		for i, l := range Locations(src) {
			if l == e.Location {
				return i + 1
			}
		}
	}
	return FindLine(src, e.Line)
}

// At reports whether line n (1-based) of src is where e's finding is: its
// location fingerprint e's, or, for an entry without one, its text e's
// Line.
func At(src []byte, n int, e *Entry) bool {
	if e.Location != "" {
		return LocationAt(src, n) == e.Location
	}
	return LineReads(src, n, e.Line)
}

// SameMessage reports whether a finding's message is the one an entry
// keeps, as matching compares them: folded white space, a message cut
// with "…" as the messages it begins, "" as any message.
func SameMessage(entry, finding string) bool { return sameMessage(entry, finding) }
