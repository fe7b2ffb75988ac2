package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/githubtest"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/reports"
)

// hostileSARIF is a report whose message and URI hold line breaks that
// would start a workflow command, a carriage return, a terminal escape, and
// Unicode's next-line and line-separator characters.
func hostileSARIF(t *testing.T, dir string) string {
	t.Helper()
	evil := "\n::error::pwned\r\u001b[31mred\u0085::warning::nel\u2028::notice::ls ##[error]v1"
	type m = map[string]any
	log := m{"version": "2.1.0", "runs": []m{{"tool": m{"driver": m{"name": "PMD"}}, "results": []m{
		{"ruleId": "R1", "level": "error", "message": m{"text": "message" + evil},
			"locations": []m{{"physicalLocation": m{"artifactLocation": m{"uri": "src/A.java" + evil}, "region": m{"startLine": 3}}}}},
		{"ruleId": "R2" + evil, "level": "warning", "message": m{"text": evil},
			"locations": []m{{"physicalLocation": m{"artifactLocation": m{"uri": "src/B.java"}, "region": m{"startLine": 4}}}}},
	}}}}
	b, err := json.Marshal(log)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "hostile.sarif")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestNoWorkflowCommands: whatever the report holds, no line of any output
// (stdout or stderr) is a workflow command the Actions runner would run,
// but the annotations --format github writes on purpose, whose values
// round-trip through the runner's parsing; and the human formats hold no
// control character.
func TestNoWorkflowCommands(t *testing.T) {
	dir := t.TempDir()
	in := hostileSARIF(t, dir)
	diffFile := filepath.Join(dir, "changes.diff")
	os.WriteFile(diffFile, []byte("--- a/src/B.java\n+++ b/src/B.java\n@@ -1,3 +1,5 @@\n a\n b\n c\n+d\n+e\n"), 0o644)
	var runs [][]string
	for _, cmd := range []string{"summary", "findings"} {
		for _, f := range []string{"text", "markdown", "json", "github", "sarif"} {
			runs = append(runs, []string{cmd, "--format", f, in})
		}
	}
	runs = append(runs, []string{"review", "--diff", diffFile, "--format", "json", in}, []string{"review", "--diff", diffFile, "--format", "markdown", in})
	for _, args := range runs {
		t.Run(strings.Join(args[:3], " "), func(t *testing.T) {
			out, errOut, code := recap(t, dir, nil, args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, errOut)
			}
			github := args[2] == "github"
			for name, text := range map[string]string{"stdout": out, "stderr": errOut} {
				for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
					cmd, ok := parseCommand(line)
					if !ok {
						// The runner's older form is found anywhere in a line
						// that is not a command of the newer form.
						if strings.Contains(line, "##[") {
							t.Errorf("%s: the runner's older command form ##[ in %q", name, line)
						}
						continue
					}
					if !github || name == "stderr" {
						t.Errorf("%s: a workflow command: %q", name, line)
						continue
					}
					if cmd.name != "error" && cmd.name != "warning" && cmd.name != "notice" || strings.ContainsAny(cmd.data, "\r\n\u001b") {
						t.Errorf("annotation %+v from %q", cmd, line)
					}
				}
				human := args[2] == "text" || args[2] == "markdown"
				if human && strings.ContainsAny(text, "\r\u001b\u0085\u2028") {
					t.Errorf("%s has control characters: %q", name, text)
				}
			}
			if github && !strings.Contains(out, " file=src/A.java%0A%3A%3Aerror%3A%3Apwned%0D") {
				t.Errorf("the path is not escaped as the toolkit does:\n%s", out)
			}
		})
	}
}

// command is a workflow command as the Actions runner parses it
// (ActionCommand.TryParseV2: leading white space trimmed, "::name
// key=value,…::data", values unescaped).
type command struct {
	name  string
	props map[string]string
	data  string
}

