package diff_test

import (
	"errors"
	"os/exec"
	"path/filepath"
	"testing"

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
	g.Commit("c1", map[string]string{"a.txt": "1\n", "b.txt": "1\n"})
	g.Write(map[string]string{"b.txt": "2\n", "new.txt": "n\n"})
	r, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for p, want := range map[string]bool{"a.txt": true, "b.txt": false, "new.txt": false, "gone.txt": false} {
		if got := r.Unchanged(p); got != want {
			t.Errorf("Unchanged(%q) = %v, want %v", p, got, want)
		}
	}
}
