package diff_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/genrepo"
	"github.com/recap-dev/recap/internal/gittest"
)

// TestPackReaderLikeGit: every object of a repository's packs, read by the
// pack reader of the revision diffs, is git cat-file's (type, size and
// content), in a pack of git fast-import's deltas, in packs repacked with
// deltas up to 4,095 deep (140 here), with deltas on bases named by hash (REF_DELTA), and
// with an index whose offsets past 4 KiB are in its 64-bit table; an object
// larger than MaxDiffBytes and a loose object are left to go-git. The
// revision diffs of each are git diff's.
func TestPackReaderLikeGit(t *testing.T) {
	cases := []struct {
		name     string
		repack   func(g *gittest.Repo)
		minChain int // the longest chain of deltas at least
	}{
		{"fast-import's deltas", func(*gittest.Repo) {}, 40},
		{"deltas 4,095 deep at most", func(g *gittest.Repo) {
			g.Git("repack", "-adfq", "--depth=4095", "--window=50")
		}, 100},
		{"deltas on bases named by hash", func(g *gittest.Repo) {
			g.Git("-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq")
		}, 10},
		{"offsets in the 64-bit table", func(g *gittest.Repo) {
			g.Git("repack", "-adfq")
			dir := filepath.Join(g.Dir, ".git", "objects", "pack")
			packs, _ := filepath.Glob(filepath.Join(dir, "pack-*.pack"))
			for _, p := range packs {
				idx := strings.TrimSuffix(p, ".pack") + ".idx"
				g.Git("index-pack", "--index-version=2,4096", "-o", idx+".new", p)
				if err := os.Rename(idx+".new", idx); err != nil {
					t.Fatal(err)
				}
			}
		}, 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := gittest.New(t)
			if err := genrepo.Generate(g.Dir, genrepo.Options{Files: 40, Commits: 200, Seed: 4}); err != nil {
				t.Fatal(err)
			}
			// a blob too large to read whole, packed with the rest
			big := strings.Repeat("0123456789abcde\n", diff.MaxDiffBytes/16+1)
			bigHash := g.Commit("a large file", map[string]string{"large.txt": big})
			g.Git("repack", "-adq")
			c.repack(g)
			g.Commit("a loose object", map[string]string{"loose.txt": "loose\n"})
			bigBlob := plumbing.NewHash(strings.TrimSpace(g.Git("rev-parse", bigHash+":large.txt")))
			loose := looseObjects(t, g.Dir)

			repo, err := diff.Open(g.Dir)
			if err != nil {
				t.Fatal(err)
			}
			defer repo.Close()
			read, done := diff.PackReader(repo)
			defer done()
			n, deltas, chain := 0, 0, 0
			eachObject(t, g.Dir, func(h plumbing.Hash, typ plumbing.ObjectType, content []byte) {
				gotType, got, size, err := read(h)
				switch {
				case h == bigBlob || loose[h]:
					if !errors.Is(err, diff.ErrNotPacked) {
						t.Errorf("%s (%d bytes): %v, want it left to go-git", h, len(content), err)
					}
					return
				case err != nil:
					t.Fatalf("%s: %v", h, err)
				}
				n++
				if gotType != typ || size != int64(len(content)) || !bytes.Equal(got, content) {
					t.Errorf("%s: %s of %d bytes (header %d), want %s of %d bytes", h, gotType, len(got), size, typ, len(content))
				}
			})
			for _, line := range strings.Split(g.Git("verify-pack", "-v", packIndex(t, g.Dir)), "\n") {
				if f := strings.Fields(line); len(f) == 7 { // an object stored as a delta
					deltas++
					d, _ := strconv.Atoi(f[5])
					chain = max(chain, d)
				}
			}
			if n < 2000 || deltas < n/3 || chain < c.minChain {
				t.Fatalf("%d objects read, %d of them deltas, chains of %d at most: the pack is not what the case needs", n, deltas, chain)
			}
			for _, base := range []string{"HEAD~1", "HEAD~50", "HEAD~200"} {
				got, err := repo.Revisions(context.Background(), base, "HEAD")
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(gitShape(t, g, base+"...HEAD"), shape(got)); d != "" {
					t.Errorf("%s...HEAD (-git +recap):\n%s", base, d)
				}
			}
		})
	}
}

// eachObject gives fn every object of the repository at dir, as git
// cat-file --batch-all-objects --batch reads it.
func eachObject(t *testing.T, dir string, fn func(plumbing.Hash, plumbing.ObjectType, []byte)) {
	t.Helper()
	cmd := exec.Command("git", "cat-file", "--batch-all-objects", "--batch")
	cmd.Dir = dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	rd := bufio.NewReader(out)
	for {
		head, err := rd.ReadString('\n')
		if err == io.EOF {
			break
		}
		f := strings.Fields(head)
		if err != nil || len(f) != 3 {
			t.Fatalf("git cat-file: %q: %v", head, err)
		}
		typ, err := plumbing.ParseObjectType(f[1])
		if err != nil {
			t.Fatal(err)
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			t.Fatal(err)
		}
		content := make([]byte, size+1)
		if _, err := io.ReadFull(rd, content); err != nil {
			t.Fatal(err)
		}
		fn(plumbing.NewHash(f[0]), typ, content[:size])
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
}

// looseObjects are the objects of the repository at dir that are in no
// pack.
func looseObjects(t *testing.T, dir string) map[plumbing.Hash]bool {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "[0-9a-f][0-9a-f]", "*"))
	loose := map[plumbing.Hash]bool{}
	for _, f := range files {
		loose[plumbing.NewHash(filepath.Base(filepath.Dir(f))+filepath.Base(f))] = true
	}
	if len(loose) < 3 {
		t.Fatalf("%d loose objects, want the last commit's", len(loose))
	}
	return loose
}

// packIndex is the index of the repository's one pack.
func packIndex(t *testing.T, dir string) string {
	t.Helper()
	idx, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "pack-*.idx"))
	if len(idx) != 1 {
		t.Fatalf("%d pack indexes, want 1", len(idx))
	}
	return idx[0]
}
