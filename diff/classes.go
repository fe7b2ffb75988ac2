// Copyright (C) 2003 Davide Libenzi (xdiff), the git authors, and the
// recap authors.
//
// This file is a port of git's xdiff (xdiff/xdiffi.c, xdiff/xprepare.c) and
// is distributed under the GNU Lesser General Public License, version 2.1 or
// (at your option) any later version, as xdiff is; see LICENSES/LGPL-2.1.txt.
// It is not under recap's MIT licence.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

package diff

import (
	"bytes"
	"hash/maphash"
)

// classifier gives each distinct line a number, its class, as xdiff's
// classifier does, and counts each class's lines in the old file and the
// new one. Lines are equal when their bytes are (a last line without a
// newline differs from the same text with one), or, with ws, when they are
// once every white space character is removed. Lines are found by a 64-bit
// hash; when their text is at hand (texts) a hash match is checked against
// it, else the hash alone decides (a file read as a stream).
type classifier struct {
	seed  maphash.Seed
	ws    bool
	slots []int32 // class+1 of each slot, 0 for a free one
	mask  uint64
	hash  []uint64 // by class
	count [2][]int32
	// reps is each class's first line (side<<31 | line), to check a hash
	// match against, when texts is set.
	reps  []uint32
	texts *[2]*lines
	buf   []byte // a squeezed line
}

// newClassifier makes a classifier for at most lines lines: its tables
// are made once, at their largest.
func newClassifier(ws bool, texts *[2]*lines, lines int) *classifier {
	c := &classifier{seed: maphash.MakeSeed(), ws: ws, texts: texts}
	n := 64
	for n*3 < lines*4 { // a load of at most 3/4
		n <<= 1
	}
	c.slots = make([]int32, n)
	c.mask = uint64(n - 1)
	c.hash = make([]uint64, 0, lines)
	c.count[0] = make([]int32, 0, lines)
	c.count[1] = make([]int32, 0, lines)
	if texts != nil {
		c.reps = make([]uint32, 0, lines)
	}
	return c
}

// key is what a line is compared by: its bytes, squeezed with ws, and a
// mark for a last line without a newline (without ws).
func (c *classifier) key(text []byte, noEOL bool) []byte {
	if c.ws {
		c.buf = squeezeAppend(c.buf[:0], text)
		return c.buf
	}
	if noEOL {
		c.buf = append(append(c.buf[:0], text...), 0)
		return c.buf
	}
	return text
}

// add classifies line number line of side (0 old, 1 new), whose text is
// given, and returns its class.
func (c *classifier) add(side, line int, text []byte, noEOL bool) int32 {
	k := c.key(text, noEOL)
	return c.addHashed(side, line, maphash.Bytes(c.seed, k), k)
}

// addHashed classifies a line by its key's hash h; key, when not nil, is
// checked against a class's first line.
func (c *classifier) addHashed(side, line int, h uint64, key []byte) int32 {
	for i := h & c.mask; ; i = (i + 1) & c.mask {
		cl := c.slots[i] - 1
		if cl < 0 {
			cl = int32(len(c.hash))
			c.slots[i] = cl + 1
			c.hash = append(c.hash, h)
			c.count[0] = append(c.count[0], 0)
			c.count[1] = append(c.count[1], 0)
			if c.texts != nil {
				c.reps = append(c.reps, uint32(side)<<31|uint32(line))
			}
			c.count[side][cl]++
			if len(c.hash)*4 > len(c.slots)*3 {
				c.grow()
			}
			return cl
		}
		if c.hash[cl] != h || key != nil && c.texts != nil && !c.sameAs(cl, key) {
			continue
		}
		c.count[side][cl]++
		return cl
	}
}

// sameAs reports whether key is class cl's.
func (c *classifier) sameAs(cl int32, key []byte) bool {
	r := c.reps[cl]
	t := c.texts[r>>31]
	i := int(r &^ (1 << 31))
	text, noEOL := t.text(i), t.noEOL && i == t.n()-1
	if c.ws {
		return squeezedEqual(text, key)
	}
	if noEOL {
		return len(key) == len(text)+1 && key[len(text)] == 0 && bytes.Equal(key[:len(text)], text)
	}
	return bytes.Equal(key, text)
}

func (c *classifier) grow() {
	n := len(c.slots) * 2
	c.slots = make([]int32, n)
	c.mask = uint64(n - 1)
	for cl, h := range c.hash {
		i := h & c.mask
		for c.slots[i] != 0 {
			i = (i + 1) & c.mask
		}
		c.slots[i] = int32(cl) + 1
	}
}

// isSpaceByte: white space as git's diff ignores it (-w, -b): space,
// tab, LF and CR, git's isspace. A vertical tab, a form feed or a
// non-breaking space is text to git, and so to recap.
func isSpaceByte(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r'
}

// squeezeAppend appends text without its white space characters.
func squeezeAppend(dst, text []byte) []byte {
	for _, b := range text {
		if !isSpaceByte(b) {
			dst = append(dst, b)
		}
	}
	return dst
}

// squeezeAppendString is squeezeAppend of a string.
func squeezeAppendString(dst []byte, text string) []byte {
	for i := 0; i < len(text); i++ {
		if b := text[i]; !isSpaceByte(b) {
			dst = append(dst, b)
		}
	}
	return dst
}

// squeezedEqual reports whether text without its white space is squeezed.
func squeezedEqual(text, squeezed []byte) bool {
	j := 0
	for _, b := range text {
		if isSpaceByte(b) {
			continue
		}
		if j >= len(squeezed) || squeezed[j] != b {
			return false
		}
		j++
	}
	return j == len(squeezed)
}

// lines is a file's content cut into lines.
type lines struct {
	data   []byte
	starts []int32 // where each line starts; one more for the end
	noEOL  bool    // the last line has no newline
}

// cutLines cuts data into lines.
func cutLines(data []byte) *lines {
	n := bytes.Count(data, []byte{'\n'})
	l := &lines{data: data, starts: make([]int32, 0, n+2)}
	for off := 0; off < len(data); {
		l.starts = append(l.starts, int32(off))
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			l.noEOL = true
			break
		}
		off += i + 1
	}
	l.starts = append(l.starts, int32(len(data)))
	return l
}

func (l *lines) n() int { return len(l.starts) - 1 }

// text is line i without its newline.
func (l *lines) text(i int) []byte {
	t := l.data[l.starts[i]:l.starts[i+1]]
	if len(t) > 0 && t[len(t)-1] == '\n' {
		t = t[:len(t)-1]
	}
	return t
}

// indent is a line's indentation (a tab to the next multiple of 8, at most
// 200), or -1 for a blank line, as git's indent heuristic measures it.
func indent(text []byte) int {
	n := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case ' ':
			n++
		case '\t':
			n += 8 - n%8
		case '\r', '\f', '\v':
		default:
			return n
		}
		if n >= 200 {
			return 200
		}
	}
	return -1
}
