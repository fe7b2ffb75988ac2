package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recap-dev/recap/internal/reportstest"
)

// goreleaser finds GoReleaser (the test command installs it with go
// install), or skips the test.
func goreleaser(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("goreleaser"); err == nil {
		return p
	}
	out, _ := exec.Command("go", "env", "GOPATH").Output()
	p := filepath.Join(strings.TrimSpace(string(out)), "bin", "goreleaser")
	if _, err := os.Stat(p); err != nil {
		t.Skip("goreleaser not found (go install github.com/goreleaser/goreleaser/v2@v2.15.1)")
	}
	return p
}

// A snapshot release of this checkout, built once for the test binary.
var (
	snapshotOnce sync.Once
	snapshot     struct {
		src, dist string // the release's repository and its dist/
		commit    string // the commit the release is made of
		took      time.Duration
		err       error
	}
)

// releaseTag is the tag the snapshot release is made for.
const releaseTag = "v0.3.0"

// snapshotRelease builds, once for the test binary, a snapshot release
// with GoReleaser from a copy of the repository committed and tagged
// releaseTag, for this machine's platform only (six builds of recap take
// minutes; the configuration is otherwise the release's, and `goreleaser
// check` validates the whole of it in the test command). The copy also
// has a major tag, v0, on the same commit.
func snapshotRelease(t *testing.T) (src, dist, commit string) {
	t.Helper()
	gr := goreleaser(t)
	root := reportstest.RepoRoot(t)
	snapshotOnce.Do(func() {
		start := time.Now()
		snapshot.src = filepath.Join(filepath.Dir(bin), "release", "recap")
		snapshot.commit, snapshot.err = buildSnapshot(gr, root, snapshot.src)
		snapshot.dist = filepath.Join(snapshot.src, "dist")
		snapshot.took = time.Since(start)
	})
	if snapshot.err != nil {
		t.Fatal(snapshot.err)
	}
	t.Logf("the snapshot release took %s to build", snapshot.took.Round(time.Second))
	return snapshot.src, snapshot.dist, snapshot.commit
}

// buildSnapshot copies the repository at root (its files tracked or not
// ignored, as they are in the work tree) to src, commits and tags them,
// and runs goreleaser release --snapshot there; it returns the commit.
func buildSnapshot(gr, root, src string) (string, error) {
	files, err := exec.Command("git", "-C", root, "ls-files", "-z", "-co", "--exclude-standard").Output()
	if err != nil {
		return "", fmt.Errorf("git ls-files in %s: %w", root, err)
	}
	for _, f := range strings.Split(strings.TrimRight(string(files), "\x00"), "\x00") {
		b, err := os.ReadFile(filepath.Join(root, f))
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the work tree
		} else if err != nil {
			return "", err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(src, f)), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(src, f), b, 0o644); err != nil {
			return "", err
		}
	}
	cfg, err := os.ReadFile(filepath.Join(src, ".goreleaser.yaml"))
	if err != nil {
		return "", err
	}
	for _, want := range []string{"goos: [linux, darwin, windows]", "goarch: [amd64, arm64]", "name_template: checksums.txt", "cli.Version={{ .Tag }}"} {
		if !bytes.Contains(cfg, []byte(want)) {
			return "", fmt.Errorf(".goreleaser.yaml does not say %q", want)
		}
	}
	cfg = bytes.Replace(cfg, []byte("goos: [linux, darwin, windows]"), []byte("goos: [linux]"), 1)
	cfg = bytes.Replace(cfg, []byte("goarch: [amd64, arm64]"), []byte("goarch: ["+runtime.GOARCH+"]"), 1)
	if err := os.WriteFile(filepath.Join(src, ".goreleaser.yaml"), cfg, 0o644); err != nil {
		return "", err
	}
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", append([]string{"-C", src, "-c", "user.name=t", "-c", "user.email=t@e", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("git %v: %w\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out)), nil
	}
	// GoReleaser reads the remote's URL; without one, a snapshot falls
	// back to version 0.0.0 whatever the tags.
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "release"}, {"tag", releaseTag}, {"tag", "v0"},
		{"remote", "add", "origin", "https://github.com/recap-dev/recap.git"}} {
		if _, err := git(args...); err != nil {
			return "", err
		}
	}
	commit, err := git("rev-parse", "HEAD")
	if err != nil {
		return "", err
	}
	cmd := exec.Command(gr, "release", "--snapshot", "--clean", "--skip=before")
	cmd.Dir = src
	// Two tags on the commit: the release's is named.
	cmd.Env = append(os.Environ(), "GORELEASER_CURRENT_TAG="+releaseTag)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("goreleaser release --snapshot: %w\n%s", err, out)
	}
	return commit, nil
}

