package parsers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/recap-dev/recap/reports"
)

// TestCodeClimateReports reads the Code Quality reports two real linters
// wrote (testdata/codeclimate/README.md): the counts, the severities by
// Code Climate's names, positions and lines, a check without a name, and
// absolute paths placed in the repository.
func TestCodeClimateReports(t *testing.T) {
	for _, tc := range []struct {
		file, root string
		findings   int
		bySeverity map[reports.Severity]int
		some       []reports.Finding // compared without ids and fingerprints
	}{
		{"eslint-9.39.5.json", "/builds/acme/web", 14, map[reports.Severity]int{reports.SeverityError: 1, reports.SeverityWarning: 10, reports.SeverityNote: 3},
			[]reports.Finding{
				{Tool: "ESLint", Rule: "no-unused-vars", Category: reports.CategoryErrorProne, ToolCategory: "Bug Risk", Severity: reports.SeverityWarning,
					Message: "'unused' is assigned a value but never used.", Path: "src/cart.js", Line: 3, EndLine: 3, Column: 5},
				{Tool: "ESLint", Rule: "", Category: reports.CategoryCodeStyle, ToolCategory: "Style", Severity: reports.SeverityError,
					Message: "Parsing error: Identifier 't' has already been declared", Path: "src/order.js", Line: 6, EndLine: 6, Column: 9},
			}},
		{"stylelint-16.26.1.json", "/builds/acme/web", 7, map[reports.Severity]int{reports.SeverityWarning: 7},
			[]reports.Finding{
				{Tool: "Code Quality", Rule: "length-zero-no-unit", Category: reports.CategoryOther, Severity: reports.SeverityWarning,
					Message: "Unexpected unit (length-zero-no-unit) [maybe fixable] - https://stylelint.io/user-guide/rules/length-zero-no-unit",
					Path:    "styles/site.css", Line: 2, EndLine: 2, Column: 24},
			}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "codeclimate", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if f, ok := Detect(b); f != FormatCodeClimate || !ok {
				t.Fatalf("detected as %q, %v", f, ok)
			}
			got, in := ParseAll(strings.NewReader(string(b)), tc.file, ReadOptions{Root: tc.root})
			if in.Error != "" || in.Format != "codeclimate" || in.Findings != tc.findings || len(got) != tc.findings {
				t.Fatalf("input %+v, %d findings; want %d", in, len(got), tc.findings)
			}
			sev := map[reports.Severity]int{}
			fps := map[string]bool{}
			for _, f := range got {
				sev[f.Severity]++
				fps[f.Fingerprint] = true
			}
			if diff := cmp.Diff(tc.bySeverity, sev); diff != "" {
				t.Errorf("severities (-want +got):\n%s", diff)
			}
			if len(fps) != tc.findings {
				t.Errorf("%d distinct fingerprints of %d findings", len(fps), tc.findings)
			}
			for _, want := range tc.some {
				found := false
				for _, f := range got {
					if f.Rule == want.Rule && f.Line == want.Line && f.Column == want.Column {
						found = true
						if diff := cmp.Diff(want, f, cmpopts.IgnoreFields(reports.Finding{}, "ID", "Fingerprint", "Quality", "Impact")); diff != "" {
							t.Errorf("finding (-want +got):\n%s", diff)
						}
					}
				}
				if !found {
					t.Errorf("no finding of %s at line %d", want.Rule, want.Line)
				}
			}
		})
	}
}

