package parsers_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/reports/reportstest"
)

// TestSameRunTwoFormats: PMD's XML and SARIF of one run (the sample's, made
// by PMD 7.28.0) are read once, whichever comes first, the kept one naming
// the other; the same tool's reports that differ in a finding or in the
// version, or are in one format, are each read.
func TestSameRunTwoFormats(t *testing.T) {
	root := reportstest.RepoRoot(t)
	sarif, err := os.ReadFile(filepath.Join(root, "testdata", "reports", "pmd.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	xml, err := os.ReadFile(filepath.Join(root, "testdata", "pmd-xml", "pmd.xml"))
	if err != nil {
		t.Fatal(err)
	}
	checkstyle, err := os.ReadFile(filepath.Join(root, "testdata", "reports", "checkstyle.xml"))
	if err != nil {
		t.Fatal(err)
	}
	firstViolation := regexp.MustCompile(`(?s)<violation .*?</violation>\s*`)
	otherVersion := strings.Replace(string(xml), `version="7.28.0"`, `version="7.27.0"`, 1)
	oneLess := firstViolation.ReplaceAllStringFunc(string(xml), func() func(string) string {
		done := false
		return func(v string) string {
			if done {
				return v
			}
			done = true
			return ""
		}
	}())
	// The same findings in other bytes: another timestamp.
	otherTime := regexp.MustCompile(`timestamp="[^"]*"`).ReplaceAllString(string(xml), `timestamp="2026-11-27T01:02:03.000"`)
	pmd := tooltest.SamplePMD
	cs := tooltest.SampleCheckstyle

	tests := []struct {
		name   string
		files  map[string]string // name → content
		args   []string          // in this order
		want   int               // findings
		inputs int
		note   string // on the first input ("" none)
	}{
		{"sarif then xml", map[string]string{"pmd.sarif": string(sarif), "pmd.xml": string(xml)},
			[]string{"pmd.sarif", "pmd.xml"}, pmd, 1, "pmd.xml is the same PMD 7.28.0 run in PMD XML (84 findings alike): counted once"},
		{"xml then sarif", map[string]string{"pmd.sarif": string(sarif), "pmd.xml": string(xml)},
			[]string{"pmd.xml", "pmd.sarif"}, pmd, 1, "pmd.sarif is the same PMD 7.28.0 run in SARIF 2.1.0 (84 findings alike): counted once"},
		{"a directory", map[string]string{"build/pmd.sarif": string(sarif), "build/pmd/main.xml": string(xml), "build/checkstyle.xml": string(checkstyle)},
			[]string{"build"}, pmd + cs, 2, ""},
		{"another version", map[string]string{"pmd.sarif": string(sarif), "pmd.xml": otherVersion},
			[]string{"pmd.sarif", "pmd.xml"}, 2 * pmd, 2, ""},
		{"a finding less", map[string]string{"pmd.sarif": string(sarif), "pmd.xml": oneLess},
			[]string{"pmd.sarif", "pmd.xml"}, 2*pmd - 1, 2, ""},
		{"one format, two runs", map[string]string{"a/pmd.xml": string(xml), "b/pmd.xml": otherTime},
			[]string{"a/pmd.xml", "b/pmd.xml"}, 2 * pmd, 2, ""},
		{"other tools", map[string]string{"pmd.sarif": string(sarif), "checkstyle.xml": string(checkstyle)},
			[]string{"pmd.sarif", "checkstyle.xml"}, pmd + cs, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tt.files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var args []string
			for _, a := range tt.args {
				args = append(args, filepath.Join(dir, filepath.FromSlash(a)))
			}
			n := 0
			inputs, err := parsers.ReadAll(args, parsers.ReadOptions{}, func(reports.Finding) error { n++; return nil })
			if err != nil {
				t.Fatal(err)
			}
			if n != tt.want || len(inputs) != tt.inputs {
				t.Errorf("%d findings from %d inputs, want %d from %d", n, len(inputs), tt.want, tt.inputs)
			}
			var notes []string
			for _, in := range inputs {
				for _, w := range in.Warnings {
					if strings.Contains(w, "same") {
						notes = append(notes, strings.ReplaceAll(w, dir+string(filepath.Separator), ""))
					}
				}
			}
			switch {
			case tt.note == "" && tt.name != "a directory" && len(notes) > 0:
				t.Errorf("notes %q, want none", notes)
			case tt.note != "" && (len(notes) != 1 || notes[0] != tt.note):
				t.Errorf("notes %q, want %q", notes, tt.note)
			case tt.name == "a directory" && (len(notes) != 1 || !strings.Contains(notes[0], "is the same PMD 7.28.0 run")):
				t.Errorf("notes %q, want one naming the run", notes)
			}
		})
	}
}
