package parsers

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/reports"
)

func parseString(t *testing.T, format Format, root, content string) ([]reports.Finding, reports.Input) {
	t.Helper()
	findings, in := ParseAll(strings.NewReader(content), "report", ReadOptions{Root: root, Format: format})
	return findings, in
}

// ruleTable is a rule table holding rules of one tool.
func ruleTable(tool string, rules ...reports.Rule) *reports.Rules {
	t := &reports.Rules{}
	for _, r := range rules {
		t.Add(tool, r)
	}
	return t
}

func TestPMDXML(t *testing.T) {
	const report = `<?xml version="1.0" encoding="UTF-8"?>
<pmd xmlns="http://pmd.sourceforge.net/report/2.0.0" version="7.0.0">
<file name="/repo/src/A.java">
<violation beginline="3" endline="4" begincolumn="5" endcolumn="9" rule="UnusedLocalVariable" ruleset="Best Practices" externalInfoUrl="https://docs.pmd-code.org/x.html" priority="3">
Avoid unused local variables such as 'x'.
</violation>
<violation beginline="7" endline="7" begincolumn="1" endcolumn="2" rule="EmptyCatchBlock" ruleset="Error Prone" priority="1">Avoid empty catch blocks</violation>
</file>
<suppressedviolation filename="/repo/src/A.java" suppressiontype="annotation" msg="m" usermsg=""/>
<error filename="/repo/src/B.java" msg="ParseException: boom&#10;at x.y(Z.java:1)">trace</error>
<error filename="/repo/src/C.java" msg="ParseException: bang"/>
<configerror rule="LoosePackageCoupling" msg="No packages configured"/>
</pmd>`
	findings, in := parseString(t, "", "/repo", report)
	want := []reports.Finding{
		{Tool: "PMD", ToolVersion: "7.0.0", Rule: "UnusedLocalVariable", Category: "Best Practices", ToolCategory: "Best Practices", Severity: reports.SeverityWarning,
			Quality: reports.QualityMaintainability, Impact: reports.ImpactMedium, Priority: 3, Message: "Avoid unused local variables such as 'x'.", Path: "src/A.java", Line: 3, EndLine: 4, Column: 5, EndColumn: 9,
			HelpURI: "https://docs.pmd-code.org/x.html"},
		{Tool: "PMD", ToolVersion: "7.0.0", Rule: "EmptyCatchBlock", Category: "Error Prone", ToolCategory: "Error Prone", Severity: reports.SeverityError,
			Quality: reports.QualityReliability, Impact: reports.ImpactBlocker, Priority: 1, Message: "Avoid empty catch blocks", Path: "src/A.java", Line: 7, EndLine: 7, Column: 1, EndColumn: 2},
	}
	if diff := cmp.Diff(want, stripIDs(findings)); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
	wantIn := reports.Input{Path: "report", Format: "pmd", Tool: "PMD", ToolVersion: "7.0.0", Findings: 2, Suppressed: 1,
		Warnings: []string{
			"PMD configuration error in rule LoosePackageCoupling: No packages configured",
			"PMD could not process 2 files (first: src/B.java: ParseException: boom)",
		},
		NotAnalysed: []reports.NotAnalysed{{Path: "src/B.java", Reason: "ParseException: boom"}, {Path: "src/C.java", Reason: "ParseException: bang"}},
		Rules: ruleTable("PMD",
			reports.Rule{ID: "UnusedLocalVariable", HelpURI: "https://docs.pmd-code.org/x.html", Tags: []string{"Best Practices"}},
			reports.Rule{ID: "EmptyCatchBlock", Tags: []string{"Error Prone"}}),
	}
	if diff := cmp.Diff(wantIn, in); diff != "" {
		t.Errorf("input mismatch (-want +got):\n%s", diff)
	}
}

