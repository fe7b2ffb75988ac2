package parsers

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/reports"
)

// codeQuality is a small JSON format added in a test to show that a format
// is one table row and its parser: GitLab's Code Quality report, a JSON
// array of issues.
var codeQuality = formatSpec{
	name:  "codequality",
	title: "Code Quality",
	about: "GitLab Code Quality JSON",
	head: jsonArray(func(head []byte) bool {
		return bytes.Contains(head, []byte(`"check_name"`)) && bytes.Contains(head, []byte(`"fingerprint"`))
	}),
	exts: []string{".json"},
	new:  func(opts Options) Parser { return codeQualityParser{opts} },
}

type codeQualityParser struct{ opts Options }

func (p codeQualityParser) Parse(r io.Reader, emit Emit) (reports.Input, error) {
	in := reports.Input{Format: "codequality", Tool: "Code Quality"}
	var issues []struct {
		Description string `json:"description"`
		CheckName   string `json:"check_name"`
		Fingerprint string `json:"fingerprint"`
		Severity    string `json:"severity"`
		Location    struct {
			Path  string `json:"path"`
			Lines struct {
				Begin int `json:"begin"`
			} `json:"lines"`
		} `json:"location"`
	}
	if err := jsonv2.UnmarshalRead(r, &issues); err != nil {
		return in, &ParseError{Input: p.opts.Name, Offset: -1, Err: err}
	}
	pl := newPlacer(p.opts.Root, p.opts.FS)
	for _, is := range issues {
		sev := reports.SeverityWarning
		switch is.Severity {
		case "info", "minor":
			sev = reports.SeverityNote
		case "critical", "blocker":
			sev = reports.SeverityError
		}
		f := reports.Finding{Tool: in.Tool, Rule: is.CheckName, Category: reports.CategoryOther, Severity: sev,
			Message: is.Description, Path: pl.place(is.Location.Path), Line: is.Location.Lines.Begin, EndLine: is.Location.Lines.Begin}
		if err := emit(f, map[string]string{"fingerprint": is.Fingerprint}); err != nil {
			return in, err
		}
		in.Findings++
	}
	pl.finish(&in)
	return in, nil
}

// withCodeQuality is the package's table and the one row more.
func withCodeQuality() formatTable { return append(slices.Clone(formats), codeQuality) }

const codeQualityReport = `[{"description":"Method 'run' has a Cognitive Complexity of 12","check_name":"method_complexity",
"fingerprint":"c13b3e0d","severity":"major","location":{"path":"src/app.js","lines":{"begin":41}}}]`

// TestAddFormatIsOneRow: a JSON format added as one row of a copy of the
// table is detected (and no other format is taken for it), found by a
// directory search beside SARIF and XML reports, read by ReadAll, named in
// the lists and the messages; the package's own table is left as it was.
func TestAddFormatIsOneRow(t *testing.T) {
	table := withCodeQuality()
	for _, tc := range []struct {
		head  string
		want  Format
		match match
	}{
		{codeQualityReport, "codequality", strongMatch},
		{"\xef\xbb\xbf [\n" + codeQualityReport[1:], "codequality", strongMatch},
		{`[1,2]`, "codequality", weakMatch}, // a named input gets the format's error
		{`{"runs":[]}`, FormatSARIF, strongMatch},
		{`{"name":"x"}`, FormatSARIF, weakMatch},
		{`<pmd version="7">`, FormatPMD, strongMatch},
	} {
		if got, m := table.detect([]byte(tc.head)); got != tc.want || m != tc.match {
			t.Errorf("detect(%.30q) = %q, %v; want %q, %v", tc.head, got, m, tc.want, tc.match)
		}
	}
	if f, ok := Detect([]byte(codeQualityReport)); ok || f != "" {
		t.Errorf("the package's table detects %q, %v", f, ok)
	}

	dir := t.TempDir()
	for name, content := range map[string]string{
		"gl-code-quality-report.json": codeQualityReport,
		"package.json":                `[{"name":"not a report"}]`,
		"pmd.sarif":                   `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD"}},"results":[]}]}`,
		"checkstyle.xml":              `<checkstyle version="10"></checkstyle>`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got []reports.Finding
	inputs, err := ReadAll([]string{dir}, ReadOptions{Root: "/repo", table: table}, func(f reports.Finding) error {
		got = append(got, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var formatsRead []string
	for _, in := range inputs {
		if in.Error != "" {
			t.Errorf("%s: %s", in.Path, in.Error)
		}
		formatsRead = append(formatsRead, filepath.Base(in.Path)+":"+in.Format)
	}
	if diff := cmp.Diff([]string{"checkstyle.xml:checkstyle", "gl-code-quality-report.json:codequality", "pmd.sarif:sarif"}, formatsRead); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	if len(got) != 1 || got[0].Rule != "method_complexity" || got[0].Path != "src/app.js" || got[0].Line != 41 || got[0].Fingerprint == "" {
		t.Errorf("findings %+v", got)
	}

	if got, want := table.titles("or"), "SARIF, SpotBugs, Checkstyle, PMD or Code Quality"; got != want {
		t.Errorf("titles %q, want %q", got, want)
	}
	if _, err := table.parse("CodeQuality"); err != nil {
		t.Error(err)
	}
	if _, err := table.parse("nope"); err == nil || !strings.HasSuffix(err.Error(), "(want one of sarif, spotbugs, checkstyle, pmd, codequality)") {
		t.Errorf("parse error %v", err)
	}
	empty := t.TempDir()
	inputs, _ = ReadAll([]string{empty}, ReadOptions{table: table}, func(reports.Finding) error { return nil })
	if want := empty + ": no SARIF, SpotBugs, Checkstyle, PMD or Code Quality report found in the directory"; inputs[0].Error != want {
		t.Errorf("empty directory: %q, want %q", inputs[0].Error, want)
	}
	if want := "unknown report format (recap reads SARIF 2.1.0, SpotBugs/FindBugs XML, Checkstyle XML, PMD XML and GitLab Code Quality JSON)"; table.errUnknownFormat() != want {
		t.Errorf("unknown format text %q", table.errUnknownFormat())
	}
	if len(formats) != 4 {
		t.Errorf("the package's table has %d rows", len(formats))
	}
}

// TestFormatLists: the lists the CLI and the MCP server show are the
// table's, word for word as before the table wrote them.
func TestFormatLists(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{FormatNames(), "sarif, spotbugs, checkstyle, pmd"},
		{FormatTitles("or"), "SARIF, SpotBugs, Checkstyle or PMD"},
		{FormatTitles("and"), "SARIF, SpotBugs, Checkstyle and PMD"},
		{FormatTitles(""), "SARIF, SpotBugs, Checkstyle, PMD"},
		{ErrUnknownFormat.Error(), "unknown report format (recap reads SARIF 2.1.0, SpotBugs/FindBugs XML, Checkstyle XML and PMD XML)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	for _, tc := range []struct {
		name string
		want bool
	}{{"a.sarif", true}, {"A.SARIF", true}, {"x.json", true}, {"r.xml", true}, {"r.xml.gz", true}, {"r.gz", true}, {"r.txt", false}, {"sarif", false}} {
		if got := HasReportExt(tc.name); got != tc.want {
			t.Errorf("HasReportExt(%q) = %v", tc.name, got)
		}
	}
}
