package diff_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/gittest"
)

// nameStatus is a diff's files as git diff --name-status -M prints them, a
// kind change (T) as git's patch shows it: the deletion, then the
// addition.
func nameStatus(files []diff.File) []string {
	var out []string
	for _, f := range files {
		switch f.Status {
		case diff.Added:
			out = append(out, "A "+f.NewPath)
		case diff.Deleted:
			out = append(out, "D "+f.OldPath)
		case diff.Renamed:
			out = append(out, "R "+f.OldPath+" "+f.NewPath)
		default:
			out = append(out, "M "+f.NewPath)
		}
	}
	return out
}

// gitNameStatus is git diff --name-status -M's, in nameStatus's form.
func gitNameStatus(t *testing.T, g *gittest.Repo, args ...string) []string {
	t.Helper()
	out := g.Git(append([]string{"-c", "core.quotepath=false", "diff", "--no-color", "--no-ext-diff", "--name-status", "-M", "-z"}, args...)...)
	fields := strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
	var res []string
	for i := 0; i < len(fields) && fields[i] != ""; {
		st := fields[i]
		switch st[0] {
		case 'R':
			res = append(res, "R "+fields[i+1]+" "+fields[i+2])
			i += 3
		case 'T':
			res = append(res, "D "+fields[i+1], "A "+fields[i+1])
			i += 2
		default:
			res = append(res, st[:1]+" "+fields[i+1])
			i += 2
		}
	}
	return res
}

// TestTreeWalkLikeGit: the files of a diff of two commits, their order,
// statuses and renames, are git diff --name-status -M's, on repositories
// of every kind of change.
func TestTreeWalkLikeGit(t *testing.T) {
	body := lines(30, func(i int) string { return fmt.Sprintf("line %d of a file", i) })
	cases := []struct {
		name   string
		base   map[string]string
		change func(g *gittest.Repo)
	}{
		{
			name: "adds, deletes, edits in nested directories",
			base: map[string]string{"a.txt": "a\n", "d/b.txt": "b\n", "d/e/f/c.txt": "c\n", "d/e/g.txt": "g\n", "z.txt": "z\n"},
			change: func(g *gittest.Repo) {
				g.Remove("d/e/g.txt", "z.txt")
				g.Write(map[string]string{"d/e/f/c.txt": "c2\n", "d/e/h/new.txt": "new\n", "a.txt": "a2\n", "d.txt": "beside d\n", "d-e.txt": "dash\n"})
			},
		},
		{
			name: "exact renames, one of several copies, base name preferred",
			base: map[string]string{"src/A.java": body, "src/B.java": "same\n", "src/C.java": "same\n", "old/Name.java": "named\n", "x.txt": "x\n"},
			change: func(g *gittest.Repo) {
				move(t, g, "src/A.java", "lib/A.java")
				g.Remove("src/B.java", "src/C.java", "old/Name.java")
				g.Write(map[string]string{"dst/One.java": "same\n", "dst/C.java": "same\n", "new/Other.java": "named\n", "new/Name.java": "named\n"})
			},
		},
		{
			name: "a rename with an edit",
			base: map[string]string{"src/Old.java": body, "keep.txt": "k\n"},
			change: func(g *gittest.Repo) {
				g.Remove("src/Old.java")
				g.Write(map[string]string{"src/New.java": strings.Replace(body, "line 7 of", "line seven of", 1)})
			},
		},
		{
			name: "mode changes, a rename made executable",
			base: map[string]string{"run.sh": "echo run\n", "tool.sh": "echo tool\n", "plain.txt": "p\n"},
			change: func(g *gittest.Repo) {
				chmod(t, g, "run.sh", 0o755)
				move(t, g, "tool.sh", "bin/tool")
				chmod(t, g, "bin/tool", 0o755)
			},
		},
		{
			name: "a file turned into a directory",
			base: map[string]string{"x": "x file\n", "x.txt": "beside\n", "y/z": "z\n"},
			change: func(g *gittest.Repo) {
				g.Remove("x", "y/z")
				removeAll(t, g, "y")
				g.Write(map[string]string{"x/inner.txt": "inner\n", "y": "y file\n"})
			},
		},
		{
			name: "a file moved into the directory of its own name",
			base: map[string]string{"f": "moved content\n", "g/h": "h\n"},
			change: func(g *gittest.Repo) {
				g.Remove("f", "g/h")
				removeAll(t, g, "g")
				g.Write(map[string]string{"f/in": "moved content\n", "g": "h\n"})
			},
		},
		{
			name: "links: added, retargeted, a file made a link, a link made a file",
			base: map[string]string{"target.txt": "t\n", "file": "f\n", "linked": "l\n"},
			change: func(g *gittest.Repo) {
				symlink(t, g, "target.txt", "new-link")
				g.Remove("file", "linked")
				symlink(t, g, "target.txt", "file")
				g.Write(map[string]string{"linked": "now a file\n"})
			},
		},
		{
			name: "binary files and empty files",
			base: map[string]string{"img.bin": "\x00\x01\x02", "empty": "", "gone.bin": "\x00gone"},
			change: func(g *gittest.Repo) {
				g.Remove("empty", "gone.bin")
				g.Write(map[string]string{"img.bin": "\x00\x01\x03", "moved-empty": "", "new.bin": "\x00new"})
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := gittest.New(t)
			g.Commit("base", c.base)
			c.change(g)
			g.Commit("head", nil)
			checkLikeGit(t, g, "HEAD~1", "HEAD", true)
			checkLikeGit(t, g, "HEAD", "HEAD~1", true)
		})
	}
}

