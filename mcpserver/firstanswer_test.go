package mcpserver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/mcpserver"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/tokens"
)

// TestFirstAnswer: analysis.getReports without arguments answers with the
// counts and the few most important findings, with their code, in at most
// FirstAnswerTokens tokens as o200k_base counts exactly what is sent (the
// text, which holds the JSON of the structured content), the most
// important finding first: on the sample project's reports, and on the
// bench's Spring PMD SARIF (314,926 findings) when ../shared is there.
func TestFirstAnswer(t *testing.T) {
	o200k, err := tokens.New("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	type root struct{ name, dir string }
	roots := []root{{"sample", workspace(t).Dir}}
	if bench, ok := reportstest.Shared(t, "bench"); ok && fileExists(filepath.Join(bench, "spring-framework.pmd7-all.sarif.gz")) {
		src := filepath.Join(bench, "spring-framework.pmd7-all.sarif.gz")
		dir := t.TempDir()
		copyTo(t, src, filepath.Join(dir, "pmd.sarif.gz"), false)
		roots = append(roots, root{"spring", dir})
	} else {
		t.Log("no ../shared/bench: the Spring report is not tried")
	}
	for _, r := range roots {
		t.Run(r.name, func(t *testing.T) {
			cs, _ := connect(t, mcpserver.Options{Root: r.dir})
			res := call(t, cs, "analysis.getReports", nil)
			var v summarize.View
			res.decode(t, &v)
			n := o200k.Count(res.text)
			t.Logf("%s: %d tokens (o200k_base), %d findings shown of %d, omitted %v", r.name, n, len(v.Findings), v.Summary.Total, v.Omitted)
			if n > mcpserver.FirstAnswerTokens {
				t.Errorf("the first answer costs %d tokens, over %d", n, mcpserver.FirstAnswerTokens)
			}
			if len(v.Findings) == 0 {
				t.Fatalf("no finding in the first answer: %.500s", res.text)
			}
			if v.Page == nil || v.Page.Limit != mcpserver.FirstAnswerLimit {
				t.Errorf("page %+v, want a limit of %d", v.Page, mcpserver.FirstAnswerLimit)
			}
			// The first finding shown is the most important of all: none
			// has a higher impact, nor the same impact and a quality that
			// matters more.
			first := v.Findings[0]
			for _, i := range reports.Impacts {
				if i <= first.Impact {
					break
				}
				if n := v.Summary.ByImpact.Of(i); n > 0 {
					t.Errorf("the first finding is %s, but %d findings are %s", first.Impact, n, i)
				}
			}
			if c := v.Summary.ByQualityImpact; first.Quality != reports.QualitySecurity && c.Of(reports.QualitySecurity).Of(first.Impact) > 0 {
				t.Errorf("the first finding is about %s, but security findings have its impact %s", first.Quality, first.Impact)
			}
			if len(v.Findings[0].Context) == 0 && r.name == "sample" {
				t.Errorf("the first finding has no code around it")
			}
		})
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestFirstAnswerSpring: on the bench's Spring PMD SARIF (314,926
// findings, 758 blockers of several rules, the most of one rule in one
// file), the first answer shows blockers of different rules, one each;
// without the sources under the root it says why no code is shown, and
// with the source of its findings under the root (paths as CI wrote them,
// mapped onto the root) it shows the first finding's code.
func TestFirstAnswerSpring(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 314,926 findings twice")
	}
	bench := reportstest.SharedDir(t, "bench")
	dir := t.TempDir()
	copyTo(t, filepath.Join(bench, "spring-framework.pmd7-all.sarif.gz"), filepath.Join(dir, "pmd.sarif.gz"), false)
	first := func() summarize.View {
		cs, _ := connect(t, mcpserver.Options{Root: dir})
		defer cs.Close()
		var v summarize.View
		call(t, cs, "analysis.getReports", nil).decode(t, &v)
		return v
	}
	v := first()
	if len(v.Findings) < 3 {
		t.Fatalf("%d findings in the first answer", len(v.Findings))
	}
	rules := map[string]bool{}
	for _, f := range v.Findings {
		if f.Impact != reports.ImpactBlocker || rules[f.Rule] {
			t.Errorf("the first answer shows %s %s after %v: want blockers of different rules", f.Impact, f.Rule, rules)
		}
		rules[f.Rule] = true
		if len(f.Context) > 0 || f.ContextNote != "no context: outside the root" {
			t.Errorf("%s without its source under the root: context %v, note %q", f.ID, f.Context, f.ContextNote)
		}
	}
	const prefix = "/home/runner/work/spring-framework/spring-framework/"
	var lines strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&lines, "        int x%d = %d; // a line of Java\n", i, i)
	}
	for _, f := range v.Findings {
		rel, ok := strings.CutPrefix(f.Path, prefix)
		if !ok {
			t.Fatalf("%s is at %s, not under %s", f.ID, f.Path, prefix)
		}
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(lines.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := first()
	if len(w.Findings) == 0 || len(w.Findings[0].Context) == 0 {
		t.Fatalf("the first finding's source is under the root, but the first answer shows no code of it: %+v, omitted %v", w.Findings[:min(1, len(w.Findings))], w.Omitted)
	}
	if w.Findings[0].ID != v.Findings[0].ID {
		t.Errorf("the first finding is %s with its source, %s without", w.Findings[0].ID, v.Findings[0].ID)
	}
}
