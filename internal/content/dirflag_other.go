//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package content

// oDirectory is none here: the open of a directory is not refused for
// being something else by the system (Windows opens no FIFO by name).
const oDirectory = 0
