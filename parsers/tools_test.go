package parsers

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/reports"
)

func copySample(t *testing.T) string {
	t.Helper()
	src := filepath.Join(reportstest.RepoRoot(t), "testdata", "sample")
	dst := t.TempDir()
	if out, err := exec.Command("cp", "-r", src+"/.", dst).CombinedOutput(); err != nil {
		t.Fatalf("copy the sample: %v\n%s", err, out)
	}
	return dst
}

// TestRealTools runs the real PMD 7 (SARIF and XML), Checkstyle (XML) and
// FindBugs (XML) on the sample project and checks that recap counts exactly
// what they report, counted here independently of the parsers, with every
// path relative to the sample and naming a file in it. PMD's SARIF and XML of
// one run must give the same findings, and each run the findings of the
// sample's report in testdata (made by scripts/sample-reports), so that the
// reports stay what the tools say of the sample.
func TestRealTools(t *testing.T) {
	if testing.Short() {
		t.Skip("runs PMD, Checkstyle and FindBugs")
	}
	t.Run("pmd", func(t *testing.T) {
		tooltest.PMD(t)
		dir := copySample(t)
		sarif, xml := filepath.Join(dir, "pmd.sarif"), filepath.Join(dir, "pmd.xml")
		tooltest.RunPMD(t, dir, "src", "sarif", sarif)
		tooltest.RunPMD(t, dir, "src", "xml", xml)
		fromSARIF := checkReport(t, dir, sarif, FormatSARIF, countSARIF(t, sarif))
		fromXML := checkReport(t, dir, xml, FormatPMD, countMatches(t, xml, `<violation `))
		if diff := cmp.Diff(keys(fromSARIF), keys(fromXML)); diff != "" {
			t.Errorf("PMD SARIF and XML disagree (-sarif +xml):\n%s", diff)
		}
		sameAsSampleReport(t, fromSARIF, "reports/pmd.sarif")
		sameAsSampleReport(t, fromXML, "pmd-xml/pmd.xml")
		// Both given, the run counts once (docs/formats.md, "Inputs read once").
		n := 0
		inputs, err := ReadAll([]string{sarif, xml}, ReadOptions{Root: dir}, func(reports.Finding) error { n++; return nil })
		if err != nil {
			t.Fatal(err)
		}
		if n != len(fromSARIF) || len(inputs) != 1 || !strings.Contains(strings.Join(inputs[0].Warnings, "\n"), "pmd.xml is the same PMD") {
			t.Errorf("PMD's SARIF and XML of one run together: %d findings from %d inputs (%+v), want %d from the SARIF alone, naming the XML", n, len(inputs), inputs, len(fromSARIF))
		}
	})
	t.Run("checkstyle", func(t *testing.T) {
		cs := tooltest.Checkstyle(t)
		dir := copySample(t)
		report := filepath.Join(dir, "checkstyle.xml")
		tooltest.Run(t, dir, report, cs, "-c", "/sun_checks.xml", "-f", "xml", "-o", report, filepath.Join(dir, "src"))
		found := checkReport(t, dir, report, FormatCheckstyle, countMatches(t, report, `<error `))
		sameAsSampleReport(t, found, "reports/checkstyle.xml")
	})
	t.Run("findbugs", func(t *testing.T) {
		tooltest.FindBugs(t)
		dir := copySample(t)
		report := filepath.Join(dir, "findbugs.xml")
		tooltest.RunFindBugs(t, dir, "src/main/java", report)
		found := checkReport(t, dir, report, FormatSpotBugs, countMatches(t, report, `<BugInstance `))
		if len(found) != tooltest.SampleFindBugs {
			t.Errorf("FindBugs reports %d findings on the sample, want %d", len(found), tooltest.SampleFindBugs)
		}
		_, in := parseFile(t, report, dir)
		if !strings.HasPrefix(in.ToolVersion, "3.1.0") {
			t.Errorf("tool %q version %q, want FindBugs 3.1.0", in.Tool, in.ToolVersion)
		}
		sameAsSampleReport(t, found, "reports/spotbugs.xml")
	})
}

// sameAsSampleReport checks that a tool's run on the sample finds what the
// sample's report in testdata (relative to testdata/) says.
func sameAsSampleReport(t *testing.T, found []reports.Finding, report string) {
	t.Helper()
	root := reportstest.RepoRoot(t)
	want, _ := parseFile(t, filepath.Join(root, "testdata", filepath.FromSlash(report)), filepath.Join(root, "testdata", "sample"))
	if diff := cmp.Diff(keys(want), keys(found)); diff != "" {
		t.Errorf("testdata/%s is not what the tool reports on the sample now; run scripts/sample-reports (-report +tool):\n%s", report, diff)
	}
}

func checkReport(t *testing.T, dir, report string, want Format, count int) []reports.Finding {
	t.Helper()
	if count == 0 {
		t.Fatalf("%s has no findings; the sample is meant to have some", report)
	}
	findings, in := parseFile(t, report, dir)
	if in.Error != "" || in.Format != string(want) {
		t.Fatalf("input %+v", in)
	}
	if len(findings) != count {
		t.Errorf("%s: recap counts %d findings, the tool reports %d", filepath.Base(report), len(findings), count)
	}
	for _, f := range findings {
		if strings.HasPrefix(f.Path, "/") || !strings.HasPrefix(f.Path, "src/main/java/") {
			t.Fatalf("path %q is not relative to the sample", f.Path)
		}
		if _, err := os.Stat(filepath.Join(dir, f.Path)); err != nil {
			t.Fatalf("path %q names no file of the sample: %v", f.Path, err)
		}
	}
	checkFindings(t, findings)
	return findings
}

func countSARIF(t *testing.T, path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range log.Runs {
		n += len(r.Results)
	}
	return n
}

func countMatches(t *testing.T, path, pattern string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return len(regexp.MustCompile(pattern).FindAll(b, -1))
}

// keys are the parts of a finding both PMD formats carry.
func keys(fs []reports.Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = strings.Join([]string{f.Rule, f.Category, f.Severity.String(), f.Path, f.Message,
			itoa(f.Line), itoa(f.EndLine), itoa(f.Column), itoa(f.EndColumn)}, "|")
	}
	sort.Strings(out)
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
