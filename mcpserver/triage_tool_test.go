package mcpserver_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/mcpserver"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/tokens"
	"github.com/recap-dev/recap/triage"
)

// triageFindings is a page of the workspace's findings with context off.
func triageFindings(t *testing.T, call1 func(string, map[string]any) result) []view {
	t.Helper()
	var v view
	call1("analysis.getReports", map[string]any{"limit": 30, "context": false, "group": false, "maxTokens": 20000}).decode(t, &v)
	lined := v.Findings[:0]
	for _, f := range v.Findings {
		if f.Line > 0 {
			lined = append(lined, f)
		}
	}
	v.Findings = lined
	if len(v.Findings) < 10 {
		t.Fatalf("%d findings in the page, want 10 or more", len(v.Findings))
	}
	return []view{v}
}

// TestTriage: analysis.triage proposes the entry of a finding, named as
// the triage file names it (tool, rule, path, the location fingerprint of
// its line in the root's file, the line's text), and writes it only when
// the server allows it; the entry written is the one the matcher honours.
func TestTriage(t *testing.T) {
	g := workspace(t)
	now := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	head := strings.TrimSpace(g.Git("rev-parse", "HEAD"))
	file := filepath.Join(g.Dir, ".recap", "triage.yml")
	for _, tc := range []struct {
		name  string
		write bool
	}{{"read-only", false}, {"writes allowed", true}} {
		t.Run(tc.name, func(t *testing.T) {
			os.RemoveAll(filepath.Join(g.Dir, ".recap"))
			cs, _ := connect(t, mcpserver.Options{Root: g.Dir, AllowTriageWrites: tc.write, Now: func() time.Time { return now }})
			v := triageFindings(t, func(tool string, args map[string]any) result { return call(t, cs, tool, args) })[0]
			f := v.Findings[3]
			var a mcpserver.TriageAnswer
			call(t, cs, "analysis.triage", map[string]any{"id": f.ID, "state": "false-positive",
				"reason": "the input is checked by the caller", "link": "https://example.com/t/1", "until": "2027-06-01"}).decode(t, &a)
			src, err := os.ReadFile(filepath.Join(g.Dir, filepath.FromSlash(f.Path)))
			if err != nil {
				t.Fatal(err)
			}
			want := triage.Entry{Tool: f.Tool, Rule: f.Rule, Path: f.Path, Location: triage.Locations(src)[f.Line-1],
				Line: triage.LineText(src, f.Line), Message: strings.Join(strings.Fields(f.Message), " "),
				State: triage.FalsePositive, Reason: "the input is checked by the caller", By: "claude-code",
				Date: "2026-11-28", Until: "2027-06-01", Link: "https://example.com/t/1", Commit: head}
			if d := cmp.Diff(want, a.Entry); d != "" {
				t.Errorf("entry (-want +got):\n%s", d)
			}
			parsed, err := triage.Parse("answer", []byte("version: 1\nentries:\n"+a.YAML))
			if err != nil || len(parsed.Entries) != 1 {
				t.Fatalf("the answer's YAML does not read as an entry: %v\n%s", err, a.YAML)
			}
			if d := cmp.Diff(want, parsed.Entries[0]); d != "" {
				t.Errorf("the YAML's entry (-want +got):\n%s", d)
			}
			if a.Written != tc.write || a.File != ".recap/triage.yml" {
				t.Errorf("written %v in %s, want %v in .recap/triage.yml", a.Written, a.File, tc.write)
			}
			_, statErr := os.Stat(file)
			if !tc.write {
				if !strings.Contains(a.Next, "--allow-triage-writes") || !strings.Contains(a.Next, "commit") {
					t.Errorf("the read-only answer does not say how to write or keep the entry: %s", a.Next)
				}
				if statErr == nil {
					t.Errorf("a read-only server wrote %s", file)
				}
				return
			}
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			tf, err := triage.Parse(file, b)
			if err != nil || len(tf.Entries) != 1 {
				t.Fatalf("the file: %v %d entries\n%s", err, len(tf.Entries), b)
			}
			m := triage.NewMatcher(tf, os.DirFS(g.Dir), now)
			if d := m.Decide(&f.Finding); !d.Suppresses() {
				t.Errorf("the entry written does not cover its finding: %+v", d)
			}
			// The same finding decided again: the entry is replaced, not added.
			call(t, cs, "analysis.triage", map[string]any{"fingerprint": f.Fingerprint, "state": "wont-fix", "reason": "legacy code, to go"}).decode(t, &a)
			if !a.Written || !a.Replaced || a.Entry.State != triage.WontFix {
				t.Errorf("decided again: written %v replaced %v state %s", a.Written, a.Replaced, a.Entry.State)
			}
			b, _ = os.ReadFile(file)
			if tf, err = triage.Parse(file, b); err != nil || len(tf.Entries) != 1 || tf.Entries[0].State != triage.WontFix {
				t.Errorf("after the second decision: %v\n%s", err, b)
			}
			// The same decision again changes nothing: the file is not
			// written again, and the answer says so.
			before, err := os.Stat(file)
			if err != nil {
				t.Fatal(err)
			}
			a = mcpserver.TriageAnswer{}
			call(t, cs, "analysis.triage", map[string]any{"id": f.ID, "state": "wont-fix", "reason": "legacy code, to go"}).decode(t, &a)
			if a.Written || a.Replaced || !a.Unchanged || !strings.HasPrefix(a.Next, "Unchanged: .recap/triage.yml holds this decision already") {
				t.Errorf("the same decision again: written %v replaced %v unchanged %v: %s", a.Written, a.Replaced, a.Unchanged, a.Next)
			}
			if after, err := os.Stat(file); err != nil || !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
				t.Errorf("the same decision again rewrote the file (%v)", err)
			}
		})
	}
}

