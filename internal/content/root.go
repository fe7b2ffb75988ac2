package content

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
)

// A Root is a directory whose files recap opens inside it by construction:
// every open, stat and directory listing goes through [os.Root], which
// walks a path one component at a time from the directory's descriptor and
// refuses a component, or a symbolic link met on the way, that leads out
// of it; on Linux a path without a link on it is first asked of the
// kernel in one system call (openat2 with RESOLVE_BENEATH and no links),
// and walked when that does not open it (openBeneath). Nothing is checked
// first and opened after, so a link swapped in between cannot lead a read
// outside, and nothing outside is looked at
// (not even whether it exists). A link inside that stays inside is
// followed; an absolute link is refused, wherever it points.
//
// It is recap's one confinement of paths: the working tree that the
// command line reads source context from, the repository where a report's
// paths are placed (SpotBugs' source directories included), and the MCP
// server's root. A Root is safe for concurrent use.
type Root struct {
	dir  string // absolute and clean, as given
	real string // dir with its symbolic links resolved
	r    *os.Root
	dirf *os.File // the directory r holds, for openBeneath; nil when none
}

var (
	// beneath: openBeneath is tried (tests turn it off, to compare with
	// os.Root's walk).
	beneath = true
	// beneathOpens counts the opens openBeneath made (for tests).
	beneathOpens atomic.Int64
)

// Errors of paths a Root refuses.
var (
	// ErrOutside: the path names a place outside the root (.., or an
	// absolute path elsewhere).
	ErrOutside = errors.New("outside the root")
	// ErrLinkOutside: a symbolic link on the path leads outside the root
	// (or is absolute).
	ErrLinkOutside = errors.New("a symbolic link on the path leads outside the root")
)

// OpenRoot opens the directory dir as a Root.
func OpenRoot(dir string) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		real = abs
	}
	return &Root{dir: abs, real: real, r: r, dirf: dirHandle(r)}, nil
}

// Dir is the root's absolute path, as given.
func (r *Root) Dir() string { return r.dir }

// Close releases the root's descriptors.
func (r *Root) Close() error {
	if r.dirf != nil {
		r.dirf.Close()
	}
	return r.r.Close()
}

// openFile opens rel (see [Root.Rel]) as os.Root.OpenFile does, in one
// system call where the system can (openBeneath).
func (r *Root) openFile(rel string, flags int) (*os.File, error) {
	if f, ok := r.openBeneath(rel, flags); ok {
		return f, nil
	}
	return r.r.OpenFile(rel, flags, 0)
}

// joinPath names a file opened under dir as os.Root names it.
func joinPath(dir, name string) string {
	if len(dir) > 0 && os.IsPathSeparator(dir[len(dir)-1]) {
		return dir + name
	}
	return dir + string(os.PathSeparator) + name
}

