package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/summarize/render"
)

// writeTo writes what write writes, in format: to standard output
// (path "" or "-"), guarded from making workflow commands, or to the
// file --output names, gzip'd when its name ends .gz:
//   - a file (or a name that is none yet) is made or replaced once the
//     whole output is written: a file beside it, renamed onto it, with
//     the replaced file's permissions (a failed run leaves an earlier
//     file as it was);
//   - a link is followed to what it names, the link kept (a link to
//     nothing makes the file it names);
//   - a name of one of recap's own descriptors (/dev/stdout,
//     /dev/stderr, /dev/fd/N, /proc/self/fd/N: a process substitution's
//     /dev/fd/63) is written into that descriptor, as the shell opened
//     it (appended to a file opened with >>, into a socket, into a file
//     since deleted), guarded as standard output is;
//   - a device, a FIFO or a socket is opened and written into, guarded
//     as standard output is.
//
// Nothing is ever renamed onto a device, a link or a descriptor's name:
// run as root, "-o /dev/null" left a file where the device was.
func writeTo(stdout io.Writer, path string, format render.Format, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		out := format.Guard(stdout)
		err := write(out)
		if err == nil {
			err = out.Close()
		}
		return err
	}
	gz := strings.HasSuffix(strings.ToLower(path), ".gz")
	encode := func(w io.Writer) error {
		if !gz {
			return write(w)
		}
		// A name that ends .gz is a gzip file: recap reads it back so, and
		// a search tells its own output from its first bytes undone.
		zw := gzip.NewWriter(w)
		err := write(zw)
		if cerr := zw.Close(); err == nil {
			err = cerr
		}
		return err
	}
	place, err := placeOutput(path)
	if err == nil {
		switch {
		case place.fd >= 0:
			var f *os.File
			if f, err = dupDescriptor(place.fd, path); err == nil {
				err = writeInto(f, gz, format, encode)
			}
		case place.into:
			var f *os.File
			if f, err = os.OpenFile(place.file, os.O_WRONLY, 0); err == nil {
				err = writeInto(f, gz, format, encode)
			}
		default:
			err = replaceFile(place.file, place.perm, encode)
		}
	}
	if err != nil {
		return fmt.Errorf("--output %s: %w", path, content.PathErr(err))
	}
	return nil
}

// outputPlace is where --output's bytes go.
type outputPlace struct {
	fd   int         // ≥ 0: one of recap's descriptors, written into
	into bool        // a device, a FIFO or a socket, opened and written into
	file string      // else the file to make or replace
	perm fs.FileMode // its permissions
}

// maxOutputLinks bounds the links followed from --output's name, as the
// system bounds them.
const maxOutputLinks = 40

// errOutputDir is --output naming a directory, or a link to one.
var errOutputDir = errors.New("is a directory")

// placeOutput follows path's links, one at a time, to where the output
// goes (see writeTo): the name of a descriptor of recap's stops it there,
// before the system's link of that name (/proc/self/fd/1 names a pipe, a
// file since deleted, a socket, none of them a place to rename onto).
func placeOutput(path string) (outputPlace, error) {
	p := path
	for hops := 0; ; hops++ {
		if fd, ok := descriptorName(p); ok {
			return outputPlace{fd: fd}, nil
		}
		st, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return outputPlace{fd: -1, file: p, perm: 0o644}, nil
		case err != nil:
			return outputPlace{}, err
		case st.Mode()&fs.ModeSymlink == 0:
			switch {
			case st.IsDir():
				return outputPlace{}, errOutputDir
			case st.Mode().IsRegular():
				return outputPlace{fd: -1, file: p, perm: st.Mode().Perm()}, nil
			}
			return outputPlace{fd: -1, into: true, file: p}, nil
		case hops == maxOutputLinks:
			return outputPlace{}, fmt.Errorf("more than %d links", maxOutputLinks)
		}
		to, err := os.Readlink(p)
		if err != nil {
			return outputPlace{}, err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(p), to)
		}
		p = to
	}
}

// replaceFile makes or replaces the file at path with what encode writes,
// once it is whole: a file beside it, renamed onto it.
func replaceFile(path string, perm fs.FileMode, encode func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 256<<10)
	err = encode(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), perm)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// writeInto writes into f, then closes it: guarded from making workflow
// commands unless gzip'd (it may be the job's log).
func writeInto(f *os.File, gz bool, format render.Format, encode func(io.Writer) error) error {
	bw := bufio.NewWriterSize(f, 256<<10)
	var w io.Writer = bw
	var guard io.WriteCloser
	if !gz {
		guard = format.Guard(bw)
		w = guard
	}
	err := encode(w)
	if err == nil && guard != nil {
		err = guard.Close()
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
