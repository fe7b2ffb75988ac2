package summarize

import (
	"fmt"
	"strings"

	"github.com/recap-dev/recap/reports"
)

// FixContext is the lines of context a fix's diff shows around each change.
const FixContext = 1

// FixDiff writes the fix a report proposes as a unified diff of the files
// it changes, against their lines as src gives them (the working tree, a
// revision), with FixContext lines around each change. A file src cannot
// read, or whose lines the fix's regions do not fit (the file changed since
// the report was made), is shown by the replacements alone, and a note
// says why. Lines are cut at [MaxLineChars] characters.
func FixDiff(fix *reports.Fix, src Source) (diff string, notes []string) {
	var b strings.Builder
	for _, path := range fix.Paths() {
		if chars := byCharacters(fix, path); len(chars) > 0 {
			// Regions the reader could not place on lines (the file was not
			// at hand): the replacements alone, by their offsets.
			notes = append(notes, fmt.Sprintf("%s: the fix's regions are given by characters, which recap could not place on lines "+
				"(the file was not at hand when the report was read); its replacements are shown alone", path))
			fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", path, path)
			for _, r := range chars {
				fmt.Fprintf(&b, "@@ replaces the %d characters at offset %d @@\n", r.Length, r.Offset)
				for _, l := range strings.Split(r.Text, "\n") {
					b.WriteString("+" + cutLine(l) + "\n")
				}
			}
			continue
		}
		from, to, _ := fix.Span(path)
		fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", path, path)
		lines, err := fileLines(src, path, from, to)
		if err == nil {
			if err = fixHunk(&b, fix, path, from, to, lines); err == nil {
				continue
			}
		}
		notes = append(notes, fmt.Sprintf("%s: %v; the fix's replacements are shown alone", path, err))
		for _, r := range fix.Replacements {
			if r.Path != path {
				continue
			}
			a, z := r.Lines()
			text := strings.Split(r.Text, "\n")
			fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@ replaces %s\n", a, z-a+1, a, len(text), region(&r))
			for _, l := range text {
				b.WriteString("+" + cutLine(l) + "\n")
			}
		}
	}
	return b.String(), notes
}

// fileLines reads lines from-FixContext..to+FixContext of path, as many as
// the file has before from and after to; it fails when the file is
// shorter than to.
func fileLines(src Source, path string, from, to int) ([]string, error) {
	if src == nil {
		return nil, fmt.Errorf("no source to read")
	}
	start := max(from-FixContext, 1)
	lines, err := src.Lines(path, start, to+FixContext)
	if err != nil {
		return nil, err
	}
	if start+len(lines)-1 < to {
		return nil, fmt.Errorf("the file has %d lines, the fix changes line %d", start+len(lines)-1, to)
	}
	return lines, nil
}

// fixHunk writes one hunk: the context before, the lines from..to as they
// are and as the fix makes them, the context after.
func fixHunk(b *strings.Builder, fix *reports.Fix, path string, from, to int, lines []string) error {
	start := max(from-FixContext, 1)
	before, old, after := lines[:from-start], lines[from-start:to-start+1], lines[to-start+1:]
	repl, ok := fix.Apply(path, from, old)
	if !ok {
		return fmt.Errorf("its regions do not fit the file's lines %d-%d (the file may have changed since the report)", from, to)
	}
	// Lines the fix leaves as they are, at either end, are context.
	for len(old) > 0 && len(repl) > 0 && old[0] == repl[0] {
		before, old, repl = append(before[:len(before):len(before)], old[0]), old[1:], repl[1:]
	}
	for len(old) > 0 && len(repl) > 0 && old[len(old)-1] == repl[len(repl)-1] {
		after = append([]string{old[len(old)-1]}, after...)
		old, repl = old[:len(old)-1], repl[:len(repl)-1]
	}
	n := len(before) + len(after)
	fmt.Fprintf(b, "@@ -%d,%d +%d,%d @@\n", start, n+len(old), start, n+len(repl))
	for _, l := range before {
		b.WriteString(" " + cutLine(l) + "\n")
	}
	for _, l := range old {
		b.WriteString("-" + cutLine(l) + "\n")
	}
	for _, l := range repl {
		b.WriteString("+" + cutLine(l) + "\n")
	}
	for _, l := range after {
		b.WriteString(" " + cutLine(l) + "\n")
	}
	return nil
}

// region writes a replacement's region: "line 5", "5:3-5:12".
func region(r *reports.Replacement) string {
	a, z := r.Lines()
	if r.Column == 0 && r.EndColumn == 0 {
		if a == z {
			return fmt.Sprintf("line %d", a)
		}
		return fmt.Sprintf("lines %d-%d", a, z)
	}
	end := "end"
	if r.EndColumn > 0 {
		end = fmt.Sprint(r.EndColumn)
	}
	return fmt.Sprintf("%d:%d-%d:%s", a, max(r.Column, 1), z, end)
}

// byCharacters returns the replacements of path whose regions are given
// by characters alone, nil when none is.
func byCharacters(fix *reports.Fix, path string) []reports.Replacement {
	var out []reports.Replacement
	for _, r := range fix.Replacements {
		if r.Path == path && r.ByCharacters() {
			out = append(out, r)
		}
	}
	return out
}
