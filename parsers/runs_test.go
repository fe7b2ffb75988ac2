package parsers_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/hostile"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

// TestSameRunTwoFormats: PMD's XML and SARIF of one run (the sample's, made
// by PMD 7.28.0) are read once, whichever comes first, the kept one naming
// the other; the same tool's reports that differ in a finding or in the
// version, or are in one format, are each read.
func TestSameRunTwoFormats(t *testing.T) {
	root := reportstest.RepoRoot(t)
	sarif, err := os.ReadFile(filepath.Join(root, "testdata", "reports", "pmd.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	xml, err := os.ReadFile(filepath.Join(root, "testdata", "pmd-xml", "pmd.xml"))
	if err != nil {
		t.Fatal(err)
	}
	checkstyle, err := os.ReadFile(filepath.Join(root, "testdata", "reports", "checkstyle.xml"))
	if err != nil {
		t.Fatal(err)
	}
	firstViolation := regexp.MustCompile(`(?s)<violation .*?</violation>\s*`)
	otherVersion := strings.Replace(string(xml), `version="7.28.0"`, `version="7.27.0"`, 1)
	oneLess := firstViolation.ReplaceAllStringFunc(string(xml), func() func(string) string {
		done := false
		return func(v string) string {
			if done {
				return v
			}
			done = true
			return ""
		}
	}())
	// The same findings in other bytes: another timestamp.
	otherTime := regexp.MustCompile(`timestamp="[^"]*"`).ReplaceAllString(string(xml), `timestamp="2026-11-27T01:02:03.000"`)
	pmd := tooltest.SamplePMD
	cs := tooltest.SampleCheckstyle

	otherMessage := strings.Replace(string(xml), "Field 'customer' may be declared final", "Field 'secretKey' may be declared final", 1)
	otherPriority := strings.Replace(string(xml), `variable="customer" externalInfoUrl="https://docs.pmd-code.org/snapshot/pmd_rules_java_design.html#immutablefield" priority="3"`,
		`variable="customer" externalInfoUrl="https://docs.pmd-code.org/snapshot/pmd_rules_java_design.html#immutablefield" priority="1"`, 1)
	if otherMessage == string(xml) || otherPriority == string(xml) {
		t.Fatal("testdata/pmd-xml/pmd.xml: no violation to change")
	}
	// Two runs of one tool on the same files are both read, the later
	// input naming the earlier.
	twice := func(other string) []string {
		return []string{other + " is a report of PMD on the same files too (4 files in common): both are read, and a finding both give counts twice; if one is an older run, give the newer alone"}
	}
	apart := "pmd/main.xml holds the same 84 findings of PMD 7.28.0 in PMD XML, but lies in another directory: both counted (one run's formats lie side by side)"

	tests := []struct {
		name   string
		files  map[string]string // name → content
		args   []string          // in this order
		want   int               // findings
		inputs int
		notes  []string // on the inputs, in order
	}{
		{"sarif then xml", map[string]string{"pmd.sarif": string(sarif), "pmd.xml": string(xml)},
			[]string{"pmd.sarif", "pmd.xml"}, pmd, 1, []string{"pmd.xml is the same PMD 7.28.0 run in PMD XML (84 findings alike): counted once"}},
		{"xml then sarif", map[string]string{"pmd.sarif": string(sarif), "pmd.xml": string(xml)},
			[]string{"pmd.xml", "pmd.sarif"}, pmd, 1, []string{"pmd.sarif is the same PMD 7.28.0 run in SARIF 2.1.0 (84 findings alike): counted once"}},
		{"a directory", map[string]string{"build/pmd.sarif": string(sarif), "build/pmd.xml": string(xml), "build/checkstyle.xml": string(checkstyle)},
			[]string{"build"}, pmd + cs, 2, []string{"build/pmd.xml is the same PMD 7.28.0 run in PMD XML (84 findings alike): counted once"}},
		{"apart", map[string]string{"build/pmd.sarif": string(sarif), "build/pmd/main.xml": string(xml)},
			[]string{"build"}, 2 * pmd, 2, []string{"build/" + apart, "build/pmd.sarif holds the same 84 findings of PMD 7.28.0 in SARIF 2.1.0, but lies in another directory: both counted (one run's formats lie side by side)"}},
		{"another version", map[string]string{"pmd.sarif": string(sarif), "pmd.xml": otherVersion},
			[]string{"pmd.sarif", "pmd.xml"}, 2 * pmd, 2,
			[]string{"pmd.sarif is a report of PMD on the same files too (4 files in common): both are read, and a finding both give counts twice; if one is an older run (7.28.0 there, 7.27.0 here), give the newer alone"}},
		{"a finding less", map[string]string{"pmd.sarif": string(sarif), "pmd.xml": oneLess},
			[]string{"pmd.sarif", "pmd.xml"}, 2*pmd - 1, 2, twice("pmd.sarif")},
		{"another message", map[string]string{"pmd.sarif": string(sarif), "pmd.xml": otherMessage},
			[]string{"pmd.sarif", "pmd.xml"}, 2 * pmd, 2, twice("pmd.sarif")},
		{"another priority", map[string]string{"pmd.sarif": string(sarif), "pmd.xml": otherPriority},
			[]string{"pmd.sarif", "pmd.xml"}, 2 * pmd, 2, twice("pmd.sarif")},
		{"one format, two runs", map[string]string{"a/pmd.xml": string(xml), "b/pmd.xml": otherTime},
			[]string{"a/pmd.xml", "b/pmd.xml"}, 2 * pmd, 2, twice("a/pmd.xml")},
		{"other tools", map[string]string{"pmd.sarif": string(sarif), "checkstyle.xml": string(checkstyle)},
			[]string{"pmd.sarif", "checkstyle.xml"}, pmd + cs, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tt.files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var args []string
			for _, a := range tt.args {
				args = append(args, filepath.Join(dir, filepath.FromSlash(a)))
			}
			// The sample's reports were made in a checkout of it: placed
			// under it, their paths are the same.
			n := 0
			inputs, err := parsers.ReadAll(args, parsers.ReadOptions{Root: filepath.Join(root, "testdata", "sample")}, func(reports.Finding) error { n++; return nil })
			if err != nil {
				t.Fatal(err)
			}
			if n != tt.want || len(inputs) != tt.inputs {
				t.Errorf("%d findings from %d inputs, want %d from %d", n, len(inputs), tt.want, tt.inputs)
			}
			if diff := cmp.Diff(tt.notes, sameNotes(inputs, dir)); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
		})
	}
}

// sameNotes are the inputs' warnings about runs and copies, with dir
// taken out of the names.
func sameNotes(inputs []reports.Input, dir string) []string {
	var notes []string
	for _, in := range inputs {
		for _, w := range in.Warnings {
			if strings.Contains(w, "same") {
				notes = append(notes, strings.ReplaceAll(w, dir+string(filepath.Separator), ""))
			}
		}
	}
	return notes
}

// TestSameRunESLint: ESLint's SARIF, Checkstyle XML and GitLab Code Quality
// of one run (made by the real ESLint on testdata/eslint) count once, the
// kept one naming the two others; no format's own version is taken for
// ESLint's (its Checkstyle XML says 4.3); the reports of two runs, one
// finding fixed between them, are both counted, whatever their formats.
func TestSameRunESLint(t *testing.T) {
	dir := t.TempDir()
	tooltest.CopyESLintSample(t, dir)
	tooltest.RunESLint(t, dir, "src", "reports")
	// The second run: util.js's == fixed.
	util := filepath.Join(dir, "src", "util.js")
	b, err := os.ReadFile(util)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(util, []byte(strings.Replace(string(b), "==", "===", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	tooltest.RunESLint(t, dir, "src", "fixed")
	n := tooltest.SampleESLint
	for _, name := range tooltest.ESLintReports {
		for _, run := range []string{"reports", "fixed"} {
			count := 0
			in, _ := parsers.ReadFile(filepath.Join(dir, run, name), "", parsers.ReadOptions{Root: dir}, func(reports.Finding) error { count++; return nil })
			want := n
			if run == "fixed" {
				want = n - 1
			}
			if in.Tool != "ESLint" || in.Error != "" || count != want || (in.Format != "sarif" && in.ToolVersion != "") {
				t.Errorf("%s/%s: %d findings of %s %q (%s), want %d of ESLint, no version but SARIF's", run, name, count, in.Tool, in.ToolVersion, in.Error, want)
			}
		}
	}
	mixed := filepath.Join(dir, "mixed")
	if err := os.Mkdir(mixed, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ from, name string }{{"reports", tooltest.ESLintReports[0]}, {"fixed", tooltest.ESLintReports[1]}, {"fixed", tooltest.ESLintReports[2]}} {
		b, err := os.ReadFile(filepath.Join(dir, f.from, f.name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mixed, f.name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	tests := []struct {
		name   string
		args   []string
		want   int
		inputs int
		notes  []string
	}{
		{"one run in three formats", []string{"reports"}, n, 1, []string{ // the Checkstyle XML first in path order
			"reports/eslint.sarif is the same ESLint 10.15.0 run in SARIF 2.1.0 (8 findings alike): counted once",
			"reports/gl-codequality.json is the same ESLint 10.15.0 run in GitLab Code Quality JSON (8 findings alike): counted once"}},
		{"the same run, its files named", []string{"reports/eslint.sarif", "reports/gl-codequality.json"}, n, 1, []string{
			"reports/gl-codequality.json is the same ESLint 10.15.0 run in GitLab Code Quality JSON (8 findings alike): counted once"}},
		{"two runs", []string{"mixed"}, 2*n - 1, 2, []string{
			"mixed/gl-codequality.json is the same ESLint run in GitLab Code Quality JSON (7 findings alike): counted once",
			"mixed/eslint-checkstyle.xml" + " is a report of ESLint on the same files too (1 file in common): both are read, and a finding both give counts twice; if one is an older run, give the newer alone"}},
		{"two runs, in two directories", []string{"reports", "fixed"}, 2*n - 1, 2, []string{
			"reports/eslint.sarif is the same ESLint 10.15.0 run in SARIF 2.1.0 (8 findings alike): counted once",
			"reports/gl-codequality.json is the same ESLint 10.15.0 run in GitLab Code Quality JSON (8 findings alike): counted once",
			"fixed/eslint.sarif is the same ESLint 10.15.0 run in SARIF 2.1.0 (7 findings alike): counted once",
			"fixed/gl-codequality.json is the same ESLint 10.15.0 run in GitLab Code Quality JSON (7 findings alike): counted once",
			"reports/eslint-checkstyle.xml" + " is a report of ESLint on the same files too (1 file in common): both are read, and a finding both give counts twice; if one is an older run, give the newer alone"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var args []string
			for _, a := range tt.args {
				args = append(args, filepath.Join(dir, a))
			}
			count := 0
			inputs, err := parsers.ReadAll(args, parsers.ReadOptions{Root: dir}, func(reports.Finding) error { count++; return nil })
			if err != nil {
				t.Fatal(err)
			}
			if count != tt.want || len(inputs) != tt.inputs {
				t.Errorf("%d findings from %d inputs, want %d from %d", count, len(inputs), tt.want, tt.inputs)
			}
			if diff := cmp.Diff(tt.notes, sameNotes(inputs, dir)); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSameRunAttacks: reports that another claims to be are kept. Two
// modules' PMD reports with one rule at one base name and line
// (hostile.TwoModules) are two runs; a SARIF log committed elsewhere that
// claims the real report's PMD version, rules, base names and lines
// (hostile.ClaimedRun) leaves the real report whole: its priority-1
// HardCodedCryptoKey is read, an error of high impact or more.
func TestSameRunAttacks(t *testing.T) {
	tests := []struct {
		name  string
		make  func(dir string) error
		args  []string
		want  map[string]int // findings by input
		check func(t *testing.T, found []reports.Finding)
	}{
		{"two modules", hostile.TwoModules, []string{"mod-a/target/pmd.xml", "mod-b/target/pmd.sarif"},
			map[string]int{"mod-a/target/pmd.xml": 1, "mod-b/target/pmd.sarif": 1}, nil},
		{"two modules, searched", hostile.TwoModules, []string{"."},
			map[string]int{"mod-a/target/pmd.xml": 1, "mod-b/target/pmd.sarif": 1}, nil},
		{"a SARIF elsewhere claiming the run", hostile.ClaimedRun, []string{"."},
			map[string]int{"target/pmd.xml": 2, hostile.ClaimedRunSARIF: 2}, func(t *testing.T, found []reports.Finding) {
				for _, f := range found {
					if f.Rule == "HardCodedCryptoKey" && f.Path == "src/main/java/com/example/Crypto.java" {
						if f.Severity != reports.SeverityError || f.Impact < reports.ImpactHigh {
							t.Errorf("the real HardCodedCryptoKey is %s, %s: want an error of high impact or more", f.Severity, f.Impact)
						}
						return
					}
				}
				t.Errorf("the real HardCodedCryptoKey is not read: %+v", found)
			}},
		{"the claiming SARIF named first", hostile.ClaimedRun, []string{hostile.ClaimedRunSARIF, "target/pmd.xml"},
			map[string]int{"target/pmd.xml": 2, hostile.ClaimedRunSARIF: 2}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := tt.make(dir); err != nil {
				t.Fatal(err)
			}
			var args []string
			for _, a := range tt.args {
				args = append(args, filepath.Join(dir, filepath.FromSlash(a)))
			}
			var found []reports.Finding
			inputs, err := parsers.ReadAll(args, parsers.ReadOptions{Root: dir}, func(f reports.Finding) error { found = append(found, f); return nil })
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for _, in := range inputs {
				rel, _ := filepath.Rel(dir, in.Path)
				got[filepath.ToSlash(rel)] = in.Findings
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings by input (-want +got):\n%s", diff)
			}
			if notes := sameNotes(inputs, dir); len(notes) > 0 {
				t.Errorf("notes %q, want none", notes)
			}
			if tt.check != nil {
				tt.check(t, found)
			}
		})
	}
}

// TestSameRunCleanFilesFirst: a Checkstyle XML whose first finding lies
// past the 64 KiB looked at for its tool (a file element for each clean
// file first, as Checkstyle and ESLint write them) is still compared with
// its run's SARIF: Checkstyle's by its own name, ESLint's by the format's
// version 4.3 it writes.
func TestSameRunCleanFilesFirst(t *testing.T) {
	clean := strings.Repeat(`<file name="/ci/src/Clean.java"></file>`, 3000)
	tests := []struct {
		name, xml, sarif string
	}{
		{"Checkstyle", `<?xml version="1.0" encoding="UTF-8"?><checkstyle version="10.12.0">` + clean +
			`<file name="/ci/src/A.java"><error line="3" column="5" severity="warning" message="Line is longer than 100 characters." source="com.puppycrawl.tools.checkstyle.checks.sizes.LineLengthCheck"/></file></checkstyle>`,
			`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Checkstyle","version":"10.12.0","rules":[{"id":"com.puppycrawl.tools.checkstyle.checks.sizes.LineLengthCheck"}]}},` +
				`"results":[{"ruleId":"com.puppycrawl.tools.checkstyle.checks.sizes.LineLengthCheck","level":"warning","message":{"text":"Line is longer than 100 characters."},` +
				`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"file:///ci/src/A.java"},"region":{"startLine":3,"startColumn":5}}}]}]}]}`},
		{"ESLint", `<?xml version="1.0" encoding="utf-8"?><checkstyle version="4.3">` + strings.ReplaceAll(clean, "Clean.java", "clean.js") +
			`<file name="/ci/src/a.js"><error line="1" column="1" severity="error" message="Unexpected var, use let or const instead. (no-var)" source="eslint.rules.no-var" /></file></checkstyle>`,
			`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"ESLint","version":"10.15.0","rules":[{"id":"no-var"}]}},` +
				`"results":[{"ruleId":"no-var","level":"error","message":{"text":"Unexpected var, use let or const instead."},` +
				`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"file:///ci/src/a.js"},"region":{"startLine":1,"startColumn":1}}}]}]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "report.xml"), []byte(tt.xml), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "report.sarif"), []byte(tt.sarif), 0o644); err != nil {
				t.Fatal(err)
			}
			n := 0
			inputs, err := parsers.ReadAll([]string{dir}, parsers.ReadOptions{Root: dir}, func(reports.Finding) error { n++; return nil })
			if err != nil {
				t.Fatal(err)
			}
			if n != 1 || len(inputs) != 1 || len(sameNotes(inputs, dir)) != 1 {
				t.Errorf("%d findings from %d inputs (notes %q), want 1 from 1, counted once", n, len(inputs), sameNotes(inputs, dir))
			}
		})
	}
}
