package config_test

import (
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/config"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

// TestOnTheSampleReports runs a configuration written the way the docs
// teach over the sample's real reports (Checkstyle 8.36 XML, PMD 7 SARIF,
// SpotBugs XML, made by the tools themselves), and checks each answer
// against a count made without the package: patterns of short names match
// the tools' real rule ids.
func TestOnTheSampleReports(t *testing.T) {
	root := reportstest.RepoRoot(t)
	c, err := config.Parse(".recap.yml", []byte(`
exclude:
  rules: [Checkstyle:JavadocVariable, "SpotBugs:EI_*"]
  paths: ["**/PriceCalculator.java"]
overrides:
  - rules: [Checkstyle:FinalParameters, PMD:MethodArgumentCouldBeFinal]
    impact: info
    quality: maintainability
    severity: note
same:
  - [Checkstyle:FinalParameters, PMD:MethodArgumentCouldBeFinal]
`))
	if err != nil {
		t.Fatal(err)
	}
	var all []reports.Finding
	_, err = parsers.ReadAll([]string{filepath.Join(root, "testdata", "reports")}, parsers.ReadOptions{Root: root}, func(f reports.Finding) error {
		all = append(all, f)
		return nil
	})
	if err != nil || len(all) != tooltest.SampleFindings {
		t.Fatalf("%d findings read (%v), want the sample's %d", len(all), err, tooltest.SampleFindings)
	}

	var excluded, wantExcluded, overridden, wantOverridden int
	for _, f := range all {
		byRule := f.Tool == "Checkstyle" && strings.HasSuffix(f.Rule, ".JavadocVariableCheck") ||
			f.Tool == "SpotBugs" && strings.HasPrefix(f.Rule, "EI_")
		byPath := path.Base(f.Path) == "PriceCalculator.java"
		if byRule || byPath {
			wantExcluded++
		}
		if c.Excluded(&f) {
			excluded++
			continue
		}
		final := f.Tool == "Checkstyle" && strings.HasSuffix(f.Rule, ".FinalParametersCheck") || f.Tool == "PMD" && f.Rule == "MethodArgumentCouldBeFinal"
		if final {
			wantOverridden++
		}
		c.Apply(&f)
		if f.Impact == reports.ImpactInfo && f.Severity == reports.SeverityNote && f.Quality == reports.QualityMaintainability {
			overridden++
		} else if final {
			t.Errorf("%s %s at %s:%d not overridden: %v %v %v", f.Tool, f.Rule, f.Path, f.Line, f.Impact, f.Severity, f.Quality)
		}
	}
	if excluded != wantExcluded || wantExcluded < 10 {
		t.Errorf("%d findings excluded, want %d (JavadocVariable, EI_*, PriceCalculator.java)", excluded, wantExcluded)
	}
	if overridden != wantOverridden || wantOverridden < 15 {
		t.Errorf("%d findings overridden, want %d", overridden, wantOverridden)
	}

	// The sample's 16 places where Checkstyle's FinalParameters and PMD's
	// MethodArgumentCouldBeFinal report the same parameter.
	type place struct {
		file string
		line int
	}
	checkstyle := map[place][]reports.Finding{}
	for _, f := range all {
		if f.Tool == "Checkstyle" {
			p := place{path.Base(f.Path), f.Line}
			checkstyle[p] = append(checkstyle[p], f)
		}
	}
	pairs, others := 0, 0
	for _, f := range all {
		if f.Tool != "PMD" {
			continue
		}
		same := false // a line may hold two parameters: count each PMD finding once
		for _, g := range checkstyle[place{path.Base(f.Path), f.Line}] {
			if c.SameRule(&f, &g) {
				same = true
			} else {
				others++
			}
		}
		if same {
			pairs++
		}
	}
	if others == 0 {
		t.Error("no PMD and Checkstyle findings on one line that stay apart")
	}
	if pairs != 16 {
		t.Errorf("%d same-rule pairs on one line, want the sample's 16", pairs)
	}
	rules, paths := c.Unmatched()
	if len(rules) != 0 || len(paths) != 0 {
		t.Errorf("Unmatched = %v, %v; every pattern matches a finding of the sample", rules, paths)
	}
}