// Rel makes p — relative to the root, or absolute under it (as given or
// with its links resolved), in slash or native form — a clean slash path
// relative to the root ("." for the root itself). It is lexical: a path
// that leaves the root by name (.., an absolute path elsewhere, a Windows
// drive) is ErrOutside; where links lead is for the opening to judge.
func (r *Root) Rel(p string) (string, error) {
	native := filepath.FromSlash(p)
	if filepath.IsAbs(native) {
		for _, base := range []string{r.dir, r.real} {
			if rel, ok := under(base, filepath.Clean(native)); ok {
				return rel, nil
			}
		}
		return "", ErrOutside
	}
	s := path.Clean(strings.ReplaceAll(p, `\`, "/"))
	if s == ".." || strings.HasPrefix(s, "../") || strings.HasPrefix(s, "/") || HasDrive(s) {
		return "", ErrOutside
	}
	return s, nil
}

// under gives abs relative to base, in slash form, when it lies in it.
func under(base, abs string) (string, bool) {
	rel, err := filepath.Rel(base, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// HasDrive reports whether s starts with a Windows drive letter and its
// colon ("C:", "c:/src"), as reports made on Windows name their files.
func HasDrive(s string) bool {
	return len(s) >= 2 && s[1] == ':' && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z')
}

// Open opens the regular file at name (see [Root.Rel]) for reading, and
// gives its information. A directory, a FIFO, a device or a socket is
// refused ([Regular]'s errors); opening never blocks (a FIFO is opened
// without waiting for a writer, then refused).
func (r *Root) Open(name string) (*os.File, fs.FileInfo, error) {
	rel, err := r.Rel(name)
	if err != nil {
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	f, err := r.openFile(rel, os.O_RDONLY|syscall.O_NONBLOCK)
	if err != nil {
		return nil, nil, socketError(r.pathError(err), func() (fs.FileInfo, error) { return r.r.Stat(rel) })
	}
	return regularFile(f)
}

// Stat gives the information of the file at name, its links followed
// inside the root.
func (r *Root) Stat(name string) (fs.FileInfo, error) {
	rel, err := r.Rel(name)
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if f, ok := r.openBeneath(rel, oPath); ok {
		st, err := f.Stat()
		f.Close()
		if err == nil {
			return st, nil
		}
	}
	st, err := r.r.Stat(rel)
	return st, r.pathError(err)
}

// ReadDir lists the directory at name, sorted by name; entries keep their
// own type (a link is a link).
func (r *Root) ReadDir(name string) ([]fs.DirEntry, error) {
	rel, err := r.Rel(name)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	f, err := r.openFile(rel, os.O_RDONLY|syscall.O_NONBLOCK|oDirectory)
	if err != nil {
		return nil, r.pathError(err)
	}
	defer f.Close()
	list, err := f.ReadDir(-1)
	slices.SortFunc(list, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return list, r.pathError(err)
}

// Exists reports whether the root's directory is still there under its
// name (a root deleted or moved away keeps answering "not found").
func (r *Root) Exists() bool {
	st, err := os.Stat(r.dir)
	return err == nil && st.IsDir()
}

// pathError names os.Root's refusal of a link out as ErrLinkOutside.
func (r *Root) pathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent" { // os.Root's own, unexported
		return &fs.PathError{Op: pe.Op, Path: pe.Path, Err: ErrLinkOutside}
	}
	return err
}

// FS gives the root as an [fs.FS] (also [fs.StatFS] and [fs.ReadDirFS]),
// confined as the Root is; Open gives regular files and directories only.
func (r *Root) FS() fs.FS { return rootFS{r} }

type rootFS struct{ r *Root }

func (f rootFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	// One open, judged on what was opened: a directory or a regular file
	// is given, anything else refused as Root.Open refuses it. (A look
	// first, then an open, walked the path twice: a file 12 directories
	// down took some 50 system calls.)
	if h, ok, err := f.r.openFSBeneath(name); ok {
		return h, err
	}
	h, err := f.r.openFile(name, os.O_RDONLY|syscall.O_NONBLOCK)
	if err != nil {
		return nil, socketError(f.r.pathError(err), func() (fs.FileInfo, error) { return f.r.r.Stat(name) })
	}
	st, err := h.Stat()
	if err == nil && st.IsDir() {
		return h, nil
	}
	if err := keepRegular(h, st, err); err != nil {
		return nil, err
	}
	return &statFile{h, st}, nil
}

// statFile is a regular file rootFS opened, with the information it
// judged it by: its Stat gives that again, without asking the system (a
// reader of thousands of files asks each once).
type statFile struct {
	*os.File
	st fs.FileInfo
}

func (f *statFile) Stat() (fs.FileInfo, error) { return f.st, nil }

func (f rootFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	return f.r.Stat(name)
}

func (f rootFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	return f.r.ReadDir(name)
}

// StatAll gives, for each name, what Stat(name) gives, nil when it fails:
// the information of a file or directory there, its links followed inside
// the root. On Linux the names of one directory cost one system call
// each: the directory is opened once and each name looked up in it, and a
// name that is a link, or that this cannot tell, is asked of Stat (Stat of
// each name walked its whole path, three system calls, and the decisions
// on thousands of files spent 70 ms there before a run could start).
func (f rootFS) StatAll(names []string) []fs.FileInfo {
	out := make([]fs.FileInfo, len(names))
	order := make([]int, 0, len(names))
	rels := make([]string, len(names)) // each name as Stat takes it (Root.Rel)
	dirs := make([]string, len(names)) // and its directory, "." at the top
	stat := func(i int) {
		if st, err := f.Stat(names[i]); err == nil {
			out[i] = st
		}
	}
	for i, n := range names {
		rel, err := f.r.Rel(n)
		switch {
		case !fs.ValidPath(n) || err != nil:
			// Stat refuses it too.
		case rel == ".":
			stat(i)
		default:
			order = append(order, i)
			rels[i] = rel
			if j := strings.LastIndexByte(rel, '/'); j >= 0 {
				dirs[i] = rel[:j]
			} else {
				dirs[i] = "."
			}
		}
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(dirs[a], dirs[b]) })
	for len(order) > 0 {
		dir := dirs[order[0]]
		n := 1
		for n < len(order) && dirs[order[n]] == dir {
			n++
		}
		d := f.r.openDirBeneath(dir)
		for _, i := range order[:n] {
			if d != nil {
				if st, told := d.stat(path.Base(rels[i])); told {
					if st != nil {
						out[i] = st
					}
					continue
				}
			}
			stat(i)
		}
		d.close()
		order = order[n:]
	}
	return out
}

// Lstat gives the information of the file at name, a link not followed.
func (r *Root) Lstat(name string) (fs.FileInfo, error) {
	rel, err := r.Rel(name)
	if err != nil {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: err}
	}
	st, err := r.r.Lstat(rel)
	return st, r.pathError(err)
}

// Readlink gives the text of the symbolic link at name.
func (r *Root) Readlink(name string) (string, error) {
	rel, err := r.Rel(name)
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: err}
	}
	s, err := r.r.Readlink(rel)
	return s, r.pathError(err)
}

// LinkOutside says how name leads outside the root, for a message that
// names it already: it is a link that does ("is a symbolic link that
// leads outside"), an absolute link (never followed, wherever it points),
// or under a link that does. what names the root ("the repository").
func (r *Root) LinkOutside(name, what string) string {
	if st, err := r.Lstat(name); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		if target, err := r.Readlink(name); err == nil && filepath.IsAbs(target) {
			return "is an absolute symbolic link, which is not followed (a link must be relative and stay inside " + what + ")"
		}
		return "is a symbolic link that leads outside " + what
	}
	return "is under a symbolic link that leads outside " + what
}
