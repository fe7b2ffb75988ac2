package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
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
//     the replaced file's permissions, a new one's as the umask makes
//     them (a failed run leaves an earlier file as it was); a file
//     named .gz is gzip'd whatever name led to it;
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
		case place.fd == 1 || place.fd == 2:
			// As standard output is written (a pipe closed early ends
			// recap as it ends it with -).
			w := map[int]*os.File{1: os.Stdout, 2: os.Stderr}[place.fd]
			if gz {
				err = encode(w)
			} else {
				out := format.Guard(w)
				if err = encode(out); err == nil {
					err = out.Close()
				}
			}
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
			// A file named .gz is gzip'd, whatever name led to it.
			gz = gz || strings.HasSuffix(strings.ToLower(place.file), ".gz")
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
	fd   int    // ≥ 0: one of recap's descriptors, written into
	into bool   // a device, a FIFO or a socket, opened and written into
	file string // else the file to make or replace, in a directory without links
	// perm is the replaced file's permissions; 0 for a new file (made as
	// the umask says).
	perm fs.FileMode
}

// maxOutputLinks bounds the links followed from --output's name, as the
// system bounds them.
const maxOutputLinks = 40

// errOutputDir is --output naming a directory, or a link to one.
var errOutputDir = errors.New("is a directory")

// placeOutput follows path's links, one at a time, to where the output
// goes (see writeTo). Each name is looked at in its directory as the
// system finds it (links and .. of the directories resolved, never by
// the name's text alone); a name in a directory of descriptors stops it
// there, before the system's link of that name (/proc/self/fd/1 names a
// pipe, a file since deleted, a socket, none of them a place to rename
// onto): recap's own descriptor, or another process's, refused.
func placeOutput(path string) (outputPlace, error) {
	p := path
	for hops := 0; ; hops++ {
		dir, base := splitOutput(p)
		if base == "" || base == "." || base == ".." {
			return outputPlace{}, errOutputDir
		}
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return outputPlace{}, err
		}
		if ours, isFD := descriptorDir(real); isFD {
			fd, err := strconv.Atoi(base)
			switch {
			case !ours:
				return outputPlace{}, errors.New("a descriptor of another process")
			case err != nil || fd < 0 || strings.Trim(base, "0123456789") != "" || len(base) > 1 && base[0] == '0':
				return outputPlace{}, errors.New("no descriptor of that name")
			}
			return outputPlace{fd: fd}, nil
		}
		p = filepath.Join(real, base)
		st, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return outputPlace{fd: -1, file: p}, nil
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
			// Its text is read in the link's directory, .. and links
			// alike, as the system reads it: not cleaned here.
			to = real + string(filepath.Separator) + to
		}
		p = to
	}
}

// splitOutput splits a name into its directory, as written (".." and
// links left for the system), and its last element.
func splitOutput(p string) (dir, base string) {
	dir, base = filepath.Split(p)
	if dir == "" {
		dir = "."
	}
	return dir, base
}

// replaceFile makes or replaces the file at path with what encode writes,
// once it is whole: a file beside it, renamed onto it, with perm (0: as
// the umask makes a new file).
func replaceFile(path string, perm fs.FileMode, encode func(io.Writer) error) error {
	f, err := createBeside(path)
	if err != nil {
		return err
	}
	defer leaveNothing(f.Name())()
	bw := bufio.NewWriterSize(f, 256<<10)
	err = encode(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && perm != 0 {
		err = os.Chmod(f.Name(), perm)
	}
	if se := stopped.Load(); err == nil && se != nil {
		err = se // a signal came while it was written: the file is left as it was
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// createBeside makes a new file of its own in path's directory, named
// after path when the name leaves room (a name of 255 bytes does not), its
// permissions those the umask leaves of 0666, as a shell's > makes them.
func createBeside(path string) (*os.File, error) {
	dir, base := filepath.Split(path)
	prefix := "." + base + "."
	if len(prefix)+20 > 255 {
		prefix = ".recap-output."
	}
	for try := 0; ; try++ {
		name := filepath.Join(dir, prefix+strconv.FormatUint(rand.Uint64()%1e12, 10))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		return f, err
	}
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
