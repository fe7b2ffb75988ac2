package parsers_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

// eslintModules is the node_modules directory of an ESLint with
// @eslint/js and @microsoft/eslint-formatter-sarif: the repository's, else
// that of the eslint on PATH; the test skips without one.
func eslintModules(t *testing.T) string {
	t.Helper()
	var dirs []string
	dirs = append(dirs, filepath.Join(reportstest.RepoRoot(t), "node_modules"))
	if p, err := exec.LookPath("eslint"); err == nil {
		if p, err = filepath.EvalSymlinks(p); err == nil {
			// node_modules/eslint/bin/eslint.js
			dirs = append(dirs, filepath.Dir(filepath.Dir(filepath.Dir(p))))
		}
	}
	for _, d := range dirs {
		ok := true
		for _, f := range []string{"eslint/bin/eslint.js", "@eslint/js/src/index.js", "@microsoft/eslint-formatter-sarif/sarif.js"} {
			if _, err := os.Stat(filepath.Join(d, f)); err != nil {
				ok = false
			}
		}
		if ok {
			return d
		}
	}
	t.Skip("no ESLint with @eslint/js and @microsoft/eslint-formatter-sarif (npm install eslint@9 @microsoft/eslint-formatter-sarif@3)")
	return ""
}

// TestESLintImportance runs the real ESLint (its recommended rules, and
// no-var and eqeqeq as the configuration's error and warning) on
// testdata/eslint/app.js and reads its SARIF: the rules ESLint's
// documentation files as problems are reliability high whatever their
// configured severity, the style suggestions maintainability low.
func TestESLintImportance(t *testing.T) {
	mods := eslintModules(t)
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node")
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "eslint", "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf("import js from %q;\nexport default [js.configs.recommended, {rules: {\"no-var\": \"error\", \"eqeqeq\": \"warn\"}}];\n",
		filepath.ToSlash(filepath.Join(mods, "@eslint/js/src/index.js")))
	for name, data := range map[string][]byte{"app.js": src, "eslint.config.mjs": []byte(config)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "eslint.sarif")
	cmd := exec.Command("node", filepath.Join(mods, "eslint/bin/eslint.js"), "-f", filepath.Join(mods, "@microsoft/eslint-formatter-sarif/sarif.js"),
		"-o", out, "app.js")
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok || len(b) > 0 { // exit 1: problems found
			t.Fatalf("eslint: %v\n%s", err, b)
		}
	}
	got := map[string]string{}
	_, err = parsers.ReadAll([]string{out}, parsers.ReadOptions{Root: dir}, func(f reports.Finding) error {
		got[f.Rule] = fmt.Sprintf("%s %s %s", f.Severity, f.Quality, f.Impact)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"no-undef":       "error reliability high",
		"no-unreachable": "error reliability high",
		"no-unused-vars": "error reliability high",
		"no-var":         "error maintainability low",
		"eqeqeq":         "warning maintainability low",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ESLint's findings (-want +got):\n%s", diff)
	}
}
