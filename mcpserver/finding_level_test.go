package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/recap-dev/recap/mcpserver"
)

// TestGetFindingLevel: getFinding's first line names the finding's level
// (its impact's, as getReports' page, recap's SARIF and the annotations
// give it), not the tool's severity: one judgment of a finding in every
// answer.
func TestGetFindingLevel(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"limit": 200, "maxTokens": 25000, "context": false, "group": false}).decode(t, &v)
	differ := 0
	for _, f := range v.Findings {
		if f.HostLevel == f.Severity {
			continue
		}
		differ++
		r := call(t, cs, "analysis.getFinding", map[string]any{"id": f.ID})
		first, _, _ := strings.Cut(r.text, "\n")
		if want := "recap: " + f.ID.String() + " " + f.HostLevel.String() + " "; !strings.HasPrefix(first, want) {
			t.Errorf("first line %q; want it to begin %q (the page's level, not the tool's %s)", first, want, f.Severity)
		}
		if differ == 5 {
			break
		}
	}
	if differ == 0 {
		t.Fatal("no finding of the sample whose level differs from its severity")
	}
}
