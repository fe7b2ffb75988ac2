package diff

import (
	"strings"
	"unicode"

	gitdiff "github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// WhitespaceOnly reports whether every change in the hunk is whitespace:
// spaces, tabs, indentation, trailing blanks, CR before LF, a missing final
// newline, blank lines added or removed. Each run of changed lines is
// compared on its own: its deleted and added lines, blank ones left out and
// whitespace removed, must read the same, as git diff -w --ignore-blank-lines
// would see no change there.
func (h *Hunk) WhitespaceOnly() bool {
	for _, b := range h.blocks() {
		if !b.whitespaceOnly() {
			return false
		}
	}
	return true
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
	if len(del) != len(add) {
		return false
	}
	for i := range del {
		if del[i] != add[i] {
			return false
		}
	}
	return true
}

// changedLines appends to nums the new line numbers of the hunk's added
// lines that git diff -w --ignore-blank-lines shows (see wsChanged), when
// only the hunks are known (a diff read as text).
func (h *Hunk) changedLines(nums []int) []int {
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

// wsChanged diffs old and cur (one file's lines, or a hunk's two sides) with
// whitespace ignored, settles ambiguous runs as git does, and appends to
// nums the New numbers of the lines still added, blank lines aside: the
// added lines of git diff -w --ignore-blank-lines.
func wsChanged(oldLines, curLines []Line, nums []int) []int {
	old, cur := side{lines: oldLines}, side{lines: curLines}
	var oldText, curText strings.Builder
	for _, l := range oldLines {
		k := squeeze(l.Text)
		old.keys = append(old.keys, k)
		oldText.WriteString(k)
		oldText.WriteByte('\n')
	}
	for _, l := range curLines {
		k := squeeze(l.Text)
		cur.keys = append(cur.keys, k)
		curText.WriteString(k)
		curText.WriteByte('\n')
	}
	i, j := 0, 0
	for _, d := range gitdiff.Do(oldText.String(), curText.String()) {
		for n := strings.Count(d.Text, "\n"); n > 0; n-- {
			switch d.Type {
			case diffmatchpatch.DiffEqual:
				old.lines[i].Kind, cur.lines[j].Kind = Context, Context
				i++
				j++
			case diffmatchpatch.DiffDelete:
				old.lines[i].Kind = Delete
				i++
			case diffmatchpatch.DiffInsert:
				cur.lines[j].Kind = Add
				j++
			}
		}
	}
	for _, l := range compactSides(&old, &cur) {
		if l.Kind == Add && squeeze(l.Text) != "" {
			nums = append(nums, l.New)
		}
	}
	return nums
}

// textLines splits file content into lines numbered from 1 (New and Old
// both set, for either side).
func textLines(content string) []Line {
	var out []Line
	for n := 1; content != ""; n++ {
		text, rest, found := strings.Cut(content, "\n")
		out = append(out, Line{Text: text, NoEOL: !found, Old: n, New: n})
		content = rest
	}
	return out
}

// squeeze removes every whitespace character.
func squeeze(s string) string {
	if strings.IndexFunc(s, unicode.IsSpace) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}
