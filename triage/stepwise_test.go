package triage

import (
	"strings"
	"testing"
)

// TestStep: a step carries the decided line onto the next version of its
// file unless the diff deletes or changes it, or adds a copy of its window
// as it was while the line's own window changes (which one is decided is
// then not told).
func TestStep(t *testing.T) {
	const loop = "        for (int i = 0; i < p.length; i++) s += p[i];\n"
	block := func(name, init, ret string) string {
		return "    static long " + name + "(long[] p) {\n        long s = " + init + ";\n" + loop + "        return " + ret + ";\n    }\n"
	}
	was := "class P {\n" + block("avg", "0", "s") + "}\n" // the loop: line 4
	for _, tc := range []struct {
		name, cur string
		want      int
	}{
		{"unchanged", was, 4},
		{"lines above", "// a\n// b\n" + was, 6},
		{"re-indented", "class P {\n" + "\t" + block("avg", "0", "s") + "}\n", 4},
		{"a neighbour changed", "class P {\n" + block("avg", "0", "s / p.length") + "}\n", 4},
		{"a copy pasted above, neighbours as they were", "class P {\n" + block("mean", "1", "s") + block("avg", "0", "s") + "}\n", 9},
		{"a copy pasted above while the neighbour changed", "class P {\n" + block("mean", "1", "s") + block("avg", "0", "s / p.length") + "}\n", 0},
		{"the line changed", "class P {\n" + strings.Replace(block("avg", "0", "s"), loop, "        for (long v : p) s += v;\n", 1) + "}\n", 0},
		{"the line deleted", "class P {\n}\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := step(newSourceFile([]byte(was)), newSourceFile([]byte(tc.cur)), 4, newEntryLine(strings.TrimSpace(loop))); got != tc.want {
				t.Errorf("step = %d, want %d", got, tc.want)
			}
		})
	}
}
