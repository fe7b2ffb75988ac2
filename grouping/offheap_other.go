//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package grouping

// offHeap returns an empty slice of capacity n: here, of the Go heap.
func offHeap(n int) ([]byte, bool) { return make([]byte, 0, n), false }

// freeOffHeap does nothing: offHeap's memory is the collector's here.
func freeOffHeap([]byte) {}
