package triage

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/recap-dev/recap/reports"
)

// TestMain runs the package's tests with the files decided by their text
// (those read ahead aside) when RECAP_TRIAGE_TEXT is set
// (TestTextAsDigest does, in a process of its own).
func TestMain(m *testing.M) {
	if os.Getenv("RECAP_TRIAGE_TEXT") != "" {
		digestRead = false
	}
	os.Exit(m.Run())
}

// TestTextAsDigest runs the package's tests again with the files decided
// by their text instead of their digests (those read ahead aside): each
// decision of each test, following the code, git's steps and history,
// renames and copies, must be the same.
func TestTextAsDigest(t *testing.T) {
	if !digestRead {
		t.Skip("the run by the text itself")
	}
	if testing.Short() {
		t.Skip("-short: the package's tests once")
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^Test", "-test.skip", "^TestTextAsDigest$|Fuzz")
	cmd.Env = append(os.Environ(), "RECAP_TRIAGE_TEXT=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the tests by the text: %v\n%s", err, out)
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
		entries := randomEntries(rng, src, n, 1+rng.IntN(most))
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

// randomEntries returns up to k entries of random lines of src (of n
// lines; blank lines skipped), two in three with their location.
func randomEntries(rng *rand.Rand, src []byte, n, k int) []Entry {
	var entries []Entry
	for range k {
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
	return entries
}

// TestQuickDigestAsDigest: the digest made in one pass over a file's lines
// (quickDigest) is, whenever it is made, the one digestOf makes of the
// file's lines, on random files of lines mostly unlike (some alike but
// for white space, blank lines, CRLF, no newline at the end), with entries
// of whole lines and of lines cut short, some of them also whose file is
// gone; and it is made for most of them.
func TestQuickDigestAsDigest(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 29))
	quick := 0
	const rounds = 400
	for round := range rounds {
		var sb strings.Builder
		n := 1 + rng.IntN(60)
		for i := range n {
			switch rng.IntN(25) {
			case 0:
				sb.WriteString("")
			case 1:
				sb.WriteString("  \t ")
			case 2:
				sb.WriteString("    return x;")
			case 3:
				sb.WriteString("return  x ;")
			case 4:
				sb.WriteString("\tint é = 1;\r")
			case 5, 6: // white space that is no indentation before the line
				fmt.Fprintf(&sb, "\f\u00a0int v%d = f(v%d);", i, rng.IntN(4))
			default:
				fmt.Fprintf(&sb, "%sint v%d = f(v%d);", strings.Repeat(" ", rng.IntN(9)), i, rng.IntN(4))
			}
			if i < n-1 || rng.IntN(2) == 0 {
				sb.WriteByte('\n')
			}
		}
		src := []byte(sb.String())
		entries := randomEntries(rng, src, strings.Count(sb.String(), "\n")+1, 1+rng.IntN(6))
		if len(entries) == 0 {
			continue
		}
		m := NewMatcher(&File{Entries: entries}, fstest.MapFS{"f.java": {Data: src}}, day)
		if rng.IntN(5) == 0 { // a Line cut short: compared by its beginning
			l := &m.lines[rng.IntN(len(m.lines))]
			if len(l.b) > 3 {
				l.b, l.cut = l.b[:3], true
			}
		}
		var own, gone []int
		for i := range entries {
			if rng.IntN(4) > 0 {
				own = append(own, i)
			}
			if rng.IntN(4) == 0 {
				gone = append(gone, i)
			}
		}
		want := m.digestOf(newSourceFile(src), m.wantedOf(own), m.wantedOf(gone))
		got := m.quickDigest(src, m.wantedOf(own), m.wantedOf(gone))
		if got == nil {
			continue
		}
		quick++
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d, entries %+v, own %v, gone %v, of\n%q:\none pass %+v\nby lines %+v", round, entries, own, gone, src, got, want)
		}
	}
	if quick < rounds/2 {
		t.Errorf("%d of %d files digested in one pass", quick, rounds)
	}
}

// FuzzQuickDigest: whatever the bytes (white space of every kind and
// width, lines alike but for it, bytes that are not UTF-8, no newline at
// the end), the digest made in one pass over the lines, when it is made,
// is digestOf's; the entries are lines of the file (whole, or cut to
// their beginning), some with their location.
func FuzzQuickDigest(f *testing.F) {
	f.Add([]byte("int v1 = f(v0);\n  int v2 = f(v1);\n\nreturn x;\n"), []byte{0, 1, 3}, uint8(5))
	f.Add([]byte("\f\u00a0int a = 1;\r\nint a=1;\n\xff\xfe\nx\n"), []byte{0, 2, 3}, uint8(1))
	f.Add([]byte("abcdefgh ijk;\nabcdefgh  ijk ;\nabcdefg hijk;"), []byte{1, 2}, uint8(2))
	f.Fuzz(func(t *testing.T, src []byte, picks []byte, flags uint8) {
		lines := newSourceFile(src).n()
		if lines == 0 || len(picks) == 0 {
			return
		}
		var entries []Entry
		for k, p := range picks[:min(len(picks), 2*manyWanted)] {
			line := 1 + int(p)%lines
			text := LineText(src, line)
			if text == "" {
				continue
			}
			e := Entry{Tool: "T", Rule: "R", Path: "f.java", Line: text, State: FalsePositive, Reason: "r"}
			if (flags>>(k%8))&1 == 1 {
				e.Location = LocationAt(src, line)
			}
			entries = append(entries, e)
		}
		if len(entries) == 0 {
			return
		}
		m := NewMatcher(&File{Entries: entries}, fstest.MapFS{"f.java": {Data: src}}, day)
		if flags&0x80 != 0 { // a Line cut to its beginning
			if l := &m.lines[0]; len(l.b) > 2 {
				l.b, l.cut = l.b[:2], true
			}
		}
		var own, gone []int
		for i := range entries {
			if i%3 != 2 {
				own = append(own, i)
			}
			if i%3 != 0 {
				gone = append(gone, i)
			}
		}
		want := m.digestOf(newSourceFile(src), m.wantedOf(own), m.wantedOf(gone))
		if got := m.quickDigest(src, m.wantedOf(own), m.wantedOf(gone)); got != nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("entries %q, own %v, gone %v:\none pass %+v\nby lines %+v", entries, own, gone, got, want)
		}
	})
}

