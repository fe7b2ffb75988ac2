package mcpserver_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/mcpserver"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// nonASCIIRepo is a repository with a file of a non-ASCII name, changed in
// the working tree, and a report of 3 findings in it and 1 elsewhere.
func nonASCIIRepo(t *testing.T) (*gittest.Repo, string) {
	t.Helper()
	const file = "src/com/acme/ünï/Naïve.java"
	g := gittest.New(t)
	g.Commit("a file with a non-ASCII name", map[string]string{file: "class Naïve {\n  int a;\n}\n", "src/Other.java": "class Other {}\n"})
	g.Write(map[string]string{file: "class Naïve {\n  int b;\n}\n"})
	var results []string
	for line := 1; line <= 3; line++ {
		results = append(results, `{"ruleId":"R","level":"warning","message":{"text":"m`+strconv.Itoa(line)+`"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"`+file+`"},"region":{"startLine":`+strconv.Itoa(line)+`}}}]}`)
	}
	results = append(results, `{"ruleId":"R","level":"warning","message":{"text":"other"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/Other.java"},"region":{"startLine":1}}}]}`)
	g.Write(map[string]string{"report.sarif": `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[` + strings.Join(results, ",") + `]}]}`})
	return g, file
}

// TestNonASCIIPaths: the paths arguments of analysis.getReports and
// vcs.diff match non-ASCII characters written literally or by ?.
func TestNonASCIIPaths(t *testing.T) {
	g, file := nonASCIIRepo(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	for glob, want := range map[string]int{file: 3, "**/Na?ve.java": 3, "**/ünï/*.java": 3, "**/Naive.java": 0} {
		var v struct {
			Summary struct{ Total int } `json:"summary"`
		}
		call(t, cs, "analysis.getReports", map[string]any{"paths": []string{glob}, "summaryOnly": true}).decode(t, &v)
		if v.Summary.Total != want {
			t.Errorf("getReports paths %q: %d findings, want %d", glob, v.Summary.Total, want)
		}
		var d struct {
			Files []struct{ Path string } `json:"files"`
		}
		call(t, cs, "vcs.diff", map[string]any{"paths": []string{glob}}).decode(t, &d)
		if wantFiles := min(want, 1); len(d.Files) != wantFiles {
			t.Errorf("vcs.diff paths %q: %+v, want %d file", glob, d.Files, wantFiles)
		}
	}
}

// TestInputErrorsLeftOut: when the budget leaves the inputs' status out,
// the answer's line does not send the caller to inputs[].error.
func TestInputErrorsLeftOut(t *testing.T) {
	g, _ := nonASCIIRepo(t)
	files := map[string]string{}
	for i := 0; i < 40; i++ {
		files["build/broken-"+strconv.Itoa(i)+"-with-a-rather-long-name-for-its-status.sarif"] = `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T` + strconv.Itoa(i) + `"}},"results":[{"ruleId":`
	}
	g.Write(files)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	for _, budget := range []int{256, 600, 10000} {
		r := call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true, "maxTokens": budget})
		var v struct {
			Inputs []struct{ Error string } `json:"inputs"`
		}
		r.decode(t, &v)
		shown := 0
		for _, in := range v.Inputs {
			if in.Error != "" {
				shown++
			}
		}
		line, _, _ := strings.Cut(r.text, "\n")
		if !strings.Contains(line, "40 not read") {
			t.Errorf("maxTokens %d: %s", budget, line)
		}
		if says := strings.Contains(line, "see inputs[].error"); says != (shown > 0) {
			t.Errorf("maxTokens %d: %d input errors shown, and the line says %q", budget, shown, line)
		}
		if shown < 40 && (!strings.Contains(line, "left out") || !strings.Contains(r.text, "raise maxTokens")) {
			t.Errorf("maxTokens %d: %d of 40 input errors shown, and the answer does not say how to see them: %q", budget, shown, r.text)
		}
	}
}