func parseCommand(line string) (command, bool) {
	s := strings.TrimLeft(line, " \t\v\f\u00a0\u0085\u2028\u2029")
	if !strings.HasPrefix(s, "::") {
		return command{}, false
	}
	end := strings.Index(s[2:], "::")
	if end < 0 {
		return command{}, false
	}
	info := s[2 : 2+end]
	c := command{props: map[string]string{}}
	c.name, _, _ = strings.Cut(info, " ")
	if _, props, ok := strings.Cut(info, " "); ok {
		for _, p := range strings.Split(strings.TrimSpace(props), ",") {
			if k, v, ok := strings.Cut(p, "="); ok && k != "" && v != "" {
				c.props[k] = unescapeProperty(v)
			}
		}
	}
	c.data = unescapeData(s[2+end+2:])
	return c, true
}

var (
	unescapeData     = strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%").Replace
	unescapeProperty = func(s string) string {
		for _, m := range [][2]string{{"%0D", "\r"}, {"%0A", "\n"}, {"%3A", ":"}, {"%2C", ","}, {"%25", "%"}} {
			s = strings.ReplaceAll(s, m[0], m[1])
		}
		return s
	}
)

// TestAnnotationsRoundTrip: every annotation of the real reports parses,
// by the runner's rules, back into the finding's path, line and message,
// followed by the other findings of its problem when it has some.
func TestAnnotationsRoundTrip(t *testing.T) {
	root := reportstest.RepoRoot(t)
	out, errOut, code := recap(t, root, nil, "findings", "--format", "github", "--repo", "testdata/sample", "testdata/reports")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var v struct {
		Findings []struct {
			Path, Message string
			Line          int
			Also          []reports.Also `json:"alsoReportedBy"`
		}
	}
	js, _, _ := recap(t, root, nil, "findings", "--format", "json", "--max-tokens", "25000", "--limit", "200", "--no-context", "--repo", "testdata/sample", "testdata/reports")
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, f := range v.Findings {
		// A problem that other tools report too names them after the message.
		msg := strings.TrimSpace(f.Message)
		if len(f.Also) > 0 {
			var names []string
			for _, a := range f.Also {
				names = append(names, a.Tool+" "+a.Rule)
			}
			msg += " (also reported by " + strings.Join(names, ", ") + ")"
		}
		want[fmt.Sprintf("%s:%d:%s", f.Path, f.Line, msg)] = true
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		c, ok := parseCommand(line)
		if !ok {
			t.Errorf("not a command: %q", line)
			continue
		}
		if c.props["file"] == "" {
			continue // the closing notice
		}
		n++
		line := c.props["line"]
		if line == "" {
			line = "0" // a finding about the whole file
		}
		if !want[fmt.Sprintf("%s:%s:%s", c.props["file"], line, c.data)] {
			t.Errorf("annotation %+v is no finding of the JSON view", c)
		}
	}
	if n == 0 {
		t.Error("no annotation")
	}
}

// TestSuppressedCounted: results a report marks as suppressed are shown in
// every format, so that a report whose results are all suppressed does not
// read as clean.
func TestSuppressedCounted(t *testing.T) {
	dir := t.TempDir()
	var results []string
	for i := 1; i <= 12; i++ {
		results = append(results, fmt.Sprintf(`{"ruleId":"R","message":{"text":"m%d"},"suppressions":[{"kind":"inSource"}],"locations":[{"physicalLocation":{"artifactLocation":{"uri":"A.java"},"region":{"startLine":%d}}}]}`, i, i))
	}
	all := filepath.Join(dir, "all-suppressed.sarif")
	os.WriteFile(all, []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD"}},"results":[`+strings.Join(results, ",")+`]}]}`), 0o644)
	pmd := filepath.Join(reportstest.SharedDir(t, "corpus"), "pmd-xml", "pmd-6.55.0-suppressed.xml") // 1 violation, 31 suppressed
	for _, tc := range []struct {
		input string
		n     int
	}{{all, 12}, {pmd, 31}} {
		for format, want := range map[string]string{
			"text":     fmt.Sprintf("(%d results suppressed in the reports, not counted)", tc.n),
			"markdown": fmt.Sprintf("_%d results suppressed in the reports, not counted._", tc.n),
			"github":   fmt.Sprintf("; %d results suppressed in the reports, not counted.", tc.n),
			"json":     fmt.Sprintf(`"suppressed":%d`, tc.n),
		} {
			out, errOut, code := recap(t, dir, nil, "summary", "--format", format, tc.input)
			if code != 0 || !strings.Contains(out, want) {
				t.Errorf("%s, %s: exit %d, want %q in:\n%s%s", filepath.Base(tc.input), format, code, want, out, errOut)
			}
		}
	}
}

// TestErrorsOnStderr: an input that cannot be read exits 2 and says so on
// stderr, whatever the output format, so that a redirected output does not
// hide it.
func TestErrorsOnStderr(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "broken.sarif")
	os.WriteFile(bad, []byte(`{"version":"2.1.0","runs":[{"results":12}]}`), 0o644)
	for _, format := range []string{"text", "markdown", "json", "github", "sarif"} {
		_, errOut, code := recap(t, dir, nil, "summary", "--format", format, bad)
		if code != 2 || !strings.HasPrefix(errOut, "recap: ") || !strings.Contains(errOut, "broken.sarif") {
			t.Errorf("%s: exit %d, stderr %q", format, code, errOut)
		}
	}
}

