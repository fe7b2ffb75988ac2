package hostile

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// groupsCases are the hostile shapes of findings for the grouping of
// duplicates (docs/formats.md, "Duplicates"): chains of overlapping ranges,
// ranges that hold others, two findings of one rule on one line, groups of
// a configuration that would chain, a finding named after a rule of the
// table that would hide another tool's, and the shapes that once made
// grouping quadratic.
func groupsCases() []Case {
	return []Case{
		chainCase(false),
		chainCase(true),
		groupCase("groups: a class-level metric over its methods' lines", "PMD CyclomaticComplexity over lines 1-100 and at two methods, Checkstyle's at the two methods",
			map[string][]groupResult{
				"PMD":        {{rule: "CyclomaticComplexity", line: 1, end: 100}, {rule: "CyclomaticComplexity", line: 10, end: 20}, {rule: "CyclomaticComplexity", line: 50, end: 60}},
				"Checkstyle": {{rule: "CyclomaticComplexity", line: 10, end: 10}, {rule: "CyclomaticComplexity", line: 50, end: 50}},
			}, 3, ""),
		groupCase("groups: two parameters on one line, each reported by two tools", "PMD MethodArgumentCouldBeFinal at columns 21 and 31, Checkstyle FinalParameters at 15 and 25",
			map[string][]groupResult{
				"PMD":        {{rule: "MethodArgumentCouldBeFinal", line: 7, end: 7, col: 21}, {rule: "MethodArgumentCouldBeFinal", line: 7, end: 7, col: 31}},
				"Checkstyle": {{rule: "FinalParameters", line: 7, end: 7, col: 15}, {rule: "FinalParameters", line: 7, end: 7, col: 25}},
			}, 2, ""),
		groupCase("groups: same [A, B] and [B, C] in .recap.yml", "PMD A, B and C on line 5; .recap.yml: same [PMD:A, PMD:B], [PMD:B, PMD:C]; A leads",
			map[string][]groupResult{
				"PMD": {{rule: "A", line: 5, end: 5}, {rule: "B", line: 5, end: 5}, {rule: "C", line: 5, end: 5}},
			}, 2, "same:\n  - [PMD:A, PMD:B]\n  - [PMD:B, PMD:C]\n"),
		{
			Name: "groups: a PMD-named security finding beside another tool's SQL injection", Bound: AnyBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				files := map[string]struct {
					tool string
					rs   []groupResult
				}{
					"crafted.sarif":  {"PMD", []groupResult{{rule: "CloseResource", line: 50, end: 50, cwe: 89}}},
					"semgrep.sarif":  {"Semgrep", []groupResult{{rule: "java.lang.security.sqli", line: 50, end: 50, cwe: 89}}},
					"spotbugs.sarif": {"SpotBugs", []groupResult{{rule: "OS_OPEN_STREAM", line: 40, end: 60}}},
				}
				for name, f := range files {
					if err := writeGroupSARIF(dir, name, f.tool, "Dao.java", f.rs); err != nil {
						return nil, nil, "", err
					}
				}
				return []string{"findings", "--format", "json", "crafted.sarif", "semgrep.sarif", "spotbugs.sarif"}, nil,
					"PMD CloseResource at Dao.java:50 tagged security, CWE-89; Semgrep's SQL injection there; SpotBugs OS_OPEN_STREAM over lines 40-60", nil
			},
			Check: func(r *Result) error {
				if r.Code != 0 {
					return fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
				}
				var v struct {
					Findings []struct {
						Tool, Rule string
					}
				}
				if err := json.Unmarshal(r.Stdout, &v); err != nil {
					return fmt.Errorf("output: %v", err)
				}
				for _, f := range v.Findings {
					if f.Tool == "Semgrep" {
						return nil
					}
				}
				return fmt.Errorf("the SQL injection of Semgrep is not on the findings page: %+v", v.Findings)
			},
		},
		{
			Name: "groups: findings of one class on one file with long ranges", Size: 10_000, Full: 100_000, Bound: AnyBound,
			Make: func(dir string, n int64) ([]string, io.Reader, string, error) {
				pmd, sb := make([]groupResult, n/2), make([]groupResult, n/2)
				for i := range pmd {
					pmd[i] = groupResult{rule: "CloseResource", line: i + 1, end: i + int(n)/2}
					sb[i] = groupResult{rule: "OS_OPEN_STREAM", line: i + 1, end: i + int(n)/2, col: 1}
				}
				if err := writeGroupSARIF(dir, "pmd.sarif", "PMD", "Big.java", pmd); err != nil {
					return nil, nil, "", err
				}
				if err := writeGroupSARIF(dir, "spotbugs.sarif", "SpotBugs", "Big.java", sb); err != nil {
					return nil, nil, "", err
				}
				return []string{"summary", "--format", "json", "pmd.sarif", "spotbugs.sarif"}, nil,
					fmt.Sprintf("%d PMD CloseResource and SpotBugs OS_OPEN_STREAM on one file, each over %d lines", n, n/2), nil
			},
			Check: func(r *Result) error {
				s, err := groupSummary(r, 0)
				if err != nil {
					return err
				}
				if s.Problems != s.Total/2 {
					return fmt.Errorf("%d findings, %d problems; want %d", s.Total, s.Problems, s.Total/2)
				}
				return nil
			},
		},
		{
			Name: "groups: distinct security rules sharing a CWE id on one line", Size: 6_000, Full: 60_000, Bound: AnyBound,
			Make: func(dir string, n int64) ([]string, io.Reader, string, error) {
				rs := make([]groupResult, n)
				for i := range rs {
					rs[i] = groupResult{rule: fmt.Sprintf("sqli-%06d", i), line: 9, end: 9, cwe: 89}
				}
				if err := writeGroupSARIF(dir, "scanner.sarif", "Scanner", "web.py", rs); err != nil {
					return nil, nil, "", err
				}
				return []string{"summary", "--format", "json", "scanner.sarif"}, nil, fmt.Sprintf("%d rules tagged security and CWE-89, one finding each on web.py:9", n), nil
			},
			Check: func(r *Result) error {
				s, err := groupSummary(r, 0)
				if err != nil {
					return err
				}
				if s.Problems != 1 {
					return fmt.Errorf("%d findings, %d problems; want 1", s.Total, s.Problems)
				}
				return nil
			},
		},
	}
}

