package review

import (
	"strings"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/reports"
)

// maxSuggestion bounds the text of a suggested change, in bytes: a
// comment holds at most MaxBody characters, with the finding's message.
const maxSuggestion = 16 << 10

// suggestion is f's fix as a GitHub suggested change, as reviewdog makes
// them: a ```suggestion block that replaces the comment's lines from..to.
// It is made only when the fix changes f's file alone, on lines that one
// hunk of the diff shows (a multi-line comment must stay in one hunk) and
// that f's own lines overlap; the lines' head text comes from the hunk, so
// the suggestion is against the lines the pull request has. When the
// reports were made on another commit (a merge commit), lines carries the
// fix's lines onto the head as the finding's were. ok is false otherwise,
// and the comment suggests nothing.
func suggestion(f *reports.Finding, files []diff.File, a *Anchors, lines *diff.LineMap) (block string, from, to int, ok bool) {
	if f.Detail == nil || f.Detail.Fix == nil || f.Path == "" {
		return "", 0, 0, false
	}
	fix, ok := carryFix(f.Detail.Fix, lines)
	if !ok {
		return "", 0, 0, false
	}
	for _, r := range fix.Replacements {
		if r.Path != f.Path {
			return "", 0, 0, false
		}
	}
	from, to, _ = fix.Span(f.Path)
	first, last, inHunk := a.Hunk(f.Path, from)
	if !inHunk || to > last || from < first || to < f.Line || from > max(f.EndLine, f.Line) {
		return "", 0, 0, false
	}
	head := headLines(files, f.Path, from, to)
	if head == nil {
		return "", 0, 0, false
	}
	repl, ok := fix.Apply(f.Path, from, head)
	if !ok {
		return "", 0, 0, false
	}
	text := strings.Join(repl, "\n")
	if len(text) > maxSuggestion {
		return "", 0, 0, false
	}
	fence := suggestionFence(text)
	return fence + "suggestion\n" + text + "\n" + fence + "\n\n", from, to, true
}

// carryFix is fix with its replacements' paths and lines carried through
// lines (a copy; fix itself is the finding's, shared); false when a line it
// replaces is not on the new side. Without lines, fix as it is.
func carryFix(fix *reports.Fix, lines *diff.LineMap) (*reports.Fix, bool) {
	if lines == nil {
		return fix, true
	}
	out := &reports.Fix{Description: fix.Description, Replacements: make([]reports.Replacement, len(fix.Replacements))}
	for i, r := range fix.Replacements {
		from, to := r.Lines()
		path, newFrom, ok := lines.Map(r.Path, from)
		if !ok {
			return nil, false
		}
		_, newTo, ok := lines.Map(r.Path, to)
		if !ok || newTo-newFrom != to-from {
			return nil, false // lines came or went inside the region: its columns and text no longer fit
		}
		r.Path, r.Line = path, newFrom
		if r.EndLine != 0 {
			r.EndLine = newTo
		}
		out.Replacements[i] = r
	}
	return out, true
}

// headLines are the lines from..to of path in the head revision, as the
// diff's hunks show them (line ends' CR dropped); nil when a hunk does not
// show them all.
func headLines(files []diff.File, path string, from, to int) []string {
	out := make([]string, to-from+1)
	found := 0
	for _, f := range files {
		if f.NewPath != path {
			continue
		}
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.Kind != diff.Delete && l.New >= from && l.New <= to {
					out[l.New-from] = strings.TrimSuffix(l.Text, "\r")
					found++
				}
			}
		}
	}
	if found != len(out) {
		return nil
	}
	return out
}

// suggestionFence is a code fence longer than any run of backticks in
// the text, so that the text cannot end the block early.
func suggestionFence(text string) string {
	longest, run := 0, 0
	for _, c := range text {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}
