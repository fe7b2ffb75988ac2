package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/reports"
)

// flowLog is what a test reads of a SARIF log: each run's tool and
// declared bases, each result's place, logical locations, code flows and
// properties.
type flowLog struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Name           string `json:"name"`
				InformationURI string `json:"informationUri"`
			} `json:"driver"`
		} `json:"tool"`
		OriginalURIBaseIDs map[string]json.RawMessage `json:"originalUriBaseIds"`
		Results            []struct {
			Locations []struct {
				PhysicalLocation *flowPlace        `json:"physicalLocation"`
				LogicalLocations []json.RawMessage `json:"logicalLocations"`
			} `json:"locations"`
			CodeFlows []struct {
				ThreadFlows []struct {
					Locations []struct {
						Location struct {
							PhysicalLocation *flowPlace `json:"physicalLocation"`
						} `json:"location"`
					} `json:"locations"`
				} `json:"threadFlows"`
			} `json:"codeFlows"`
			Properties map[string]any `json:"properties"`
		} `json:"results"`
	} `json:"runs"`
}

type flowPlace struct {
	ArtifactLocation struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId"`
		Index     *int   `json:"index"`
	} `json:"artifactLocation"`
}

func readFlowLog(t *testing.T, b []byte) flowLog {
	t.Helper()
	var log flowLog
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatal(err)
	}
	return log
}

// flowShape is a result's code flows: the steps of each thread flow, each
// step as its uriBaseId ("none" for a step without one, "-" for a step
// without a file), a flow per line.
func (l *flowLog) shapes() []string {
	var out []string
	for _, run := range l.Runs {
		for _, res := range run.Results {
			if len(res.CodeFlows) == 0 {
				continue
			}
			var flows []string
			for _, cf := range res.CodeFlows {
				for _, tf := range cf.ThreadFlows {
					var steps []string
					for _, st := range tf.Locations {
						base := "-"
						if pl := st.Location.PhysicalLocation; pl != nil {
							base = cmp.Or(pl.ArtifactLocation.URIBaseID, "none")
						}
						steps = append(steps, base)
					}
					flows = append(flows, fmt.Sprintf("%d steps %s", len(steps), strings.Join(steps, " ")))
				}
			}
			out = append(out, strings.Join(flows, "\n"))
		}
	}
	return out
}

