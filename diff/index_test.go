package diff_test

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/gittest"
)

func TestIndex(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		want     []int // NewIndex: whitespace-only changes aside
		wantPlus []int // NewAddedIndex: every added line
	}{
		{"a line added", "@@ -1,2 +1,3 @@\n a\n+b\n c\n", []int{2}, []int{2}},
		{"a line modified", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n", []int{2}, []int{2}},
		{"a line deleted", "@@ -1,3 +1,2 @@\n a\n-b\n c\n", nil, nil},
		{"re-indented only", "@@ -1,2 +1,2 @@\n-  a\n+\ta\n b\n", nil, []int{1}},
		{"a blank line added", "@@ -1,2 +1,3 @@\n a\n+\n b\n", nil, []int{2}},
		{"wrapped in an if: the body re-indented", "@@ -1,3 +1,5 @@\n x\n-a();\n-b();\n+if (ok) {\n+  a();\n+  b();\n+}\n", []int{2, 5}, []int{2, 3, 4, 5}},
		{"trailing blanks and a real change", "@@ -1,2 +1,2 @@\n-a  \n-b\n+a\n+c\n", []int{2}, []int{1, 2}},
		{"two blocks", "@@ -1,4 +1,4 @@\n-a\n+A\n x\n y\n-b\n+B\n", []int{1, 4}, []int{1, 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := parse(t, "--- a/f.go\n+++ b/f.go\n"+tc.body)
			if d := cmp.Diff(tc.want, diff.NewIndex(files).Lines("f.go")); d != "" {
				t.Errorf("NewIndex lines (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.wantPlus, diff.NewAddedIndex(files).Lines("f.go")); d != "" {
				t.Errorf("NewAddedIndex lines (-want +got):\n%s", d)
			}
		})
	}
}

func TestIndexTouches(t *testing.T) {
	x := diff.NewIndex(parse(t, "--- a/f.go\n+++ b/f.go\n@@ -10,0 +11,2 @@\n+a\n+b\n@@ -40 +42 @@\n-c\n+d\n"))
	tests := []struct {
		path     string
		from, to int
		want     bool
	}{
		{"f.go", 11, 0, true},
		{"f.go", 12, 12, true},
		{"f.go", 13, 0, false},
		{"f.go", 5, 10, false},
		{"f.go", 5, 11, true},
		{"f.go", 30, 50, true},
		{"f.go", 43, 60, false},
		{"f.go", 0, 100, false}, // no line: a file-level finding is not on a changed line
		{"g.go", 11, 11, false},
	}
	for _, tc := range tests {
		if got := x.Touches(tc.path, tc.from, tc.to); got != tc.want {
			t.Errorf("Touches(%s, %d, %d) = %v, want %v", tc.path, tc.from, tc.to, got, tc.want)
		}
	}
	if x.Files() != 1 {
		t.Errorf("Files() = %d", x.Files())
	}
}

// TestIndexLikeGit: on a random history of real edits (changes, inserts,
// deletes, re-indents, blank lines, blocks wrapped in a new if), the
// changed-line index equals the added lines of git diff -w
// --ignore-blank-lines, for base...head and for the working tree.
func TestIndexLikeGit(t *testing.T) {
	g := gittest.New(t)
	rng := rand.New(rand.NewSource(5))
	uniq := 0
	stmt := func(indent int) string {
		uniq++
		return fmt.Sprintf("%sstatement(%d);", strings.Repeat("    ", indent), uniq)
	}
	files := map[string][]string{}
	for i := 0; i < 8; i++ {
		var l []string
		for j := 0; j < 60+rng.Intn(60); j++ {
			l = append(l, stmt(1+rng.Intn(2)))
		}
		files[fmt.Sprintf("src/F%d.java", i)] = l
	}
	snapshot := func() map[string]string {
		out := map[string]string{}
		for p, l := range files {
			out[p] = strings.Join(l, "\n") + "\n"
		}
		return out
	}
	edit := func() {
		p := fmt.Sprintf("src/F%d.java", rng.Intn(8))
		l := files[p]
		at := rng.Intn(len(l) - 4)
		switch rng.Intn(6) {
		case 0:
			l[at] = stmt(2)
		case 1:
			l = append(l[:at], append([]string{stmt(1), stmt(1)}, l[at:]...)...)
		case 2:
			l = append(l[:at], l[at+1+rng.Intn(3):]...)
		case 3:
			l[at] = "\t" + strings.TrimLeft(l[at], " \t")
		case 4:
			l = append(l[:at], append([]string{""}, l[at:]...)...)
		case 5: // wrap three lines in an if
			wrapped := []string{"    if (ready) {"}
			for _, s := range l[at : at+3] {
				wrapped = append(wrapped, "    "+s)
			}
			wrapped = append(wrapped, "    }")
			l = append(l[:at], append(wrapped, l[at+3:]...)...)
		}
		files[p] = l
	}
	base := g.Commit("base", snapshot())
	for c := 0; c < 15; c++ {
		for e := 0; e < 1+rng.Intn(3); e++ {
			edit()
		}
		g.Commit(fmt.Sprintf("c%d", c), snapshot())
	}
	repo, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	repo.ChangedLines = true
	check := func(label string, files []diff.File, want map[string][]int) {
		t.Helper()
		if len(want) == 0 {
			t.Fatalf("%s: git shows no changed lines: the edits did not happen", label)
		}
		x := diff.NewIndex(files)
		got := map[string][]int{}
		for p := range want {
			if l := x.Lines(p); l != nil {
				got[p] = l
			}
		}
		if x.Files() != len(want) {
			t.Errorf("%s: %d files with changed lines, git has %d", label, x.Files(), len(want))
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: changed lines (-git +recap):\n%s", label, d)
		}
	}
	files2, err := repo.Revisions(context.Background(), base, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	check("base...HEAD", files2, g.ChangedLines(base+"...HEAD"))

	for e := 0; e < 6; e++ {
		edit()
	}
	g.Write(snapshot())
	wt, err := repo.WorkingTree(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	check("working tree", wt, g.ChangedLines("HEAD"))
}

func TestUnder(t *testing.T) {
	files := parse(t, `diff --git a/app/src/A.java b/app/src/A.java
--- a/app/src/A.java
+++ b/app/src/A.java
@@ -1 +1 @@
-a
+b
diff --git a/lib/B.java b/lib/B.java
--- a/lib/B.java
+++ b/lib/B.java
@@ -1 +1 @@
-a
+b
diff --git a/app/old.txt b/docs/new.txt
similarity index 90%
rename from app/old.txt
rename to docs/new.txt
`)
	got := diff.Under(files, "app")
	if len(got) != 2 || got[0].NewPath != "src/A.java" || got[0].OldPath != "src/A.java" ||
		got[1].OldPath != "old.txt" || got[1].NewPath != "" {
		t.Errorf("Under(app) = %+v", got)
	}
	if x := diff.NewIndex(got); !x.Touches("src/A.java", 1, 1) || x.Files() != 1 {
		t.Errorf("index of app/: %d files", x.Files())
	}
}

// TestIndexModes: the diff_context index holds every line a hunk shows on
// the new side, the file index every line (and none) of a changed file;
// deleted files count in neither.
func TestIndexModes(t *testing.T) {
	t.Parallel()
	files := parse(t, "--- a/f.go\n+++ b/f.go\n@@ -3,4 +3,5 @@\n c\n d\n-e\n+E\n+E2\n f\n"+
		"--- a/gone.go\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n")
	ctx := diff.NewContextIndex(files)
	if d := cmp.Diff([]int{3, 4, 5, 6, 7}, ctx.Lines("f.go")); d != "" {
		t.Errorf("NewContextIndex lines (-want +got):\n%s", d)
	}
	if ctx.Touches("f.go", 8, 9) || !ctx.Touches("f.go", 1, 3) || ctx.Touches("f.go", 0, 0) {
		t.Error("NewContextIndex touches lines outside the hunk, or none inside")
	}
	whole := diff.NewFileIndex(files)
	for _, tc := range []struct {
		path     string
		from, to int
		want     bool
	}{{"f.go", 1000, 1000, true}, {"f.go", 0, 0, true}, {"gone.go", 1, 1, false}, {"other.go", 1, 1, false}} {
		if got := whole.Touches(tc.path, tc.from, tc.to); got != tc.want {
			t.Errorf("NewFileIndex.Touches(%s, %d) = %v", tc.path, tc.from, got)
		}
	}
	if !whole.Changed("f.go") || whole.Changed("gone.go") || whole.Files() != 1 {
		t.Errorf("NewFileIndex: changed %v %v, %d files", whole.Changed("f.go"), whole.Changed("gone.go"), whole.Files())
	}
	var none *diff.Index
	if none.Lines("f.go") != nil || none.Changed("f.go") || none.Files() != 0 {
		t.Error("a nil index has lines")
	}
}

// TestIndexAgainstLines: the compact index (paths by their hashes, runs as
// varints or, past 64 a file, as spans; a path given twice joined) answers
// Touches, Lines and Files as a plain map of line numbers does.
func TestIndexAgainstLines(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	var files []diff.File
	want := map[string]map[int]bool{}
	for i := 0; i < 300; i++ {
		path := fmt.Sprintf("src/f%d.java", rng.Intn(200)) // some paths twice
		var changed []int
		n := 1 + rng.Intn(3)
		if i%10 == 0 {
			n = 300 // many runs
		}
		line := 0
		for k := 0; k < n; k++ {
			line += 1 + rng.Intn(20)
			for j := 0; j <= rng.Intn(3); j++ {
				changed = append(changed, line)
				line++
			}
		}
		files = append(files, diff.File{NewPath: path, Status: diff.Modified, Changed: changed})
		if want[path] == nil {
			want[path] = map[int]bool{}
		}
		for _, l := range changed {
			want[path][l] = true
		}
	}
	x := diff.NewIndex(files)
	if x.Files() != len(want) {
		t.Errorf("%d files, want %d", x.Files(), len(want))
	}
	for path, lines := range want {
		var sorted []int
		for l := range lines {
			sorted = append(sorted, l)
		}
		sort.Ints(sorted)
		if d := cmp.Diff(sorted, x.Lines(path)); d != "" {
			t.Fatalf("%s: lines (-want +got):\n%s", path, d)
		}
		for from := 0; from < sorted[len(sorted)-1]+5; from++ {
			to := from + rng.Intn(4)
			touched := false
			for l := max(from, 1); l <= to; l++ {
				touched = touched || lines[l]
			}
			if got := x.Touches(path, from, to); got != touched && from > 0 {
				t.Fatalf("%s: Touches(%d, %d) = %v, want %v", path, from, to, got, touched)
			}
		}
	}
	if x.Touches("src/none.java", 1, 1<<20) || x.Changed("src/none.java") {
		t.Error("a path not in the diff touched")
	}
}

// TestIndexHashCollision: the index keeps paths by a 64-bit hash, not their
// bytes; two paths of one hash are one file to it (the documented price,
// 2^-64 a pair with its random seed), and a path of another hash is not.
func TestIndexHashCollision(t *testing.T) {
	hash := func(p string) uint64 {
		if p == "b.go" || p == "c.go" {
			return 7 // b.go and c.go collide
		}
		h := uint64(1) << 40
		for _, c := range p {
			h = h*31 + uint64(c)
		}
		return h
	}
	files := []diff.File{
		{NewPath: "a.go", Status: diff.Modified, Changed: []int{3}},
		{NewPath: "b.go", Status: diff.Modified, Changed: []int{10, 11}},
		{NewPath: "c.go", Status: diff.Modified, Changed: []int{20}},
	}
	x := diff.NewIndexHashed(files, hash)
	tests := []struct {
		path string
		line int
		want bool
	}{
		{"a.go", 3, true},
		{"a.go", 10, false},
		{"b.go", 10, true},
		{"b.go", 20, true}, // c.go's line, by the collision
		{"c.go", 11, true}, // b.go's line, by the collision
		{"c.go", 21, false},
		{"d.go", 3, false}, // not in the diff, of another hash
		{"zz.go", 3, false},
	}
	for _, tc := range tests {
		if got := x.Touches(tc.path, tc.line, tc.line); got != tc.want {
			t.Errorf("Touches(%s, %d) = %v, want %v", tc.path, tc.line, got, tc.want)
		}
	}
	if d := cmp.Diff([]int{10, 11, 20}, x.Lines("c.go")); d != "" {
		t.Errorf("colliding paths' lines (-want +got):\n%s", d)
	}
	if x.Files() != 2 {
		t.Errorf("%d files, want 2 (b.go and c.go as one)", x.Files())
	}
	// without the collision, the real hash keeps them apart
	if y := diff.NewIndex(files); y.Touches("b.go", 20, 20) || y.Files() != 3 {
		t.Errorf("maphash: b.go touches c.go's line, or %d files", y.Files())
	}
}
