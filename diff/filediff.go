package diff

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"hash/maphash"
	"io"
	"unicode/utf8"

	"github.com/recap-dev/recap/internal/content"
)

// Bounds of the line diff of one file. git diffs any file below
// core.bigFileThreshold (512 MiB) in memory several times its size, and
// GitHub shows no file whose diff passes 20,000 lines; recap diffs a file
// of any size in bounded memory and summarizes what is too large to show
// (see [Large]).
const (
	// MaxDiffBytes: a side up to this size is read whole, its text kept for
	// the hunks; a larger one is read as a stream, its lines hashed (64
	// bits) and not kept, and the file is summarized.
	MaxDiffBytes = 8 << 20
	// MaxDiffLines: a file with more lines than this, its two sides
	// together, is not diffed (a line diff holds about 50 bytes a line):
	// only its line counts are told.
	MaxDiffLines = 2_500_000
	// MaxHunkLines: a file whose hunks would show more lines than this is
	// summarized, its counts and changed lines kept, its hunks not.
	MaxHunkLines = 20_000
)

// blob is one side of a file to diff.
type blob struct {
	present bool
	size    int64
	// data is the content, when it was read whole (size ≤ MaxDiffBytes).
	data []byte
	// open reads the content, once or more, when it was not.
	open func() (io.ReadCloser, error)
}

// readBlob reads a side whole when it is small enough, else keeps open
// for the streamed reads.
func readBlob(size int64, open func() (io.ReadCloser, error)) (blob, error) {
	b := blob{present: true, size: size, open: open}
	if size > MaxDiffBytes {
		return b, nil
	}
	rd, err := open()
	if err != nil {
		return b, err
	}
	defer rd.Close()
	data := make([]byte, size)
	n, err := io.ReadFull(rd, data)
	switch {
	case err == io.ErrUnexpectedEOF || err == io.EOF:
		data = data[:n] // shorter than its size said
	case err != nil:
		return b, err
	default:
		var one [1]byte
		if m, _ := io.ReadFull(rd, one[:]); m > 0 {
			return b, nil // longer than its size said: read as a stream
		}
	}
	b.data = data
	return b, nil
}

func (b *blob) whole() bool { return !b.present || b.data != nil }

func (b *blob) reader() (io.ReadCloser, error) {
	if !b.present {
		return io.NopCloser(bytes.NewReader(nil)), nil
	}
	if b.data != nil {
		return io.NopCloser(bytes.NewReader(b.data)), nil
	}
	return b.open()
}

// binary reports whether the side is binary, as git decides (a NUL byte in
// its first 8,000 bytes).
func (b *blob) binary() (bool, error) {
	if b.data != nil || !b.present {
		return content.IsBinary(b.data), nil
	}
	rd, err := b.open()
	if err != nil {
		return false, err
	}
	defer rd.Close()
	head := make([]byte, 8000)
	n, err := io.ReadFull(rd, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return false, err
	}
	return content.IsBinary(head[:n]), nil
}

// fileSide is one side of a line diff in the making.
type fileSide struct {
	side
	text    *lines  // the lines, when the side was read whole
	indents []uint8 // each line's indent+1 (0: blank), when streamed
	lines   int
	noEOL   bool
	counted bool    // lines and noEOL are known
	count   []int32 // each class's lines on this side
	blank   int32   // the class of a blank line (with white space ignored), or -1
}

func (s *fileSide) indentAt(i int) int {
	if s.text != nil {
		return indent(s.text.text(i))
	}
	return int(s.indents[i]) - 1
}