// TestReleaseDownload serves a snapshot release (snapshotRelease) from a
// local HTTP server as GitHub serves release assets, and runs the
// action's install step: the tag's archive for the runner is downloaded,
// checked against checksums.txt and installed, and recap version says the
// tag; a major tag or a commit SHA that the release tag is on finds it;
// an archive that does not match its checksum is refused (exit 2); a
// branch, or a platform the release lacks, builds from source.
func TestReleaseDownload(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a release")
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("the test runs the action's script on a Linux runner's platforms")
	}
	src, dist, commit := snapshotRelease(t)
	arch := map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	archive := "recap_" + strings.TrimPrefix(releaseTag, "v") + "_linux_" + runtime.GOARCH + ".tar.gz"
	if _, err := os.Stat(filepath.Join(dist, archive)); err != nil {
		names, _ := filepath.Glob(filepath.Join(dist, "*"))
		t.Fatalf("the snapshot has no %s: %v (it has %q)", archive, err, names)
	}
	if missing := archiveLacks(t, filepath.Join(dist, archive), "recap", "README.md", "LICENSE", "LICENSES/LGPL-2.1.txt", "LICENSES/Go.txt", "THIRD_PARTY_NOTICES.md"); len(missing) > 0 {
		t.Errorf("%s lacks %q", archive, missing)
	}
	var mu sync.Mutex
	tamper := false
	truncate := false // the archive cut short, and listed so in checksums.txt
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := strings.CutPrefix(r.URL.Path, "/acme/recap/releases/download/"+releaseTag+"/")
		if !ok || strings.Contains(name, "/") {
			http.NotFound(w, r)
			return
		}
		b, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		if tamper && strings.HasSuffix(name, ".tar.gz") {
			b = append(b, 0)
		}
		if truncate {
			short, err := os.ReadFile(filepath.Join(dist, archive))
			if err != nil {
				t.Error(err)
			}
			short = short[:len(short)/2]
			if name == archive {
				b = short
			} else if name == "checksums.txt" {
				var lines []string
				for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
					if strings.HasSuffix(l, " "+archive) {
						l = fmt.Sprintf("%x  %s", sha256.Sum256(short), archive)
					}
					lines = append(lines, l)
				}
				b = []byte(strings.Join(lines, "\n") + "\n")
			}
		}
		mu.Unlock()
		w.Write(b)
	}))
	defer srv.Close()
	script := filepath.Join(reportstest.RepoRoot(t), "action", "run.sh")
	// install runs run.sh install for the action's ref on a runner's
	// architecture: its outputs (and recap version's line when it
	// installed recap), its log and its exit code.
	install := func(t *testing.T, ref, runnerArch string) (string, string, int) {
		t.Helper()
		dir, out, tmp := t.TempDir(), filepath.Join(t.TempDir(), "output"), t.TempDir()
		cmd := exec.Command("bash", script, "install")
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "RECAP_VERSION="+ref, "RECAP_DIR="+dir, "GITHUB_OUTPUT="+out, "RUNNER_OS=Linux", "RUNNER_ARCH="+runnerArch,
			"GITHUB_SERVER_URL="+srv.URL, "RECAP_ACTION_REPOSITORY=acme/recap", "RECAP_REPOSITORY_URL="+src)
		var log bytes.Buffer
		cmd.Stdout, cmd.Stderr = &log, &log
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		// the download is removed on every path, refused or installed
		if left, _ := os.ReadDir(tmp); len(left) > 0 {
			t.Errorf("exit %d: the install left %s in $TMPDIR", code, left[0].Name())
		}
		b, _ := os.ReadFile(out)
		if strings.Contains(string(b), "installed=true") {
			v, err := exec.Command(filepath.Join(dir, "recap"), "version").Output()
			if err != nil {
				t.Errorf("the installed recap: %v", err)
			}
			return string(b) + string(v), log.String(), code
		}
		return string(b), log.String(), code
	}
	for _, ref := range []string{releaseTag, "v0", commit} {
		t.Run("the release of "+ref, func(t *testing.T) {
			out, log, code := install(t, ref, arch)
			if want := "installed=true\nrecap " + releaseTag + " ("; code != 0 || !strings.HasPrefix(out, want) || !strings.Contains(log, "checked against checksums.txt") {
				t.Errorf("exit %d, %q, want it to start %q\n%s", code, out, want, log)
			}
		})
	}
	t.Run("a branch", func(t *testing.T) {
		if out, log, code := install(t, "main", arch); code != 0 || out != "installed=false\n" || !strings.Contains(log, "not a release") {
			t.Errorf("exit %d, %q\n%s", code, out, log)
		}
	})
	t.Run("a platform the release lacks", func(t *testing.T) {
		other := map[string]string{"X64": "ARM64", "ARM64": "X64"}[arch]
		if out, log, code := install(t, releaseTag, other); code != 0 || out != "installed=false\n" || !strings.Contains(log, "building recap from the action's source") {
			t.Errorf("exit %d, %q\n%s", code, out, log)
		}
	})
	t.Run("an archive that does not match its checksum", func(t *testing.T) {
		mu.Lock()
		tamper = true
		mu.Unlock()
		defer func() {
			mu.Lock()
			tamper = false
			mu.Unlock()
		}()
		if out, log, code := install(t, releaseTag, arch); code != 2 || strings.Contains(out, "installed=") || !strings.Contains(log, "does not match the release's checksums.txt") {
			t.Errorf("exit %d, %q\n%s", code, out, log)
		}
	})
	t.Run("an archive that cannot be extracted", func(t *testing.T) {
		mu.Lock()
		truncate = true
		mu.Unlock()
		defer func() {
			mu.Lock()
			truncate = false
			mu.Unlock()
		}()
		if out, log, code := install(t, releaseTag, arch); code != 2 || strings.Contains(out, "installed=") {
			t.Errorf("exit %d, %q\n%s", code, out, log)
		}
	})
}

// archiveLacks returns the names of want that the tar.gz archive at path
// does not hold.
func archiveLacks(t *testing.T, path string, want ...string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	has := map[string]bool{}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		has[h.Name] = true
	}
	var missing []string
	for _, w := range want {
		if !has[w] {
			missing = append(missing, w)
		}
	}
	return missing
}
