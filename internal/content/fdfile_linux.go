//go:build linux

package content

import (
	"io"
	"io/fs"
	"os"
	"path"
	"runtime"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// openFSBeneath opens name (relative to the root, clean, in slash form)
// for the root's FS in one system call (openBeneath): a regular file as a
// file of its descriptor alone (fdFile), a directory as an *os.File. ok
// is false for anything else, or when it did not open: the caller then
// takes the usual way, and gives its error. An *os.File of a descriptor
// opened without blocking (as a FIFO must be) asks the system its flags
// and tries to add it to the poller, two system calls more for each file
// a run reads; a regular file needs neither.
func (r *Root) openFSBeneath(name string) (fs.File, bool) {
	fd, ok := r.openatBeneath(name, unix.O_RDONLY|unix.O_NONBLOCK)
	if !ok {
		return nil, false
	}
	var st syscall.Stat_t
	if err := fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, false
	}
	full := joinPath(r.r.Name(), name)
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		f := &fdFile{fd: fd, name: full, st: &fdInfo{name: path.Base(name), sys: st}}
		f.cleanup = runtime.AddCleanup(f, func(fd int) { unix.Close(fd) }, fd)
		return f, true
	case syscall.S_IFDIR:
		return os.NewFile(uintptr(fd), full), true
	}
	unix.Close(fd)
	return nil, false
}

func fstat(fd int, st *syscall.Stat_t) error {
	for {
		if err := syscall.Fstat(fd, st); err != syscall.EINTR {
			return err
		}
	}
}

// fdFile is a regular file read through its descriptor alone, with the
// information it was opened with.
type fdFile struct {
	mu      sync.Mutex
	fd      int // -1 once closed
	name    string
	st      *fdInfo
	cleanup runtime.Cleanup // closes the descriptor of a file dropped unclosed
}

// Name is the file's name as os.Root names the files it opens.
func (f *fdFile) Name() string { return f.name }

func (f *fdFile) Stat() (fs.FileInfo, error) { return f.st, nil }

func (f *fdFile) Read(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fd < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrClosed}
	}
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := syscall.Read(f.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: f.name, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *fdFile) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fd < 0 {
		return &fs.PathError{Op: "close", Path: f.name, Err: fs.ErrClosed}
	}
	f.cleanup.Stop()
	err := unix.Close(f.fd)
	f.fd = -1
	if err != nil {
		return &fs.PathError{Op: "close", Path: f.name, Err: err}
	}
	return nil
}

// fdInfo is a regular file's information as os gives it (Sys a
// *syscall.Stat_t).
type fdInfo struct {
	name string
	sys  syscall.Stat_t
}

func (i *fdInfo) Name() string { return i.name }
func (i *fdInfo) Size() int64  { return i.sys.Size }
func (i *fdInfo) Mode() fs.FileMode {
	m := fs.FileMode(i.sys.Mode & 0o777)
	if i.sys.Mode&syscall.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if i.sys.Mode&syscall.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if i.sys.Mode&syscall.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}
func (i *fdInfo) ModTime() time.Time { return time.Unix(i.sys.Mtim.Unix()) }
func (i *fdInfo) IsDir() bool        { return false }
func (i *fdInfo) Sys() any           { return &i.sys }
