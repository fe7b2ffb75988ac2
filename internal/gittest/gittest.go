// Package gittest makes real git repositories in a test's temp dir with the
// git binary, so that recap's go-git reading is checked against git itself.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Repo is a repository in a temp dir.
type Repo struct {
	t   testing.TB
	Dir string
}

// New makes an empty repository with branch main, or skips the test when
// the git binary is absent.
func New(t testing.TB) *Repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: skipping the test that compares with a real git repository")
	}
	r := &Repo{t: t, Dir: t.TempDir()}
	r.Git("init", "-q", "-b", "main")
	r.Git("config", "user.email", "test@example.com")
	r.Git("config", "user.name", "Test")
	r.Git("config", "core.autocrlf", "false")
	return r
}

// Sample makes a repository holding the sample project of testdata/sample
// (its src directory, as on GitHub Actions), committed on main; repoRoot is
// the recap checkout.
func Sample(t testing.TB, repoRoot string) *Repo {
	t.Helper()
	r := New(t)
	if out, err := exec.Command("cp", "-r", filepath.Join(repoRoot, "testdata", "sample", "src"), r.Dir).CombinedOutput(); err != nil {
		t.Fatalf("copy the sample: %v\n%s", err, out)
	}
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", "base")
	return r
}

// Git runs git in the repository and returns its standard output; a failure
// fails the test.
func (r *Repo) Git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	return string(out)
}

// Write writes files (path → content) under the repository, all with
// one modification time, as of one moment: a map's order is random, and
// a source written after its report in one call would read as edited
// since the report was written (triage.EditedSince).
func (r *Repo) Write(files map[string]string) {
	r.t.Helper()
	now := time.Now()
	for p, content := range files {
		full := filepath.Join(r.Dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			r.t.Fatal(err)
		}
		if err := os.Chtimes(full, now, now); err != nil {
			r.t.Fatal(err)
		}
	}
}

// Remove deletes files from the working tree.
func (r *Repo) Remove(paths ...string) {
	r.t.Helper()
	for _, p := range paths {
		if err := os.Remove(filepath.Join(r.Dir, filepath.FromSlash(p))); err != nil {
			r.t.Fatal(err)
		}
	}
}

// Commit writes files, stages everything and commits; it returns the
// commit's hash.
func (r *Repo) Commit(msg string, files map[string]string) string {
	r.t.Helper()
	r.Write(files)
	r.Git("add", "-A")
	r.Git("commit", "-q", "--allow-empty", "-m", msg)
	return strings.TrimSpace(r.Git("rev-parse", "HEAD"))
}

var (
	plusFile = regexp.MustCompile(`^\+\+\+ b/(.*)$`)
	hunkHead = regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@`)
)

// ChangedLines runs git diff -U0 -w --ignore-blank-lines with args and
// returns path → the new line numbers of its added lines that are not blank:
// the lines that changed in more than whitespace, as git sees them.
func (r *Repo) ChangedLines(args ...string) map[string][]int {
	r.t.Helper()
	out := map[string][]int{}
	var path string
	next := 0
	for _, l := range strings.Split(r.Git(append([]string{"diff", "-U0", "-w", "--ignore-blank-lines", "--no-color", "--no-ext-diff"}, args...)...), "\n") {
		if m := plusFile.FindStringSubmatch(l); m != nil {
			path = m[1]
			continue
		}
		if m := hunkHead.FindStringSubmatch(l); m != nil {
			next, _ = strconv.Atoi(m[1])
			continue
		}
		if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") {
			if strings.TrimSpace(l[1:]) != "" {
				out[path] = append(out[path], next)
			}
			next++
		}
	}
	return out
}
