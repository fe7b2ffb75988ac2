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
// file of its descriptor alone (fdFile), a directory as an *os.File, and
// anything else refused as the usual way refuses it (opened once: a
// FIFO's reader opened again would let a writer through again). ok is
// false when it did not open: the caller then takes the usual way, and
// gives its error. An *os.File of a descriptor opened without blocking
// (as a FIFO must be) asks the system its flags and tries to add it to
// the poller, two system calls more for each file a run reads; a regular
// file needs neither.
func (r *Root) openFSBeneath(name string) (_ fs.File, ok bool, _ error) {
	fd, ok := r.openatBeneath(name, unix.O_RDONLY|unix.O_NONBLOCK)
	if !ok {
		return nil, false, nil
	}
	var st syscall.Stat_t
	if err := fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, false, nil
	}
	full := joinPath(r.r.Name(), name)
	info := statInfo(path.Base(name), &st)
	switch {
	case info.Mode().IsRegular():
		f := &fdFile{fd: fd, name: full, st: info}
		f.cleanup = runtime.AddCleanup(f, func(fd int) { unix.Close(fd) }, fd)
		return f, true, nil
	case info.IsDir():
		return os.NewFile(uintptr(fd), full), true, nil
	}
	unix.Close(fd)
	return nil, true, &fs.PathError{Op: "open", Path: full, Err: Regular(info)}
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

// fdInfo is a file's information as os gives it, Sys the system's
// record: a *syscall.Stat_t of a file opened (as os's), a *unix.Stat_t of
// a name looked up in its directory (StatAll).
type fdInfo struct {
	name string
	size int64
	mode fs.FileMode
	mod  time.Time
	sys  any
}

func statInfo(name string, st *syscall.Stat_t) *fdInfo {
	return &fdInfo{name: name, size: st.Size, mode: modeOf(uint32(st.Mode)), mod: time.Unix(st.Mtim.Unix()), sys: st}
}

func unixInfo(name string, st *unix.Stat_t) *fdInfo {
	return &fdInfo{name: name, size: st.Size, mode: modeOf(uint32(st.Mode)), mod: time.Unix(st.Mtim.Unix()), sys: st}
}

// modeOf is a file's mode as os makes it of the system's.
func modeOf(sys uint32) fs.FileMode {
	m := fs.FileMode(sys & 0o777)
	switch sys & syscall.S_IFMT {
	case syscall.S_IFBLK:
		m |= fs.ModeDevice
	case syscall.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		m |= fs.ModeDir
	case syscall.S_IFIFO:
		m |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		m |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		m |= fs.ModeSocket
	}
	if sys&syscall.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if sys&syscall.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if sys&syscall.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}

func (i *fdInfo) Name() string       { return i.name }
func (i *fdInfo) Size() int64        { return i.size }
func (i *fdInfo) Mode() fs.FileMode  { return i.mode }
func (i *fdInfo) ModTime() time.Time { return i.mod }
func (i *fdInfo) IsDir() bool        { return i.mode.IsDir() }
func (i *fdInfo) Sys() any           { return i.sys }
