package parsers

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/reports"
)

// TestCorpusDetails: what the corpus's reports say beyond a finding's
// place is read: rule texts (HTML made text, the short description PMD 7
// fills with a message left out), security severity, precision, CWE from
// tags, relationships and cweid, categories on the one scale with the
// tool's word, fixes, code flows, related locations, the context region's
// snippet, multi-line messages and the reason of a failed run.
func TestCorpusDetails(t *testing.T) {
	dir := reportstest.SharedDir(t, "corpus")
	type check struct {
		finding int                                   // index of the finding checked
		want    func(reports.Finding) reports.Finding // the finding as expected, from the one read
		rule    *reports.Rule                         // the rule table's entry of its rule
	}
	cases := map[string]check{
		"sarif-other/semgrep-autofix-fixes.sarif": {finding: 1, want: func(f reports.Finding) reports.Finding {
			f.Fixable = true
			f.Detail = &reports.Detail{Fix: &reports.Fix{Description: "Use `.get()` method to avoid a KeyNotFound error\nAutofix: Semgrep rule suggested fix",
				Replacements: []reports.Replacement{{Path: "targets/autofix/autofix.py", Line: 6, Column: 6, EndLine: 6, EndColumn: 19, Text: "  if inputs.get((x + 1)) == True:"}}}}
			return f
		}, rule: &reports.Rule{ID: "rules.autofix.use-dict-get", Name: "rules.autofix.use-dict-get", Short: "Semgrep Finding: rules.autofix.use-dict-get",
			Full: "Use `.get()` method to avoid a KeyNotFound error", Precision: "very-high"}},
		"sarif-other/semgrep-dataflow-codeflows.sarif": {want: func(f reports.Finding) reports.Finding {
			f.FlowSteps = 4
			step := func(line, col, end int, msg string) reports.Location {
				return reports.Location{Path: "targets/taint/taint.py", Line: line, EndLine: line, Column: col, EndColumn: end, Message: msg}
			}
			f.Detail = &reports.Detail{AllFlows: 1, Flows: []reports.Flow{{Message: "Untrusted dataflow from targets/taint/taint.py:3 to targets/taint/taint.py:9", Steps: []reports.Location{step(3, 9, 18, "Source: 'source1()' @ 'targets/taint/taint.py:3'"),
				step(3, 5, 6, "Propagator : 'a' @ 'targets/taint/taint.py:3'"), step(8, 9, 10, "Propagator : 'b' @ 'targets/taint/taint.py:8'"),
				step(9, 5, 13, "Sink: 'sink1(b)' @ 'targets/taint/taint.py:9'")}}}}
			return f
		}},
		"sarif-other/fortify-converted-contextregion.sarif": {want: func(f reports.Finding) reports.Finding {
			const file = "C:/projects/myproject/src/Helpers/DBHelper.cs"
			f.FlowSteps, f.Related, f.SnippetLine = 9, 1, 143 // both code flows, of 4 and 5 steps
			f.Snippet = "                    SqlCommand myCommand = new SqlCommand(string.Format(Query.q_GetVSTSDetailsForICTO, \"@icto\"), conn);\n" +
				"                    myCommand.Parameters.Add(\"@icto\", SqlDbType.VarChar).Value = icto;\n                    myCommand.CommandTimeout = 0;\n" +
				"                    SqlDataReader myReader = myCommand.ExecuteReader();\n\n                    while (myReader.Read())\n                    {\n"
			f.Message = "The function getVSTSDetailsForICTO() in [DBHelper.cs](1) sometimes fails to release a system resource allocated by ExecuteReader() on line 146.\n" +
				"The program can potentially fail to release a system resource."
			f.Detail = &reports.Detail{
				AllFlows: 2, Flows: []reports.Flow{{Steps: []reports.Location{{Path: file, Line: 146, EndLine: 146, Message: "myReader = ExecuteReader()"}, {Path: file, Line: 148, EndLine: 148, Message: "Branch not taken"},
					{Path: file, Line: 139, EndLine: 139, Message: "myReader no longer refers to a database resource"},
					{Path: file, Line: 139, EndLine: 139, Message: "myReader end scope : Database resource leaked"}}}, {Code: 1, Steps: []reports.Location{{Path: file, Line: 146, EndLine: 146, Message: "myReader = ExecuteReader()"},
					{Path: file, Line: 148, EndLine: 148, Message: "Branch taken"}, {Path: file, Line: 150, EndLine: 150, Message: "return"},
					{Path: file, Line: 150, EndLine: 150, Message: "myReader no longer refers to a database resource"},
					{Path: file, Line: 150, EndLine: 150, Message: "myReader end scope : Database resource leaked"}}}},
				Related: []reports.Location{{Path: file, Line: 146, EndLine: 146}}}
			return f
		}},
		"sarif-other/trivy-alpine-310.sarif": {want: func(f reports.Finding) reports.Finding {
			f.Category, f.ToolCategory, f.SecuritySeverity = reports.CategorySecurity, "vulnerability", 5.3
			f.Message = "Package: libcrypto1.1\nInstalled Version: 1.1.1c-r0\nVulnerability CVE-2019-1549\nSeverity: MEDIUM\nFixed Version: 1.1.1d-r0\n" +
				"Link: [CVE-2019-1549](https://avd.aquasec.com/nvd/cve-2019-1549)"
			return f
		}},
		"spotbugs-sarif/spotbugs-4.8.2-findsecbugs.sarif": {finding: 2, want: func(f reports.Finding) reports.Finding {
			f.Category, f.ToolCategory, f.CWE = reports.CategorySecurity, "SECURITY", []int{22}
			// The logical location beside the file.
			f.Detail = &reports.Detail{Logical: []reports.LogicalLocation{{Name: "main(String[])", Kind: "function",
				FullyQualifiedName: "de.fraunhofer.aisec.codyze.medina.demo.jsse.TlsServer.main(String[])"}}}
			return f
		}, rule: &reports.Rule{ID: "PATH_TRAVERSAL_IN", Short: "Potential Path Traversal (file read).", HelpURI: "https://find-sec-bugs.github.io/bugs.htm#PATH_TRAVERSAL_IN",
			Tags: []string{"SECURITY"}, CWE: []int{22}}},
		"spotbugs-xml/spotbugs-3.1.12-withmessages-single-bug.xml": {want: func(f reports.Finding) reports.Finding {
			f.Category, f.ToolCategory, f.CWE = reports.CategoryBestPractices, "BAD_PRACTICE", []int{382}
			return f
		}, rule: &reports.Rule{ID: "DM_EXIT", Name: "Method invokes System.exit(...)", Short: "Method invokes System.exit(...)",
			Full: "Invoking System.exit shuts down the entire Java virtual machine. This should only been done when it is appropriate. Such calls make it " +
				"hard or impossible for your code to be invoked by other code. Consider throwing a RuntimeException instead.",
			HelpURI: "https://spotbugs.readthedocs.io/en/latest/bugDescriptions.html#DM_EXIT", Tags: []string{"BAD_PRACTICE"}, CWE: []int{382}}},
		"checkstyle-sarif/checkstyle-multiple-rules.sarif": {want: func(f reports.Finding) reports.Finding {
			f.Category, f.ToolCategory = reports.CategoryCodeStyle, "blocks"
			return f
		}, rule: &reports.Rule{ID: "com.puppycrawl.tools.checkstyle.checks.blocks.EmptyBlockCheck", Short: "Checks for empty blocks.",
			HelpURI: "https://checkstyle.org/checks/blocks/emptyblock.html#EmptyBlock",
			Full: "Checks for empty blocks.\n\nThis check does not validate sequential blocks. This check does not violate fallthrough.\n\n" +
				"NOTE: This check processes LITERAL_CASE and LITERAL_DEFAULT separately. Verification empty block is done for single nearest `case` or `default`."}},
		"pmd-sarif/pmd-7.0.0-rc4-java.sarif": {want: func(f reports.Finding) reports.Finding {
			f.Category, f.ToolCategory = reports.CategoryErrorProne, "Error Prone"
			return f
		}, rule: &reports.Rule{ID: "CloseResource", // its short descriptions are messages: left out
			Full: "Ensure that resources (like `java.sql.Connection`, `java.sql.Statement`, and `java.sql.ResultSet` objects\n" +
				"and any subtype of `java.lang.AutoCloseable`) are always closed after use.\nFailing to do so might result in resource leaks.\n\n" +
				"Note: It suffices to configure the super type, e.g. `java.lang.AutoCloseable`, so that this rule automatically triggers\n" +
				"on any subtype (e.g. `java.io.FileInputStream`). Additionally specifying `java.sql.Connection` helps in detecting\n" +
				"the types, if the type resolution / auxclasspath is not correctly setup.\n\n" +
				"Note: Since PMD 6.16.0 the default value for the property `types` contains `java.lang.AutoCloseable` and detects\n" +
				"now cases where the standard `java.io.*Stream` classes are involved. In order to restore the old behaviour,\n" +
				"just remove \"AutoCloseable\" from the types.",
			HelpURI: "https://docs.pmd-code.org/pmd-doc-7.0.0-rc4/pmd_rules_java_errorprone.html#closeresource", Tags: []string{"Error Prone"}}},
		"sarif-other/codeql-action-two-runs.sarif": {finding: 2, want: func(f reports.Finding) reports.Finding {
			f.Category, f.ToolCategory, f.Related = reports.CategoryErrorProne, "reliability", 2
			f.Detail = &reports.Detail{Related: []reports.Location{{Path: "src/ParseObject.js", Line: 2281, EndLine: 2281, Column: 33, EndColumn: 55, Message: "here"},
				{Path: "src/LiveQueryClient.js", Line: 166, EndLine: 166, Message: "here"}}}
			return f
		}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			findings, in := parseFile(t, filepath.Join(dir, name), dir)
			if in.Error != "" || c.finding >= len(findings) {
				t.Fatalf("%d findings, error %q", len(findings), in.Error)
			}
			got := findings[c.finding]
			// The expected finding is the one read with the fields under
			// test set as the report gives them: every other field must
			// then be empty of them.
			bare := got
			bare.Category, bare.ToolCategory, bare.SecuritySeverity, bare.CWE = "", "", 0, nil
			bare.FlowSteps, bare.Related, bare.Fixable, bare.Detail = 0, 0, false, nil
			if got.SnippetLine != 0 {
				bare.SnippetLine, bare.Snippet = 0, ""
			}
			want := c.want(bare)
			if want.Category == "" {
				want.Category = reports.CategoryOther
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("finding %d (-want +got):\n%s", c.finding, diff)
			}
			if c.rule != nil {
				if diff := cmp.Diff(c.rule, in.Rules.Lookup(got.Tool, got.Rule), cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("rule (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestSARIFFailedRun: a failed run's warning says why, in the tool's words.
func TestSARIFFailedRun(t *testing.T) {
	dir := reportstest.SharedDir(t, "corpus")
	_, in := parseFile(t, filepath.Join(dir, "spotbugs-sarif/spotbugs-4.8.2-findsecbugs.sarif"), dir)
	want := []string{"SpotBugs reports that its execution failed (exit code 3, signal ERROR,MISSING CLASS,BUGS FOUND); first notification: " +
		"configuration error: Classes needed for analysis were missing: [makeConcatWithConstants, accept]"}
	if diff := cmp.Diff(want, in.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	log := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"invocations":[{"executionSuccessful":false,"exitCode":137,` +
		`"exitCodeDescription":"killed\nby the kernel","exitSignalName":"SIGKILL","toolExecutionNotifications":[{"level":"note","message":{"text":"n"}},` +
		`{"level":"error","message":{"text":"out of memory\n\tat a.B(C.java:1)"}},{"message":{"text":"second"}}]}],"results":[]}]}`
	_, in = ParseAll(strings.NewReader(log), "t.sarif", ReadOptions{})
	want = []string{"T reports that its execution failed (exit code 137, killed, signal SIGKILL); first notification: error: out of memory", "T warning: second"}
	if diff := cmp.Diff(want, in.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	// PMD 7 marks a run not successful for a rule it could not configure
	// (the sample's): said so, with the rule, not as a failed execution. An
	// associatedRule of another shape is left out, and the report read.
	_, in = ParseAll(mustOpen(t, filepath.Join(reportstest.RepoRoot(t), "testdata", "reports", "pmd.sarif")), "pmd.sarif", ReadOptions{})
	want = []string{"PMD marks its run not successful because of its configuration; first notification: configuration warning in rule LoosePackageCoupling: No packages or classes specified"}
	if diff := cmp.Diff(want, in.Warnings[:min(1, len(in.Warnings))]); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	log = `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"invocations":[{"executionSuccessful":false,` +
		`"toolConfigurationNotifications":[{"associatedRule":{"id":7},"message":{"text":"a"}},{"associatedRule":"R","message":{"text":"b"}}]}],"results":[]}]}`
	_, in = ParseAll(strings.NewReader(log), "t.sarif", ReadOptions{})
	want = []string{"T marks its run not successful because of its configuration; first notification: configuration warning: a", "T configuration warning: b"}
	if diff := cmp.Diff(want, in.Warnings); diff != "" || in.Error != "" {
		t.Errorf("warnings (-want +got):\n%s%s", diff, in.Error)
	}
}

// TestSARIFDetailBounds: a result's detail is bounded: the first steps of
// the first thread flow, the first related locations, counted whole; a
// fix too large or not made of line regions is left out whole. A rule
// id's later descriptors do not change its texts.
func TestSARIFDetailBounds(t *testing.T) {
	loc := func(line int) string {
		return fmt.Sprintf(`{"physicalLocation":{"artifactLocation":{"uri":"a.go"},"region":{"startLine":%d}},"message":{"text":"s%d"}}`, line, line)
	}
	var steps, related []string
	for i := 1; i <= reports.MaxFlowSteps+5; i++ {
		steps = append(steps, `{"location":`+loc(i)+`}`)
		related = append(related, loc(i))
	}
	repl := func(n int, text string) string {
		var rs []string
		for i := 0; i < n; i++ {
			rs = append(rs, fmt.Sprintf(`{"deletedRegion":{"startLine":%d},"insertedContent":{"text":%q}}`, i+1, text))
		}
		return `[{"description":{"text":"d"},"artifactChanges":[{"artifactLocation":{"uri":"a.go"},"replacements":[` + strings.Join(rs, ",") + `]}]}]`
	}
	results := []string{
		`{"ruleId":"R","message":{"text":"m"},"locations":[` + loc(1) + `],"codeFlows":[{"threadFlows":[{"locations":[` + strings.Join(steps, ",") +
			`]},{"locations":[` + steps[0] + `]}]},{"threadFlows":[]}],"relatedLocations":[` + strings.Join(related, ",") + `]}`,
		`{"ruleId":"R","message":{"text":"m"},"fixes":` + repl(reports.MaxFixReplacements, "x") + `}`,
		`{"ruleId":"R","message":{"text":"m"},"fixes":` + repl(reports.MaxFixReplacements+1, "x") + `}`,
		`{"ruleId":"R","message":{"text":"m"},"fixes":` + repl(1, strings.Repeat("y", reports.MaxFixText+1)) + `}`,
		`{"ruleId":"R","message":{"text":"m"},"fixes":[{"artifactChanges":[{"artifactLocation":{"uri":"a.go"},"replacements":[{"deletedRegion":{"charOffset":3,"charLength":2}}]}]}]}`,
		`{"ruleId":"R","message":{"text":"m"},"fixes":[{"artifactChanges":[{"artifactLocation":{"uri":"a.go"},"replacements":[{"deletedRegion":{"startLine":1},"insertedContent":{"binary":"AAA="}}]}]}]}`,
	}
	rules := `[{"id":"R","shortDescription":{"text":"first"},"fullDescription":{"text":"full"},"properties":{"security-severity":"9.8","tags":["security","external/cwe/cwe-79","CWE-89: SQL"]}},` +
		`{"id":"R","shortDescription":{"text":"second"},"fullDescription":{"text":"other"},"help":{"markdown":"**help**"}},` +
		`{"help":{"text":"h"},"id":"S","properties":{"security-severity":11,"precision":"high"},"relationships":[{"target":{"id":"CWE-502","toolComponent":{"name":"cwe"}}}]}]`
	log := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T","rules":` + rules + `}},"results":[` + strings.Join(results, ",") + `]}]}`
	findings, in := ParseAll(strings.NewReader(log), "t.sarif", ReadOptions{})
	if in.Error != "" || len(findings) != len(results) {
		t.Fatalf("%d findings, error %q", len(findings), in.Error)
	}
	f := findings[0]
	// The steps of all flows count; those past MaxFlowSteps are cut, and
	// the second thread flow, past the bound, is not kept.
	if fl := f.Detail.FirstFlow(); f.FlowSteps != reports.MaxFlowSteps+6 || len(fl) != reports.MaxFlowSteps || fl[reports.MaxFlowSteps-1].Message != fmt.Sprintf("s%d", reports.MaxFlowSteps) ||
		len(f.Detail.Flows) != 1 || f.Detail.AllFlows != 2 {
		t.Errorf("flow: %d steps counted, %d kept, %d flows of %d", f.FlowSteps, len(fl), len(f.Detail.Flows), f.Detail.AllFlows)
	}
	if f.Related != reports.MaxFlowSteps+5 || len(f.Detail.Related) != reports.MaxRelated || f.Detail.Fix != nil || f.Fixable {
		t.Errorf("related: %d counted, %d kept", f.Related, len(f.Detail.Related))
	}
	if fix := findings[1].Detail.Fix; fix == nil || len(fix.Replacements) != reports.MaxFixReplacements || !findings[1].Fixable {
		t.Errorf("a fix within the bounds: %+v", findings[1].Detail)
	}
	// A fix whose edits cannot be kept keeps its description (the fix in
	// words), and is counted as proposed.
	for i, why := range []string{"too many replacements", "a text too long"} {
		if g := findings[2+i]; g.Detail == nil || g.Detail.Fix == nil || g.Detail.Fix.Description != "d" || len(g.Detail.Fix.Replacements) != 0 || !g.Fixable {
			t.Errorf("a fix with %s: kept %+v, fixable %v", why, g.Detail, g.Fixable)
		}
	}
	// A region of characters whose file is not at hand keeps its offsets.
	if g := findings[4]; g.Detail == nil || g.Detail.Fix == nil || !cmp.Equal(g.Detail.Fix.Replacements, []reports.Replacement{{Path: "a.go", Offset: 3, Length: 2}}) || !g.Fixable {
		t.Errorf("a fix of a region of characters: %+v", g.Detail)
	}
	// Binary content and no description: nothing to keep but the flag.
	if g := findings[5]; g.Detail != nil || !g.Fixable {
		t.Errorf("a fix of binary content: kept %+v, fixable %v", g.Detail, g.Fixable)
	}
	want := &reports.Rule{ID: "R", Short: "", Full: "full", SecuritySeverity: 9.8, Tags: []string{"security", "external/cwe/cwe-79", "CWE-89: SQL"}, CWE: []int{79, 89}}
	if diff := cmp.Diff(want, in.Rules.Lookup("T", "R")); diff != "" {
		t.Errorf("rule R (-want +got):\n%s", diff)
	}
	want = &reports.Rule{ID: "S", Full: "", Help: "h", Precision: "high", CWE: []int{502}}
	if diff := cmp.Diff(want, in.Rules.Lookup("T", "S")); diff != "" {
		t.Errorf("rule S (-want +got):\n%s", diff)
	}
	if f.SecuritySeverity != 9.8 || !cmp.Equal(f.CWE, []int{79, 89}) || f.Category != reports.CategorySecurity || f.ToolCategory != "security" {
		t.Errorf("finding of R: %v %v %s %s", f.SecuritySeverity, f.CWE, f.Category, f.ToolCategory)
	}
}

// TestRuleText: descriptions are normalized once per rule.
func TestRuleText(t *testing.T) {
	tests := map[string]string{
		"\n\n        Reports X.\n          Indented more.\n\n\n        Second paragraph.\n        ":               "Reports X.\n  Indented more.\n\nSecond paragraph.",
		"<div>\n Checks for <b>empty</b> blocks &amp; <code>catch</code>.\n </div>\n\n <p>\n Two\n lines.\n </p>": "Checks for empty blocks & `catch`.\n\nTwo lines.",
		"<p>List:</p><ul><li>one</li><li>two &lt;T&gt;</li></ul>":                                                 "List:\n\n- one\n- two <T>",
		"\n<p>Code:</p>\n<pre>\n  if (x &lt; 1)\n    y();\n</pre>\n<p>After.</p>":                                 "Code:\n\n      if (x < 1)\n        y();\n\nAfter.",
		"a < b and c > d":   "a < b and c > d",
		"line\r\nend\r":     "line\nend",
		"<p>unclosed <code": "unclosed <code",
		"":                  "",
	}
	for in, want := range tests {
		if got := ruleText(in); got != want {
			t.Errorf("ruleText(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

// TestLoneBaseName: a file at the repository's root, named by a report made
// elsewhere before any path taught recap that report's root, is placed
// once its other paths do; in SARIF, Checkstyle XML and PMD XML alike.
func TestLoneBaseName(t *testing.T) {
	fsys := fstest.MapFS{".eslintrc.json": {}, "src/app/a.js": {}}
	sarif := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"ESLint"}},"results":[` +
		`{"ruleId":"r1","message":{"text":"config"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"file:///ci/work/.eslintrc.json"},"region":{"startLine":1}}}]},` +
		`{"ruleId":"r2","message":{"text":"code"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"file:///ci/work/src/app/a.js"},"region":{"startLine":2}}}]},` +
		`{"ruleId":"r3","message":{"text":"absent"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"file:///other/README"},"region":{"startLine":3}}}]}]}]}`
	checkstyle := `<checkstyle version="8"><file name="/ci/work/.eslintrc.json"><error line="1" severity="error" message="config" source="eslint.rules.r1"/></file>` +
		`<file name="/ci/work/src/app/a.js"><error line="2" severity="error" message="code" source="eslint.rules.r2"/></file>` +
		`<file name="/other/README"><error line="3" severity="error" message="absent" source="eslint.rules.r3"/></file></checkstyle>`
	pmd := `<pmd version="7"><file name="/ci/work/.eslintrc.json"><violation beginline="1" rule="r1" priority="1">config</violation></file>` +
		`<file name="/ci/work/src/app/a.js"><violation beginline="2" rule="r2" priority="1">code</violation></file>` +
		`<file name="/other/README"><violation beginline="3" rule="r3" priority="1">absent</violation></file></pmd>`
	for name, report := range map[string]string{"sarif": sarif, "checkstyle": checkstyle, "pmd": pmd} {
		t.Run(name, func(t *testing.T) {
			findings, in := ParseAll(strings.NewReader(report), "report", ReadOptions{Root: "/repo", FS: fsys})
			got := map[string]string{}
			for _, f := range findings {
				got[f.Message] = f.Path
			}
			want := map[string]string{"config": ".eslintrc.json", "code": "src/app/a.js", "absent": "/other/README"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("paths (-want +got):\n%s", diff)
			}
			if w := strings.Join(in.Warnings, "; "); !strings.Contains(w, "1 finding path is outside the repository root /repo") {
				t.Errorf("warnings %q", w)
			}
		})
	}
}

// TestFlowStepBases: a step keeps its place in the repository when its
// uriBaseId may name it (none, the result's own, one declared with a URI,
// a source root's name); a step under another base keeps that base and its
// URI (govulncheck's %GOROOT%), and one whose URI is absolute is placed as
// any absolute path.
func TestFlowStepBases(t *testing.T) {
	step := func(uri, base string) string {
		b := ""
		if base != "" {
			b = fmt.Sprintf(`,"uriBaseId":%q`, base)
		}
		return fmt.Sprintf(`{"location":{"physicalLocation":{"artifactLocation":{"uri":%q%s},"region":{"startLine":3}}}}`, uri, b)
	}
	for _, tc := range []struct {
		name, own, bases, uri, base string
		want                        reports.Location
	}{
		{name: "no base", uri: "a/b.go", want: reports.Location{Path: "a/b.go", Line: 3, EndLine: 3}},
		{name: "the result's own", own: "%SRCROOT%", uri: "a/b.go", base: "%SRCROOT%", want: reports.Location{Path: "a/b.go", Line: 3, EndLine: 3}},
		{name: "a source root's name", own: "", uri: "a/b.go", base: "PROJECT_ROOT", want: reports.Location{Path: "a/b.go", Line: 3, EndLine: 3}},
		{name: "declared with a URI", own: "%SRCROOT%", bases: `"SRC":{"uri":"sub/"}`, uri: "a/b.go", base: "SRC", want: reports.Location{Path: "sub/a/b.go", Line: 3, EndLine: 3}},
		{name: "outside: %GOROOT%", own: "%SRCROOT%", uri: "src/net/http/client.go", base: "%GOROOT%",
			want: reports.Location{Path: "src/net/http/client.go", Base: "%GOROOT%", Line: 3, EndLine: 3}},
		{name: "outside: declared without a URI", own: "SRCROOT", bases: `"%GOMODCACHE%":{"description":{"text":"d"}}`, uri: "golang.org/x/text@v0.3.5/language/parse.go", base: "%GOMODCACHE%",
			want: reports.Location{Path: "golang.org/x/text@v0.3.5/language/parse.go", Base: "%GOMODCACHE%", Line: 3, EndLine: 3}},
		{name: "outside, an absolute URI", own: "%SRCROOT%", uri: "file:///usr/lib/go/src/net/http/client.go", base: "%GOROOT%",
			want: reports.Location{Path: "/usr/lib/go/src/net/http/client.go", Line: 3, EndLine: 3}},
		{name: "outside, a URI that leaves its base", own: "%SRCROOT%", uri: "../x.go", base: "%GOROOT%",
			want: reports.Location{Path: "../x.go", Base: "%GOROOT%", Line: 3, EndLine: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			own := ""
			if tc.own != "" {
				own = fmt.Sprintf(`,"uriBaseId":%q`, tc.own)
			}
			log := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"originalUriBaseIds":{` + tc.bases + `},"results":[{"ruleId":"R","message":{"text":"m"},` +
				`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"main.go"` + own + `},"region":{"startLine":1}}}],` +
				`"codeFlows":[{"threadFlows":[{"locations":[` + step(tc.uri, tc.base) + `]}]}]}]}]}`
			findings, in := ParseAll(strings.NewReader(log), "t.sarif", ReadOptions{})
			if in.Error != "" || len(findings) != 1 || findings[0].Detail == nil {
				t.Fatalf("%d findings, error %q", len(findings), in.Error)
			}
			if diff := cmp.Diff([]reports.Location{tc.want}, findings[0].Detail.FirstFlow()); diff != "" {
				t.Errorf("step (-want +got):\n%s", diff)
			}
		})
	}
}
