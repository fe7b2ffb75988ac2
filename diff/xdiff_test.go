package diff_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/gittest"
)

// TestLineDiffLikeGit: files of every shape that stresses a line diff —
// few distinct lines repeated in long runs, lines with no match on the
// other side among lines with many, thousands of scattered edits in tens
// of thousands of lines (past the cost where xdiff's heuristics cut the
// search short), blank lines and re-indents, CRLF, a last line without a
// newline — diff as git diffs them: the same hunks, and the same changed
// lines with white space ignored.
func TestLineDiffLikeGit(t *testing.T) {
	g := gittest.New(t)
	rng := rand.New(rand.NewSource(7))
	type fileShape struct {
		lines, alphabet, edits int
	}
	shapes := []fileShape{
		{20, 3, 4}, {200, 2, 30}, {300, 5, 60}, {1000, 8, 200}, {2000, 40, 400},
		{5000, 1000, 50}, {20000, 30, 3000}, {30000, 400, 6000}, {3000, 2, 1500},
	}
	base, head := map[string]string{}, map[string]string{}
	for i, s := range shapes {
		var old []string
		for j := 0; j < s.lines; j++ {
			old = append(old, line(rng, s.alphabet))
		}
		cur := append([]string(nil), old...)
		for e := 0; e < s.edits && len(cur) > 0; e++ {
			at := rng.Intn(len(cur))
			switch rng.Intn(6) {
			case 0:
				cur[at] = line(rng, s.alphabet)
			case 1:
				cur = append(cur[:at], append([]string{line(rng, s.alphabet), line(rng, s.alphabet)}, cur[at:]...)...)
			case 2:
				cur = append(cur[:at], cur[min(at+1+rng.Intn(4), len(cur)):]...)
			case 3:
				cur[at] = "\t" + strings.TrimLeft(cur[at], " ")
			case 4:
				cur = append(cur[:at], append([]string{""}, cur[at:]...)...)
			case 5: // a line seen nowhere else
				cur[at] = fmt.Sprintf("unique %d %d", i, e)
			}
		}
		name := fmt.Sprintf("f%02d.txt", i)
		base[name] = strings.Join(old, "\n") + "\n"
		head[name] = strings.Join(cur, "\n")
		if i%2 == 0 {
			head[name] += "\n"
		}
	}
	base["crlf.txt"] = "a\r\nb\r\nc\r\n"
	head["crlf.txt"] = "a\r\nB\r\nc\r\n"
	base["noeol.txt"] = "x\ny\nz"
	head["noeol.txt"] = "x\ny\nz\n"
	g.Commit("base", base)
	g.Commit("head", head)
	repo, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	repo.ChangedLines = true
	got, err := repo.Revisions(context.Background(), "HEAD~1", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	gitFiles, err := diff.Parse("git diff", strings.NewReader(g.Git("diff", "--no-color", "--no-ext-diff", "HEAD~1...HEAD")))
	if err != nil {
		t.Fatal(err)
	}
	// A file whose hunks hold more than MaxHunkLines lines is summarized,
	// from the repository as from git's text: its counts, added lines and
	// hunk ranges are git's.
	large := 0
	for i := range got {
		l, w := got[i].Large, gitFiles[i].Large
		if l == nil && w == nil {
			continue
		}
		large++
		if l == nil || w == nil {
			t.Errorf("%s: large %v, from git's text %v", got[i].Path(), l != nil, w != nil)
			continue
		}
		want := *w
		want.OldLines, want.NewLines, want.ChangedRuns = l.OldLines, l.NewLines, nil // from a repository: File.Changed
		if d := cmp.Diff(&want, l); d != "" {
			t.Errorf("%s: large file (-git +recap):\n%s", got[i].Path(), d)
		}
		got[i].Large, gitFiles[i].Large = nil, nil
	}
	if large != 1 {
		t.Errorf("%d large files, want 1 (f07.txt)", large)
	}
	if d := cmp.Diff(shape(gitFiles), shape(got)); d != "" {
		t.Errorf("hunks (-git +recap):\n%s", d)
	}
	changed := g.ChangedLines("HEAD~1...HEAD")
	x := diff.NewIndex(got)
	for p, want := range changed {
		if d := cmp.Diff(want, x.Lines(p)); d != "" {
			t.Errorf("%s: changed lines (-git +recap):\n%s", p, d)
		}
	}
}

// line is a random line of code from an alphabet of n statements, indented.
func line(rng *rand.Rand, n int) string {
	k := rng.Intn(n)
	switch {
	case k == 0:
		return ""
	case k == 1:
		return "}"
	}
	return fmt.Sprintf("%scall(%d);", strings.Repeat("  ", 1+k%3), k)
}
