//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package grouping

import "syscall"

// offHeap returns an empty slice of capacity n whose memory is outside the
// Go heap (an anonymous mapping), so that the collector neither scans it
// nor counts it in the heap whose growth paces it; false, and heap memory,
// when no mapping can be made. Its memory is given back by freeOffHeap.
func offHeap(n int) ([]byte, bool) {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]byte, 0, n), false
	}
	return b[:0], true
}

// freeOffHeap gives back the memory of a slice offHeap made.
func freeOffHeap(b []byte) { _ = syscall.Munmap(b[:cap(b)]) }
