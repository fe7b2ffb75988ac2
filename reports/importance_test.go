package reports

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAssess(t *testing.T) {
	tests := []struct {
		name    string
		s       Signals
		quality Quality
		impact  Impact
	}{
		// SpotBugs: the rank, the category, security as SpotBugs files it.
		{"SpotBugs SQL injection, rank 10, a Top 25 CWE", Signals{Tool: "SpotBugs", Rule: "SQL_NONCONSTANT_STRING_PASSED_TO_EXECUTE",
			Category: CategorySecurity, ToolCategory: "SECURITY", Rank: 10, Priority: 2, CWE: []int{89}, Level: SeverityNote}, QualitySecurity, ImpactHigh},
		{"find-sec-bugs, rank 15", Signals{Tool: "SpotBugs", Rule: "PREDICTABLE_RANDOM", Category: CategorySecurity, ToolCategory: "SECURITY",
			Rank: 15, CWE: []int{330}}, QualitySecurity, ImpactLow},
		{"SpotBugs correctness, rank 3", Signals{Tool: "SpotBugs", Rule: "NP_ALWAYS_NULL", Category: CategoryErrorProne, ToolCategory: "CORRECTNESS",
			Rank: 3, CWE: []int{476}}, QualityReliability, ImpactBlocker},
		{"SpotBugs == on strings, rank 5", Signals{Tool: "SpotBugs", Rule: "ES_COMPARING_PARAMETER_STRING_WITH_EQ", Category: CategoryBestPractices,
			ToolCategory: "BAD_PRACTICE", Rank: 5}, QualityReliability, ImpactHigh},
		{"a dead store's CWE is no security", Signals{Tool: "SpotBugs", Rule: "DLS_DEAD_LOCAL_STORE", Category: CategoryErrorProne,
			ToolCategory: "STYLE", Rank: 15, CWE: []int{563}}, QualityReliability, ImpactLow},
		{"EI_EXPOSE_REP is no security", Signals{Tool: "SpotBugs", Rule: "EI_EXPOSE_REP", Category: CategoryDesign, ToolCategory: "MALICIOUS_CODE",
			Rank: 18}, QualityMaintainability, ImpactLow},
		{"SpotBugs naming", Signals{Tool: "SpotBugs", Rule: "NM_METHOD_NAMING_CONVENTION", Category: CategoryBestPractices,
			ToolCategory: "BAD_PRACTICE", Rank: 19}, QualityMaintainability, ImpactLow},
		{"FindBugs without a rank", Signals{Tool: "FindBugs", Rule: "NP_X", Category: CategoryErrorProne, ToolCategory: "CORRECTNESS",
			Priority: 1}, QualityReliability, ImpactHigh},
		{"SpotBugs performance, rank 4, capped", Signals{Tool: "SpotBugs", Rule: "SBSC", Category: CategoryPerformance, ToolCategory: "PERFORMANCE",
			Rank: 4}, QualityMaintainability, ImpactMedium},
		// PMD: the priority, the category.
		{"PMD security", Signals{Tool: "PMD", Rule: "HardCodedCryptoKey", Category: CategorySecurity, ToolCategory: "Security", Priority: 3},
			QualitySecurity, ImpactMedium},
		{"PMD error prone, priority 1", Signals{Tool: "PMD", Rule: "EmptyCatchBlock", Category: CategoryErrorProne, Priority: 1},
			QualityReliability, ImpactBlocker},
		{"PMD best practices, priority 2, capped", Signals{Tool: "PMD", Rule: "SystemPrintln", Category: CategoryBestPractices, Priority: 2,
			Level: SeverityError}, QualityMaintainability, ImpactMedium},
		{"PMD code style, capped low", Signals{Tool: "PMD", Rule: "MethodArgumentCouldBeFinal", Category: CategoryCodeStyle, Priority: 3},
			QualityMaintainability, ImpactLow},
		{"PMD documentation, priority 5", Signals{Tool: "PMD", Rule: "CommentSize", Category: CategoryDocumentation, Priority: 5},
			QualityMaintainability, ImpactInfo},
		// Checkstyle: the check, whatever severity the configuration wrote.
		{"Checkstyle nit as an error", Signals{Tool: "Checkstyle", Rule: "com.puppycrawl.tools.checkstyle.checks.FinalParametersCheck",
			Category: CategoryCodeStyle, ToolCategory: "misc", Level: SeverityError}, QualityMaintainability, ImpactLow},
		{"Checkstyle Javadoc as an error", Signals{Tool: "Checkstyle", Rule: "com.puppycrawl.tools.checkstyle.checks.javadoc.MissingJavadocMethodCheck",
			Category: CategoryDocumentation, ToolCategory: "javadoc", Level: SeverityError}, QualityMaintainability, ImpactLow},
		{"Checkstyle MagicNumber (coding) is no bug", Signals{Tool: "Checkstyle", Rule: "com.puppycrawl.tools.checkstyle.checks.coding.MagicNumberCheck",
			Category: CategoryErrorProne, ToolCategory: "coding", Level: SeverityError}, QualityMaintainability, ImpactLow},
		{"Checkstyle EqualsHashCode", Signals{Tool: "Checkstyle", Rule: "com.puppycrawl.tools.checkstyle.checks.coding.EqualsHashCodeCheck",
			Category: CategoryErrorProne, ToolCategory: "coding", Level: SeverityNote}, QualityReliability, ImpactMedium},
		{"Checkstyle by its SARIF short id", Signals{Tool: "Checkstyle", Rule: "MissingSwitchDefault", Level: SeverityWarning},
			QualityReliability, ImpactMedium},
		// SARIF of other tools.
		{"security-severity 9.8", Signals{Tool: "Trivy", SecuritySeverity: 9.8, Level: SeverityError}, QualitySecurity, ImpactBlocker},
		{"security-severity 7.5", Signals{Tool: "CodeQL", SecuritySeverity: 7.5, CWE: []int{22}, Level: SeverityError}, QualitySecurity, ImpactHigh},
		{"security-severity 5.3", Signals{Tool: "Semgrep OSS", SecuritySeverity: 5.3}, QualitySecurity, ImpactMedium},
		{"security-severity 2.0 with a Top 25 CWE: the tool's word, no floor", Signals{Tool: "X", SecuritySeverity: 2.0, CWE: []int{79}}, QualitySecurity, ImpactLow},
		{"Semgrep's security-severity MEDIUM (read as 4.0) with CWE-89", Signals{Tool: "Semgrep OSS", SecuritySeverity: 4.0, CWE: []int{89},
			Tags: []string{"CWE-89: Improper Neutralization", "security"}, Level: SeverityError}, QualitySecurity, ImpactMedium},
		{"a CVE of 9.8", Signals{Tool: "Grype", SecuritySeverity: 9.8, Level: SeverityError}, QualitySecurity, ImpactBlocker},
		// The tool's severity words.
		{"Trivy's MEDIUM tag, no score", Signals{Tool: "Trivy", Tags: []string{"vulnerability", "MEDIUM", "openssl"}, Level: SeverityWarning, CWE: []int{79}},
			QualitySecurity, ImpactMedium},
		{"gosec's MEDIUM tag, written as an error", Signals{Tool: "gosec", Rule: "G201", Tags: []string{"security", "MEDIUM"}, CWE: []int{89},
			Level: SeverityError}, QualitySecurity, ImpactMedium},
		{"gosec's HIGH tag", Signals{Tool: "gosec", Rule: "G101", Tags: []string{"security", "HIGH"}, CWE: []int{798}, Level: SeverityError},
			QualitySecurity, ImpactHigh},
		{"dependency-check's CVSS v2 severity LOW, written as a warning", Signals{Tool: "dependency-check", ToolSeverity: ImpactLow,
			Level: SeverityWarning, CWE: []int{20}}, QualitySecurity, ImpactLow},
		{"a severity word CRITICAL of a linter, capped", Signals{Tool: "X", ToolSeverity: ImpactBlocker, Level: SeverityWarning}, QualityMaintainability, ImpactMedium},
		{"a severity word CRITICAL of a security tool", Signals{Tool: "Grype", ToolSeverity: ImpactBlocker, Level: SeverityError}, QualitySecurity, ImpactBlocker},
		{"Flawfinder risk 0–2 (note) with CWE-119", Signals{Tool: "Flawfinder", Rule: "FF1013", CWE: []int{119, 120}, Level: SeverityNote},
			QualitySecurity, ImpactLow},
		{"Flawfinder risk 3 (warning)", Signals{Tool: "Flawfinder", Rule: "FF1031", CWE: []int{78}, Level: SeverityWarning}, QualitySecurity, ImpactMedium},
		{"Flawfinder risk 4–5 (error)", Signals{Tool: "Flawfinder", Rule: "FF1014", CWE: []int{120, 20}, Level: SeverityError}, QualitySecurity, ImpactHigh},
		// Secrets.
		{"gitleaks: an AWS key, no level", Signals{Tool: "gitleaks", Rule: "aws-access-token", Level: SeverityWarning}, QualitySecurity, ImpactHigh},
		{"TruffleHog: a private key", Signals{Tool: "TruffleHog", Rule: "PrivateKey", Level: SeverityNote}, QualitySecurity, ImpactHigh},
		{"a secret scanner's own LOW", Signals{Tool: "gitleaks", Rule: "generic", Tags: []string{"LOW"}}, QualitySecurity, ImpactLow},
		// mobsfscan: a level only, a Top 25 CWE read from properties.cwe.
		{"mobsfscan's SQL injection, a warning", Signals{Tool: "mobsfscan", Rule: "sqlite_injection", CWE: []int{89}, Level: SeverityWarning},
			QualitySecurity, ImpactHigh},
		{"security-severity 0.5", Signals{Tool: "X", SecuritySeverity: 0.5}, QualitySecurity, ImpactLow},
		{"Semgrep: security as the fourth tag", Signals{Tool: "Semgrep OSS", Tags: []string{"CWE-943", "OWASP-A01", "mongodb", "security"},
			Level: SeverityWarning}, QualitySecurity, ImpactMedium},
		{"Snyk Code: categories", Signals{Tool: "SnykCode", Tags: []string{"javascript", "Security"}, Level: SeverityError, CWE: []int{79}},
			QualitySecurity, ImpactHigh},
		{"gosec: a security tool", Signals{Tool: "gosec", Rule: "G304", Level: SeverityWarning}, QualitySecurity, ImpactMedium},
		{"gitleaks: a security tool", Signals{Tool: "gitleaks", Rule: "aws-access-token", Level: SeverityError}, QualitySecurity, ImpactHigh},
		{"dependency-check", Signals{Tool: "dependency-check", Level: SeverityNote}, QualitySecurity, ImpactLow},
		{"CodeQL reliability tag", Signals{Tool: "CodeQL", Tags: []string{"reliability", "correctness", "maintainability"}, Level: SeverityWarning},
			QualityReliability, ImpactMedium},
		{"CodeQL maintainability tag, an error, capped", Signals{Tool: "CodeQL", Tags: []string{"maintainability", "useless-code"},
			Level: SeverityError}, QualityMaintainability, ImpactMedium},
		{"ESLint style", Signals{Tool: "ESLint", Category: CategoryCodeStyle, ToolCategory: "Stylistic Issues", Level: SeverityError},
			QualityMaintainability, ImpactLow},
		{"ESLint possible error", Signals{Tool: "ESLint", Category: CategoryErrorProne, Level: SeverityError}, QualityReliability, ImpactHigh},
		// ESLint: the rule's type and ESLint's recommended rules, whatever
		// the configured severity.
		{"ESLint no-undef as a warning", Signals{Tool: "ESLint", Rule: "no-undef", Level: SeverityWarning}, QualityReliability, ImpactHigh},
		{"ESLint no-unreachable", Signals{Tool: "ESLint", Rule: "no-unreachable", Level: SeverityWarning}, QualityReliability, ImpactHigh},
		{"ESLint no-await-in-loop (a problem, not recommended)", Signals{Tool: "ESLint", Rule: "no-await-in-loop", Level: SeverityError},
			QualityReliability, ImpactMedium},
		{"ESLint no-var as an error", Signals{Tool: "ESLint", Rule: "no-var", Level: SeverityError}, QualityMaintainability, ImpactLow},
		{"ESLint no-empty (a recommended suggestion)", Signals{Tool: "ESLint", Rule: "no-empty", Level: SeverityError}, QualityMaintainability, ImpactMedium},
		{"ESLint indent (layout)", Signals{Tool: "ESLint", Rule: "indent", Level: SeverityError}, QualityMaintainability, ImpactLow},
		{"ESLint @stylistic/semi", Signals{Tool: "ESLint", Rule: "@stylistic/semi", Level: SeverityError}, QualityMaintainability, ImpactLow},
		{"ESLint @typescript-eslint/no-unused-vars", Signals{Tool: "ESLint", Rule: "@typescript-eslint/no-unused-vars", Level: SeverityError},
			QualityReliability, ImpactHigh},
		{"ESLint plugin rule of type problem", Signals{Tool: "ESLint", Rule: "react/no-direct-mutation-state", ToolCategory: "problem",
			Level: SeverityWarning}, QualityReliability, ImpactMedium},
		{"ESLint plugin rule of layout type (a tag)", Signals{Tool: "ESLint", Rule: "x/y", Tags: []string{"layout"}, Level: SeverityError},
			QualityMaintainability, ImpactLow},
		{"a CWE alone is no security", Signals{Tool: "CodeQL", CWE: []int{563}, Level: SeverityNote}, QualityMaintainability, ImpactLow},
		{"nothing said", Signals{Tool: "X"}, QualityMaintainability, ImpactMedium},
		// Code Climate.
		{"Code Climate critical security", Signals{Tool: "Code Quality", Category: CategorySecurity, ClimateSeverity: "critical"},
			QualitySecurity, ImpactHigh},
		{"Code Climate bug risk, minor", Signals{Tool: "eslint", Category: CategoryErrorProne, ToolCategory: "Bug Risk", ClimateSeverity: "minor"},
			QualityReliability, ImpactLow},
		{"Code Climate style, blocker, capped", Signals{Tool: "rubocop", Category: CategoryCodeStyle, ClimateSeverity: "blocker"},
			QualityMaintainability, ImpactLow},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, i := Assess(&tc.s)
			if q != tc.quality || i != tc.impact {
				t.Errorf("Assess = %s, %s; want %s, %s", q, i, tc.quality, tc.impact)
			}
		})
	}
}

