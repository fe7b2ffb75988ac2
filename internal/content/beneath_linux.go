//go:build linux

package content

import (
	"os"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// openBeneath opens name (relative to the root, clean, in slash form) in
// one system call: openat2(2) from the root's directory with
// RESOLVE_BENEATH, by which the kernel itself refuses every step out of
// it, and RESOLVE_NO_SYMLINKS and RESOLVE_NO_MAGICLINKS, by which it
// opens only a path of directories and a file, no link on the way. os.Root
// walks a path a component at a time instead, an open and a close each: a
// file twelve directories down costs 26 system calls, and a run that reads
// the sources of thousands of decided findings spent more time there than
// in reading them.
//
// ok is false when it did not open: the kernel has no openat2 (before
// Linux 5.6) or a filter refuses it (then it is not tried again), the
// path has a symbolic link on it, or it fails (missing, not a directory
// on the way): the caller then walks it with os.Root, which follows the
// links that stay inside (8 at most) and gives the error it always gave.
// So what openat2 opens is what os.Root opens: a path without a link,
// which the two resolve alike.
func (r *Root) openBeneath(name string, flags int) (f *os.File, ok bool) {
	fd, ok := r.openatBeneath(name, flags)
	if !ok {
		return nil, false
	}
	return os.NewFile(uintptr(fd), joinPath(r.r.Name(), name)), true
}

// openatBeneath is openBeneath's system call: the descriptor opened.
func (r *Root) openatBeneath(name string, flags int) (fd int, ok bool) {
	if r.dirf == nil || !beneath || noOpenat2.Load() {
		return -1, false
	}
	rc, err := r.dirf.SyscallConn()
	if err != nil {
		return -1, false
	}
	fd, oerr := -1, error(nil)
	how := unix.OpenHow{Flags: uint64(flags | unix.O_CLOEXEC), Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	if err := rc.Control(func(dir uintptr) {
		for {
			if fd, oerr = unix.Openat2(int(dir), name, &how); oerr != unix.EINTR {
				return
			}
		}
	}); err != nil {
		return -1, false
	}
	switch oerr {
	case nil:
		beneathOpens.Add(1)
		return fd, true
	case unix.ENOSYS, unix.EPERM, unix.EINVAL, unix.E2BIG:
		// No openat2 here (an old kernel, a container's seccomp filter,
		// flags it does not know): os.Root from now on.
		noOpenat2.Store(true)
	}
	return -1, false
}

// beneathDir is a directory under the root opened for looking names up
// in it (openDirBeneath).
type beneathDir struct{ fd int }

// openDirBeneath opens the directory dir (relative to the root, clean, in
// slash form) as openBeneath opens a path, for its names only (O_PATH);
// nil when it does not.
func (r *Root) openDirBeneath(dir string) *beneathDir {
	fd, ok := r.openatBeneath(dir, unix.O_PATH|unix.O_DIRECTORY)
	if !ok {
		return nil
	}
	return &beneathDir{fd}
}

// stat gives the information of the name (no slash) in d, nil when it
// is not there, as Stat of it would, when it can tell (told): a name that
// is there and no link, or that is not there. A link, or any other error,
// it leaves to Stat.
func (d *beneathDir) stat(name string) (st *fdInfo, told bool) {
	var sys unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, name, &sys, unix.AT_SYMLINK_NOFOLLOW)
		switch {
		case err == unix.EINTR:
			continue
		case err == nil:
			return unixInfo(name, &sys), sys.Mode&unix.S_IFMT != unix.S_IFLNK
		case err == unix.ENOENT:
			return nil, true
		}
		return nil, false
	}
}

func (d *beneathDir) close() {
	if d != nil {
		unix.Close(d.fd)
	}
}

// dirHandle opens the root's directory through the root itself, for
// openBeneath to start from (the directory the root holds, not whatever
// its name leads to by now); nil when it cannot.
func dirHandle(r *os.Root) *os.File {
	f, err := r.OpenFile(".", os.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil
	}
	return f
}

// oPath opens a file for its information only (Stat).
const oPath = unix.O_PATH

// noOpenat2: the kernel refused openat2 itself.
var noOpenat2 atomic.Bool
