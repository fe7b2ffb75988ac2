package diff

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-billy/v5"
)

// rootFS is a read-only billy.Filesystem over a directory opened once
// (an [os.Root]): go-git reads the repository's objects, references and
// index, and the working tree, through it. Every open, stat and listing
// walks from the directory's descriptor, so a directory renamed away and
// replaced by a link to another repository after it was opened is never
// read: what go-git reads is the directory that was opened, and nothing
// outside it (a link out is refused). base names the directory for
// go-git's messages and Root; prefix is a Chroot's directory inside it.
type rootFS struct {
	r      *os.Root
	base   string // the absolute path it was opened at
	prefix string // slash-separated, "" for the directory itself
}

// errReadOnly: recap never writes to a repository.
var errReadOnly = billy.ErrReadOnly

// name makes a billy path a path inside r ("." for the directory).
func (f rootFS) name(p string) string {
	p = strings.TrimPrefix(filepath.ToSlash(p), "/")
	if f.prefix != "" {
		p = f.prefix + "/" + p
	}
	p = path.Clean(p)
	if p == "/" || p == "" {
		return "."
	}
	return filepath.FromSlash(p)
}

func (f rootFS) Open(name string) (billy.File, error) { return f.OpenFile(name, os.O_RDONLY, 0) }

func (f rootFS) OpenFile(name string, flag int, _ os.FileMode) (billy.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_APPEND|os.O_TRUNC) != 0 {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errReadOnly}
	}
	h, err := f.r.OpenFile(f.name(name), os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	return rootFile{File: h, name: name}, nil
}

func (f rootFS) Stat(name string) (os.FileInfo, error)  { return f.r.Stat(f.name(name)) }
func (f rootFS) Lstat(name string) (os.FileInfo, error) { return f.r.Lstat(f.name(name)) }
func (f rootFS) Readlink(name string) (string, error)   { return f.r.Readlink(f.name(name)) }

// ReadDir lists a directory sorted by name, as billy's osfs does; entries
// are not followed (a link is a link).
func (f rootFS) ReadDir(name string) ([]os.FileInfo, error) {
	d, err := f.r.Open(f.name(name))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	list, err := d.Readdir(-1)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(list, func(a, b os.FileInfo) int { return strings.Compare(a.Name(), b.Name()) })
	return list, nil
}

func (f rootFS) Join(elem ...string) string { return path.Join(elem...) }

// Chroot gives the directory p inside this one, still read through the
// same opened directory.
func (f rootFS) Chroot(p string) (billy.Filesystem, error) {
	rel := filepath.ToSlash(f.name(p))
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return nil, billy.ErrCrossedBoundary
	}
	if rel == "." {
		rel = ""
	}
	return rootFS{r: f.r, base: f.base, prefix: rel}, nil
}

// Root is the directory's path as it was opened (for messages: nothing is
// read by it).
func (f rootFS) Root() string {
	return filepath.Join(f.base, filepath.FromSlash(f.prefix))
}

// Capabilities: reading and seeking only.
func (f rootFS) Capabilities() billy.Capability {
	return billy.ReadCapability | billy.SeekCapability
}

func (f rootFS) Create(name string) (billy.File, error) {
	return nil, &fs.PathError{Op: "create", Path: name, Err: errReadOnly}
}
func (f rootFS) TempFile(dir, _ string) (billy.File, error) {
	return nil, &fs.PathError{Op: "tempfile", Path: dir, Err: errReadOnly}
}
func (f rootFS) Rename(from, _ string) error {
	return &fs.PathError{Op: "rename", Path: from, Err: errReadOnly}
}
func (f rootFS) Remove(name string) error {
	return &fs.PathError{Op: "remove", Path: name, Err: errReadOnly}
}
func (f rootFS) MkdirAll(name string, _ os.FileMode) error {
	return &fs.PathError{Op: "mkdir", Path: name, Err: errReadOnly}
}
func (f rootFS) Symlink(_, link string) error {
	return &fs.PathError{Op: "symlink", Path: link, Err: errReadOnly}
}

// rootFile is a file opened through a rootFS.
type rootFile struct {
	*os.File
	name string
}

func (f rootFile) Name() string              { return f.name }
func (f rootFile) Lock() error               { return nil }
func (f rootFile) Unlock() error             { return nil }
func (f rootFile) Truncate(int64) error      { return errReadOnly }
func (f rootFile) Write([]byte) (int, error) { return 0, errReadOnly }
