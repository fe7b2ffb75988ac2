package diff_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

func TestSourceAtRevisions(t *testing.T) {
	g := gittest.New(t)
	first := g.Commit("first", map[string]string{
		"src/A.java":   "class A {\n  int a = 1;\n  int b = 2;\n}\n",
		"src/crlf.txt": "one\r\ntwo\r\nthree\r\n",
		"bin.dat":      "\x00\x01\x02",
	})
	g.Commit("second", map[string]string{"src/A.java": "class A {\n  int a = 10;\n  int b = 20;\n}\n"})
	g.Write(map[string]string{"src/A.java": "class A {\n  // work in progress\n}\n"})

	repo, err := diff.Open(g.Dir + "/src")
	if err != nil {
		t.Fatal(err)
	}
	context := func(src summarize.Source, path string, line int) ([]string, string) {
		fv := summarize.FindingView{Finding: reports.Finding{Path: path, Line: line}}
		summarize.AddContext(&fv, src)
		var out []string
		for _, c := range fv.Context {
			out = append(out, c.Text)
		}
		return out, fv.ContextNote
	}
	tests := []struct {
		rev, path string
		line      int
		want      []string
		note      string // a substring of the context note
	}{
		{"HEAD", "src/A.java", 2, []string{"class A {", "  int a = 10;", "  int b = 20;"}, ""},
		{"HEAD~1", "src/A.java", 2, []string{"class A {", "  int a = 1;", "  int b = 2;"}, ""},
		{first[:8], "src/A.java", 3, []string{"  int a = 1;", "  int b = 2;", "}"}, ""},
		{"main", "src/crlf.txt", 2, []string{"one", "two", "three"}, ""},
		{"HEAD", "src/Gone.java", 2, nil, "src/Gone.java is not in revision HEAD"},
		{"HEAD", "bin.dat", 1, nil, "binary"},
		{"HEAD", "../etc/passwd", 1, nil, "not inside the repository"},
	}
	for _, tc := range tests {
		open, err := repo.OpenAt(tc.rev)
		if err != nil {
			t.Fatalf("OpenAt(%s): %v", tc.rev, err)
		}
		got, note := context(&summarize.FileSource{Open: open}, tc.path, tc.line)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s:%s:%d context (-want +got):\n%s", tc.rev, tc.path, tc.line, diff)
		}
		if !strings.Contains(note, tc.note) {
			t.Errorf("%s:%s:%d note %q, want it to say %q", tc.rev, tc.path, tc.line, note, tc.note)
		}
	}
	// The working tree has its own, third version.
	got, _ := context(&summarize.Dir{Root: g.Dir}, "src/A.java", 2)
	if want := []string{"class A {", "  // work in progress", "}"}; !cmp.Equal(got, want) {
		t.Errorf("working tree context %q, want %q", got, want)
	}
}

func TestCommitErrors(t *testing.T) {
	g := gittest.New(t)
	g.Commit("one", map[string]string{"a.txt": "1\n"})
	g.Commit("two", map[string]string{"a.txt": "2\n"})
	repo, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for rev, want := range map[string]struct {
		text string
		kind error
	}{
		"nope":             {`unknown revision "nope"`, diff.ErrUnknownRevision},
		"HEAD~5":           {`unknown revision "HEAD~5"`, diff.ErrUnknownRevision},
		"main..HEAD":       {"is a range", diff.ErrBadRevision},
		"main...HEAD":      {"is a range", diff.ErrBadRevision},
		"HEAD@{1}":         {"reflog forms", diff.ErrBadRevision},
		"../../etc/passwd": {`"../../etc/passwd" is a path, not a revision`, diff.ErrBadRevision},
		"/etc/passwd":      {"is a path, not a revision", diff.ErrBadRevision},
		"":                 {"empty revision", diff.ErrBadRevision},
	} {
		if _, err := repo.Commit(rev); err == nil || !strings.Contains(err.Error(), want.text) || !errors.Is(err, want.kind) {
			t.Errorf("Commit(%q) error %v, want one that says %q and is %v", rev, err, want.text, want.kind)
		}
	}
	other := gittest.New(t)
	other.Commit("unrelated", map[string]string{"b.txt": "b\n"})
	g.Git("fetch", "-q", other.Dir, "HEAD:unrelated")
	if _, err := repo.Revisions(context.Background(), "unrelated", "HEAD"); !errors.Is(err, diff.ErrNoMergeBase) {
		t.Errorf("Revisions of unrelated histories: %v, want ErrNoMergeBase", err)
	}

	shallow := gittest.New(t)
	shallow.Git("clone", "-q", "--depth", "1", "file://"+g.Dir, "clone")
	repo, err = diff.Open(shallow.Dir + "/clone")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.Commit("HEAD"); err != nil {
		t.Errorf("HEAD of a shallow clone: %v", err)
	}
	if _, err := repo.Commit("HEAD~1"); err == nil || !strings.Contains(err.Error(), "shallow clone: fetch the full history") || !errors.Is(err, diff.ErrShallow) {
		t.Errorf("HEAD~1 of a shallow clone: error %v, want the shallow-clone advice", err)
	}

	if _, err := diff.Open(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not inside a git repository") || !errors.Is(err, diff.ErrNotRepository) {
		t.Errorf("Open of a plain directory: %v", err)
	}
}
