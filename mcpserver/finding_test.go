package mcpserver_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/mcpserver"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/tokens"
)

// detailWorkspace is the sample workspace with corpus reports that say more
// than a place (a fix, a code flow, related locations, a context region,
// rule texts, CWE ids), and the source files of two of them.
func detailWorkspace(t *testing.T) string {
	t.Helper()
	g := workspace(t)
	corpus := reportstest.SharedDir(t, "corpus")
	for dst, src := range map[string]string{
		"build/semgrep/autofix.sarif":   "sarif-other/semgrep-autofix-fixes.sarif",
		"build/semgrep/taint.sarif":     "sarif-other/semgrep-dataflow-codeflows.sarif",
		"build/fortify/fortify.sarif":   "sarif-other/fortify-converted-contextregion.sarif",
		"build/spotbugs/spotbugs-3.xml": "spotbugs-xml/spotbugs-3.1.12-withmessages-single-bug.xml",
		"build/trivy/trivy.sarif":       "sarif-other/trivy-alpine-310.sarif",
	} {
		g.Write(map[string]string{dst: readFile(t, filepath.Join(corpus, src))})
	}
	var reps []string
	for i := range reports.MaxFixReplacements + 1 {
		reps = append(reps, fmt.Sprintf(`{"deletedRegion":{"startLine":%d},"insertedContent":{"text":"x\\n"}}`, i+1))
	}
	g.Write(map[string]string{"build/big-fix.sarif": `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Fixer"}},"results":[{"ruleId":"F1",` +
		`"message":{"text":"many lines"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/f.txt"},"region":{"startLine":1}}}],` +
		`"fixes":[{"artifactChanges":[{"artifactLocation":{"uri":"src/f.txt"},"replacements":[` + strings.Join(reps, ",") + `]}]}]}]}]}`})
	g.Write(map[string]string{
		"targets/autofix/autofix.py": "import sys\n\n\ndef f(inputs, x):\n  inputs[x] = 1\n  if inputs[x + 1] == True:\n    return 1\n",
		"targets/taint/taint.py": "def main():\n    a = source1()\n    b = a\n    c = 1\n    d = 2\n    e = 3\n    f = 4\n" +
			"    sink = b\n    sink1(b)\n",
	})
	return g.Dir
}

