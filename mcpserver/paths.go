package mcpserver

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// maxMatches bounds the files one list of paths or globs may name.
const maxMatches = 1000

// root is the directory the server serves; every path given to it is
// confined there.
type root struct {
	dir  string // absolute, as given (cleaned)
	real string // dir with symlinks resolved

	mu     sync.Mutex
	sniffs map[string]sniffed // by absolute path
}

type sniffed struct {
	size   int64
	mtime  time.Time
	format parsers.Format
	ok     bool
}

func newRoot(dir string) (*root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, errors.New(dir + ": not a directory")
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	return &root{dir: abs, real: real, sniffs: map[string]sniffed{}}, nil
}

// file is one file under the root.
type file struct {
	abs, rel string // rel: slash-separated, relative to the root
	info     fs.FileInfo
}

// resolve places p (relative to the root, or absolute inside it) and checks
// that it stays inside the root once symlinks are followed.
func (r *root) resolve(p string) (file, error) {
	if strings.TrimSpace(p) == "" {
		return file{}, toolErrorf(CodeBadArgument, "an empty path: give a path relative to the root %s", r.dir)
	}
	native := filepath.FromSlash(p)
	var abs string
	if filepath.IsAbs(native) {
		abs = filepath.Clean(native)
	} else {
		abs = filepath.Join(r.dir, native)
	}
	rel, ok := r.inside(r.dir, abs)
	if !ok {
		if rel2, ok2 := r.inside(r.real, abs); ok2 {
			rel, ok = rel2, true
		}
	}
	if !ok {
		return file{}, toolErrorf(CodeOutsideRoot, "%s is outside the root %s: give a path inside it", p, r.dir)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			// Missing: where its nearest existing parent leads says whether
			// it is outside (a symlink out must not reveal what is there).
			for dir := filepath.Dir(abs); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
				if rd, err := filepath.EvalSymlinks(dir); err == nil {
					if _, ok := r.inside(r.real, rd); !ok {
						return file{}, toolErrorf(CodeOutsideRoot, "%s is under a symlink that leads outside the root %s: give a path inside it", p, r.dir)
					}
					break
				}
			}
			return file{}, toolErrorf(CodeNotFound, "%s does not exist under the root %s: check the path (it is relative to the root)", p, r.dir)
		}
		return file{}, toolErrorf(CodeNotFound, "%s: %v", p, content.PathErr(err))
	}
	if _, ok := r.inside(r.real, real); !ok {
		return file{}, toolErrorf(CodeOutsideRoot, "%s is a symlink that leads outside the root %s: give a path inside it", p, r.dir)
	}
	st, err := os.Stat(real)
	if err != nil {
		return file{}, toolErrorf(CodeNotFound, "%s: %v", p, content.PathErr(err))
	}
	if !st.IsDir() {
		if err := content.Regular(st); err != nil { // a FIFO would block the call
			return file{}, toolErrorf(CodeBadArgument, "%s: %v", p, err)
		}
	}
	return file{abs: abs, rel: rel, info: st}, nil
}

