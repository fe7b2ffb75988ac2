//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// descriptorName says whether path names one of recap's own descriptors,
// and which: /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N,
// /proc/thread-self/fd/N and /proc/PID/fd/N of recap's PID.
func descriptorName(path string) (int, bool) {
	p := filepath.Clean(path)
	switch p {
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	var n string
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/"} {
		if rest, ok := strings.CutPrefix(p, dir); ok {
			n = rest
			break
		}
	}
	if n == "" || len(n) > 9 || strings.Trim(n, "0123456789") != "" {
		return 0, false
	}
	fd, err := strconv.Atoi(n)
	return fd, err == nil
}

// dupDescriptor returns a file of its own on what descriptor fd is open
// on (its offset and flags shared, as the shell's redirection made them).
func dupDescriptor(fd int, name string) (*os.File, error) {
	d, err := syscall.Dup(fd)
	if err != nil {
		return nil, &os.PathError{Op: "write", Path: name, Err: err}
	}
	syscall.CloseOnExec(d)
	return os.NewFile(uintptr(d), name), nil
}