// TestGetFindingDetails: getFinding answers what the rule is and why it
// matters in the tool's own words (PMD's and SpotBugs' descriptions), the
// fix as a diff against the file's current lines, the flow's steps and the
// related locations with their lines of code, the context region's
// snippet; within the budget, the least valuable parts going first.
func TestGetFindingDetails(t *testing.T) {
	root := detailWorkspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: root})
	find := func(report, rule string, maxTokens int) (mcpserver.FindingAnswer, string) {
		t.Helper()
		var v view
		call(t, cs, "analysis.getReports", map[string]any{"reports": []string{report}, "rules": []string{rule}, "limit": 1, "context": false}).decode(t, &v)
		if len(v.Findings) == 0 {
			t.Fatalf("no finding of %s in %s", rule, report)
		}
		var a mcpserver.FindingAnswer
		res := call(t, cs, "analysis.getFinding", map[string]any{"id": v.Findings[0].ID, "maxTokens": maxTokens})
		res.decode(t, &a)
		return a, res.text
	}
	ruleOf := func(report, tool, rule string) *reports.Rule {
		t.Helper()
		f, err := os.Open(filepath.Join(root, report))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		_, in := parsers.ParseAll(f, report, parsers.ReadOptions{Root: root})
		r := in.Rules.Lookup(tool, rule)
		if r == nil || r.Full == "" {
			t.Fatalf("%s: no description of %s", report, rule)
		}
		return r
	}

	t.Run("PMD rule in its own words", func(t *testing.T) {
		a, _ := find("build/reports/pmd.sarif", "ImmutableField", 10000)
		want := ruleOf("build/reports/pmd.sarif", "PMD", "ImmutableField")
		if a.Rule == nil || a.Rule.FullDescription != want.Full || !strings.HasPrefix(a.Rule.FullDescription, "Reports non-final fields whose value never changes") ||
			a.Finding.Category != "Design" || a.Finding.ToolCategory != "Design" || a.Finding.HelpURI != want.HelpURI || a.Rule.HelpURI != "" {
			t.Errorf("rule %+v", a.Rule)
		}
	})
	t.Run("SpotBugs rule in its own words", func(t *testing.T) {
		a, _ := find("build/spotbugs/spotbugs-3.xml", "DM_EXIT", 10000)
		want := &mcpserver.RuleInfo{ID: "DM_EXIT", Name: "Method invokes System.exit(...)", ShortDescription: "Method invokes System.exit(...)",
			FullDescription: "Invoking System.exit shuts down the entire Java virtual machine. This should only been done when it is appropriate. " +
				"Such calls make it hard or impossible for your code to be invoked by other code. Consider throwing a RuntimeException instead.",
			CWE: []int{382}, InReport: 1}
		if diff := cmp.Diff(want, a.Rule); diff != "" {
			t.Errorf("rule (-want +got):\n%s", diff)
		}
		if f := a.Finding; f.Tool != "SpotBugs" || f.Category != reports.CategoryBestPractices || f.ToolCategory != "BAD_PRACTICE" ||
			f.HelpURI != "https://spotbugs.readthedocs.io/en/latest/bugDescriptions.html#DM_EXIT" {
			t.Errorf("finding %+v", f)
		}
	})
	t.Run("fix as a diff", func(t *testing.T) {
		a, _ := find("build/semgrep/autofix.sarif", "rules.autofix.use-dict-get", 10000)
		// Semgrep's snapshot inserts a whole line over the matched
		// region: the diff shows what the report says.
		want := &mcpserver.FixInfo{Description: "Use `.get()` method to avoid a KeyNotFound error\nAutofix: Semgrep rule suggested fix",
			Diff: "--- a/targets/autofix/autofix.py\n+++ b/targets/autofix/autofix.py\n@@ -4,3 +4,3 @@\n def f(inputs, x):\n" +
				"-  inputs[x] = 1\n+    inputs.get(x) = 1 = 1\n   if inputs[x + 1] == True:\n"}
		if diff := cmp.Diff(want, a.Fix); diff != "" || !a.Finding.Fixable {
			t.Errorf("fix (-want +got):\n%s", diff)
		}
	})
	t.Run("flow with code", func(t *testing.T) {
		a, _ := find("build/semgrep/taint.sarif", "rules.classic", 10000)
		if a.Finding.FlowSteps != 4 || len(a.Flow) != 4 {
			t.Fatalf("%d steps of %d", len(a.Flow), a.Finding.FlowSteps)
		}
		got := []string{}
		for _, st := range a.Flow {
			got = append(got, st.Message+" | "+st.Code)
		}
		want := []string{"Source: 'source1()' @ 'targets/taint/taint.py:3' |     b = a", "Propagator : 'a' @ 'targets/taint/taint.py:3' |     b = a",
			"Propagator : 'b' @ 'targets/taint/taint.py:8' |     sink = b", "Sink: 'sink1(b)' @ 'targets/taint/taint.py:9' |     sink1(b)"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("flow (-want +got):\n%s", diff)
		}
	})
	t.Run("a fix too large to keep is said to exist", func(t *testing.T) {
		a, _ := find("build/big-fix.sarif", "F1", 10000)
		if !a.Finding.Fixable || a.Fix == nil || a.Fix.Diff != "" || len(a.Fix.Notes) != 1 || !strings.Contains(a.Fix.Notes[0], "does not keep") {
			t.Errorf("fixable %v, fix %+v", a.Finding.Fixable, a.Fix)
		}
	})
	t.Run("related, flow and context region without the source", func(t *testing.T) {
		a, _ := find("build/fortify/fortify.sarif", "97A5F38F-524B-4A83-94FA-9387B5265825", 10000)
		// Both code flows, of 4 and 5 steps, each step numbered with its flow.
		if len(a.Related) != 1 || a.Related[0].Line != 146 || a.Related[0].Code != "" || len(a.Flow) != 9 || a.Flow[1].Message != "Branch not taken" ||
			a.Flow[1].Flow != 1 || a.Flow[5].Message != "Branch taken" || a.Flow[5].Flow != 2 || a.Finding.FlowSteps != 9 {
			t.Errorf("related %+v, flow %+v", a.Related, a.Flow)
		}
		if a.Finding.SnippetLine != 143 || !strings.Contains(a.Finding.Snippet, "SqlDataReader myReader = myCommand.ExecuteReader();") {
			t.Errorf("snippet at %d: %q", a.Finding.SnippetLine, a.Finding.Snippet)
		}
		if a.Rule == nil || !strings.HasPrefix(a.Rule.FullDescription, "The program can potentially fail to release a system resource.") {
			t.Errorf("rule %+v", a.Rule)
		}
		// getReports shows the lines around the finding from the snippet
		// too, as recap findings does, and leaves the snippet to getFinding.
		var v view
		call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"build/fortify/fortify.sarif"},
			"rules": []string{"97A5F38F-524B-4A83-94FA-9387B5265825"}, "limit": 1}).decode(t, &v)
		if len(v.Findings) != 1 {
			t.Fatalf("%d findings", len(v.Findings))
		}
		fv := v.Findings[0]
		if len(fv.Context) == 0 || !strings.HasPrefix(fv.ContextNote, "from the report's snippet") || fv.Snippet != "" || fv.SnippetLine != 0 {
			t.Errorf("context %+v (%q), snippet %q at %d", fv.Context, fv.ContextNote, fv.Snippet, fv.SnippetLine)
		}
	})
	t.Run("within every budget", func(t *testing.T) {
		c, _ := tokens.New(tokens.Default)
		for _, q := range []struct{ report, rule string }{
			{"build/semgrep/taint.sarif", "rules.classic"}, {"build/semgrep/autofix.sarif", "rules.autofix.use-dict-get"},
			{"build/fortify/fortify.sarif", "97A5F38F-524B-4A83-94FA-9387B5265825"}, {"build/trivy/trivy.sarif", "CVE-2019-1549"},
			{"build/reports/pmd.sarif", "ImmutableField"}, {"build/spotbugs/spotbugs-3.xml", "DM_EXIT"},
		} {
			full, _ := find(q.report, q.rule, 25000)
			if len(full.Omitted) > 0 {
				t.Errorf("%s at 25000 tokens: %v left out", q.rule, full.Omitted)
			}
			for _, limit := range []int{256, 300, 400, 600, 800, 1200, 2000, 4000} {
				a, text := find(q.report, q.rule, limit)
				if n := c.Count(text); n > limit {
					t.Errorf("%s at %d tokens: %d", q.rule, limit, n)
				}
				if a.Finding.ID.IsZero() || a.Tokens == nil || a.Tokens.Budget != limit {
					t.Fatalf("%s at %d tokens: %+v", q.rule, limit, a)
				}
				// Each part left out has its marker.
				markers, _ := json.Marshal(a.Omitted)
				for _, c := range []struct {
					had, has bool
					what     string
				}{
					{full.Fix != nil, a.Fix != nil, "fix"},
					{full.Rule != nil && full.Rule.FullDescription != "", a.Rule != nil && a.Rule.FullDescription != "", "rule's"},
					{full.Rule != nil && full.Rule.Help != "", a.Rule != nil && a.Rule.Help != "", "rule's"},
					{len(full.Flow) > 0, len(a.Flow) == len(full.Flow), "code flow"},
					{len(full.Related) > 0, len(a.Related) == len(full.Related), "related"},
				} {
					if c.had && !c.has && !strings.Contains(string(markers), c.what) && !strings.Contains(string(markers), " parts (") {
						t.Errorf("%s at %d tokens: the %s is left out without a marker: %s", q.rule, limit, c.what, markers)
					}
				}
				// The rule's description goes before the finding: it is
				// kept whenever the fix or the flow is.
				if (a.Fix != nil || len(a.Flow) > 0) && full.Rule.FullDescription != "" && (a.Rule == nil || a.Rule.FullDescription == "") &&
					c.Count(full.Rule.FullDescription) < limit/4 {
					t.Errorf("%s at %d tokens: the fix or flow is kept, the rule's description not", q.rule, limit)
				}
			}
		}
	})
}

