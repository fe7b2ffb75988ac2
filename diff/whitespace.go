package diff

import (
	"context"
	"slices"
	"strings"
)

// WhitespaceOnly reports whether every change in the hunk is whitespace:
// spaces, tabs, indentation, trailing blanks, CR before LF, a missing final
// newline, blank lines added or removed, as git diff -w
// --ignore-blank-lines would see no change there. Either each run of
// changed lines reads the same on its two sides, blank lines left out and
// whitespace removed, or the hunk's two sides do, line for line, blank
// lines kept (a block re-indented whose lines git's diff pairs across a
// line kept as context, a closing brace). A line moved across a blank line
// is neither: git shows it.
func (h *Hunk) WhitespaceOnly() bool {
	blocks := true
	for _, b := range h.blocks() {
		if !b.whitespaceOnly() {
			blocks = false
			break
		}
	}
	if blocks {
		return true
	}
	var old, cur []string
	for _, l := range h.Lines {
		s := squeeze(l.Text)
		if l.Kind != Add {
			old = append(old, s)
		}
		if l.Kind != Delete {
			cur = append(cur, s)
		}
	}
	return slices.Equal(old, cur)
}

// block is a run of consecutive changed lines of a hunk.
type block []Line

func (h *Hunk) blocks() []block {
	var out []block
	for i := 0; i < len(h.Lines); {
		if h.Lines[i].Kind == Context {
			i++
			continue
		}
		j := i
		for j < len(h.Lines) && h.Lines[j].Kind != Context {
			j++
		}
		out = append(out, block(h.Lines[i:j]))
		i = j
	}
	return out
}

func (b block) whitespaceOnly() bool {
	var del, add []string
	for _, l := range b {
		s := squeeze(l.Text)
		if s == "" {
			continue
		}
		if l.Kind == Delete {
			del = append(del, s)
		} else {
			add = append(add, s)
		}
	}
	return slices.Equal(del, add)
}

// changedLines appends to nums the new line numbers of the hunk's added
// lines that git diff -w --ignore-blank-lines shows (see wsChanged), when
// only the hunks are known (a diff read as text).
func (h *Hunk) changedLines(nums []int) []int {
	if n, ok := h.plainlyChanged(nums); ok {
		return n
	}
	var old, cur []Line
	for _, l := range h.Lines {
		if l.Kind != Add {
			old = append(old, l)
		}
		if l.Kind != Delete {
			cur = append(cur, l)
		}
	}
	return wsChanged(old, cur, nums)
}

// plainlyChanged is changedLines for the common hunk whose added lines,
// white space removed, match no line of its old side: the diff would find
// no match for them, so that every one but the blank ones changed. ok is
// false when one matches.
func (h *Hunk) plainlyChanged(nums []int) ([]int, bool) {
	var buf []byte
	var old map[string]bool
	for _, l := range h.Lines {
		if l.Kind != Add {
			if old == nil {
				old = map[string]bool{}
			}
			buf = squeezeAppendString(buf[:0], l.Text)
			old[string(buf)] = true
		}
	}
	start := len(nums)
	for _, l := range h.Lines {
		if l.Kind != Add {
			continue
		}
		buf = squeezeAppendString(buf[:0], l.Text)
		if old[string(buf)] {
			return nums[:start], false
		}
		if len(buf) > 0 {
			nums = append(nums, l.New)
		}
	}
	return nums, true
}

// wsChanged diffs old and cur (a hunk's two sides) with white space
// ignored, settles ambiguous runs as git does, and appends to nums the New
// numbers of the lines still added, blank lines aside: the added lines of
// git diff -w --ignore-blank-lines.
func wsChanged(oldLines, curLines []Line, nums []int) []int {
	var sides [2]fileSide
	for i, ls := range [][]Line{oldLines, curLines} {
		var data []byte
		for _, l := range ls {
			data = append(append(data, l.Text...), '\n')
		}
		sides[i].text = cutLines(data)
		sides[i].lines = len(ls)
	}
	present := blob{present: true}
	ctx := context.Background()
	if err := classifySides(ctx, &sides, [2]*blob{&present, &present}, true, &[2]*lines{sides[0].text, sides[1].text}); err != nil {
		// more lines than a diff takes: every non-blank added line counts
		for _, l := range curLines {
			if squeeze(l.Text) != "" {
				nums = append(nums, l.New)
			}
		}
		return nums
	}
	chs, err := diffSides(ctx, &sides, true)
	if err != nil {
		return nums
	}
	for _, c := range chs {
		for j := c.n; j < c.n+c.add; j++ {
			if sides[1].ids[j] != sides[1].blank {
				nums = append(nums, curLines[j].New)
			}
		}
	}
	return nums
}

// squeeze removes every white space character (isSpaceByte).
func squeeze(s string) string {
	if strings.IndexFunc(s, isSpaceRune) < 0 {
		return s
	}
	return string(squeezeAppendString(make([]byte, 0, len(s)), s))
}

// isSpaceRune is isSpaceByte of a rune.
func isSpaceRune(r rune) bool { return r < 0x80 && isSpaceByte(byte(r)) }
