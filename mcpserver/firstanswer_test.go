package mcpserver_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/mcpserver"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/reports/reportstest"
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
