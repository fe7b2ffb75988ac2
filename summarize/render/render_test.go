package render

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/reports/reportstest"
	"github.com/recap-dev/recap/summarize"
)

// scenarios are the views every format has goldens for.
func scenarios() map[string]*summarize.View {
	empty := summarize.NewCollector().View([]reports.Input{{Path: "empty.sarif", Format: "sarif", Tool: "PMD"}})

	one := summarize.NewCollector()
	one.Add(reports.Finding{Tool: "PMD", Rule: "EmptyCatchBlock", Category: "Error Prone", Severity: reports.SeverityError, Path: "src/A.java", Line: 3})

	many := summarize.NewCollector()
	for i := 0; i < 30; i++ {
		sev := reports.Severities[i%3]
		many.Add(reports.Finding{Tool: []string{"PMD", "Checkstyle"}[i%2], Rule: []string{"R|pipe", "S", "T", "U"}[i%4],
			Category: []string{"Design", "sizes", "naming"}[i%3], Severity: sev, Path: []string{"a.java", "b.java", "c d.java"}[i%3]})
	}

	return map[string]*summarize.View{
		"empty": empty,
		"one":   one.View([]reports.Input{{Path: "pmd.sarif", Format: "sarif", Tool: "PMD", ToolVersion: "7.0.0", Findings: 1}}),
		"many": many.View([]reports.Input{
			{Path: "pmd.sarif", Format: "sarif", Tool: "PMD", Findings: 15, Suppressed: 2, Warnings: []string{"PMD reports that its execution failed"}},
			{Path: "checkstyle.xml", Format: "checkstyle", Tool: "Checkstyle", Findings: 15},
		}),
		"bad-input": one.View([]reports.Input{
			{Path: "pmd.sarif", Format: "sarif", Tool: "PMD", Findings: 1},
			{Path: "broken.sarif", Format: "sarif", Error: "broken.sarif: $.runs[0].results: line 14, column 20: want an array of results, got a number"},
		}),
	}
}

func TestRenderGolden(t *testing.T) {
	for _, format := range Names() {
		r, err := Lookup(format)
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range scenarios() {
			t.Run(format+"/"+name, func(t *testing.T) {
				var buf bytes.Buffer
				if err := r.Render(&buf, v); err != nil {
					t.Fatal(err)
				}
				reportstest.Golden(t, filepath.Join("testdata", name+"."+format+".golden"), buf.Bytes())
			})
		}
	}
}

func TestLookupUnknown(t *testing.T) {
	if _, err := Lookup("yaml"); err == nil {
		t.Error("Lookup(yaml) succeeded")
	}
}