// TestTriageStaleID: an id listed before its report changed (the tools
// ran again, and its number names another finding now) is refused by
// analysis.triage, nothing written, and by analysis.getFinding; listed
// again, the ids are current and the decision lands on the finding
// asked about.
func TestTriageStaleID(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir, AllowTriageWrites: true, Now: func() time.Time { return time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC) }})
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"tools": []string{"PMD"}, "group": false, "context": false, "limit": 50, "maxTokens": 20000}).decode(t, &v)
	var f *summarize.FindingView
	for i := range v.Findings {
		if strings.HasSuffix(v.Findings[i].ID.String(), "-2") {
			f = &v.Findings[i]
		}
	}
	if f == nil {
		t.Fatalf("no PMD finding numbered 2 in %d", len(v.Findings))
	}
	// The report again, its first result gone: number 2 is another finding.
	sarif := filepath.Join(g.Dir, "build", "reports", "pmd.sarif")
	var log map[string]any
	if err := json.Unmarshal([]byte(readFile(t, sarif)), &log); err != nil {
		t.Fatal(err)
	}
	run := log["runs"].([]any)[0].(map[string]any)
	run["results"] = run["results"].([]any)[1:]
	b, err := json.Marshal(log)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sarif, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for tool, args := range map[string]map[string]any{
		"analysis.triage":     {"id": f.ID, "state": "false-positive", "reason": "r"},
		"analysis.getFinding": {"id": f.ID},
	} {
		r := call(t, cs, tool, args)
		if code := r.errorCode(t); code != mcpserver.CodeNotFound || !strings.Contains(r.text, "build/reports/pmd.sarif changed since its ids were listed") {
			t.Errorf("%s of an id listed before its report changed: %s", tool, r.text)
		}
	}
	if _, err := os.Stat(filepath.Join(g.Dir, ".recap")); err == nil {
		t.Errorf("a refused decision made .recap")
	}
	// By its fingerprint, or by its id listed again: that finding.
	v = view{}
	call(t, cs, "analysis.getReports", map[string]any{"tools": []string{"PMD"}, "group": false, "context": false, "limit": 50, "maxTokens": 20000}).decode(t, &v)
	id := ""
	for _, x := range v.Findings {
		if x.Fingerprint == f.Fingerprint {
			id = x.ID.String()
		}
	}
	if id == "" || id == f.ID.String() {
		t.Fatalf("the finding listed again: id %q (was %s)", id, f.ID)
	}
	var a mcpserver.TriageAnswer
	call(t, cs, "analysis.triage", map[string]any{"id": id, "state": "false-positive", "reason": "r"}).decode(t, &a)
	if !a.Written || a.Entry.Rule != f.Rule || a.Entry.Path != f.Path {
		t.Errorf("decided by its id listed again: written %v, %s at %s, want %s at %s", a.Written, a.Entry.Rule, a.Entry.Path, f.Rule, f.Path)
	}
}

// TestTriageConcurrent: decisions on different findings made at once, by
// several sessions of one server and by two servers over the same root
// (two processes), are all kept.
func TestTriageConcurrent(t *testing.T) {
	g := workspace(t)
	opts := mcpserver.Options{Root: g.Dir, AllowTriageWrites: true}
	cs1, _ := connect(t, opts)
	cs2, _ := connect(t, opts)
	v := triageFindings(t, func(tool string, args map[string]any) result { return call(t, cs1, tool, args) })[0]
	const n = 10
	var wg sync.WaitGroup
	answers := make([]result, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cs := cs1
			if i%2 == 1 {
				cs = cs2
			}
			answers[i] = call(t, cs, "analysis.triage", map[string]any{"fingerprint": v.Findings[i].Fingerprint, "state": "accepted-risk", "reason": fmt.Sprintf("decision %d", i)})
		}()
	}
	wg.Wait()
	for i, r := range answers {
		var a mcpserver.TriageAnswer
		r.decode(t, &a)
		if !a.Written {
			t.Errorf("decision %d not written", i)
		}
	}
	b, err := os.ReadFile(filepath.Join(g.Dir, ".recap", "triage.yml"))
	if err != nil {
		t.Fatal(err)
	}
	tf, err := triage.Parse("triage.yml", b)
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]bool{}
	for _, e := range tf.Entries {
		reasons[e.Reason] = true
	}
	for i := range n {
		if !reasons[fmt.Sprintf("decision %d", i)] {
			t.Errorf("decision %d lost; the file:\n%s", i, b)
		}
	}
	if ents, _ := os.ReadDir(filepath.Join(g.Dir, ".recap")); len(ents) != 1 {
		t.Errorf(".recap holds %v, want triage.yml alone", ents)
	}
}

