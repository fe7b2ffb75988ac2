package render

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// The writers of every finding append their JSON themselves; these tests
// hold their bytes to what encoding/json wrote of the values they built
// before (the reference encoders of the *_reference_test.go files), on
// every finding of every corpus report, with each variation of what the
// pipeline adds (the other findings of a problem, triage decisions,
// baseline states), and on findings whose every string is hostile.

// corpusFindings calls each with the findings of every corpus report, of
// the parsers' own SARIF cases and of the sample, read with the results
// that are no findings.
func corpusFindings(t *testing.T, each func(t *testing.T, root string, all []reports.Finding)) {
	dir, files := reportstest.Corpus(t)
	type input struct{ path, root, name string }
	var ins []input
	for _, cf := range files {
		switch cf.Dir() {
		case "invalid", "diffs", "":
			continue
		}
		ins = append(ins, input{filepath.Join(dir, cf.Path), dir, cf.Path})
	}
	cases, _ := filepath.Glob(filepath.Join("..", "..", "parsers", "testdata", "sarif", "*.sarif"))
	for _, c := range cases {
		root, _ := filepath.Abs(filepath.Join(filepath.Dir(c), "repo"))
		ins = append(ins, input{c, root, "parsers-testdata/" + filepath.Base(c)})
	}
	sample, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "sample"))
	for _, name := range []string{"checkstyle.xml", "pmd.sarif", "spotbugs.xml"} {
		ins = append(ins, input{filepath.Join("..", "..", "testdata", "reports", name), sample, "sample/" + name})
	}
	n := 0
	for _, in := range ins {
		if _, err := os.Stat(in.path); err != nil {
			continue
		}
		all, inputs, err := readAll(in.path, in.root)
		if err != nil || inputs[0].Error != "" {
			continue
		}
		n++
		t.Run(in.name, func(t *testing.T) { each(t, in.root, all) })
	}
	if n < 60 {
		t.Fatalf("only %d corpus reports read", n)
	}
}

// variants are f as the pipeline may hand it to a writer: as read, the
// lead of a problem (the other findings in its detail), new or unchanged
// against a baseline, with a triage decision that hides it or not.
func variants(f reports.Finding) []reports.Finding {
	out := []reports.Finding{f}
	lead := f
	d := reports.Detail{}
	if f.Detail != nil {
		d = *f.Detail
	}
	d.Also = []reports.Also{{Tool: "PMD", Rule: "MethodArgumentCouldBeFinal", ID: reports.ID("2ibh", 76)}, {Tool: "Checkstyle", Rule: "FinalParameters", ID: reports.ID("x", 1)}}
	lead.Detail = &d
	out = append(out, lead)
	for _, state := range []string{reports.BaselineNew, reports.BaselineUnchanged, "fixed"} {
		g := f
		g.Baseline = state
		out = append(out, g)
	}
	for _, t := range []*reports.Triage{
		{State: "false-positive", Reason: "generated code", By: "ana", Date: "2026-01-02", Link: "https://example.com/1"},
		{State: "confirmed", Reason: "real"},
		{State: "accepted-risk", Reason: "until the rewrite", Until: "2026-01-01", Expired: true, Via: reports.ID("abcd", 12)},
	} {
		g := f
		g.Triage = t
		out = append(out, g)
	}
	return out
}

