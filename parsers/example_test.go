package parsers_test

import (
	"fmt"
	"strings"

	"github.com/recap-dev/recap/parsers"
)

// ExampleParseAll reads a Checkstyle report from memory; the paths under the
// root are made relative to it.
func ExampleParseAll() {
	report := `<?xml version="1.0" encoding="UTF-8"?>
<checkstyle version="10.12.0">
<file name="/work/app/src/Main.java">
<error line="12" column="5" severity="warning" message="'42' is a magic number." source="com.puppycrawl.tools.checkstyle.checks.coding.MagicNumberCheck"/>
</file>
</checkstyle>`
	findings, in := parsers.ParseAll(strings.NewReader(report), "checkstyle-result.xml", parsers.ReadOptions{Root: "/work/app"})
	fmt.Println(in.Format, in.Tool, in.ToolVersion, in.Findings)
	for _, f := range findings {
		fmt.Printf("%s:%d:%d %s %s/%s: %s\n", f.Path, f.Line, f.Column, f.Severity, f.Category, f.RuleName, f.Message)
	}
	// Output:
	// checkstyle Checkstyle 10.12.0 1
	// src/Main.java:12:5 warning Error Prone/MagicNumber: '42' is a magic number.
}

// ExampleFormatTitles shows the lists of formats that help texts and
// messages take from the format table.
func ExampleFormatTitles() {
	fmt.Println(parsers.FormatNames())
	fmt.Println("no " + parsers.FormatTitles("or") + " report found")
	// Output:
	// sarif, spotbugs, checkstyle, pmd, codeclimate
	// no SARIF, SpotBugs, Checkstyle, PMD or Code Quality report found
}
