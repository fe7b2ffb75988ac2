package summarize

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/internal/text"
)

// A Source gives lines of a file: the working tree (a [Dir]) or a revision of
// a repository. Lines returns lines from..to (1-based, inclusive; to may pass
// the end of the file) without their line endings.
type Source interface {
	Lines(path string, from, to int) ([]string, error)
}

// Context limits (docs/formats.md, "Limits of a view").
const (
	ContextRadius = 1   // lines before and after the finding's line
	MaxLineChars  = 200 // characters of a context line; longer ones are cut with …
)

// ErrBinary: the file is not text.
var ErrBinary = errors.New("binary file")

// FileSource is a [Source] over files that Open (streamed, preferred) or
// Read (whole) gives: from the working tree, a git revision, …. Of a file
// it reads the first MaxSourceBytes only, so that a huge file costs no more
// than that, and it keeps the last files it read (at most fileCacheFiles
// and fileCacheBytes), since a page's findings share files.
type FileSource struct {
	// Open opens a file and gives its size in bytes (-1 when unknown).
	Open func(path string) (io.ReadCloser, int64, error)
	// Read gives a whole file, when Open is nil.
	Read  func(path string) ([]byte, error)
	cache map[string]*sourceFile
	order []string
	bytes int
}

// Bounds of the files read for context.
const (
	// MaxSourceBytes bounds what is read of a source file for context: the
	// lines in its first 4 MiB (a source file of 100,000 lines of 40
	// characters); past them the context note says the file's size.
	MaxSourceBytes = 4 << 20
	// fileCacheFiles and fileCacheBytes bound the files a FileSource keeps.
	fileCacheFiles = 16
	fileCacheBytes = 16 << 20
)

// sourceFile is what a FileSource keeps of a file.
type sourceFile struct {
	lines []string
	size  int64 // the file's size, -1 when unknown
	cut   bool  // the file goes on past the lines kept
	bytes int
}

// Lines implements [Source].
func (s *FileSource) Lines(p string, from, to int) ([]string, error) {
	f, err := s.file(p)
	if err != nil {
		return nil, err
	}
	lines := f.lines
	from = max(from, 1)
	// Of a file cut at MaxSourceBytes, a range whose middle line (the
	// finding's, as AddContext and the MCP snippet ask) was not read is
	// refused: what follows the lines read is not known.
	if f.cut && (from+to)/2 > len(lines) {
		from = to + 1
	}
	to = min(to, len(lines))
	if from > to {
		if f.cut {
			return nil, fmt.Errorf("the file is %s; lines past the first %d MiB are not read", byteSize(f.size), MaxSourceBytes>>20)
		}
		return nil, fmt.Errorf("%s has %d lines", p, len(lines))
	}
	return lines[from-1 : to], nil
}

func (s *FileSource) file(p string) (*sourceFile, error) {
	if f, ok := s.cache[p]; ok {
		return f, nil
	}
	var b []byte
	size := int64(-1)
	if s.Open != nil {
		rc, n, err := s.Open(p)
		if err != nil {
			return nil, err
		}
		size = n
		b, err = io.ReadAll(io.LimitReader(rc, MaxSourceBytes+1))
		rc.Close()
		if err != nil {
			return nil, err
		}
	} else {
		var err error
		if b, err = s.Read(p); err != nil {
			return nil, err
		}
		size = int64(len(b))
	}
	cut := len(b) > MaxSourceBytes || size > int64(len(b))
	if len(b) > MaxSourceBytes {
		b = b[:MaxSourceBytes]
	}
	if size < 0 && !cut {
		size = int64(len(b))
	}
	lines, err := SplitLines(b)
	if err != nil {
		return nil, err
	}
	if cut && len(b) > 0 && b[len(b)-1] != '\n' {
		lines[len(lines)-1] += "…" // the start of a line the bound cut
	}
	f := &sourceFile{lines: lines, size: size, cut: cut, bytes: len(b)}
	if s.cache == nil {
		s.cache = map[string]*sourceFile{}
	}
	for len(s.order) > 0 && (len(s.order) >= fileCacheFiles || s.bytes+f.bytes > fileCacheBytes) {
		s.bytes -= s.cache[s.order[0]].bytes
		delete(s.cache, s.order[0])
		s.order = s.order[1:]
	}
	s.cache[p] = f
	s.order = append(s.order, p)
	s.bytes += f.bytes
	return f, nil
}

