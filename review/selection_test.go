package review

import (
	"fmt"
	"testing"

	"github.com/recap-dev/recap/reports"
)

// TestSelectionOrder: the check run's annotations and the job summary keep
// the first findings of the view's order, as the review's page does:
// importance by default (a high-impact warning before a low-impact error,
// as reports.Less puts them), and the order --sort gives otherwise.
func TestSelectionOrder(t *testing.T) {
	var fs []reports.Finding
	for i := 0; i < 40; i++ {
		f := reports.Finding{ID: reports.ID("f", i), Tool: "PMD", Rule: fmt.Sprintf("R%02d", i), Path: fmt.Sprintf("src/F%02d.java", 39-i), Line: 1 + i,
			Severity: reports.SeverityError, Impact: reports.ImpactLow, Quality: reports.QualityMaintainability, Message: "m"}
		if i%10 == 9 { // four findings that matter: warnings by the report, high by their tool's word
			f.Severity, f.Impact, f.Quality = reports.SeverityWarning, reports.ImpactHigh, reports.QualityReliability
		}
		fs = append(fs, f)
	}
	for _, order := range []reports.Order{reports.OrderImportance, reports.OrderSeverity, reports.OrderLocation} {
		t.Run(order.String(), func(t *testing.T) {
			ann := &Annotated{Max: 4, Order: order}
			job := &JobSummary{Order: order}
			for i := range fs {
				ann.Add(&fs[i])
				job.Add(&fs[i])
			}
			kept, omitted, _ := ann.Findings()
			want := append([]reports.Finding(nil), fs...)
			sortFindings(want, order)
			if omitted != 36 || len(kept) != 4 {
				t.Fatalf("kept %d, omitted %d", len(kept), omitted)
			}
			for i := range kept {
				if kept[i].ID != want[i].ID {
					t.Errorf("annotation %d is %s, want %s", i, kept[i].ID, want[i].ID)
				}
			}
			if order == reports.OrderImportance && kept[0].Impact != reports.ImpactHigh {
				t.Errorf("the first annotation is %s %s, not the high-impact warning", kept[0].Impact, kept[0].Severity)
			}
			lines := job.p.sorted()
			if len(lines) != 40 {
				t.Fatalf("the job summary kept %d findings", len(lines))
			}
			for i, p := range lines {
				if p.f.ID != want[i].ID {
					t.Fatalf("job summary line %d is %s, want %s", i, p.f.ID, want[i].ID)
				}
			}
		})
	}
}

// sortFindings sorts fs in order, by insertion (the test's own sort).
func sortFindings(fs []reports.Finding, order reports.Order) {
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && order.Less(&fs[j], &fs[j-1]); j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
}