// TestGetReportsSecurity: getReports filters by CWE ids and to the
// findings about security, takes categories on the scale and in the tools'
// words, and counts the findings about security in its summary.
func TestGetReportsSecurity(t *testing.T) {
	root := detailWorkspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: root})
	var paths []string
	for _, p := range []string{"build/reports/pmd.sarif", "build/reports/checkstyle.xml", "build/reports/spotbugs.xml", "build/semgrep/autofix.sarif",
		"build/semgrep/taint.sarif", "build/fortify/fortify.sarif", "build/spotbugs/spotbugs-3.xml", "build/trivy/trivy.sarif"} {
		paths = append(paths, filepath.Join(root, p))
	}
	for name, c := range map[string]struct {
		args map[string]any
		flt  reports.Filter
		want int
	}{
		"security only":       {map[string]any{"securityOnly": true}, reports.Filter{Security: true}, 5}, // 4 Trivy, the sample's SQL injection (SpotBugs' SECURITY); not SpotBugs' DM_EXIT (a CWE alone), nor the sample's MALICIOUS_CODE
		"a CWE":               {map[string]any{"cwe": []string{"CWE-382"}}, reports.Filter{CWE: []int{382}}, 1},
		"CWE ids, bare":       {map[string]any{"cwe": []string{"382", "79"}}, reports.Filter{CWE: []int{382, 79}}, 1},
		"the tool's word":     {map[string]any{"categories": []string{"bad_practice"}}, reports.Filter{Categories: []string{"BAD_PRACTICE"}}, 0},
		"the scale's name":    {map[string]any{"categories": []string{"best practices"}}, reports.Filter{Categories: []string{"Best Practices"}}, 0},
		"security and a tool": {map[string]any{"securityOnly": true, "tools": []string{"Trivy"}}, reports.Filter{Security: true, Tools: []string{"Trivy"}}, 4},
	} {
		t.Run(name, func(t *testing.T) {
			c.args["summaryOnly"] = true
			var v view
			call(t, cs, "analysis.getReports", c.args).decode(t, &v)
			_, want := expected(t, root, c.flt, paths...)
			if v.Summary.Total != want.Total || c.want > 0 && want.Total != c.want || want.Total == 0 {
				t.Fatalf("%d findings, the reports have %d (want %d)", v.Summary.Total, want.Total, c.want)
			}
			if diff := cmp.Diff(want.Security, v.Summary.Security); diff != "" {
				t.Errorf("security (-want +got):\n%s", diff)
			}
		})
	}
	if code := call(t, cs, "analysis.getReports", map[string]any{"cwe": []string{"SQL"}}).errorCode(t); code != mcpserver.CodeBadArgument {
		t.Errorf("cwe SQL: %s", code)
	}
}

