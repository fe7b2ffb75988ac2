package render

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/reports"
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
			Category: []string{"Design", "Design", "Code Style"}[i%3], ToolCategory: []string{"Design", "sizes", "naming"}[i%3], Severity: sev,
			Path: []string{"a.java", "b.java", "c d.java"}[i%3]})
	}

	paged := summarize.NewCollector()
	paged.KeepPage(0, 2)
	for i := 1; i <= 3; i++ {
		paged.Add(reports.Finding{ID: reports.ID("abcd", i), Tool: "Checkstyle", Rule: "com.puppycrawl.tools.checkstyle.checks.sizes.LineLengthCheck",
			RuleName: "LineLength", Category: "Design", ToolCategory: "sizes", Severity: reports.SeverityWarning, Path: "src/A.java", Line: 10 * i, Column: 3,
			Message: "Line is longer than 80 characters <b>|</b>"})
	}
	page := paged.View([]reports.Input{{Path: "checkstyle.xml", Format: "checkstyle", Tool: "Checkstyle", Findings: 3}})
	page.Findings[0].Context = []summarize.ContextLine{{Line: 9, Text: "int a;"}, {Line: 10, Text: "String s = \"|\";"}, {Line: 11, Text: "}"}}
	page.Findings[1].ContextNote = "no context: no such file or directory"

	based := summarize.NewCollector()
	based.KeepPage(0, 5)
	for i, state := range []string{reports.BaselineNew, reports.BaselineUnchanged, reports.BaselineUnchanged} {
		based.Add(reports.Finding{ID: reports.ID("efgh", i+1), Tool: "PMD", Rule: "UnusedLocalVariable", Category: "Best Practices",
			Severity: reports.SeverityWarning, Path: "src/B.java", Line: 5 + i, Message: "Avoid unused local variables", Baseline: state})
	}
	baseline := based.View([]reports.Input{{Path: "pmd.sarif", Format: "sarif", Tool: "PMD", Findings: 3}})
	baseline.Summary.Baseline = &summarize.BaselineCounts{New: 1, Unchanged: 2, Fixed: 4}

	return map[string]*summarize.View{
		"grouped":  groupedView(),
		"detail":   detailView(),
		"baseline": baseline,
		"page":     page,
		"empty":    empty,
		"one":      one.View([]reports.Input{{Path: "pmd.sarif", Format: "sarif", Tool: "PMD", ToolVersion: "7.0.0", Findings: 1}}),
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

// groupedView is a page of problems that several findings report
// (docs/formats.md, "Duplicates"): a Checkstyle finding that PMD reports
// too, one that eleven rules report (more than an annotation names), with
// names that would be Markdown, mentions and workflow commands, and a
// finding alone.
func groupedView() *summarize.View {
	first := []summarize.AlsoReported{{Tool: "PMD", Rule: "MethodArgumentCouldBeFinal", ID: reports.ID("pmd", 1)}}
	second := []summarize.AlsoReported{{Tool: "PMD", Rule: "UseEqualsToCompareStrings", ID: reports.ID("pmd", 2)},
		{Tool: "SpotBugs", Rule: "ES_COMPARING_STRINGS_WITH_EQ", ID: reports.ID("sb", 1)}}
	for j := 0; j < 9; j++ {
		second = append(second, summarize.AlsoReported{Tool: "@team #1 [x](http://e.io)", Rule: fmt.Sprintf("::error::R%d", j), ID: reports.ID("x", j+1)})
	}
	c := summarize.NewCollector()
	c.KeepPage(0, 5)
	dup := map[string]bool{}
	c.Skip(func(f *reports.Finding) bool { return dup[f.ID.String()] }, len(first)+len(second))
	c.Add(reports.Finding{ID: reports.ID("cs", 1), Tool: "Checkstyle", Rule: "com.puppycrawl.tools.checkstyle.checks.FinalParametersCheck", RuleName: "FinalParameters",
		Category: "Code Style", Severity: reports.SeverityError, Path: "src/Order.java", Line: 16, Column: 18,
		Message: "Parameter customer should be final.", Fingerprint: "f1"})
	c.Add(reports.Finding{ID: reports.ID("cs", 2), Tool: "Checkstyle", Rule: "com.puppycrawl.tools.checkstyle.checks.coding.StringLiteralEqualityCheck",
		RuleName: "StringLiteralEquality", Category: "Error Prone", Severity: reports.SeverityError, Path: "src/Order.java", Line: 30, Column: 9,
		Message: "Literal Strings should be compared using equals(), not '=='.", Fingerprint: "f2"})
	c.Add(reports.Finding{ID: reports.ID("pmd", 9), Tool: "PMD", Rule: "SystemPrintln", Category: "Best Practices", Severity: reports.SeverityWarning,
		Path: "src/Order.java", Line: 40, Message: "Usage of System.out/err", Fingerprint: "f3"})
	for _, a := range append(slices.Clone(first), second...) {
		dup[a.ID.String()] = true
		c.Add(reports.Finding{ID: a.ID, Tool: a.Tool, Rule: a.Rule, Severity: reports.SeverityNote, Path: "src/Order.java", Line: 16,
			Message: "the same problem", Fingerprint: "d" + a.ID.String()})
	}
	v := c.View([]reports.Input{{Path: "checkstyle.xml", Format: "checkstyle", Tool: "Checkstyle", Findings: 2},
		{Path: "pmd.sarif", Format: "sarif", Tool: "PMD", Findings: 14}})
	v.Summary.Problems = v.Summary.Total - len(first) - len(second)
	v.Summary.Duplicates = &summarize.DuplicateCounts{Findings: len(first) + len(second), Problems: 2,
		BySeverity: summarize.SeverityCounts{Note: len(first) + len(second)}}
	for i := range v.Findings {
		switch v.Findings[i].ID {
		case reports.ID("cs", 1):
			v.Findings[i].AlsoReportedBy = first
		case reports.ID("cs", 2):
			v.Findings[i].AlsoReportedBy = second
		}
	}
	return v
}

// detailView is a page of findings with what reports say beyond a place:
// rule texts (with Markdown, HTML and mentions that must stay inert), a
// security severity and CWE ids, a fix, a flow, related locations, a
// multi-line message and a context region's snippet.
func detailView() *summarize.View {
	c := summarize.NewCollector()
	c.KeepPage(0, 5)
	c.Add(reports.Finding{ID: reports.ID("sec", 1), Tool: "CodeQL", Rule: "js/sql-injection", RuleName: "SqlInjection", Category: "Security", ToolCategory: "security",
		Severity: reports.SeverityError, Path: "src/db.js", Line: 12, EndLine: 12, Column: 5, EndColumn: 30, SecuritySeverity: 8.8, CWE: []int{89, 564},
		Message: "This query depends on a [user-provided value](1).\nSanitize it first.", FlowSteps: 3, Related: 1, Fixable: true,
		HelpURI: "https://codeql.github.com/codeql-query-help/javascript/js-sql-injection/",
		Snippet: "function q(req) {\n  const id = req.query.id;\n  db.run(\"SELECT * FROM t WHERE id=\" + id);\n}\n", SnippetLine: 10,
		Detail: &reports.Detail{
			AllFlows: 1, Flows: []reports.Flow{{Steps: []reports.Location{{Path: "src/db.js", Line: 11, Column: 14, EndColumn: 26, Message: "req.query.id"}, {Path: "src/db.js", Line: 11, Message: "id"},
				{Path: "src/db.js", Line: 12, Column: 10, EndColumn: 30, Message: "the query"}}}},
			Related: []reports.Location{{Path: "src/db.js", Line: 11, Column: 14, EndColumn: 26, Message: "user-provided value"}},
			Fix: &reports.Fix{Description: "Use a parameter", Replacements: []reports.Replacement{
				{Path: "src/db.js", Line: 12, Column: 10, EndColumn: 30, Text: "\"SELECT * FROM t WHERE id=?\", id"}}},
		}})
	c.Add(reports.Finding{ID: reports.ID("sec", 2), Tool: "CodeQL", Rule: "js/unused-local-variable", Category: "Design", ToolCategory: "maintainability",
		Severity: reports.SeverityNote, Path: "src/db.js", Line: 3, Message: "Unused variable foo."})
	rules := &reports.Rules{}
	rules.Add("CodeQL", reports.Rule{ID: "js/sql-injection", Name: "SqlInjection", Short: "Database query built from user-controlled sources",
		Full: "Building a query from user input <img src=x> lets an attacker change it; see [OWASP](https://owasp.org) or ask @security-team about #42.\n\n- use parameters\n- never concatenate",
		Help: "# SQL injection\n\n| a | b |\n|---|---|\n\n```js\ndb.run(q)\n```", Tags: []string{"security", "external/cwe/cwe-089"},
		SecuritySeverity: 8.8, Precision: "high", CWE: []int{89}})
	return c.View([]reports.Input{{Path: "codeql.sarif", Format: "sarif", Tool: "CodeQL", ToolVersion: "2.20.0", Findings: 2, Rules: rules}})
}

func TestRenderGolden(t *testing.T) {
	for _, format := range Names(Findings) {
		f, err := Lookup(Findings, format)
		if err != nil {
			t.Fatal(err)
		}
		r := f.View
		for name, v := range scenarios() {
			t.Run(format+"/"+name, func(t *testing.T) {
				var buf bytes.Buffer
				if err := r.Render(&buf, v); err != nil {
					t.Fatal(err)
				}
				got := buf.Bytes()
				if format == "html" {
					got = elideAssets(got)
				}
				reportstest.Golden(t, filepath.Join("testdata", name+"."+format+".golden"), got)
			})
		}
	}
}

// TestFormats: each kind of output is written by the formats of the table,
// which help lists, and a name of another kind is refused, naming those of
// the kind.
func TestFormats(t *testing.T) {
	for name, want := range map[string]string{
		"codequality": `unknown output format "codequality": GitLab Code Quality is codeclimate (want one of codeclimate, github, html, json, markdown, sarif, text)`,
		"Annotations": `unknown output format "Annotations": GitHub's workflow annotations are github (want one of`,
		"md":          `unknown output format "md": Markdown is markdown (want one of`,
	} {
		if _, err := Lookup(Findings, name); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Lookup(%q) = %v, want %s", name, err, want)
		}
	}
	tests := []struct {
		kind    Kind
		names   []string
		help    string
		unknown string // Lookup's error for "sarif" or "yaml"
	}{
		{Findings, []string{"text", "markdown", "json", "sarif", "github", "codeclimate", "html"},
			"text, markdown (job summary, PR comment), json, sarif (code scanning), github (workflow annotations), codeclimate (GitLab Code Quality) or html (a page to open in a browser)",
			`unknown output format "yaml" (want one of codeclimate, github, html, json, markdown, sarif, text)`},
		{Diffs, []string{"text", "markdown", "json"}, "text, markdown or json",
			`unknown output format "sarif" for a diff (want text, markdown or json)`},
		{TokenCounts, []string{"text", "json"}, "text or json",
			`unknown output format "sarif" for token counts (want text or json)`},
		{Reviews, []string{"json", "markdown", "html"}, "json (the review request), markdown (its body) or html (a page of the findings on changed lines)",
			`review writes json, markdown or html, not "sarif"`},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.names, Names(tc.kind)); diff != "" {
			t.Errorf("Names(%d) (-want +got):\n%s", tc.kind, diff)
		}
		if Default(tc.kind) != tc.names[0] {
			t.Errorf("Default(%d) = %s, want %s", tc.kind, Default(tc.kind), tc.names[0])
		}
		if got := Help(tc.kind); got != tc.help {
			t.Errorf("Help(%d) = %q, want %q", tc.kind, got, tc.help)
		}
		for _, name := range tc.names {
			if f, err := Lookup(tc.kind, name); err != nil || f.Name != name || !f.Writes(tc.kind) {
				t.Errorf("Lookup(%d, %s) = %+v, %v", tc.kind, name, f, err)
			}
		}
		bad := "sarif"
		if tc.kind == Findings {
			bad = "yaml"
		}
		if _, err := Lookup(tc.kind, bad); err == nil || err.Error() != tc.unknown {
			t.Errorf("Lookup(%d, %s) = %v, want %s", tc.kind, bad, err, tc.unknown)
		}
	}
}

