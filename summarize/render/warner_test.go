package render

import (
	"slices"
	"strings"
	"testing"

	"github.com/recap-dev/recap/reports"
)

// TestStreamWarnings: the streams say what they left out or could not
// place, each in one line the command line prints after "recap: warning: ".
func TestStreamWarnings(t *testing.T) {
	located := reports.Finding{Tool: "PMD", Rule: "UnusedLocalVariable", Path: "A.java", Line: 3, Severity: reports.SeverityWarning, Message: "x", Fingerprint: "0123456789abcdef"}
	unlocated := reports.Finding{Tool: "PMD", Rule: "UnusedLocalVariable", Severity: reports.SeverityWarning, Message: "y", Fingerprint: "fedcba9876543210"}
	sarif := func(maxResults int, drop bool) Stream {
		return SARIF{MaxResults: maxResults, DropUnlocated: drop}.NewStream()
	}
	tests := []struct {
		name     string
		stream   Stream
		findings []reports.Finding
		want     []string // each warning begins so, in order
	}{
		{"sarif: all placed", sarif(0, false), []reports.Finding{located}, nil},
		{"sarif: one without a file kept", sarif(0, false), []reports.Finding{located, unlocated}, []string{"sarif: 1 finding without a file kept"}},
		{"sarif: one without a file dropped", sarif(0, true), []reports.Finding{located, unlocated}, []string{"sarif: 1 finding without a file left out (--unlocated drop)"}},
		{"sarif: over the cap", sarif(1, false), []reports.Finding{located, located, unlocated},
			[]string{"sarif: 2 results left out to keep at most 1 results a run", "sarif: 1 finding without a file kept"}},
		{"codeclimate: all placed", NewCodeClimateStream(), []reports.Finding{located}, nil},
		{"codeclimate: one without a path", NewCodeClimateStream(), []reports.Finding{located, unlocated}, []string{"codeclimate: 1 finding without a file left out"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer tt.stream.Close()
			for i := range tt.findings {
				f := tt.findings[i]
				if err := tt.stream.Add(&f); err != nil {
					t.Fatal(err)
				}
			}
			w, ok := tt.stream.(Warner)
			if !ok {
				t.Fatalf("%T is no Warner", tt.stream)
			}
			got := w.Warnings()
			if len(got) != len(tt.want) || !slices.EqualFunc(got, tt.want, strings.HasPrefix) {
				t.Errorf("warnings %q; want lines beginning %q", got, tt.want)
			}
		})
	}
}
