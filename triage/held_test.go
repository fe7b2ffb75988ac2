package triage

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
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
	if digestRead && m.reads != files { // a digest, once made, reads nothing more
		t.Errorf("%d reads of %d files, each digested when first read", m.reads, files)
	}
	if !digestRead && m.reads < 2*files || len(m.spare) > maxSpare {
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

// countingFS counts the opens of each path of a file system.
type countingFS struct {
	fstest.MapFS
	mu    sync.Mutex
	opens map[string]int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.opens[name]++
	c.mu.Unlock()
	return c.MapFS.Open(name)
}

func (c *countingFS) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, k := range c.opens {
		n += k
	}
	return n
}

// TestMatcherReadsAhead: a matcher reading the entries' files ahead
// decides every finding as one that does not, whether the findings come
// before, while or after it reads (two callers at once among them); once
// it has read them, deciding reads nothing more. Files larger together
// than what the matcher holds are not read ahead.
func TestMatcherReadsAhead(t *testing.T) {
	// Small files, and files larger together than maxHeld (held all the
	// same: none is read twice).
	for _, size := range []struct{ files, lines int }{{120, 60}, {12, 15000}} {
		readsAhead(t, size.files, size.lines)
	}
	if 12*15000*30 < maxHeld || 12*15000*40 > maxAhead {
		t.Fatalf("the second size is not between maxHeld and maxAhead")
	}
	// More text than the read-ahead takes: nothing is read ahead.
	big := fstest.MapFS{}
	for i := range 3 {
		big[fmt.Sprintf("big/B%d.java", i)] = &fstest.MapFile{Data: []byte(strings.Repeat("    int x = 1;\n", maxAhead/15/2))}
	}
	bf := &File{}
	for p := range big {
		bf.Entries = append(bf.Entries, Entry{Tool: "PMD", Rule: "R", Path: p, Line: "int x = 1;", State: FalsePositive, Reason: "test"})
	}
	c := &countingFS{MapFS: big, opens: map[string]int{}}
	m := NewMatcher(bf, c, time.Now())
	m.ReadAhead()
	time.Sleep(50 * time.Millisecond)
	if n := c.total(); n != 0 || m.aheadBytes <= maxAhead {
		t.Errorf("%d files of %d bytes: %d read ahead", len(big), m.aheadBytes, n)
	}
}

// readsAhead is TestMatcherReadsAhead of files of lines each.
func readsAhead(t *testing.T, files, lines int) {
	t.Helper()
	src := fstest.MapFS{}
	var findings []reports.Finding
	for i := range files {
		var b strings.Builder
		for n := 1; n <= lines; n++ {
			if n%20 == 0 {
				b.WriteString("    return same;\n")
			} else {
				fmt.Fprintf(&b, "    int v%d = compute(v%d, %d);\n", n, n-1, i)
			}
		}
		path := fmt.Sprintf("src/p%d/F%03d.java", i%7, i)
		src[path] = &fstest.MapFile{Data: []byte(b.String())}
		for line := 1; line <= lines; line += 3 * max(1, lines/60) {
			findings = append(findings, reports.Finding{Tool: "PMD", Rule: "R" + fmt.Sprint(line%2), Path: path, Line: line, Message: fmt.Sprintf("at %d", line)})
		}
	}
	f := &File{}
	for i := 0; i < len(findings); i += 4 {
		e := EntryFor(&findings[i], src)
		e.State, e.Reason = FalsePositive, "test"
		f.Entries = append(f.Entries, e)
	}
	f.Entries = append(f.Entries, Entry{Tool: "PMD", Rule: "R0", Path: "src/Gone.java", Location: "0123456789abcdef:1", Line: "return same;", Message: "at 40", State: WontFix, Reason: "test"})
	// A FIFO and a device that entries name, which no finding asks about:
	// never opened.
	for _, special := range []struct {
		path string
		mode fs.FileMode
	}{{"src/fifo.java", fs.ModeNamedPipe}, {"src/dev.java", fs.ModeDevice | fs.ModeCharDevice}} {
		src[special.path] = &fstest.MapFile{Mode: special.mode}
		f.Entries = append(f.Entries, Entry{Tool: "PMD", Rule: "R0", Path: special.path, Line: "return same;", State: WontFix, Reason: "test"})
	}
	decideAll := func(m *Matcher, callers int) []string {
		out := make([]string, len(findings))
		var wg sync.WaitGroup
		for c := range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d := m.Decider()
				for i := c; i < len(findings); i += callers {
					if dec := d.Decide(&findings[i]); dec != nil {
						out[i] = fmt.Sprintf("%s %d %v", dec.Entry.Key(), dec.How, dec.Expired)
					}
				}
			}()
		}
		wg.Wait()
		return out
	}
	want := decideAll(NewMatcher(f, src, time.Now()), 1)
	decided := 0
	for _, w := range want {
		if w != "" {
			decided++
		}
	}
	if decided < len(f.Entries)-3 { // the gone file's, the FIFO's and the device's decide none
		t.Fatalf("%d findings decided by %d entries", decided, len(f.Entries))
	}
	for _, wait := range []bool{false, true} {
		for _, callers := range []int{1, 2} {
			c := &countingFS{MapFS: src, opens: map[string]int{}}
			m := NewMatcher(f, c, time.Now())
			m.ReadAhead()
			if wait {
				held := func() int {
					m.mu.Lock()
					defer m.mu.Unlock()
					return m.reads
				}
				for deadline := time.Now().Add(10 * time.Second); held() < files && time.Now().Before(deadline); {
					time.Sleep(time.Millisecond)
				}
			}
			before := c.total()
			got := decideAll(m, callers)
			if !slices.Equal(got, want) {
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("wait %v, %d callers: %s:%d decided %q, without reading ahead %q", wait, callers, findings[i].Path, findings[i].Line, got[i], want[i])
					}
				}
			}
			if wait && (before != files || c.total() != files) {
				t.Errorf("%d files: %d read ahead, %d reads in all (%v)", files, before, c.total(), c.opens)
			}
			for p, n := range c.opens {
				if strings.HasPrefix(p, "src/fifo") || strings.HasPrefix(p, "src/dev") {
					t.Errorf("wait %v, %d callers: %s opened", wait, callers, p)
				}
				if n > 2 {
					t.Errorf("wait %v, %d callers: %s opened %d times", wait, callers, p, n)
				}
			}
		}
	}
}
