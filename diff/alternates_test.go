package diff_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/gittest"
)

// TestAlternatesOutsideAreNotRead: a clone made with --shared keeps its
// objects in another repository (objects/info/alternates). recap reads
// nothing outside the repository it opened, so those objects are not
// found, and the error says why and what to do; once the objects are the
// clone's own (git repack -a -d), the same diff works.
func TestAlternatesOutsideAreNotRead(t *testing.T) {
	origin := gittest.New(t)
	origin.Commit("one", map[string]string{"a.txt": "1\n"})
	origin.Commit("two", map[string]string{"a.txt": "2\n"})
	clone := filepath.Join(t.TempDir(), "clone")
	if out, err := exec.Command("git", "clone", "-q", "--shared", origin.Dir, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone --shared: %v\n%s", err, out)
	}
	alternates := filepath.Join(clone, ".git", "objects", "info", "alternates")
	if _, err := os.Stat(alternates); err != nil {
		t.Fatalf("the clone has no alternates: %v", err)
	}
	diffOf := func() error {
		repo, err := diff.Open(clone)
		if err != nil {
			return err
		}
		defer repo.Close()
		_, err = repo.Revisions(t.Context(), "HEAD~1", "HEAD")
		return err
	}
	err := diffOf()
	if !errors.Is(err, diff.ErrUnknownRevision) || !strings.Contains(err.Error(), "borrows objects from "+filepath.Join(origin.Dir, ".git", "objects")) || !strings.Contains(err.Error(), "git repack -a -d") {
		t.Fatalf("diff of a shared clone: %v, want an unknown revision that names the alternates and the repack", err)
	}
	cmd := exec.Command("git", "repack", "-q", "-a", "-d")
	cmd.Dir = clone
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git repack: %v\n%s", err, out)
	}
	if err := os.Remove(alternates); err != nil {
		t.Fatal(err)
	}
	if err := diffOf(); err != nil {
		t.Errorf("after the repack: %v", err)
	}
}
