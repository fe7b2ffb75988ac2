package triage

import (
	"slices"
	"strings"
	"testing"
)

// TestByNeighbours: a decided line whose block moved (the diff deleted it
// and added it elsewhere) is found by the lines around it that tell
// where it is (a letter or a digit: no brace, no blank line), when one of
// the lines that read as it has more of them than any other, two at
// least.
func TestByNeighbours(t *testing.T) {
	const old = "class P {\n  /** tax */\n  long gross(long n) {\n    return n * 119 / 100;\n  }\n\n  long other() {\n    return 1;\n  }\n}\n"
	tests := []struct {
		name string
		now  string
		want int
	}{
		{"moved to the end, a copy of the line in another method between",
			"class P {\n  long other() {\n    return 1;\n  }\n\n  long grossOf(int n) {\n    return n * 119 / 100;\n  }\n\n  /** tax */\n  long gross(long n) {\n    return n * 119 / 100;\n  }\n}\n", 12},
		{"two copies with the same neighbours: not told",
			"class P {\n  long other() {\n    return 1;\n  }\n  /** tax */\n  long gross(long n) {\n    return n * 119 / 100;\n  }\n  /** tax */\n  long gross(long n) {\n    return n * 119 / 100;\n  }\n}\n", 0},
		{"braces and blank lines alone: not told",
			"class Q {\n  int f() {\n    return n * 119 / 100;\n  }\n\n  int g() {\n    return n * 119 / 100;\n  }\n}\n", 0},
		{"one telling neighbour: too few",
			"class Q {\n  long gross(long n) {\n    return n * 119 / 100;\n  }\n  int g() {\n    return n * 119 / 100;\n  }\n}\n", 0},
		{"the line gone", "class P {\n}\n", 0},
	}
	oldSF := newSourceFile([]byte(old))
	line := newEntryLine("return n * 119 / 100;")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			now := newSourceFile([]byte(tc.now))
			if got := byNeighbours(oldSF, 4, now, line, make([]bool, now.n()+1)); got != tc.want {
				t.Errorf("byNeighbours = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestSpaceless: white space goes, line ends and every other character
// stay, invalid UTF-8 too.
func TestSpaceless(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"  a b\n\tc\r\n\n", "ab\nc\n\n"},
		{"x\u00a0=\u2003y;\n", "x=y;\n"},
		{"é \xff z", "é\xffz"},
	} {
		if got := string(spaceless([]byte(tc.in))); got != tc.want {
			t.Errorf("spaceless(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestTextStart: where a decided line is followed from by its text alone
// (its location in no version): its own commit's one line of its text
// while the file now has no other; else, when its own commit had none,
// the first version with one; an older line of its text while the file
// now has more, or a first version with several, is not told.
func TestTextStart(t *testing.T) {
	const loop = "for (x : xs) s += x;"
	file := func(lines ...string) *sourceFile {
		if lines == nil {
			return nil
		}
		return newSourceFile([]byte(strings.Join(lines, "\n") + "\n"))
	}
	tests := []struct {
		name     string
		versions [][]string // nil: the file is not in that version
		now      []string
		wantK    int
		wantAt   int
	}{
		{"its own commit's one line, the file now has no other", [][]string{{"a", loop}}, []string{"b", "a", loop}, 0, 2},
		{"its own commit's one line, the file now has two", [][]string{{"a", loop}, {"a", loop, "c", loop}}, []string{"a", loop, "c", loop}, 0, 0},
		{"none in its own commit, one in the next", [][]string{{"a"}, {"a", "b", loop}}, []string{"c", "a", "b", loop, loop}, 1, 3},
		{"none in its own commit, two in the next", [][]string{{"a"}, {loop, "b", loop}}, []string{loop, "b", loop}, 0, 0},
		{"none in its own commit, the file not in the next, one in the third", [][]string{{"a"}, nil, {loop}}, []string{loop}, 2, 1},
		{"the file not in its own commit", [][]string{nil, {loop}}, []string{loop}, 0, 0},
		{"in no version", [][]string{{"a"}, {"b"}}, []string{loop}, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			versions := make([]*sourceFile, len(tc.versions))
			for k, v := range tc.versions {
				versions[k] = file(v...)
			}
			k, at := textStart(versions, file(tc.now...), newEntryLine(loop))
			if at != tc.wantAt || at > 0 && k != tc.wantK {
				t.Errorf("textStart = version %d, line %d; want version %d, line %d", k, at, tc.wantK, tc.wantAt)
			}
		})
	}
}

// TestCarriedLines: the lines of the file now that the diff carries from
// the old one, the others added.
func TestCarriedLines(t *testing.T) {
	lineOf := func(old int) (int, bool) { return map[int]int{1: 1, 2: 3, 4: 5, 5: 9}[old], old != 3 }
	got := carriedLines(5, 6, lineOf)
	want := []bool{false, true, false, true, false, true, false}
	if !slices.Equal(got, want) {
		t.Errorf("carriedLines = %v, want %v (a line carried past the file now is left out)", got, want)
	}
}

// TestCarriedOfAnotherLength: the lines a diff carries, asked for a file
// of another length than before (a finding of another file than the
// entry's, matched by the entry's history), are made for that length:
// made once for the first, they were indexed past their end (a panic of
// summary, findings and triage check).
func TestCarriedOfAnotherLength(t *testing.T) {
	hf := &histFile{old: newSourceFile([]byte("a\nb\n")), lineOf: func(i int) (int, bool) { return i, true }}
	if k := hf.carried(2); len(k) != 3 || !k[1] || !k[2] {
		t.Fatalf("carried(2) = %v", k)
	}
	if k := hf.carried(54); len(k) != 55 || !k[1] || !k[2] || k[3] {
		t.Fatalf("carried(54): %d lines, %v", len(k)-1, k[:4])
	}
}
