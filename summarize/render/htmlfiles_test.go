package render

import (
	"fmt"
	"testing"
)

// TestFileViewWindows: the findings' lines, with the lines around them,
// merge into spans in line order; a long range counts from its start.
func TestFileViewWindows(t *testing.T) {
	for _, tc := range []struct {
		name  string
		marks [][2]int // line, end line
		want  [][2]int
	}{
		{"one", [][2]int{{10, 0}}, [][2]int{{7, 13}}},
		{"first lines", [][2]int{{1, 0}, {2, 0}}, [][2]int{{1, 5}}},
		{"touching", [][2]int{{10, 0}, {17, 0}}, [][2]int{{7, 20}}},
		{"apart", [][2]int{{30, 0}, {10, 0}}, [][2]int{{7, 13}, {27, 33}}},
		{"range", [][2]int{{10, 12}}, [][2]int{{7, 15}}},
		{"long range", [][2]int{{10, 5000}}, [][2]int{{7, 19}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m fileMarks
			for _, mk := range tc.marks {
				m.mark("a.go", mk[0], mk[1])
			}
			if got := windows(m.lines[m.index["a.go"]]); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("windows %v, want %v", got, tc.want)
			}
		})
	}
	var files fileMarks // files taken in turns, each remembered apart
	for i := range 30 {
		files.mark([]string{"a.go", "b.go", "a.go", "c.go", "b.go"}[i%5], i+1, 0)
	}
	for i, want := range map[string]int{"a.go": 12, "b.go": 12, "c.go": 6} {
		if n := len(files.lines[files.index[i]]) / 2; n != want {
			t.Errorf("%s: %d findings marked, want %d", i, n, want)
		}
	}
	var m fileMarks
	for i := range maxViewFiles + 10 {
		m.mark(fmt.Sprintf("f%d.go", i), 1, 0)
	}
	m.mark("", 1, 0)
	m.mark("x.go", 0, 0)
	_, empty := m.index[""]
	_, lineless := m.index["x.go"]
	if len(m.order) != maxViewFiles || len(m.lines) != maxViewFiles || empty || lineless {
		t.Errorf("%d files remembered, want %d, none without a path or line", len(m.order), maxViewFiles)
	}
}
