package diff_test

import (
	"context"
	"strings"
	"testing"

	"github.com/recap-dev/recap/diff"
)

// TestLinesOf: lines carried from one text onto another through their
// diff: kept lines move with what was inserted or deleted above them, a
// changed or deleted line is carried nowhere, and a copy of a line
// inserted above it is not taken for it.
func TestLinesOf(t *testing.T) {
	old := "a\nb\nfor x\n  s += x\nreturn s\n}\n"
	tests := []struct {
		name string
		cur  string
		line int
		want int // 0: not carried
	}{
		{"the same", old, 3, 3},
		{"lines inserted above", "new 1\nnew 2\n" + old, 3, 5},
		{"a line deleted above", "b\nfor x\n  s += x\nreturn s\n}\n", 3, 2},
		{"the line deleted", "a\nb\n  s += x\nreturn s\n}\n", 3, 0},
		{"the line changed", "a\nb\nfor y\n  s += x\nreturn s\n}\n", 3, 0},
		{"a neighbour changed", "a\nb\nfor x\n  s += x\nreturn s / n\n}\n", 3, 3},
		{"a copy of the block above", "for x\n  s += x\nreturn s\n}\n" + old, 3, 7},
		{"a copy of the block below", old + "for x\n  s += x\nreturn s\n}\n", 3, 3},
		{"a copy above, the line's neighbour changed", "for x\n  s += x\nreturn s\n}\na\nb\nfor x\n  s += x\nreturn s / n\n}\n", 3, 7},
		{"past the end", old, 7, 0},
		{"line 0", old, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			at, err := diff.LinesOf(context.Background(), []byte(old), []byte(tc.cur))
			if err != nil {
				t.Fatal(err)
			}
			got, ok := at(tc.line)
			if !ok {
				got = 0
			}
			if got != tc.want {
				t.Errorf("line %d carried to %d (%v), want %d", tc.line, got, ok, tc.want)
			}
		})
	}
	big := strings.Repeat("x", diff.MaxDiffBytes+1)
	if _, err := diff.LinesOf(context.Background(), []byte(big), nil); err != diff.ErrTooLarge {
		t.Errorf("a text past MaxDiffBytes: %v", err)
	}
}

// FuzzLinesOf: a line carried from old onto cur reads the same there (the
// diff keeps only unchanged lines), no two lines are carried onto one,
// and they keep their order.
func FuzzLinesOf(f *testing.F) {
	f.Add("a\nb\nc\n", "x\na\nb\nc\n")
	f.Add("a\nb\na\nb\n", "a\nb\n")
	f.Add("for x\n  s\nret\n}\n", "for x\n  s\nret\n}\nfor x\n  s\nret 2\n}\n")
	f.Add("no newline", "no newline\n")
	f.Fuzz(func(t *testing.T, old, cur string) {
		at, err := diff.LinesOf(context.Background(), []byte(old), []byte(cur))
		if err != nil {
			return
		}
		oldLines, curLines := strings.SplitAfter(old, "\n"), strings.SplitAfter(cur, "\n")
		last := 0
		for i, l := range oldLines {
			if l == "" {
				continue // after the last newline
			}
			n, ok := at(i + 1)
			if !ok {
				continue
			}
			if n < 1 || n > len(curLines) || strings.TrimSuffix(curLines[n-1], "\n") != strings.TrimSuffix(l, "\n") {
				t.Fatalf("line %d %q carried to %d", i+1, l, n)
			}
			if n <= last {
				t.Fatalf("line %d carried to %d, after a line carried to %d", i+1, n, last)
			}
			last = n
		}
	})
}
