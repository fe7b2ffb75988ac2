package reportstest

import (
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/recap-dev/recap/internal/hostile/gen"
)

// PeakHeap runs f and returns the most heap in use it saw above what was in
// use before, sampling every millisecond: a bound on what f held at once.
func PeakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc)
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	runtime.ReadMemStats(&ms)
	peak = max(peak, ms.HeapAlloc)
	if peak < base {
		return 0
	}
	return peak - base
}

// Repeat gives pattern repeated until n bytes are given, without holding
// them: a large input made on the fly (see gen.Repeat).
func Repeat(pattern string, n int64) io.Reader { return gen.Repeat(pattern, n) }

// Stream is head, n bytes of pattern repeated, then tail.
func Stream(head, pattern string, n int64, tail string) io.Reader {
	return gen.Stream(head, pattern, n, tail)
}
