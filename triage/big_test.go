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

// realisticFile is a triage file of n entries as recap writes them for
// findings of Checkstyle and PMD: each with its line and message, the
// messages' quotes doubled in single quotes, a date and who decided.
func realisticFile(n int) []byte {
	f := &File{Version: Version}
	for i := range n {
		f.Entries = append(f.Entries, Entry{
			Tool: []string{"PMD", "Checkstyle"}[i%2], Rule: fmt.Sprintf("com.puppycrawl.tools.checkstyle.checks.sizes.Rule%dCheck", i%150),
			Path:     fmt.Sprintf("spring-web/src/main/java/org/springframework/web/p%d/Class%d.java", i%40, i/3),
			Location: fmt.Sprintf("%016x:%d", uint64(i)*0x9e3779b97f4a7c15, 1+i%3),
			Line:     fmt.Sprintf("int v%d = compute(v%d, %d);", i, i-1, i%80),
			Message:  fmt.Sprintf("'}' at column %d should be on the same line as the next part of a multi-block statement.", i%60),
			State:    FalsePositive, Reason: "not a problem here: the value is checked before", By: "alice", Date: "2026-11-28",
		})
	}
	out, err := f.Marshal()
	if err != nil {
		panic(err)
	}
	return out
}

// BenchmarkParse10000 reads a triage file of 10,000 decisions as recap
// writes them (3.7 MB), which every run that honours it reads first.
func BenchmarkParse10000(b *testing.B) {
	data := realisticFile(10_000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		f, err := Parse("t.yml", data)
		if err != nil || len(f.Entries) != 10_000 {
			b.Fatal(err)
		}
	}
}
