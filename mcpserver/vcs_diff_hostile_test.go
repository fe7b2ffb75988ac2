package mcpserver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/mcpserver"
)

// TestDiffReadsAsGit: vcs.diff reads the working tree as git does (a
// tracked directory replaced by a link to one elsewhere shows its files
// deleted, and nothing of the link's target), and summarizes a file too
// large to show with its counts.
func TestDiffReadsAsGit(t *testing.T) {
	g := gittest.New(t)
	var big strings.Builder
	for i := 0; i < 30000; i++ {
		fmt.Fprintf(&big, "line %d\n", i)
	}
	g.Commit("base", map[string]string{"d/passwd": "tracked\n", "big.txt": big.String()})
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "passwd"), []byte("root:SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(g.Dir, "d")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(g.Dir, "d")); err != nil {
		t.Fatal(err)
	}
	g.Write(map[string]string{"big.txt": strings.ReplaceAll(big.String(), "line", "row")})
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	var d struct {
		Files []struct {
			Path, Status, Note string
			Large              bool
			Added, Deleted     int
		}
	}
	r := call(t, cs, "vcs.diff", nil)
	r.decode(t, &d)
	if strings.Contains(r.text+string(r.raw), "SECRET") {
		t.Error("the link's target is in the answer")
	}
	want := map[string]string{"d/passwd": "deleted", "big.txt": "modified"}
	if len(d.Files) != 2 {
		t.Fatalf("files %+v", d.Files)
	}
	for _, f := range d.Files {
		if want[f.Path] != f.Status {
			t.Errorf("%s: %s, want %s", f.Path, f.Status, want[f.Path])
		}
		if f.Path == "big.txt" && (!f.Large || f.Added != 30000 || f.Deleted != 30000 || f.Note != "large file: 60000 lines changed") {
			t.Errorf("big.txt: %+v", f)
		}
	}
}

// TestDiffRootSwapped: with the root's directory renamed away and a link
// to a sibling repository put in its place while the server runs, vcs.diff
// (the working tree, and base...head) and getReports' changedSince go on
// reading the repository the server opened at start, never the sibling's
// (in whose working tree Main.java did not change):
// at the top level, below it (the top swapped), and in a linked worktree.
func TestDiffRootSwapped(t *testing.T) {
	cases := map[string]struct {
		// make gives the repository and the directory served; swap is
		// the directory renamed away and replaced.
		make func(t *testing.T, orig, sibling *gittest.Repo) (served, swap string)
	}{
		"the top level": {make: func(t *testing.T, orig, _ *gittest.Repo) (string, string) { return orig.Dir, orig.Dir }},
		"a directory below the top, the top swapped": {make: func(t *testing.T, orig, _ *gittest.Repo) (string, string) {
			return filepath.Join(orig.Dir, "app"), orig.Dir
		}},
		"a linked worktree": {make: func(t *testing.T, orig, _ *gittest.Repo) (string, string) {
			wt := filepath.Join(t.TempDir(), "wt")
			orig.Git("worktree", "add", "-q", "-b", "wt", wt, "feature")
			if err := os.WriteFile(filepath.Join(wt, "app", "Main.java"), []byte("class Main { int worktree; }\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return wt, wt
		}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			orig, sibling := gittest.New(t), gittest.New(t)
			for _, g := range []*gittest.Repo{orig, sibling} {
				g.Commit("base", map[string]string{"app/Main.java": "class Main {}\n", "app/Other.java": "class Other {}\n"})
			}
			orig.Git("checkout", "-q", "-b", "feature")
			orig.Commit("feature", map[string]string{"app/Main.java": "class Main { int feature; }\n"})
			orig.Git("checkout", "-q", "main")
			orig.Write(map[string]string{"app/Main.java": "class Main { int original; }\n"})
			sibling.Git("checkout", "-q", "-b", "feature")
			sibling.Commit("feature", map[string]string{"app/Other.java": "class Other { String SIBLING; }\n"})
			sibling.Git("checkout", "-q", "main")
			sibling.Write(map[string]string{"app/Other.java": "class Other { String SIBLING; }\n"})

			served, swap := c.make(t, orig, sibling)
			// a report of a finding on Main.java, which changed in the
			// original's working tree and not in the sibling's
			uri := "app/Main.java"
			if filepath.Base(served) == "app" {
				uri = "Main.java"
			}
			report := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","version":"7.0.0"}},"results":[{"ruleId":"R","level":"warning","message":{"text":"m"},` +
				`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"` + uri + `"},"region":{"startLine":1}}}]}]}]}`
			if err := os.WriteFile(filepath.Join(served, "pmd.sarif"), []byte(report), 0o644); err != nil {
				t.Fatal(err)
			}
			cs, _ := connect(t, mcpserver.Options{Root: served})
			before := call(t, cs, "vcs.diff", nil)
			if before.isErr || !strings.Contains(string(before.raw), "Main.java") {
				t.Fatalf("before the swap: %.400s", before.text)
			}
			if err := os.Rename(swap, swap+".moved"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(sibling.Dir, swap); err != nil {
				t.Fatal(err)
			}
			for _, args := range []map[string]any{nil, {"base": "main", "head": "feature"}} {
				r := call(t, cs, "vcs.diff", args)
				got := r.text + string(r.raw)
				switch {
				case strings.Contains(got, "SIBLING") || strings.Contains(got, "Other.java"):
					t.Errorf("vcs.diff %v after the swap diffs the sibling: %.600s", args, got)
				case r.isErr:
					t.Errorf("vcs.diff %v after the swap: %.400s", args, r.text)
				case !strings.Contains(got, "Main.java"):
					t.Errorf("vcs.diff %v after the swap: the original's change is not there: %.600s", args, got)
				}
			}
			var v view
			call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"pmd.sarif"}, "changedSince": "main", "summaryOnly": true}).decode(t, &v)
			if v.Summary.Total != 1 {
				t.Errorf("getReports changedSince main after the swap: %d findings on changed lines, want the 1 on the original's changed Main.java", v.Summary.Total)
			}
		})
	}
}
