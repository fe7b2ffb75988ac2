package mcpserver_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/mcpserver"
)

// nonASCIIRepo is a repository with a file of a non-ASCII name, changed in
// the working tree, and a report of 3 findings in it and 1 elsewhere.
func nonASCIIRepo(t *testing.T) (*gittest.Repo, string) {
	t.Helper()
	const file = "src/com/acme/ünï/Naïve.java"
	g := gittest.New(t)
	g.Commit("a file with a non-ASCII name", map[string]string{file: "class Naïve {\n  int a;\n}\n", "src/Other.java": "class Other {}\n"})
	g.Write(map[string]string{file: "class Naïve {\n  int b;\n}\n"})
	var results []string
	for line := 1; line <= 3; line++ {
		results = append(results, `{"ruleId":"R","level":"warning","message":{"text":"m`+strconv.Itoa(line)+`"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"`+file+`"},"region":{"startLine":`+strconv.Itoa(line)+`}}}]}`)
	}
	results = append(results, `{"ruleId":"R","level":"warning","message":{"text":"other"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/Other.java"},"region":{"startLine":1}}}]}`)
	g.Write(map[string]string{"report.sarif": `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[` + strings.Join(results, ",") + `]}]}`})
	return g, file
}

// TestNonASCIIPaths: the paths arguments of analysis.getReports and
// vcs.diff match non-ASCII characters written literally or by ?.
func TestNonASCIIPaths(t *testing.T) {
	g, file := nonASCIIRepo(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	for glob, want := range map[string]int{file: 3, "**/Na?ve.java": 3, "**/ünï/*.java": 3, "**/Naive.java": 0} {
		var v struct {
			Summary struct{ Total int } `json:"summary"`
		}
		call(t, cs, "analysis.getReports", map[string]any{"paths": []string{glob}, "summaryOnly": true}).decode(t, &v)
		if v.Summary.Total != want {
			t.Errorf("getReports paths %q: %d findings, want %d", glob, v.Summary.Total, want)
		}
		var d struct {
			Files []struct{ Path string } `json:"files"`
		}
		call(t, cs, "vcs.diff", map[string]any{"paths": []string{glob}}).decode(t, &d)
		if wantFiles := min(want, 1); len(d.Files) != wantFiles {
			t.Errorf("vcs.diff paths %q: %+v, want %d file", glob, d.Files, wantFiles)
		}
	}
}
