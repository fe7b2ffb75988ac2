package content

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrNotRegular: a path names a FIFO, a device or a socket, whose reading
// blocks or never ends.
var ErrNotRegular = errors.New("not a regular file")

// Open opens a regular file for reading, and refuses anything else before
// opening it (opening a FIFO blocks until a writer comes): a directory, and
// with ErrNotRegular a FIFO, a device or a socket.
func Open(path string) (*os.File, fs.FileInfo, error) {
	if st, err := os.Stat(path); err == nil {
		if err := Regular(st); err != nil {
			return nil, nil, err
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err == nil {
		err = Regular(st) // replaced between the two looks
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
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
	kind := "a special file"
	switch {
	case m&fs.ModeNamedPipe != 0:
		kind = "a FIFO"
	case m&fs.ModeCharDevice != 0:
		kind = "a character device"
	case m&fs.ModeDevice != 0:
		kind = "a device"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	}
	return fmt.Errorf("%w (%s): give a file, or - for standard input", ErrNotRegular, kind)
}