// checkLikeGit compares the diff of from and to with git's: its files and,
// with hunks, their modes and hunks.
func checkLikeGit(t *testing.T, g *gittest.Repo, from, to string, hunks bool) {
	t.Helper()
	repo, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	got, err := repo.Between(context.Background(), from, to)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(gitNameStatus(t, g, from, to), nameStatus(got)); d != "" {
		t.Errorf("%s %s (-git +recap):\n%s", from, to, d)
	}
	if !hunks {
		return
	}
	if d := cmp.Diff(gitShape(t, g, "-M", from, to), shape(got)); d != "" {
		t.Errorf("%s %s, hunks and modes (-git +recap):\n%s", from, to, d)
	}
}

func move(t *testing.T, g *gittest.Repo, from, to string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(g.Dir, to)), 0o755); err != nil {
		t.Fatal(err)
	}
	g.Git("mv", from, to)
}

func removeAll(t *testing.T, g *gittest.Repo, p string) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(g.Dir, p)); err != nil {
		t.Fatal(err)
	}
}

func chmod(t *testing.T, g *gittest.Repo, p string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(filepath.Join(g.Dir, p), mode); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, g *gittest.Repo, target, p string) {
	t.Helper()
	full := filepath.Join(g.Dir, p)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, full); err != nil {
		t.Fatal(err)
	}
}

// TestTreeWalkSubmoduleLikeGit: a submodule (a gitlink entry) added, moved
// to another commit, renamed and removed is git's.
func TestTreeWalkSubmoduleLikeGit(t *testing.T) {
	sub := gittest.New(t)
	sub.Commit("one", map[string]string{"s.txt": "1\n"})
	sub.Commit("two", map[string]string{"s.txt": "2\n"})
	g := gittest.New(t)
	g.Commit("base", map[string]string{"a.txt": "a\n"})
	g.Git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.Dir, "lib")
	g.Git("commit", "-q", "-m", "submodule")
	g.Git("-C", "lib", "checkout", "-q", "HEAD~1")
	g.Git("add", "lib")
	g.Git("commit", "-q", "-m", "submodule at its first commit")
	move(t, g, "lib", "vendor/lib")
	g.Git("commit", "-q", "-m", "submodule moved")
	g.Git("rm", "-q", "vendor/lib")
	g.Git("commit", "-q", "-m", "submodule removed")
	for _, r := range [][2]string{{"HEAD~4", "HEAD~3"}, {"HEAD~3", "HEAD~2"}, {"HEAD~2", "HEAD~1"}, {"HEAD~1", "HEAD"}, {"HEAD~4", "HEAD~1"}} {
		checkLikeGit(t, g, r[0], r[1], true)
	}
}

