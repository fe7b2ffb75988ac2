package diff_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/genrepo"
	"github.com/recap-dev/recap/internal/gittest"
)

// shape is what recap and git must agree on: each file's paths and status,
// binary or not, and its hunk ranges.
func shape(files []diff.File) []string {
	var out []string
	for _, f := range files {
		s := fmt.Sprintf("%s %s→%s", f.Status, f.OldPath, f.NewPath)
		if f.Binary {
			s += " binary"
		}
		if f.ModeChanged() {
			s += fmt.Sprintf(" mode %o→%o", f.OldMode, f.NewMode)
		}
		for _, h := range f.Hunks {
			a, d := h.Counts()
			s += fmt.Sprintf(" @@-%d,%d+%d,%d(+%d-%d)", h.OldStart, h.OldLines, h.NewStart, h.NewLines, a, d)
		}
		out = append(out, s)
	}
	return out
}

// gitShape parses what the git binary prints, with recap's text parser.
func gitShape(t *testing.T, g *gittest.Repo, args ...string) []string {
	t.Helper()
	files, err := diff.Parse("git diff", strings.NewReader(g.Git(append([]string{"diff", "--no-color", "--no-ext-diff"}, args...)...)))
	if err != nil {
		t.Fatal(err)
	}
	return shape(files)
}

