package reportstest

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryFuzzTargetSeededAlone: every package with a fuzz target checks
// that its targets run on seeds of the checkout (FuzzSeedsAlone), so that
// a fuzz target added later cannot depend on ../shared unseen.
func TestEveryFuzzTargetSeededAlone(t *testing.T) {
	root := RepoRoot(t)
	n := 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			return nil
		}
		targets := FuzzTargets(t, path)
		if len(targets) == 0 {
			return nil
		}
		n += len(targets)
		files, _ := filepath.Glob(filepath.Join(path, "*_test.go"))
		for _, name := range files {
			if b, err := os.ReadFile(name); err == nil && strings.Contains(string(b), "reportstest.FuzzSeedsAlone(t, ") {
				return nil
			}
		}
		rel, _ := filepath.Rel(root, path)
		t.Errorf("%s has fuzz targets (%s) and no test calling reportstest.FuzzSeedsAlone", rel, strings.Join(targets, ", "))
		return nil
	})
	if n < 14 {
		t.Errorf("%d fuzz targets found, want the 14 of the repository at least", n)
	}
}

// TestUpdateFlagEverywhere: every package's test binary links this package,
// which defines -update, so that `go test ./... -update` runs everywhere.
func TestUpdateFlagEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("go list of every test binary: not under -short")
	}
	cmd := exec.Command("go", "list", "-test", "-f", `{{if eq .Name "main"}}{{.ImportPath}}|{{join .Deps ","}}{{end}}`, "./...")
	cmd.Dir = RepoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const self = "github.com/recap-dev/recap/internal/reportstest"
	binaries := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, deps, _ := strings.Cut(line, "|")
		if !strings.HasSuffix(name, ".test") {
			continue // a command, not a test binary
		}
		binaries++
		if !strings.Contains(","+deps, ","+self+",") && !strings.Contains(","+deps, ","+self+" [") && name != self+".test" {
			t.Errorf("%s: the test binary has no -update flag (import reportstest)", name)
		}
	}
	if binaries < 15 {
		t.Errorf("%d test binaries listed, want every package's", binaries)
	}
}
