package mcpserver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recap-dev/recap/mcpserver"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/budget"
)

// TestHugeProblemLead: a problem of 100,000 findings (one tool's 100,000
// rules at one place, made one problem by a same group of .recap.yml, so
// that it holds with at most one finding per rule in a problem) has a lead
// whose alsoReportedBy would cost some 2 million tokens. analysis.getReports
// shows the lead without the list, with a marker that counts them and says
// how to get them, within its budget; analysis.getFinding of the lead counts
// the others and names as many as its budget holds, with a marker. Smaller
// with -short (10,000 findings); the full size takes some 20 s.
func TestHugeProblemLead(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 10_000
	}
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[`)
	for i := range n {
		fmt.Fprintf(&b, `{"ruleId":"R%d","level":"error","message":{"text":"m%d"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/A.java"},"region":{"startLine":10}}}]},`, i, i)
	}
	b.WriteString(`{"ruleId":"Other","level":"note","message":{"text":"another problem"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/B.java"},"region":{"startLine":3}}}]}]}]}`)
	if err := os.WriteFile(filepath.Join(dir, "t.sarif"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".recap.yml"), []byte("version: 1\nsame:\n  - [\"T:*\", \"U:*\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, mcpserver.Options{Root: dir})
	start := time.Now()
	for _, args := range []map[string]any{nil, {"maxTokens": 25000, "limit": 200}, {"context": false}} {
		var v summarize.View
		res := call(t, cs, "analysis.getReports", args)
		res.decode(t, &v)
		if v.Summary.Total != n+1 || v.Summary.Problems != 2 {
			t.Fatalf("%v: %d findings, %d problems; want %d, 2", args, v.Summary.Total, v.Summary.Problems, n+1)
		}
		if len(v.Findings) != 2 || v.Findings[0].Rule != "R0" || len(v.Findings[0].AlsoReportedBy) != 0 {
			t.Fatalf("%v: the page shows %d findings, want the lead R0 without its list and the other problem: %.600s", args, len(v.Findings), res.text)
		}
		want := fmt.Sprintf("alsoReportedBy of %s: the %d other findings of its problem", v.Findings[0].ID, n-1)
		if !hasOmission(v.Omitted, want) {
			t.Errorf("%v: no marker %q in %v", args, want, v.Omitted)
		}
		if v.Tokens.Estimated > v.Tokens.Budget {
			t.Errorf("%v: %d tokens of a %d budget", args, v.Tokens.Estimated, v.Tokens.Budget)
		}
	}
	var v summarize.View
	call(t, cs, "analysis.getReports", nil).decode(t, &v)
	lead := v.Findings[0].ID
	var one struct {
		Problem struct {
			ShownBy  string
			Others   int
			Findings []struct{ Tool, Rule, ID string }
		}
		Omitted []budget.Omission
		Tokens  budget.TokenInfo
	}
	call(t, cs, "analysis.getFinding", map[string]any{"id": lead}).decode(t, &one)
	if p := one.Problem; p.ShownBy != lead || p.Others != n-1 || len(p.Findings) == 0 || len(p.Findings) >= n-1 {
		t.Errorf("getFinding %s: problem shown by %s, %d others, %d named; want %s, %d, some", lead, p.ShownBy, p.Others, len(p.Findings), lead, n-1)
	}
	if !hasOmission(one.Omitted, fmt.Sprintf("of the %d other findings of its problem", n-1)) {
		t.Errorf("getFinding %s: no marker for the others left out: %v", lead, one.Omitted)
	}
	if one.Tokens.Estimated > one.Tokens.Budget {
		t.Errorf("getFinding %s: %d tokens of a %d budget", lead, one.Tokens.Estimated, one.Tokens.Budget)
	}
	t.Logf("%d findings in one problem: %v", n, time.Since(start))
}

func hasOmission(om []budget.Omission, what string) bool {
	for _, o := range om {
		if strings.Contains(o.What, what) {
			return true
		}
	}
	return false
}
