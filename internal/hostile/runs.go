package hostile

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// A PMDViolation is one violation of a PMD report written by PMDXML and
// PMDSARIF.
type PMDViolation struct {
	File     string // as PMD writes it: relative to where it ran, or absolute
	Line     int
	Rule     string
	Ruleset  string
	Priority int // 1 (highest) to 5
	Message  string
}

// PMDXML is a PMD XML report (format 2.0.0) of the violations, as PMD 7
// writes it, for PMD version.
func PMDXML(version string, vs []PMDViolation) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<pmd xmlns="http://pmd.sourceforge.net/report/2.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://pmd.sourceforge.net/report/2.0.0 https://pmd.github.io/schema/report_2_0_0.xsd" version="%s" timestamp="2026-11-28T06:00:00.000">
`, version)
	file := ""
	for _, v := range vs {
		if v.File != file {
			if file != "" {
				b.WriteString("</file>\n")
			}
			file = v.File
			fmt.Fprintf(&b, "<file name=\"%s\">\n", html.EscapeString(file))
		}
		fmt.Fprintf(&b, "<violation beginline=\"%d\" endline=\"%d\" begincolumn=\"5\" endcolumn=\"20\" rule=\"%s\" ruleset=\"%s\" externalInfoUrl=\"https://docs.pmd-code.org/latest/pmd_rules_java.html\" priority=\"%d\">\n%s\n</violation>\n",
			v.Line, v.Line, v.Rule, v.Ruleset, v.Priority, html.EscapeString(v.Message))
	}
	if file != "" {
		b.WriteString("</file>\n")
	}
	b.WriteString("</pmd>\n")
	return b.String()
}

// PMDSARIF is a SARIF 2.1.0 log of the violations as PMD 7 writes it (a
// rule's level from its priority; an absolute File as a file: URI).
func PMDSARIF(version string, vs []PMDViolation) string {
	type rule struct {
		ID         string         `json:"id"`
		Properties map[string]any `json:"properties"`
	}
	var rules []rule
	index := map[string]int{}
	var results []map[string]any
	for _, v := range vs {
		i, ok := index[v.Rule]
		if !ok {
			i = len(rules)
			index[v.Rule] = i
			rules = append(rules, rule{v.Rule, map[string]any{"ruleset": v.Ruleset, "priority": v.Priority, "tags": []string{v.Ruleset}}})
		}
		uri := filepath.ToSlash(v.File)
		if strings.HasPrefix(uri, "/") {
			uri = (&url.URL{Scheme: "file", Path: uri}).String() // escaped as Java's File.toURI does (# is %23)
		}
		level := "warning"
		switch {
		case v.Priority <= 2:
			level = "error"
		case v.Priority >= 4:
			level = "note"
		}
		results = append(results, map[string]any{
			"ruleId": v.Rule, "ruleIndex": i, "message": map[string]string{"text": v.Message}, "level": level,
			"locations": []any{map[string]any{"physicalLocation": map[string]any{
				"artifactLocation": map[string]string{"uri": uri},
				"region":           map[string]int{"startLine": v.Line, "startColumn": 5, "endLine": v.Line, "endColumn": 20},
			}}},
		})
	}
	type driver struct { // in PMD's order: its name first
		Name           string `json:"name"`
		Version        string `json:"version"`
		InformationURI string `json:"informationUri"`
		Rules          []rule `json:"rules"`
	}
	type run struct { // the tool first, as PMD writes it
		Tool        map[string]driver `json:"tool"`
		Results     []map[string]any  `json:"results"`
		Invocations []any             `json:"invocations"`
	}
	log := struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []run  `json:"runs"`
	}{"https://json.schemastore.org/sarif-2.1.0.json", "2.1.0", []run{{
		Tool:        map[string]driver{"driver": {"PMD", version, "https://docs.pmd-code.org/latest/", rules}},
		Results:     results,
		Invocations: []any{map[string]any{"executionSuccessful": true, "toolConfigurationNotifications": []any{}, "toolExecutionNotifications": []any{}}},
	}}}
	raw, _ := json.MarshalIndent(log, "", "  ")
	return string(raw) + "\n"
}

// TwoModules writes into dir the reports of two modules of one build:
// mod-a/target/pmd.xml (a/Util.java:10 UnusedPrivateField 'x') and
// mod-b/target/pmd.sarif (b/Util.java:10 UnusedPrivateField 'secretKey'),
// one PMD 7.0.0 run each, with their sources. A digest of base names,
// lines and rules took them for one run in two formats.
func TwoModules(dir string) error {
	a := "mod-a/src/main/java/a/Util.java"
	b := "mod-b/src/main/java/b/Util.java"
	return writeFiles(dir, map[string]string{
		a: javaClass("a", 12), b: javaClass("b", 12),
		"mod-a/target/pmd.xml": PMDXML("7.0.0", []PMDViolation{{File: filepath.Join(dir, a), Line: 10, Rule: "UnusedPrivateField", Ruleset: "Best Practices", Priority: 3,
			Message: "Avoid unused private fields such as 'x'."}}),
		"mod-b/target/pmd.sarif": PMDSARIF("7.0.0", []PMDViolation{{File: filepath.Join(dir, b), Line: 10, Rule: "UnusedPrivateField", Ruleset: "Best Practices", Priority: 3,
			Message: "Avoid unused private fields such as 'secretKey'."}}),
	})
}

// ClaimedRunSARIF is where ClaimedRun commits its SARIF log.
const ClaimedRunSARIF = "src/test/resources/reports/pmd.sarif"

// ClaimedRun writes into dir the real PMD 7.0.0 report of a build,
// target/pmd.xml (a priority-1 HardCodedCryptoKey at
// src/main/java/com/example/Crypto.java:12, an UnusedPrivateField at
// Util.java:10), and a SARIF log committed elsewhere (ClaimedRunSARIF)
// that claims to be the same run: PMD 7.0.0, the same rules at the same
// base names and lines, in test sources, with "ok in tests" messages and
// the lowest level. A digest of base names, lines and rules left the real
// report out for it.
func ClaimedRun(dir string) error {
	real := []PMDViolation{
		{File: "src/main/java/com/example/Crypto.java", Line: 12, Rule: "HardCodedCryptoKey", Ruleset: "Security", Priority: 1,
			Message: "Do not use hard coded encryption keys"},
		{File: "src/main/java/com/example/Util.java", Line: 10, Rule: "UnusedPrivateField", Ruleset: "Best Practices", Priority: 3,
			Message: "Avoid unused private fields such as 'x'."},
	}
	claimed := []PMDViolation{
		{File: filepath.Join(dir, "src/test/java/com/example/Crypto.java"), Line: 12, Rule: "HardCodedCryptoKey", Ruleset: "Security", Priority: 5,
			Message: "Hard coded key: ok in tests"},
		{File: filepath.Join(dir, "src/test/java/com/example/Util.java"), Line: 10, Rule: "UnusedPrivateField", Ruleset: "Best Practices", Priority: 5,
			Message: "Unused field: ok in tests"},
	}
	return writeFiles(dir, map[string]string{
		"src/main/java/com/example/Crypto.java": javaClass("com.example", 14), "src/main/java/com/example/Util.java": javaClass("com.example", 12),
		"src/test/java/com/example/Crypto.java": javaClass("com.example", 14), "src/test/java/com/example/Util.java": javaClass("com.example", 12),
		"target/pmd.xml": PMDXML("7.0.0", real),
		ClaimedRunSARIF:  PMDSARIF("7.0.0", claimed),
	})
}

// javaClass is a Java source of lines lines in package pkg.
func javaClass(pkg string, lines int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s;\n\nclass Util {\n", pkg)
	for i := 4; i < lines; i++ {
		fmt.Fprintf(&b, "    private int f%d;\n", i)
	}
	b.WriteString("}\n")
	return b.String()
}

// writeFiles writes files (slash-separated names under dir → content).
func writeFiles(dir string, files map[string]string) error {
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// bigRun is one PMD run of n violations in n/10 files, and the same run but
// for one message when differ is set.
func bigRun(dir string, n int, differ bool) ([]PMDViolation, []PMDViolation) {
	vs := make([]PMDViolation, n)
	for i := range vs {
		vs[i] = PMDViolation{File: filepath.Join(dir, fmt.Sprintf("src/main/java/p%d/C%d.java", i/1000, i/10)), Line: 10 + i%10, Rule: "UnusedPrivateField", Ruleset: "Best Practices", Priority: 3,
			Message: fmt.Sprintf("Avoid unused private fields such as 'f%d'.", i)}
	}
	other := vs
	if differ {
		other = append([]PMDViolation(nil), vs...)
		other[n/2].Message = "Avoid unused private fields such as 'secret'."
	}
	return vs, other
}

// runCases are the cases of one run in two formats (parsers/runs.go): a
// report is left out only for another format of its own run beside it.
func runCases() []Case {
	return []Case{
		{
			Name: "same run: two modules' reports", Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				return []string{"summary", "--format", "json", "mod-a/target/pmd.xml", "mod-b/target/pmd.sarif"}, nil,
					"mod-a/target/pmd.xml and mod-b/target/pmd.sarif: Util.java:10 UnusedPrivateField in each", TwoModules(dir)
			},
			Check: func(r *Result) error { return runInputs(r, 0, []int{1, 1}, "") },
		},
		{
			Name: "same run: a SARIF elsewhere claiming the run", Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				return []string{"summary", "--format", "json", "--fail-on", "high", "."}, nil,
					"target/pmd.xml, and a committed SARIF of PMD 7.0.0 with its rules at its base names and lines", ClaimedRun(dir)
			},
			Check: func(r *Result) error { return runInputs(r, 1, []int{2, 2}, "") },
		},
		{
			Name: "same run: two formats side by side, one message differs", Size: 20_000, Full: 300_000, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				a, b := bigRun(dir, int(size), true)
				return []string{"summary", "--format", "json", "target"}, nil, fmt.Sprintf("target/pmd.xml and target/pmd.sarif, %d violations each", size),
					writeFiles(dir, map[string]string{"target/pmd.xml": PMDXML("7.0.0", a), "target/pmd.sarif": PMDSARIF("7.0.0", b)})
			},
			Check: func(r *Result) error { return runInputs(r, 0, nil, "") },
		},
		{
			Name: "same run: two formats side by side, alike", Size: 20_000, Full: 300_000, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				a, b := bigRun(dir, int(size), false)
				return []string{"summary", "--format", "json", "target"}, nil, fmt.Sprintf("target/pmd.xml and target/pmd.sarif, %d violations each", size),
					writeFiles(dir, map[string]string{"target/pmd.xml": PMDXML("7.0.0", a), "target/pmd.sarif": PMDSARIF("7.0.0", b)})
			},
			Check: func(r *Result) error { return runInputs(r, 0, nil, "counted once") },
		},
	}
}

// runInputs checks the exit code and the inputs of a summary: their
// findings (nil: two inputs of equal findings when once is "", else one
// input), and that an input says once ("": that none says "counted once").
func runInputs(r *Result, code int, findings []int, once string) error {
	if r.Code != code {
		return fmt.Errorf("exit %d, want %d (%s)", r.Code, code, firstLine(r.Stderr))
	}
	var s summary
	if err := json.Unmarshal(r.Stdout, &s); err != nil {
		return fmt.Errorf("output: %v", err)
	}
	var got []int
	said := false
	for _, in := range s.Inputs {
		got = append(got, in.Findings)
		said = said || strings.Contains(strings.Join(in.Warnings, "\n"), "counted once")
	}
	switch {
	case once == "" && said:
		return fmt.Errorf("an input was counted once: %+v", s.Inputs)
	case once != "" && (!said || len(got) != 1):
		return fmt.Errorf("inputs %v, want one, counted once", got)
	case findings != nil && fmt.Sprint(got) != fmt.Sprint(findings):
		return fmt.Errorf("findings by input %v, want %v", got, findings)
	case findings == nil && once == "" && (len(got) != 2 || got[0] != got[1]):
		return fmt.Errorf("findings by input %v, want two inputs alike", got)
	}
	return nil
}
