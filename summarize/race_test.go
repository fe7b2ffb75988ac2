package summarize

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recap-dev/recap/internal/hostile"
	"github.com/recap-dev/recap/reports"
)

// TestDirSymlinkRace: a file swapped between a regular file and a link to
// a file outside the repository while context is read never shows the
// outside file, in 300 reads. A reader that checks the path and then opens
// it (as recap did) is run on the same race first, until it leaks, to show
// that the window is there to catch on this machine.
func TestDirSymlinkRace(t *testing.T) {
	if testing.Short() {
		t.Skip("a race of several seconds: not in -short")
	}
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	if err := os.MkdirAll(filepath.Join(repo, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	flip := filepath.Join(repo, "src", "Flip.java")
	fl, err := hostile.Flip(flip, "one\ntwo\nthree\nfour\n", filepath.Join(top, "passwd"))
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Stop()

	// The window: a check, then an open.
	naive := func() bool {
		real, err := filepath.EvalSymlinks(flip)
		if err != nil || !strings.HasPrefix(real, repo+string(filepath.Separator)) {
			return false
		}
		f, err := os.Open(flip)
		if err != nil {
			return false
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		return strings.Contains(string(b), "SECRET")
	}
	tries, deadline := 0, time.Now().Add(20*time.Second)
	for ; !naive(); tries++ {
		if time.Now().After(deadline) {
			t.Skipf("a check, then an open, did not leak in %d tries: the window is not caught on this machine", tries)
		}
	}
	t.Logf("a check, then an open, leaked after %d tries", tries+1)

	// 300 reads, and more until one has caught the file inside (a loaded
	// machine may swap rarely during the first 300).
	leaks, shown, reads := 0, 0, 0
	for until := time.Now().Add(20 * time.Second); reads < 300 || shown == 0 && time.Now().Before(until); reads++ {
		d := &Dir{Root: repo}
		fv := FindingView{Finding: reports.Finding{Path: "src/Flip.java", Line: 2}}
		AddContext(&fv, d)
		d.Close()
		for _, l := range fv.Context {
			if strings.Contains(l.Text, "SECRET") {
				leaks++
			}
		}
		if len(fv.Context) > 0 {
			shown++
		}
	}
	swaps, err := fl.Stop()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d reads during %d swaps: %d with context, %d leaks", reads, swaps, shown, leaks)
	if leaks > 0 {
		t.Errorf("%d of %d reads showed the file outside the repository", leaks, reads)
	}
	if shown == 0 {
		t.Error("no read showed the file inside: the test read nothing")
	}
}