// TestTriageErrors: each mistake is a coded error that says what to do,
// and writes nothing; a triage file that is a link out of the root is
// refused.
func TestTriageErrors(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir, AllowTriageWrites: true, Now: func() time.Time { return time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC) }})
	v := triageFindings(t, func(tool string, args map[string]any) result { return call(t, cs, tool, args) })[0]
	id := v.Findings[0].ID
	for _, tc := range []struct {
		name string
		args map[string]any
		code string
		says string
	}{
		{"no reason", map[string]any{"id": id, "state": "false-positive"}, mcpserver.CodeBadArgument, "reason"},
		{"blank reason", map[string]any{"id": id, "state": "false-positive", "reason": "   "}, mcpserver.CodeBadArgument, "reason is required"},
		{"unknown state", map[string]any{"id": id, "state": "nonsense", "reason": "r"}, mcpserver.CodeBadArgument, "state"},
		{"no finding", map[string]any{"state": "confirmed", "reason": "r"}, mcpserver.CodeBadArgument, "id or its fingerprint"},
		{"both", map[string]any{"id": id, "fingerprint": v.Findings[0].Fingerprint, "state": "confirmed", "reason": "r"}, mcpserver.CodeBadArgument, "not both"},
		{"until passed", map[string]any{"id": id, "state": "wont-fix", "reason": "r", "until": "2026-11-01"}, mcpserver.CodeBadArgument, "has come"},
		{"until not a day", map[string]any{"id": id, "state": "wont-fix", "reason": "r", "until": "2026-13-45"}, mcpserver.CodeBadArgument, "YYYY-MM-DD"},
		{"link not http", map[string]any{"id": id, "state": "wont-fix", "reason": "r", "link": "javascript:alert(1)"}, mcpserver.CodeBadArgument, "http"},
		// Each value as the file's reader checks it.
		{"link no host", map[string]any{"id": id, "state": "wont-fix", "reason": "r", "link": "http:///path"}, mcpserver.CodeBadArgument, "link: "},
		{"gone id", map[string]any{"id": "zzzzzzzz-99999", "state": "wont-fix", "reason": "r"}, mcpserver.CodeNotFound, "getReports"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := call(t, cs, "analysis.triage", tc.args)
			if code := r.errorCode(t); code != tc.code || !strings.Contains(r.text, tc.says) {
				t.Errorf("%s: %s, want %s saying %q", tc.name, r.text, tc.code, tc.says)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(g.Dir, ".recap")); err == nil {
		t.Errorf("a refused call made .recap")
	}
	// A triage file that does not parse is not overwritten.
	bad := "version: 1\nentries:\n  - tool: pmd\n    state: maybe\n    reason: x\n"
	if err := os.MkdirAll(filepath.Join(g.Dir, ".recap"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(g.Dir, ".recap", "triage.yml"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	r := call(t, cs, "analysis.triage", map[string]any{"id": id, "state": "confirmed", "reason": "r"})
	if code := r.errorCode(t); code != mcpserver.CodeParseError {
		t.Errorf("a bad triage file: %s", r.text)
	}
	if b, _ := os.ReadFile(filepath.Join(g.Dir, ".recap", "triage.yml")); string(b) != bad {
		t.Errorf("a bad triage file was rewritten:\n%s", b)
	}
	// Every tool that honours the decisions says it the same way.
	for tool, args := range map[string]map[string]any{"analysis.getReports": {}, "analysis.getFinding": {"id": id}} {
		r := call(t, cs, tool, args)
		if code := r.errorCode(t); code != mcpserver.CodeParseError || !strings.Contains(r.text, ".recap/triage.yml:4") {
			t.Errorf("%s with a bad triage file: %s", tool, r.text)
		}
	}
	// .recap a link out of the root: refused, nothing written outside.
	outside := t.TempDir()
	os.RemoveAll(filepath.Join(g.Dir, ".recap"))
	if err := os.Symlink(outside, filepath.Join(g.Dir, ".recap")); err != nil {
		t.Fatal(err)
	}
	r = call(t, cs, "analysis.triage", map[string]any{"id": id, "state": "confirmed", "reason": "r"})
	if code := r.errorCode(t); code != mcpserver.CodeOutsideRoot {
		t.Errorf(".recap a link out: %s", r.text)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("written outside the root: %v", ents)
	}
	// The view, reading the decisions through that link, says so the
	// same way.
	if err := os.WriteFile(filepath.Join(outside, "triage.yml"), []byte("version: 1\nentries: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = call(t, cs, "analysis.getReports", map[string]any{})
	if code := r.errorCode(t); code != mcpserver.CodeOutsideRoot || !strings.Contains(r.text, ".recap/triage.yml is under a symbolic link that leads outside the root") {
		t.Errorf("getReports through .recap a link out: %s", r.text)
	}
}

// TestTriagePastedCopy: analysis.triage on a copy of the decided loop
// pasted above it (the copy took the occurrence the entry's location
// counts; git says the decided loop is the one below, and covers it)
// writes the copy's entry and keeps the old decision, anchored where its
// finding is now: both loops decided, each by its own entry.
func TestTriagePastedCopy(t *testing.T) {
	const method = "    public static long %s(long[] p) {\n        long s = 0;\n        for (int i = 0; i < p.length; i++) s += p[i];\n        return s;\n    }\n"
	class := func(methods ...string) string { return "public class P {\n\n" + strings.Join(methods, "\n") + "}\n" }
	sarif := func(lines ...int) string {
		var results []string
		for _, l := range lines {
			results = append(results, fmt.Sprintf(`{"ruleId":"ForLoopCanBeForeach","level":"warning","message":{"text":"This for loop can be replaced by a foreach loop"},`+
				`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/P.java"},"region":{"startLine":%d,"startColumn":9}}}]}`, l))
		}
		return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","version":"7.28.0"}},"results":[` + strings.Join(results, ",") + `]}]}`
	}
	g := gittest.New(t)
	g.Commit("one", map[string]string{"src/P.java": class(fmt.Sprintf(method, "avg")), "build/pmd.sarif": sarif(5)})
	now := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	decide := func(line int, reason string) mcpserver.TriageAnswer {
		t.Helper()
		cs, _ := connect(t, mcpserver.Options{Root: g.Dir, AllowTriageWrites: true, Now: func() time.Time { return now }})
		var v view
		call(t, cs, "analysis.getReports", map[string]any{"context": false, "group": false, "triaged": "include"}).decode(t, &v)
		for _, f := range v.Findings {
			if f.Line == line {
				var a mcpserver.TriageAnswer
				call(t, cs, "analysis.triage", map[string]any{"id": f.ID, "state": "wont-fix", "reason": reason}).decode(t, &a)
				return a
			}
		}
		t.Fatalf("no finding at line %d: %+v", line, v.Findings)
		return mcpserver.TriageAnswer{}
	}
	decide(5, "arrays of primitives")
	g.Commit("triage", nil)
	g.Commit("copy", map[string]string{"src/P.java": class(fmt.Sprintf(method, "mean"), fmt.Sprintf(method, "avg")), "build/pmd.sarif": sarif(5, 11)})
	a := decide(5, "the copy sums nothing")
	if !a.Written || a.Replaced || !strings.Contains(a.Next, "was kept") {
		t.Errorf("written %v, replaced %v: %s", a.Written, a.Replaced, a.Next)
	}
	f, err := triage.LoadFile(filepath.Join(g.Dir, ".recap", "triage.yml"))
	if err != nil || len(f.Entries) != 2 {
		t.Fatalf("the file: %v, %d entries, want 2", err, len(f.Entries))
	}
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"context": false, "group": false, "triaged": "include"}).decode(t, &v)
	got := map[int]string{}
	for _, f := range v.Findings {
		if f.Triage != nil {
			got[f.Line] = f.Triage.Reason
		}
	}
	if want := map[int]string{5: "the copy sums nothing", 11: "arrays of primitives"}; !cmp.Equal(got, want) {
		t.Errorf("decided %v, want %v", got, want)
	}
}

// TestTriageAgainAfterRename: a finding decided, its file renamed since
// (git mv), decided again through analysis.triage: the new decision
// replaces the entry that covered it under the old path (as recap triage
// does), so that it takes effect and nothing is left stale.
func TestTriageAgainAfterRename(t *testing.T) {
	sarif := func(file string) string {
		return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","rules":[{"id":"EmptyCatchBlock"}]}},"results":[` +
			`{"ruleId":"EmptyCatchBlock","level":"warning","message":{"text":"Avoid empty catch blocks"},` +
			`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/` + file + `"},"region":{"startLine":2}}}]}]}]}`
	}
	g := gittest.New(t)
	g.Commit("one", map[string]string{"src/A.java": "class A {\n  void a() { try { f(); } catch (Exception e) { } }\n  void f() {}\n}\n", "build/pmd.sarif": sarif("A.java")})
	now := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	decide := func(state, reason string) mcpserver.TriageAnswer {
		t.Helper()
		cs, _ := connect(t, mcpserver.Options{Root: g.Dir, AllowTriageWrites: true, Now: func() time.Time { return now }})
		var v view
		call(t, cs, "analysis.getReports", map[string]any{"context": false, "triaged": "include"}).decode(t, &v)
		if len(v.Findings) != 1 {
			t.Fatalf("%d findings", len(v.Findings))
		}
		var a mcpserver.TriageAnswer
		call(t, cs, "analysis.triage", map[string]any{"id": v.Findings[0].ID, "state": state, "reason": reason}).decode(t, &a)
		return a
	}
	decide("false-positive", "f never throws")
	g.Commit("triage", nil)
	g.Git("mv", "src/A.java", "src/B.java")
	g.Commit("rename", map[string]string{"build/pmd.sarif": sarif("B.java")})
	if a := decide("accepted-risk", "to be fixed"); !a.Written || !a.Replaced {
		t.Errorf("written %v, replaced %v: %s", a.Written, a.Replaced, a.Next)
	}
	f, err := triage.LoadFile(filepath.Join(g.Dir, ".recap", "triage.yml"))
	if err != nil || len(f.Entries) != 1 || f.Entries[0].Path != "src/B.java" || f.Entries[0].State != triage.AcceptedRisk {
		t.Fatalf("the file: %v, %+v", err, f)
	}
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"context": false, "triaged": "include"}).decode(t, &v)
	if len(v.Findings) != 1 || v.Findings[0].Triage == nil || v.Findings[0].Triage.Reason != "to be fixed" {
		t.Errorf("the finding after: %+v", v.Findings)
	}
}

// TestBaselineOfTriagedResults: a baseline of recap's SARIF holds the
// findings a triage decision left out (written as suppressed results, with
// the decision's state): the finding is unchanged against it, with its
// decision and without it, as on the command line.
func TestBaselineOfTriagedResults(t *testing.T) {
	result := func(more string) string {
		return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","rules":[{"id":"EmptyCatchBlock"}]}},"results":[` +
			`{"ruleId":"EmptyCatchBlock","level":"warning","message":{"text":"Avoid empty catch blocks"},` +
			`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/A.java"},"region":{"startLine":2}}}]` + more + `}]}]}`
	}
	g := gittest.New(t)
	g.Commit("one", map[string]string{"src/A.java": "class A {\n  void a() { try { f(); } catch (Exception e) { } }\n  void f() {}\n}\n", "build/pmd.sarif": result("")})
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"context": false}).decode(t, &v)
	if len(v.Findings) != 1 {
		t.Fatalf("%d findings", len(v.Findings))
	}
	fp := v.Findings[0].Fingerprint
	// recap's SARIF of the run that decided it: suppressed, its fingerprint kept.
	g.Commit("baseline", map[string]string{"base.sarif": result(`,"partialFingerprints":{"recapFingerprint/v1":"` + fp + `"},` +
		`"suppressions":[{"kind":"external","status":"accepted","justification":"f never throws","properties":{"state":"false-positive"}}]`)})
	for _, triaged := range []string{"exclude", "include"} {
		cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
		var v view
		call(t, cs, "analysis.getReports", map[string]any{"context": false, "reports": []string{"build/pmd.sarif"}, "baseline": []string{"base.sarif"}, "triaged": triaged}).decode(t, &v)
		if b := v.Summary.Baseline; b == nil || b.New != 0 || b.Unchanged != 1 || b.Fixed != 0 {
			t.Errorf("%s: against the baseline %+v, want 0 new, 1 unchanged, 0 fixed", triaged, b)
		}
	}
}

