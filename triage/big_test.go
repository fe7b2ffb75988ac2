package triage

import (
	"bytes"
	"flag"
	"fmt"
	"reflect"
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

// TestParseHalves: a large file read in two halves gives the entries, and
// the keys, that one pass gives; what one pass refuses (a key twice, one
// in each half; a character YAML refuses in the second half; an entry
// without its reason) is refused whole, and the full reader says why as
// it does after one pass.
func TestParseHalves(t *testing.T) {
	data := string(realisticFile(4_000))
	mid := strings.Index(data[len(data)/2:], "\n  - ") + len(data)/2 + 1
	first := strings.Index(data, "\n  - ") + 1
	firstEntry := data[first : first+strings.Index(data[first+1:], "\n  - ")+1]
	cases := []struct{ name, data string }{
		{"as written", data},
		{"a key twice, one in each half", data[:mid] + firstEntry + data[mid:]},
		{"a character refused in the second half", data[:len(data)-20] + "\x01" + data[len(data)-19:]},
		{"an entry without its reason in the second half", data[:mid] + strings.Replace(data[mid:], "    reason: 'not a problem here: the value is checked before'\n", "", 1)},
		{"one entry", "version: 1\nentries:\n" + firstEntry},
	}
	defer func(n int) { halvesFrom = n }(halvesFrom)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			halvesFrom = 1 << 62
			want, wantOK := parseFast("t.yml", c.data)
			wantFile, wantErr := Parse("t.yml", []byte(c.data))
			halvesFrom = 1 << 10
			got, gotOK := parseFast("t.yml", c.data)
			gotFile, gotErr := Parse("t.yml", []byte(c.data))
			if gotOK != wantOK {
				t.Fatalf("read in halves: %v, in one pass: %v", gotOK, wantOK)
			}
			if gotOK && (!reflect.DeepEqual(got.Entries, want.Entries) || !reflect.DeepEqual(got.read, want.read)) {
				t.Fatalf("the halves' entries differ from one pass's (%d, %d)", len(got.Entries), len(want.Entries))
			}
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || (gotErr == nil) != (wantErr == nil) {
				t.Fatalf("Parse after halves: %v, after one pass: %v", gotErr, wantErr)
			}
			if gotErr == nil && !reflect.DeepEqual(gotFile.Entries, wantFile.Entries) {
				t.Fatalf("Parse's entries differ")
			}
			switch c.name {
			case "as written":
				if !gotOK || len(got.Entries) != 4_000 {
					t.Fatalf("as written: %v, %d entries", gotOK, len(got.Entries))
				}
			case "one entry":
			default:
				if gotOK || gotErr == nil && c.name != "a key twice, one in each half" {
					t.Fatalf("read fast: %v, Parse: %v; want it refused", gotOK, gotErr)
				}
			}
		})
	}
}

// TestParseOwnedLetsGo: the entries ParseOwned gives hold none of the
// bytes it read (written over after, they stay as they were read), in
// one pass and in halves, so that the file's bytes are not held for as
// long as the entries are.
func TestParseOwnedLetsGo(t *testing.T) {
	for _, n := range []int{3, 4_000} {
		data := realisticFile(n)
		want, err := Parse("t.yml", data)
		if err != nil {
			t.Fatal(err)
		}
		owned := bytes.Clone(data)
		got, err := ParseOwned("t.yml", owned)
		if err != nil {
			t.Fatal(err)
		}
		for i := range owned {
			owned[i] = 'x'
		}
		if !reflect.DeepEqual(got.Entries, want.Entries) || !reflect.DeepEqual(got.read, want.read) {
			t.Errorf("%d entries: the entries changed with the bytes read", n)
		}
	}
}
