package parsers

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/reports"
)

// TestCheckstyleDoc: the page and the one-line description of each kind of
// source a Checkstyle report names.
func TestCheckstyleDoc(t *testing.T) {
	tests := map[string]struct{ source, uri, short string }{
		"a check of a package": {"com.puppycrawl.tools.checkstyle.checks.sizes.LineLengthCheck",
			"https://checkstyle.org/checks/sizes/linelength.html#LineLength", "Checks for long lines."},
		"a check of the checks package itself": {"com.puppycrawl.tools.checkstyle.checks.NewlineAtEndOfFileCheck",
			"https://checkstyle.org/checks/misc/newlineatendoffile.html#NewlineAtEndOfFile", "Checks whether files end with a line separator."},
		"a module id": {"com.puppycrawl.tools.checkstyle.checks.naming.MethodNameCheck#twCheck",
			"https://checkstyle.org/checks/naming/methodname.html#MethodName", "Checks that method names conform to a specified pattern."},
		"a check newer than the table": {"com.puppycrawl.tools.checkstyle.checks.coding.UnusedLocalVariableCheck",
			"https://checkstyle.org/checks/coding/unusedlocalvariable.html#UnusedLocalVariable", ""},
		"the Checker":        {"com.puppycrawl.tools.checkstyle.Checker", "https://checkstyle.org/config.html#Checker", "Checkstyle's Checker could not process the file (it reports no check's finding, but an error reading or parsing the file)."},
		"another producer":   {"eslint.rules.no-unused-vars", "", ""},
		"no source":          {"", "", ""},
		"a source of no one": {"source", "", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			uri, short := checkstyleDoc(tc.source)
			if uri != tc.uri || short != tc.short {
				t.Errorf("checkstyleDoc(%q) = %q, %q; want %q, %q", tc.source, uri, short, tc.uri, tc.short)
			}
		})
	}
	for name, c := range checkstyleChecks {
		if c.pkg == "" || c.desc == "" || strings.Contains(c.desc, "\n") || strings.Contains(c.desc, "</") || !strings.HasSuffix(c.desc, ".") {
			t.Errorf("%s: %+v is not a package and a one-line sentence", name, c)
		}
	}
}

// TestCheckstyleChecksTable: the table of Checkstyle's checks is what
// scripts/checkstyle-checks makes of the Checkstyle jar (Debian's
// checkstyle package) when the jar is here.
func TestCheckstyleChecksTable(t *testing.T) {
	const jar = "/usr/share/java/checkstyle.jar"
	if _, err := os.Stat(jar); err != nil {
		t.Skipf("%s is not installed (Debian's checkstyle): %v", jar, err)
	}
	root := reportstest.RepoRoot(t)
	out := filepath.Join(t.TempDir(), "checks.go")
	cmd := exec.Command("go", "run", "./scripts/checkstyle-checks", "-jar", jar, "-o", out)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("checkstyle-checks: %v\n%s", err, b)
	}
	want, _ := os.ReadFile(out)
	have, _ := os.ReadFile(filepath.Join(root, "parsers", "checkstyle_checks.go"))
	if string(want) != string(have) {
		t.Errorf("parsers/checkstyle_checks.go is not what go generate makes of %s: run go generate ./parsers", jar)
	}
	if len(checkstyleChecks) < 170 {
		t.Errorf("%d checks in the table", len(checkstyleChecks))
	}
}

// TestCheckstyleFindingsDescribed: every Checkstyle finding of the corpus
// and of the sample, from XML and from SARIF, links its check's page on
// checkstyle.org, and its rule has a one-line description when Checkstyle's
// table knows the check.
func TestCheckstyleFindingsDescribed(t *testing.T) {
	paths := []string{filepath.Join(reportstest.RepoRoot(t), "testdata", "reports", "checkstyle.xml")}
	least := 60 // the sample's Checkstyle findings, without the corpus
	if dir, ok := reportstest.Shared(t, "corpus"); ok {
		least = 100
		for _, sub := range []string{"checkstyle-xml", "checkstyle-sarif"} {
			matches, _ := filepath.Glob(filepath.Join(dir, sub, "*"))
			paths = append(paths, matches...)
		}
	}
	n := 0
	for _, p := range paths {
		var findings []reports.Finding
		inputs, err := ReadAll([]string{p}, ReadOptions{}, func(f reports.Finding) error {
			findings = append(findings, f)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range findings {
			if f.Tool != "Checkstyle" || checkstyleCategory(f.Rule) == "" {
				continue // ESLint's Checkstyle XML; results of no rule
			}
			n++
			if !strings.HasPrefix(f.HelpURI, "https://checkstyle.org/") {
				t.Errorf("%s: %s has help URI %q", filepath.Base(p), f.Rule, f.HelpURI)
			}
			rule := reports.RuleOf(inputs, &f)
			_, known := checkstyleChecks[checkstyleRuleName(f.Rule)]
			if rule == nil || known && (rule.Short == "" || rule.Short == f.RuleName) || rule.HelpURI == "" {
				t.Errorf("%s: %s has rule %+v", filepath.Base(p), f.Rule, rule)
			}
		}
	}
	if n < least {
		t.Errorf("only %d Checkstyle findings looked at, want %d or more", n, least)
	}
}
