package diff_test

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/gittest"
)

// partialClone clones origin with --filter=blob:none (as actions/checkout's
// filter does): the clone has every commit and tree, and the contents of
// HEAD's files alone.
func partialClone(t *testing.T, origin *gittest.Repo) string {
	t.Helper()
	origin.Git("config", "uploadpack.allowFilter", "true")
	clone := filepath.Join(t.TempDir(), "clone")
	cmd := exec.Command("git", "clone", "-q", "--filter=blob:none", "file://"+origin.Dir, clone)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git clone --filter=blob:none: %v\n%s", err, out)
	}
	return clone
}

// packs counts the clone's pack files: a fetch adds one.
func packs(t *testing.T, dir string) int {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack"))
	if err != nil {
		t.Fatal(err)
	}
	return len(m)
}

// TestPartialClone: in a clone made with --filter=blob:none, the contents
// of older revisions are not there until git fetches them. A diff of
// revisions, of the working tree since a revision, and a file at a
// revision read the same as in the full repository, the diff's contents
// fetched in one go.
func TestPartialClone(t *testing.T) {
	origin := gittest.New(t)
	origin.Commit("one", map[string]string{"a.txt": "1\n2\n3\n", "b.txt": "x\n", "c.txt": "same\n"})
	origin.Commit("two", map[string]string{"a.txt": "1\n2\n3\n4\n", "b.txt": "y\n"})
	origin.Commit("three", map[string]string{"a.txt": "0\n1\n2\n3\n4\n"})
	clone := partialClone(t, origin)

	full, err := diff.Open(origin.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	want, err := full.Revisions(t.Context(), "HEAD~2", "HEAD")
	if err != nil {
		t.Fatal(err)
	}

	before := packs(t, clone)
	repo, err := diff.Open(clone)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	got, err := repo.Revisions(t.Context(), "HEAD~2", "HEAD")
	if err != nil {
		t.Fatalf("diff of a partial clone: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diff of a partial clone:\n%+v\nwant (the full repository's)\n%+v", got, want)
	}
	if n := packs(t, clone); n != before+1 {
		t.Errorf("%d packs after the diff, %d before: want the contents fetched in one fetch", n, before)
	}
	again, err := repo.Revisions(t.Context(), "HEAD~2", "HEAD")
	if err != nil || !reflect.DeepEqual(again, want) || packs(t, clone) != before+1 {
		t.Errorf("the same diff again: %v, %d packs: want the same files, nothing fetched", err, packs(t, clone))
	}

	// The working tree since a revision: b.txt as it was two commits
	// back is fetched.
	wantWT, err := full.WorkingTreeSince(t.Context(), "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	gotWT, err := repo.WorkingTreeSince(t.Context(), "HEAD~1")
	if err != nil || !reflect.DeepEqual(gotWT, wantWT) {
		t.Errorf("working tree since HEAD~1 of a partial clone: %+v, %v\nwant %+v", gotWT, err, wantWT)
	}

	// A file at a revision: its content fetched when it is read.
	clone2 := partialClone(t, origin)
	repo2, err := diff.Open(clone2)
	if err != nil {
		t.Fatal(err)
	}
	defer repo2.Close()
	open, err := repo2.OpenAt("HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	rc, _, err := open("a.txt")
	if err != nil {
		t.Fatalf("a.txt at HEAD~1 of a partial clone: %v", err)
	}
	b, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || string(b) != "1\n2\n3\n4\n" {
		t.Errorf("a.txt at HEAD~1: %q, %v", b, err)
	}
}

// TestPartialCloneUnfetched: when git cannot fetch what a partial clone
// lacks (its remote gone, or no git on PATH), the error says so, names
// the remote, and is ErrPartial.
func TestPartialCloneUnfetched(t *testing.T) {
	for _, tc := range []struct {
		name, want    string
		noGit, relGit bool
	}{
		{name: "remote gone", want: "git fetch origin failed: fatal: "},
		{name: "no git", want: "git, which would fetch it from origin, is not on PATH", noGit: true},
		{name: "git through a relative directory", want: "is on PATH only through a relative directory", relGit: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			origin := gittest.New(t)
			origin.Commit("one", map[string]string{"a.txt": "1\n"})
			origin.Commit("two", map[string]string{"a.txt": "2\n"})
			clone := partialClone(t, origin)
			switch {
			case tc.noGit:
				t.Setenv("PATH", t.TempDir())
			case tc.relGit:
				git, err := exec.LookPath("git")
				if err != nil {
					t.Fatal(err)
				}
				dir := filepath.Join(t.TempDir(), "bin")
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(git, filepath.Join(dir, "git")); err != nil {
					t.Fatal(err)
				}
				t.Chdir(filepath.Dir(dir))
				t.Setenv("PATH", "bin")
			default:
				if err := os.RemoveAll(origin.Dir); err != nil {
					t.Fatal(err)
				}
			}
			repo, err := diff.Open(clone)
			if err != nil {
				t.Fatal(err)
			}
			defer repo.Close()
			_, err = repo.Revisions(t.Context(), "HEAD~1", "HEAD")
			if !errors.Is(err, diff.ErrPartial) || !strings.Contains(err.Error(), "not in this partial clone") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("diff: %v\nwant ErrPartial saying %q", err, tc.want)
			}
			open, err := repo.OpenAt("HEAD~1")
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := open("a.txt"); !errors.Is(err, diff.ErrPartial) || !strings.Contains(err.Error(), "a.txt in revision HEAD~1") {
				t.Errorf("a.txt at HEAD~1: %v, want ErrPartial naming the file", err)
			}
		})
	}
}
