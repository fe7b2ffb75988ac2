package pipeline_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
)

// TestFilterModes: on a real repository whose branch changes line 10 of
// A.java, findings at line 10 (changed), 8 (in the hunk's context), 2 (in
// the changed file, outside the hunk), none (a file-level finding of the
// changed file) and in B.java (unchanged) are kept by each filter mode as
// reviewdog's modes keep them.
func TestFilterModes(t *testing.T) {
	t.Parallel()
	g := gittest.New(t)
	var lines []string
	for i := 1; i <= 20; i++ {
		lines = append(lines, fmt.Sprintf("line %d;", i))
	}
	g.Commit("base", map[string]string{"A.java": strings.Join(lines, "\n") + "\n", "B.java": "b;\nb;\nb;\nb;\nb;\n"})
	g.Git("checkout", "-q", "-b", "feature")
	lines[9] = "line 10 changed;"
	g.Commit("change", map[string]string{"A.java": strings.Join(lines, "\n") + "\n"})
	log := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Lint"}},"results":[` +
		result("changed", "A.java", 10) + "," + result("context", "A.java", 8) + "," + result("elsewhere", "A.java", 2) + "," +
		result("file-level", "A.java", 0) + "," + result("unchanged file", "B.java", 3) + `]}]}`
	report := filepath.Join(t.TempDir(), "lint.sarif")
	if err := os.WriteFile(report, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	want := map[pipeline.FilterMode][]string{
		pipeline.Added:       {"changed"},
		pipeline.DiffContext: {"changed", "context"},
		pipeline.File:        {"changed", "context", "elsewhere", "file-level"},
		pipeline.NoFilter:    {"changed", "context", "elsewhere", "file-level", "unchanged file"},
	}
	for mode, names := range want {
		q := pipeline.Query{
			Reports: pipeline.Files{Paths: []string{report}, Options: parsers.ReadOptions{Root: g.Dir}},
			Changes: &pipeline.Changes{Root: g.Dir, Base: "main", Mode: mode},
			Keep:    pipeline.Keep{Page: &pipeline.Page{Limit: 10}},
		}
		res, err := pipeline.Run(context.Background(), &q)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range res.View.Findings {
			got = append(got, f.Message)
		}
		sort.Strings(got)
		if d := cmp.Diff(names, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", mode, d)
		}
		if outside := 5 - len(names); res.Outside != outside || len(res.Files) != 1 {
			t.Errorf("%s: %d outside, want %d; %d files changed", mode, res.Outside, outside, len(res.Files))
		}
	}
	if _, err := pipeline.ParseFilterMode("nope"); err == nil {
		t.Error("an unknown filter mode is accepted")
	}
}

func result(msg, path string, line int) string {
	region := ""
	if line > 0 {
		region = fmt.Sprintf(`,"region":{"startLine":%d}`, line)
	}
	return fmt.Sprintf(`{"ruleId":"R","message":{"text":%q},"locations":[{"physicalLocation":{"artifactLocation":{"uri":%q}%s}}]}`, msg, path, region)
}