// TestContextEditedSinceReport: a finding whose file was edited after its
// report was written, and not committed, shows the file's lines now,
// noted so (in getReports' contextNote and getFinding's code.note): the
// tool may have read other code at the line. The same file as committed,
// and the other files, carry no note.
func TestContextEditedSinceReport(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	page := func() []summarize.FindingView {
		t.Helper()
		var v view
		call(t, cs, "analysis.getReports", map[string]any{"limit": 40, "group": false, "maxTokens": 25000}).decode(t, &v)
		return v.Findings
	}
	first := page()
	var f summarize.FindingView
	for _, x := range first {
		if x.ContextNote != "" {
			t.Fatalf("before any edit, %s has the note %q", x.ID, x.ContextNote)
		}
		if f.ID.IsZero() && x.Line > 0 && len(x.Context) > 0 {
			f = x
		}
	}
	src := filepath.Join(g.Dir, filepath.FromSlash(f.Path))
	text := readFile(t, src)
	later := time.Now().Add(time.Minute)
	edit := func(s string) { t.Helper(); writeAt(t, src, s, later) }
	edit("// a\n// b\n// c\n" + text)
	noted, others := 0, 0
	for _, x := range page() {
		switch {
		case x.Path == f.Path && len(x.Context) > 0:
			if !strings.Contains(x.ContextNote, f.Path+" changed after build/reports/") || !strings.Contains(x.ContextNote, "may not be the code the tool read") {
				t.Errorf("%s of the edited file: note %q", x.ID, x.ContextNote)
			}
			noted++
		case x.ContextNote != "":
			t.Errorf("%s of %s, not edited: note %q", x.ID, x.Path, x.ContextNote)
		default:
			others++
		}
	}
	if noted == 0 || others == 0 {
		t.Errorf("%d findings of the edited file noted, %d others: want some of each", noted, others)
	}
	// A budget that leaves the code out keeps what the note says of it.
	short := 0
	for _, budget := range []int{800, 1000, 1200, 1500, 2000} {
		var small view
		call(t, cs, "analysis.getReports", map[string]any{"limit": 10, "maxTokens": budget}).decode(t, &small)
		for _, x := range small.Findings {
			if x.Path == f.Path && strings.HasPrefix(x.ContextNote, "context omitted to keep the token budget; the file changed after its report was written") {
				short++
			} else if x.Path != f.Path && strings.Contains(x.ContextNote, "changed after") {
				t.Errorf("%s of %s, not edited, in %d tokens: %q", x.ID, x.Path, budget, x.ContextNote)
			}
		}
	}
	if short == 0 {
		t.Errorf("under small budgets, no finding of the edited file says it changed")
	}
	var a mcpserver.FindingAnswer
	call(t, cs, "analysis.getFinding", map[string]any{"id": f.ID.String()}).decode(t, &a)
	if a.Code == nil || !strings.Contains(a.Code.Note, f.Path+" changed after build/reports/") {
		t.Errorf("getFinding's code of the edited file: %+v", a.Code)
	}
	// A budget that leaves the code out says what its note said (the
	// smallest, 256, folds every marker into one: not there).
	for _, budget := range []int{400, 600} {
		var small mcpserver.FindingAnswer
		call(t, cs, "analysis.getFinding", map[string]any{"id": f.ID.String(), "maxTokens": budget}).decode(t, &small)
		said := small.Code != nil && strings.Contains(small.Code.Note, "changed after")
		for _, o := range small.Omitted {
			said = said || strings.HasPrefix(o.What, "the code around the finding (the file changed after its report was written")
		}
		if !said {
			t.Errorf("getFinding in %d tokens does not say the file changed: code %+v, omitted %+v", budget, small.Code, small.Omitted)
		}
	}
	edit(text) // as committed, newer than the report
	for _, x := range page() {
		if x.ContextNote != "" {
			t.Errorf("the file as committed: %s has the note %q", x.ID, x.ContextNote)
		}
	}
	// The edit committed after the report was written: noted, as
	// committed since.
	edit("// a\n// b\n// c\n" + text)
	at := later.Add(time.Minute).UTC().Format(time.RFC3339)
	commit := exec.Command("git", "commit", "-q", "-am", "an edit after the report")
	commit.Dir = g.Dir
	commit.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_DATE="+at, "GIT_COMMITTER_DATE="+at)
	if out, err := commit.CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
	noted = 0
	for _, x := range page() {
		if x.Path == f.Path && strings.Contains(x.ContextNote, f.Path+" changed after build/reports/") && strings.Contains(x.ContextNote, "(committed since)") {
			noted++
		} else if x.Path != f.Path && x.ContextNote != "" {
			t.Errorf("%s of %s, not edited: note %q", x.ID, x.Path, x.ContextNote)
		}
	}
	if noted == 0 {
		t.Errorf("the edit committed after the report: no finding of %s noted", f.Path)
	}
}

