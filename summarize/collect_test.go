package summarize

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/reports"
)

func TestCollector(t *testing.T) {
	c := NewCollector()
	add := func(n int, f reports.Finding) {
		for i := 0; i < n; i++ {
			c.Add(f)
		}
	}
	add(3, reports.Finding{Tool: "PMD", Rule: "A", Category: "Design", Severity: reports.SeverityError, Path: "a.java"})
	add(2, reports.Finding{Tool: "PMD", Rule: "B", Category: "Code Style", Severity: reports.SeverityWarning, Path: "b.java"})
	add(2, reports.Finding{Tool: "Checkstyle", Rule: "B", Category: "sizes", Severity: reports.SeverityNote, Path: "b.java"})
	add(1, reports.Finding{Tool: "SpotBugs", Rule: "C", Category: "STYLE", Severity: reports.SeverityNote})
	for i := 0; i < 12; i++ { // more files than the top list holds
		c.Add(reports.Finding{Tool: "PMD", Rule: "D", Category: "Design", Severity: reports.SeverityNote, Path: fmt.Sprintf("f%02d.java", i)})
	}
	got := c.Summary()
	want := Summary{
		Total: 20, Problems: 20, Files: 14,
		BySeverity: SeverityCounts{Error: 3, Warning: 2, Note: 15},
		ByLevel:    SeverityCounts{Error: 3, Warning: 2, Note: 15}, // no impacts: the severities
		ByTool:     map[string]int{"PMD": 17, "Checkstyle": 2, "SpotBugs": 1},
		TopCategories: []Count{
			{"Design", 15}, {"Code Style", 2}, {"sizes", 2}, {"STYLE", 1},
		},
		TopRules: []RuleCount{
			{"D", "PMD", 12}, {"A", "PMD", 3}, {"B", "Checkstyle", 2}, {"B", "PMD", 2}, {"C", "SpotBugs", 1},
		},
		TopFiles: []Count{
			{"b.java", 4}, {"a.java", 3}, {"f00.java", 1}, {"f01.java", 1}, {"f02.java", 1},
			{"f03.java", 1}, {"f04.java", 1}, {"f05.java", 1}, {"f06.java", 1}, {"f07.java", 1},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Summary() mismatch (-want +got):\n%s", diff)
	}
}

// TestCollectorSecurity: the findings about security are counted with their
// CWE ids; the page's findings get their rule from the inputs.
func TestCollectorSecurity(t *testing.T) {
	c := NewCollector()
	c.KeepPage(0, 10)
	sec, rel := reports.QualitySecurity, reports.QualityReliability
	c.Add(reports.Finding{Tool: "CodeQL", Rule: "js/sql", Category: reports.CategoryOther, Severity: reports.SeverityError, CWE: []int{89, 564},
		Quality: sec, Impact: reports.ImpactHigh})
	c.Add(reports.Finding{Tool: "CodeQL", Rule: "js/sql", Category: reports.CategoryOther, Severity: reports.SeverityError, CWE: []int{89},
		Quality: sec, Impact: reports.ImpactHigh})
	c.Add(reports.Finding{Tool: "Trivy", Rule: "CVE-1", Category: reports.CategorySecurity, Severity: reports.SeverityWarning, SecuritySeverity: 5.3,
		Quality: sec, Impact: reports.ImpactMedium})
	c.Add(reports.Finding{Tool: "SpotBugs", Rule: "X", Category: reports.CategorySecurity, Severity: reports.SeverityNote, Quality: sec, Impact: reports.ImpactLow})
	c.Add(reports.Finding{Tool: "PMD", Rule: "Y", Category: reports.CategoryDesign, Severity: reports.SeverityNote,
		Quality: reports.QualityMaintainability, Impact: reports.ImpactLow})
	c.Add(reports.Finding{Tool: "SpotBugs", Rule: "DLS", Category: reports.CategoryErrorProne, Severity: reports.SeverityNote, CWE: []int{563},
		Quality: rel, Impact: reports.ImpactLow}) // a CWE alone: not about security
	rules := &reports.Rules{}
	sql := rules.Add("CodeQL", reports.Rule{ID: "js/sql", Short: "SQL injection", CWE: []int{89}})
	v := c.View([]reports.Input{{Path: "a"}, {Path: "b", Rules: rules}})
	want := &SecurityCounts{Findings: 4, ByImpact: ImpactCounts{High: 2, Medium: 1, Low: 1}, TopCWE: []Count{{"CWE-89", 2}, {"CWE-564", 1}}}
	if diff := cmp.Diff(want, v.Summary.Security); diff != "" {
		t.Errorf("security (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(ImpactCounts{High: 2, Medium: 1, Low: 3}, v.Summary.ByImpact); diff != "" {
		t.Errorf("byImpact (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(QualityCounts{Security: 4, Reliability: 1, Maintainability: 1}, v.Summary.ByQuality); diff != "" {
		t.Errorf("byQuality (-want +got):\n%s", diff)
	}
	wantQI := QualityImpactCounts{Security: &ImpactCounts{High: 2, Medium: 1, Low: 1}, Reliability: &ImpactCounts{Low: 1},
		Maintainability: &ImpactCounts{Low: 1}}
	if diff := cmp.Diff(wantQI, v.Summary.ByQualityImpact); diff != "" {
		t.Errorf("byQualityImpact (-want +got):\n%s", diff)
	}
	if v.Findings[0].RuleInfo != sql || v.Findings[1].RuleInfo != sql || v.Findings[2].RuleInfo != nil {
		t.Errorf("rules of the page: %v %v %v", v.Findings[0].RuleInfo, v.Findings[1].RuleInfo, v.Findings[2].RuleInfo)
	}
	if s := NewCollector().Summary(); s.Security != nil {
		t.Errorf("no security finding, security %+v", s.Security)
	}
}

func TestViewFailed(t *testing.T) {
	c := NewCollector()
	if v := c.View([]reports.Input{{Path: "a"}}); v.Failed() {
		t.Error("Failed() with no input error")
	}
	if v := c.View([]reports.Input{{Path: "a"}, {Path: "b", Error: "b: bad"}}); !v.Failed() {
		t.Error("not Failed() with an input error")
	}
}

func ExampleCollector() {
	c := NewCollector()
	c.Add(reports.Finding{Tool: "PMD", Rule: "UnusedLocalVariable", Category: "Best Practices", Severity: reports.SeverityWarning, Path: "src/A.java"})
	c.Add(reports.Finding{Tool: "PMD", Rule: "EmptyCatchBlock", Category: "Error Prone", Severity: reports.SeverityError, Path: "src/A.java"})
	s := c.Summary()
	fmt.Println(s.Total, s.Files, s.BySeverity.Error, s.BySeverity.Warning, s.TopCategories[0].Name)
	// Output: 2 1 1 1 Best Practices
}

// TestCollectorLevels: byLevel counts the levels the hosts show (the
// impact's; the severity of a finding without one) beside bySeverity, the
// tool's words, and each finding of the page carries its level.
func TestCollectorLevels(t *testing.T) {
	tests := []struct {
		name      string
		sev       reports.Severity
		impact    reports.Impact
		wantLevel reports.Severity
	}{
		{"a rank-10 SQL injection, high", reports.SeverityWarning, reports.ImpactHigh, reports.SeverityError},
		{"a blocker the tool calls a note", reports.SeverityNote, reports.ImpactBlocker, reports.SeverityError},
		{"a Checkstyle error of style, low", reports.SeverityError, reports.ImpactLow, reports.SeverityNote},
		{"an info error", reports.SeverityError, reports.ImpactInfo, reports.SeverityNote},
		{"a medium note", reports.SeverityNote, reports.ImpactMedium, reports.SeverityWarning},
		{"no impact: the severity", reports.SeverityWarning, 0, reports.SeverityWarning},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCollector()
			c.KeepPage(0, 10)
			c.Add(reports.Finding{Tool: "T", Rule: "R", Severity: tc.sev, Impact: tc.impact, Quality: reports.QualityReliability})
			v := c.View(nil)
			var wantSev, wantLevel SeverityCounts
			*map[reports.Severity]*int{reports.SeverityError: &wantSev.Error, reports.SeverityWarning: &wantSev.Warning, reports.SeverityNote: &wantSev.Note}[tc.sev] = 1
			*map[reports.Severity]*int{reports.SeverityError: &wantLevel.Error, reports.SeverityWarning: &wantLevel.Warning, reports.SeverityNote: &wantLevel.Note}[tc.wantLevel] = 1
			if v.Summary.BySeverity != wantSev || v.Summary.ByLevel != wantLevel {
				t.Errorf("bySeverity %+v, byLevel %+v; want %+v, %+v", v.Summary.BySeverity, v.Summary.ByLevel, wantSev, wantLevel)
			}
			if len(v.Findings) != 1 || v.Findings[0].HostLevel != tc.wantLevel || v.Findings[0].Severity != tc.sev {
				t.Errorf("page %+v, want level %v beside severity %v", v.Findings, tc.wantLevel, tc.sev)
			}
		})
	}
	if got := (ImpactCounts{Blocker: 1, High: 2, Medium: 3, Low: 4, Info: 5}).Levels(); got != (SeverityCounts{Error: 3, Warning: 3, Note: 9}) {
		t.Errorf("Levels() = %+v", got)
	}
}