// TestImportanceDocumented: docs/formats.md shows ImportanceRows row for row.
func TestImportanceDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/formats.md")
	if err != nil {
		t.Skipf("no docs: %v", err)
	}
	section := string(doc)
	start := strings.Index(section, "\n## Importance")
	if start < 0 {
		t.Fatal("docs/formats.md has no Importance section")
	}
	section = section[start+1:]
	if end := strings.Index(section, "\n## "); end > 0 {
		section = section[:end]
	}
	var got []ImportanceRow
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) == 4 && cells[0] != "tool" && !strings.HasPrefix(cells[0], "---") {
			got = append(got, ImportanceRow{Tool: cells[0], Says: cells[1], Quality: cells[2], Impact: cells[3]})
		}
	}
	want := ImportanceRows()
	for i := range want {
		// the docs write an empty cell as "": a table cell must not be empty
		for _, c := range []*string{&want[i].Quality, &want[i].Impact} {
			if *c == "" {
				*c = "·"
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("docs/formats.md's importance table differs from ImportanceRows (-code +docs):\n%s\nthe rows as the code has them:\n%s", diff, importanceMarkdown(want))
	}
}

func importanceMarkdown(rows []ImportanceRow) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString("| " + r.Tool + " | " + r.Says + " | " + r.Quality + " | " + r.Impact + " |\n")
	}
	return b.String()
}

