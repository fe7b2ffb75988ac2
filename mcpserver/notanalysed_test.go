package mcpserver_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/mcpserver"
	"github.com/recap-dev/recap/summarize"
)

// analysis.getReports names the files a tool could not analyse on the
// input's status, with the tool's reason.
func TestNotAnalysedInAnswer(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src", "com", "ex")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Naïve.java", "Ok.java"} {
		if err := os.WriteFile(filepath.Join(src, name), []byte("package com.ex;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// PMD 7.28's report of a run on a file it could not parse (stack trace cut).
	report := `<?xml version="1.0" encoding="UTF-8"?>
<pmd xmlns="http://pmd.sourceforge.net/report/2.0.0" version="7.28.0" timestamp="2026-11-28T07:28:50.412">
<file name="src/com/ex/Ok.java">
<violation beginline="5" endline="5" begincolumn="13" endcolumn="14" rule="UnusedLocalVariable" ruleset="Best Practices" package="com.ex" class="Ok" method="f" variable="x" priority="3">
Avoid unused local variables such as 'x'.
</violation>
</file>
<error filename="src/com/ex/Naïve.java" msg="ParseException: Parse exception in file 'src/com/ex/Naïve.java' at line 5, column 17: Encountered &quot;;&quot;.
Was expecting:
    &quot;{&quot; ...">
<![CDATA[net.sourceforge.pmd.lang.ast.ParseException: Parse exception in file 'src/com/ex/Naïve.java' at line 5, column 17: Encountered ";".
	at net.sourceforge.pmd.lang.java.ast.JavaParserImpl.generateParseException(JavaParserImpl.java:14986)
]]>
</error>
</pmd>
`
	if err := os.WriteFile(filepath.Join(dir, "pmd.xml"), []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, mcpserver.Options{Root: dir})
	var v summarize.View
	call(t, cs, "analysis.getReports", nil).decode(t, &v)
	if len(v.Inputs) != 1 || len(v.Inputs[0].NotAnalysed) != 1 {
		t.Fatalf("inputs %+v", v.Inputs)
	}
	if n := v.Inputs[0].NotAnalysed[0]; n.Path != "src/com/ex/Naïve.java" || n.Reason != "ParseException: Parse exception in file 'src/com/ex/Naïve.java' at line 5, column 17: Encountered \";\"." {
		t.Errorf("not analysed %+v", n)
	}
}