// TestFormatRows: what each row says of a format is what its renderer
// does: a budgeted format can be laid out in parts, a format of workflow
// commands writes them and others guard against them.
func TestFormatRows(t *testing.T) {
	for _, f := range formats {
		if _, ok := f.View.(summarize.Layout); f.Fitted && !ok {
			t.Errorf("%s is always budgeted but cannot be laid out in parts", f.Name)
		}
		var b bytes.Buffer
		g := f.Guard(&b)
		io.WriteString(g, "::error::x\n")
		g.Close()
		if got := b.String() == "::error::x\n"; got != f.Commands {
			t.Errorf("%s: a workflow command passed the guard: %t, want %t", f.Name, got, f.Commands)
		}
	}
}

// TestMarkdownLimit: a page too large for the limit keeps whole findings,
// says how many it left out, and stays within the limit.
func TestMarkdownLimit(t *testing.T) {
	c := summarize.NewCollector()
	c.KeepPage(0, 200)
	for i := 1; i <= 200; i++ {
		c.Add(reports.Finding{ID: reports.ID("t", i), Tool: "PMD", Rule: "CommentRequired", Category: "Documentation",
			Severity: reports.SeverityNote, Path: "src/Big.java", Line: i, Message: strings.Repeat("long message ", 40)})
	}
	v := c.View([]reports.Input{{Path: "pmd.sarif", Format: "sarif", Tool: "PMD", Findings: 200}})
	for i := range v.Findings {
		v.Findings[i].Context = []summarize.ContextLine{{Line: i, Text: strings.Repeat("x", 100)}, {Line: i + 1, Text: "y"}}
	}
	for _, limit := range []int{2000, 20000, CommentLimit} {
		var b bytes.Buffer
		if err := (Markdown{MaxChars: limit}).Render(&b, v); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if len(out) > limit {
			t.Errorf("limit %d: %d bytes", limit, len(out))
		}
		if strings.Count(out, "<details>") != strings.Count(out, "</details>") {
			t.Errorf("limit %d: a finding was cut in the middle", limit)
		}
		shown := strings.Count(out, "<details>")
		if want := fmt.Sprintf("_%d of these 200 findings left out", 200-shown); !strings.Contains(out, want) {
			t.Errorf("limit %d: %d shown, no %q marker in\n%s", limit, shown, want, out[max(0, len(out)-400):])
		}
		if limit == CommentLimit && shown < 50 {
			t.Errorf("only %d findings of ~700 bytes each in %d bytes", shown, limit)
		}
	}
	var b bytes.Buffer
	if err := (Markdown{MaxChars: SummaryLimit}).Render(&b, v); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "<details>"); n != 200 || strings.Contains(b.String(), "left out") {
		t.Errorf("1 MiB: %d findings shown, want all 200 and no marker", n)
	}
}