func TestShortRule(t *testing.T) {
	for _, tc := range []struct{ tool, rule, want string }{
		{"Checkstyle", "com.puppycrawl.tools.checkstyle.checks.naming.FinalParametersCheck", "FinalParameters"},
		{"checkstyle", "com.puppycrawl.tools.checkstyle.checks.FinalParametersCheck#myid", "FinalParameters"},
		{"Checkstyle", "FinalParameters", "FinalParameters"},
		{"PMD", "a.b.CCheck", "a.b.CCheck"},
	} {
		if got := ShortRule(tc.tool, tc.rule); got != tc.want {
			t.Errorf("ShortRule(%q, %q) = %q, want %q", tc.tool, tc.rule, got, tc.want)
		}
	}
}

func TestOrders(t *testing.T) {
	sqli := Finding{ID: ID("a", 1), Tool: "SpotBugs", Rule: "SQL", Path: "z.java", Line: 9, Impact: ImpactHigh, Quality: QualitySecurity, Severity: SeverityNote}
	eq := Finding{ID: ID("a", 2), Tool: "SpotBugs", Rule: "ES", Path: "a.java", Line: 5, Impact: ImpactHigh, Quality: QualityReliability, Severity: SeverityWarning}
	nit := Finding{ID: ID("b", 1), Tool: "Checkstyle", Rule: "FinalParameters", Path: "a.java", Line: 1, Impact: ImpactLow, Quality: QualityMaintainability,
		Severity: SeverityError, Category: CategoryCodeStyle}
	for _, tc := range []struct {
		o    Order
		want []string
	}{
		{OrderImportance, []string{"a-1", "a-2", "b-1"}},
		{OrderSeverity, []string{"b-1", "a-2", "a-1"}},
		{OrderLocation, []string{"b-1", "a-2", "a-1"}},
	} {
		fs := []Finding{nit, eq, sqli}
		for i := range fs {
			for j := i + 1; j < len(fs); j++ {
				if tc.o.Less(&fs[j], &fs[i]) {
					fs[i], fs[j] = fs[j], fs[i]
				}
			}
		}
		var got []string
		for _, f := range fs {
			got = append(got, f.ID.String())
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.o, diff)
		}
	}
	if _, err := ParseOrder("locaton"); err == nil || !strings.Contains(err.Error(), "location") {
		t.Errorf("ParseOrder(locaton) = %v", err)
	}
}

