package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/recap-dev/recap/reports/reportstest"
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

// TestReleaseDownload builds a snapshot release with GoReleaser from a
// copy of the repository tagged v0.3.0 (for this machine's platform only:
// six builds of recap are minutes; the configuration is otherwise the
// release's, which `goreleaser check` validates in the test command),
// serves it from a local HTTP server as GitHub serves release assets, and
// runs the action's install step: the tag's archive for the runner is
// downloaded, checked against checksums.txt and installed, and recap
// version says the tag; a major tag on the same commit finds it; an
// archive that does not match its checksum is refused (exit 2); a branch,
// or a platform the release lacks, builds from source.
func TestReleaseDownload(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a release")
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("the test runs the action's script on a Linux runner's platforms")
	}
	gr := goreleaser(t)
	root := reportstest.RepoRoot(t)
	src := filepath.Join(t.TempDir(), "recap")
	files, err := exec.Command("git", "-C", root, "ls-files", "-co", "--exclude-standard").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Split(strings.TrimSpace(string(files)), "\n") {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			continue // deleted in the work tree
		}
		os.MkdirAll(filepath.Dir(filepath.Join(src, f)), 0o755)
		os.WriteFile(filepath.Join(src, f), b, 0o644)
	}
	cfg, _ := os.ReadFile(filepath.Join(src, ".goreleaser.yaml"))
	for _, want := range []string{"goos: [linux, darwin, windows]", "goarch: [amd64, arm64]", "name_template: checksums.txt", "cli.Version={{ .Tag }}"} {
		if !bytes.Contains(cfg, []byte(want)) {
			t.Fatalf(".goreleaser.yaml does not say %q", want)
		}
	}
	cfg = bytes.Replace(cfg, []byte("goos: [linux, darwin, windows]"), []byte("goos: [linux]"), 1)
	cfg = bytes.Replace(cfg, []byte("goarch: [amd64, arm64]"), []byte("goarch: ["+runtime.GOARCH+"]"), 1)
	os.WriteFile(filepath.Join(src, ".goreleaser.yaml"), cfg, 0o644)
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", src, "-c", "user.name=t", "-c", "user.email=t@e", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "release")
	git("tag", "v0.3.0")
	cmd := exec.Command(gr, "release", "--snapshot", "--clean", "--skip=before")
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("goreleaser release --snapshot: %v\n%s", err, out)
	}
	git("tag", "v0") // the major tag, moved onto the release's commit
	dist := filepath.Join(src, "dist")
	arch := map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	archive := "recap_0.3.0_linux_" + runtime.GOARCH + ".tar.gz"
	if _, err := os.Stat(filepath.Join(dist, archive)); err != nil {
		t.Fatalf("the snapshot has no %s: %v", archive, err)
	}
	tamper := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := strings.CutPrefix(r.URL.Path, "/acme/recap/releases/download/v0.3.0/")
		b, err := os.ReadFile(filepath.Join(dist, filepath.Base(name)))
		if !ok || err != nil {
			http.NotFound(w, r)
			return
		}
		if tamper && strings.HasSuffix(name, ".tar.gz") {
			b = append(b, 0)
		}
		w.Write(b)
	}))
	defer srv.Close()
	script := filepath.Join(root, "action", "run.sh")
	install := func(ref, runnerArch string) (string, string, int) {
		dir, out := t.TempDir(), filepath.Join(t.TempDir(), "output")
		cmd := exec.Command("bash", script, "install")
		cmd.Env = append(os.Environ(), "RECAP_VERSION="+ref, "RECAP_DIR="+dir, "GITHUB_OUTPUT="+out, "RUNNER_OS=Linux", "RUNNER_ARCH="+runnerArch,
			"GITHUB_SERVER_URL="+srv.URL, "RECAP_ACTION_REPOSITORY=acme/recap", "RECAP_REPOSITORY_URL="+src)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		b, _ := os.ReadFile(out)
		if strings.Contains(string(b), "installed=true") {
			v, err := exec.Command(filepath.Join(dir, "recap"), "version").Output()
			if err != nil {
				t.Errorf("the installed recap: %v", err)
			}
			return string(b) + string(v), stdout.String() + stderr.String(), code
		}
		return string(b), stdout.String() + stderr.String(), code
	}
	for _, ref := range []string{"v0.3.0", "v0"} {
		out, log, code := install(ref, arch)
		if code != 0 || !strings.Contains(out, "installed=true") || !strings.HasPrefix(strings.SplitN(out, "\n", 2)[1], "recap v0.3.0 (") ||
			!strings.Contains(log, "checked against checksums.txt") {
			t.Errorf("%s: exit %d, %q\n%s", ref, code, out, log)
		}
	}
	if out, log, code := install("main", arch); code != 0 || out != "installed=false\n" || !strings.Contains(log, "not a release") {
		t.Errorf("a branch: exit %d, %q\n%s", code, out, log)
	}
	other := map[string]string{"X64": "ARM64", "ARM64": "X64"}[arch]
	if out, log, code := install("v0.3.0", other); code != 0 || out != "installed=false\n" || !strings.Contains(log, "building recap from the action's source") {
		t.Errorf("a platform the release lacks: exit %d, %q\n%s", code, out, log)
	}
	tamper = true
	if out, log, code := install("v0.3.0", arch); code != 2 || strings.Contains(out, "installed=") || !strings.Contains(log, "does not match the release's checksums.txt") {
		t.Errorf("a changed archive: exit %d, %q\n%s", code, out, log)
	}
}