func TestCheckstyleXML(t *testing.T) {
	const report = `<?xml version="1.0" encoding="ISO-8859-1"?>
<checkstyle version="8.36.1">
<file name="C:\work\repo\A.java"/>
<file name="/repo/src/A.java">
<error line="12" column="3" severity="warning" message="Line is longer than 80 characters (found 95)." source="com.puppycrawl.tools.checkstyle.checks.sizes.LineLengthCheck"/>
<error line="1" severity="info" message="Zeile l` + "\xe4" + `nger" source="com.puppycrawl.tools.checkstyle.checks.NewlineAtEndOfFileCheck"/>
<error line="2" severity="ignore" message="ignored" source="x"/>
</file>
</checkstyle>`
	findings, in := parseString(t, "", "/repo", report)
	want := []reports.Finding{
		{Tool: "Checkstyle", ToolVersion: "8.36.1", Rule: "com.puppycrawl.tools.checkstyle.checks.sizes.LineLengthCheck", RuleName: "LineLength",
			Category: "Design", ToolCategory: "sizes", Severity: reports.SeverityWarning,
			Quality: reports.QualityMaintainability, Impact: reports.ImpactLow, Message: "Line is longer than 80 characters (found 95).", Path: "src/A.java",
			Line: 12, EndLine: 12, Column: 3, HelpURI: "https://checkstyle.org/checks/sizes/linelength.html#LineLength"},
		{Tool: "Checkstyle", ToolVersion: "8.36.1", Rule: "com.puppycrawl.tools.checkstyle.checks.NewlineAtEndOfFileCheck", RuleName: "NewlineAtEndOfFile",
			Category: "Code Style", ToolCategory: "misc", Severity: reports.SeverityNote,
			Quality: reports.QualityMaintainability, Impact: reports.ImpactLow, Message: "Zeile länger", Path: "src/A.java", Line: 1, EndLine: 1,
			HelpURI: "https://checkstyle.org/checks/misc/newlineatendoffile.html#NewlineAtEndOfFile"},
	}
	if diff := cmp.Diff(want, stripIDs(findings)); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
	if in.Findings != 2 || in.Error != "" {
		t.Errorf("input = %+v", in)
	}
	wantRules := ruleTable("Checkstyle",
		reports.Rule{ID: "com.puppycrawl.tools.checkstyle.checks.sizes.LineLengthCheck", Name: "LineLength", Short: "Checks for long lines.",
			HelpURI: "https://checkstyle.org/checks/sizes/linelength.html#LineLength"},
		reports.Rule{ID: "com.puppycrawl.tools.checkstyle.checks.NewlineAtEndOfFileCheck", Name: "NewlineAtEndOfFile", Short: "Checks whether files end with a line separator.",
			HelpURI: "https://checkstyle.org/checks/misc/newlineatendoffile.html#NewlineAtEndOfFile"})
	if diff := cmp.Diff(wantRules.List(), in.Rules.List()); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
}

func TestXMLErrors(t *testing.T) {
	tests := map[string]struct {
		format  Format
		content string
		want    string
	}{
		"pmd wrong root":         {FormatPMD, "<?xml version=\"1.0\"?>\n<SomeThing version=\"1\"/>", "report: line 2: root element is <SomeThing>, want <pmd>"},
		"checkstyle truncated":   {"", "<checkstyle>\n<file name=\"a\">\n<error line=\"1\"", "report: line 3: XML syntax error: unexpected EOF"},
		"checkstyle unclosed":    {"", "<checkstyle>\n<file name=\"a\">\n", "report: line 3: XML syntax error: unexpected EOF"},
		"spotbugs mismatched":    {"", "<BugCollection>\n<BugInstance type=\"X\">\n</Bug>", "report: line 3: XML syntax error: element <BugInstance> closed by </Bug>"},
		"spotbugs forced on pmd": {FormatSpotBugs, "<pmd/>", "report: root element is <pmd>, want <BugCollection>"},
		"empty":                  {"", "  \n", "report: byte 0: empty input"},
		"unknown":                {"", "hello", "report: " + ErrUnknownFormat.Error()},
		"sarif 1.0":              {"", `{"version":"1.0.0","runs":[]}`, `report: $.version: line 1, column 19: SARIF version "1.0.0" is not supported (recap reads 2.1.0)`},
		"sarif no runs":          {"", `{"version":"2.1.0"}`, `report: $: line 1, column 20: not a SARIF log: no "runs"`},
		"sarif wrong type":       {"", "{\"version\":\"2.1.0\",\"runs\":[{\"results\":[\n{\"ruleId\":\"b\",\"ruleIndex\":\"zero\"}]}]}", `report: $.runs[0].results[0].ruleIndex: line 2, column 27: want a number, got a string; 1 result left out`},
		"sarif wrong types":      {"", "{\"version\":\"2.1.0\",\"runs\":[{\"results\":[\n{\"ruleId\":\"a\",\"message\":{\"text\":\"m\"}},\n{\"ruleId\":\"b\",\"ruleIndex\":\"zero\",\"level\":7},\n{\"ruleId\":\"c\",\"locations\":[{\"physicalLocation\":{\"region\":{\"startLine\":\"ten\"}}}]},\n{\"ruleId\":\"d\",\"kind\":[]}]}]}", `report: $.runs[0].results[1].ruleIndex: line 3, column 27: want a number, got a string; 4 values of the wrong kind in all; 3 results left out (also $.runs[0].results[1].level: line 3, column 42: want a string, got a number; $.runs[0].results[2].locations[0].physicalLocation.region.startLine: line 4: want a number, got a string)`},
		"sarif syntax":           {"", "{\"version\":\"2.1.0\",\"runs\":[{\"results\":[\n{\"ruleId\":\"b\",,}]}]}", `report: $.runs[0].results[0]: line 2, column 15: invalid character ',' at start of value`},
		"sarif truncated":        {"", `{"version":"2.1.0","runs":[{"results":[{"ruleId":"a"}`, `report: $.runs[0].results: line 1, column 54: unexpected end of input`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, in := parseString(t, tc.format, "", tc.content)
			if in.Error != tc.want {
				t.Errorf("error = %q\n want %q", in.Error, tc.want)
			}
		})
	}
}