// inside reports whether abs lies in dir, and its slash path relative to it.
func (r *root) inside(dir, abs string) (string, bool) {
	rel, err := filepath.Rel(dir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// hasGlob reports whether p has glob characters.
func hasGlob(p string) bool { return strings.ContainsAny(p, "*?[") }

// checkPattern refuses a glob that could only match outside the root.
func (r *root) checkPattern(p string) error {
	clean := path.Clean(filepath.ToSlash(p))
	if path.IsAbs(clean) || filepath.IsAbs(p) || clean == ".." || strings.HasPrefix(clean, "../") {
		return toolErrorf(CodeOutsideRoot, "the pattern %s leaves the root %s: give a pattern relative to it", p, r.dir)
	}
	return nil
}

// expand turns paths and globs into the files they name: a file as is, a
// directory searched for reports when reportsOnly (else refused), a glob
// matched against the files under the root (directories that searches skip
// are left out). Each file is confined to the root.
func (r *root) expand(paths []string, reportsOnly bool) ([]file, error) {
	var out []file
	seen := map[string]bool{}
	add := func(f file) error {
		if seen[f.abs] {
			return nil
		}
		seen[f.abs] = true
		if len(out) >= maxMatches {
			return toolErrorf(CodeTooLarge, "the paths name more than %d files: give narrower paths or globs", maxMatches)
		}
		out = append(out, f)
		return nil
	}
	for _, p := range paths {
		if !hasGlob(p) {
			f, err := r.resolve(p)
			if err != nil {
				return nil, err
			}
			if !f.info.IsDir() {
				if err := add(f); err != nil {
					return nil, err
				}
				continue
			}
			if !reportsOnly {
				return nil, toolErrorf(CodeBadArgument, "%s is a directory: give files, or a glob such as %s/**/*.java", p, strings.TrimSuffix(p, "/"))
			}
			found, err := r.discover(f.abs)
			if err != nil {
				return nil, err
			}
			if len(found) == 0 {
				return nil, toolErrorf(CodeNotFound, "no %s report under %s: run the analysis first, or give the report's path", parsers.FormatTitles("or"), p)
			}
			for _, g := range found {
				if err := add(g); err != nil {
					return nil, err
				}
			}
			continue
		}
		if err := r.checkPattern(p); err != nil {
			return nil, err
		}
		globs, err := reports.CompileGlobs([]string{path.Clean(filepath.ToSlash(p))})
		if err != nil {
			return nil, toolErrorf(CodeBadArgument, "the pattern %s: %v", p, err)
		}
		n := 0
		err = r.walk(r.dir, func(rel, abs string, d fs.DirEntry) error {
			if !globs.Match(rel) {
				return nil
			}
			f, err := r.resolve(rel)
			if err != nil {
				return nil // a symlink out of the root, or gone: not a match
			}
			if reportsOnly {
				if _, ok := r.sniff(f); !ok {
					return nil
				}
			}
			n++
			return add(f)
		})
		if err != nil {
			return nil, err
		}
		if n == 0 {
			what := "file"
			if reportsOnly {
				what = "report"
			}
			return nil, toolErrorf(CodeNotFound, "no %s under the root matches %s: check the pattern (** spans directories)", what, p)
		}
	}
	return out, nil
}

// walk calls fn for each regular file (and symlink) under dir, skipping the
// directories that report searches skip.
func (r *root) walk(dir string, fn func(rel, abs string, d fs.DirEntry) error) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return toolErrorf(CodeNotFound, "%s: %v", dir, content.PathErr(err))
			}
			return nil // unreadable: skipped
		}
		if d.IsDir() {
			if p != dir && parsers.SkipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		rel, ok := r.inside(r.dir, p)
		if !ok {
			return nil
		}
		return fn(rel, p, d)
	})
}

// discover finds the reports under dir: files with a report's extension
// whose content is a report. Sniffing is cached by size and modification
// time, so a second search only lists the directories.
func (r *root) discover(dir string) ([]file, error) {
	var out []file
	err := r.walk(dir, func(rel, abs string, d fs.DirEntry) error {
		if !d.Type().IsRegular() || !parsers.HasReportExt(d.Name()) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		f := file{abs: abs, rel: rel, info: info}
		if _, ok := r.sniff(f); ok {
			out = append(out, f)
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out, err
}

// sniff detects a file's report format, cached by size and time.
func (r *root) sniff(f file) (parsers.Format, bool) {
	r.mu.Lock()
	s, hit := r.sniffs[f.abs]
	r.mu.Unlock()
	if hit && s.size == f.info.Size() && s.mtime.Equal(f.info.ModTime()) {
		return s.format, s.ok
	}
	format, ok := parsers.Sniff(f.abs)
	r.mu.Lock()
	if len(r.sniffs) > 100000 {
		clear(r.sniffs)
	}
	r.sniffs[f.abs] = sniffed{size: f.info.Size(), mtime: f.info.ModTime(), format: format, ok: ok}
	r.mu.Unlock()
	return format, ok
}

// open opens a file of the root for code context (a summarize.FileSource
// reads a bounded prefix of it), refusing one that leads outside it.
func (r *root) open(rel string) (io.ReadCloser, int64, error) {
	f, err := r.resolve(rel)
	if err != nil {
		var te *ToolError
		if errors.As(err, &te) {
			if te.Code == CodeNotFound {
				return nil, 0, fs.ErrNotExist
			}
			return nil, 0, errors.New("outside the root")
		}
		return nil, 0, err
	}
	if f.info.IsDir() {
		return nil, 0, errors.New("is a directory")
	}
	return summarize.OpenSized(f.abs)
}
