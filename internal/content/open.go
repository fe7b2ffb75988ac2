package content

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular: a path names a FIFO, a device or a socket, whose reading
// blocks or never ends.
var ErrNotRegular = errors.New("not a regular file")

// Open opens a regular file for reading, and refuses anything else: a
// directory, and with ErrNotRegular a FIFO, a device or a socket. The file
// is opened without waiting (opening a FIFO for reading blocks until a
// writer comes; non-blocking, it returns at once and is refused), then
// judged on what was opened, so that nothing swapped in between slips by.
func Open(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, socketError(err, func() (fs.FileInfo, error) { return os.Stat(path) })
	}
	return regularFile(f)
}

// socketError names the error of opening a socket (ENXIO: "no such device
// or address") as what it is.
func socketError(err error, stat func() (fs.FileInfo, error)) error {
	var pe *fs.PathError
	if errors.Is(err, syscall.ENXIO) && errors.As(err, &pe) {
		if st, serr := stat(); serr == nil && !st.Mode().IsRegular() {
			return &fs.PathError{Op: pe.Op, Path: pe.Path, Err: Regular(st)}
		}
	}
	return err
}

// regularFile keeps f when it is a regular file, else closes it and says
// what it is.
func regularFile(f *os.File) (*os.File, fs.FileInfo, error) {
	st, err := f.Stat()
	if err := keepRegular(f, st, err); err != nil {
		return nil, nil, err
	}
	return f, st, nil
}

// keepRegular judges f, opened, by its information st (err: Stat's): it
// closes f and says why when it is not a regular file.
func keepRegular(f *os.File, st fs.FileInfo, err error) error {
	if err == nil {
		err = Regular(st)
	}
	if err != nil {
		f.Close()
		return &fs.PathError{Op: "open", Path: f.Name(), Err: err}
	}
	return nil
}

// Regular refuses what is not a regular file, saying what it is.
func Regular(st fs.FileInfo) error {
	m := st.Mode()
	if m.IsRegular() {
		return nil
	}
	if m.IsDir() {
		return errors.New("is a directory")
	}
	return NotRegular(m.Type())
}

// NotRegular is the error of a path of this type.
func NotRegular(m fs.FileMode) error {
	return fmt.Errorf("%w (%s): give a file, or - for standard input", ErrNotRegular, Kind(m))
}

// Kind names what a file of mode m that is not a regular one is: "a
// FIFO", "a directory".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}