// TestCodeClimateIssues: the members recap reads, those it skips, and
// what it makes of odd values and of bad input, with the place named.
func TestCodeClimateIssues(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []reports.Finding
		err      string
	}{
		{"recap's own", `[{"type":"issue","check_name":"PMD/SystemPrintln","description":"Usage of System.out/err in @param #12 !3 www.x.org https://x","severity":"critical","fingerprint":"5d41402abc4b2a76b9719d911017c592","location":{"path":"src/A.java","lines":{"begin":15,"end":17}},"engine_name":"PMD"}]`,
			[]reports.Finding{{Tool: "PMD", Rule: "SystemPrintln", Category: reports.CategoryOther, Severity: reports.SeverityError,
				Message: "Usage of System.out/err in @param #12 !3 www.x.org https://x", Path: "src/A.java", Line: 15, EndLine: 17}}, ""},
		{"severities", `[{"severity":"info","location":{"path":"a"}},{"severity":"MINOR","location":{"path":"a"}},{"severity":"major","location":{"path":"a"}},{"severity":"blocker","location":{"path":"a"}},{"severity":"odd","location":{"path":"a"}}]`,
			[]reports.Finding{
				{Tool: "Code Quality", Category: reports.CategoryOther, Severity: reports.SeverityNote, Message: "(no description)", Path: "a"},
				{Tool: "Code Quality", Category: reports.CategoryOther, Severity: reports.SeverityNote, Message: "(no description)", Path: "a"},
				{Tool: "Code Quality", Category: reports.CategoryOther, Severity: reports.SeverityWarning, Message: "(no description)", Path: "a"},
				{Tool: "Code Quality", Category: reports.CategoryOther, Severity: reports.SeverityError, Message: "(no description)", Path: "a"},
				{Tool: "Code Quality", Category: reports.CategoryOther, Severity: reports.SeverityWarning, Message: "(no description)", Path: "a"},
			}, ""},
		{"not an issue", `[{"type":"measurement","name":"x","value":3},{"type":"Issue","check_name":"r","location":{"path":"b","positions":{"begin":{"line":4,"column":2},"end":{"line":9}}}}]`,
			[]reports.Finding{{Tool: "Code Quality", Rule: "r", Category: reports.CategoryOther, Severity: reports.SeverityWarning, Message: "r", Path: "b", Line: 4, EndLine: 9, Column: 2}}, ""},
		{"emoji joiner kept", `[{"description":"family 👨` + "\u200d" + `👩 and @` + "\u200d" + `param","location":{"path":"c"}}]`,
			[]reports.Finding{{Tool: "Code Quality", Category: reports.CategoryOther, Severity: reports.SeverityWarning, Message: "family 👨\u200d👩 and @param", Path: "c"}}, ""},
		{"empty array", `[]`, nil, ""},
		{"an object", `{"runs":[]}`, nil, "bad.json: $: line 1, column 1: want a JSON array of Code Quality issues, got an object"},
		{"a number in the array", `[{"location":{"path":"a"}}, 3]`, nil, "bad.json: $[1]: line 1, column 29: want a Code Quality issue (an object), got a number"},
		{"truncated", `[{"location":{"path":"a"`, nil, "bad.json: $[0]: line 1, column 25: unexpected end of input"},
		{"a line that is text", `[{"location":{"path":"a","lines":{"begin":"x"}}}]`, nil, "bad.json: $[0].location.lines.begin: line 1, column 43: want a number, got a string; 1 issue left out"},
		{"more after the array", `[] {}`, nil, "bad.json: $: line 1, column 4: more JSON after the array of issues"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, in := ParseAll(strings.NewReader(tc.in), "bad.json", ReadOptions{Format: FormatCodeClimate})
			if in.Error != tc.err {
				t.Fatalf("error %q, want %q", in.Error, tc.err)
			}
			if tc.err != "" {
				return
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.IgnoreFields(reports.Finding{}, "ID", "Fingerprint", "Quality", "Impact"), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCodeClimateRecapFingerprints: an issue as recap's Code Quality
// report writes it gives back the finding's own fingerprint (its identity
// and occurrence, whatever copy of it the report numbered); another
// tool's 32 hex digits, or recap's form without recap's engine and check
// name, are a fingerprint to hash, as any tool's.
func TestCodeClimateRecapFingerprints(t *testing.T) {
	issue := func(check, engine, fp string) string {
		return `{"type":"issue","check_name":"` + check + `","description":"d","severity":"minor","fingerprint":"` + fp +
			`","location":{"path":"src/A.java","lines":{"begin":3}},"engine_name":"` + engine + `"}`
	}
	tests := []struct {
		name, in string
		want     []string // the findings' fingerprints; "" for a hashed one
	}{
		{"recap's", issue("PMD/SystemPrintln", "PMD", "7b473f4670c920200000000000000001"), []string{"7b473f4670c92020"}},
		{"an occurrence and a copy", issue("PMD/SystemPrintln", "PMD", "7b473f4670c92020000000000000000c") + "," +
			issue("PMD/SystemPrintln", "PMD", "7b473f4670c92020000000010000000c"), []string{"7b473f4670c92020:12", "7b473f4670c92020:12"}},
		{"an MD5", issue("PMD/SystemPrintln", "PMD", "5d41402abc4b2a76b9719d911017c592"), []string{""}},
		{"no engine", issue("PMD/SystemPrintln", "", "7b473f4670c920200000000000000001"), []string{""}},
		{"another engine", issue("PMD/SystemPrintln", "eslint", "7b473f4670c920200000000000000001"), []string{""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			findings, in := parseString(t, FormatCodeClimate, t.TempDir(), "["+tc.in+"]")
			if in.Error != "" || len(findings) != len(tc.want) {
				t.Fatalf("%d findings, error %q", len(findings), in.Error)
			}
			for i, f := range findings {
				if w := tc.want[i]; w != "" && f.Fingerprint != w || w == "" && strings.HasPrefix(f.Fingerprint, "7b473f4670c92020") {
					t.Errorf("finding %d: fingerprint %q, want %q", i, f.Fingerprint, w)
				}
			}
		})
	}
}
