package diff_test

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/gittest"
)

// TestIntroduced: the commit that gave a file its content in HEAD, by first
// parents; not known past a shallow clone's history or the bound.
func TestIntroduced(t *testing.T) {
	g := gittest.New(t)
	g.Commit("c1", map[string]string{"a.txt": "1\n", "b.txt": "1\n", "dir/c.txt": "1\n"})
	g.Commit("c2", map[string]string{"b.txt": "2\n"})
	g.Commit("c3", map[string]string{"a.txt": "2\n"})
	c4 := g.Commit("c4", map[string]string{"b.txt": "3\n"})
	c5 := g.Commit("c5", map[string]string{"a.txt": "1\n", "b.txt": "3\n"}) // a.txt back to c1's content: c5 brought it
	g.Git("mv", "dir/c.txt", "dir/d.txt")
	c6 := g.Commit("c6", nil)
	g.Commit("c7", map[string]string{"a.txt": "2\n"})
	g.Git("reset", "-q", "--hard", "HEAD~1")
	r, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, c := range []struct {
		path, want string
		max        int
		err        error
	}{
		{"b.txt", c4, 100, nil},
		{"a.txt", c5, 100, nil},
		{"dir/d.txt", c6, 100, nil},
		{"missing.txt", "", 100, diff.ErrNotCommitted},
		{"dir", "", 100, diff.ErrNotCommitted},
		{"b.txt", "", 1, diff.ErrShallow},
	} {
		got, err := r.Introduced(c.path, c.max)
		switch {
		case c.err != nil:
			if !errors.Is(err, c.err) {
				t.Errorf("Introduced(%q, %d) = %q, %v; want %v", c.path, c.max, got, err, c.err)
			}
		case err != nil:
			t.Errorf("Introduced(%q) = %v", c.path, err)
		case got != c.want:
			t.Errorf("Introduced(%q) = %s, want %s", c.path, got, c.want)
		}
	}

	// A shallow clone knows HEAD only.
	shallow := filepath.Join(t.TempDir(), "shallow")
	if out, err := exec.Command("git", "clone", "-q", "--depth", "1", "file://"+g.Dir, shallow).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	s, err := diff.Open(shallow)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, err := s.Introduced("b.txt", 100); !errors.Is(err, diff.ErrShallow) {
		t.Errorf("Introduced in a shallow clone = %q, %v; want ErrShallow", got, err)
	}
}

