package reports

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestGlob: path globs mean what docs/cli.md and docs/config.md say, the
// meaning of doublestar with recap's three choices (a class never matches
// /, a glob without / matches a file name anywhere, a glob ending in /
// names a directory).
func TestGlob(t *testing.T) {
	tests := []struct {
		glob, path string
		want       bool
	}{
		{"src/**/*.java", "src/a/b/C.java", true},
		{"src/**/*.java", "src/C.java", true},
		{"src/**/*.java", "web/src/C.java", false},
		{"src/*.java", "src/a/C.java", false},
		{"*.java", "src/a/C.java", true}, // a file name anywhere
		{"*.java", "C.java", true},
		{"C.java", "src/C.java", true},
		{"C.java", "src/XC.java", false},
		{"**/x/**", "a/b/x/c/D.java", true},
		{"**/x/**", "x/D.java", true},
		{"**/x/**", "a/xx/D.java", false},
		{"**/x/**", "a/b/x", true}, // /** is the directory itself too
		{"src/generated/**", "src/generated/A.java", true},
		{"src/generated/**", "src/generatedX/B.java", false},
		{"src/generated/**", "src/generated", true},
		{"target/", "target/classes/A.class", true}, // a directory and all in it
		{"target/", "target", true},
		{"target/", "src/target/A.java", false},
		{"**", "any/thing/at/all", true},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a/**/b", "a/x/yb", false},
		{"a**b/c", "aXYb/c", true}, // ** inside a segment is *
		{"a**b/c", "aX/Yb/c", false},
		{"?.java", "A.java", true},
		{"a?b/c", "a/b/c", false},
		{"[abc].java", "b.java", true},
		{"[!x]/y", "a/y", true},
		{"a[!x]b/c", "a/b/c", false}, // a class never matches /
		{"a[^x]b/c", "a/b/c", false},
		{`[\d].java`, "1.java", false}, // \d is d, not a digit
		{`[\d].java`, "d.java", true},
		{"[a-c]/x", "b/x", true},
		{"[a-c]/x", "d/x", false},
		{`\*.java`, "*.java", true},
		{`\*.java`, "A.java", false},
		{"src/{main,test}/**/*.java", "src/test/a/B.java", true},
		{"src/{main,test}/**/*.java", "src/it/a/B.java", false},
		{"{a,b/c}/d", "b/c/d", true},
		{"{a,{b,c}}.java", "c.java", true},
		{"(a|b).java", "(a|b).java", true}, // no regular expression
		{"a.java", "aXjava", false},
		{"src/Naïve.java", "src/Naïve.java", true},
		{"src/Na?ve.java", "src/Naïve.java", true},
		{"SRC/A.java", "src/A.java", false}, // paths compare case and all
	}
	for _, tc := range tests {
		g, err := CompileGlob(tc.glob)
		if err != nil {
			t.Errorf("CompileGlob(%q): %v", tc.glob, err)
			continue
		}
		if got := g.Match(tc.path); got != tc.want {
			t.Errorf("%q matches %q: %v, want %v", tc.glob, tc.path, got, tc.want)
		}
	}
}

