package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recap-dev/recap/internal/hostile"
	"github.com/recap-dev/recap/mcpserver"
)

// TestSymlinkRace: a source file swapped between a regular file and a link
// to a file outside the root while analysis.getReports and
// analysis.getFinding read its code never shows the outside file, in 300
// calls of each (the same race leaked it in 42 and 54 of 300 calls when
// the path was checked, then opened).
func TestSymlinkRace(t *testing.T) {
	if testing.Short() {
		t.Skip("600 calls during a race: not in -short")
	}
	top := t.TempDir()
	root := filepath.Join(top, "root")
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	report := `<checkstyle version="8.36"><file name="src/Flip.java">` +
		`<error line="2" severity="error" message="m" source="com.puppycrawl.tools.checkstyle.checks.coding.MagicNumberCheck"/></file></checkstyle>`
	if err := os.WriteFile(filepath.Join(root, "checkstyle-result.xml"), []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, mcpserver.Options{Root: root})
	var page struct {
		Findings []struct{ ID string }
	}
	call(t, cs, "analysis.getReports", nil).decode(t, &page)
	if len(page.Findings) != 1 {
		t.Fatalf("%d findings", len(page.Findings))
	}
	id := page.Findings[0].ID

	fl, err := hostile.Flip(filepath.Join(root, "src", "Flip.java"), "one\ntwo\nthree\nfour\n", filepath.Join(top, "passwd"))
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Stop()
	leaks := map[string]int{}
	shown := map[string]int{}
	// 300 calls, and more until one has caught the file inside (a loaded
	// machine may swap rarely during the first 300).
	calls := 0
	for until := time.Now().Add(20 * time.Second); calls < 300 || shown["analysis.getFinding"] == 0 && time.Now().Before(until); calls++ {
		for tool, args := range map[string]map[string]any{
			"analysis.getReports": {},
			"analysis.getFinding": {"id": id},
		} {
			r := call(t, cs, tool, args)
			if r.isErr {
				t.Fatalf("%s: %s", tool, r.text)
			}
			if strings.Contains(r.text, "SECRET") {
				leaks[tool]++
			}
			if strings.Contains(r.text, "two") {
				shown[tool]++
			}
		}
	}
	swaps, err := fl.Stop()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d calls of each during %d swaps: code shown %v, leaks %v", calls, swaps, shown, leaks)
	for tool, n := range leaks {
		t.Errorf("%s: %d of %d calls showed the file outside the root", tool, n, calls)
	}
	if shown["analysis.getFinding"] == 0 {
		t.Error("no call showed the file inside: the test read nothing")
	}
}
