//go:build unix

package diff

import (
	"errors"
	"os"
	"syscall"

	"github.com/go-git/go-billy/v5"
	"golang.org/x/sys/unix"
)

// mapFile maps f into memory, read only; release unmaps it. The mapping
// outlives f's closing.
func mapFile(f billy.File) (_ []byte, release func() error, _ error) {
	osf, ok := f.(interface {
		Fd() uintptr
		Stat() (os.FileInfo, error)
	})
	if !ok {
		return nil, nil, errors.ErrUnsupported
	}
	st, err := osf.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := st.Size()
	if size <= 0 || int64(int(size)) != size || !st.Mode().IsRegular() {
		return nil, nil, errors.ErrUnsupported
	}
	b, err := syscall.Mmap(int(osf.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return b, func() error { return syscall.Munmap(b) }, nil
}

// releasePages lets the pages of a mapping go from the process's resident
// memory; they are read again from the page cache when they are needed.
func releasePages(b []byte) {
	unix.Madvise(b, unix.MADV_DONTNEED)
}