// hostileFindings are findings whose every string is one of
// hostileStrings, with every part of a detail.
func hostileFindings() []reports.Finding {
	var out []reports.Finding
	for i, s := range hostileStrings {
		loc := reports.Location{Path: "src/" + s + ".java", Line: 3, EndLine: 4, Column: 2, EndColumn: 1, Message: s}
		f := reports.Finding{
			ID: reports.ID("h", i+1), Fingerprint: s + ":2", Tool: s, ToolVersion: s, Rule: s, RuleName: s, Category: s, ToolCategory: s,
			Severity: reports.Severity(i % 4), Quality: reports.Quality(i % 5), Impact: reports.Impact(i % 6), Priority: i % 4,
			Message: s, Path: s, Line: i % 7, EndLine: i % 9, Column: i % 3, EndColumn: i % 5, HelpURI: s,
			CWE: []int{79, i}, Snippet: s + "\n" + s, SnippetLine: int32(i % 3), FlowSteps: int32(i % 5), Related: int32(i % 3),
			Fixable: i%2 == 0, Rank: uint8(i % 21), Baseline: []string{"", reports.BaselineNew, reports.BaselineUnchanged}[i%3],
			Triage: &reports.Triage{State: s, Reason: s, By: s, Date: s, Until: s, Link: s, Expired: i%2 == 1, Via: reports.ID("v", i+1)},
			Detail: &reports.Detail{
				Flows:        []reports.Flow{{Code: 0, Message: s, Steps: []reports.Location{loc, {Path: s, Base: s}}}, {Code: 0, Steps: []reports.Location{loc}}, {Code: 1}, {Code: 2, Steps: []reports.Location{{Message: s}}}},
				AllFlows:     i % 6,
				Related:      []reports.Location{loc, {Message: s}, {Path: "/abs/" + s, Line: 1}},
				Locations:    []reports.Location{loc, {}},
				Logical:      []reports.LogicalLocation{{Name: s, FullyQualifiedName: s, Kind: s}, {}},
				Target:       s,
				Suppressions: []reports.Suppression{{Kind: s, Status: s, Justification: s}, {Kind: "inSource"}},
				Kind:         []string{"", "pass", s}[i%3],
				Also:         []reports.Also{{Tool: s, Rule: s, ID: reports.ID("a", i+1)}},
			},
		}
		if i%2 == 0 {
			f.Detail.Fix = &reports.Fix{Description: s, Replacements: []reports.Replacement{
				{Path: s, Line: 2, Column: 1, EndLine: 3, EndColumn: 4, Text: s}, {Path: "b/" + s, Offset: 3, Length: 0, Text: ""}, {Path: s, Line: 9, Text: s}}}
		} else {
			f.Detail.Fix = &reports.Fix{Description: s}
		}
		out = append(out, f)
		g := f // without a detail nor a file
		g.Detail, g.Path, g.Triage = nil, "", nil
		out = append(out, g)
	}
	return out
}

// TestSARIFResultAsGoSARIF: resultEncoder writes each result byte for
// byte as go-sarif's types and encoding/json did, then EscapeJSON.
func TestSARIFResultAsGoSARIF(t *testing.T) {
	check := func(t *testing.T, fs []reports.Finding) {
		var enc resultEncoder
		for i := range fs {
			f := &fs[i]
			want, err := encodeResult(f, i%7, sarifFingerprint(f.Fingerprint))
			if err != nil {
				t.Fatal(err)
			}
			if got := enc.result(f, i%7, f.Baseline); !bytes.Equal(got, want) {
				t.Fatalf("finding %d (%s %s:%d):\n got %s\nwant %s", i, f.Rule, f.Path, f.Line, got, want)
			}
		}
	}
	t.Run("hostile", func(t *testing.T) { check(t, hostileFindings()) })
	corpusFindings(t, func(t *testing.T, _ string, all []reports.Finding) {
		var fs []reports.Finding
		for _, f := range all {
			fs = append(fs, variants(f)...)
		}
		check(t, fs)
	})
}

// TestCodeClimateAsJSON: ccEncoder writes each issue byte for byte as
// encoding/json did, then EscapeJSON, with the same fingerprints (their
// occurrences and copies counted alike, MD5s of other fingerprints).
func TestCodeClimateAsJSON(t *testing.T) {
	check := func(t *testing.T, fs []reports.Finding) {
		var enc ccEncoder
		occ, refOcc := &reports.Occurrences{}, &reports.Occurrences{}
		for i := range fs {
			f := &fs[i]
			want, wantOK, err := codeClimateIssue(f, refOcc)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := enc.issue(f, occ)
			if ok != wantOK || !bytes.Equal(got, want) {
				t.Fatalf("finding %d (%s %s:%d):\n got %v %s\nwant %v %s", i, f.Rule, f.Path, f.Line, ok, got, wantOK, want)
			}
		}
	}
	t.Run("hostile", func(t *testing.T) {
		fs := hostileFindings()
		for _, fp := range []string{"0123456789abcdef", "0123456789ABCDEF:3", "0123456789abcdeg", "0123456789abcdef:0", "+123456789abcdef", "x:1", ""} {
			fs = append(fs, reports.Finding{Tool: "PMD", Rule: "R", Path: "a.java", Fingerprint: fp, ID: reports.ID("id", 1)},
				reports.Finding{Tool: "PMD", Rule: "R", Path: "a.java", Fingerprint: fp, ID: reports.ID("id", 1)})
		}
		check(t, fs)
	})
	corpusFindings(t, func(t *testing.T, _ string, all []reports.Finding) {
		var fs []reports.Finding
		for _, f := range all {
			fs = append(fs, variants(f)...)
		}
		check(t, fs)
	})
}