// byteSize writes a size as people read it: 2.1 GB, 340 MB, 12 KB.
func byteSize(n int64) string {
	switch {
	case n < 0:
		return fmt.Sprintf("over %d MiB", MaxSourceBytes>>20)
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%d KB", n/1e3)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Dir is a [Source] over a directory (the repository's working tree). Paths
// are repository-relative and opened inside the directory by construction
// (a [content.Root]): one that leaves it by name is refused, and so is one
// that a symbolic link leads out of (a pull request can add a link to
// /etc/passwd, or to a directory outside), even when the link is swapped
// in while recap reads. Close releases the directory.
type Dir struct {
	Root  string
	files FileSource
	root  *content.Root
	err   error // opening Root
}

// Lines implements [Source].
func (d *Dir) Lines(p string, from, to int) ([]string, error) {
	if d.files.Open == nil {
		d.files.Open = d.open
	}
	return d.files.Lines(p, from, to)
}

// Close releases the directory, once Lines opened it.
func (d *Dir) Close() error {
	if d.root == nil {
		return nil
	}
	err := d.root.Close()
	d.root = nil
	return err
}

func (d *Dir) open(p string) (io.ReadCloser, int64, error) {
	if d.root == nil && d.err == nil {
		d.root, d.err = content.OpenRoot(d.Root)
	}
	if d.err != nil {
		return nil, 0, fmt.Errorf("the repository %s: %w", d.Root, content.PathErr(d.err))
	}
	if p == "" || isWindowsAbs(p) {
		return nil, 0, fmt.Errorf("%s is not inside the repository", p)
	}
	f, st, err := d.root.Open(p)
	switch {
	case errors.Is(err, content.ErrOutside):
		return nil, 0, fmt.Errorf("%s is not inside the repository", p)
	case errors.Is(err, content.ErrLinkOutside):
		return nil, 0, fmt.Errorf("%s %s", p, d.root.LinkOutside(p, "the repository"))
	case err != nil:
		return nil, 0, content.PathErr(err)
	}
	return f, st.Size(), nil
}

// SplitLines splits file content into lines, LF or CRLF, and refuses binary
// content (a NUL byte in the first 8,000 bytes, as git decides).
func SplitLines(b []byte) ([]string, error) {
	if content.IsBinary(b) {
		return nil, ErrBinary
	}
	s := strings.TrimSuffix(string(b), "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines, nil
}

func isWindowsAbs(s string) bool {
	return len(s) >= 3 && s[1] == ':' && (s[2] == '/' || s[2] == '\\')
}

// AddContext fills fv's context: the line before, the finding's line and the
// line after, read from src; where the source is missing or binary, the
// report's own snippet, else no context and a note saying why.
func AddContext(fv *FindingView, src Source) {
	if fv.Line <= 0 {
		fv.ContextNote = "the finding has no line"
		return
	}
	from := max(fv.Line-ContextRadius, 1)
	lines, err := src.Lines(fv.Path, from, fv.Line+ContextRadius)
	if err == nil {
		for i, l := range lines {
			fv.Context = append(fv.Context, ContextLine{Line: from + i, Text: cutLine(l)})
		}
		return
	}
	if fv.Snippet != "" {
		// The snippet starts at SnippetLine (a context region's) or at the
		// finding's line: the lines around the finding's are taken from it.
		start := int(fv.SnippetLine)
		if start <= 0 {
			start = fv.Line
		}
		snippet, _ := SplitLines([]byte(fv.Snippet))
		for i, l := range snippet {
			n := start + i
			if n < from || n > fv.Line+ContextRadius || start == fv.Line && i > 2*ContextRadius {
				continue
			}
			fv.Context = append(fv.Context, ContextLine{Line: n, Text: cutLine(l)})
		}
		fv.ContextNote = fmt.Sprintf("from the report's snippet: source not readable (%v)", err)
		return
	}
	fv.ContextNote = fmt.Sprintf("no context: %v", err)
}

// EditedSinceNote is the context note of a finding whose file changed
// after its report was written (why says so): the context is the file's
// lines now, which may not be the code the tool read at the line.
func EditedSinceNote(why string) string { return why + editedSinceTail }

const (
	editedSinceTail = ": the lines shown are the file's now, which may not be the code the tool read at this line (run the tool again)"
	// EditedSinceShort is what the note says when the budget leaves the
	// lines out.
	EditedSinceShort = "the file changed after its report was written: its line may hold other code now"
)

// IsEditedSinceNote reports whether note is an [EditedSinceNote].
func IsEditedSinceNote(note string) bool { return strings.HasSuffix(note, editedSinceTail) }

func cutLine(s string) string { return text.CutRunes(s, MaxLineChars) }
