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

// TestHugeProblemLead: the largest problem grouping makes (a same group of
// .recap.yml joins at most 64 rules of one file, one finding of each), its
// 63 other findings of rules with ids of 1,000 characters, so that the
// lead's alsoReportedBy would cost far more than the first answer's budget.
// analysis.getReports shows the lead without the list, with a marker that
// counts them and says how to get them, within its budget; the rules past
// the 64th are problems of their own, never hidden; analysis.getFinding of
// the lead counts the others and names as many as its budget holds, with a
// marker. (Before problems were bounded, a same group made one problem of
// 100,000 findings here, whose list cost some 2 million tokens.)
func TestHugeProblemLead(t *testing.T) {
	const grouped = 64 // reports' bound on the rules of one group in a file
	n := 100_000
	if testing.Short() {
		n = 1_000
	}
	long := strings.Repeat("x", 1000)
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[`)
	for i := range n {
		rule := fmt.Sprintf("R%d", i)
		if i > 0 && i < grouped {
			rule = fmt.Sprintf("R%d-%s", i, long)
		}
		level := "warning"
		if i == 0 {
			level = "error" // the lead
		}
		fmt.Fprintf(&b, `{"ruleId":%q,"level":%q,"message":{"text":"m%d"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/A.java"},"region":{"startLine":10}}}]},`, rule, level, i)
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
	problems := 1 + (n - grouped) + 1
	for _, args := range []map[string]any{nil, {"context": false}} {
		var v summarize.View
		res := call(t, cs, "analysis.getReports", args)
		res.decode(t, &v)
		if v.Summary.Total != n+1 || v.Summary.Problems != problems {
			t.Fatalf("%v: %d findings, %d problems; want %d, %d", args, v.Summary.Total, v.Summary.Problems, n+1, problems)
		}
		if len(v.Findings) == 0 || v.Findings[0].Rule != "R0" || len(v.Findings[0].AlsoReportedBy) != 0 {
			t.Fatalf("%v: the page shows %d findings, want the lead R0 first without its list: %.600s", args, len(v.Findings), res.text)
		}
		want := fmt.Sprintf("alsoReportedBy of %s: the %d other findings of its problem", v.Findings[0].ID, grouped-1)
		if !hasOmission(v.Omitted, want) {
			t.Errorf("%v: no marker %q in %v", args, want, v.Omitted)
		}
		// The first line says parts are left out, not how many findings.
		if line, _, _ := strings.Cut(res.text, "\n"); !strings.HasSuffix(line, "; parts left out (see omitted)") {
			t.Errorf("%v: first line %q, %d markers", args, line, len(v.Omitted))
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
	if p := one.Problem; p.ShownBy != lead.String() || p.Others != grouped-1 || len(p.Findings) == 0 || len(p.Findings) >= grouped-1 {
		t.Errorf("getFinding %s: problem shown by %s, %d others, %d named; want %s, %d, some", lead, p.ShownBy, p.Others, len(p.Findings), lead, grouped-1)
	}
	if !hasOmission(one.Omitted, fmt.Sprintf("of the %d other findings of its problem", grouped-1)) {
		t.Errorf("getFinding %s: no marker for the others left out: %v", lead, one.Omitted)
	}
	if one.Tokens.Estimated > one.Tokens.Budget {
		t.Errorf("getFinding %s: %d tokens of a %d budget", lead, one.Tokens.Estimated, one.Tokens.Budget)
	}
	t.Logf("%d findings, %d in one problem: %v", n+1, grouped, time.Since(start))
}

func hasOmission(om []budget.Omission, what string) bool {
	for _, o := range om {
		if strings.Contains(o.What, what) {
			return true
		}
	}
	return false
}
