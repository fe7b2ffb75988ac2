package summarize

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/reports"
)

func TestAddContext(t *testing.T) {
	root := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("A.java", "one\ntwo\nthree\nfour\n")
	write("crlf.java", "one\r\ntwo\r\nthree\r\n")
	write("long.java", strings.Repeat("é", 250)+"\n")
	write("bin.class", "\xca\xfe\xba\xbe\x00\x00")
	src := &Dir{Root: root}
	tests := map[string]struct {
		f        reports.Finding
		want     []ContextLine
		wantNote string
	}{
		"middle":            {reports.Finding{Path: "A.java", Line: 2}, []ContextLine{{1, "one"}, {2, "two"}, {3, "three"}}, ""},
		"first line":        {reports.Finding{Path: "A.java", Line: 1}, []ContextLine{{1, "one"}, {2, "two"}}, ""},
		"last line":         {reports.Finding{Path: "A.java", Line: 4}, []ContextLine{{3, "three"}, {4, "four"}}, ""},
		"crlf":              {reports.Finding{Path: "crlf.java", Line: 2}, []ContextLine{{1, "one"}, {2, "two"}, {3, "three"}}, ""},
		"long line cut":     {reports.Finding{Path: "long.java", Line: 1}, []ContextLine{{1, strings.Repeat("é", 199) + "…"}}, ""},
		"missing file":      {reports.Finding{Path: "gone.java", Line: 3}, nil, "no context: no such file or directory"},
		"binary":            {reports.Finding{Path: "bin.class", Line: 1}, nil, "no context: binary file"},
		"outside the root":  {reports.Finding{Path: "../etc/passwd", Line: 1}, nil, "no context: ../etc/passwd is not inside the repository"},
		"absolute":          {reports.Finding{Path: "/etc/passwd", Line: 1}, nil, "no context: /etc/passwd is not inside the repository"},
		"no line":           {reports.Finding{Path: "A.java"}, nil, "the finding has no line"},
		"line past the end": {reports.Finding{Path: "A.java", Line: 9}, nil, "no context: A.java has 4 lines"},
		"snippet fallback": {reports.Finding{Path: "gone.java", Line: 7, Snippet: "x := 1\r\n"}, []ContextLine{{7, "x := 1"}},
			"from the report's snippet: source not readable (no such file or directory)"},
		"context region's snippet": {reports.Finding{Path: "gone.java", Line: 146, SnippetLine: 143, Snippet: "a\nb\nc\nd\ne\nf\ng\n"},
			[]ContextLine{{145, "c"}, {146, "d"}, {147, "e"}}, "from the report's snippet: source not readable (no such file or directory)"},
		"context region's snippet ends at the line": {reports.Finding{Path: "gone.java", Line: 3, SnippetLine: 1, Snippet: "a\nb\nc"},
			[]ContextLine{{2, "b"}, {3, "c"}}, "from the report's snippet: source not readable (no such file or directory)"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			fv := FindingView{Finding: tc.f}
			AddContext(&fv, src)
			if diff := cmp.Diff(tc.want, fv.Context); diff != "" {
				t.Errorf("context mismatch (-want +got):\n%s", diff)
			}
			if fv.ContextNote != tc.wantNote {
				t.Errorf("note = %q, want %q", fv.ContextNote, tc.wantNote)
			}
		})
	}
}

