package summarize

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/recap-dev/recap/internal/content"
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

// FileSource is a [Source] over whole files that Read returns (from the
// working tree, a git revision, …). It keeps the last files it read, since a
// page's findings share files.
type FileSource struct {
	Read  func(path string) ([]byte, error)
	cache map[string][]string
	order []string
}

// fileCacheFiles bounds the files a FileSource keeps in memory.
const fileCacheFiles = 16

// Lines implements [Source].
func (s *FileSource) Lines(p string, from, to int) ([]string, error) {
	lines, err := s.file(p)
	if err != nil {
		return nil, err
	}
	from = max(from, 1)
	to = min(to, len(lines))
	if from > to {
		return nil, fmt.Errorf("%s has %d lines", p, len(lines))
	}
	return lines[from-1 : to], nil
}

func (s *FileSource) file(p string) ([]string, error) {
	if lines, ok := s.cache[p]; ok {
		return lines, nil
	}
	b, err := s.Read(p)
	if err != nil {
		return nil, err
	}
	lines, err := SplitLines(b)
	if err != nil {
		return nil, err
	}
	if s.cache == nil {
		s.cache = map[string][]string{}
	}
	if len(s.order) >= fileCacheFiles {
		delete(s.cache, s.order[0])
		s.order = s.order[1:]
	}
	s.cache[p] = lines
	s.order = append(s.order, p)
	return lines, nil
}

// Dir is a [Source] over a directory (the repository's working tree). Paths
// are repository-relative; one that leaves the directory is refused.
type Dir struct {
	Root  string
	files FileSource
}

// Lines implements [Source].
func (d *Dir) Lines(p string, from, to int) ([]string, error) {
	if d.files.Read == nil {
		d.files.Read = d.read
	}
	return d.files.Lines(p, from, to)
}

func (d *Dir) read(p string) ([]byte, error) {
	clean := path.Clean(p)
	if p == "" || path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") || isWindowsAbs(clean) {
		return nil, fmt.Errorf("%s is not inside the repository", p)
	}
	b, err := os.ReadFile(filepath.Join(d.Root, filepath.FromSlash(clean)))
	if err != nil {
		return nil, content.PathErr(err)
	}
	return b, nil
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
		snippet, _ := SplitLines([]byte(fv.Snippet))
		for i, l := range snippet {
			if i > 2*ContextRadius {
				break
			}
			fv.Context = append(fv.Context, ContextLine{Line: fv.Line + i, Text: cutLine(l)})
		}
		fv.ContextNote = fmt.Sprintf("from the report's snippet: source not readable (%v)", err)
		return
	}
	fv.ContextNote = fmt.Sprintf("no context: %v", err)
}

func cutLine(s string) string {
	if len(s) <= MaxLineChars {
		return s
	}
	r := []rune(s)
	if len(r) <= MaxLineChars {
		return s
	}
	return string(r[:MaxLineChars-1]) + "…"
}