// TestGlobErrors: a glob that cannot be read is recap's own error, naming
// the glob and what is wrong with it; never a regular expression's.
func TestGlobErrors(t *testing.T) {
	tests := []struct{ glob, want string }{
		{"src/[a", `path glob "src/[a": an unclosed [ (write \[ for the character)`},
		{"src/[]", `path glob "src/[]": an unclosed [ (write \[ for the character)`},
		{"src/{a,b", `path glob "src/{a,b": an unclosed { (write \{ for the character)`},
		{"src/a}", `path glob "src/a}": a } without its { (write \} for the character)`},
		{`src/a\`, `path glob "src/a\\": ends in a lone \ (write \\ for the character)`},
		{"[z-a].java", `path glob "[z-a].java": a range z-a that is backwards`},
		{"", `path glob "": empty (write ** for every path)`},
		{"a\x00b", `path glob "a\x00b": holds a control character`},
		{strings.Repeat("a", 257), `path glob "` + strings.Repeat("a", 99) + `…": 257 characters, more than 256`},
		{strings.Repeat("{a,b}", 7), `path glob "{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}": its braces stand for more than 64 globs`},
	}
	for _, tc := range tests {
		_, err := CompileGlob(tc.glob)
		var ge *GlobError
		if err == nil || err.Error() != tc.want || !errors.As(err, &ge) {
			t.Errorf("CompileGlob(%q) error:\n got %v\nwant %s", tc.glob, err, tc.want)
		}
	}
}

// TestWildcard: rule wildcards, * across everything, ? one character,
// case folded as strings.EqualFold folds.
func TestWildcard(t *testing.T) {
	tests := []struct {
		pat, s string
		want   bool
	}{
		{"java/*", "java/sql-injection", true},
		{"*injection", "JAVA/SQL-INJECTION", true},
		{"?", "é", true},
		{"?", "", false},
		{"k*", "\u212aelvin", true},
		{"\u212a*", "kelvin", true},
		{"*ſ", "xS", true}, // the long s folds to s
		{"[a]", "a", false},
		{"a*a*a*b", strings.Repeat("a", 4000), false},
	}
	for _, tc := range tests {
		w, err := CompileWildcard(tc.pat)
		if err != nil {
			t.Fatal(err)
		}
		if got := w.Match(tc.s); got != tc.want {
			t.Errorf("%q matches %q: %v, want %v", tc.pat, tc.s, got, tc.want)
		}
	}
}

// worstGlob is a glob of MaxGlobLength characters (255) shaped to cost the most:
// its leading ** keeps the automaton alive through any path, its * and ?
// keep every position busy on a run of a's, and it has no literal end
// to refuse a path by.
func worstGlob(i int) string {
	return "**/" + fmt.Sprintf("%04d", i) + strings.Repeat("a*?", 82) + "b*"
}

// worstPath is a path of 4 KiB (the longest a SARIF report gives),
// a long run of a's in one directory.
func worstPath(i int) string {
	return "src/" + strings.Repeat("a", 4000) + fmt.Sprintf("/F%d.java", i)
}

// BenchmarkGlobWorst: one glob of 255 characters against one path of
// 4 KiB, both of the worst shape: the cost of one distinct path and glob.
func BenchmarkGlobWorst(b *testing.B) {
	g, err := CompileGlob(worstGlob(0))
	if err != nil {
		b.Fatal(err)
	}
	p := worstPath(0)
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		if g.Match(p) {
			b.Fatal("matched")
		}
	}
}

// BenchmarkWildcardWorst: a rule wildcard of 256 characters against a
// rule id of 4 KiB.
func BenchmarkWildcardWorst(b *testing.B) {
	w, err := CompileWildcard(strings.Repeat("a*?", 85) + "b")
	if err != nil {
		b.Fatal(err)
	}
	s := strings.Repeat("a", 4096)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if w.Match(s) {
			b.Fatal("matched")
		}
	}
}

// TestGlobInner: the run of characters every path a glob matches holds,
// which refuses a path before the automaton runs; and, on random globs and
// paths, never a path the automaton alone matches.
func TestGlobInner(t *testing.T) {
	for _, c := range []struct{ glob, inner string }{
		{"**/util/**", "util"},
		{"**/*Utils.java", "Utils.java"},
		{"src/**/main/*.go", "main/"},
		{"a/**", "a"},
		{"**/x/**", "x"},
		{"*.java", ".java"},
		{"{a,b}/c", ""}, // two alternatives: none
		{"**", ""},
	} {
		g, err := CompileGlob(c.glob)
		if err != nil {
			t.Fatal(err)
		}
		if g.a.inner != c.inner {
			t.Errorf("%s: inner %q, want %q", c.glob, g.a.inner, c.inner)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "b", "ab", "/", "*", "**", "**/", "/**", "?", "[ab]", ".", "{a,b}"}
	chars := []string{"a", "b", "/", ".", "ab", "ba"}
	refused := 0
	for range 20000 {
		var gb, pb strings.Builder
		for range 1 + rng.IntN(6) {
			gb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		g, err := CompileGlob(gb.String())
		if err != nil {
			continue
		}
		for range 1 + rng.IntN(8) {
			pb.WriteString(chars[rng.IntN(len(chars))])
		}
		p := pb.String()
		alone := *g.a
		alone.inner = ""
		if got, want := g.a.match(p), alone.match(p); got != want {
			t.Fatalf("%q on %q: %v with the inner run %q, %v without", gb.String(), p, got, g.a.inner, want)
		}
		if g.a.inner != "" && !strings.Contains(p, g.a.inner) {
			refused++
		}
	}
	if refused == 0 {
		t.Error("no path refused by its glob's inner run")
	}
}