// TestGitHubLimits: at most 10 annotations of each level, inputs' errors
// among them, the closing notice among the notices.
func TestGitHubLimits(t *testing.T) {
	c := summarize.NewCollector()
	c.KeepTop(10, 10, 10)
	for i := 0; i < 90; i++ {
		c.Add(reports.Finding{ID: reports.ID("g", i), Tool: "PMD", Rule: "R", Severity: reports.Severities[i%3],
			Path: "a,b:c.java", Line: i + 1, Message: "100% wrong\nsecond line"})
	}
	v := c.View([]reports.Input{{Path: "bad.sarif", Error: "bad.sarif: line 1: not JSON"}, {Path: "ok.sarif", Findings: 90}})
	var b bytes.Buffer
	if err := (GitHub{}).Render(&b, v); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	count := func(prefix string) int {
		return strings.Count(out, "\n"+prefix) + map[bool]int{true: 1}[strings.HasPrefix(out, prefix)]
	}
	if n := count("::error "); n != 10 {
		t.Errorf("%d errors, want 10 (1 input + 9 findings)", n)
	}
	if n := count("::warning "); n != 10 {
		t.Errorf("%d warnings, want 10", n)
	}
	if n := count("::notice "); n != 10 {
		t.Errorf("%d notices, want 10 (9 findings + the totals)", n)
	}
	for _, want := range []string{"file=a%2Cb%3Ac.java,line=1,title=PMD R::100%25 wrong second line\n",
		"::notice title=recap::90 findings in 1 file, annotated as 30 error, 30 warning, 30 note. Annotated: the first 28"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// TestHeadlineLevels: the GitHub closing notice and the Markdown headline
// count errors, warnings and notes by the levels the hosts show (the
// impact's), as the annotations are; the tool's words stay in bySeverity.
func TestHeadlineLevels(t *testing.T) {
	type fd struct {
		sev    reports.Severity
		impact reports.Impact
	}
	tests := []struct {
		name     string
		findings []fd
		notice   string
		markdown string
	}{
		{"a high warning among low errors", []fd{{reports.SeverityWarning, reports.ImpactHigh}, {reports.SeverityError, reports.ImpactLow}, {reports.SeverityError, reports.ImpactLow}},
			"3 findings in 1 file, annotated as 1 error, 0 warning, 2 note", "Levels by importance: **1** error · **0** warning · **2** note, from 1 input"},
		{"a medium note and a blocker note", []fd{{reports.SeverityNote, reports.ImpactMedium}, {reports.SeverityNote, reports.ImpactBlocker}},
			"2 findings in 1 file, annotated as 1 error, 1 warning, 0 note", "Levels by importance: **1** error · **1** warning · **0** note, from 1 input"},
		{"no impact: the severity", []fd{{reports.SeverityError, 0}},
			"1 finding in 1 file, annotated as 1 error, 0 warning, 0 note", "Levels by importance: **1** error · **0** warning · **0** note, from 1 input"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := summarize.NewCollector()
			c.KeepTop(10, 10, 10)
			for i, x := range tc.findings {
				c.Add(reports.Finding{ID: reports.ID("n", i), Tool: "PMD", Rule: "R", Severity: x.sev, Impact: x.impact, Path: "A.java", Line: i + 1, Message: "m"})
			}
			v := c.View([]reports.Input{{Path: "a.sarif", Findings: len(tc.findings)}})
			var gh, md bytes.Buffer
			if err := (GitHub{}).Render(&gh, v); err != nil {
				t.Fatal(err)
			}
			if err := (Markdown{}).Render(&md, v); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(gh.String(), "::notice title=recap::"+tc.notice+".\n") {
				t.Errorf("notice, want %q:\n%s", tc.notice, gh.String())
			}
			if !strings.Contains(md.String(), tc.markdown) {
				t.Errorf("markdown headline, want %q:\n%s", tc.markdown, md.String())
			}
		})
	}
}

// TestHeadlineInputsRead: the headlines count the inputs read; recap's
// own output that a search found is listed with its warning, not counted.
func TestHeadlineInputsRead(t *testing.T) {
	c := summarize.NewCollector()
	c.Add(reports.Finding{ID: reports.ID("n", 1), Tool: "PMD", Rule: "R", Severity: reports.SeverityError, Path: "A.java", Line: 1, Message: "m"})
	own := "recap's own SARIF, made from other reports: not read (name it alone to read it)"
	v := c.View([]reports.Input{{Path: "a.sarif", Findings: 1}, {Path: "recap.sarif", Format: "sarif", Warnings: []string{own}, LeftOut: true}})
	for _, tc := range []struct {
		name string
		r    Renderer
		want []string
	}{
		{"text", Text{}, []string{"1 finding in 1 file from 1 input\n", own}},
		{"markdown", Markdown{}, []string{"**0** note, from 1 input\n", own}},
		{"html", HTML{}, []string{`"leftOut":true`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := tc.r.Render(&out, v); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("want %q in:\n%.2000s", w, out.String())
				}
			}
		})
	}
}

