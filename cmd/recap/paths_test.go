package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/gittest"
)

// TestNonASCIIPathGlobs: a glob's characters outside ASCII match
// themselves in every door that takes globs: --path of summary and
// findings, and --path of recap diff.
func TestNonASCIIPathGlobs(t *testing.T) {
	t.Parallel()
	const file = "src/com/acme/ünï/Naïve.java"
	g := gittest.New(t)
	g.Commit("a file with a non-ASCII name", map[string]string{file: "class Naïve {\n  int a;\n}\n", "src/Other.java": "class Other {}\n"})
	g.Write(map[string]string{file: "class Naïve {\n  int b;\n}\n", "src/Other.java": "class Other { }\n"})
	var results []string
	for line := 1; line <= 3; line++ {
		results = append(results, `{"ruleId":"R","level":"warning","message":{"text":"m`+itoa(line)+`"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"`+file+`"},"region":{"startLine":`+itoa(line)+`}}}]}`)
	}
	results = append(results, `{"ruleId":"R","level":"warning","message":{"text":"other"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/Other.java"},"region":{"startLine":1}}}]}`)
	g.Write(map[string]string{"report.sarif": `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[` + strings.Join(results, ",") + `]}]}`})

	for glob, want := range map[string]int{file: 3, "**/Na?ve.java": 3, "**/ünï/*": 3, "src/com/acme/*/Naïve.java": 3, "**/Naive.java": 0} {
		v, code := runJSON(t, g.Dir, "summary", "--format", "json", "--path", glob, "report.sarif")
		if code != 0 || v.Summary.Total != want {
			t.Errorf("summary --path %q: %d findings (exit %d), want %d", glob, v.Summary.Total, code, want)
		}
	}
	for glob, want := range map[string]int{file: 1, "**/Na?ve.java": 1, "**/ünï/**": 1, "**/Naive.java": 0} {
		cmd := exec.Command(bin, "diff", "--format", "json", "--path", glob)
		cmd.Dir = g.Dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("diff --path %q: %v", glob, err)
		}
		var d struct {
			Files []struct {
				Path string `json:"path"`
			} `json:"files"`
		}
		if err := json.Unmarshal(out, &d); err != nil {
			t.Fatal(err)
		}
		if len(d.Files) != want || want == 1 && d.Files[0].Path != file {
			t.Errorf("diff --path %q: files %+v, want %d (%s)", glob, d.Files, want, filepath.Base(file))
		}
	}
}
