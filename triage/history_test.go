package triage

import "testing"

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
