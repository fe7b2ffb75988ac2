package parsers_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

// TestImportanceAsToolsSay: the corpus's reports of security scanners and
// linters, each finding placed as its tool means it (docs/formats.md,
// "Importance"): the counts by quality and impact of each report, and the
// place of the rules the table names.
func TestImportanceAsToolsSay(t *testing.T) {
	corpus := reportstest.SharedDir(t, "corpus")
	for _, tc := range []struct {
		file string
		// counts is the findings by "quality impact".
		counts map[string]int
		// rules is the place of some rules: rule → "quality impact".
		rules map[string]string
	}{
		// Flawfinder's risk level, as its SARIF level: the lowest-risk note
		// of CWE-119 (a Top 25 weakness) stays low, levels 4–5 are high.
		{"sarif-other/flawfinder-2.0.20.sarif", map[string]int{"security high": 3, "security low": 1},
			map[string]string{"FF1013": "security low", "FF1001": "security high", "FF1014": "security high", "FF1016": "security high"}},
		// security-severity 5.3 and the tag MEDIUM.
		{"sarif-other/trivy-alpine-310.sarif", map[string]int{"security medium": 4}, map[string]string{"CVE-2019-1549": "security medium"}},
		// a secret, no level: at least high.
		{"sarif-other/gitleaks-8-snippet.sarif", map[string]int{"security high": 1}, map[string]string{"test-rule": "security high"}},
		// CWE-798 from the result's properties.cwe: at least high.
		{"sarif-other/njsscan-0.2.3.sarif", map[string]int{"security high": 1, "security medium": 1},
			map[string]string{"node_password": "security high", "node_insecure_random_generator": "security medium"}},
		// levels only: Top 25 CWEs from properties.cwe (79, 798, 918) are high.
		{"sarif-other/snyk-code-categories.sarif", map[string]int{"security high": 26, "security low": 1, "security medium": 12},
			map[string]string{"javascript/XSS": "security high", "javascript/NoRateLimitingForExpensiveWebOperation": "security medium",
				"javascript/HardcodedSecret/test": "security low"}},
		// ESLint 9.36: the rule types of its documentation, whatever the
		// configured severity (no-unreachable is a warning, no-magic-numbers
		// a warning, @typescript-eslint/no-explicit-any an error).
		{"sarif-other/eslint-9.36.0-large.sarif",
			map[string]int{"maintainability low": 915, "maintainability medium": 1486, "reliability high": 11, "reliability medium": 14},
			map[string]string{"no-unreachable": "reliability high", "no-unexpected-multiline": "reliability high",
				"@typescript-eslint/no-unused-vars": "reliability high", "no-duplicate-imports": "reliability medium",
				"no-magic-numbers": "maintainability low", "no-console": "maintainability low", "max-lines-per-function": "maintainability low",
				"react/jsx-boolean-value": "maintainability low", "import/no-unresolved": "maintainability medium"}},
		// security-severity 9.9 on the rules tagged security.
		{"sarif-other/cppcheck-2.17.sarif", map[string]int{"maintainability medium": 3, "security blocker": 4}, nil},
		{"sarif-other/mayhem-code-cwe-taxa.sarif", map[string]int{"security high": 8}, nil},
		{"sarif-other/securitycodescan-5.6.2.sarif", map[string]int{"security high": 4, "security low": 4, "security medium": 56}, nil},
		{"sarif-other/semgrep-autofix-fixes.sarif", map[string]int{"maintainability medium": 2}, nil},
	} {
		t.Run(tc.file, func(t *testing.T) {
			counts := map[string]int{}
			rules := map[string]string{}
			_, err := parsers.ReadAll([]string{filepath.Join(corpus, tc.file)}, parsers.ReadOptions{}, func(f reports.Finding) error {
				place := fmt.Sprintf("%s %s", f.Quality, f.Impact)
				counts[place]++
				if _, ok := tc.rules[f.Rule]; ok {
					if p, seen := rules[f.Rule]; seen && p != place {
						place = p + " and " + place
					}
					rules[f.Rule] = place
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.counts, counts); diff != "" {
				t.Errorf("findings by quality and impact (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.rules, rules, cmp.Comparer(func(a, b map[string]string) bool { return cmp.Equal(a, b) })); tc.rules != nil && diff != "" {
				t.Errorf("rules (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCWEFromProperties: the CWE ids of Snyk Code's properties.cwe and of
// njsscan's result property cwe reach the findings, so that --cwe finds
// them.
func TestCWEFromProperties(t *testing.T) {
	corpus := reportstest.SharedDir(t, "corpus")
	for _, tc := range []struct {
		file string
		cwe  map[int]int // CWE id → findings of it
	}{
		{"sarif-other/snyk-code-categories.sarif", map[int]int{79: 10, 798: 7, 918: 1, 943: 5, 547: 4, 89: 0}},
		{"sarif-other/njsscan-0.2.3.sarif", map[int]int{798: 1, 327: 1}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got := map[int]int{}
			in, err := parsers.ReadAll([]string{filepath.Join(corpus, tc.file)}, parsers.ReadOptions{}, func(f reports.Finding) error {
				for id := range tc.cwe {
					if slices.Contains(f.CWE, id) {
						got[id]++
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for id, n := range tc.cwe {
				if got[id] != n {
					t.Errorf("CWE-%d: %d findings, want %d", id, got[id], n)
				}
			}
			// A rule with no findings keeps its CWE ids in the rule table.
			if r := in[0].Rules.Lookup("SnykCode", "javascript/Sqli"); tc.file == "sarif-other/snyk-code-categories.sarif" && (r == nil || !slices.Equal(r.CWE, []int{89})) {
				t.Errorf("javascript/Sqli in the rule table: %+v, want CWE-89", r)
			}
		})
	}
}