// TestTriageEditedSinceReport: analysis.triage refuses a finding whose
// file was edited after its report was written, and not committed: the
// report's line may hold other code now, and the entry would name that
// code. The file as committed is decided.
func TestTriageEditedSinceReport(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir, AllowTriageWrites: true, Now: func() time.Time { return time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC) }})
	v := triageFindings(t, func(tool string, args map[string]any) result { return call(t, cs, tool, args) })[0]
	f := v.Findings[0]
	src := filepath.Join(g.Dir, filepath.FromSlash(f.Path))
	text := readFile(t, src)
	later := time.Now().Add(time.Minute)
	edit := func(s string) { t.Helper(); writeAt(t, src, s, later) }
	edit("// a\n// b\n// c\n" + text)
	r := call(t, cs, "analysis.triage", map[string]any{"id": f.ID, "state": "false-positive", "reason": "r"})
	if code := r.errorCode(t); code != mcpserver.CodeNotFound || !strings.Contains(r.text, f.Path+" changed after build/reports/") || !strings.Contains(r.text, "run the tools again") {
		t.Errorf("a finding of a file edited since its report: %s", r.text)
	}
	if _, err := os.Stat(filepath.Join(g.Dir, ".recap")); err == nil {
		t.Errorf("a refused decision made .recap")
	}
	edit(text) // as committed, newer than the report
	var a mcpserver.TriageAnswer
	call(t, cs, "analysis.triage", map[string]any{"id": f.ID, "state": "false-positive", "reason": "r"}).decode(t, &a)
	if !a.Written {
		t.Errorf("the file as committed: not written: %s", a.Next)
	}
	// The edit committed after the report was written: refused too (the
	// report's line holds other code now).
	edit("// a\n// b\n// c\n" + text)
	at := later.Add(time.Minute).UTC().Format(time.RFC3339)
	commit := exec.Command("git", "commit", "-q", "-m", "an edit after the report", "--", f.Path)
	commit.Dir = g.Dir
	commit.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_DATE="+at, "GIT_COMMITTER_DATE="+at)
	if out, err := commit.CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
	before := readFile(t, filepath.Join(g.Dir, ".recap", "triage.yml"))
	r = call(t, cs, "analysis.triage", map[string]any{"id": f.ID, "state": "wont-fix", "reason": "r"})
	if code := r.errorCode(t); code != mcpserver.CodeNotFound || !strings.Contains(r.text, f.Path+" changed after build/reports/") || !strings.Contains(r.text, "(committed since): the line the report names may hold other code now") {
		t.Errorf("a finding of a file changed by a commit since its report: %s", r.text)
	}
	if after := readFile(t, filepath.Join(g.Dir, ".recap", "triage.yml")); after != before {
		t.Errorf("a refused decision changed the triage file:\n%s", after)
	}
}

