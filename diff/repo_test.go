package diff_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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
		"nope":        {`unknown revision "nope"`, diff.ErrUnknownRevision},
		"HEAD~5":      {`unknown revision "HEAD~5"`, diff.ErrUnknownRevision},
		"main..HEAD":  {"is a range", diff.ErrBadRevision},
		"main...HEAD": {"is a range", diff.ErrBadRevision},
		"HEAD@{1}":    {"reflog forms", diff.ErrBadRevision},
		"":            {"empty revision", diff.ErrBadRevision},
		// What git refuses as a commit, go-git takes for the commit.
		"HEAD:a.txt":       {"names a file (REV:PATH), not a commit", diff.ErrBadRevision},
		":a.txt":           {"names a file (REV:PATH), not a commit", diff.ErrBadRevision},
		"HEAD~1^{blob}":    {"peels to a blob, not a commit", diff.ErrBadRevision},
		"HEAD^{tree}":      {"peels to a tree, not a commit", diff.ErrBadRevision},
		":/two":            {"by its message", diff.ErrBadRevision},
		"../../etc/passwd": {`unknown revision "../../etc/passwd": that is a path`, diff.ErrUnknownRevision},
		"./a.txt":          {"that is a path", diff.ErrUnknownRevision},
	} {
		if _, err := repo.Commit(rev); err == nil || !strings.Contains(err.Error(), want.text) || !errors.Is(err, want.kind) {
			t.Errorf("Commit(%q) error %v, want one that says %q and is %v", rev, err, want.text, want.kind)
		}
	}
	// The forms of a commit git takes, go-git takes too.
	for _, rev := range []string{"HEAD^{commit}", "HEAD^{}", "HEAD~1^{/one}", "main", "@"} {
		if _, err := repo.Commit(rev); err != nil {
			t.Errorf("Commit(%q): %v", rev, err)
		}
		if out := g.Git("rev-parse", "--verify", rev+"^{commit}"); out == "" {
			t.Errorf("git refuses %q", rev)
		}
	}
	// A blob's or a tree's hash is not a commit.
	blob := strings.TrimSpace(g.Git("rev-parse", "HEAD:a.txt"))
	if _, err := repo.Commit(blob); err == nil || !strings.Contains(err.Error(), "names a blob, not a commit") || !errors.Is(err, diff.ErrBadRevision) {
		t.Errorf("Commit(a blob's hash): %v", err)
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

// TestSourceOfALink: at a revision, a committed symbolic link has no lines
// (its target is not read, nor is the path it names shown as its first
// line), and a path through a committed link to a directory is not in the
// revision.
func TestSourceOfALink(t *testing.T) {
	g := gittest.New(t)
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g.Commit("files", map[string]string{"real/A.java": "class A {}\n"})
	if err := os.Symlink(secret, filepath.Join(g.Dir, "Evil.java")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(secret), filepath.Join(g.Dir, "d")); err != nil {
		t.Fatal(err)
	}
	g.Commit("links", nil)
	repo, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	open, err := repo.OpenAt("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"Evil.java": "Evil.java is a symbolic link in revision HEAD",
		"d/secret":  "d/secret is not in revision HEAD",
		"d":         "d is a symbolic link in revision HEAD",
		"real":      "real is a directory in revision HEAD",
	} {
		rd, _, err := open(path)
		if err == nil {
			b, _ := io.ReadAll(rd)
			rd.Close()
			t.Errorf("%s: read %q, want an error", path, b)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
	fv := summarize.FindingView{Finding: reports.Finding{Path: "Evil.java", Line: 1}}
	summarize.AddContext(&fv, &summarize.FileSource{Open: open})
	if len(fv.Context) != 0 || strings.Contains(fv.ContextNote, secret) || !strings.Contains(fv.ContextNote, "symbolic link") {
		t.Errorf("context %v, note %q: want none, and a note that names no target", fv.Context, fv.ContextNote)
	}
}

// TestWorkingTreeLinksLikeGit: the working tree is read as git reads it. A
// tracked directory replaced by a link to a directory elsewhere makes its
// files deleted (git does not follow the link, and neither is the target
// read); a tracked file replaced by a link is a link whose content is its
// target's path; a FIFO in a file's place is no file.
func TestWorkingTreeLinksLikeGit(t *testing.T) {
	g := gittest.New(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "passwd"), []byte("root:x:0:0:SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g.Commit("base", map[string]string{"d/passwd": "tracked one\ntracked two\n", "d/other": "o\n", "f.txt": "f\n", "p.txt": "p\n", "keep.txt": "k\n"})
	if err := os.RemoveAll(filepath.Join(g.Dir, "d")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(g.Dir, "d")); err != nil {
		t.Fatal(err)
	}
	g.Remove("f.txt", "p.txt")
	if err := os.Symlink(filepath.Join(outside, "passwd"), filepath.Join(g.Dir, "f.txt")); err != nil {
		t.Fatal(err)
	}
	repo, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := repo.WorkingTree(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := gitShape(t, g, "HEAD")
	if d := cmp.Diff(want, shape(got)); d != "" {
		t.Errorf("working tree (-git +recap):\n%s", d)
	}
	for _, f := range got {
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if strings.Contains(l.Text, "SECRET") {
					t.Errorf("%s: a line of the link's target: %q", f.Path(), l.Text)
				}
			}
		}
	}
	// A FIFO is no file (git refuses to diff it: "unsupported file type");
	// it is never opened, which would block.
	fifo := filepath.Join(g.Dir, "p.txt")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = repo.WorkingTree(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, shape(got)); d != "" {
		t.Errorf("with a FIFO for p.txt (-before +after):\n%s", d)
	}
	os.Remove(fifo)
	// Committed, the same changes are the same between revisions: the
	// file become a link is a deletion and an addition.
	g.Git("add", "-A")
	g.Git("commit", "-q", "-m", "links")
	between, err := repo.Revisions(context.Background(), "HEAD~1", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(gitShape(t, g, "HEAD~1...HEAD"), shape(between)); d != "" {
		t.Errorf("HEAD~1...HEAD (-git +recap):\n%s", d)
	}
}

// TestSubmodulesLikeGit: a submodule checked out at another commit than
// the one recorded, in the working tree and between revisions, is the
// change git shows ("Subproject commit …"), and one not checked out is no
// change.
func TestSubmodulesLikeGit(t *testing.T) {
	sub := gittest.New(t)
	first := sub.Commit("one", map[string]string{"s.txt": "1\n"})
	second := sub.Commit("two", map[string]string{"s.txt": "2\n"})
	g := gittest.New(t)
	g.Commit("base", map[string]string{"a.txt": "a\n"})
	g.Git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.Dir, "lib")
	g.Git("-C", "lib", "checkout", "-q", first)
	g.Git("add", "lib")
	g.Git("commit", "-q", "-m", "submodule at one")
	g.Git("-C", "lib", "checkout", "-q", second)
	repo, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := repo.WorkingTree(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := gitShape(t, g, "HEAD")
	if len(want) != 1 {
		t.Fatalf("git shows %q", want)
	}
	if d := cmp.Diff(want, shape(got)); d != "" {
		t.Errorf("working tree (-git +recap):\n%s", d)
	}
	if len(got) == 1 && len(got[0].Hunks) == 1 {
		var lines []string
		for _, l := range got[0].Hunks[0].Lines {
			lines = append(lines, l.Unified())
		}
		if w := []string{"-Subproject commit " + first, "+Subproject commit " + second}; !cmp.Equal(lines, w) {
			t.Errorf("lines %q, want %q", lines, w)
		}
	}
	g.Git("add", "lib")
	g.Git("commit", "-q", "-m", "submodule at two")
	got, err = repo.Revisions(context.Background(), "HEAD~1", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(gitShape(t, g, "HEAD~1...HEAD"), shape(got)); d != "" {
		t.Errorf("HEAD~1...HEAD (-git +recap):\n%s", d)
	}
	// A submodule not checked out (its directory empty) is no change.
	if err := os.RemoveAll(filepath.Join(g.Dir, "lib")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(g.Dir, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err = repo.WorkingTree(context.Background()); err != nil || len(got) != 0 {
		t.Errorf("a submodule not checked out: %q, %v; want no change (git shows %q)", shape(got), err, gitShape(t, g, "HEAD"))
	}
}

// TestWorkingTreeLargeFile: a working-tree file past MaxDiffBytes is read
// as a stream and summarized with git's counts; the same file touched but
// unchanged is no change.
func TestWorkingTreeLargeFile(t *testing.T) {
	g := gittest.New(t)
	var before, after strings.Builder
	for i := 0; i < 500000; i++ {
		fmt.Fprintf(&before, "line %d of the file\n", i)
		if i%1000 == 0 {
			fmt.Fprintf(&after, "changed %d\n", i)
		} else {
			fmt.Fprintf(&after, "line %d of the file\n", i)
		}
	}
	if before.Len() <= diff.MaxDiffBytes {
		t.Fatalf("%d bytes: not past MaxDiffBytes", before.Len())
	}
	g.Commit("base", map[string]string{"big.txt": before.String()})
	g.Write(map[string]string{"big.txt": after.String()})
	repo, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	repo.ChangedLines = true
	got, err := repo.WorkingTree(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	numstat := strings.Fields(g.Git("diff", "--numstat", "HEAD"))
	if len(got) != 1 || got[0].Large == nil || len(numstat) < 2 {
		t.Fatalf("files %q, git %q", shape(got), numstat)
	}
	added, deleted := got[0].Counts()
	if fmt.Sprint(added) != numstat[0] || fmt.Sprint(deleted) != numstat[1] {
		t.Errorf("+%d −%d, git +%s −%s", added, deleted, numstat[0], numstat[1])
	}
	changed := g.ChangedLines("HEAD")["big.txt"]
	if d := cmp.Diff(changed, got[0].Changed); d != "" {
		t.Errorf("changed lines (-git +recap):\n%s", d)
	}
	g.Write(map[string]string{"big.txt": before.String()}) // the same again, a new mtime
	if got, err = repo.WorkingTree(context.Background()); err != nil || len(got) != 0 {
		t.Errorf("an unchanged file: %q, %v", shape(got), err)
	}
}