// TestContextBounds: a finding in a huge file (2 GiB, sparse), a file of
// one long line, or many large files cost bounded memory: the lines in the
// first MaxSourceBytes are shown, and the note says why others are not.
func TestContextBounds(t *testing.T) {
	root := t.TempDir()
	var head strings.Builder
	for i := 1; i <= 10000; i++ {
		fmt.Fprintf(&head, "line %d\n", i)
	}
	huge := filepath.Join(root, "Huge.java")
	if err := os.WriteFile(huge, []byte(head.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 2<<30); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "min.js"), []byte(strings.Repeat("x", 10<<20)+"\nsecond\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := &Dir{Root: root}
	tests := map[string]struct {
		f        reports.Finding
		want     []ContextLine
		wantNote string
	}{
		"huge, early line":  {reports.Finding{Path: "Huge.java", Line: 5}, []ContextLine{{4, "line 4"}, {5, "line 5"}, {6, "line 6"}}, ""},
		"huge, late line":   {reports.Finding{Path: "Huge.java", Line: 9999999}, nil, "no context: the file is 2.1 GB; lines past the first 4 MiB are not read"},
		"long line":         {reports.Finding{Path: "min.js", Line: 1}, []ContextLine{{1, strings.Repeat("x", MaxLineChars-1) + "…"}}, ""},
		"after a long line": {reports.Finding{Path: "min.js", Line: 2}, nil, "no context: the file is 10.5 MB; lines past the first 4 MiB are not read"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			fv := FindingView{Finding: tc.f}
			peak := reportstest.PeakHeap(func() { AddContext(&fv, src) })
			if peak > 24<<20 {
				t.Errorf("heap peaked %d MiB above the start", peak>>20)
			}
			if diff := cmp.Diff(tc.want, fv.Context); diff != "" {
				t.Errorf("context mismatch (-want +got):\n%s", diff)
			}
			if fv.ContextNote != tc.wantNote {
				t.Errorf("note = %q, want %q", fv.ContextNote, tc.wantNote)
			}
		})
	}
	// The cache is bounded in bytes: 3 MiB files, 16 MiB at most.
	for i := range 12 {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%d.go", i)), []byte(strings.Repeat("abc\n", 3<<18)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fs := &FileSource{Open: func(p string) (io.ReadCloser, int64, error) { return OpenSized(filepath.Join(root, p)) }}
	for i := range 12 {
		if _, err := fs.Lines(fmt.Sprintf("f%d.go", i), 1, 2); err != nil {
			t.Fatal(err)
		}
		if fs.bytes > fileCacheBytes || len(fs.cache) != len(fs.order) || len(fs.order) > fileCacheFiles {
			t.Fatalf("cache of %d files, %d bytes", len(fs.order), fs.bytes)
		}
	}
	if len(fs.order) != 5 {
		t.Errorf("%d files kept, want 5 (16 MiB of 3 MiB files)", len(fs.order))
	}
	// A Read source is bounded the same way.
	rs := &FileSource{Read: func(string) ([]byte, error) { return []byte(strings.Repeat("a\n", 3<<20)), nil }}
	if _, err := rs.Lines("x", 3<<20-1, 3<<20); err == nil || err.Error() != "the file is 6.3 MB; lines past the first 4 MiB are not read" {
		t.Errorf("error %v", err)
	}
}

// TestDirSymlinks: context is not read through a symbolic link inside the
// repository that leads outside it (to a file or through a directory), as
// a pull request can add one; links that stay inside are followed.
func TestDirSymlinks(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("root:x:0:0\ntoken=abc\nmore\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "src", "A.java"), []byte("a\nb\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"src/Evil.java": secret,                               // a file outside
		"out":           outside,                              // a directory outside
		"src/Same.java": "A.java",                             // inside: fine
		"src/Abs.java":  filepath.Join(repo, "src", "A.java"), // absolute: never followed
	} {
		if err := os.Symlink(target, filepath.Join(repo, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	d := &Dir{Root: repo}
	for p, note := range map[string]string{
		"src/Evil.java":  "no context: src/Evil.java is an absolute symbolic link, which is not followed (a link must be relative and stay inside the repository)",
		"src/Abs.java":   "no context: src/Abs.java is an absolute symbolic link, which is not followed (a link must be relative and stay inside the repository)",
		"out/secret.txt": "no context: out/secret.txt is under a symbolic link that leads outside the repository",
	} {
		fv := FindingView{Finding: reports.Finding{Path: p, Line: 2}}
		AddContext(&fv, d)
		if len(fv.Context) != 0 || fv.ContextNote != note {
			t.Errorf("%s: context %v, note %q", p, fv.Context, fv.ContextNote)
		}
	}
	rel := filepath.Join(repo, "src", "Up.java") // relative, out
	if err := os.Symlink(filepath.Join("..", "..", filepath.Base(outside), "secret.txt"), rel); err != nil {
		t.Fatal(err)
	}
	fv := FindingView{Finding: reports.Finding{Path: "src/Up.java", Line: 2}}
	AddContext(&fv, d)
	if fv.ContextNote != "no context: src/Up.java is a symbolic link that leads outside the repository" {
		t.Errorf("a relative link out: %v %q", fv.Context, fv.ContextNote)
	}
	fv = FindingView{Finding: reports.Finding{Path: "src/Same.java", Line: 2}}
	AddContext(&fv, d)
	if len(fv.Context) != 3 || fv.Context[1].Text != "b" {
		t.Errorf("a link inside the repository: %+v (%s)", fv.Context, fv.ContextNote)
	}
}

// OpenSized opens a regular file (a directory, a FIFO or a device is
// refused) with its size, as FileSource.Open gives it.
func OpenSized(name string) (io.ReadCloser, int64, error) {
	f, st, err := content.Open(name)
	if err != nil {
		return nil, 0, content.PathErr(err)
	}
	return f, st.Size(), nil
}