// workingTree is what changed in the working tree of dir against HEAD,
// as recap reads it.
func workingTree(t *testing.T, dir string) []diff.File {
	t.Helper()
	repo, err := diff.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := repo.WorkingTree(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func lines(n int, f func(i int) string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(f(i))
		b.WriteByte('\n')
	}
	return b.String()
}

func TestRevisionsLikeGit(t *testing.T) {
	g := gittest.New(t)
	java := lines(60, func(i int) string { return fmt.Sprintf("    int field%d = %d;", i, i) })
	g.Commit("base", map[string]string{
		"src/A.java":      java,
		"src/Keep.java":   "class Keep {}\n",
		"src/Old.java":    lines(30, func(i int) string { return fmt.Sprintf("// old line %d", i) }),
		"src/Gone.java":   "class Gone {}\n",
		"src/crlf.txt":    "one\r\ntwo\r\nthree\r\n",
		"src/noeol.txt":   "a\nb\nc",
		"img.bin":         "\x00\x01\x02",
		"scripts/run.sh":  "echo hi\n",
		"src/Spaces.java": lines(20, func(i int) string { return fmt.Sprintf("  call(%d);", i) }),
	})
	g.Git("checkout", "-q", "-b", "feature")
	edited := strings.Replace(java, "int field5 = 5;", "int field5 = 50;", 1)
	edited = strings.Replace(edited, "int field30 = 30;\n", "int field30 = 30;\n    int added = 1;\n", 1)
	edited = strings.Replace(edited, "    int field36 = 36;\n", "", 1) // within 6 lines of the insertion: one hunk
	edited = strings.Replace(edited, "int field59 = 59;", "int field59 = 590;", 1)
	renamed := strings.Replace(lines(30, func(i int) string { return fmt.Sprintf("// old line %d", i) }), "// old line 15", "// new line 15", 1)
	g.Remove("src/Old.java", "src/Gone.java")
	g.Commit("feature", map[string]string{
		"src/A.java":      edited,
		"src/New.java":    renamed,
		"src/Added.java":  "class Added {\n}\n",
		"src/crlf.txt":    "one\r\nTWO\r\nthree\r\n",
		"src/noeol.txt":   "a\nb\nc\n",
		"img.bin":         "\x00\x01\x03",
		"src/Spaces.java": strings.Replace(lines(20, func(i int) string { return fmt.Sprintf("  call(%d);", i) }), "  call(3);", "\tcall(3);  ", 1),
	})
	if err := os.Chmod(filepath.Join(g.Dir, "scripts", "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	g.Commit("mode", nil)
	// main moves on too: base...feature must diff from the merge base.
	g.Git("checkout", "-q", "main")
	g.Commit("main moves", map[string]string{"src/Keep.java": "class Keep { int x; }\n"})

	repo, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := repo.Revisions(context.Background(), "main", "feature")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("main...feature: %q", shape(got))
	if d := cmp.Diff(gitShape(t, g, "main...feature"), shape(got)); d != "" {
		t.Errorf("recap's main...feature differs from git's (-git +recap):\n%s", d)
	}
	// The other way round, and a plain ancestor range.
	back, err := repo.Revisions(context.Background(), "feature", "main")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(gitShape(t, g, "feature...main"), shape(back)); d != "" {
		t.Errorf("feature...main (-git +recap):\n%s", d)
	}
}

// TestRandomHistoryLikeGit makes a history of random, realistic edits and
// checks every range against git.
func TestRandomHistoryLikeGit(t *testing.T) {
	g := gittest.New(t)
	rng := rand.New(rand.NewSource(3))
	files := map[string][]string{}
	for i := 0; i < 12; i++ {
		var l []string
		for j := 0; j < 40+rng.Intn(80); j++ {
			l = append(l, fmt.Sprintf("%sstatement(%d, %d);", strings.Repeat("  ", 1+rng.Intn(3)), i, j))
		}
		files[fmt.Sprintf("pkg%d/File%d.java", i%3, i)] = l
	}
	snapshot := func() map[string]string {
		out := map[string]string{}
		for p, l := range files {
			out[p] = strings.Join(l, "\n") + "\n"
		}
		return out
	}
	var commits []string
	commits = append(commits, g.Commit("c0", snapshot()))
	for c := 1; c <= 25; c++ {
		for e := 0; e < 1+rng.Intn(4); e++ {
			p := fmt.Sprintf("pkg%d/File%d.java", 0, rng.Intn(12))
			for k := range files {
				if rng.Intn(12) == 0 {
					p = k
				}
			}
			l := files[p]
			if len(l) == 0 {
				continue
			}
			at := rng.Intn(len(l))
			switch rng.Intn(5) {
			case 0: // modify
				l[at] = l[at] + " // changed"
			case 1: // insert a few lines
				ins := []string{fmt.Sprintf("  inserted(%d);", c), fmt.Sprintf("  more(%d);", c)}
				l = append(l[:at], append(ins, l[at:]...)...)
			case 2: // delete a few lines
				l = append(l[:at], l[min(at+1+rng.Intn(3), len(l)):]...)
			case 3: // re-indent
				l[at] = "\t" + strings.TrimLeft(l[at], " ")
			case 4: // a blank line
				l = append(l[:at], append([]string{""}, l[at:]...)...)
			}
			files[p] = l
		}
		commits = append(commits, g.Commit(fmt.Sprintf("c%d", c), snapshot()))
	}
	repo, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, span := range []int{1, 3, 10, 25} {
		base := commits[len(commits)-1-span]
		got, err := repo.Revisions(context.Background(), base, "HEAD")
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(gitShape(t, g, base+"...HEAD"), shape(got)); d != "" {
			t.Errorf("HEAD~%d...HEAD (-git +recap):\n%s", span, d)
		}
	}
}

func TestWorkingTreeLikeGit(t *testing.T) {
	g := gittest.New(t)
	g.Commit("base", map[string]string{
		"a.txt":       lines(30, func(i int) string { return fmt.Sprintf("line %d", i) }),
		"staged.txt":  "s1\ns2\n",
		"gone.txt":    "bye\n",
		"moved.txt":   lines(10, func(i int) string { return fmt.Sprintf("moved %d", i) }),
		"same.txt":    "same\n",
		"dir/run.sh":  "echo\n",
		"untouched.c": "int main;\n",
	})
	g.Write(map[string]string{
		"a.txt":       strings.Replace(lines(30, func(i int) string { return fmt.Sprintf("line %d", i) }), "line 12\n", "line twelve\n", 1),
		"staged.txt":  "s1\ns2 staged\n",
		"new.txt":     "untracked\n",
		"renamed.txt": lines(10, func(i int) string { return fmt.Sprintf("moved %d", i) }),
	})
	g.Git("add", "staged.txt", "renamed.txt")
	g.Git("rm", "-q", "moved.txt")
	g.Remove("gone.txt")
	if err := os.Chmod(filepath.Join(g.Dir, "dir", "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	g.Write(map[string]string{"staged.txt": "s1\ns2 staged, then edited\n"})

	got := workingTree(t, g.Dir)
	t.Logf("HEAD: %q", shape(got))
	if d := cmp.Diff(gitShape(t, g, "HEAD"), shape(got)); d != "" {
		t.Errorf("working tree against HEAD (-git +recap):\n%s", d)
	}
}

// TestWorkingTreeRenamesLikeGit: a deleted file and added ones of its
// content pair as git pairs them (the first addition in path order, one of
// the same base name preferred; a link with a link only), on every run,
// though the changed paths come from a map.
func TestWorkingTreeRenamesLikeGit(t *testing.T) {
	g := gittest.New(t)
	decided := lines(12, func(i int) string { return fmt.Sprintf("    int decided%d;", i) })
	twin := lines(5, func(i int) string { return fmt.Sprintf("twin %d", i) })
	g.Commit("base", map[string]string{
		"src/Decided.java": decided,
		"old/t1.txt":       twin,
		"old/t2.txt":       twin,
		"keep.txt":         "keep\n",
		"target":           "target\n",
	})
	if err := os.Symlink("target", filepath.Join(g.Dir, "link")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	g.Git("add", "link")
	g.Git("commit", "-q", "-m", "a link")
	g.Git("mv", "src/Decided.java", "src/Moved.java")
	g.Write(map[string]string{
		"a/Copy.java":    decided,
		"z/Decided.java": decided,
		"b/Decided.java": decided,
		"new/t0.txt":     twin,
		"new/t2.txt":     twin,
		"new/t9.txt":     twin,
		"x/link":         "target", // a file holding the link's text
	})
	g.Git("add", "a", "z", "b", "new", "x")
	g.Git("rm", "-q", "old/t1.txt", "old/t2.txt", "link")
	want := gitShape(t, g, "HEAD")
	for round := range 20 {
		if d := cmp.Diff(want, shape(workingTree(t, g.Dir))); d != "" {
			t.Fatalf("round %d: working tree against HEAD (-git +recap):\n%s", round, d)
		}
	}
}

// TestWorkingTreeSimilarRenamesLikeGit: a file renamed and edited (git
// mv, then an edit, staged or not) is a rename with the hunks of its edit,
// as git diff HEAD shows it, also when a new untracked file has its old
// name; one edited past git's similarity, or deleted beside an untracked
// copy, stays a deletion and an addition (or a deletion alone); a file
// taken out of the index, left on disk, is deleted.
func TestWorkingTreeSimilarRenamesLikeGit(t *testing.T) {
	g := gittest.New(t)
	price := lines(20, func(i int) string { return fmt.Sprintf("    long price%d = net * %d / 100;", i, 100+i) })
	other := lines(12, func(i int) string { return fmt.Sprintf("// other %d", i) })
	far := lines(10, func(i int) string { return fmt.Sprintf("far %d", i) })
	moved := lines(15, func(i int) string { return fmt.Sprintf("moved line %d", i) })
	g.Commit("base", map[string]string{
		"src/Price.java": "class Price {\n" + price + "}\n",
		"src/Other.java": other,
		"src/Far.txt":    far,
		"src/Left.txt":   far + "left\n",
		"src/Kept.txt":   "kept on disk\n",
		"src/Moved.txt":  moved,
	})
	g.Git("mv", "src/Price.java", "src/Pricing.java")
	g.Write(map[string]string{"src/Pricing.java": "class Pricing {\n" + strings.Replace(price, "price7 ", "price7b ", 1) + "}\n"})
	g.Git("add", "src/Pricing.java")
	if err := os.MkdirAll(filepath.Join(g.Dir, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	g.Git("mv", "src/Other.java", "lib/Other2.java")
	g.Write(map[string]string{"lib/Other2.java": strings.Replace(other, "// other 3\n", "// other three\n", 1)}) // not staged
	g.Git("mv", "src/Far.txt", "src/Near.txt")
	g.Write(map[string]string{"src/Near.txt": lines(10, func(i int) string { return fmt.Sprintf("near %d", i) })})
	g.Git("add", "src/Near.txt")
	g.Git("rm", "-q", "src/Left.txt")
	g.Write(map[string]string{"src/Untracked.txt": far + "left, untracked\n"})
	// Taken out of the index, its file left untracked: git shows it
	// deleted. Moved, and a new file of the old name not added: the move
	// is a rename (with its edit), the new file not git's.
	g.Git("rm", "-q", "--cached", "src/Kept.txt")
	g.Git("mv", "src/Moved.txt", "src/Moved2.txt")
	g.Write(map[string]string{"src/Moved2.txt": moved + "one more\n", "src/Moved.txt": "a new file of the old name\n"})
	want := gitShape(t, g, "HEAD")
	if !slices.ContainsFunc(want, func(s string) bool { return strings.HasPrefix(s, "renamed src/Price.java→src/Pricing.java @@") }) {
		t.Fatalf("git shows no rename with an edit: %q", want)
	}
	if d := cmp.Diff(want, shape(workingTree(t, g.Dir))); d != "" {
		t.Errorf("working tree against HEAD (-git +recap):\n%s", d)
	}
}

// TestWorkingTreeSinceLikeGit: the working tree since the merge base of a
// revision (commits on the branch, then uncommitted edits) is git diff
// --merge-base's, with renames, deletions, edits on both sides, and changes
// on the other branch left out.
func TestWorkingTreeSinceLikeGit(t *testing.T) {
	g := gittest.New(t)
	body := lines(40, func(i int) string { return fmt.Sprintf("line %d", i) })
	g.Commit("base", map[string]string{"a.txt": body, "b.txt": "b\n", "c.txt": lines(10, func(i int) string { return fmt.Sprintf("c %d", i) }), "d.txt": "d\n"})
	g.Git("checkout", "-q", "-b", "feature")
	g.Commit("on the branch", map[string]string{"a.txt": strings.Replace(body, "line 5\n", "line five\n", 1), "new.txt": "new\n"})
	g.Git("mv", "c.txt", "moved.txt")
	g.Git("rm", "-q", "d.txt")
	g.Git("commit", "-q", "-m", "move and delete")
	g.Git("checkout", "-q", "main")
	g.Commit("on main", map[string]string{"b.txt": "b on main\n", "main-only.txt": "m\n"})
	g.Git("checkout", "-q", "feature")
	g.Write(map[string]string{"a.txt": strings.Replace(strings.Replace(body, "line 5\n", "line five\n", 1), "line 30\n", "line thirty\n", 1), "b.txt": "b edited\n", "untracked.txt": "u\n"})

	repo, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, rev := range []string{"main", "HEAD~1", "HEAD"} {
		got, err := repo.WorkingTreeSince(context.Background(), rev)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(gitShape(t, g, "-M", "--merge-base", rev), shape(got)); d != "" {
			t.Errorf("working tree since %s (-git +recap):\n%s", rev, d)
		}
	}
	if _, err := repo.WorkingTreeSince(context.Background(), "no-such-branch"); err == nil {
		t.Error("an unknown revision gave no error")
	}
}

// TestGeneratedHistoryLikeGit: on a generated history of realistic edits
// (methods added after others, blocks inserted and deleted, re-indents,
// blank lines, renames: the ambiguous runs git settles with its slider
// heuristics), recap's files and hunk ranges are git diff base...HEAD's, and
// the changed-line index is git diff -w --ignore-blank-lines's added lines,
// over ranges of 1 to 300 commits: recap's line diff is git's xdiff.
func TestGeneratedHistoryLikeGit(t *testing.T) {
	g := gittest.New(t)
	if err := genrepo.Generate(g.Dir, genrepo.Options{Files: 60, Commits: 300, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	repo, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	repo.ChangedLines = true
	for _, n := range []int{1, 10, 50, 150, 300} {
		base := fmt.Sprintf("HEAD~%d", n)
		got, err := repo.Revisions(context.Background(), base, "HEAD")
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(gitShape(t, g, base+"...HEAD"), shape(got)); d != "" {
			t.Errorf("%s...HEAD (-git +recap):\n%s", base, d)
		}
		x := diff.NewIndex(got)
		changed := g.ChangedLines(base + "...HEAD")
		gotLines := map[string][]int{}
		for p := range changed {
			gotLines[p] = x.Lines(p)
		}
		if d := cmp.Diff(changed, gotLines); d != "" || x.Files() != len(changed) {
			t.Errorf("%s...HEAD: changed lines (-git +recap), %d files vs %d:\n%s", base, len(changed), x.Files(), d)
		}
	}
}