// groupResult is a result of writeGroupSARIF: its rule, lines, column, and
// a CWE id (with the tag security) when cwe is set.
type groupResult struct {
	rule           string
	line, end, col int
	cwe            int
}

// writeGroupSARIF writes a SARIF log of tool's results on file.
func writeGroupSARIF(dir, name, tool, file string, rs []groupResult) error {
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":%q,"rules":[`, tool)
	seen := map[string]bool{}
	first := true
	for _, r := range rs {
		if seen[r.rule] {
			continue
		}
		seen[r.rule] = true
		if !first {
			w.WriteString(",")
		}
		first = false
		props := ""
		if r.cwe > 0 {
			props = fmt.Sprintf(`,"properties":{"tags":["security","external/cwe/cwe-%d"],"security-severity":"9.8"}`, r.cwe)
		}
		fmt.Fprintf(w, `{"id":%q%s}`, r.rule, props)
	}
	w.WriteString(`]}},"results":[`)
	for i, r := range rs {
		if i > 0 {
			w.WriteString(",")
		}
		col := ""
		if r.col > 0 {
			col = fmt.Sprintf(`,"startColumn":%d`, r.col)
		}
		fmt.Fprintf(w, `{"ruleId":%q,"level":"warning","message":{"text":"%s at %d"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":%q},"region":{"startLine":%d,"endLine":%d%s}}}]}`,
			r.rule, r.rule, r.line, file, r.line, r.end, col)
	}
	w.WriteString("]}]}\n")
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// groupCase is recap summary of small SARIF logs, one per tool, on one
// file (and a .recap.yml when config is set): want problems.
func groupCase(name, what string, byTool map[string][]groupResult, want int, config string) Case {
	return Case{
		Name: name, Bound: AnyBound,
		Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
			args := []string{"summary", "--format", "json", "--repo", "."}
			for tool, rs := range byTool {
				name := strings.ToLower(tool) + ".sarif"
				if err := writeGroupSARIF(dir, name, tool, "C.java", rs); err != nil {
					return nil, nil, "", err
				}
				args = append(args, name)
			}
			if config != "" {
				if err := os.WriteFile(filepath.Join(dir, ".recap.yml"), []byte(config), 0o644); err != nil {
					return nil, nil, "", err
				}
			}
			return args, nil, what, nil
		},
		Check: func(r *Result) error {
			s, err := groupSummary(r, 0)
			if err != nil {
				return err
			}
			if s.Problems != want {
				return fmt.Errorf("%d findings, %d problems; want %d", s.Total, s.Problems, want)
			}
			return nil
		},
	}
}