// TestUnchanged: a committed file as HEAD has it, edited, and not
// committed.
func TestUnchanged(t *testing.T) {
	g := gittest.New(t)
	g.Commit("c1", map[string]string{"a.txt": "1\n", "b.txt": "1\n", "crlf.txt": "x\ny\r\nz\n", "cr.txt": "a\rb\n", "lf.txt": "p\nq\n"})
	// lf.txt checked out with CRLF endings (core.autocrlf) is HEAD's;
	// crlf.txt, whose blob has a CRLF of its own, is not so; cr.txt's
	// lone CR is not a line ending.
	g.Write(map[string]string{"b.txt": "2\n", "new.txt": "n\n", "crlf.txt": "x\r\ny\r\nz\r\n", "lf.txt": "p\r\nq\r\n"})
	r, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for p, want := range map[string]bool{"a.txt": true, "b.txt": false, "new.txt": false, "gone.txt": false, "crlf.txt": false, "cr.txt": true, "lf.txt": true} {
		if got := r.Unchanged(p); got != want {
			t.Errorf("Unchanged(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestFiles: the files of a commit's tree, as git ls-tree -r names them,
// whatever the working tree has since.
func TestFiles(t *testing.T) {
	g := gittest.New(t)
	g.Commit("c1", map[string]string{"a.txt": "1\n", "src/b/c.java": "c\n", "src/d.java": "d\n"})
	g.Git("rm", "-q", "src/d.java")
	g.Commit("c2", map[string]string{"e.txt": "e\n"})
	g.Write(map[string]string{"untracked.txt": "u\n"})
	r, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := r.Files("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, p := range strings.Fields(g.Git("ls-tree", "-r", "--name-only", "HEAD")) {
		want[p] = true
	}
	if !maps.Equal(got, want) || len(got) != 3 {
		t.Errorf("Files(HEAD) = %v, want %v", got, want)
	}
	if _, err := r.Files("no-such-rev"); err == nil {
		t.Error("Files of no revision: no error")
	}
}

// TestCommitAt: the commit HEAD was at, at a time, by the commits' times.
func TestCommitAt(t *testing.T) {
	g := gittest.New(t)
	at := func(day int) string { return fmt.Sprintf("2026-01-%02dT12:00:00Z", day) }
	commit := func(msg string, day int) string {
		g.Write(map[string]string{"a.txt": msg + "\n"})
		g.Git("add", "-A")
		cmd := exec.Command("git", "-C", g.Dir, "commit", "-qm", msg)
		cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE="+at(day), "GIT_AUTHOR_DATE="+at(day))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git commit: %v\n%s", err, out)
		}
		return g.Git("rev-parse", "HEAD")
	}
	c1 := commit("c1", 1)
	c2 := commit("c2", 5)
	c3 := commit("c3", 9)
	r, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	day := func(d int) time.Time { return time.Date(2026, 1, d, 12, 0, 0, 0, time.UTC) }
	for _, c := range []struct {
		t    time.Time
		want string
	}{{day(10), c3}, {day(9), c3}, {day(8), c2}, {day(5), c2}, {day(2), c1}} {
		if got, err := r.CommitAt(c.t, 100); err != nil || got != strings.TrimSpace(c.want) {
			t.Errorf("CommitAt(%s) = %q, %v; want %s", c.t, got, err, c.want)
		}
	}
	if got, err := r.CommitAt(day(1).Add(-time.Hour), 100); err == nil {
		t.Errorf("CommitAt before the first commit = %q", got)
	}
	if _, err := r.CommitAt(day(2), 1); !errors.Is(err, diff.ErrShallow) {
		t.Errorf("CommitAt past the bound: %v", err)
	}
}

// TestSince: the commits of HEAD's first-parent line from the one HEAD
// was at, at a time (or from the first, made after it), oldest first,
// within the bounds; not shallow here, shallow in a --depth clone.
func TestSince(t *testing.T) {
	g := gittest.New(t)
	at := func(day int) string { return fmt.Sprintf("2026-01-%02dT12:00:00Z", day) }
	var c []string
	for i, day := range []int{1, 5, 9, 12} {
		g.Write(map[string]string{"a.txt": fmt.Sprint(i) + "\n"})
		g.Git("add", "-A")
		cmd := exec.Command("git", "-C", g.Dir, "commit", "-qm", fmt.Sprint(i))
		cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE="+at(day), "GIT_AUTHOR_DATE="+at(day))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git commit: %v\n%s", err, out)
		}
		c = append(c, strings.TrimSpace(g.Git("rev-parse", "HEAD")))
	}
	r, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	day := func(d int) time.Time { return time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		t         time.Time
		max, back int
		want      []string
	}{
		{day(6), 16, 100, c[1:]},
		{day(5), 16, 100, c},      // c1 is the last made before the day began
		{day(1), 16, 100, c},      // none before: from the first
		{day(13), 16, 100, c[3:]}, // HEAD's
		{day(2), 2, 100, c[:2]},   // those nearest the time
		{day(12).Add(13 * time.Hour), 16, 1, c[3:]},
	} {
		got, err := r.Since(tc.t, tc.max, tc.back)
		if err != nil || strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("Since(%s, %d, %d) = %v, %v; want %v", tc.t, tc.max, tc.back, got, err, tc.want)
		}
	}
	if _, err := r.Since(day(2), 16, 2); !errors.Is(err, diff.ErrUnknownRevision) {
		t.Errorf("Since past the bound: %v", err)
	}
	if r.Shallow() {
		t.Error("a full clone is shallow")
	}
	clone := filepath.Join(t.TempDir(), "clone")
	if out, err := exec.Command("git", "clone", "-q", "--depth", "2", "file://"+g.Dir, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	sr, err := diff.Open(clone)
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	if !sr.Shallow() {
		t.Error("a --depth clone is not shallow")
	}
	if _, err := sr.Since(day(2), 16, 100); !errors.Is(err, diff.ErrShallow) {
		t.Errorf("Since past a shallow clone's history: %v", err)
	}
}