// TestTriageBudget: analysis.triage's answer stays within maxTokens, the
// smallest too, with a long reason (the entry's long texts cut, its names
// whole), and says truly where the whole texts are: in the file written,
// or only with a larger budget for a proposal.
func TestTriageBudget(t *testing.T) {
	g := workspace(t)
	exact, err := tokens.New(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	for _, write := range []bool{false, true} {
		os.RemoveAll(filepath.Join(g.Dir, ".recap"))
		cs, _ := connect(t, mcpserver.Options{Root: g.Dir, AllowTriageWrites: write, Now: func() time.Time { return time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC) }})
		v := triageFindings(t, func(tool string, args map[string]any) result { return call(t, cs, tool, args) })[0]
		for i, budget := range []int{256, 300, 400, 1000} {
			for _, reason := range []string{"checked by the caller", strings.Repeat("é", 2000)} {
				f := v.Findings[i]
				r := call(t, cs, "analysis.triage", map[string]any{"id": f.ID, "state": "wont-fix", "reason": reason, "maxTokens": budget})
				var a mcpserver.TriageAnswer
				r.decode(t, &a)
				if n, chars := exact.Count(r.text), utf8.RuneCountInString(r.text); n > budget || chars > 4*budget {
					t.Errorf("write %v, budget %d, reason of %d: %d tokens, %d characters\n%s", write, budget, len(reason), n, chars, r.text)
				}
				if a.Entry.Tool != f.Tool || a.Entry.Rule != f.Rule || a.Entry.Path != f.Path || a.Entry.Location == "" {
					t.Errorf("budget %d: the entry's names cut: %+v", budget, a.Entry)
				}
				cut := a.Entry.Reason != reason
				where := "raise maxTokens for the entry whole"
				if write {
					where = "the file has them whole"
				}
				said := strings.Contains(r.text, "cut here: "+where)
				if cut != said {
					t.Errorf("write %v, budget %d: reason cut %v, said %v:\n%s", write, budget, cut, said, r.text)
				}
			}
		}
		if write {
			tf, err := triage.LoadFile(filepath.Join(g.Dir, ".recap", "triage.yml"))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range tf.Entries {
				if e.Reason != strings.Repeat("é", 2000) {
					t.Errorf("the file holds a reason of %d characters", utf8.RuneCountInString(e.Reason))
				}
			}
		}
	}
}