// TestSARIFKeepsEveryFlow: recap's SARIF of a real report keeps every code
// flow of each result, each step in it, and where each step is: a step in
// the repository under SRCROOT, a step outside it under the tool's own
// uriBaseId (govulncheck's steps in the standard library, %GOROOT%),
// declared in the run; it keeps a result's logical locations beside its
// file, and the tool's own informationUri. The reports: govulncheck's,
// made by the real tool on a program that reaches four vulnerable symbols
// (four code flows), the corpus's Fortify report (two code flows of 4 and
// 5 steps), Semgrep's, Mayhem's (a flow of 72 steps) and Snyk Code's;
// SpotBugs' SARIF for the logical locations. A result with more flows than
// recap keeps says how many it had. Every log validates with the SARIF
// Multitool.
func TestSARIFKeepsEveryFlow(t *testing.T) {
	t.Parallel()
	root := reportstest.RepoRoot(t)
	dir := t.TempDir()
	corpus := reportstest.SharedDir(t, "corpus")
	type tc struct {
		report string
		// flows are the exact flows of each result with flows, as in
		// shapes, sorted; nil: the report's own, with its %SRCROOT% as
		// recap's SRCROOT (govulncheck's, which the Go version makes).
		flows []string
	}
	repeat := func(s string, n int) string { return strings.TrimSpace(strings.Repeat(s+" ", n)) }
	cases := map[string]tc{
		"govulncheck": {report: tooltest.RunGovulncheck(t)},
		"fortify": {report: filepath.Join(corpus, "sarif-other/fortify-converted-contextregion.sarif"),
			// Its file is a Windows path that no repository holds: an absolute file URI.
			flows: []string{"4 steps " + repeat("none", 4) + "\n5 steps " + repeat("none", 5)}},
		"semgrep": {report: filepath.Join(corpus, "sarif-other/semgrep-dataflow-codeflows.sarif"),
			flows: []string{"4 steps " + repeat("SRCROOT", 4)}},
		"mayhem": {report: filepath.Join(corpus, "sarif-other/mayhem-api-flows.sarif"),
			flows: []string{"2 steps SRCROOT SRCROOT", "2 steps SRCROOT SRCROOT", "72 steps " + repeat("SRCROOT", 72)}},
		"snyk": {report: filepath.Join(corpus, "sarif-other/snyk-code-categories.sarif")},
	}
	var written []string
	for name, c := range cases {
		out, stderr, code := recap(t, root, nil, "findings", "--format", "sarif", "--no-group", "--max-results", "0", "--repo", dir, c.report)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, stderr)
		}
		file := filepath.Join(dir, name+".sarif")
		if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		written = append(written, file)
		got := readFlowLog(t, []byte(out))
		want := c.flows
		if want == nil {
			b, err := os.ReadFile(c.report)
			if err != nil {
				t.Fatal(err)
			}
			in := readFlowLog(t, b)
			for _, s := range in.shapes() {
				want = append(want, strings.ReplaceAll(s, "%SRCROOT%", "SRCROOT"))
			}
		}
		shapes := got.shapes()
		slices.Sort(shapes)
		slices.Sort(want)
		if diff := gocmp.Diff(want, shapes); diff != "" {
			t.Errorf("%s: code flows (-want +got):\n%s", name, diff)
		}
	}

	// govulncheck: four flows, their steps in the standard library under
	// %GOROOT%, which the run declares; its informationUri.
	b, _ := os.ReadFile(filepath.Join(dir, "govulncheck.sarif"))
	gv := readFlowLog(t, b)
	shapes := gv.shapes()
	if len(shapes) != 1 || strings.Count(shapes[0], "\n") != 3 || !strings.Contains(shapes[0], "%GOROOT%") || !strings.Contains(shapes[0], "SRCROOT") {
		t.Errorf("govulncheck: want one result of 4 flows, with steps in the program and in the standard library; got %q", shapes)
	}
	if len(gv.Runs) == 1 {
		run := gv.Runs[0]
		if _, ok := run.OriginalURIBaseIDs["%GOROOT%"]; !ok {
			t.Errorf("govulncheck: %%GOROOT%% not declared in %v", run.OriginalURIBaseIDs)
		}
		if u := run.Tool.Driver.InformationURI; u != "https://pkg.go.dev/golang.org/x/vuln/cmd/govulncheck" {
			t.Errorf("govulncheck: informationUri %q, want the report's", u)
		}
		for _, res := range run.Results {
			for _, cf := range res.CodeFlows {
				for _, tf := range cf.ThreadFlows {
					for _, st := range tf.Locations {
						if pl := st.Location.PhysicalLocation; pl != nil && pl.ArtifactLocation.URIBaseID == "SRCROOT" && strings.HasPrefix(pl.ArtifactLocation.URI, "src/") {
							t.Errorf("govulncheck: a step of the standard library placed in the repository: %s", pl.ArtifactLocation.URI)
						}
					}
				}
			}
		}
	}

	// Read back, recap's SARIF of govulncheck's report gives the same flows
	// and bases again.
	again, stderr, code := recap(t, root, nil, "findings", "--format", "sarif", "--no-group", "--max-results", "0", "--repo", dir, filepath.Join(dir, "govulncheck.sarif"))
	if code != 0 {
		t.Fatalf("govulncheck read back: exit %d: %s", code, stderr)
	}
	back := readFlowLog(t, []byte(again))
	if diff := gocmp.Diff(shapes, back.shapes()); diff != "" {
		t.Errorf("govulncheck: recap's SARIF read back (-want +got):\n%s", diff)
	}

	// SpotBugs' logical locations, beside the file.
	out, stderr, code := recap(t, root, nil, "findings", "--format", "sarif", "--no-group", "--max-results", "0", filepath.Join(corpus, "spotbugs-sarif/spotbugs-4.8.2-findsecbugs.sarif"))
	if code != 0 {
		t.Fatalf("spotbugs: exit %d: %s", code, stderr)
	}
	sb := readFlowLog(t, []byte(out))
	for _, run := range sb.Runs {
		for i, res := range run.Results {
			if l := res.Locations[0]; l.PhysicalLocation == nil || len(l.LogicalLocations) != 1 {
				t.Errorf("spotbugs result %d: a file and %d logical locations, want both", i, len(l.LogicalLocations))
			}
		}
	}
	sbFile := filepath.Join(dir, "spotbugs.sarif")
	os.WriteFile(sbFile, []byte(out), 0o644)
	written = append(written, sbFile)

	// More flows than recap keeps: the first MaxFlows, and the count.
	var flows []string
	for i := 0; i < reports.MaxFlows+50; i++ {
		flows = append(flows, fmt.Sprintf(`{"message":{"text":"path %d"},"threadFlows":[{"locations":[{"location":{"physicalLocation":{"artifactLocation":{"uri":"a.go"},"region":{"startLine":%d}}}}]}]}`, i, i+1))
	}
	many := filepath.Join(dir, "many-flows.sarif")
	os.WriteFile(many, []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","message":{"text":"m"},`+
		`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go"},"region":{"startLine":1}}}],"codeFlows":[`+strings.Join(flows, ",")+`]}]}]}`), 0o644)
	out, stderr, code = recap(t, root, nil, "findings", "--format", "sarif", many)
	if code != 0 {
		t.Fatalf("many flows: exit %d: %s", code, stderr)
	}
	cut := readFlowLog(t, []byte(out))
	if res := cut.Runs[0].Results[0]; len(res.CodeFlows) != reports.MaxFlows || res.Properties["recapFlows"] != float64(reports.MaxFlows+50) ||
		res.Properties["recapFlowSteps"] != float64(reports.MaxFlows+50) {
		t.Errorf("many flows: %d code flows kept, properties %v; want %d, and the report's %d flows and steps", len(res.CodeFlows), res.Properties, reports.MaxFlows, reports.MaxFlows+50)
	}
	cutFile := filepath.Join(dir, "cut.sarif")
	os.WriteFile(cutFile, []byte(out), 0o644)
	written = append(written, cutFile)

	if errs := tooltest.ValidateSARIF(t, written...); len(errs) > 0 {
		t.Errorf("Sarif.Multitool validate: %d results, first:\n%s", len(errs), strings.Join(errs[:min(len(errs), 10)], "\n"))
	}
}
