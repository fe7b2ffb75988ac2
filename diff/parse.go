package diff

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
	"github.com/recap-dev/recap/internal/content"
)

// Parse reads unified diff text: git's (extended headers, renames, copies,
// modes, binary files, C-quoted names), and plain diffs (diff -u, svn),
// whose a/ and b/ prefixes it strips as patch -p1 does. name names the
// input in errors, which give the line of the malformed text. Gzip
// compressed text is undone first.
func Parse(name string, r io.Reader) ([]File, error) {
	r, err := content.Decompress(bufio.NewReaderSize(r, 64<<10))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	files, preamble, err := gitdiff.Parse(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "gitdiff: "))
	}
	if len(files) == 0 && strings.TrimSpace(preamble) != "" {
		return nil, fmt.Errorf("%s: line 1: no file header (diff --git, or --- and +++ lines) found: is it a unified diff?", name)
	}
	out := make([]File, 0, len(files))
	for _, f := range files {
		out = append(out, convert(f))
	}
	return out, nil
}

func convert(g *gitdiff.File) File {
	f := File{OldPath: g.OldName, NewPath: g.NewName, OldMode: uint32(g.OldMode), NewMode: uint32(g.NewMode), Binary: g.IsBinary}
	if f.NewMode == 0 {
		f.NewMode = f.OldMode // go-gitdiff leaves NewMode 0 when the mode did not change
	}
	switch {
	case g.IsNew:
		f.Status, f.OldPath = Added, ""
	case g.IsDelete:
		f.Status, f.NewPath = Deleted, ""
	case g.IsRename:
		f.Status = Renamed
	case g.IsCopy:
		f.Status = Copied
	default:
		f.Status = Modified
	}
	stripPrefixes(&f)
	for _, tf := range g.TextFragments {
		h := Hunk{OldStart: int(tf.OldPosition), OldLines: int(tf.OldLines), NewStart: int(tf.NewPosition), NewLines: int(tf.NewLines)}
		oldN, newN := h.OldStart, h.NewStart
		h.Lines = make([]Line, 0, len(tf.Lines))
		for _, l := range tf.Lines {
			line := Line{Text: strings.TrimSuffix(l.Line, "\n"), NoEOL: l.NoEOL()}
			switch l.Op {
			case gitdiff.OpAdd:
				line.Kind, line.New = Add, newN
				newN++
			case gitdiff.OpDelete:
				line.Kind, line.Old = Delete, oldN
				oldN++
			default:
				line.Kind, line.Old, line.New = Context, oldN, newN
				oldN++
				newN++
			}
			h.Lines = append(h.Lines, line)
		}
		f.Hunks = append(f.Hunks, h)
	}
	return f
}

// stripPrefixes drops the a/ and b/ of a plain diff's names, as patch -p1
// would (git's own headers are stripped by the parser already, and for a
// plain diff it gives the +++ name to both sides).
func stripPrefixes(f *File) {
	ok := func(p string) bool { return p == "" || strings.HasPrefix(p, "a/") || strings.HasPrefix(p, "b/") }
	if !ok(f.OldPath) || !ok(f.NewPath) {
		return
	}
	strip := func(p string) string {
		if p == "" {
			return p
		}
		return p[2:]
	}
	f.OldPath, f.NewPath = strip(f.OldPath), strip(f.NewPath)
}
