//go:build unix

package cli

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// descriptorDir says whether dir, a directory without links (as
// filepath.EvalSymlinks gives it), holds a process's descriptors, and
// whether they are recap's own: /proc/PID/fd and /proc/PID/task/TID/fd
// (where /proc/self/fd, /proc/thread-self/fd and Linux's /dev/fd lead),
// and /dev/fd where it is a directory of its own (macOS, the BSDs).
func descriptorDir(dir string) (ours, isFD bool) {
	if dir == "/dev/fd" {
		return true, true
	}
	rest, ok := strings.CutPrefix(dir, "/proc/")
	if !ok {
		return false, false
	}
	parts := strings.Split(rest, "/")
	switch {
	case len(parts) == 2 && parts[1] == "fd",
		len(parts) == 4 && parts[1] == "task" && parts[3] == "fd" && number(parts[2]):
	default:
		return false, false
	}
	if !number(parts[0]) {
		return false, false
	}
	return parts[0] == strconv.Itoa(os.Getpid()), true
}

// number says whether s is a run of decimal digits.
func number(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

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
