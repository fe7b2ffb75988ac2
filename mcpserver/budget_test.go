package mcpserver_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/mcpserver"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize/tokens"
)

// full sizes the tests that take long at full size: 10,000 random calls
// instead of 1,000, arguments of 10 MB instead of 1 MB, and a server over
// the root of the disk. go test ./... runs them small; the test command
// runs them full (go test ./mcpserver -run '…' -full).
var full = flag.Bool("full", false, "run the long tests at full size (the test command does)")

// TestBudgetRandomCalls: random calls with random valid arguments over the
// corpus (every report in it, the invalid ones too): no answer exceeds its
// budget, by the exact o200k_base count or by a token per 4 characters.
func TestBudgetRandomCalls(t *testing.T) {
	calls := 1000
	if *full {
		calls = 10000
	}
	dir, files := reportstest.Corpus(t)
	cs, _ := connect(t, mcpserver.Options{Root: dir})
	exact, err := tokens.New(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}

	// What the arguments are drawn from: the corpus's own names.
	var rels []string
	for _, f := range files {
		if !strings.HasPrefix(f.Path, "diffs/") {
			rels = append(rels, f.Path)
		}
	}
	set := map[string]map[string]bool{"category": {}, "tool": {}, "rule": {}, "path": {}}
	var ids []string
	_, err = parsers.ReadAll([]string{dir}, parsers.ReadOptions{Root: dir}, func(f reports.Finding) error {
		set["category"][f.Category] = true
		set["tool"][f.Tool] = true
		set["rule"][f.Rule] = true
		if f.Path != "" {
			set["path"][path.Dir(f.Path)+"/**"] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string][]string{}
	for k, m := range set {
		for v := range m {
			names[k] = append(names[k], v)
		}
		sort.Strings(names[k])
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(k string) []string {
		n := 1 + rng.IntN(2)
		var out []string
		for i := 0; i < n && len(names[k]) > 0; i++ {
			out = append(out, names[k][rng.IntN(len(names[k]))])
		}
		return out
	}
	budgets := []int{256, 300, 500, 1000, 2000, 4000, 10000, 25000}
	tools := map[string]int{}
	worst := 0.0
	for i := 0; i < calls; i++ {
		budget := budgets[rng.IntN(len(budgets))]
		if rng.IntN(3) == 0 {
			budget = 256 + rng.IntN(25000-256+1)
		}
		args := map[string]any{"maxTokens": budget}
		tool := "analysis.getReports"
		switch r := rng.IntN(10); {
		case r < 7:
			if rng.IntN(3) > 0 {
				args["reports"] = []string{rels[rng.IntN(len(rels))]}
			}
			if rng.IntN(4) == 0 {
				args["categories"] = pick("category")
			}
			if rng.IntN(5) == 0 {
				args["tools"] = pick("tool")
			}
			if rng.IntN(6) == 0 {
				args["rules"] = pick("rule")
			}
			if rng.IntN(6) == 0 {
				args["paths"] = pick("path")
			}
			if rng.IntN(5) == 0 {
				args["severity"] = []string{"error", "warning", "note"}[rng.IntN(3)]
			}
			if rng.IntN(8) == 0 {
				args["grep"] = []string{"a", "the", "should", "unused"}[rng.IntN(4)]
			}
			if rng.IntN(10) == 0 {
				args["securityOnly"] = true
			}
			if rng.IntN(12) == 0 {
				args["cwe"] = []string{[]string{"22", "CWE-382", "89"}[rng.IntN(3)]}
			}
			args["limit"] = 1 + rng.IntN(200)
			args["offset"] = rng.IntN(300)
			args["context"] = rng.IntN(4) > 0
			args["summaryOnly"] = rng.IntN(6) == 0
		case r < 9 && len(ids) > 0:
			tool = "analysis.getFinding"
			args["id"] = ids[rng.IntN(len(ids))]
		default:
			tool = "tokens.count"
			args["paths"] = []string{[]string{"**/*.sarif", "**/*.xml", "**", rels[rng.IntN(len(rels))]}[rng.IntN(4)]}
		}
		res := call(t, cs, tool, args)
		if res.isErr && !(strings.HasPrefix(res.text, "PARSE_ERROR") && strings.Contains(fmt.Sprint(args["reports"]), "invalid/")) {
			t.Fatalf("call %d: %s %v: %s", i, tool, args, res.text)
		}
		tools[tool]++
		n, chars := exact.Count(res.text), utf8.RuneCountInString(res.text)
		if n > budget || chars > 4*budget {
			t.Logf("%s", res.text)
			t.Fatalf("call %d: %s %v: %d tokens, %d characters, over the budget %d", i, tool, args, n, chars, budget)
		}
		worst = max(worst, float64(max(n, (chars+3)/4))/float64(budget))
		if tool == "analysis.getReports" && !res.isErr {
			var v view
			res.decode(t, &v)
			for _, f := range v.Findings {
				if len(ids) < 5000 {
					ids = append(ids, f.ID.String())
				}
			}
		}
	}
	t.Logf("%d calls %v; the fullest answer used %.1f%% of its budget", calls, tools, 100*worst)
}

// TestSmallestBudgetNoLoop: at maxTokens 256, where the summary of a
// report of many distinct rules and files leaves no room for a finding,
// the answer suggests no next offset (the one asked for would loop a
// caller following it), at the first page and a later one.
func TestSmallestBudgetNoLoop(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[`)
	for i := 0; i < 3000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"ruleId":"SomeRatherLongRuleName%d","level":"error","message":{"text":"a finding whose message is long enough to matter %d"},`+
			`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/main/java/com/example/deep/package/name/File%d.java"},"region":{"startLine":%d}}}]}`, i, i, i, i+1)
	}
	b.WriteString(`]}]}`)
	if err := os.WriteFile(filepath.Join(dir, "many.sarif"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, mcpserver.Options{Root: dir})
	for _, offset := range []int{0, 40} {
		r := call(t, cs, "analysis.getReports", map[string]any{"maxTokens": 256, "offset": offset})
		var v struct {
			Page *struct {
				Offset, Returned int
				NextOffset       *int
			}
		}
		r.decode(t, &v)
		if v.Page == nil {
			t.Fatalf("offset %d: no page: %.300s", offset, r.text)
		}
		if n := v.Page.NextOffset; n != nil && *n <= offset {
			t.Errorf("offset %d: next offset %d: %.300s", offset, *n, r.text)
		}
		if strings.Contains(r.text, fmt.Sprintf("offset=%d", offset)) && v.Page.Returned == 0 {
			t.Errorf("offset %d: the offset asked for is suggested: %.400s", offset, r.text)
		}
	}
}
