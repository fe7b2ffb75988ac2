package diff_test

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/reportstest"
)

// TestCorpusDiffs: every diff in the corpus parses to the manifest's file,
// hunk and binary counts.
func TestCorpusDiffs(t *testing.T) {
	dir, files := reportstest.Corpus(t)
	n := 0
	for _, cf := range files {
		if cf.Dir() != "diffs" {
			continue
		}
		n++
		t.Run(filepath.Base(cf.Path), func(t *testing.T) {
			r, err := os.Open(filepath.Join(dir, cf.Path))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got, err := diff.Parse(cf.Path, r)
			if err != nil {
				t.Fatal(err)
			}
			hunks, binary := 0, 0
			for _, f := range got {
				hunks += len(f.Hunks)
				if f.Binary {
					binary++
				}
				if f.Path() == "" || strings.HasPrefix(f.Path(), "b/") {
					t.Errorf("file path %q not placed", f.Path())
				}
				for _, h := range f.Hunks {
					a, d := h.Counts()
					if h.NewLines != len(h.Lines)-d || h.OldLines != len(h.Lines)-a {
						t.Errorf("%s: hunk %+v: line counts do not add up", f.Path(), h)
					}
				}
			}
			want := cf.Expected
			if len(got) != want["files"] || hunks != want["hunks"] || binary != want["binary"] {
				t.Errorf("files %d, hunks %d, binary %d; the manifest says %v", len(got), hunks, binary, want)
			}
		})
	}
	if n < 18 {
		t.Errorf("%d corpus diffs, want 18", n)
	}
}

func TestParseDetails(t *testing.T) {
	dir := reportstest.SharedDir(t, "corpus/diffs")
	parse := func(name string) []diff.File {
		t.Helper()
		r, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		files, err := diff.Parse(name, r)
		if err != nil {
			t.Fatal(err)
		}
		return files
	}
	summary := func(files []diff.File) []string {
		var out []string
		for _, f := range files {
			out = append(out, string(f.Status)+" "+f.OldPath+" → "+f.NewPath)
		}
		return out
	}
	tests := []struct {
		file string
		want []string
	}{
		{"go-diff-complicated-filenames.diff", []string{
			"added  → new empty file with spaces",
			"added  → new file with text",
			"copied existing file with spaces → new file with spaces",
			"copied existing file with spaces → new, complicated\nfilenøme",
			"copied existing file with spaces → new \"complicated\" filename",
			"copied existing \"complicated\" filename → new, simpler filename",
		}},
		{"python-unidiff-git-new-modified-deleted.diff", []string{"added  → added_file", "modified modified_file → modified_file", "deleted removed_file → "}},
		{"reviewdog-gofmt-whitespace-only.diff", []string{"modified gofmt.go → gofmt.go"}},
		{"go-diff-rename-and-mode-change.diff", []string{"renamed textfile.txt → textfile2.txt"}},
	}
	for _, tc := range tests {
		if d := cmp.Diff(tc.want, summary(parse(tc.file))); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, d)
		}
	}
	// Lines keep CR (the whitespace check folds it) and number both sides.
	crlf := parse("python-patch-git-crlf.diff")
	if l := crlf[0].Hunks[0].Lines[0]; !strings.HasSuffix(l.Text, "\r") || strings.HasSuffix(l.Unified(), "\r") {
		t.Errorf("CRLF line %q / %q", l.Text, l.Unified())
	}
	eof := parse("reviewdog-remove-eof-newline.diff")
	noEOL := 0
	for _, l := range eof[0].Hunks[0].Lines {
		if l.NoEOL {
			noEOL++
		}
	}
	if noEOL != 1 {
		t.Errorf("%d lines without a newline at the end, want 1", noEOL)
	}
	mode := parse("go-diff-filemode-change.diff")
	if !mode[0].ModeChanged() {
		t.Errorf("mode change not seen: %o → %o", mode[0].OldMode, mode[0].NewMode)
	}
}

