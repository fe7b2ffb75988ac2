package diff

import "strings"

// chunk is a run of whole-file diff text: equal, added or deleted lines
// (go-git's patches and line diffs come as these, not as hunks).
type chunk struct {
	kind LineKind // Context for equal text
	text string
}

// ContextLines is how many unchanged lines a hunk shows around its changes,
// as git does by default.
const ContextLines = 3

// hunksOf numbers the lines of whole-file chunks, settles ambiguous runs of
// changes as git does (see compactLines), and cuts them into hunks as git does: ctx lines of context around each change, and changes whose
// contexts touch (at most 2·ctx unchanged lines apart) in one hunk.
func hunksOf(chunks []chunk, ctx int) []Hunk {
	var lines []Line
	for _, c := range chunks {
		rest := c.text
		for rest != "" {
			text, after, found := strings.Cut(rest, "\n")
			rest = after
			lines = append(lines, Line{Kind: c.kind, Text: text, NoEOL: !found})
		}
	}
	lines = compactLines(lines)
	oldN, newN := 1, 1
	for i := range lines {
		l := &lines[i]
		switch l.Kind {
		case Add:
			l.New = newN
			newN++
		case Delete:
			l.Old = oldN
			oldN++
		default:
			l.Old, l.New = oldN, newN
			oldN++
			newN++
		}
	}
	var hunks []Hunk
	for i := 0; i < len(lines); {
		if lines[i].Kind == Context {
			i++
			continue
		}
		start := max(i-ctx, 0)
		last := i // the last changed line of the hunk
		for j := i + 1; j < len(lines) && j-last-1 <= 2*ctx; j++ {
			if lines[j].Kind != Context {
				last = j
			}
		}
		end := min(last+ctx+1, len(lines))
		hunks = append(hunks, newHunk(lines[start:end:end], lines[:start]))
		i = end
	}
	return hunks
}

// newHunk sets a hunk's ranges from its lines; before are the lines above
// it, which place an empty side (git writes -0,0 for a new file, and the line
// before an insertion when a side has no lines).
func newHunk(lines, before []Line) Hunk {
	h := Hunk{Lines: lines}
	for _, l := range lines {
		if l.Kind != Add {
			if h.OldLines == 0 {
				h.OldStart = l.Old
			}
			h.OldLines++
		}
		if l.Kind != Delete {
			if h.NewLines == 0 {
				h.NewStart = l.New
			}
			h.NewLines++
		}
	}
	if h.OldLines == 0 {
		h.OldStart = lastNumber(before, true)
	}
	if h.NewLines == 0 {
		h.NewStart = lastNumber(before, false)
	}
	return h
}

func lastNumber(lines []Line, old bool) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if old && lines[i].Old > 0 {
			return lines[i].Old
		}
		if !old && lines[i].New > 0 {
			return lines[i].New
		}
	}
	return 0
}
