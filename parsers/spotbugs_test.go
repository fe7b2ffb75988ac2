package parsers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/reports"
)

func TestSpotBugsSourcePaths(t *testing.T) {
	root := emptyFiles(t,
		"core/src/main/java/a/Found.java", // under a SrcDir
		"web/src/main/java/b/Unique.java", // not under any SrcDir, found by search
		"x/src/main/java/c/Twice.java",    // found twice: ambiguous
		"y/src/main/java/c/Twice.java",
	)
	bug := func(typ, rank, sp string) string {
		return `<BugInstance type="` + typ + `" priority="2" rank="` + rank + `" abbrev="X" category="CORRECTNESS">
<Class classname="a.Found"><SourceLine classname="a.Found" start="1" end="90" sourcepath="` + sp + `"/></Class>
<Method classname="a.Found" name="run" signature="()V"><SourceLine classname="a.Found" start="10" end="20" sourcepath="` + sp + `"/></Method>
<SourceLine classname="a.Found" start="12" end="13" sourcepath="` + sp + `"/></BugInstance>`
	}
	report := `<BugCollection version="4.8.2"><Project><SrcDir>/ci/elsewhere/src/main/java</SrcDir><SrcDir>` + root + `/core/src/main/java</SrcDir></Project>` +
		bug("NP_A", "3", "a/Found.java") + bug("NP_B", "7", "b/Unique.java") + bug("NP_C", "12", "c/Twice.java") + bug("NP_D", "20", "d/Nowhere.java") +
		`<BugPattern type="NP_A"><ShortDescription>Possible null pointer dereference</ShortDescription></BugPattern></BugCollection>`
	findings, in := parseString(t, "", root, report)
	var got []string
	for _, f := range findings {
		got = append(got, f.Rule+" "+f.Severity.String()+" "+f.Path+":"+itoa(f.Line)+"-"+itoa(f.EndLine)+" "+f.RuleName)
	}
	want := []string{
		"NP_A error core/src/main/java/a/Found.java:12-13 Possible null pointer dereference",
		"NP_B error web/src/main/java/b/Unique.java:12-13 X",
		"NP_C warning c/Twice.java:12-13 X",
		"NP_D note d/Nowhere.java:12-13 X",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
	if len(in.Warnings) != 2 || !strings.HasPrefix(in.Warnings[0], "1 SpotBugs source path matches several files") ||
		!strings.HasPrefix(in.Warnings[1], "1 SpotBugs source path was not found") {
		t.Errorf("warnings = %q", in.Warnings)
	}
	if in.Tool != "SpotBugs" || in.ToolVersion != "4.8.2" {
		t.Errorf("tool = %q %q", in.Tool, in.ToolVersion)
	}
}

func TestSpotBugsSeverity(t *testing.T) {
	tests := []struct {
		rank, priority int
		want           reports.Severity
	}{
		// SpotBugs' SARIF levels (Level.fromBugRank): the priority plays no part.
		{1, 3, reports.SeverityError}, {4, 3, reports.SeverityError},
		{5, 3, reports.SeverityError}, {9, 1, reports.SeverityError},
		{10, 1, reports.SeverityWarning}, {14, 3, reports.SeverityWarning},
		{15, 1, reports.SeverityNote}, {20, 1, reports.SeverityNote},
		{0, 1, reports.SeverityError}, {0, 2, reports.SeverityWarning}, {0, 3, reports.SeverityNote},
	}
	for _, tc := range tests {
		if got := spotbugsSeverity(tc.rank, tc.priority); got != tc.want {
			t.Errorf("spotbugsSeverity(rank %d, priority %d) = %v, want %v", tc.rank, tc.priority, got, tc.want)
		}
	}
	for prio, want := range map[int]reports.Severity{1: reports.SeverityError, 2: reports.SeverityError, 3: reports.SeverityWarning,
		4: reports.SeverityNote, 5: reports.SeverityNote, 0: reports.SeverityWarning} {
		if got := pmdSeverity(prio); got != want {
			t.Errorf("pmdSeverity(%d) = %v, want %v", prio, got, want)
		}
	}
}

// TestSampleReports reads the committed reports of the sample project: every
// finding lands on a file of the sample, though the reports were made under
// /home/runner/work/shop/shop.
func TestSampleReports(t *testing.T) {
	top := reportstest.RepoRoot(t)
	sample := filepath.Join(top, "testdata", "sample")
	want := map[string]int{"pmd.sarif": tooltest.SamplePMD, "checkstyle.xml": tooltest.SampleCheckstyle,
		"spotbugs.xml": tooltest.SampleFindBugs, "pmd.xml": tooltest.SamplePMD}
	for name, n := range want {
		path := filepath.Join(top, "testdata", "reports", name)
		if name == "pmd.xml" {
			path = filepath.Join(top, "testdata", "pmd-xml", name)
		}
		findings, in := parseFile(t, path, sample)
		if in.Error != "" || len(findings) != n {
			t.Errorf("%s: %d findings (error %q), want %d", name, len(findings), in.Error, n)
		}
		for _, f := range findings {
			if _, err := os.Stat(filepath.Join(sample, f.Path)); err != nil || f.Path == "" {
				t.Fatalf("%s: finding path %q is not a file of the sample", name, f.Path)
			}
		}
	}
}

// spotbugs-maven-plugin's xdoc report (target/spotbugs.xml, as its
// XDocsReporter writes it) is refused with an error that names the report to
// read instead, never read as a report without findings.
func TestSpotBugsXdocRefused(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "spotbugs-xdoc", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for name, report := range map[string]string{
		"with bugs":    read("spotbugs.xml"),
		"without bugs": read("spotbugs-clean.xml"),
		// without the root's threshold and effort, by its elements
		"file element":  strings.Replace(read("spotbugs.xml"), " threshold='medium' effort='default'", "", 1),
		"Error element": strings.Replace(read("spotbugs-clean.xml"), " threshold='medium' effort='default'", "", 1),
	} {
		t.Run(name, func(t *testing.T) {
			for _, format := range []Format{"", FormatSpotBugs} { // detected, and named
				findings, in := parseString(t, format, "", report)
				if len(findings) != 0 || !strings.HasPrefix(in.Error, "report: line ") ||
					!strings.Contains(in.Error, "xdoc report") || !strings.Contains(in.Error, "spotbugsXml.xml") {
					t.Errorf("format %q: %d findings, error %q", format, len(findings), in.Error)
				}
			}
		})
	}
	// Found by a directory search beside spotbugsXml.xml (as the plugin
	// writes them in target/), it is left out with a warning, not an error
	// of the run; the report beside it is read.
	dir := t.TempDir()
	for name, body := range map[string]string{"spotbugs.xml": read("spotbugs.xml"), "spotbugsXml.xml": `<BugCollection version="4.8.6"><BugInstance type="DM_EXIT" priority="2" rank="16" category="BAD_PRACTICE"><SourceLine classname="a.B" start="3" end="3" sourcepath="a/B.java"/></BugInstance></BugCollection>`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	ins, err := ReadAll([]string{dir}, ReadOptions{Root: dir}, func(reports.Finding) error { n++; return nil })
	if err != nil || len(ins) != 2 || n != 1 {
		t.Fatalf("search: %d inputs, %d findings, %v", len(ins), n, err)
	}
	for _, in := range ins {
		if in.Error != "" {
			t.Errorf("search: %s: error %q", in.Path, in.Error)
		}
		if strings.HasSuffix(in.Path, "/spotbugs.xml") && (len(in.Warnings) == 0 || !strings.Contains(in.Warnings[0], "spotbugsXml.xml beside it")) {
			t.Errorf("search: the xdoc report without its warning: %q", in.Warnings)
		}
	}
	// SpotBugs' own report, with its <Errors> and their <Error>s, is read.
	_, in := parseString(t, "", "", `<BugCollection version="4.8.6"><Errors errors="1" missingClasses="0"><Error><ErrorMessage>x</ErrorMessage></Error></Errors></BugCollection>`)
	if in.Error != "" {
		t.Errorf("SpotBugs' own report: error %q", in.Error)
	}
}

// A bug whose place is a field (whose SourceLine has no line: SpotBugs
// reads none from the bytecode) is put on its class's first line when the
// class's SourceLine has one in the same file, else on no line: never on
// line 1.
func TestSpotBugsFieldLine(t *testing.T) {
	field := `<Field classname="a.B" name="x" signature="I" isStatic="false" primary="true"><SourceLine classname="a.B" sourcefile="B.java" sourcepath="a/B.java"><Message>In B.java</Message></SourceLine></Field>` +
		`<SourceLine classname="a.B" sourcefile="B.java" sourcepath="a/B.java" synthetic="true"/>`
	class := func(attrs string) string {
		return `<Class classname="a.B" primary="true"><SourceLine classname="a.B" ` + attrs + ` sourcefile="B.java"/></Class>`
	}
	for _, tc := range []struct {
		name, bug     string
		line, endLine int
	}{
		{"field, class with lines", class(`start="12" end="49" sourcepath="a/B.java"`) + field, 12, 12},
		{"field, class without lines", class(`sourcepath="a/B.java"`) + field, 0, 0},
		{"field, class in another file", class(`start="12" end="49" sourcepath="a/Other.java"`) + field, 0, 0},
		{"field alone", field, 0, 0},
		{"a line of its own", class(`start="12" end="49" sourcepath="a/B.java"`) + `<SourceLine classname="a.B" start="30" end="31" sourcepath="a/B.java"/>`, 30, 31},
	} {
		t.Run(tc.name, func(t *testing.T) {
			report := `<BugCollection version="4.8.6"><BugInstance type="UUF_UNUSED_FIELD" priority="2" rank="18" category="PERFORMANCE">` + tc.bug + `</BugInstance></BugCollection>`
			findings, in := parseString(t, "", "", report)
			if in.Error != "" || len(findings) != 1 {
				t.Fatalf("%d findings, error %q", len(findings), in.Error)
			}
			if f := findings[0]; f.Path != "a/B.java" || f.Line != tc.line || f.EndLine != tc.endLine {
				t.Errorf("%s:%d-%d, want a/B.java:%d-%d", f.Path, f.Line, f.EndLine, tc.line, tc.endLine)
			}
		})
	}
}

// TestSpotBugsErrors: SpotBugs' <Errors>: an analysis error or a missing
// class that names a class whose source is in the repository makes that
// file not analysed, with SpotBugs' reason; the others are warnings, counted
// by the report's own counts; looking for them adds no warning of source
// paths not found.
func TestSpotBugsErrors(t *testing.T) {
	root := emptyFiles(t, "src/main/java/a/Found.java", "src/main/java/a/Other.java")
	report := func(errors string) string {
		return `<BugCollection version="4.8.2"><Project><SrcDir>` + root + `/src/main/java</SrcDir></Project>` + errors + `</BugCollection>`
	}
	tests := []struct {
		name        string
		errors      string
		notAnalysed []reports.NotAnalysed
		warnings    []string
	}{
		{"an error on a class of the repository",
			`<Errors errors="1" missingClasses="0"><Error><ErrorMessage>Exception analyzing a.Found using detector edu.umd.cs.findbugs.detect.FindNullDeref</ErrorMessage><Exception>java.lang.NullPointerException</Exception><StackTrace>x.y(Z.java:1)</StackTrace></Error></Errors>`,
			[]reports.NotAnalysed{{Path: "src/main/java/a/Found.java", Reason: "SpotBugs: Exception analyzing a.Found using detector edu.umd.cs.findbugs.detect.FindNullDeref"}}, nil},
		{"a missing class of the repository, an inner one",
			`<Errors errors="0" missingClasses="1"><MissingClass>a.Other$Inner</MissingClass></Errors>`,
			[]reports.NotAnalysed{{Path: "src/main/java/a/Other.java", Reason: "SpotBugs: the class a.Other$Inner was missing from the analysis"}}, nil},
		{"a library's missing classes, more than listed",
			`<Errors errors="0" missingClasses="3"><MissingClass>org.junit.Test</MissingClass><MissingClass>accept</MissingClass></Errors>`,
			nil, []string{"SpotBugs could not find 3 classes the analysis needed (first: org.junit.Test): findings that need them may be missing"}},
		{"an error that names no class of the repository",
			`<Errors errors="2" missingClasses="0"><Error><ErrorMessage>Cannot open codebase filesystem:C:\b\classes\version.properties</ErrorMessage><Exception>java.io.IOException: Wrong magic bytes</Exception></Error><Error><ErrorMessage>Error scanning org.lib.Gone for referenced classes</ErrorMessage></Error></Errors>`,
			nil, []string{`SpotBugs reports 2 analysis errors (first: Cannot open codebase filesystem:C:\b\classes\version.properties)`}},
		{"none", `<Errors errors="0" missingClasses="0"></Errors>`, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, in := parseString(t, "", root, report(tc.errors))
			if in.Error != "" {
				t.Fatal(in.Error)
			}
			if diff := cmp.Diff(tc.notAnalysed, in.NotAnalysed); diff != "" {
				t.Errorf("notAnalysed (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.warnings, in.Warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}
