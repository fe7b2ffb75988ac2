package parsers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/reports"
)

// TestSARIFCases: each small SARIF log of testdata/sarif gives exactly the
// findings (every field, their detail, the results that are no findings,
// marked) and the input (counts, kinds, warnings, the rule table) its
// golden says; see testdata/sarif/README.md for what each one holds.
func TestSARIFCases(t *testing.T) {
	dir := filepath.Join("testdata", "sarif")
	repo, err := filepath.Abs(filepath.Join(dir, "repo"))
	if err != nil {
		t.Fatal(err)
	}
	cases, _ := filepath.Glob(filepath.Join(dir, "*.sarif"))
	if len(cases) < 6 {
		t.Fatalf("%d cases in %s", len(cases), dir)
	}
	for _, path := range cases {
		name := strings.TrimSuffix(filepath.Base(path), ".sarif")
		t.Run(name, func(t *testing.T) {
			type finding struct {
				reports.Finding
				Uncounted bool            `json:"uncounted,omitempty"`
				Detail    *reports.Detail `json:"detail,omitempty"`
			}
			var got struct {
				Input    reports.Input       `json:"input"`
				Rules    []reports.RuleEntry `json:"rules"`
				Findings []finding           `json:"findings"`
			}
			inputs, err := ReadAll([]string{path}, ReadOptions{Root: repo, Uncounted: true}, func(f reports.Finding) error {
				got.Findings = append(got.Findings, finding{Finding: f, Uncounted: f.Uncounted(), Detail: f.Detail})
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			got.Input = inputs[0]
			got.Input.Path = filepath.ToSlash(got.Input.Path)
			got.Rules = got.Input.Rules.List()
			b, err := json.MarshalIndent(got, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			reportstest.Golden(t, filepath.Join(dir, name+".golden.json"), append(b, '\n'))
		})
	}
}

// TestSARIFCasesFixes: the fixes given by characters are placed on lines
// and apply to the file as the tool meant.
func TestSARIFCasesFixes(t *testing.T) {
	repo, _ := filepath.Abs(filepath.Join("testdata", "sarif", "repo"))
	var fixes []*reports.Fix
	_, err := ReadAll([]string{filepath.Join("testdata", "sarif", "char-fixes.sarif")}, ReadOptions{Root: repo}, func(f reports.Finding) error {
		if f.Detail != nil {
			fixes = append(fixes, f.Detail.Fix)
		}
		return nil
	})
	if err != nil || len(fixes) != 5 {
		t.Fatalf("%d fixes, %v", len(fixes), err)
	}
	text, _ := os.ReadFile(filepath.Join(repo, "src", "app.js"))
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	out, ok := fixes[0].Apply("src/app.js", 1, lines[:1])
	if !ok || out[0] != "const a = JSON.parse(input);" {
		t.Errorf("the fix placed from characters gives %q (%v)", out, ok)
	}
	out, ok = fixes[1].Apply("src/inline.js", 2, []string{"y = eval(z);"})
	if !ok || out[0] != "y = JSON.parse(z);" {
		t.Errorf("the fix placed from the log's text gives %q (%v)", out, ok)
	}
	if r := fixes[2].Replacements; len(r) != 1 || !r[0].ByCharacters() || r[0].Offset != 40 || r[0].Length != 4 {
		t.Errorf("the fix of a file nowhere: %+v", fixes[2])
	}
	for i, want := range map[int]string{3: "Upgrade the library to 2.0", 4: "Validate the path"} {
		if fixes[i].Description != want || len(fixes[i].Replacements) != 0 {
			t.Errorf("fix %d: %+v, want %q in words", i, fixes[i], want)
		}
	}
}