// TestGetFindingOfCommandLineID: an id of recap findings on the command
// line (a 4-character tag, of that run's reports) is no id of the
// server's: analysis.getFinding says so, not that the reports changed,
// and the finding's fingerprint, the same in both, finds it.
func TestGetFindingOfCommandLineID(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	findings, _ := expected(t, g.Dir, reports.Filter{}, filepath.Join(g.Dir, "build", "reports"))
	var f reports.Finding
	for _, x := range findings {
		if x.Line > 0 {
			f = x
			break
		}
	}
	if len(f.ID.Tag) == 8 {
		t.Fatalf("the command line's id %s has a tag as long as the server's", f.ID)
	}
	r := call(t, cs, "analysis.getFinding", map[string]any{"id": f.ID.String()})
	if code := r.errorCode(t); code != mcpserver.CodeNotFound || !strings.Contains(r.text, "this server's ids have 8 characters before the dash") || strings.Contains(r.text, "may have changed") {
		t.Errorf("a command line's id: %s %s", code, r.text)
	}
	var a mcpserver.FindingAnswer
	call(t, cs, "analysis.getFinding", map[string]any{"fingerprint": f.Fingerprint}).decode(t, &a)
	if a.Finding.Path != f.Path || a.Finding.Line != f.Line || a.Finding.Rule != f.Rule {
		t.Errorf("by the command line's fingerprint %s: %s:%d %s, want %s:%d %s", f.Fingerprint, a.Finding.Path, a.Finding.Line, a.Finding.Rule, f.Path, f.Line, f.Rule)
	}
}
