package parsers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/reports"
)

// The files of PMD's processing errors are named on the input, placed in
// the repository as its findings' paths are.
func TestPMDNotAnalysed(t *testing.T) {
	dir, _ := reportstest.Corpus(t)
	b, err := os.ReadFile(filepath.Join(dir, "pmd-xml", "pmd-6.8.0-processing-errors.xml"))
	if err != nil {
		t.Fatal(err)
	}
	root := emptyFiles(t, "src/main/java/com/example/Naïve.java", "src/main/java/com/example/Order.java")
	// PMD 7's shape: the processing error before the file whose path
	// teaches where the report was made.
	pmd7 := `<?xml version="1.0" encoding="UTF-8"?>
<pmd xmlns="http://pmd.sourceforge.net/report/2.0.0" version="7.8.0" timestamp="2026-11-20T10:00:00.000">
<error filename="/home/runner/work/shop/shop/src/main/java/com/example/Naïve.java" msg="ParseException: Parse exception in file &apos;/home/runner/work/shop/shop/src/main/java/com/example/Naïve.java&apos; at line 3, column 9: Encountered &quot;}&quot;">
<![CDATA[net.sourceforge.pmd.lang.ast.ParseException: Parse exception
	at net.sourceforge.pmd.lang.java.ast.JavaParser.parse]]>
</error>
<file name="/home/runner/work/shop/shop/src/main/java/com/example/Order.java">
<violation beginline="5" endline="5" begincolumn="9" endcolumn="20" rule="UnusedLocalVariable" ruleset="Best Practices" priority="3">Avoid unused local variables such as 'x'.</violation>
</file>
</pmd>`
	tests := []struct {
		name, root, report string
		want               int    // files named
		first              string // the first, path and reason
	}{
		{"PMD 6.8, 21 processing errors", "", string(b), 21,
			"/Users/jordillach/DemoTenants/Tenants/vhosts/pre.elperiodico.com/themes/default/articleTemplates/forceOpinion.s.jsp: Error while parsing /Users/jordillach/DemoTenants/Tenants/vhosts/pre.elperiodico.com/themes/default/articleTemplates/forceOpinion.s.jsp"},
		{"PMD 7, placed in the repository", root, pmd7, 1,
			"src/main/java/com/example/Naïve.java: ParseException: Parse exception in file '/home/runner/work/shop/shop/src/main/java/com/example/Naïve.java' at line 3, column 9: Encountered \"}\""},
		{"no processing error", root, strings.Replace(pmd7, "<error", "<!--", 1), 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.report = strings.Replace(tc.report, "\n</error>", "-->", map[bool]int{true: 1, false: 0}[tc.want == 0])
			_, in := parseString(t, "", tc.root, tc.report)
			if in.Error != "" {
				t.Fatal(in.Error)
			}
			if len(in.NotAnalysed) != tc.want {
				t.Fatalf("%d files not analysed, want %d: %v", len(in.NotAnalysed), tc.want, in.NotAnalysed)
			}
			if tc.want > 0 {
				if got := in.NotAnalysed[0].Path + ": " + in.NotAnalysed[0].Reason; got != tc.first {
					t.Errorf("first = %q\nwant    %q", got, tc.first)
				}
			}
		})
	}
	var in reports.Input
	for range reports.MaxNotAnalysed + 5 {
		in.NoteNotAnalysed("a.java", "x")
	}
	if len(in.NotAnalysed) != 1 {
		t.Errorf("one path noted %d times", len(in.NotAnalysed))
	}
}

// A real PMD run on a file it cannot parse: both its XML and its SARIF
// name the file, placed in the repository, with PMD's reason.
func TestPMDNotAnalysedRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs PMD")
	}
	tooltest.PMD(t)
	dir := t.TempDir()
	for name, src := range map[string]string{
		"Naïve.java": "package com.ex;\n\npublic class Naïve {\n    void f() {\n        int x = ;\n    }\n}\n",
		"Ok.java":    "package com.ex;\n\npublic class Ok {\n    void f() {\n        int x = 1;\n    }\n}\n",
	} {
		p := filepath.Join(dir, "src", "com", "ex", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, format := range []string{"xml", "sarif"} {
		report := filepath.Join(dir, "pmd."+format)
		tooltest.RunPMD(t, dir, "src", format, report)
		findings, in := ParseAll(mustOpen(t, report), report, ReadOptions{Root: dir})
		if in.Error != "" || len(findings) == 0 {
			t.Fatalf("%s: %d findings, error %q", format, len(findings), in.Error)
		}
		if len(in.NotAnalysed) != 1 || in.NotAnalysed[0].Path != "src/com/ex/Naïve.java" ||
			!strings.HasPrefix(in.NotAnalysed[0].Reason, "ParseException: Parse exception in file") {
			t.Errorf("%s: not analysed %q", format, in.NotAnalysed)
		}
	}
}

func mustOpen(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
