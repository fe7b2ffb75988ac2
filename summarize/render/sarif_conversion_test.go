package render

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// TestSARIFConversion: each run of recap's SARIF, rendered and streamed,
// records recap as the converter (run.conversion.tool.driver: name, the
// version it is given, information URI) while the run's tool stays the
// analyser with its own version; without a version the conversion has
// none; the SARIF Multitool finds no error in either.
func TestSARIFConversion(t *testing.T) {
	root := reportstest.RepoRoot(t)
	reportsDir := filepath.Join(root, "testdata", "reports")
	c := summarize.NewCollector()
	var all []reports.Finding
	inputs, err := parsers.ReadAll([]string{reportsDir}, parsers.ReadOptions{Root: filepath.Join(root, "testdata", "sample")}, func(f reports.Finding) error {
		c.Add(f)
		all = append(all, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	v := c.View(inputs)
	for _, f := range all {
		v.Findings = append(v.Findings, summarize.FindingView{Finding: f})
	}
	type driver struct {
		Name           string `json:"name"`
		Version        string `json:"version"`
		InformationURI string `json:"informationUri"`
	}
	var written []string
	for _, tc := range []struct {
		name, version string
		stream        bool
	}{{"rendered", "v1.4.0", false}, {"streamed", "dev+3f9a1c2b7d10", true}, {"no version", "", false}} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if tc.stream {
				st := (SARIF{MaxResults: MaxRunResults, Version: tc.version}).NewStream()
				defer st.Close()
				for i := range all {
					if err := st.Add(&all[i]); err != nil {
						t.Fatal(err)
					}
				}
				if err := st.Write(&buf, v); err != nil {
					t.Fatal(err)
				}
			} else if err := (SARIF{Version: tc.version}).Render(&buf, v); err != nil {
				t.Fatal(err)
			}
			var log struct {
				Runs []struct {
					Tool       struct{ Driver driver } `json:"tool"`
					Conversion struct {
						Tool struct{ Driver driver } `json:"tool"`
					} `json:"conversion"`
				} `json:"runs"`
			}
			if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
				t.Fatal(err)
			}
			var tools []driver
			for _, r := range log.Runs {
				tools = append(tools, r.Tool.Driver)
				want := driver{Name: "recap", Version: tc.version, InformationURI: "https://github.com/recap-dev/recap"}
				if diff := cmp.Diff(want, r.Conversion.Tool.Driver); diff != "" {
					t.Errorf("run of %s: conversion (-want +got):\n%s", r.Tool.Driver.Name, diff)
				}
			}
			wantTools := []driver{
				{Name: "Checkstyle", Version: "8.36.1", InformationURI: "https://checkstyle.org/"},
				// The report's own informationUri, else recap's table (Checkstyle's SARIF has none).
				{Name: "PMD", Version: "7.28.0", InformationURI: "https://docs.pmd-code.org/latest/"},
				// FindBugs 3.1.0-preview2 names itself so; SpotBugs continued FindBugs from 3.1.0 on.
				{Name: "SpotBugs", Version: "3.1.0-dev-20180312-UNKNOWN", InformationURI: "https://spotbugs.github.io/"},
			}
			if diff := cmp.Diff(wantTools, tools); diff != "" {
				t.Errorf("the runs' tools (-want +got):\n%s", diff)
			}
			name := filepath.Join(t.TempDir(), strings.ReplaceAll(tc.name, " ", "-")+".sarif")
			if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			written = append(written, name)
		})
	}
	if errs := tooltest.ValidateSARIF(t, written...); len(errs) > 0 {
		t.Errorf("Sarif.Multitool validate: %d errors, first:\n%s", len(errs), strings.Join(errs[:min(len(errs), 10)], "\n"))
	}
}
