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