// diffFile diffs the two sides of f (which differ) into f's hunks, or
// marks f binary, or summarizes it as large; with changed, it also finds
// f's Changed lines.
func diffFile(ctx context.Context, f *File, old, cur blob, changed bool) error {
	for _, b := range []*blob{&old, &cur} {
		bin, err := b.binary()
		if err != nil {
			return err
		}
		if bin {
			f.Binary = true
			return nil
		}
	}
	if old.whole() && cur.whole() && bytes.Equal(old.data, cur.data) {
		return nil
	}
	var sides [2]fileSide
	for i, b := range []*blob{&old, &cur} {
		if b.data != nil {
			sides[i].text = cutLines(b.data)
			sides[i].lines, sides[i].noEOL = sides[i].text.n(), sides[i].text.noEOL
		}
	}
	texts := &[2]*lines{sides[0].text, sides[1].text}
	whole := old.whole() && cur.whole()
	if !whole {
		texts = nil // lines are told apart by their hash alone
	}
	if err := classifySides(ctx, &sides, [2]*blob{&old, &cur}, false, texts); err != nil {
		if err == errTooManyLines {
			f.Large = &Large{OldLines: sides[0].lines, NewLines: sides[1].lines}
			return nil
		}
		return err
	}
	chs, err := diffSides(ctx, &sides, false)
	if err != nil {
		return err
	}
	n1, n2 := sides[0].lines, sides[1].lines
	ranges := hunkRanges(chs, n1, n2, ContextLines)
	shown := 0
	for _, h := range ranges {
		shown += h.lineCount(chs)
	}
	if whole && shown <= MaxHunkLines {
		for _, h := range ranges {
			f.Hunks = append(f.Hunks, buildHunk(h, chs, orEmpty(texts[0]), orEmpty(texts[1])))
		}
	} else {
		l := &Large{OldLines: n1, NewLines: n2, Diffed: true}
		for _, c := range chs {
			l.Added += c.add
			l.Deleted += c.del
			l.AddedRuns = appendRun(l.AddedRuns, c.n+1, c.n+c.add)
		}
		for _, h := range ranges {
			l.HunkRuns = appendRun(l.HunkRuns, h.n0+1, h.n1)
		}
		f.Large = l
	}
	chs, ranges = nil, nil
	if changed && old.present && cur.present && n1 > 0 && n2 > 0 {
		if err := classifySides(ctx, &sides, [2]*blob{&old, &cur}, true, texts); err != nil {
			return err
		}
		wsChs, err := diffSides(ctx, &sides, true)
		if err != nil {
			return err
		}
		f.Changed = []int{}
		blank := sides[1].blank
		for _, c := range wsChs {
			for j := c.n; j < c.n+c.add; j++ {
				if sides[1].ids[j] != blank {
					f.Changed = append(f.Changed, j+1)
				}
			}
		}
	}
	return nil
}

var emptyLines = cutLines(nil)

func orEmpty(l *lines) *lines {
	if l == nil {
		return emptyLines
	}
	return l
}

// errTooManyLines: the file has more lines than MaxDiffLines.
var errTooManyLines = errors.New("too many lines to diff")

// classifySides gives the lines of both sides their classes (with ws,
// white space ignored), from their text when texts is set, else by
// reading them. A file with more lines than MaxDiffLines is not
// classified: errTooManyLines.
func classifySides(ctx context.Context, sides *[2]fileSide, blobs [2]*blob, ws bool, texts *[2]*lines) error {
	for i := range sides {
		if sides[i].text == nil && blobs[i].present && !sides[i].counted {
			if err := sides[i].countLines(ctx, blobs[i]); err != nil {
				return err
			}
		}
	}
	total := sides[0].lines + sides[1].lines
	if total > MaxDiffLines {
		return errTooManyLines
	}
	c := newClassifier(ws, texts, total)
	for i := range sides {
		s := &sides[i]
		if cap(s.ids) < s.lines {
			s.ids = make([]int32, 0, s.lines)
		}
		s.ids = s.ids[:0]
		if s.text != nil {
			for j := 0; j < s.lines; j++ {
				s.ids = append(s.ids, c.add(i, j, s.text.text(j), s.noEOL && j == s.lines-1))
			}
		} else if blobs[i].present {
			if err := s.stream(ctx, c, i, blobs[i]); err != nil {
				return err
			}
		}
	}
	if ws {
		// the class of a blank line, if any: blank changed lines are no
		// change to git diff -w --ignore-blank-lines
		sides[1].blank = -1
		if cl, ok := c.find(maphash.Bytes(c.seed, nil)); ok {
			sides[1].blank = cl
		}
	}
	for i := range sides {
		s := &sides[i]
		s.indentOf = s.indentAt
		sides[i].count = c.count[i]
	}
	return nil
}

