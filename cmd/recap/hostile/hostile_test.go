// Package hostile_test runs the hostile-input cases (internal/hostile)
// through the recap binary: a package of its own, so that go test gives
// them their own 10 minutes beside cmd/recap's end-to-end tests.
package hostile_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/recap-dev/recap/internal/hostile"
)

// bin is the recap binary the cases run, built once by TestMain.
var bin string

// TestMain builds the recap binary from ../ (cmd/recap) once.
func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "recap-hostile")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "recap")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building recap: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var full = flag.Bool("full", false, "run the hostile cases at full size (the test command does, for the cases of changes)")

// TestHostile runs every hostile-input case (internal/hostile) at its test
// size through the recap binary (at full size with -full): each ends
// within its time limit with a named error or a bounded result, the good
// inputs of the same call still reported, and a peak RSS (the child's
// VmHWM) within its bound. scripts/hostile prints the table of the same
// cases at full size.
//
// With -full (the test command gives it for the cases of changes) the
// cases run at full size.
func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile inputs: not in -short")
	}
	for _, c := range hostile.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			if tool := c.Missing(); tool != "" {
				t.Skipf("%s is not installed: the case needs it", tool)
			}
			// Each case is a process of its own, bounded by its own peak
			// RSS: two at a time (go test's -parallel) keep the package
			// within go test's 10 minutes on a machine of two cores. At
			// full size (gigabytes of input on disk) one at a time.
			if !*full {
				t.Parallel()
			}
			size, limit := c.Size, 2*time.Minute
			if *full {
				size, limit = c.Full, 10*time.Minute
			}
			r, err := hostile.Run(bin, t.TempDir(), c, size, limit)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: exit %d in %s, peak RSS %.1f MiB", r.What, r.Code, r.Wall.Round(time.Millisecond), float64(r.MaxRSS)/hostile.MiB)
			if err := c.Check(r); err != nil {
				t.Error(err)
			}
			if r.MaxRSS > c.Bound {
				t.Errorf("peak RSS %.1f MiB, bound %d MiB", float64(r.MaxRSS)/hostile.MiB, c.Bound/hostile.MiB)
			}
		})
	}
}

// TestSymlinkRace: recap findings reads the context of a finding in a file
// swapped between a regular file and a link to a file outside the
// repository, 300 times, and never shows the outside file (the same race
// leaked it in 11 of 300 runs when the path was checked, then opened).
func TestSymlinkRace(t *testing.T) {
	if testing.Short() {
		t.Skip("300 runs during a race: not in -short")
	}
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	if err := os.MkdirAll(filepath.Join(repo, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(top, "report.xml")
	if err := os.WriteFile(report, []byte(`<checkstyle version="8.36"><file name="src/Flip.java">`+
		`<error line="2" severity="error" message="m" source="x.Y"/></file></checkstyle>`), 0o644); err != nil {
		t.Fatal(err)
	}
	fl, err := hostile.Flip(filepath.Join(repo, "src", "Flip.java"), "one\ntwo\nthree\nfour\n", filepath.Join(top, "passwd"))
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Stop()
	// 300 runs, and more until one has caught the file inside (a loaded
	// machine may swap rarely during the first 300).
	leaks, shown, runs := 0, 0, 0
	for until := time.Now().Add(30 * time.Second); runs < 300 || shown == 0 && time.Now().Before(until); runs++ {
		out, err := exec.Command(bin, "findings", "--repo", repo, report).Output()
		if err != nil {
			t.Fatalf("run %d: %v", runs, err)
		}
		if bytes.Contains(out, []byte("SECRET")) {
			leaks++
		}
		if bytes.Contains(out, []byte("two")) {
			shown++
		}
	}
	swaps, err := fl.Stop()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d runs during %d swaps: context shown %d times, %d leaks", runs, swaps, shown, leaks)
	if leaks > 0 {
		t.Errorf("%d of %d runs showed the file outside the repository", leaks, runs)
	}
	if shown == 0 {
		t.Error("no run showed the file inside: the test read nothing")
	}
}
