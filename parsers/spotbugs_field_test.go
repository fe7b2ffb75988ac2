package parsers

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/recap-dev/recap/internal/reportstest"
)

// TestFieldLine: a field's declaration is found by its name and the type
// of its signature, before a local of that name, past comments,
// assignments and calls; a field of another type, or of no declaration in
// the file, is not found (its bug stays on its class's first line).
func TestFieldLine(t *testing.T) {
	src := `package a;

import java.util.List;

/** The field count, said in a comment: count = 1; */
public class A {
    // private int count;
    private final List<String> names = new java.util.ArrayList<>();
    int[] sizes;
    private byte data[];
    private static final long a = 1, total = 2;
    private java.util.Map<String, Integer> byName;
    Inner inner;

    void set(int count) {
        this.count = count;
        call(count, names);
        int total = 3;
    }

    private int count;

    class Inner {
        private int count;
    }
}
`
	fsys := fstest.MapFS{"src/A.java": {Data: []byte(src)}}
	tests := []struct {
		name, sig string
		lo, hi    int // the class's code
		want      int
	}{
		{"count", "I", 0, 0, 21},               // past the comment, the parameter, the assignment and the call
		{"names", "Ljava/util/List;", 0, 0, 8}, // a generic type, initialized with a qualified one
		{"sizes", "[I", 0, 0, 9},               // an array, its brackets on the type
		{"data", "[B", 0, 0, 10},               // its brackets on the name
		{"total", "J", 0, 0, 11},               // the second declarator, before a local of the name
		{"byName", "Ljava/util/Map;", 0, 0, 12},
		{"inner", "La/A$Inner;", 0, 0, 13}, // an inner class's simple name, no modifier
		{"count", "J", 0, 0, 0},            // another type
		{"missing", "I", 0, 0, 0},
		{"count", "", 0, 0, 21},    // no signature: the name alone, a field's modifier first
		{"a.b", "I", 0, 0, 0},      // no Java name
		{"count", "I", 23, 24, 24}, // the inner class's own, within its code
		{"count", "I", 8, 22, 21},  // the outer class's, within its code
	}
	for _, tt := range tests {
		fl := &fieldLines{fsys: fsys}
		if got := fl.line("src/A.java", tt.name, tt.sig, tt.lo, tt.hi); got != tt.want {
			t.Errorf("%s %s: line %d, want %d", tt.name, tt.sig, got, tt.want)
		}
	}
	fl := &fieldLines{fsys: fsys}
	if got := fl.line("src/B.java", "count", "I", 0, 0); got != 0 {
		t.Errorf("a file that is not there: line %d", got)
	}
	if got := fl.line("../A.java", "count", "I", 0, 0); got != 0 {
		t.Errorf("a path out of the root: line %d", got)
	}
}

// TestFieldBugOnItsLine: the sample's UUF_UNUSED_FIELD (SpotBugs gives its
// field no line) is put on the field's declaration, Order.java:14, not on
// the class's first line of code (12, another field's); so is each of
// more bugs than wait in memory, read back from the temporary file.
func TestFieldBugOnItsLine(t *testing.T) {
	root := reportstest.RepoRoot(t)
	findings, in := ParseAll(mustOpen(t, filepath.Join(root, "testdata", "reports", "spotbugs.xml")), "spotbugs.xml",
		ReadOptions{Root: filepath.Join(root, "testdata", "sample")})
	if in.Error != "" {
		t.Fatal(in.Error)
	}
	var got []string
	for _, f := range findings {
		if f.Rule == "UUF_UNUSED_FIELD" {
			got = append(got, fmt.Sprintf("%s:%d-%d", f.Path, f.Line, f.EndLine))
		}
	}
	if want := "src/main/java/com/example/shop/Order.java:14-14"; strings.Join(got, " ") != want {
		t.Errorf("UUF_UNUSED_FIELD at %v, want %s", got, want)
	}

	// More bugs than spotbugsHeld: the later ones wait in a file.
	var b strings.Builder
	b.WriteString(`<BugCollection version="4.8.6"><Project/>`)
	n := spotbugsHeld + 10
	for i := range n {
		fmt.Fprintf(&b, `<BugInstance type="UUF_UNUSED_FIELD" priority="2" rank="18" category="PERFORMANCE"><Class classname="a.A" primary="true"><SourceLine classname="a.A" start="3" end="9" sourcepath="a/A.java"/></Class>`+
			`<Field classname="a.A" name="f%d" signature="I" primary="true"><SourceLine classname="a.A" sourcepath="a/A.java"/></Field></BugInstance>`, i)
	}
	b.WriteString(`</BugCollection>`)
	var java strings.Builder
	java.WriteString("package a;\nclass A {\n")
	for i := range n {
		fmt.Fprintf(&java, "    private int f%d;\n", i)
	}
	java.WriteString("}\n")
	fsys := fstest.MapFS{"src/a/A.java": {Data: []byte(java.String())}}
	findings, in = ParseAll(strings.NewReader(b.String()), "many.xml", ReadOptions{FS: fsys, Root: "/nowhere"})
	if in.Error != "" || len(findings) != n {
		t.Fatalf("%d findings (%s), want %d", len(findings), in.Error, n)
	}
	for i, f := range findings {
		if f.Path != "src/a/A.java" || f.Line != i+3 {
			t.Fatalf("bug %d at %s:%d, want src/a/A.java:%d", i, f.Path, f.Line, i+3)
		}
	}
}

// FuzzFieldLine: any source, field name and signature give a line of the
// file or 0, never a panic; the line found declares the name.
func FuzzFieldLine(f *testing.F) {
	f.Add("class A {\n    private int count;\n}\n", "count", "I")
	f.Add("class A {\n    long a = 1, total = 2;\n    java.util.List<String> xs;\n}\n", "total", "J")
	f.Add("class A { byte data[]; }", "data", "[B")
	f.Add("/* x = 1; */\nint x = y, z;\n", "z", "Ljava/lang/Object;")
	f.Fuzz(func(t *testing.T, src, name, sig string) {
		fl := &fieldLines{fsys: fstest.MapFS{"A.java": {Data: []byte(src)}}}
		n := fl.line("A.java", name, sig, 0, 0)
		lines := strings.Split(src, "\n")
		if n < 0 || n > len(lines) {
			t.Fatalf("line %d of %d", n, len(lines))
		}
		if n > 0 && !strings.Contains(lines[n-1], name) {
			t.Fatalf("line %d %q does not name %q", n, lines[n-1], name)
		}
	})
}
