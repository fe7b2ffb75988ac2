package mcpserver_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/internal/triagetest"
	"github.com/recap-dev/recap/mcpserver"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/triage"
)

// TestTriaged: analysis.getReports looks at the root's triage file at each
// call: its five decisions on the sample leave their problems out of the
// page and the counts by default (summary.triaged counts them), triaged
// include shows them marked, only alone; a changed file is read again;
// analysis.getFinding shows a finding's decision.
func TestTriaged(t *testing.T) {
	_, g := sampleReports(t)
	file, decided := triagetest.Sample(t)
	triagetest.Write(t, g.Dir, file)
	key := func(f *reports.Finding) string {
		return f.Tool + " " + f.Rule + " " + f.Path + " " + strconv.Itoa(f.Line)
	}
	isDecided := map[string]bool{}
	for _, d := range decided {
		isDecided[key(&d)] = true
	}
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	tests := []struct {
		name             string
		args             map[string]any
		total, pageTotal int
		onPage, marked   int
		shown            bool
	}{
		{"exclude", nil, tooltest.SampleFindings - 9, tooltest.SampleProblems - 5, 0, 0, false},
		{"include", map[string]any{"triaged": "include"}, tooltest.SampleFindings, tooltest.SampleProblems, 5, 5, true},
		{"only", map[string]any{"triaged": "only"}, 9, 5, 5, 5, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := map[string]any{"limit": 200, "maxTokens": 25000, "context": false}
			for k, v := range tt.args {
				args[k] = v
			}
			var v view
			call(t, cs, "analysis.getReports", args).decode(t, &v)
			tr := v.Summary.Triaged
			if v.Summary.Total != tt.total || v.Page == nil || v.Page.Total != tt.pageTotal || tr == nil || tr.Problems != 5 || tr.Total != 9 || tr.Shown != tt.shown {
				t.Fatalf("total %d, page %+v, triaged %+v; want %d, %d", v.Summary.Total, v.Page, tr, tt.total, tt.pageTotal)
			}
			onPage, marked := 0, 0
			for _, f := range v.Findings {
				if isDecided[key(&f.Finding)] {
					onPage++
					if f.Triage.Suppressed() {
						marked++
					}
				}
			}
			if onPage != tt.onPage || marked != tt.marked {
				t.Errorf("%d decided findings on the page, %d marked; want %d, %d", onPage, marked, tt.onPage, tt.marked)
			}
		})
	}
	if code := call(t, cs, "analysis.getReports", map[string]any{"triaged": "maybe"}).errorCode(t); code != mcpserver.CodeBadArgument {
		t.Errorf("triaged maybe: %s, want %s", code, mcpserver.CodeBadArgument)
	}

	// getFinding shows the decision.
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"limit": 5, "context": false, "triaged": "only"}).decode(t, &v)
	if len(v.Findings) == 0 {
		t.Fatal("no triaged finding shown")
	}
	var a mcpserver.FindingAnswer
	got := call(t, cs, "analysis.getFinding", map[string]any{"id": v.Findings[0].ID})
	got.decode(t, &a)
	if a.Finding.Triage == nil || a.Finding.Triage.State != "false-positive" || a.Finding.Triage.By != "octocat" {
		t.Errorf("getFinding %s: triage %+v; want the decision", v.Findings[0].ID, a.Finding.Triage)
	}
	// Its first line says so, as the command line's findings mark it.
	if line, _, _ := strings.Cut(got.text, "\n"); a.Finding.Triage != nil && !strings.HasSuffix(line, " [false positive: "+a.Finding.Triage.Reason+"]") {
		t.Errorf("getFinding's first line %q does not name the decision", line)
	}

	// A finding of a decided problem, not decided itself: covered through
	// its problem, as getReports counts it, and its first line says so.
	var all view
	call(t, cs, "analysis.getReports", map[string]any{"limit": 200, "maxTokens": 25000, "context": false, "triaged": "only"}).decode(t, &all)
	covered := 0
	for _, p := range all.Findings {
		for _, o := range p.AlsoReportedBy {
			var c mcpserver.FindingAnswer
			res := call(t, cs, "analysis.getFinding", map[string]any{"id": o.ID.String()})
			res.decode(t, &c)
			tr := c.Finding.Triage
			if !tr.Suppressed() {
				t.Errorf("getFinding %s (of the problem %s leads): triage %+v, want its problem's decision", o.ID, p.ID, tr)
				continue
			}
			if line, _, _ := strings.Cut(res.text, "\n"); !strings.Contains(line, "["+reports.TriageLabel(tr.State)+": ") {
				t.Errorf("getFinding %s: first line %q does not name the decision", o.ID, line)
			}
			covered++
		}
	}
	if covered == 0 {
		t.Error("no decided problem has another finding: the sample's decisions cover no duplicate")
	}
	// A session of its own, whose only call asked for one tool's
	// findings, is told the same of each covered finding: the decision
	// does not depend on what the session's last call grouped.
	fresh, _ := connect(t, mcpserver.Options{Root: g.Dir})
	call(t, fresh, "analysis.getReports", map[string]any{"tools": []string{"SpotBugs"}, "summaryOnly": true})
	for _, p := range all.Findings {
		for _, o := range append([]reports.Also{{ID: p.ID}}, p.AlsoReportedBy...) {
			var c mcpserver.FindingAnswer
			call(t, fresh, "analysis.getFinding", map[string]any{"id": o.ID.String()}).decode(t, &c)
			if !c.Finding.Triage.Suppressed() {
				t.Errorf("a fresh session's getFinding %s (of the problem %s leads): triage %+v, want its problem's decision", o.ID, p.ID, c.Finding.Triage)
			}
		}
	}

	// A filter that leaves out a decided finding leaves its problem's
	// other findings triaged all the same (the cache's findings of other
	// tools are seen, not passed over).
	triaged := map[string]bool{}
	for _, p := range all.Findings {
		triaged[p.ID.String()] = true
		for _, o := range p.AlsoReportedBy {
			triaged[o.ID.String()] = true
		}
	}
	through := 0
	for _, tool := range []string{"Checkstyle", "PMD", "SpotBugs"} {
		var inc, exc view
		call(t, cs, "analysis.getReports", map[string]any{"limit": 200, "maxTokens": 25000, "context": false, "triaged": "include", "tools": []string{tool}}).decode(t, &inc)
		call(t, cs, "analysis.getReports", map[string]any{"limit": 200, "maxTokens": 25000, "context": false, "tools": []string{tool}}).decode(t, &exc)
		marked := 0
		for _, f := range inc.Findings {
			if triaged[f.ID.String()] != f.Triage.Suppressed() {
				t.Errorf("tools %s: %s marked %+v; without the filter triaged %v", tool, f.ID, f.Triage, triaged[f.ID.String()])
			}
			if f.Triage.Suppressed() {
				marked++
			}
		}
		for _, f := range exc.Findings {
			if triaged[f.ID.String()] {
				t.Errorf("tools %s: %s, triaged without the filter, on the page", tool, f.ID)
			}
		}
		if tr := exc.Summary.Triaged; marked > 0 && (tr == nil || tr.Problems != marked || exc.Summary.Total+tr.Total != inc.Summary.Total) {
			t.Errorf("tools %s: %d of %d marked; excluded: total %d, triaged %+v", tool, marked, inc.Summary.Total, exc.Summary.Total, exc.Summary.Triaged)
		}
		through += marked
	}
	if through <= 5 {
		t.Errorf("%d findings triaged under the tools' filters, want more than the 5 decided", through)
	}

	// The file is read at each call: emptied, nothing is triaged.
	if err := os.WriteFile(filepath.Join(g.Dir, ".recap", "triage.yml"), []byte("version: 1\nentries: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	v = view{}
	call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true}).decode(t, &v)
	if v.Summary.Triaged != nil || v.Summary.Total != tooltest.SampleFindings {
		t.Errorf("emptied triage file: total %d, triaged %+v; want %d and none", v.Summary.Total, v.Summary.Triaged, tooltest.SampleFindings)
	}
}

