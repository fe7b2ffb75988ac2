package triage

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLocationsFollowTheCode(t *testing.T) {
	orig := "class A {\n  void f() {\n    int x = 1;\n    use(x);\n  }\n}\n"
	tests := []struct {
		name string
		src  string
		line int // where line 3 of orig is now
	}{
		{"unchanged", orig, 3},
		{"three lines above", "// a\n// b\n\n" + orig, 6},
		{"re-indented", strings.ReplaceAll(orig, "    ", "\t\t"), 3},
		{"moved down", "class A {\n  void g() {}\n  void f() {\n    int x = 1;\n    use(x);\n  }\n}\n", 4},
	}
	want := Locations([]byte(orig))[2]
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Locations([]byte(tt.src))[tt.line-1]; got != want {
				t.Errorf("line %d: %s, want %s", tt.line, got, want)
			}
		})
	}
	if changed := Locations([]byte(strings.Replace(orig, "int x = 1", "int x = 2", 1)))[2]; changed == want {
		t.Errorf("a changed line kept its location %s", want)
	}
}

// TestLazyLocations: the locations the matcher works out line by line are
// those Locations gives, on real sources and on shapes that test the
// occurrence and the window (repeated blocks, blank lines, Unicode white
// space, bytes that are not UTF-8), before and after the fallback on
// Locations.
func TestLazyLocations(t *testing.T) {
	sources := map[string]string{
		"repeated":         "a\nb\nc\na\nb\nc\na\nb\n\n\nc\n  a\n\tb\nc\n",
		"blanks":           "\n\n  \nx\n\n\ny\n \t \nz\n",
		"unicode":          "x\u00a0=\u20031;\ny\n x =1;\ny\n\xff\xfe\n\xff\xfe\n",
		"no final newline": "a\nb",
		"one line":         "only",
	}
	// Lines longer than the pieces a window is hashed in, with characters
	// of 2 and 3 bytes that are white space, and one that is not, across
	// each place a piece may end.
	for _, sp := range []string{"\u00a0", "\u3000", "\u00e9", "\xe3\x80"} {
		var b strings.Builder
		for at := 4090; at <= 4100; at++ {
			fmt.Fprintf(&b, "%s%s%s\nshort\n", strings.Repeat("x", at), sp, strings.Repeat("y", 5000))
		}
		sources[fmt.Sprintf("long lines %q", sp)] = b.String()
	}
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "sample", "src", "main", "java", "com", "example", "shop", "*.java"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sources[filepath.Base(p)] = string(b)
	}
	for name, src := range sources {
		t.Run(name, func(t *testing.T) {
			want := Locations([]byte(src))
			for i := range want { // each line of a file read anew: no fallback
				one := newSourceFile([]byte(src))
				if got := one.location(i); got != want[i] || one.occ != nil {
					t.Errorf("line %d alone: %s, want %s (fallback %v)", i+1, got, want[i], one.occ != nil)
				}
			}
			sf := newSourceFile([]byte(src))
			for i := len(want) - 1; i >= 0; i-- { // from the bottom: the fallback comes midway
				if got := sf.location(i); got != want[i] {
					t.Errorf("line %d: %s, want %s", i+1, got, want[i])
				}
				h, _ := SplitLocation(want[i])
				n := 0
				for _, l := range want {
					if lh, _ := SplitLocation(l); lh == h {
						n++
					}
				}
				if got := sf.windowCount(i); got != n {
					t.Errorf("line %d: window count %d, want %d", i+1, got, n)
				}
			}
			if len(want) > 40 {
				// Every line of a file of 10 copies asked twice: past the
				// bound, the lines are hashed at once.
				many := []byte(strings.Repeat(src, 10))
				all := Locations(many)
				big := newSourceFile(many)
				for range 2 {
					for i := len(all) - 1; i >= 0; i-- {
						if got := big.location(i); got != all[i] {
							t.Fatalf("10 copies, line %d: %s, want %s", i+1, got, all[i])
						}
					}
				}
				if big.occ == nil {
					t.Errorf("every line of %d asked, and the lines were never hashed at once", len(all))
				}
			}
		})
	}
}

func TestFindLine(t *testing.T) {
	src := []byte("package a;\n\n  int x = 1;\n\tint  y = 2;\nint z = 3;")
	for _, c := range []struct {
		line string
		want int
	}{
		{"int x = 1;", 3},
		{"int y = 2;", 4}, // white space aside
		{"int z = 3;", 5}, // the last line, without a newline
		{"int w = 4;", 0},
		{"", 0},
		{"package", 0}, // a whole line, not a part
	} {
		if got := FindLine(src, c.line); got != c.want {
			t.Errorf("FindLine(%q) = %d, want %d", c.line, got, c.want)
		}
	}
	long := strings.Repeat("x", 300)
	if got := FindLine([]byte("a\n"+long+"\n"), LineText([]byte(long), 1)); got != 2 {
		t.Errorf("a Line cut with …: line %d, want 2", got)
	}
}

// TestLineOf: an entry's line in a file, by its location among equal lines
// (the second of two equal blocks), else by its text; At says whether a
// line is the entry's.
func TestLineOf(t *testing.T) {
	src := []byte("a();\nb();\n\na();\nb();\nc();\n")
	locs := Locations(src)
	second := Entry{Line: "a();", Location: locs[3]}
	if got := LineOf(src, &second); got != 4 {
		t.Errorf("LineOf(the second block) = %d, want 4", got)
	}
	if !At(src, 4, &second) || At(src, 1, &second) {
		t.Errorf("At: line 4 %v, line 1 %v", At(src, 4, &second), At(src, 1, &second))
	}
	moved := []byte("x();\n" + string(src))
	if got := LineOf(moved, &second); got != 5 {
		t.Errorf("LineOf after a line above = %d, want 5", got)
	}
	if got := LineOf([]byte("c();\n"), &second); got != 0 {
		t.Errorf("LineOf in a file without it = %d", got)
	}
	noLoc := Entry{Line: "c();"}
	if got := LineOf(src, &noLoc); got != 6 || !At(src, 6, &noLoc) {
		t.Errorf("LineOf(by text) = %d", got)
	}
	if LocationAt(src, 0) != "" || LocationAt(src, 7) != "" || LocationAt(src, 6) != locs[5] {
		t.Error("LocationAt out of range, or not Locations'")
	}
}
