package diff

import (
	"strings"
	"unicode"
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

// changedLines appends to nums the new line numbers of the block's added
// lines that change more than whitespace: blank lines, and lines that read as
// a deleted line of the block once whitespace is removed (re-indented inside
// a larger change), are left out.
func (b block) changedLines(nums []int) []int {
	deleted := map[string]int{}
	for _, l := range b {
		if l.Kind == Delete {
			deleted[squeeze(l.Text)]++
		}
	}
	for _, l := range b {
		if l.Kind != Add {
			continue
		}
		s := squeeze(l.Text)
		if s == "" {
			continue
		}
		if deleted[s] > 0 {
			deleted[s]--
			continue
		}
		nums = append(nums, l.New)
	}
	return nums
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