// TestTriageParsedOnce: the triage file is looked at each call, read
// when it may have changed, parsed only when its bytes changed, and its
// decisions matched only by a call that decides findings: a page of a
// result already made takes none (a file of 10,000 decisions took 50 ms
// to parse and 80 more to index, where a warm page takes a few).
func TestTriageParsedOnce(t *testing.T) {
	_, g := sampleReports(t)
	file, _ := triagetest.Sample(t)
	triagetest.Write(t, g.Dir, file)
	path := filepath.Join(g.Dir, ".recap", "triage.yml")
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	reads, parses, matchers := mcpserver.TriageWork()
	type work struct{ reads, parses, matchers int64 }
	step := func(what string, args map[string]any, want work) view {
		t.Helper()
		var v view
		call(t, cs, "analysis.getReports", args).decode(t, &v)
		r, p, m := mcpserver.TriageWork()
		if got := (work{r - reads, p - parses, m - matchers}); got != want {
			t.Errorf("%s: %+v; want %+v", what, got, want)
		}
		reads, parses, matchers = r, p, m
		return v
	}
	first := step("the first call", map[string]any{"limit": 5, "context": false}, work{1, 1, 1})
	if first.Summary.Triaged == nil || first.Summary.Triaged.Problems != 5 {
		t.Fatalf("triaged %+v, want 5 problems", first.Summary.Triaged)
	}
	// Written just now: read again at each call, not parsed again.
	step("the next page, by the query", map[string]any{"limit": 5, "offset": 5, "context": false}, work{1, 0, 0})
	step("the next page, by its buffer", map[string]any{"bufferId": first.BufferID, "offset": 10}, work{0, 0, 0})
	step("another query", map[string]any{"limit": 5, "context": false, "triaged": "only"}, work{1, 0, 1})
	// Changed, it is parsed again, and decides again.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("version: 1\nentries: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v := step("the file emptied", map[string]any{"limit": 5, "context": false}, work{1, 1, 0}); v.Summary.Triaged != nil {
		t.Errorf("emptied: triaged %+v", v.Summary.Triaged)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if v := step("the file as it was", map[string]any{"limit": 5, "context": false}, work{1, 1, 0}); v.Summary.Triaged == nil || v.Summary.Triaged.Problems != 5 {
		t.Errorf("restored: triaged %+v, want 5 problems", v.Summary.Triaged)
	}
	// Unchanged since long before it was read (here 100 ms): then not
	// read again while its stamp is the same.
	defer mcpserver.SetUnchangedAfter(100 * time.Millisecond)()
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	step("its time set back", map[string]any{"limit": 5, "context": false}, work{1, 0, 0})
	// Read again by a call at least 100 ms after its change time (the
	// call before may have been as close as that)...
	time.Sleep(200 * time.Millisecond)
	call(t, cs, "analysis.getReports", map[string]any{"limit": 5, "context": false})
	reads, parses, matchers = mcpserver.TriageWork()
	// ... then taken as unchanged.
	step("unchanged", map[string]any{"limit": 5, "context": false}, work{0, 0, 0})
	// Written over with as many bytes, its modification time set back as
	// it was (cp -p, touch -r): its change time tells.
	other := bytes.Replace(data, []byte("state: false-positive"), []byte("state: confirmed\n    "), 1)
	if len(other) != len(data) || bytes.Equal(other, data) {
		t.Fatalf("the changed file has %d bytes, want %d, and other bytes", len(other), len(data))
	}
	if err := os.WriteFile(path, other, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	if v := step("written over, its time set back", map[string]any{"limit": 5, "context": false}, work{1, 1, 1}); v.Summary.Triaged == nil || v.Summary.Triaged.Problems != 4 {
		t.Errorf("a decision made confirmed: triaged %+v, want 4 problems", v.Summary.Triaged)
	}
	// Any write since gives it another time.
	if err := os.WriteFile(path, []byte("version: 1\nentries: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v := step("emptied again", map[string]any{"limit": 5, "context": false}, work{1, 1, 0}); v.Summary.Triaged != nil {
		t.Errorf("emptied again: triaged %+v", v.Summary.Triaged)
	}
}

// sampleReports is a git copy of the sample with its three reports in
// build/reports, and the checkout's root.
func sampleReports(t testing.TB) (root string, g *gittest.Repo) {
	t.Helper()
	root = reportstest.RepoRoot(t)
	g = gittest.Sample(t, root)
	dir := filepath.Join(g.Dir, "build", "reports")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, r := range []string{"pmd.sarif", "checkstyle.xml", "spotbugs.xml"} {
		if out, err := exec.Command("cp", filepath.Join(root, "testdata", "reports", r), dir).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v\n%s", err, out)
		}
	}
	return root, g
}

// TestTriageExpiredLine: a decision whose until has come brings its
// finding back, and the answer's first line says so, as the command
// line's headline does.
func TestTriageExpiredLine(t *testing.T) {
	_, g := sampleReports(t)
	file, _ := triagetest.Sample(t)
	file.Entries = file.Entries[:1]
	file.Entries[0].Until = "2020-01-01"
	triagetest.Write(t, g.Dir, file)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	res := call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true})
	var v view
	res.decode(t, &v)
	if tr := v.Summary.Triaged; tr == nil || tr.Expired != 1 {
		t.Fatalf("triaged %+v, want 1 expired", v.Summary.Triaged)
	}
	if line, _, _ := strings.Cut(res.text, "\n"); !strings.Contains(line, "; 1 finding back: triage expired") {
		t.Errorf("first line %q does not say the finding is back", line)
	}
}