func stripIDs(fs []reports.Finding) []reports.Finding {
	out := make([]reports.Finding, len(fs))
	for i, f := range fs {
		f.ID, f.Fingerprint = reports.FindingID{}, ""
		out[i] = f
	}
	return out
}

// TestDirectorySearch: a directory search reads the reports in it and leaves
// out JSON and XML files that are not reports (package.json, a Maven pom),
// and the directories searches skip; a file named explicitly is read, and
// one that is not a report gets an error.
func TestDirectorySearch(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"build/pmd.sarif":             `{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD"}},"results":[{"ruleId":"r","message":{"text":"m"}}]}]}`,
		"build/other.json":            `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"X"}},"results":[]}]}`,
		"package.json":                `{"name":"shop","version":"1.0.0","scripts":{"test":"jest"}}`,
		"tsconfig.json":               `{"compilerOptions":{"strict":true}}`,
		"pom.xml":                     `<?xml version="1.0"?><project><modelVersion>4.0.0</modelVersion></project>`,
		"node_modules/x/report.sarif": `{"version":"2.1.0","runs":[]}`,
	}
	for p, body := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inputs, err := ReadAll([]string{dir}, ReadOptions{Root: dir}, func(reports.Finding) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range inputs {
		rel, _ := filepath.Rel(dir, in.Path)
		got = append(got, filepath.ToSlash(rel)+":"+in.Error)
	}
	if want := []string{"build/other.json:", "build/pmd.sarif:"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("found %q, want %q", got, want)
	}
	inputs, _ = ReadAll([]string{filepath.Join(dir, "package.json")}, ReadOptions{Root: dir}, func(reports.Finding) error { return nil })
	if len(inputs) != 1 || !strings.Contains(inputs[0].Error, "package.json") {
		t.Errorf("package.json named explicitly: %+v", inputs)
	}
}

// TestDirectoryBrokenReports: in a directory, a file whose name or first
// bytes say it is a report and that cannot be read is an input error, not
// skipped (a crashed tool leaves an empty or cut report); a symlinked report
// is read; a FIFO named like a report is refused without being opened (it
// would block); other files stay out.
func TestDirectoryBrokenReports(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD"}},"results":[{"ruleId":"r","message":{"text":"m"}}]}]}`
	files := map[string]string{
		"reports/pmd.sarif":                good,
		"reports/checkstyle.xml":           "", // a crashed Checkstyle
		"reports/cut.sarif":                good[:60],
		"reports/old.sarif.gz":             "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", // 10 bytes: a gzip header, no stream
		"reports/spotbugs/main.xml":        "<BugCollection",                           // cut, in Gradle's layout
		"reports/notes.xml":                "<notes/>",                                 // not a report, not named like one
		"reports/package.json":             `{"name":"x"}`,
		"elsewhere/linked-report.sarif":    strings.Replace(good, `"r"`, `"r2"`, 1), // not a copy of pmd.sarif: a copy is read once
		"reports/garbage-named-pmd.xml":    "\x00\x01binary",
		"reports/config/findbugs-rule.xml": "<FindBugsFilter/>",                             // named like one, but XML of another kind: out
		"reports/config/checkstyle.xml":    `<?xml version="1.0"?><module name="Checker"/>`, // Checkstyle's configuration, not a report
		"reports/results.sarif":            `{"version":"2.1.0"}`,                           // named SARIF, JSON without runs: read, and its error says why
	}
	for p, body := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "elsewhere", "linked-report.sarif"), filepath.Join(dir, "reports", "link.sarif")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "reports", "live.sarif"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "reports", "pipe.xml"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan []reports.Input)
	go func() {
		inputs, _ := ReadAll([]string{filepath.Join(dir, "reports")}, ReadOptions{Root: dir}, func(reports.Finding) error { return nil })
		done <- inputs
	}()
	var inputs []reports.Input
	select {
	case inputs = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the directory search blocked (on a FIFO?)")
	}
	got := map[string]string{}
	for _, in := range inputs {
		rel, _ := filepath.Rel(filepath.Join(dir, "reports"), in.Path)
		got[filepath.ToSlash(rel)] = in.Error
	}
	want := map[string]string{
		"pmd.sarif":             "",
		"link.sarif":            "",
		"checkstyle.xml":        "empty",
		"cut.sarif":             "unexpected end of input",
		"old.sarif.gz":          "empty input",
		"spotbugs/main.xml":     "unknown report format",
		"garbage-named-pmd.xml": "unknown report format",
		"results.sarif":         "runs",
		"live.sarif":            "not a regular file (a FIFO)",
	}
	if len(got) != len(want) {
		t.Errorf("inputs %q, want %d of them", got, len(want))
	}
	for p, w := range want {
		e, ok := got[p]
		switch {
		case !ok:
			t.Errorf("%s: not among the inputs", p)
		case w == "" && e != "":
			t.Errorf("%s: error %q, want none", p, e)
		case w != "" && !strings.Contains(e, w):
			t.Errorf("%s: error %q, want it to say %q", p, e, w)
		}
	}
	// Named on the command line, a FIFO or a device is refused at once.
	for _, p := range []string{filepath.Join(dir, "reports", "live.sarif"), "/dev/zero"} {
		in, _ := ReadAll([]string{p}, ReadOptions{}, func(reports.Finding) error { return nil })
		if len(in) != 1 || !strings.Contains(in[0].Error, "not a regular file") {
			t.Errorf("%s: %+v", p, in)
		}
	}
}

