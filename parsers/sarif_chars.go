package parsers

import (
	"io/fs"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/recap-dev/recap/reports"
)

// Regions given by characters (SARIF §3.30.10, .11: charOffset and
// charLength, counted in UTF-16 code units, SARIF's default column kind,
// from the artifact's start) are placed on lines and columns where the
// artifact's text is at hand: in the log itself (the run's artifacts'
// contents), or in the repository. A fix's replacement of such a region
// can then be shown and applied as any other; one whose text is not at
// hand keeps its offsets, to be written again.

// maxCharsFile bounds the size of a repository file read to place a
// region given by characters, and maxCharsFiles the files whose line
// starts a run keeps.
const (
	maxCharsFile  = 4 << 20
	maxCharsFiles = 16
)

// charText is an artifact's text, for placing characters.
type charText struct {
	text string
	ok   bool // the text is at hand
}

// placeChars places a replacement's region of offset and length (length
// nil: an insertion at offset) on lines and columns of its artifact's text
// when it is at hand, else keeps the offsets.
func (r *sarifRun) placeChars(rep *reports.Replacement, al *sarifArtifactLocation, offset int, length *int) {
	n := 0
	if length != nil {
		n = *length
	}
	rep.Offset, rep.Length = offset, n
	t := r.artifactText(al, rep.Path)
	if !t.ok {
		return
	}
	line, col, ok1 := charPosition(t.text, offset)
	endLine, endCol, ok2 := charPosition(t.text, offset+n)
	if !ok1 || !ok2 {
		return
	}
	rep.Line, rep.Column, rep.EndLine, rep.EndColumn = line, col, endLine, endCol
	rep.Offset, rep.Length = 0, 0
}

// artifactText is the text of the artifact al (placed at rel): its
// contents in the run's artifacts, else the repository's file.
func (r *sarifRun) artifactText(al *sarifArtifactLocation, rel string) charText {
	if al.Index != nil && *al.Index >= 0 && *al.Index < len(r.artifacts) {
		if c := r.artifacts[*al.Index].Contents; c != nil && c.Text != "" {
			return charText{text: c.Text, ok: true}
		}
	}
	for _, a := range r.artifacts {
		if a.Contents != nil && a.Contents.Text != "" && a.Location != nil && a.Location.URI == al.URI && al.URI != "" {
			return charText{text: a.Contents.Text, ok: true}
		}
	}
	fsys := r.s.placer.fsys
	if fsys == nil || rel == "" || strings.HasPrefix(rel, "/") || isWindowsAbs(rel) || !fs.ValidPath(path.Clean(rel)) {
		return charText{}
	}
	if t, ok := r.charFiles[rel]; ok {
		return t
	}
	var t charText
	if st, err := fs.Stat(fsys, rel); err == nil && st.Mode().IsRegular() && st.Size() <= maxCharsFile {
		if b, err := fs.ReadFile(fsys, rel); err == nil && utf8.Valid(b) {
			t = charText{text: string(b), ok: true}
		}
	}
	if r.charFiles == nil || len(r.charFiles) >= maxCharsFiles {
		r.charFiles = map[string]charText{}
	}
	r.charFiles[rel] = t
	return t
}

// charPosition turns an offset in UTF-16 code units from the start of text
// into a 1-based line and column (in UTF-16 code units, SARIF's), the
// column one past the line's end at a line break; ok is false past the
// text's end or inside a character of two units.
func charPosition(text string, offset int) (line, col int, ok bool) {
	if offset < 0 {
		return 0, 0, false
	}
	line, col = 1, 1
	units := 0
	for _, c := range text {
		if units == offset {
			return line, col, true
		}
		if units > offset {
			return 0, 0, false
		}
		w := utf16Units(c)
		units += w
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col += w
		}
	}
	return line, col, units == offset
}

func utf16Units(c rune) int {
	if c >= 0x10000 {
		return 2
	}
	return 1
}
