//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package content

import "syscall"

// oDirectory makes an open fail unless the name is a directory (the
// directory may not be swapped for a FIFO between a look and an open).
const oDirectory = syscall.O_DIRECTORY
