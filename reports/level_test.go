package reports

import "testing"

// TestHostLevel: the impact decides the level; a finding without one
// keeps its tool's severity; the security severity of each impact's band.
func TestHostLevel(t *testing.T) {
	tests := []struct {
		sev    Severity
		impact Impact
		want   Severity
		band   float64
	}{
		{SeverityNote, ImpactBlocker, SeverityError, 9.5},
		{SeverityNote, ImpactHigh, SeverityError, 8.0},
		{SeverityError, ImpactMedium, SeverityWarning, 5.5},
		{SeverityError, ImpactLow, SeverityNote, 2.0},
		{SeverityWarning, ImpactInfo, SeverityNote, 0},
		{SeverityWarning, 0, SeverityWarning, 0},
		{SeverityError, 0, SeverityError, 0},
	}
	for _, tc := range tests {
		f := Finding{Severity: tc.sev, Impact: tc.impact}
		if got := f.Level(); got != tc.want {
			t.Errorf("%s of impact %s: level %s, want %s", tc.sev, tc.impact, got, tc.want)
		}
		if got := ImpactSecuritySeverity(tc.impact); got != tc.band {
			t.Errorf("impact %s: security severity %v, want %v", tc.impact, got, tc.band)
		}
	}
}
