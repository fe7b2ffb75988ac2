package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/triagetest"
	"github.com/recap-dev/recap/mcpserver"
)

// TestSmallBudgetSaysWhatCountsAreCut: at the smallest budgets the counts
// by tool keep the largest, then go; an answer whose byTool does not add
// up to the total says so in omitted, and one whose counts by quality went
// too, so that an agent does not read one tool as the only one.
func TestSmallBudgetSaysWhatCountsAreCut(t *testing.T) {
	_, g := sampleReports(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	cut := 0
	for budget := 150; budget <= 700; budget += 25 {
		res := call(t, cs, "analysis.getReports", map[string]any{"maxTokens": budget})
		if res.isErr {
			continue // below the floor
		}
		var v view
		res.decode(t, &v)
		if v.Tokens.Estimated > v.Tokens.Budget {
			t.Errorf("maxTokens %d: %d tokens", budget, v.Tokens.Estimated)
		}
		tools := 0
		for _, n := range v.Summary.ByTool {
			tools += n
		}
		var said []string
		for _, o := range v.Omitted {
			said = append(said, o.What)
		}
		all := strings.Join(said, "; ")
		if tools != v.Summary.Total {
			cut++
			if !strings.Contains(all, "other tools'") && !strings.Contains(all, "tool counts") && !strings.Contains(all, "tool, quality") {
				t.Errorf("maxTokens %d: byTool %v of %d findings, and omitted says nothing of it: %s", budget, v.Summary.ByTool, v.Summary.Total, all)
			}
		}
	}
	if cut == 0 {
		t.Error("no budget cut the counts by tool: the test tries none of the smallest")
	}
}

// TestSmallBudgetTriaged: with a triage file, whose counts the summary
// carries, the smallest budgets still hold (the triaged impacts and
// severities go with the summary's).
func TestSmallBudgetTriaged(t *testing.T) {
	_, g := sampleReports(t)
	file, _ := triagetest.Sample(t)
	triagetest.Write(t, g.Dir, file)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	for _, mode := range []string{"exclude", "include", "only"} {
		for _, budget := range []int{256, 257, 258, 259, 260, 270, 300, 400} {
			res := call(t, cs, "analysis.getReports", map[string]any{"maxTokens": budget, "triaged": mode})
			var v view
			res.decode(t, &v)
			if v.Tokens == nil || v.Tokens.Estimated > budget || v.Summary.Triaged == nil || v.Summary.Triaged.Problems != 5 {
				t.Errorf("%s, maxTokens %d: tokens %+v, triaged %+v", mode, budget, v.Tokens, v.Summary.Triaged)
			}
			if len(v.Summary.Triaged.ByState) == 0 && !strings.Contains(res.text, "triaged states") {
				t.Errorf("%s, maxTokens %d: the triaged states cut, unsaid: %s", mode, budget, res.text)
			}
		}
	}
}