// TestOneLineAsFields: OneLine's shortcut for text it leaves as it is
// gives what folding by strings.Fields gives.
func TestOneLineAsFields(t *testing.T) {
	for _, s := range append(hostileStrings, "a b", "a  b", " a", "a ", "a\tb", "a\u00a0b", "a\u0085b", "a\x01b", "x") {
		if got, want := OneLine(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestHTMLDetailAsJSON: appendDetail writes each finding's detail byte for
// byte as encoding/json wrote htmlDetail, with the same string table, the
// source at hand or not.
func TestHTMLDetailAsJSON(t *testing.T) {
	check := func(t *testing.T, src summarize.Source, fs []reports.Finding) {
		ref, st := HTML{Source: src}.newStream(), HTML{Source: src}.newStream()
		var got []byte
		for i := range fs {
			fv := summarize.FindingView{Finding: fs[i]}
			if src != nil {
				summarize.AddContext(&fv, ref.src)
			}
			if len(fv.Context) == 0 && fv.ContextNote == "" {
				summarize.AddContext(&fv, noSource{})
			}
			if fs[i].Detail != nil {
				fv.AlsoReportedBy = fs[i].Detail.Also
			}
			want, err := ref.detail(&fv)
			if err != nil {
				t.Fatal(err)
			}
			if want == nil {
				want = []byte("0")
			}
			if got = st.appendDetail(got[:0], &fv); !bytes.Equal(got, want) {
				t.Fatalf("finding %d (%s %s:%d):\n got %s\nwant %s", i, fs[i].Rule, fs[i].Path, fs[i].Line, got, want)
			}
		}
		if !slices.Equal(st.list, ref.list) {
			t.Errorf("string tables differ: %d strings, want %d", len(st.list), len(ref.list))
		}
	}
	t.Run("hostile", func(t *testing.T) {
		fs := hostileFindings()
		for _, f := range hostileFindings() {
			f.CWE = []int{}
			fs = append(fs, f)
			f.Detail, f.HelpURI, f.ToolCategory, f.Snippet, f.Line = nil, "", "", "", 1
			fs = append(fs, f)
		}
		check(t, nil, fs)
		check(t, &summarize.Dir{Root: t.TempDir()}, fs)
	})
	corpusFindings(t, func(t *testing.T, root string, all []reports.Finding) {
		var fs []reports.Finding
		for _, f := range all {
			fs = append(fs, variants(f)...)
		}
		check(t, nil, fs)
		check(t, &summarize.Dir{Root: root}, fs)
	})
}

// gitLabCases are texts of every kind GitLabText breaks, and hostile ones.
var gitLabCases = append([]string{
	"see http://example.com/a", "www.example.com", "WwW.x", "@user", "#123", "!1", "&amp;123", `%"1.0"`, "~bug", "$123", "^alert#1",
	"a](b)", "<b>", "</script>", "<!--", "<?x", "a < b", "ends with @", "@", "@é", "Parameter net should be final.", "'42' is a magic number.",
}, hostileStrings...)

// TestGitLabTextAsBefore: GitLabText's shortcut changes nothing.
func TestGitLabTextAsBefore(t *testing.T) {
	for _, s := range gitLabCases {
		if got, want := GitLabText(s), gitLabTextRef(s); got != want {
			t.Errorf("GitLabText(%q) = %q, want %q", s, got, want)
		}
	}
}

// FuzzGitLabText compares GitLabText with the reference on any text.
func FuzzGitLabText(f *testing.F) {
	for _, s := range gitLabCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := GitLabText(s), gitLabTextRef(s); got != want {
			t.Errorf("GitLabText(%q) = %q, want %q", s, got, want)
		}
	})
}