func TestParsePlainPrefixes(t *testing.T) {
	text := "--- a/src/x.go\t2020-01-01\n+++ b/src/x.go\t2020-01-02\n@@ -1 +1 @@\n-a\n+b\n" +
		"--- /dev/null\n+++ b/src/new.go\n@@ -0,0 +1 @@\n+n\n" +
		"--- old/y.go\n+++ new/y.go\n@@ -1 +1 @@\n-c\n+d\n"
	files, err := diff.Parse("plain.diff", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.OldPath+"|"+f.NewPath+"|"+string(f.Status))
	}
	want := []string{"src/x.go|src/x.go|modified", "|src/new.go|added", "new/y.go|new/y.go|modified"} // a plain diff names a file by its +++ line
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestParseErrors(t *testing.T) {
	for name, text := range map[string]string{
		"miscounted hunk": "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n-a\n+b\n",
		"bad hunk header": "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,x +1 @@\n-a\n+b\n",
		"not a diff":      "hello\nworld\n",
	} {
		_, err := diff.Parse("in.diff", strings.NewReader(text))
		if err == nil || !strings.HasPrefix(err.Error(), "in.diff: line ") {
			t.Errorf("%s: error %v, want one naming the input and its line", name, err)
		}
	}
	if files, err := diff.Parse("empty.diff", strings.NewReader("")); err != nil || len(files) != 0 {
		t.Errorf("empty diff: %v, %v", files, err)
	}
}

func FuzzParse(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "testdata", "changes.diff")); err == nil {
		f.Add(b)
	}
	if dir, ok := reportstest.Shared(f, "corpus/diffs"); ok {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && len(b) < 64<<10 {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n\\ No newline at end of file\n"))
	// Seeds at the reader's bounds: binary data before a header, and after one.
	f.Add([]byte("Subject: x\n\x7fELF\x00\x01\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"))
	f.Add([]byte("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\x00\n+b\x00\n"))
	// Seeds of what the streamed reader must tell apart: a plain header
	// after a git file, lines that look like headers inside hunks and in
	// the text between files, binary patches, new and deleted files.
	f.Add([]byte("diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n--- a\n+++ b\n diff --git a/y b/y\n--- a/z\n+++ b/z\n@@ -1 +1 @@\n-q\n+r\n"))
	f.Add([]byte("From 1 Mon\nSubject: x\n\ndiff --git a/n b/n\nnew file mode 100644\nindex 0000000..1\n--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+n\n-- \n2.39\n\nFrom 2 Mon\n\ndiff --git a/d b/d\ndeleted file mode 100644\n--- a/d\n+++ /dev/null\n@@ -1 +0,0 @@\n-d\n"))
	f.Add([]byte("diff --git a/b.bin b/b.bin\nindex 1..2 100644\nGIT binary patch\nliteral 5\nMcmZQzWMXE00009\n\nliteral 0\nHcmV?d00001\n\ndiff --git a/c b/c\nBinary files a/c and b/c differ\n"))
	f.Add([]byte("--- /dev/null\n+++ b/new\n@@ -0,0 +1,2 @@\n+a\n+b\n--- a/old\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n"))
	f.Add([]byte("diff --git a/m b/m\nold mode 100644\nnew mode 100755\ndiff --git \"a/q\\tx\" \"b/q\\tx\"\n--- \"a/q\\tx\"\n+++ \"b/q\\tx\"\n@@ -1 +1 @@\n-a\n+b\n\\ No newline at end of file\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		// A parse that takes seconds is a bug too: keep the input and stop.
		done := make(chan struct{})
		go func() {
			select {
			case <-done:
			case <-time.After(3 * time.Second):
				p := filepath.Join(os.TempDir(), fmt.Sprintf("recap-slow-%x.diff", sha256.Sum256(b)))
				os.WriteFile(p, b, 0o644)
				panic("diff.Parse took over 3 s; the input is in " + p)
			}
		}()
		defer close(done)
		files, err := diff.Parse("fuzz.diff", strings.NewReader(string(b)))
		// The diff is read a file at a time, go-gitdiff reading each
		// header: it must read what go-gitdiff reads whole, and refuse
		// what it refuses.
		want, werr := diff.ParseWhole("fuzz.diff", strings.NewReader(string(b)))
		if (err == nil) != (werr == nil) {
			t.Fatalf("error %v, read whole: %v", err, werr)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.diff: ") {
				t.Errorf("error does not name the input: %v", err)
			}
			return
		}
		large := false
		for _, f := range files {
			large = large || f.Large != nil
		}
		got := slices.Clone(files)
		diff.SamePrefixes(got)
		diff.SamePrefixes(want)
		if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" && !large {
			t.Fatalf("files differ from those read whole (-whole +streamed):\n%s", d)
		}
		x := diff.NewIndex(files)
		for _, f := range files {
			for i := range f.Hunks {
				f.Hunks[i].WhitespaceOnly()
			}
			x.Touches(f.Path(), 1, 1<<20)
		}
	})
}