// TestTrailingContent: a report followed by garbage, a second root
// appended, or a gzip stream whose checksum is wrong is named as broken,
// not read as fine; logs concatenated (cat a.sarif b.sarif) are read whole.
func TestTrailingContent(t *testing.T) {
	t.Parallel()
	top := reportstest.RepoRoot(t)
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(top, "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	sarif, cs, sb, pmd := read("reports/pmd.sarif"), read("reports/checkstyle.xml"), read("reports/spotbugs.xml"), read("pmd-xml/pmd.xml")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(sarif)
	zw.Close()
	bad := bytes.Clone(gz.Bytes())
	bad[len(bad)-8] ^= 0xff // the CRC-32 of the gzip trailer
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	tests := []struct {
		name     string
		data     []byte
		findings int
		err      string
	}{
		{"SARIF, then garbage", cat(sarif, []byte("\nxyz")), tooltest.SamplePMD, "content after the SARIF log"},
		{"SARIF, then a number", cat(sarif, []byte(" 42")), tooltest.SamplePMD, "content after the SARIF log"},
		{"two SARIF logs concatenated", cat(sarif, sarif), 2 * tooltest.SamplePMD, ""},
		{"SARIF logs one per line", cat(bytes.Join(bytes.Fields(sarif), []byte(" ")), []byte("\n"), bytes.Join(bytes.Fields(sarif), []byte(" ")), []byte("\n")), 2 * tooltest.SamplePMD, ""},
		{"SARIF, then white space", cat(sarif, []byte(" \n\t\n")), tooltest.SamplePMD, ""},
		{"SARIF gzip, wrong checksum", bad, tooltest.SamplePMD, "invalid checksum"},
		{"SARIF gzip", gz.Bytes(), tooltest.SamplePMD, ""},
		{"Checkstyle, then text", cat(cs, []byte("trailing")), tooltest.SampleCheckstyle, "content after the root element"},
		{"Checkstyle, then another report", cat(cs, cs), tooltest.SampleCheckstyle, "content after the root element"},
		{"Checkstyle, then a comment", cat(cs, []byte("<!-- done -->\n")), tooltest.SampleCheckstyle, ""},
		{"PMD, then a root", cat(pmd, []byte("<pmd/>")), tooltest.SamplePMD, "content after the root element"},
		{"SpotBugs, then junk", cat(sb, []byte("junk")), 0, "content after the root element"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, in := ParseAll(bytes.NewReader(tc.data), "report", ReadOptions{})
			if len(got) != tc.findings || !strings.Contains(in.Error, tc.err) || (tc.err == "") != (in.Error == "") {
				t.Errorf("%d findings, error %q; want %d and an error saying %q", len(got), in.Error, tc.findings, tc.err)
			}
		})
	}
}
