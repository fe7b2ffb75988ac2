package grouping_test

import (
	"context"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
)

// BenchmarkStore compares the grouper's two stores of its members, the
// varint runs in chunks mapped outside the Go heap ("mmap") and the same
// chunks as plain Go slices ("heap"), on recap summary's query over
// Spring's Checkstyle and PMD reports (710,826 findings, 300,889 of them
// kept by the grouper), as BenchmarkSummaryGrouped (pipeline) runs it.
// cpu-ms/op is the process's CPU time (the machine may be shared),
// peak-heap-MB the most heap in use during a query, goal-MB the highest
// heap goal the collector set (what the heap may grow to before the next
// collection, and so what the process's memory follows), both sampled
// every millisecond.
func BenchmarkStore(b *testing.B) {
	dir := reportstest.SharedDir(b, "bench")
	files := pipeline.Files{Paths: []string{filepath.Join(dir, "spring-framework.checkstyle-sun.xml.gz"), filepath.Join(dir, "spring-framework.pmd7-all.sarif.gz")},
		Options: parsers.ReadOptions{NoFingerprints: true}}
	for _, bc := range []struct {
		name    string
		offHeap bool
	}{{"mmap", true}, {"heap", false}} {
		b.Run(bc.name, func(b *testing.B) {
			defer grouping.SetOffHeap(bc.offHeap)()
			b.ReportAllocs()
			var cpu time.Duration
			var peak, goal uint64
			runs := 0
			for b.Loop() {
				runtime.GC()
				start := cpuTime()
				p, g := sampleHeap(func() {
					res, err := pipeline.Run(context.Background(), &pipeline.Query{Reports: files, Classes: grouping.ClassOf})
					if err != nil || res.View.Summary.Total != 710826 {
						b.Fatalf("%v, %d findings", err, res.View.Summary.Total)
					}
				})
				cpu += cpuTime() - start
				peak, goal = max(peak, p), max(goal, g)
				runs++
			}
			b.ReportMetric(float64(cpu.Milliseconds())/float64(runs), "cpu-ms/op")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(goal)/(1<<20), "goal-MB")
		})
	}
}

// sampleHeap runs f and returns the most heap in use and the highest heap
// goal seen while it ran, sampled every millisecond (runtime/metrics, which stops nothing).
func sampleHeap(f func()) (peak, goal uint64) {
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/goal:bytes"}}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				metrics.Read(samples)
				peak, goal = max(peak, samples[0].Value.Uint64()), max(goal, samples[1].Value.Uint64())
			}
		}
	})
	f()
	close(done)
	wg.Wait()
	return peak, goal
}

// cpuTime is the process's CPU time so far: on a shared machine it is not
// inflated by the others' load as the wall time is.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
