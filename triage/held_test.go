package triage

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/recap-dev/recap/reports"
)

// TestMatcherHoldsBoundedText: a run whose entries name more source text
// than maxHeld lets the files asked about least recently go, and reads
// them again when asked about again (into the buffers of files let go);
// every decision is the one a matcher that held them all would make,
// repeated lines' occurrences too.
func TestMatcherHoldsBoundedText(t *testing.T) {
	const files, size = 40, 1 << 20 // 40 MiB against 16 MiB held
	src := fstest.MapFS{}
	var findings []reports.Finding
	for i := range files {
		var b strings.Builder
		for n := 1; b.Len() < size+i*1000; n++ {
			if n%1000 == 0 {
				b.WriteString("    return same;\n") // a line repeated: its occurrence counts
			} else {
				fmt.Fprintf(&b, "    int v%d = compute(v%d, %d);\n", n, n-1, i)
			}
		}
		path := fmt.Sprintf("src/F%02d.java", i)
		src[path] = &fstest.MapFile{Data: []byte(b.String())}
		for _, line := range []int{200, 5000, 27000} {
			findings = append(findings, reports.Finding{Tool: "PMD", Rule: "R", Path: path, Line: line, Message: fmt.Sprintf("finding at %d", line)})
		}
	}
	f := &File{}
	for i := range findings {
		e := EntryFor(&findings[i], src)
		e.State, e.Reason = FalsePositive, "test"
		f.Entries = append(f.Entries, e)
	}
	m := NewMatcher(f, src, time.Now())
	// Each file asked about three times, the passes over all the files
	// apart: a file is let go before it is asked about again.
	for pass := range 3 {
		for i := range files {
			g := &findings[3*i+pass]
			d := m.Decide(g)
			if d == nil || d.Entry.Message != g.Message || d.How != ByLocation {
				t.Fatalf("%s:%d: %+v, want the entry of its message by location", g.Path, g.Line, d)
			}
			if m.bytes > maxHeld+2*size {
				t.Fatalf("%d bytes of source held, bound %d", m.bytes, maxHeld)
			}
		}
	}
	if m.reads < 2*files || len(m.spare) > maxSpare {
		t.Errorf("%d reads of %d files, %d spares: the files are not let go", m.reads, files, len(m.spare))
	}
	// A finding that no entry's location names (another line) is not
	// covered, file held or let go.
	miss := reports.Finding{Tool: "PMD", Rule: "R", Path: "src/F00.java", Line: 201, Message: "finding at 200"}
	if d := m.Decide(&miss); d != nil {
		t.Errorf("another line decided: %+v", d)
	}
	if st := m.Stale(); len(st) != 0 {
		t.Errorf("%d entries stale", len(st))
	}
}

// TestMatcherHoldsFilesAskedByTurns: three files larger together than
// maxHeld, asked about by turns (reports read at once), are each read
// once.
func TestMatcherHoldsFilesAskedByTurns(t *testing.T) {
	src := fstest.MapFS{}
	var findings []reports.Finding
	const files = 3
	for i := range files {
		var b strings.Builder
		for n := 1; b.Len() < maxHeld/2; n++ {
			fmt.Fprintf(&b, "    int v%d = compute(v%d, %d);\n", n, n-1, i)
		}
		path := fmt.Sprintf("gen/G%d.java", i)
		src[path] = &fstest.MapFile{Data: []byte(b.String())}
		for line := 1; line <= 2000; line += 10 {
			findings = append(findings, reports.Finding{Tool: "PMD", Rule: "R", Path: path, Line: line, Message: "m"})
		}
	}
	f := &File{}
	per := len(findings) / files
	for i := 0; i < len(findings); i += per { // an entry in each file
		e := EntryFor(&findings[i], src)
		e.State, e.Reason = FalsePositive, "test"
		f.Entries = append(f.Entries, e)
	}
	m := NewMatcher(f, src, time.Now())
	for i := range per {
		for j := range files {
			if g := &findings[j*per+i]; (m.Decide(g) != nil) != (i == 0) {
				t.Fatalf("%s:%d: decided %v", g.Path, g.Line, i != 0)
			}
		}
	}
	if m.reads != files {
		t.Errorf("%d reads of %d files asked about by turns", m.reads, files)
	}
}
