package render

import (
	"bytes"
	"crypto/md5"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// checkCodeQuality checks a report against the Code Quality format GitLab
// documents (docs.gitlab.com, ci/testing/code_quality, "Implement a custom
// tool"), which its parser enforces with a JSON schema and by keeping one
// issue per fingerprint: a JSON array without a byte order mark, of
// objects with a description (string), a check_name (string), a
// fingerprint (string; unique, else GitLab shows one of the issues), a
// severity (info, minor, major, critical or blocker), a location with a
// relative path and lines.begin (an integer, a line ≥ 1). A path recap
// could not place in the repository stays absolute (absolute lists them);
// any other must be relative. It returns the issues.
func checkCodeQuality(t *testing.T, b []byte, absolute map[string]bool) []map[string]any {
	t.Helper()
	if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		t.Fatal("the report starts with a byte order mark, which GitLab's parser refuses")
	}
	var issues []map[string]any
	if err := json.Unmarshal(b, &issues); err != nil {
		t.Fatalf("not a JSON array of objects: %v", err)
	}
	hex32 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	seen := map[string]bool{}
	for i, is := range issues {
		at := fmt.Sprintf("issue %d", i)
		for _, k := range []string{"description", "check_name", "fingerprint", "severity"} {
			if s, ok := is[k].(string); !ok || s == "" {
				t.Fatalf("%s: %s is %v, want a string", at, k, is[k])
			}
		}
		fp := is["fingerprint"].(string)
		if !hex32.MatchString(fp) {
			t.Errorf("%s: fingerprint %q is not 32 hex digits", at, fp)
		}
		if seen[fp] {
			t.Fatalf("%s: fingerprint %s is not unique: GitLab keeps one issue per fingerprint", at, fp)
		}
		seen[fp] = true
		switch is["severity"] {
		case "info", "minor", "major", "critical", "blocker":
		default:
			t.Errorf("%s: severity %v", at, is["severity"])
		}
		loc, ok := is["location"].(map[string]any)
		if !ok {
			t.Fatalf("%s: no location", at)
		}
		p, _ := loc["path"].(string)
		if p == "" || (strings.HasPrefix(p, "/") || strings.Contains(p, `\`)) && !absolute[p] || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
			t.Errorf("%s: location.path %q is not a repository-relative path", at, p)
		}
		lines, _ := loc["lines"].(map[string]any)
		begin, ok := lines["begin"].(float64)
		if !ok || begin < 1 || begin != float64(int(begin)) {
			t.Errorf("%s: location.lines.begin %v is not a line", at, lines["begin"])
		}
		if end, ok := lines["end"].(float64); ok && end < begin {
			t.Errorf("%s: lines end %v before begin %v", at, end, begin)
		}
	}
	return issues
}

// TestCodeClimateOfCorpus writes every corpus report as a Code Quality
// report, streamed as recap summary --format codeclimate writes it, checks
// it against GitLab's documented fields, and reads it back with recap's
// Code Quality reader: the same findings (tool, rule, severity through the
// reverse mapping, path, lines, the message as made one line), and Render
// of the same findings writes the same report.
func TestCodeClimateOfCorpus(t *testing.T) {
	dir, files := reportstest.Corpus(t)
	n := 0
	for _, cf := range files {
		switch cf.Dir() {
		case "invalid", "diffs", "": // not reports
			continue
		}
		path := filepath.Join(dir, cf.Path)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		t.Run(cf.Path, func(t *testing.T) {
			c := summarize.NewCollector()
			st := NewCodeClimateStream()
			defer st.Close()
			var all []reports.Finding
			inputs, err := parsers.ReadAll([]string{path}, parsers.ReadOptions{Root: dir}, func(f reports.Finding) error {
				c.Add(f)
				all = append(all, f)
				return st.Add(&f)
			})
			if err != nil || inputs[0].Error != "" {
				msg := fmt.Sprint(err)
				if err == nil {
					msg = inputs[0].Error
				}
				t.Skipf("not a report recap reads: %s", msg)
			}
			v := c.View(inputs)
			var buf bytes.Buffer
			if err := st.Write(&buf, v); err != nil {
				t.Fatal(err)
			}
			var withPath []reports.Finding
			unplaced := map[string]bool{}
			for _, f := range all {
				if f.Path != "" {
					withPath = append(withPath, f)
				}
				if strings.HasPrefix(f.Path, "/") || len(f.Path) > 2 && f.Path[1] == ':' {
					unplaced[f.Path] = true // not in the corpus: recap could not make it relative
				}
			}
			issues := checkCodeQuality(t, buf.Bytes(), unplaced)
			if len(issues) != len(withPath) || st.NoPath != len(all)-len(withPath) {
				t.Fatalf("%d issues of %d findings (%d without a path, %d counted)", len(issues), len(all), len(all)-len(withPath), st.NoPath)
			}

			for i := range withPath {
				v.Findings = append(v.Findings, summarize.FindingView{Finding: withPath[i]})
			}
			var rendered bytes.Buffer
			if err := (CodeClimate{}).Render(&rendered, v); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(rendered.Bytes(), buf.Bytes()) {
				t.Fatalf("Render wrote another report than the stream:\n%.400s\nwant\n%.400s", rendered.Bytes(), buf.Bytes())
			}

			back, in := parsers.ParseAll(bytes.NewReader(buf.Bytes()), "gl-code-quality-report.json", parsers.ReadOptions{Root: dir})
			if in.Error != "" || in.Format != string(parsers.FormatCodeClimate) {
				t.Fatalf("reading the report back: %s (%s)", in.Error, in.Format)
			}
			// A Code Quality severity is the impact's: read back, it is
			// the finding's level, not its tool's.
			leveled := slices.Clone(withPath)
			for i := range leveled {
				leveled[i].Severity = leveled[i].Level()
			}
			want, got := roundTripKeys(leveled), roundTripKeys(back)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("read back (-written +read):\n%s", diff)
			}
			n++
		})
	}
	if n < 50 {
		t.Fatalf("only %d corpus reports written as Code Quality reports", n)
	}
}

// roundTripKeys is what must survive a Code Quality report, sorted.
func roundTripKeys(fs []reports.Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		msg := sarifMessage(&f)
		// check_name names a Checkstyle check by its name, not its class.
		out[i] = strings.Join([]string{f.Tool, reports.ShortRule(f.Tool, f.Rule), f.Severity.String(), f.Path, itoa(max(f.Line, 1)),
			itoa(max(f.EndLine, f.Line, 1)), PlainText(msg)}, "|")
	}
	sort.Strings(out)
	return out
}

// TestCodeClimateIssue: one finding's issue, field by field; the severity
// mapping; occurrences of one fingerprint; a finding without a path left
// out; a file-level finding on line 1.
func TestCodeClimateIssue(t *testing.T) {
	fs := []reports.Finding{
		{Tool: "PMD", Rule: "SystemPrintln", Severity: reports.SeverityError, Message: "Use of @param in #12 and !3: <b>x</b> [a](http://e.x) www.e.x",
			Path: "src/A.java", Line: 15, EndLine: 16, Fingerprint: "7b473f4670c92020"},
		{Tool: "PMD", Rule: "SystemPrintln", Severity: reports.SeverityWarning, Message: "again", Path: "src/A.java", Line: 30, Fingerprint: "7b473f4670c92020"},
		{Tool: "Checkstyle", Rule: "JavadocPackage", Severity: reports.SeverityNote, Message: "Missing package-info.java file.", Path: "src/B.java", Fingerprint: "0000000000000001"},
		{Tool: "SpotBugs", Rule: "X", Severity: reports.SeverityError, Message: "no file", Fingerprint: "0000000000000002"},
	}
	st := NewCodeClimateStream()
	defer st.Close()
	for i := range fs {
		if err := st.Add(&fs[i]); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := st.Write(&buf, &summarize.View{}); err != nil {
		t.Fatal(err)
	}
	issues := checkCodeQuality(t, buf.Bytes(), nil)
	if st.NoPath != 1 || len(issues) != 3 {
		t.Fatalf("%d issues, %d without a path", len(issues), st.NoPath)
	}
	z := "\u200d"
	want := map[string]any{
		"type": "issue", "check_name": "PMD/SystemPrintln", "engine_name": "PMD", "severity": "critical",
		"description": "Use of @" + z + "param in #" + z + "12 and !" + z + "3: <" + z + "b>x<" + z + "/b> [a]" + z + "(http" + z + "://e.x) www" + z + ".e.x",
		"fingerprint": "7b473f4670c920200000000000000001",
		"location":    map[string]any{"path": "src/A.java", "lines": map[string]any{"begin": 15.0, "end": 16.0}},
	}
	if diff := cmp.Diff(want, issues[0]); diff != "" {
		t.Errorf("issue (-want +got):\n%s", diff)
	}
	// The fingerprint: the finding's identity, the findings of the set
	// written with its occurrence before it (the same finding twice), its
	// occurrence; read back, the finding's own.
	for i, w := range []struct{ severity, fp, back string }{
		{"critical", "7b473f4670c920200000000000000001", "7b473f4670c92020:1"},
		{"major", "7b473f4670c920200000000100000001", "7b473f4670c92020:1"},
		{"minor", "00000000000000010000000000000001", "0000000000000001:1"},
	} {
		if issues[i]["severity"] != w.severity || issues[i]["fingerprint"] != w.fp {
			t.Errorf("issue %d: %v %v, want %s %s", i, issues[i]["severity"], issues[i]["fingerprint"], w.severity, w.fp)
		}
		if back, ok := reports.ParseCodeQualityFingerprint(w.fp); !ok || back != w.back {
			t.Errorf("issue %d read back: %q %v, want %s", i, back, ok, w.back)
		}
	}
	// A finding without a fingerprint: the MD5 of its tool and id.
	var nofp bytes.Buffer
	v := &summarize.View{Findings: []summarize.FindingView{{Finding: reports.Finding{ID: reports.ID("a", 1), Tool: "PMD", Rule: "R", Severity: reports.SeverityNote, Message: "m", Path: "A.java"}}}}
	if err := (CodeClimate{}).Render(&nofp, v); err != nil {
		t.Fatal(err)
	}
	if is := checkCodeQuality(t, nofp.Bytes(), nil); len(is) != 1 || is[0]["fingerprint"] != md5hex("PMD\x00a-1:1") {
		t.Errorf("a finding without a fingerprint: %v, want md5(PMD a-1:1)", is)
	}
	if lines := issues[2]["location"].(map[string]any)["lines"]; !cmp.Equal(lines, map[string]any{"begin": 1.0}) {
		t.Errorf("a file-level finding's lines: %v", lines)
	}
	var empty bytes.Buffer
	if err := (CodeClimate{}).Render(&empty, &summarize.View{}); err != nil || empty.String() != "[\n]\n" {
		t.Errorf("no findings: %q, %v", empty.String(), err)
	}
}

func md5hex(s string) string { return fmt.Sprintf("%x", md5.Sum([]byte(s))) }

// TestCodeClimateSeverityOfImpact: the impact decides the Code Quality
// severity; a finding without one has its tool's severity's.
func TestCodeClimateSeverityOfImpact(t *testing.T) {
	tests := []struct {
		sev    reports.Severity
		impact reports.Impact
		want   string
	}{
		{reports.SeverityNote, reports.ImpactBlocker, "blocker"},
		{reports.SeverityNote, reports.ImpactHigh, "critical"},
		{reports.SeverityError, reports.ImpactMedium, "major"},
		{reports.SeverityError, reports.ImpactLow, "minor"},
		{reports.SeverityError, reports.ImpactInfo, "info"},
		{reports.SeverityError, 0, "critical"},
		{reports.SeverityWarning, 0, "major"},
		{reports.SeverityNote, 0, "minor"},
	}
	for _, tc := range tests {
		if got := CodeClimateSeverity(tc.sev, tc.impact); got != tc.want {
			t.Errorf("%s of impact %s: %q, want %q", tc.sev, tc.impact, got, tc.want)
		}
	}
}