// BenchmarkQuickDigest: a file's digest made in one pass for two entries
// of its lines, on the sample's Java sources (202 lines) and on a file of
// 150 lines alike as the pipeline's triage benchmark makes them. Bytes
// an op are the file's: MB/s is the speed of the pass.
func BenchmarkQuickDigest(b *testing.B) {
	var java []byte
	files, _ := filepath.Glob("../testdata/sample/src/main/java/com/example/shop/*.java")
	for _, f := range files {
		t, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		java = append(java, t...)
	}
	var made strings.Builder
	for i := 1; i <= 150; i++ {
		fmt.Fprintf(&made, "        int v%d = compute(v%d, %d);\n", i, i-1, 40)
	}
	for _, bc := range []struct {
		name string
		src  []byte
	}{{"java", java}, {"made-up", []byte(made.String())}} {
		b.Run(bc.name, func(b *testing.B) {
			n := bytes.Count(bc.src, []byte("\n"))
			// Two lines found once, a third and two thirds down.
			var entries []Entry
			for _, from := range []int{n / 3, 2 * n / 3} {
				for l := from; l <= n; l++ {
					if t := LineText(bc.src, l); len(t) > 10 && bytes.Count(bc.src, []byte(t)) == 1 {
						entries = append(entries, Entry{Tool: "T", Rule: "R", Path: "f.java", Line: t, State: FalsePositive, Reason: "r"})
						break
					}
				}
			}
			m := NewMatcher(&File{Entries: entries}, nil, day)
			own, gone := m.wantedOf([]int{0, 1}), m.wantedOf(nil)
			b.SetBytes(int64(len(bc.src)))
			for b.Loop() {
				if m.quickDigest(bc.src, own, gone) == nil {
					b.Fatal("no digest in one pass")
				}
			}
		})
	}
}

// TestFoundAtAsText: a finding of a file with many entries of its rule is
// compared, by the file's digest, with the entries whose Line its line
// reads as alone (digest.foundAt); its decision, and what the entries are
// then said to be (matched, near a finding of another message), are those
// of every entry compared by the text. Files of few distinct lines
// (repeats, lines alike but for white space), findings on every line and
// past the end, of the entries' messages and of others, one entry in
// three of another rule.
func TestFoundAtAsText(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 35))
	words := []string{"a();", "  a();", "b = c;", "\tb = c ;", "}", "", "return x;", "int v = 1;", "// note", "f(1);", "g(2);"}
	msgs := []string{"m1", "m2", "m3"}
	for round := range 400 {
		var sb strings.Builder
		n := 1 + rng.IntN(60)
		for range n {
			sb.WriteString(words[rng.IntN(len(words))])
			sb.WriteByte('\n')
		}
		src := []byte(sb.String())
		entries := randomEntries(rng, src, n, 2+rng.IntN(30))
		if len(entries) < 2 {
			continue
		}
		plain := rng.IntN(4) > 0 // else an entry of its message alone: every entry compared
		for k := range entries {
			entries[k].Message, entries[k].Reason = msgs[rng.IntN(len(msgs))], fmt.Sprint("r", k)
			if rng.IntN(3) == 0 {
				entries[k].Rule = "S"
			}
			if !plain && k == 0 {
				entries[k].Line, entries[k].Location = "", ""
			}
		}
		var findings []reports.Finding
		for i := range 3 * n {
			f := reports.Finding{ID: reports.FindingID{Tag: "ab12", N: uint32(i + 1)}, Tool: "T", Rule: "R", Path: "f.java",
				Line: 1 + rng.IntN(n+2), Message: msgs[rng.IntN(len(msgs))]}
			if rng.IntN(4) == 0 {
				f.Rule = "S"
			}
			findings = append(findings, f)
		}
		decide := func(byDigest bool) (got []string, statuses []Status) {
			digestRead = byDigest
			defer func() { digestRead = true }()
			m := NewMatcher(&File{Entries: slices.Clone(entries)}, fstest.MapFS{"f.java": {Data: src}}, day)
			for k := range findings {
				if d := m.Decide(&findings[k]); d != nil {
					got = append(got, fmt.Sprintf("finding %d: entry %s %v", k, d.Entry.Reason, d.How))
				} else {
					got = append(got, fmt.Sprintf("finding %d: none", k))
				}
			}
			return got, m.Statuses()
		}
		byDigest, stDigest := decide(true)
		byText, stText := decide(false)
		if !reflect.DeepEqual(byDigest, byText) || !reflect.DeepEqual(stDigest, stText) {
			t.Fatalf("round %d, file\n%s\nentries %+v:\nby digest %q %+v\nby text   %q %+v", round, src, entries, byDigest, stDigest, byText, stText)
		}
	}
}