// TestHeadlineSameFiles: the text headline and the job summary's say when a report of a tool
// lies beside another on the same files (its findings count twice), and
// says nothing without one.
func TestHeadlineSameFiles(t *testing.T) {
	c := summarize.NewCollector()
	c.Add(reports.Finding{ID: reports.ID("n", 1), Tool: "PMD", Rule: "R", Severity: reports.SeverityError, Path: "A.java", Line: 1, Message: "m"})
	twice := "old/pmd.sarif is a report of PMD" + reports.SameFilesNote + "1 file in common): both are read, and a finding both give counts twice; if one is an older run, give the newer alone"
	for _, tc := range []struct {
		name   string
		inputs []reports.Input
		want   bool
	}{
		{"two runs", []reports.Input{{Path: "old/pmd.sarif", Tool: "PMD", Findings: 1}, {Path: "pmd.sarif", Tool: "PMD", Findings: 1, Warnings: []string{twice}}}, true},
		{"one run", []reports.Input{{Path: "pmd.sarif", Tool: "PMD", Findings: 1, Warnings: []string{"PMD warning: w"}}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := (Text{}).Render(&out, c.View(tc.inputs)); err != nil {
				t.Fatal(err)
			}
			const line = "counted twice: 1 report of a tool beside another on the same files, a finding both give counted in each (see the warnings)\n"
			if got := strings.Contains(out.String(), line); got != tc.want {
				t.Errorf("the line %q: %v, want %v, in:\n%.1500s", line, got, tc.want, out.String())
			}
			// The job summary too.
			out.Reset()
			if err := (Markdown{}).Render(&out, c.View(tc.inputs)); err != nil {
				t.Fatal(err)
			}
			const md = "_counted twice: 1 report of a tool beside another on the same files, a finding both give counted in each (see the inputs)._\n"
			if got := strings.Contains(out.String(), md); got != tc.want {
				t.Errorf("markdown: the line %q: %v, want %v, in:\n%.1500s", md, got, tc.want, out.String())
			}
		})
	}
}