// TestSuggestionsSpelling: the suggestions of what would narrow an answer
// name the tools' arguments (categories, rules, paths, severity) as the
// tools take them, never the command line's spelling.
func TestSuggestionsSpelling(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	var v struct {
		Suggestions []string `json:"suggestions"`
	}
	call(t, cs, "analysis.getReports", map[string]any{"limit": 50, "maxTokens": 2000}).decode(t, &v)
	if len(v.Suggestions) < 3 {
		t.Fatalf("suggestions %q", v.Suggestions)
	}
	all := strings.Join(v.Suggestions, "\n")
	for _, want := range []string{"categories=[\"", "rules=[\"", "paths=[\"", "severity=\""} {
		if !strings.Contains(all, want) {
			t.Errorf("no %s in the suggestions %q", want, v.Suggestions)
		}
	}
	for _, cli := range []string{"category=", "rule=", "path="} {
		if strings.Contains(all, cli) {
			t.Errorf("the command line's %s in the suggestions %q", cli, v.Suggestions)
		}
	}
	// Each suggestion is an argument the tool takes as written.
	for _, s := range v.Suggestions {
		name, rest, _ := strings.Cut(s, "=")
		var decoded any
		dec := json.NewDecoder(strings.NewReader(rest))
		if err := dec.Decode(&decoded); err != nil {
			t.Errorf("%s: %s does not begin with a JSON value: %v", s, rest, err)
			continue
		}
		value := rest[:dec.InputOffset()]
		if r := call(t, cs, "analysis.getReports", map[string]any{name: decoded, "summaryOnly": true}); r.isErr {
			t.Errorf("%s: the tool refuses %s=%s: %s", s, name, value, r.text)
		}
	}
}

// duplicatesSARIF is a SARIF log of n findings of one rule with one
// message in one file, on lines 1…n: one identity, n occurrences.
func duplicatesSARIF(file string, n int, extra string) string {
	var results []string
	for line := 1; line <= n; line++ {
		results = append(results, `{"ruleId":"Dup","level":"warning","message":{"text":"the same message"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"`+file+`"},"region":{"startLine":`+strconv.Itoa(line)+`}}}]}`)
	}
	if extra != "" {
		results = append(results, extra)
	}
	return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Dups"}},"results":[` + strings.Join(results, ",") + `]}]}`
}

// TestFingerprintsUnique: findings of one identity (a rule's message
// twice in a file) have fingerprints of their own, and analysis.getFinding
// finds each by its fingerprint argument (or as id), in the current report
// rather than in a baseline that holds a copy of it.
func TestFingerprintsUnique(t *testing.T) {
	g := workspace(t)
	g.Write(map[string]string{
		"build/reports/dups.sarif": duplicatesSARIF("src/main/java/com/example/shop/Order.java", 4, ""),
		// The baseline: the same findings and one more, in another file.
		"baseline/dups.sarif": duplicatesSARIF("src/main/java/com/example/shop/Order.java", 4,
			`{"ruleId":"Gone","level":"warning","message":{"text":"fixed since"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/main/java/com/example/shop/Order.java"},"region":{"startLine":9}}}]}`),
	})
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"baseline": []string{"baseline/dups.sarif"}, "summaryOnly": true, "group": false}).decode(t, &v)
	if want := tooltest.SampleFindings + 4; v.Summary.Total != want || len(v.Inputs) != 4 {
		t.Fatalf("%d findings of %d reports, want %d of 4 (the baseline is no current report)", v.Summary.Total, len(v.Inputs), want)
	}
	var shown []summarize.FindingView
	for offset := 0; ; {
		call(t, cs, "analysis.getReports", map[string]any{"baseline": []string{"baseline/dups.sarif"}, "limit": 200, "offset": offset,
			"context": false, "maxTokens": 25000, "group": false}).decode(t, &v)
		shown = append(shown, v.Findings...)
		if v.Page == nil || v.Page.NextOffset == nil || *v.Page.NextOffset <= offset {
			break
		}
		offset = *v.Page.NextOffset
	}
	if len(shown) != v.Summary.Total {
		t.Fatalf("%d findings shown of %d", len(shown), v.Summary.Total)
	}
	ids, fps := map[string]bool{}, map[string]bool{}
	var dups []summarize.FindingView
	for _, f := range shown {
		if ids[f.ID.String()] || fps[f.Fingerprint] || f.Fingerprint == "" {
			t.Errorf("%s %s:%d: id %s or fingerprint %q not unique", f.Rule, f.Path, f.Line, f.ID, f.Fingerprint)
		}
		ids[f.ID.String()], fps[f.Fingerprint] = true, true
		if f.Rule == "Dup" {
			dups = append(dups, f)
		}
	}
	if len(dups) != 4 {
		t.Fatalf("%d findings of rule Dup", len(dups))
	}
	for _, f := range dups {
		for _, args := range []map[string]any{{"fingerprint": f.Fingerprint}, {"id": f.Fingerprint}, {"id": f.ID}} {
			var a mcpserver.FindingAnswer
			call(t, cs, "analysis.getFinding", args).decode(t, &a)
			if a.Finding.Line != f.Line || a.Finding.Fingerprint != f.Fingerprint || a.Report != "build/reports/dups.sarif" {
				t.Errorf("getFinding %v: line %d of %s (fingerprint %s), want line %d of build/reports/dups.sarif", args, a.Finding.Line, a.Report, a.Finding.Fingerprint, f.Line)
			}
		}
	}
	// The first occurrence as SARIF writes it ("…:1") is the same finding.
	var a mcpserver.FindingAnswer
	call(t, cs, "analysis.getFinding", map[string]any{"fingerprint": dups[0].Fingerprint + ":1"}).decode(t, &a)
	if a.Finding.Line != dups[0].Line {
		t.Errorf("%s:1 gives line %d, want %d", dups[0].Fingerprint, a.Finding.Line, dups[0].Line)
	}
	// Only an id as the server writes it is one (reports.ParseID): a near
	// miss of a finding's id names no finding.
	id, ok := reports.ParseID(dups[0].ID.String())
	if !ok {
		t.Fatalf("%s is not an id", dups[0].ID)
	}
	n := strconv.Itoa(int(id.N))
	for _, args := range []map[string]any{{}, {"id": dups[0].ID, "fingerprint": dups[0].Fingerprint}, {"fingerprint": "nope"}, {"fingerprint": dups[0].Fingerprint + ":x"},
		{"id": id.Tag + "-0" + n}, {"id": id.Tag + "-+" + n}, {"id": strings.ToUpper(id.Tag) + "-" + n}, {"id": id.Tag + "-" + n + " "}, {"id": id.Tag + "-4294967296"}} {
		if code := call(t, cs, "analysis.getFinding", args).errorCode(t); code != mcpserver.CodeBadArgument {
			t.Errorf("getFinding %v: %s, want %s", args, code, mcpserver.CodeBadArgument)
		}
	}
	if code := call(t, cs, "analysis.getFinding", map[string]any{"id": id.Tag + "-4294967295"}).errorCode(t); code != mcpserver.CodeNotFound {
		t.Errorf("getFinding %s-4294967295: %s, want %s", id.Tag, code, mcpserver.CodeNotFound)
	}
	// A fingerprint only the baseline has (a fixed finding) is still found, in the baseline.
	var all view
	call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"baseline/dups.sarif"}, "limit": 10}).decode(t, &all)
	for _, f := range all.Findings {
		if f.Rule == "Gone" {
			call(t, cs, "analysis.getReports", map[string]any{"baseline": []string{"baseline/dups.sarif"}, "summaryOnly": true})
			call(t, cs, "analysis.getFinding", map[string]any{"fingerprint": f.Fingerprint}).decode(t, &a)
			if a.Report != "baseline/dups.sarif" {
				t.Errorf("a fixed finding's fingerprint: report %s", a.Report)
			}
		}
	}
}