// TestTreeWalkRandomLikeGit makes histories of random changes of every
// kind (files added, deleted, rewritten, moved, copied, made executable,
// turned into directories, directories removed whole) and checks every
// pair of commits against git: the order, and the exact renames among
// copies of one content.
func TestTreeWalkRandomLikeGit(t *testing.T) {
	for seed := int64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			g := gittest.New(t)
			files := map[string]string{}
			dirs := []string{"", "a/", "a/b/", "c/", "c/d/e/", "f.d/"}
			names := []string{"x", "x.txt", "y.java", "z-1", "Z", "a", "c"}
			newPath := func() string { return dirs[rng.Intn(len(dirs))] + names[rng.Intn(len(names))] }
			// files of distinct lines, an edit a new content: a file is
			// like another only when it was moved or copied (renames of
			// similar content are scored as go-git scores them, not as
			// git does: TestTreeWalkLikeGit has one that both find)
			made := 0
			content := func() string {
				made++
				return lines(10+rng.Intn(10), func(i int) string { return fmt.Sprintf("line %d of file %d", i, made) })
			}
			write := func(p, c string) {
				full := filepath.Join(g.Dir, filepath.FromSlash(p))
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					return // a file is in the way
				}
				if fi, err := os.Lstat(full); err == nil && fi.IsDir() {
					return
				}
				os.Remove(full)
				if err := os.WriteFile(full, []byte(c), 0o644); err == nil {
					files[p] = c
				}
			}
			for i := 0; i < 20; i++ {
				write(newPath(), content())
			}
			g.Commit("base", nil)
			commits := 1
			for round := 0; round < 4; round++ {
				for op := 0; op < 8; op++ {
					var some string
					if len(files) > 0 {
						paths := slices.Sorted(maps.Keys(files))
						some = paths[rng.Intn(len(paths))]
					}
					switch rng.Intn(7) {
					case 0:
						write(newPath(), content())
					case 1:
						if some != "" {
							os.Remove(filepath.Join(g.Dir, filepath.FromSlash(some)))
							delete(files, some)
						}
					case 2:
						if some != "" {
							write(some, content())
						}
					case 3: // moved, or copied
						if some != "" {
							c := files[some]
							if rng.Intn(2) == 0 {
								os.Remove(filepath.Join(g.Dir, filepath.FromSlash(some)))
								delete(files, some)
							}
							write(newPath(), c)
						}
					case 4:
						if some != "" {
							os.Chmod(filepath.Join(g.Dir, filepath.FromSlash(some)), 0o755)
						}
					case 5: // a file turned into a directory
						if some != "" {
							c := files[some]
							os.Remove(filepath.Join(g.Dir, filepath.FromSlash(some)))
							delete(files, some)
							write(some+"/inner", c)
						}
					case 6: // a directory removed whole
						d := dirs[1+rng.Intn(len(dirs)-1)]
						os.RemoveAll(filepath.Join(g.Dir, filepath.FromSlash(d)))
						for p := range files {
							if strings.HasPrefix(p, d) {
								delete(files, p)
							}
						}
					}
				}
				g.Commit(fmt.Sprint("round ", round), nil)
				commits++
			}
			for i := 0; i < commits; i++ {
				for j := 0; j < commits; j++ {
					if i != j {
						checkLikeGit(t, g, fmt.Sprintf("HEAD~%d", i), fmt.Sprintf("HEAD~%d", j), false)
					}
				}
			}
		})
	}
}

// TestEachRevisionStops: an error of the caller's function stops the diff
// and comes back as it is, and the files come in the order Revisions
// gives them.
func TestEachRevisionStops(t *testing.T) {
	g := gittest.New(t)
	base := map[string]string{}
	for i := 0; i < 300; i++ {
		base[fmt.Sprintf("d%d/f%03d.txt", i%7, i)] = fmt.Sprintf("file %d\n", i)
	}
	g.Commit("base", base)
	edits := map[string]string{}
	for p, c := range base {
		edits[p] = c + "edited\n"
	}
	g.Commit("edit", edits)
	repo, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	all, err := repo.Revisions(context.Background(), "HEAD~1", "HEAD")
	if err != nil || len(all) != 300 {
		t.Fatalf("%v, %d files", err, len(all))
	}
	stop := errors.New("enough")
	var seen []string
	err = repo.EachRevision(context.Background(), "HEAD~1", "HEAD", func(f *diff.File) error {
		seen = append(seen, f.Path())
		if len(seen) == 100 {
			return stop
		}
		return nil
	})
	if err != stop {
		t.Errorf("error %v, want the function's own", err)
	}
	if len(seen) != 100 {
		t.Errorf("%d files handed on after the error, want 100", len(seen))
	}
	for i, p := range seen {
		if p != all[i].Path() {
			t.Fatalf("file %d is %s, want %s", i, p, all[i].Path())
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := repo.EachRevision(ctx, "HEAD~1", "HEAD", func(*diff.File) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("a canceled diff: %v", err)
	}
}