// chainCase is a chain of overlapping ranges of two tools, each PMD
// finding paired with a SpotBugs one. Against a baseline of its first pair,
// 499 problems are new; against a baseline of PMD's findings alone (the
// run adds SpotBugs to the pipeline), none is, with --new-only too, which
// once grouped the new findings alone and counted every SpotBugs finding a
// new problem.
func chainCase(toolAdded bool) Case {
	name, what := "groups: a chain of overlapping ranges, a baseline of its first pair", "a baseline of the first pair"
	if toolAdded {
		name, what = "groups: a chain of overlapping ranges, new only against the first tool's findings", "--new-only against a baseline of PMD's findings"
	}
	return Case{
		Name: name, Size: 500, Full: 500, Bound: AnyBound,
		Make: func(dir string, n int64) ([]string, io.Reader, string, error) {
			pmd, sb := make([]groupResult, n), make([]groupResult, n)
			for i := range pmd {
				pmd[i] = groupResult{rule: "CloseResource", line: 20*i + 1, end: 20*i + 15}
				sb[i] = groupResult{rule: "OS_OPEN_STREAM", line: 20*i + 11, end: 20*i + 25}
			}
			if err := writeGroupSARIF(dir, "pmd.sarif", "PMD", "S.java", pmd); err != nil {
				return nil, nil, "", err
			}
			if err := writeGroupSARIF(dir, "spotbugs.sarif", "SpotBugs", "S.java", sb); err != nil {
				return nil, nil, "", err
			}
			args := []string{"summary", "--format", "json", "--max-new", "0"}
			if toolAdded {
				args = append(args, "--baseline", "pmd.sarif", "--new-only")
			} else {
				if err := writeGroupSARIF(dir, "base-pmd.sarif", "PMD", "S.java", pmd[:1]); err != nil {
					return nil, nil, "", err
				}
				if err := writeGroupSARIF(dir, "base-spotbugs.sarif", "SpotBugs", "S.java", sb[:1]); err != nil {
					return nil, nil, "", err
				}
				args = append(args, "--baseline", "base-pmd.sarif", "--baseline", "base-spotbugs.sarif")
			}
			return append(args, "pmd.sarif", "spotbugs.sarif"), nil,
				fmt.Sprintf("%d PMD CloseResource and %d SpotBugs OS_OPEN_STREAM, each range overlapping the next; %s", n, n, what), nil
		},
		Check: func(r *Result) error {
			if toolAdded { // nothing new: no finding, no problem
				s, err := groupSummary(r, 0)
				if err != nil {
					return err
				}
				if s.Total != 0 || s.Problems != 0 || s.Baseline.NewProblems != 0 {
					return fmt.Errorf("%d findings, %d problems, %d new; want none", s.Total, s.Problems, s.Baseline.NewProblems)
				}
				return nil
			}
			s, err := groupSummary(r, 1)
			if err != nil {
				return err
			}
			n := s.Total / 2
			if s.Problems != n || s.Baseline.NewProblems != n-1 {
				return fmt.Errorf("%d findings: %d problems, %d new; want %d and %d", s.Total, s.Problems, s.Baseline.NewProblems, n, n-1)
			}
			return nil
		},
	}
}

// groupSummary reads the summary of recap's JSON output, which must have
// exited with code.
func groupSummary(r *Result, code int) (*groupCounts, error) {
	if r.Code != code {
		return nil, fmt.Errorf("exit %d, want %d (%s)", r.Code, code, firstLine(r.Stderr))
	}
	var v struct{ Summary groupCounts }
	if err := json.Unmarshal(r.Stdout, &v); err != nil {
		return nil, fmt.Errorf("output: %v: %.300s", err, r.Stdout)
	}
	return &v.Summary, nil
}

// groupCounts are the counts groupSummary reads.
type groupCounts struct {
	Total, Problems int
	Baseline        struct {
		NewProblems int `json:"newProblems"`
	}
}