// TestParseLargeFile: a file whose hunks pass MaxHunkLines, in one hunk or
// over many, keeps its counts and changed lines, not its hunks; the files
// around it are read whole; the index of either is the same.
func TestParseLargeFile(t *testing.T) {
	var one, many strings.Builder
	one.WriteString("diff --git a/Big.java b/Big.java\nnew file mode 100644\n--- /dev/null\n+++ b/Big.java\n@@ -0,0 +1,25000 @@\n")
	for i := 1; i <= 25000; i++ {
		fmt.Fprintf(&one, "+int f%d;\n", i)
	}
	many.WriteString("diff --git a/Big.java b/Big.java\n--- a/Big.java\n+++ b/Big.java\n")
	for h := 0; h < 3000; h++ { // 3,000 hunks of 7 lines
		l := 10*h + 1
		fmt.Fprintf(&many, "@@ -%d,6 +%d,6 @@\n a\n b\n c\n-old%d\n+new%d\n d\n   \n", l, l, h, h)
	}
	tail := "diff --git a/A.java b/A.java\n--- a/A.java\n+++ b/A.java\n@@ -1 +1 @@\n-a\n+b\n"
	for name, text := range map[string]string{"one hunk": one.String(), "many hunks": many.String()} {
		t.Run(name, func(t *testing.T) {
			files := parse(t, text+tail)
			if len(files) != 2 || files[0].Large == nil || len(files[0].Hunks) != 0 || files[1].Large != nil || len(files[1].Hunks) != 1 {
				t.Fatalf("files %q", shape(files))
			}
			l := files[0].Large
			added, deleted := files[0].Counts()
			switch name {
			case "one hunk":
				if added != 25000 || deleted != 0 || len(l.AddedRuns) != 1 || l.AddedRuns[0] != (diff.Run{From: 1, To: 25000}) {
					t.Errorf("+%d -%d, added runs %v", added, deleted, l.AddedRuns)
				}
			case "many hunks":
				if added != 3000 || deleted != 3000 || len(l.AddedRuns) != 3000 || len(l.HunkRuns) != 3000 || len(l.ChangedRuns) != 3000 {
					t.Errorf("+%d -%d, %d added runs, %d hunk runs, %d changed runs", added, deleted, len(l.AddedRuns), len(l.HunkRuns), len(l.ChangedRuns))
				}
			}
			whole, err := diff.ParseWhole("t.diff", strings.NewReader(text+tail))
			if err != nil {
				t.Fatal(err)
			}
			x, y := diff.NewIndex(files), diff.NewIndex(whole)
			if d := cmp.Diff(y.Lines("Big.java"), x.Lines("Big.java")); d != "" {
				t.Errorf("changed lines (-read whole +large):\n%s", d)
			}
		})
	}
}

// TestGitPathsKeepTheirA: git's header has dropped a/ and b/ already, so
// a file under a directory named a or b keeps its whole path (a deleted
// a/a was once read as "a").
func TestGitPathsKeepTheirA(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string // each file's Path
	}{
		{"git, deleted a/a", "diff --git a/a/a b/a/a\ndeleted file mode 100644\nindex 587be6b..0000000\n--- a/a/a\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n", []string{"a/a"}},
		{"git, modified b/x", "diff --git a/b/x b/b/x\nindex 1..2 100644\n--- a/b/x\n+++ b/b/x\n@@ -1 +1 @@\n-a\n+b\n", []string{"b/x"}},
		{"plain, a/x", "--- a/a/x\t2020-01-01\n+++ b/a/x\t2020-01-02\n@@ -1 +1 @@\n-a\n+b\n", []string{"a/x"}},
		{"plain after git", "diff --git a/a/y b/a/y\nindex 1..2 100644\n--- a/a/y\n+++ b/a/y\n@@ -1 +1 @@\n-a\n+b\n--- a/z\n+++ b/z\n@@ -1 +1 @@\n-q\n+r\n", []string{"a/y", "z"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := diff.Parse("t.diff", strings.NewReader(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range files {
				got = append(got, f.Path())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("paths %q, want %q", got, tt.want)
			}
		})
	}
}