// firstRepeated returns the first problem of several findings of the
// sample's page: the finding shown, and another of its findings.
func firstRepeated(t *testing.T, cs *mcp.ClientSession) (lead, dup reports.FindingID) {
	t.Helper()
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"limit": 200, "maxTokens": 25000, "context": false}).decode(t, &v)
	for _, f := range v.Findings {
		if len(f.AlsoReportedBy) > 0 {
			return f.ID, f.AlsoReportedBy[0].ID
		}
	}
	t.Fatal("no problem of several findings")
	return lead, dup
}

// TestTriageConfirmedProblem: a problem one finding of which is decided
// confirmed and another false positive is shown whole: getReports marks
// its findings confirmed and getFinding, in a session of its own, says
// the false-positive finding is marked by the confirmation (via).
func TestTriageConfirmedProblem(t *testing.T) {
	_, g := sampleReports(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	lead, dup := firstRepeated(t, cs)
	entry := func(id reports.FindingID, state triage.State) triage.Entry {
		var a mcpserver.FindingAnswer
		call(t, cs, "analysis.getFinding", map[string]any{"id": id.String()}).decode(t, &a)
		e := triage.EntryFor(&a.Finding, os.DirFS(g.Dir))
		e.State, e.Reason = state, "decided on "+id.String()
		return e
	}
	triagetest.Write(t, g.Dir, &triage.File{Version: 1, Entries: []triage.Entry{entry(lead, triage.FalsePositive), entry(dup, triage.Confirmed)}})

	fresh, _ := connect(t, mcpserver.Options{Root: g.Dir})
	var a mcpserver.FindingAnswer
	call(t, fresh, "analysis.getFinding", map[string]any{"id": lead.String()}).decode(t, &a)
	if tr := a.Finding.Triage; tr == nil || tr.State != string(triage.Confirmed) || tr.Via != dup {
		t.Errorf("getFinding %s, decided false positive in a problem %s is confirmed in: triage %+v; want confirmed via %s", lead, dup, tr, dup)
	}
	// The confirmed finding names the decision it overrules, as pages do.
	var ca mcpserver.FindingAnswer
	call(t, fresh, "analysis.getFinding", map[string]any{"id": dup.String()}).decode(t, &ca)
	if tr := ca.Finding.Triage; tr == nil || tr.State != string(triage.Confirmed) || len(tr.OverrulesOthers) != 1 || tr.OverrulesOthers[0].ID != lead || tr.OverrulesOthers[0].State != string(triage.FalsePositive) {
		t.Errorf("getFinding %s, confirmed over %s's false positive: triage %+v", dup, lead, tr)
	}
	var inc view
	call(t, fresh, "analysis.getReports", map[string]any{"limit": 200, "maxTokens": 25000, "context": false, "triaged": "include"}).decode(t, &inc)
	for _, f := range inc.Findings {
		if f.ID == lead || f.ID == dup {
			if f.Triage == nil || f.Triage.State != string(triage.Confirmed) {
				t.Errorf("getReports: %s shows the problem marked %+v; want confirmed", f.ID, f.Triage)
			}
		}
	}
	if tr := inc.Summary.Triaged; tr != nil && tr.Problems != 0 {
		t.Errorf("triaged %+v; want no triaged problem", tr)
	}
}

// TestTriageToolDisagrees: analysis.triage says when the decision it
// proposes disagrees with the triage file's decision on another finding
// of its problem, in both directions, and says nothing when they agree.
func TestTriageToolDisagrees(t *testing.T) {
	_, g := sampleReports(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	lead, dup := firstRepeated(t, cs)
	var da mcpserver.FindingAnswer
	call(t, cs, "analysis.getFinding", map[string]any{"id": dup.String()}).decode(t, &da)
	for _, tc := range []struct {
		there, taken triage.State
		want         string
	}{
		{triage.Confirmed, triage.FalsePositive, "reports the same problem and is decided confirmed (\"decided there\"): a confirmation overrules a decision that suppresses, so the problem stays shown, marked confirmed; to hide it, decide " + dup.String() + " again"},
		{triage.WontFix, triage.Confirmed, "reports the same problem and is decided wont-fix (\"decided there\"): this confirmation overrules that decision, so the problem is shown, marked confirmed; if the wont-fix stands, decide " + lead.String() + " as wont-fix instead"},
		{triage.WontFix, triage.FalsePositive, ""},
		{triage.Confirmed, triage.Confirmed, ""},
	} {
		t.Run(string(tc.there)+" then "+string(tc.taken), func(t *testing.T) {
			e := triage.EntryFor(&da.Finding, os.DirFS(g.Dir))
			e.State, e.Reason = tc.there, "decided there"
			triagetest.Write(t, g.Dir, &triage.File{Version: 1, Entries: []triage.Entry{e}})
			fresh, _ := connect(t, mcpserver.Options{Root: g.Dir})
			if tc.there == triage.Confirmed {
				// getFinding marks the finding as getReports does: its
				// problem is confirmed through the other finding.
				var fa mcpserver.FindingAnswer
				call(t, fresh, "analysis.getFinding", map[string]any{"id": lead.String()}).decode(t, &fa)
				if tr := fa.Finding.Triage; tr == nil || tr.State != string(triage.Confirmed) || tr.Via != dup {
					t.Errorf("getFinding %s: triage %+v; want confirmed via %s", lead, tr, dup)
				}
			}
			res := call(t, fresh, "analysis.triage", map[string]any{"id": lead.String(), "state": string(tc.taken), "reason": "decided here"})
			var a mcpserver.TriageAnswer
			res.decode(t, &a)
			if tc.want == "" {
				if a.Disagrees != "" {
					t.Errorf("disagrees %q; want nothing", a.Disagrees)
				}
				return
			}
			if !strings.Contains(a.Disagrees, tc.want) || !strings.HasPrefix(a.Disagrees, dup.String()+" (") {
				t.Errorf("disagrees %q; want %s named and %q", a.Disagrees, dup, tc.want)
			}
			if line, _, _ := strings.Cut(res.text, "\n"); !strings.Contains(line, "disagrees with the decision on another finding of its problem") {
				t.Errorf("first line %q does not say it disagrees", line)
			}
		})
	}
}