// TestHeadAt: the commit HEAD was at, by the reflog's times (a move to an
// older commit dated by the move), else by the commits'.
func TestHeadAt(t *testing.T) {
	g := gittest.New(t)
	c1 := strings.TrimSpace(g.Commit("c1", map[string]string{"a.txt": "1\n"}))
	c2 := strings.TrimSpace(g.Commit("c2", map[string]string{"a.txt": "2\n"}))
	c3 := strings.TrimSpace(g.Commit("c3", map[string]string{"a.txt": "3\n"}))
	zero := strings.Repeat("0", 40)
	reflog := fmt.Sprintf("%s %s A <a@example.com> 1000 +0000\tcommit (initial): c1\n%s %s A <a@example.com> 2000 +0100\tpull: fast-forward\n%s %s A <a@example.com> 3000 -0500\treset: moving to HEAD~1\n", zero, c1, c1, c3, c3, c2)
	g.Write(map[string]string{".git/logs/HEAD": reflog})
	g.Git("checkout", "-q", c2) // HEAD at c2, as the reflog's last line says
	g.Write(map[string]string{".git/logs/HEAD": reflog})
	r, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, c := range []struct {
		at   int64
		want string
	}{{1500, c1}, {2000, c3}, {2500, c3}, {3500, c2}} {
		if got, err := r.HeadAt(time.Unix(c.at, 0), 100); err != nil || got != c.want {
			t.Errorf("HeadAt(%d) = %q, %v; want %s", c.at, got, err, c.want)
		}
	}
	// Before the reflog's first move, from nothing: by the commits' times
	// (gittest's are all of 2026-01-01).
	if got, err := r.HeadAt(time.Unix(500, 0), 100); err == nil {
		t.Errorf("HeadAt before every commit = %q", got)
	}
	if got, err := r.HeadAt(time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), 100); err != nil || got != c2 {
		t.Errorf("HeadAt after the reflog = %q, %v; want %s (its last move)", got, err, c2)
	}
}

// TestChangedAfter: of the commits after one, those that changed a file
// (at its first path, else at its second: renamed), however many leave it
// alone; the first max of them and whether there are more; an error for a
// commit not on HEAD's line.
func TestChangedAfter(t *testing.T) {
	g := gittest.New(t)
	c1 := g.Commit("c1", map[string]string{"a.txt": "1\n", "b.txt": "1\n"})
	g.Git("commit", "--allow-empty", "-q", "-m", "empty")
	c3 := g.Commit("c3", map[string]string{"a.txt": "2\n"})
	c4 := g.Commit("c4", map[string]string{"b.txt": "2\n"})
	g.Git("mv", "a.txt", "z.txt")
	c5 := g.Commit("c5", nil) // renamed, the same content: another path
	c6 := g.Commit("c6", map[string]string{"z.txt": "3\n"})
	g.Git("rm", "-q", "z.txt")
	c7 := g.Commit("c7", nil) // at neither path
	c8 := g.Commit("c8", map[string]string{"z.txt": "3\n"})
	r, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, c := range []struct {
		from  string
		paths []string
		max   int
		want  []string
		more  bool
	}{
		{c1, []string{"a.txt", "z.txt"}, 16, []string{c3, c5, c6, c7, c8}, false},
		{c1, []string{"a.txt", "z.txt"}, 2, []string{c3, c5}, true},
		{c1, []string{"a.txt"}, 16, []string{c3, c5}, false},
		{c1[:7], []string{"b.txt"}, 16, []string{c4}, false},
		{c6, []string{"b.txt"}, 16, nil, false},
		{c8, []string{"a.txt", "z.txt"}, 16, nil, false},
	} {
		got, more, err := r.ChangedAfter(c.from, c.paths, c.max, 100)
		if err != nil || more != c.more || !slices.Equal(got, c.want) {
			t.Errorf("ChangedAfter(%.7s, %q, %d) = %.7s, %v, %v; want %.7s, %v", c.from, c.paths, c.max, got, more, err, c.want, c.more)
		}
	}
	// A commit of another line, or past the commits looked at.
	if _, _, err := r.ChangedAfter(strings.Repeat("0", 40), []string{"a.txt"}, 16, 100); !errors.Is(err, diff.ErrUnknownRevision) {
		t.Errorf("unknown commit: %v", err)
	}
	if _, _, err := r.ChangedAfter(c1, []string{"a.txt"}, 16, 3); !errors.Is(err, diff.ErrUnknownRevision) {
		t.Errorf("past the bound: %v", err)
	}
}
