package diff_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/gittest"
)

// TestOpenReadsTheOpenedDirectory: a Repo, and each Reopen of it, read the
// directories Open opened: with the repository renamed away and a link to
// another repository put in its place, the working tree, base...head and
// a file at a revision are the original's, as git showed them before; the
// reopened repositories are read at once from several goroutines.
func TestOpenReadsTheOpenedDirectory(t *testing.T) {
	orig, other := gittest.New(t), gittest.New(t)
	for _, g := range []*gittest.Repo{orig, other} {
		g.Commit("base", map[string]string{"a.txt": "one\n", "b.txt": "two\n"})
		g.Git("checkout", "-q", "-b", "topic")
	}
	orig.Commit("topic", map[string]string{"a.txt": "one, on topic\n"})
	orig.Write(map[string]string{"a.txt": "one, in the working tree\n"})
	other.Commit("topic", map[string]string{"b.txt": "OTHER\n"})
	other.Write(map[string]string{"b.txt": "OTHER, in the working tree\n"})
	wantWT, wantRev := gitShape(t, orig, "main"), gitShape(t, orig, "main...topic")

	r, err := diff.Open(orig.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := os.Rename(orig.Dir, orig.Dir+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other.Dir, orig.Dir); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rr, err := r.Reopen()
			if err != nil {
				t.Error(err)
				return
			}
			wt, err := rr.WorkingTreeSince(ctx, "main")
			if err != nil {
				t.Error(err)
			} else if d := cmp.Diff(wantWT, shape(wt)); d != "" {
				t.Errorf("the working tree since main after the swap (-the original +got):\n%s", d)
			}
			rev, err := rr.Revisions(ctx, "main", "topic")
			if err != nil {
				t.Error(err)
			} else if d := cmp.Diff(wantRev, shape(rev)); d != "" {
				t.Errorf("main...topic after the swap (-the original +got):\n%s", d)
			}
		}()
	}
	wg.Wait()
	open, err := r.OpenAt("topic")
	if err != nil {
		t.Fatal(err)
	}
	rc, _, err := open("a.txt")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(rc)
	rc.Close()
	if string(b) != "one, on topic\n" {
		t.Errorf("a.txt at topic after the swap: %q", b)
	}
	if _, err := os.Stat(filepath.Join(orig.Dir+".moved", ".git", "index.lock")); err == nil {
		t.Error("the repository was written to")
	}
}
