package parsers_test

import (
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

// TestSecurityAsToolsSay: a finding is about security when its tool says
// so (a security tag anywhere, properties.categories, a security-severity,
// a security category or rule set, or a tool that only looks for security
// problems), and not for a CWE id alone nor for SpotBugs' MALICIOUS_CODE.
// The corpus's reports, each with its findings and how many are about
// security.
func TestSecurityAsToolsSay(t *testing.T) {
	corpus := reportstest.SharedDir(t, "corpus")
	for _, tc := range []struct {
		file               string
		findings, security int
	}{
		{"sarif-other/snyk-code-categories.sarif", 39, 39},            // properties.categories: Security
		{"sarif-other/gitleaks-8-snippet.sarif", 1, 1},                // a security tool
		{"sarif-other/trivy-alpine-310.sarif", 4, 4},                  // a security tool, findings without a file
		{"sarif-other/flawfinder-2.0.20.sarif", 4, 4},                 // a security tool
		{"sarif-other/securitycodescan-5.6.2.sarif", 64, 64},          // a security tool
		{"sarif-other/njsscan-0.2.3.sarif", 2, 2},                     // a security tool
		{"sarif-other/mayhem-code-cwe-taxa.sarif", 8, 8},              // a security tool
		{"sarif-other/cppcheck-2.17.sarif", 7, 4},                     // the rules tagged security, with a security-severity
		{"sarif-other/semgrep-autofix-fixes.sarif", 2, 0},             // no tag says security
		{"sarif-other/eslint-9.36.0-large.sarif", 2426, 0},            // a linter
		{"spotbugs-xml/findbugs-1.2.1-native-withmessages.xml", 2, 0}, // MALICIOUS_CODE is not security
		{"spotbugs-xml/findbugs-3.0.1-missing-sourceline.xml", 5, 0},  // nor a CWE id alone
	} {
		t.Run(tc.file, func(t *testing.T) {
			n, sec := 0, 0
			_, err := parsers.ReadAll([]string{filepath.Join(corpus, tc.file)}, parsers.ReadOptions{}, func(f reports.Finding) error {
				n++
				if f.Security() {
					sec++
				}
				return nil
			})
			if err != nil || n != tc.findings || sec != tc.security {
				t.Errorf("%d findings, %d about security (%v); want %d, %d", n, sec, err, tc.findings, tc.security)
			}
		})
	}
}