// TestOrderSecuritySeverity: within one impact, the higher security
// severity comes first (a Grype CVE at 9.8 before Semgrep findings at 9.0,
// whatever their paths), and before a security finding without one.
func TestOrderSecuritySeverity(t *testing.T) {
	semgrep := Finding{ID: ID("a", 1), Tool: "Semgrep OSS", Rule: "sqli", Path: "a.py", Line: 1, Impact: ImpactBlocker, Quality: QualitySecurity,
		Severity: SeverityError, SecuritySeverity: 9.0}
	grype := Finding{ID: ID("b", 1), Tool: "Grype", Rule: "CVE-2021-44228", Path: "z/pom.xml", Line: 1, Impact: ImpactBlocker, Quality: QualitySecurity,
		Severity: SeverityError, SecuritySeverity: 9.8}
	secret := Finding{ID: ID("c", 1), Tool: "gitleaks", Rule: "aws", Path: "0.env", Line: 1, Impact: ImpactBlocker, Quality: QualitySecurity,
		Severity: SeverityError}
	for _, tc := range []struct {
		name string
		a, b *Finding
	}{{"9.8 before 9.0", &grype, &semgrep}, {"9.0 before none", &semgrep, &secret}} {
		if !Less(tc.a, tc.b) || Less(tc.b, tc.a) {
			t.Errorf("%s: %s is not before %s", tc.name, tc.a.ID, tc.b.ID)
		}
		ka, kb := KeyOf(tc.a), KeyOf(tc.b)
		if !ka.Less(&kb) {
			t.Errorf("%s: the sort keys disagree", tc.name)
		}
	}
}

// BenchmarkAssess: Assess runs once per finding of the XML readers; it
// allocates nothing.
func BenchmarkAssess(b *testing.B) {
	for _, s := range []Signals{
		{Tool: "PMD", Rule: "MethodArgumentCouldBeFinal", Category: CategoryCodeStyle, Priority: 3, Level: SeverityWarning},
		{Tool: "ESLint", Rule: "no-undef", Level: SeverityError},
		{Tool: "gitleaks", Rule: "aws-access-token", Level: SeverityWarning, CWE: []int{798}},
	} {
		b.Run(s.Tool, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Assess(&s)
			}
		})
	}
}