// TestTriageRefusesWhatCannotBeKept: analysis.triage does not decide a
// finding whose line is past the end of its file (its entry would cover
// every finding of its rule and message in the file), nor one whose rule
// the triage file cannot hold; nothing is written.
func TestTriageRefusesWhatCannotBeKept(t *testing.T) {
	g := workspace(t)
	result := func(rule string, line int) string {
		return fmt.Sprintf(`{"ruleId":%q,"level":"warning","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/main/java/com/example/shop/Order.java"},"region":{"startLine":%d}}}]}`, rule, line)
	}
	gone := strings.Replace(result("Gone", 3), "Order.java", "Later.java", 1)
	odd := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Odd"}},"results":[` + result("Past", 99999) + "," + result("a\nb", 13) + "," + gone + `]}]}`
	if err := os.WriteFile(filepath.Join(g.Dir, "build", "reports", "odd.sarif"), []byte(odd), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir, AllowTriageWrites: true, Now: func() time.Time { return time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC) }})
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"tools": []string{"Odd"}, "group": false, "context": false, "maxTokens": 20000}).decode(t, &v)
	if len(v.Findings) != 3 {
		t.Fatalf("%d findings of Odd", len(v.Findings))
	}
	for _, f := range v.Findings {
		r := call(t, cs, "analysis.triage", map[string]any{"id": f.ID, "state": "false-positive", "reason": "r"})
		want, says := mcpserver.CodeNotFound, "its line 99999 is not in src/main/java/com/example/shop/Order.java"
		switch f.Rule {
		case "Gone":
			says = "its file src/main/java/com/example/shop/Later.java is not in the checkout"
		case "a\nb":
			want, says = mcpserver.CodeBadArgument, "its entry cannot be kept in the triage file"
		}
		if code := r.errorCode(t); code != want || !strings.Contains(r.text, says) {
			t.Errorf("%q: %s, want %s saying %q", f.Rule, r.text, want, says)
		}
	}
	if _, err := os.Stat(filepath.Join(g.Dir, ".recap")); err == nil {
		t.Errorf("a refused decision made .recap")
	}
}