// find returns the class of a key's hash, when there is one.
func (c *classifier) find(h uint64) (int32, bool) {
	for i := h & c.mask; ; i = (i + 1) & c.mask {
		cl := c.slots[i] - 1
		if cl < 0 {
			return 0, false
		}
		if c.hash[cl] == h {
			return cl, true
		}
	}
}

// diffSides runs the line diff of the classified sides and compacts it;
// it gives the runs of changes.
func diffSides(ctx context.Context, sides *[2]fileSide, ws bool) ([]change, error) {
	old, cur := &sides[0].side, &sides[1].side
	if err := lineDiff(ctx, old, cur, sides[0].count, sides[1].count); err != nil {
		return nil, err
	}
	compactSides(old, cur)
	var chs []change
	eachChange(old, cur, func(c change) { chs = append(chs, c) })
	old.chg, cur.chg = nil, nil
	sides[0].count, sides[1].count = nil, nil
	return chs, nil
}

// stream classifies a side read from its blob, line by line, keeping each
// line's indent (its lines are counted already).
func (s *fileSide) stream(ctx context.Context, c *classifier, side int, b *blob) error {
	rd, err := b.reader()
	if err != nil {
		return err
	}
	defer rd.Close()
	first := s.indents == nil
	if first {
		s.indents = make([]uint8, 0, s.lines)
	}
	var h maphash.Hash
	h.SetSeed(c.seed)
	var carry []byte // the start of a rune cut by a chunk
	var scratch []byte
	n := 0
	var noEOL bool
	err = eachLine(ctx, rd, func(chunk []byte, start, end, eol bool) {
		if n >= s.lines { // longer than counted: changed while read
			return
		}
		if start {
			h.Reset()
			carry = carry[:0]
			if first {
				s.indents = append(s.indents, uint8(indent(chunk)+1))
			}
		}
		if c.ws {
			all := append(carry, chunk...)
			cut := len(all)
			if !end {
				cut = fullRunes(all)
			}
			scratch = squeezeAppend(scratch[:0], all[:cut])
			h.Write(scratch)
			carry = append(carry[:0], all[cut:]...)
		} else {
			h.Write(chunk)
		}
		if end {
			if !eol && !c.ws {
				h.WriteByte(0)
			}
			s.ids = append(s.ids, c.addHashed(side, n, h.Sum64(), nil))
			n++
		}
	}, &noEOL)
	if err != nil {
		return err
	}
	if n != s.lines || noEOL != s.noEOL {
		return errors.New("changed while it was read")
	}
	return nil
}

// countLines counts a side's lines, and whether its last has no newline.
func (s *fileSide) countLines(ctx context.Context, b *blob) error {
	rd, err := b.reader()
	if err != nil {
		return err
	}
	defer rd.Close()
	n := 0
	if err := eachLine(ctx, rd, func(_ []byte, _, end, _ bool) {
		if end {
			n++
		}
	}, &s.noEOL); err != nil {
		return err
	}
	s.lines, s.counted = n, true
	return nil
}

// fullRunes is the length of the longest prefix of b that cuts no rune.
func fullRunes(b []byte) int {
	for k := 1; k <= utf8.UTFMax && k <= len(b); k++ {
		if utf8.RuneStart(b[len(b)-k]) {
			if utf8.FullRune(b[len(b)-k:]) {
				return len(b)
			}
			return len(b) - k
		}
	}
	return len(b)
}

// eachLine reads r's lines, giving each in chunks without its newline:
// start on a line's first chunk, end on its last, eol when a newline ended
// it. noEOL is set when the last line has none.
func eachLine(ctx context.Context, r io.Reader, fn func(chunk []byte, start, end, eol bool), noEOL *bool) error {
	br := bufio.NewReaderSize(r, 64<<10)
	start := true
	for k := 0; ; k++ {
		if k&0x3ff == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		chunk, err := br.ReadSlice('\n')
		switch {
		case err == nil:
			fn(chunk[:len(chunk)-1], start, true, true)
			start = true
		case err == bufio.ErrBufferFull:
			fn(chunk, start, false, false)
			start = false
		case err == io.EOF:
			if len(chunk) > 0 || !start {
				fn(chunk, start, true, false)
				*noEOL = true
			}
			return nil
		default:
			return err
		}
	}
}
