package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
)

// pmdPR is the sample project on main and on a feature branch, with the
// real PMD's SARIF report of each: on the branch, three blank lines move
// every line of OrderService.java down, the System.out.println is gone (one
// problem fixed) and a new public method without a comment is added (one
// problem added).
type pmdPR struct {
	repo       *gittest.Repo
	base, head string // the PMD reports
}

const orderService = "src/main/java/com/example/shop/OrderService.java"

func newPMDPR(t *testing.T) *pmdPR {
	t.Helper()
	if testing.Short() {
		t.Skip("runs PMD")
	}
	tooltest.PMD(t)
	g := gittest.Sample(t, reportstest.RepoRoot(t))
	out := t.TempDir()
	pr := &pmdPR{repo: g, base: filepath.Join(out, "base.sarif"), head: filepath.Join(out, "head.sarif")}
	tooltest.RunPMD(t, g.Dir, "src", "sarif", pr.base)

	g.Git("checkout", "-q", "-b", "feature")
	src := readFile(t, filepath.Join(g.Dir, orderService))
	src = strings.Replace(src, "\npublic class OrderService {", "\n\n\n\npublic class OrderService {", 1)
	src = strings.Replace(src, `System.out.println("order without customer");`, "orders.remove(customer);", 1)
	src = strings.Replace(src, "\n    public Order get(", "\n    public void clear() {\n        orders.clear();\n    }\n\n    public Order get(", 1)
	g.Write(map[string]string{orderService: src})
	g.Git("commit", "-q", "-am", "feature: fix one, add one, move the rest")
	tooltest.RunPMD(t, g.Dir, "src", "sarif", pr.head)
	return pr
}

type jsonView struct {
	Summary struct {
		Total    int `json:"total"`
		Problems int `json:"problems"`
		Baseline *struct {
			New, Unchanged, Fixed int
		} `json:"baseline"`
	} `json:"summary"`
	Findings []struct {
		Rule     string `json:"rule"`
		Path     string `json:"path"`
		Line     int    `json:"line"`
		Baseline string `json:"baseline"`
	} `json:"findings"`
}

func runJSON(t *testing.T, dir string, args ...string) (jsonView, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var v jsonView
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("recap %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return v, code
}

// TestBaselineAcrossPMDRuns: against the main branch's report, the feature
// branch's has exactly one new finding and one fixed, and every finding that
// only moved is unchanged.
func TestBaselineAcrossPMDRuns(t *testing.T) {
	t.Parallel()
	pr := newPMDPR(t)
	base, _ := runJSON(t, pr.repo.Dir, "summary", "--format", "json", pr.base)
	v, code := runJSON(t, pr.repo.Dir, "summary", "--format", "json", "--baseline", pr.base, pr.head)
	b, problems := v.Summary.Baseline, v.Summary.Problems
	if code != 0 || b == nil || b.New != 1 || b.Fixed != 1 || b.Unchanged != base.Summary.Total-1 || v.Summary.Total != base.Summary.Total {
		t.Fatalf("exit %d, baseline %+v of %d findings; want 1 new, 1 fixed, %d unchanged", code, b, v.Summary.Total, base.Summary.Total-1)
	}

	v, _ = runJSON(t, pr.repo.Dir, "findings", "--format", "json", "--new-only", "--baseline", pr.base, pr.head)
	if len(v.Findings) != 1 || v.Findings[0].Rule != "CommentRequired" || v.Findings[0].Path != orderService || v.Findings[0].Baseline != "new" {
		t.Fatalf("--new-only: %+v, want the clear() method's CommentRequired", v.Findings)
	}
	// recap's SARIF says each result's state (the query's, not the report's).
	cmd := exec.Command(bin, "summary", "--format", "sarif", "--baseline", pr.base, pr.head)
	cmd.Dir = pr.repo.Dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("summary --format sarif --baseline: %v", err)
	}
	var doc struct {
		Runs []struct {
			Results []struct {
				RuleID        string `json:"ruleId"`
				BaselineState string `json:"baselineState"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	states := map[string]int{}
	for _, r := range doc.Runs {
		for _, res := range r.Results {
			states[res.BaselineState]++
			if res.BaselineState == "new" && res.RuleID != "CommentRequired" {
				t.Errorf("new in the SARIF: %s, want the clear() method's CommentRequired", res.RuleID)
			}
		}
	}
	if states["new"] != 1 || states["unchanged"] != problems-1 || len(states) != 2 {
		t.Errorf("the SARIF's baseline states %v, want 1 new and %d unchanged (a result a problem)", states, problems-1)
	}
	if _, code := runJSON(t, pr.repo.Dir, "summary", "--format", "json", "--max-new", "0", "--baseline", pr.base, pr.head); code != 1 {
		t.Errorf("--max-new 0 with one new finding: exit %d, want 1", code)
	}
	if _, code := runJSON(t, pr.repo.Dir, "summary", "--format", "json", "--max-new", "1", "--baseline", pr.base, pr.head); code != 0 {
		t.Errorf("--max-new 1 with one new finding: exit %d, want 0", code)
	}
	// Without the baseline's fingerprints the moved findings would all be new:
	// check that lines did move.
	moved := 0
	all, _ := runJSON(t, pr.repo.Dir, "findings", "--format", "json", "--limit", "200", "--path", "**/OrderService.java", pr.head)
	old, _ := runJSON(t, pr.repo.Dir, "findings", "--format", "json", "--limit", "200", "--path", "**/OrderService.java", pr.base)
	lines := map[string]bool{}
	for _, f := range old.Findings {
		lines[f.Rule+"@"+itoa(f.Line)] = true
	}
	for _, f := range all.Findings {
		if !lines[f.Rule+"@"+itoa(f.Line)] {
			moved++
		}
	}
	if moved < 20 {
		t.Errorf("only %d findings of OrderService.java changed line; the fixture should move them all", moved)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