// TestTriageThroughLink: a triage file that is a link to a file inside
// the root is written through: the link stays, its target holds the
// decision.
func TestTriageThroughLink(t *testing.T) {
	g := workspace(t)
	for _, d := range []string{".recap", "decisions"} {
		if err := os.MkdirAll(filepath.Join(g.Dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(g.Dir, ".recap", "triage.yml")
	if err := os.Symlink("../decisions/triage.yml", link); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir, AllowTriageWrites: true, Now: func() time.Time { return time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC) }})
	v := triageFindings(t, func(tool string, args map[string]any) result { return call(t, cs, tool, args) })[0]
	var a mcpserver.TriageAnswer
	call(t, cs, "analysis.triage", map[string]any{"id": v.Findings[0].ID, "state": "false-positive", "reason": "r"}).decode(t, &a)
	if fi, err := os.Lstat(link); !a.Written || err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("written %v; the link: %v %v", a.Written, fi, err)
	}
	if tf, err := triage.LoadFile(filepath.Join(g.Dir, "decisions", "triage.yml")); err != nil || len(tf.Entries) != 1 {
		t.Errorf("the link's target: %v %+v", err, tf)
	}
}

// TestTriageFileFIFO: a triage file that is a FIFO is said so, as a
// triage file (not with a report's advice), by the calls that honour it
// and by analysis.triage, which writes nothing.
func TestTriageFileFIFO(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir, AllowTriageWrites: true, Now: func() time.Time { return time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC) }})
	v := triageFindings(t, func(tool string, args map[string]any) result { return call(t, cs, tool, args) })[0]
	if err := os.MkdirAll(filepath.Join(g.Dir, ".recap"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(g.Dir, ".recap", "triage.yml"), 0o644); err != nil {
		t.Fatal(err)
	}
	for tool, args := range map[string]map[string]any{
		"analysis.getReports": {},
		"analysis.triage":     {"id": v.Findings[0].ID, "state": "false-positive", "reason": "r"},
	} {
		r := call(t, cs, tool, args)
		if code := r.errorCode(t); code != mcpserver.CodeParseError || !strings.Contains(r.text, ".recap/triage.yml: not a regular file (a FIFO): a triage file is a file") || strings.Contains(r.text, "standard input") {
			t.Errorf("%s with a FIFO as the triage file: %s", tool, r.text)
		}
	}
}

// TestTriageSameLineSaid: analysis.triage of one of two findings of one
// rule and message on one line (two SQL sinks) says that the decision
// covers the other too, read-only and writing; of a finding alone on its
// line, nothing.
func TestTriageSameLineSaid(t *testing.T) {
	result := func(line, col int) string {
		return fmt.Sprintf(`{"ruleId":"sqli","level":"error","message":{"text":"SQL injection"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"App.java"},"region":{"startLine":%d,"startColumn":%d}}}]}`, line, col)
	}
	g := gittest.New(t)
	g.Commit("one", map[string]string{
		"App.java":            "class App {\n  void a(String id) { db.execute(\"q\" + K); db.query(\"q\" + id); }\n  void b(String id) { db.query(\"q\" + id); }\n}\n",
		"build/semgrep.sarif": `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Semgrep","rules":[{"id":"sqli"}]}},"results":[` + result(2, 23) + "," + result(2, 46) + "," + result(3, 23) + `]}]}`,
	})
	const said = "It covers 1 other finding of its rule and message on that line too"
	for _, writes := range []bool{false, true} {
		cs, _ := connect(t, mcpserver.Options{Root: g.Dir, AllowTriageWrites: writes})
		var v view
		call(t, cs, "analysis.getReports", map[string]any{"context": false, "group": false}).decode(t, &v)
		if len(v.Findings) != 3 {
			t.Fatalf("%d findings, want 3", len(v.Findings))
		}
		for _, f := range v.Findings {
			var a mcpserver.TriageAnswer
			call(t, cs, "analysis.triage", map[string]any{"id": f.ID, "state": "false-positive", "reason": "K is a constant"}).decode(t, &a)
			if strings.Contains(a.Next, said) != (f.Line == 2) {
				t.Errorf("writes %v, line %d: %s", writes, f.Line, a.Next)
			}
		}
	}
}

// TestTriageHeadlineNamesRuleShort: analysis.triage's first line names a
// Checkstyle check as the command line does (FinalParameters, not its
// class's full name); the entry keeps the full id.
func TestTriageHeadlineNamesRuleShort(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	v := triageFindings(t, func(tool string, args map[string]any) result { return call(t, cs, tool, args) })[0]
	for _, f := range v.Findings {
		if f.Tool != "Checkstyle" {
			continue
		}
		short := f.Rule[strings.LastIndexByte(f.Rule, '.')+1:]
		short = strings.TrimSuffix(short, "Check")
		if short == f.Rule {
			t.Fatalf("Checkstyle's rule %q is no class name", f.Rule)
		}
		r := call(t, cs, "analysis.triage", map[string]any{"id": f.ID, "state": "false-positive", "reason": "r"})
		var a mcpserver.TriageAnswer
		r.decode(t, &a)
		first, _, _ := strings.Cut(r.text, "\n")
		if want := "recap: false-positive Checkstyle/" + short + " at " + f.Path + " proposed"; !strings.HasPrefix(first, want) {
			t.Errorf("first line %q, want it to begin %q", first, want)
		}
		if a.Entry.Rule != f.Rule {
			t.Errorf("the entry's rule %q, want the full id %q", a.Entry.Rule, f.Rule)
		}
		return
	}
	t.Fatal("no Checkstyle finding in the page")
}

