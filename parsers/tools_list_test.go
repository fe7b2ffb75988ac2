package parsers_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

// TestInputOfSeveralTools: an input whose findings are of several tools
// (recap's SARIF of several runs, its Code Quality report) names them all,
// in the order they first come, and has no version of its own.
func TestInputOfSeveralTools(t *testing.T) {
	root := reportstest.RepoRoot(t)
	for _, name := range []string{
		filepath.Join(root, "testdata", "golden", "findings.sarif"),
		filepath.Join(root, "summarize", "render", "testdata", "grouped.codeclimate.golden"),
	} {
		t.Run(filepath.Base(name), func(t *testing.T) {
			var tools []string
			seen := map[string]bool{}
			opts := parsers.ReadOptions{}
			if strings.HasSuffix(name, ".golden") {
				opts.Format = parsers.FormatCodeClimate
			}
			inputs, err := parsers.ReadAll([]string{name}, opts, func(f reports.Finding) error {
				if !seen[f.Tool] {
					seen[f.Tool] = true
					tools = append(tools, f.Tool)
				}
				return nil
			})
			if err != nil || len(inputs) != 1 {
				t.Fatalf("%v %+v", err, inputs)
			}
			if len(tools) < 2 {
				t.Fatalf("%d tools in %s: the test wants several", len(tools), name)
			}
			if in := inputs[0]; in.Tool != strings.Join(tools, ", ") || in.ToolVersion != "" {
				t.Errorf("tool %q version %q, want %q and none", in.Tool, in.ToolVersion, strings.Join(tools, ", "))
			}
		})
	}
}