// TestSpringSARIFForCodeScanning: the documented command on Spring
// Framework's PMD report (314,926 results in one run) writes a log that
// GitHub's code scanning accepts: 25,000 results, the most severe, the
// others counted; and it says so on stderr.
func TestSpringSARIFForCodeScanning(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("reads a 350 MB report")
	}
	report := filepath.Join(reportstest.SharedDir(t, "bench"), "spring-framework.pmd7-all.sarif.gz")
	dir := t.TempDir()
	out, errOut, code := recap(t, dir, nil, "summary", "--format", "sarif", report)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if errs := githubtest.SARIFLimits([]byte(out)); len(errs) > 0 {
		t.Errorf("GitHub would reject it: %v", errs)
	}
	var log struct {
		Runs []struct {
			Properties map[string]int `json:"properties"`
			Results    []struct {
				Properties struct {
					Impact string `json:"impact"`
				} `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	// The problems by impact, as the summary counts them.
	js, errOut2, code := recap(t, dir, nil, "summary", "--format", "json", report)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut2)
	}
	var sum struct {
		Summary struct {
			Problems   int            `json:"problems"`
			ByImpact   map[string]int `json:"byImpact"`
			Duplicates struct {
				ByImpact map[string]int `json:"byImpact"`
			} `json:"duplicates"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(js), &sum); err != nil {
		t.Fatal(err)
	}
	kept := map[string]int{}
	for _, r := range log.Runs[0].Results {
		kept[r.Properties.Impact]++
	}
	omitted := sum.Summary.Problems - 25000
	if len(log.Runs) != 1 || len(log.Runs[0].Results) != 25000 || log.Runs[0].Properties["recapOmittedResults"] != omitted {
		t.Errorf("%d runs, %d results, properties %v; want 1 run of 25000 results, %d omitted", len(log.Runs), len(log.Runs[0].Results), log.Runs[0].Properties, omitted)
	}
	// The most important first: every problem of an impact above the
	// least important kept one is kept, none below it.
	cut := false
	for _, i := range reports.Impacts {
		problems := sum.Summary.ByImpact[i.String()] - sum.Summary.Duplicates.ByImpact[i.String()]
		switch {
		case cut && kept[i.String()] > 0:
			t.Errorf("%d %s results kept below the cut", kept[i.String()], i)
		case !cut && kept[i.String()] < problems:
			cut = true
		case !cut && kept[i.String()] != problems:
			t.Errorf("%d %s results kept of %d problems", kept[i.String()], i, problems)
		}
	}
	t.Logf("kept by impact %v of problems %d (byImpact %v, duplicates %v)", kept, sum.Summary.Problems, sum.Summary.ByImpact, sum.Summary.Duplicates.ByImpact)
	if !strings.Contains(errOut, fmt.Sprintf("recap: warning: sarif: %d results left out to keep at most 25000 results a run", omitted)) {
		t.Errorf("stderr:\n%s", errOut)
	}
}
