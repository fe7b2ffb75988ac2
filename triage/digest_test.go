package triage

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"testing/fstest"
)

// TestMain runs the package's tests with every file decided by its
// digest when RECAP_TRIAGE_DIGEST is set (TestDigestAsText does, in a
// process of its own).
func TestMain(m *testing.M) {
	if os.Getenv("RECAP_TRIAGE_DIGEST") != "" {
		digestAll = true
	}
	os.Exit(m.Run())
}

// TestDigestAsText runs the package's tests again with every file decided
// by its digest (the read-ahead's) instead of its text: each decision of
// each test, following the code, git's steps and history, renames and
// copies, must be the same.
func TestDigestAsText(t *testing.T) {
	if digestAll {
		t.Skip("the run by digests itself")
	}
	if testing.Short() {
		t.Skip("-short: the package's tests once")
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^Test", "-test.skip", "^TestDigestAsText$|Fuzz")
	cmd.Env = append(os.Environ(), "RECAP_TRIAGE_DIGEST=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the tests by digests: %v\n%s", err, out)
	}
}

// TestDigestFactsAsText: what a digest keeps of each line it finds (its
// location, whether its text is on no other line, how many lines have its
// window) is what the text tells, line by line, on files of few distinct
// lines (repeats, blank lines, lines alike but for white space) and
// entries of whole lines and of lines cut short.
func TestDigestFactsAsText(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 57))
	words := []string{"a();", "  a();", "b = c;", "\tb = c ;", "}", "", "return x;", "int v = 1;", "// note"}
	for round := range 300 {
		var sb strings.Builder
		n, most := 1+rng.IntN(40), 6
		if round%5 == 0 { // many entries, many lines each: looked up by halves
			n, most = 60+rng.IntN(80), 30
		}
		for range n {
			sb.WriteString(words[rng.IntN(len(words))])
			sb.WriteByte('\n')
		}
		src := []byte(sb.String())
		var entries []Entry
		for range 1 + rng.IntN(most) {
			line := 1 + rng.IntN(n)
			text := LineText(src, line)
			if text == "" {
				continue
			}
			e := Entry{Tool: "T", Rule: "R", Path: "f.java", Line: text, State: FalsePositive, Reason: "r"}
			if rng.IntN(3) > 0 {
				e.Location = LocationAt(src, line)
			}
			entries = append(entries, e)
		}
		if len(entries) == 0 {
			continue
		}
		m := NewMatcher(&File{Entries: entries}, fstest.MapFS{"f.java": {Data: src}}, day)
		if rng.IntN(4) == 0 { // a Line cut short: compared by its beginning
			for idx := range m.lines {
				if l := &m.lines[idx]; len(l.b) > 1 {
					l.b, l.cut = l.b[:1], true
				}
			}
		}
		idxs := make([]int, len(entries))
		for i := range idxs {
			idxs[i] = i
		}
		d := m.digestOf(newSourceFile(src), m.wantedOf(idxs), m.wantedOf(nil))
		for idx := range entries {
			lis, known := d.of(idx)
			if !known {
				t.Fatalf("round %d: entry %d unknown to the digest", round, idx)
			}
			for i := range n + 2 {
				li, _, found := d.line(idx, i)
				want := i < n && entries[idx].Line != "" && lineIs(newSourceFile(src).line(i), m.lines[idx])
				if found != want || found && int(li.i) != i {
					t.Fatalf("round %d: entry %d, line %d: found %v, want %v", round, idx, i+1, found, want)
				}
			}
			for _, li := range lis {
				text := newSourceFile(src)
				i := int(li.i)
				want := lineInfo{i: li.i, unique: text.unique(i), wins: int32(text.windowCount(i))}
				if entries[idx].Location != "" {
					want.loc = text.location(i)
				}
				if li != want {
					t.Fatalf("round %d, entry %d, line %d of\n%s: digest %+v, text %+v", round, idx, i+1, src, li, want)
				}
			}
		}
	}
}
