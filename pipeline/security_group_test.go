package pipeline_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
)

// TestSecurityFindingNotHidden: a report that names a finding after a rule
// of the table (PMD CloseResource, tagged security and CWE-89, at
// Dao.java:50) beside another tool's SQL injection on that line and a
// SpotBugs OS_OPEN_STREAM over lines 40-60: the SQL injection is on the
// page and handed to the outputs that take each finding (recap's SARIF,
// the review), never only named by another's alsoReportedBy.
func TestSecurityFindingNotHidden(t *testing.T) {
	dir := t.TempDir()
	logs := map[string]string{
		"crafted.sarif": `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","rules":[{"id":"CloseResource","properties":{"tags":["security","external/cwe/cwe-89"],"security-severity":"9.8"}}]}},` +
			`"results":[{"ruleId":"CloseResource","level":"error","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"Dao.java"},"region":{"startLine":50}}}]}]}]}`,
		"semgrep.sarif": `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Semgrep","rules":[{"id":"java.sqli","properties":{"tags":["security","CWE-89: SQL Injection"],"security-severity":"7.5"}}]}},` +
			`"results":[{"ruleId":"java.sqli","level":"error","message":{"text":"sql injection"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"Dao.java"},"region":{"startLine":50}}}]}]}]}`,
		"spotbugs.sarif": `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"SpotBugs","rules":[{"id":"OS_OPEN_STREAM"}]}},` +
			`"results":[{"ruleId":"OS_OPEN_STREAM","level":"warning","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"Dao.java"},"region":{"startLine":40,"endLine":60}}}]}]}]}`,
	}
	var paths []string
	for name, log := range logs {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	var each []string
	q := &pipeline.Query{Reports: pipeline.Files{Paths: paths, Options: parsers.ReadOptions{Root: dir}}, Classes: grouping.ClassOf,
		Keep: pipeline.Keep{Each: func(f *reports.Finding, _ string) error {
			each = append(each, f.Tool+":"+f.Rule)
			return nil
		}}}
	res, err := pipeline.Run(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range each {
		found = found || r == "Semgrep:java.sqli"
	}
	if !found || res.View.Summary.Problems != 2 {
		t.Errorf("outputs got %v (%d problems); want Semgrep's SQL injection among 2 problems", each, res.View.Summary.Problems)
	}
}
