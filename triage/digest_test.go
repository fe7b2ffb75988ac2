package triage

import (
	"os"
	"os/exec"
	"testing"
)

// TestMain runs the package's tests with every file decided by its
// digest when RECAP_TRIAGE_DIGEST is set (TestDigestAsText does, in a
// process of its own).
func TestMain(m *testing.M) {
	if os.Getenv("RECAP_TRIAGE_DIGEST") != "" {
		digestAll = true
	}
	os.Exit(m.Run())
}

// TestDigestAsText runs the package's tests again with every file decided
// by its digest (the read-ahead's) instead of its text: each decision of
// each test, following the code, git's steps and history, renames and
// copies, must be the same.
func TestDigestAsText(t *testing.T) {
	if digestAll {
		t.Skip("the run by digests itself")
	}
	if testing.Short() {
		t.Skip("-short: the package's tests once")
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^Test", "-test.skip", "^TestDigestAsText$|Fuzz")
	cmd.Env = append(os.Environ(), "RECAP_TRIAGE_DIGEST=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the tests by digests: %v\n%s", err, out)
	}
}
