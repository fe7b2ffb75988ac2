package triage

import (
	"flag"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

var full = flag.Bool("full", false, "run the hostile cases at full size")

// bigFile is a triage file of n entries of about 150 bytes each.
func bigFile(n int) []byte {
	var b strings.Builder
	b.WriteString("version: 1\nentries:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - tool: PMD\n    rule: Rule%d\n    path: src/main/java/p%d/F%d.java\n    location: %016x:1\n    state: false-positive\n    reason: reason %d\n", i%300, i%50, i, i, i)
	}
	return []byte(b.String())
}

// TestLargestFile: a file of 10,000 entries (with -full, one at the bound,
// 50,000 entries, 7.4 MiB, and one entry more, refused) is read and
// written, in the time and memory docs/reliability.md gives.
func TestLargestFile(t *testing.T) {
	n := 10_000
	if *full {
		n = MaxEntries
	}
	data := bigFile(n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	f, err := Parse("big.yml", data)
	if err != nil {
		t.Fatal(err)
	}
	parse := time.Since(start)
	runtime.ReadMemStats(&after)
	start = time.Now()
	out, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	write := time.Since(start)
	if len(f.Entries) != n {
		t.Fatalf("%d entries read, want %d", len(f.Entries), n)
	}
	t.Logf("%d entries, %.1f MiB: parsed in %v (%.0f MiB allocated), written in %v (%.1f MiB)", n, float64(len(data))/(1<<20), parse,
		float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), write, float64(len(out))/(1<<20))
	if *full {
		over := bigFile(MaxEntries + 1)
		start = time.Now()
		if _, err := Parse("over.yml", over); err == nil || !strings.Contains(err.Error(), "more than 50000") {
			t.Errorf("a file of %d entries: %v", MaxEntries+1, err)
		}
		t.Logf("%d entries refused in %v", MaxEntries+1, time.Since(start))
	}
}
