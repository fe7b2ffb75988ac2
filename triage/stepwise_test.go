package triage

import (
	"strings"
	"testing"
)

// TestStep: a step carries the decided line onto the next version of its
// file unless the diff deletes or changes it (gone, when it adds no line
// that reads as it), or adds a copy of its window as it was while the
// line's own window changes (which one is decided is then not told).
func TestStep(t *testing.T) {
	const loop = "        for (int i = 0; i < p.length; i++) s += p[i];\n"
	block := func(name, init, ret string) string {
		return "    static long " + name + "(long[] p) {\n        long s = " + init + ";\n" + loop + "        return " + ret + ";\n    }\n"
	}
	was := "class P {\n" + block("avg", "0", "s") + "}\n" // the loop: line 4
	for _, tc := range []struct {
		name, cur string
		want      int
		gone      bool
	}{
		{"unchanged", was, 4, false},
		{"lines above", "// a\n// b\n" + was, 6, false},
		{"re-indented", "class P {\n" + "\t" + block("avg", "0", "s") + "}\n", 4, false},
		{"a neighbour changed", "class P {\n" + block("avg", "0", "s / p.length") + "}\n", 4, false},
		{"a copy pasted above, neighbours as they were", "class P {\n" + block("mean", "1", "s") + block("avg", "0", "s") + "}\n", 9, false},
		{"a copy pasted above while the neighbour changed", "class P {\n" + block("mean", "1", "s") + block("avg", "0", "s / p.length") + "}\n", 0, false},
		{"the line changed", "class P {\n" + strings.Replace(block("avg", "0", "s"), loop, "        for (long v : p) s += v;\n", 1) + "}\n", 0, true},
		{"the line deleted", "class P {\n}\n", 0, true},
		// Deleted where it was, its text added elsewhere among other
		// neighbours: moved, or a copy, not told.
		{"deleted, its line added elsewhere", loop + "class P {\n    static long avg(long[] p) {\n    }\n}\n", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, gone := step(newSourceFile([]byte(was)), newSourceFile([]byte(tc.cur)), 4, newEntryLine(strings.TrimSpace(loop))); got != tc.want || gone != tc.gone {
				t.Errorf("step = %d, gone %v, want %d, %v", got, gone, tc.want, tc.gone)
			}
		})
	}
}