// TestTriageAgainAfterEdit: a finding decided, then its line edited (or
// its message changed) and committed, so that recap triage check calls
// the entry changed; deciding the finding again through analysis.triage
// replaces that entry, as recap triage does, rather than leaving it
// beside the new one, stale. A decision on another finding of the file
// leaves it.
func TestTriageAgainAfterEdit(t *testing.T) {
	type result struct {
		line int
		msg  string
	}
	sarif := func(rs ...result) string {
		var items []string
		for _, r := range rs {
			items = append(items, fmt.Sprintf(`{"ruleId":"AvoidLiteral","level":"warning","message":{"text":%q},`+
				`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/P.java"},"region":{"startLine":%d}}}]}`, r.msg, r.line))
		}
		return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","rules":[{"id":"AvoidLiteral"}]}},"results":[` + strings.Join(items, ",") + `]}]}`
	}
	const before = "class P {\n  int vat(int net) {\n    return net * 119 / 100;\n  }\n  int fee(int net) {\n    return net + 7;\n  }\n}\n"
	for _, tc := range []struct {
		name     string
		code     string   // src/P.java after
		results  []result // the report after
		pick     int      // the line of the finding decided again
		replaced bool
		entries  int
		why      string
	}{
		{"line edited", strings.Replace(before, "119", "120", 1), []result{{3, "'120' is a literal"}, {6, "'7' is a literal"}}, 3, true, 1,
			`whose decided line was edited since (the line was "return net * 119 / 100;"; decided false-positive: "VAT is a constant" by claude-code on 2026-11-28)`},
		{"message changed", before, []result{{3, "'119' is a literal, again"}, {6, "'7' is a literal"}}, 3, true, 1, "whose message changed since"},
		{"another finding", strings.Replace(before, "119", "120", 1), []result{{3, "'120' is a literal"}, {6, "'7' is a literal"}}, 6, false, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gittest.New(t)
			g.Commit("one", map[string]string{"src/P.java": before, "build/pmd.sarif": sarif(result{3, "'119' is a literal"}, result{6, "'7' is a literal"})})
			now := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
			first := "" // the answer's first line, last call
			decide := func(line int, state, reason string) mcpserver.TriageAnswer {
				t.Helper()
				cs, _ := connect(t, mcpserver.Options{Root: g.Dir, AllowTriageWrites: true, Now: func() time.Time { return now }})
				var v view
				call(t, cs, "analysis.getReports", map[string]any{"context": false, "triaged": "include"}).decode(t, &v)
				for _, f := range v.Findings {
					if f.Line == line {
						var a mcpserver.TriageAnswer
						r := call(t, cs, "analysis.triage", map[string]any{"id": f.ID, "state": state, "reason": reason})
						r.decode(t, &a)
						first, _, _ = strings.Cut(r.text, "\n")
						return a
					}
				}
				t.Fatalf("no finding at line %d: %+v", line, v.Findings)
				return mcpserver.TriageAnswer{}
			}
			decide(3, "false-positive", "VAT is a constant")
			g.Commit("triage", nil)
			g.Commit("edit", map[string]string{"src/P.java": tc.code, "build/pmd.sarif": sarif(tc.results...)})
			if tc.why != "" {
				// A read-only server says which entry the decision would
				// replace.
				cs, _ := connect(t, mcpserver.Options{Root: g.Dir, Now: func() time.Time { return now }})
				var v view
				call(t, cs, "analysis.getReports", map[string]any{"context": false, "triaged": "include"}).decode(t, &v)
				for _, f := range v.Findings {
					if f.Line == tc.pick {
						var a mcpserver.TriageAnswer
						r := call(t, cs, "analysis.triage", map[string]any{"id": f.ID, "state": "wont-fix", "reason": "decided again"})
						r.decode(t, &a)
						if a.Written || !strings.Contains(a.Next, "It would replace the entry of this finding "+tc.why) {
							t.Errorf("read-only: written %v: %s", a.Written, a.Next)
						}
					}
				}
			}
			a := decide(tc.pick, "wont-fix", "decided again")
			if !a.Written || a.Replaced != tc.replaced || !strings.Contains(a.Next, tc.why) || (tc.why == "") != !strings.Contains(a.Next, "It replaces") {
				t.Errorf("written %v, replaced %v, want %v: %s", a.Written, a.Replaced, tc.replaced, a.Next)
			}
			if strings.HasSuffix(first, ", replacing the entry it had (next)") != tc.replaced {
				t.Errorf("the answer's first line: %s", first)
			}
			f, err := triage.LoadFile(filepath.Join(g.Dir, ".recap", "triage.yml"))
			if err != nil || len(f.Entries) != tc.entries {
				t.Fatalf("the file: %v, %+v", err, f)
			}
			cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
			var v view
			call(t, cs, "analysis.getReports", map[string]any{"context": false, "triaged": "include"}).decode(t, &v)
			for _, f := range v.Findings {
				if f.Line == tc.pick && (f.Triage == nil || f.Triage.Reason != "decided again") {
					t.Errorf("the finding decided again: %+v", f)
				}
			}
		})
	}
}
