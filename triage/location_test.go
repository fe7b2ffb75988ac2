package triage

import (
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