// TestFindingPlaces: analysis.getFinding shows a result's further
// locations with their code, and the place a tool gave a finding without a
// file (its logical locations, the artifact it scanned).
func TestFindingPlaces(t *testing.T) {
	g := gittest.New(t)
	g.Commit("files", map[string]string{"src/app.js": "const a = eval(input);\nconst b = \"ok\";\n", "src/other.js": strings.Repeat("x\n", 12)})
	for _, name := range []string{"several-locations.sarif", "no-location.sarif"} {
		b, err := os.ReadFile(filepath.Join("..", "parsers", "testdata", "sarif", name))
		if err != nil {
			t.Fatal(err)
		}
		g.Write(map[string]string{"build/" + name: string(b)})
	}
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"limit": 20, "context": false}).decode(t, &v)
	seen := 0
	for _, f := range v.Findings {
		var a mcpserver.FindingAnswer
		switch f.Message {
		case "Hardcoded secret":
			call(t, cs, "analysis.getFinding", map[string]any{"id": f.ID}).decode(t, &a)
			if len(a.Locations) != 2 || a.Locations[0].Line != 2 || a.Locations[0].Code != `const b = "ok";` || a.Locations[1].Path != "src/other.js" {
				t.Errorf("further locations %+v", a.Locations)
			}
			seen++
		case "Package openssl is vulnerable":
			call(t, cs, "analysis.getFinding", map[string]any{"id": f.ID}).decode(t, &a)
			if len(a.Logical) != 1 || a.Logical[0].FullyQualifiedName != "alpine:3.10/openssl@1.1.1c" {
				t.Errorf("logical locations %+v", a.Logical)
			}
			seen++
		case "Secret in a layer":
			call(t, cs, "analysis.getFinding", map[string]any{"id": f.ID}).decode(t, &a)
			if a.Target != "images/app.tar" {
				t.Errorf("target %q", a.Target)
			}
			seen++
		}
	}
	if seen != 3 {
		t.Errorf("%d of the 3 findings looked at", seen)
	}
}
