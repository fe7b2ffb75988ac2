package summarize_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

func parse(t *testing.T, text string) []diff.File {
	t.Helper()
	files, err := diff.Parse("t.diff", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// manyHunks is a diff of files, each with hunks real changes far apart.
func manyHunks(files, hunks int) string {
	var b strings.Builder
	for f := 0; f < files; f++ {
		fmt.Fprintf(&b, "diff --git a/f%d.go b/f%d.go\n--- a/f%d.go\n+++ b/f%d.go\n", f, f, f, f)
		for h := 0; h < hunks; h++ {
			l := 1 + h*20
			fmt.Fprintf(&b, "@@ -%d,3 +%d,3 @@\n a\n-old %d\n+new %d\n b\n", l, l, h, h)
		}
	}
	return b.String()
}

func TestViewCapsHunks(t *testing.T) {
	tests := []struct {
		name                     string
		files, hunks, maxHunks   int
		wantShown, wantHunks     int
		wantMarker, wantSuggests bool
	}{
		{"under the cap", 2, 5, 0, 10, 10, false, false},
		{"exactly 20", 4, 5, 0, 20, 20, false, false},
		{"past 20", 5, 7, 0, 20, 35, true, true},
		{"asked for 3", 2, 5, 3, 3, 10, true, true},
		{"asked for more than 20", 3, 10, 50, 20, 30, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := summarize.NewDiffView(parse(t, manyHunks(tc.files, tc.hunks)), summarize.DiffOptions{MaxHunks: tc.maxHunks})
			if len(v.Hunks) != tc.wantShown || v.Summary.Hunks != tc.wantHunks {
				t.Errorf("shown %d of %d hunks, want %d of %d", len(v.Hunks), v.Summary.Hunks, tc.wantShown, tc.wantHunks)
			}
			// The per-file summary covers every file, also those whose hunks are not shown.
			if len(v.Files) != tc.files {
				t.Errorf("%d file rows, want %d", len(v.Files), tc.files)
			}
			for _, f := range v.Files {
				if f.Hunks != tc.hunks || f.Added != tc.hunks || f.Deleted != tc.hunks {
					t.Errorf("file row %+v, want %d hunks, +%d -%d", f, tc.hunks, tc.hunks, tc.hunks)
				}
			}
			if got := len(v.Omitted) > 0; got != tc.wantMarker {
				t.Errorf("omitted = %+v, want a marker: %v", v.Omitted, tc.wantMarker)
			}
			if tc.wantMarker {
				want := fmt.Sprintf("%d hunks after the first %d", tc.wantHunks-tc.wantShown, tc.wantShown)
				if !strings.HasPrefix(v.Omitted[0].What, want) || v.Omitted[0].Tokens <= 0 {
					t.Errorf("marker %+v, want %q… with a cost", v.Omitted[0], want)
				}
			}
			if got := len(v.Suggestions) > 0; got != tc.wantSuggests {
				t.Errorf("suggestions = %q", v.Suggestions)
			}
			// Hunks are shown in file order, from the first.
			if v.Hunks[0].Path != "f0.go" || v.Hunks[0].Lines[1] != "-old 0" {
				t.Errorf("first hunk %+v", v.Hunks[0])
			}
		})
	}
}

func TestViewFiles(t *testing.T) {
	text := `diff --git a/old.txt b/new.txt
similarity index 80%
rename from old.txt
rename to new.txt
--- a/old.txt
+++ b/new.txt
@@ -1,2 +1,2 @@
 keep
-old
+new
diff --git a/moved.txt b/moved2.txt
similarity index 100%
rename from moved.txt
rename to moved2.txt
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 3b18e51..0000000
--- a/gone.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-a
-b
diff --git a/img.png b/img.png
new file mode 100644
index 0000000..1111111
Binary files /dev/null and b/img.png differ
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
diff --git a/ws.go b/ws.go
--- a/ws.go
+++ b/ws.go
@@ -1,2 +1,2 @@
-  x
+	x
 y
@@ -40,2 +40,3 @@
 p
+
 q
diff --git a/mixed.go b/mixed.go
--- a/mixed.go
+++ b/mixed.go
@@ -1 +1 @@
-a  
+a
@@ -9 +9 @@
-b
+c
`
	v := summarize.NewDiffView(parse(t, text), summarize.DiffOptions{})
	want := []summarize.DiffFile{
		{Path: "new.txt", OldPath: "old.txt", Status: diff.Renamed, Hunks: 1, Added: 1, Deleted: 1},
		{Path: "moved2.txt", OldPath: "moved.txt", Status: diff.Renamed},
		{Path: "gone.txt", Status: diff.Deleted, Hunks: 1, Deleted: 2},
		{Path: "img.png", Status: diff.Added, Binary: true},
		{Path: "run.sh", Status: diff.Modified, Mode: "100644 → 100755"},
		{Path: "mixed.go", Status: diff.Modified, Hunks: 1, Added: 1, Deleted: 1},
	}
	if d := cmp.Diff(want, v.Files); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
	wantSum := summarize.DiffSummary{Files: 6, Hunks: 3, Added: 2, Deleted: 4, WhitespaceOnlyHunks: 3}
	if v.Summary != wantSum {
		t.Errorf("summary %+v, want %+v", v.Summary, wantSum)
	}
	if len(v.Hunks) != 3 || v.Hunks[2].Path != "mixed.go" || v.Hunks[2].NewStart != 9 {
		t.Errorf("hunks %+v", v.Hunks)
	}
	if got := v.Title(); got != "6 files changed, 3 hunks (+2 −4); 3 whitespace-only hunks left out" {
		t.Errorf("title %q", got)
	}
}

func TestViewPaths(t *testing.T) {
	globs, err := reports.CompileGlobs([]string{"**/f1.go", "f3.*"})
	if err != nil {
		t.Fatal(err)
	}
	v := summarize.NewDiffView(parse(t, manyHunks(5, 2)), summarize.DiffOptions{Paths: globs})
	var got []string
	for _, f := range v.Files {
		got = append(got, f.Path)
	}
	if d := cmp.Diff([]string{"f1.go", "f3.go"}, got); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
	if v.Summary.Hunks != 4 || len(v.Hunks) != 4 {
		t.Errorf("summary %+v, %d hunks", v.Summary, len(v.Hunks))
	}
}

func TestViewCutsLongLines(t *testing.T) {
	long := strings.Repeat("é", 500)
	v := summarize.NewDiffView(parse(t, "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+"+long+"\n\\ No newline at end of file\n"), summarize.DiffOptions{})
	lines := v.Hunks[0].Lines
	if len(lines) != 3 || lines[2] != `\ No newline at end of file` {
		t.Fatalf("lines %q", lines)
	}
	if n := len([]rune(lines[1])); n != 200 || !strings.HasSuffix(lines[1], "…") {
		t.Errorf("long line is %d runes: %q…", n, lines[1][:20])
	}
}

// TestDiffViewManyFiles: past MaxDiffFiles file lines the view counts the
// files (in the summary and a marker) without listing them; the
// suggestions still name the files with the most hunks.
func TestDiffViewManyFiles(t *testing.T) {
	b := summarize.NewDiffViewBuilder(summarize.DiffOptions{})
	n := summarize.MaxDiffFiles + 5
	for i := 0; i < n; i++ {
		f := diff.File{OldPath: fmt.Sprintf("f%d.txt", i), NewPath: fmt.Sprintf("f%d.txt", i), Status: diff.Modified}
		hunks := 1
		if i == n-1 {
			hunks = 3 // the last file has the most
		}
		for h := 0; h < hunks; h++ {
			f.Hunks = append(f.Hunks, diff.Hunk{OldStart: 10*h + 1, OldLines: 1, NewStart: 10*h + 1, NewLines: 1,
				Lines: []diff.Line{{Kind: diff.Delete, Old: 10*h + 1, Text: "a"}, {Kind: diff.Add, New: 10*h + 1, Text: "b"}}})
		}
		b.Add(&f)
	}
	v := b.View()
	if v.Summary.Files != n || len(v.Files) != summarize.MaxDiffFiles {
		t.Errorf("%d files counted, %d listed; want %d and %d", v.Summary.Files, len(v.Files), n, summarize.MaxDiffFiles)
	}
	var markers []string
	for _, o := range v.Omitted {
		markers = append(markers, o.What)
	}
	if len(markers) != 2 || !strings.HasPrefix(markers[0], "5 files after the first 10000") {
		t.Errorf("markers %q", markers)
	}
	if len(v.Suggestions) == 0 || v.Suggestions[0] != fmt.Sprintf("path=%q has 3 hunks", fmt.Sprintf("f%d.txt", n-1)) {
		t.Errorf("suggestions %q", v.Suggestions)
	}
}

type listSpelling struct{}

func (listSpelling) Spell(filter, value string) string { return filter + "s=[" + value + "]" }

// TestDiffSuggestionsSpelled: the diff view's suggestions write the path
// filter as the door's Speller does, path="…" without one.
func TestDiffSuggestionsSpelled(t *testing.T) {
	files := parse(t, manyHunks(2, 15))
	if v := summarize.NewDiffView(files, summarize.DiffOptions{}); len(v.Suggestions) == 0 || !strings.HasPrefix(v.Suggestions[0], `path="f0.go" has 15 hunks`) {
		t.Errorf("suggestions %q", v.Suggestions)
	}
	if v := summarize.NewDiffView(files, summarize.DiffOptions{Spell: listSpelling{}}); len(v.Suggestions) == 0 || !strings.HasPrefix(v.Suggestions[0], `paths=[f0.go] has 15 hunks`) {
		t.Errorf("suggestions %q", v.Suggestions)
	}
}
