package mcpserver_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/mcpserver"
)

// TestProblemsOnce: analysis.getReports shows each problem of the sample's
// three reports once, by its most important finding, which names the
// others; group false lists every finding; analysis.getFinding on a
// finding a page leaves out says which finding shows its problem; the
// root's .recap.yml excludes, and its mistakes are the call's error.
func TestProblemsOnce(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"limit": 200, "maxTokens": 25000, "context": false}).decode(t, &v)
	if v.Summary.Total != tooltest.SampleFindings || v.Summary.Duplicates == nil || v.Summary.Problems != tooltest.SampleProblems {
		t.Fatalf("total %d, problems %d, duplicates %+v; want %d, %d", v.Summary.Total, v.Summary.Problems, v.Summary.Duplicates, tooltest.SampleFindings, tooltest.SampleProblems)
	}
	if v.Page == nil || v.Page.Total != v.Summary.Problems {
		t.Fatalf("page %+v; want the %d problems", v.Page, v.Summary.Problems)
	}
	shown, named := map[string]bool{}, 0
	var dup, lead string
	for _, f := range v.Findings {
		shown[f.ID.String()] = true
		named += len(f.AlsoReportedBy)
		if len(f.AlsoReportedBy) > 0 && dup == "" {
			lead, dup = f.ID.String(), f.AlsoReportedBy[0].ID.String()
		}
	}
	if named != v.Summary.Duplicates.Findings || len(v.Findings) != v.Summary.Problems {
		t.Errorf("%d findings shown naming %d others; want %d naming %d", len(v.Findings), named, v.Summary.Problems, v.Summary.Duplicates.Findings)
	}
	if shown[dup] {
		t.Fatalf("duplicate %s shown", dup)
	}
	var a mcpserver.FindingAnswer
	call(t, cs, "analysis.getFinding", map[string]any{"id": dup}).decode(t, &a)
	if a.Problem == nil || a.Problem.ShownBy.String() != lead || len(a.Problem.Findings) == 0 || a.Problem.Findings[0].ID.String() != lead {
		t.Errorf("getFinding %s: problem %+v; want shown by %s", dup, a.Problem, lead)
	}

	v = view{}
	call(t, cs, "analysis.getReports", map[string]any{"limit": 200, "maxTokens": 25000, "context": false, "group": false}).decode(t, &v)
	if v.Summary.Duplicates != nil || v.Page.Total != tooltest.SampleFindings {
		t.Errorf("group false: duplicates %+v, page total %d; want none and %d", v.Summary.Duplicates, v.Page.Total, tooltest.SampleFindings)
	}

	if err := os.WriteFile(filepath.Join(g.Dir, ".recap.yml"), []byte("exclude:\n  rules: [Checkstyle:JavadocVariable]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	v = view{}
	call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true}).decode(t, &v)
	if v.Summary.Excluded != 7 || v.Summary.Total != tooltest.SampleFindings-7 {
		t.Errorf("with .recap.yml: %d excluded of %d; want 7 of %d", v.Summary.Excluded, v.Summary.Total, tooltest.SampleFindings-7)
	}
	if err := os.WriteFile(filepath.Join(g.Dir, ".recap.yml"), []byte("exclude:\n  rule: [Checkstyle:JavadocVariable]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true}).errorCode(t); code != mcpserver.CodeBadArgument {
		t.Errorf("a mistake in .recap.yml: %s, want %s", code, mcpserver.CodeBadArgument)
	}
}
