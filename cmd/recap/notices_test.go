package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// TestNoticesNameEveryModule checks that THIRD_PARTY_NOTICES.md, which
// every release archive carries, names every module the recap binary is
// built from (scripts/notices/run writes it again when a module is added
// or updated), and that the licence files the archives carry are there.
func TestNoticesNameEveryModule(t *testing.T) {
	root := reportstest.RepoRoot(t)
	notices, err := os.ReadFile(filepath.Join(root, "THIRD_PARTY_NOTICES.md"))
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]bool{}
	for _, l := range strings.Split(string(notices), "\n") {
		if f := strings.Fields(strings.TrimPrefix(l, "## ")); strings.HasPrefix(l, "## ") && len(f) == 2 {
			named[f[0]+" "+f[1]] = true
		}
	}
	cmd := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}}{{end}}{{end}}", "./cmd/recap")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := map[string]bool{}
	for _, mod := range strings.Fields(strings.ReplaceAll(string(out), " ", "@")) {
		if seen[mod] {
			continue
		}
		seen[mod] = true
		path, version, _ := strings.Cut(mod, "@")
		found := false
		for n := range named {
			p, v, _ := strings.Cut(n, " ")
			if (p == path || strings.HasPrefix(p, path+"/")) && v == version {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("THIRD_PARTY_NOTICES.md does not name %s %s: run scripts/notices/run", path, version)
		}
	}
	if len(seen) < 10 {
		t.Errorf("go list named %d modules: %q", len(seen), out)
	}
	for _, f := range []string{"LICENSE", "LICENSES/LGPL-2.1.txt", "LICENSES/Go.txt"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Error(err)
		}
	}
}
