package parsers

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/reports"
)

const codeQualityReport = `[{"description":"Method 'run' has a Cognitive Complexity of 12","check_name":"method_complexity",
"fingerprint":"c13b3e0d","severity":"major","location":{"path":"src/app.js","lines":{"begin":41}}}]`

// TestAddFormatIsOneRow: GitLab's Code Quality report, a JSON format that
// is one row of the table (and its parser file, codeclimate.go), is
// detected (and no other format is taken for it), found by a directory
// search beside SARIF and XML reports and beside JSON that is no report,
// read by ReadAll, and named in the lists and the messages; the table
// without its row knows none of it.
func TestAddFormatIsOneRow(t *testing.T) {
	table := formats
	for _, tc := range []struct {
		head  string
		want  Format
		match match
	}{
		{codeQualityReport, FormatCodeClimate, strongMatch},
		{"\xef\xbb\xbf [\n" + codeQualityReport[1:], FormatCodeClimate, strongMatch},
		{`[1,2]`, FormatCodeClimate, weakMatch}, // a named input gets the format's error
		{`{"runs":[]}`, FormatSARIF, strongMatch},
		{`{"name":"x"}`, FormatSARIF, weakMatch},
		{`<pmd version="7">`, FormatPMD, strongMatch},
	} {
		if got, m := table.detect([]byte(tc.head)); got != tc.want || m != tc.match {
			t.Errorf("detect(%.30q) = %q, %v; want %q, %v", tc.head, got, m, tc.want, tc.match)
		}
	}
	without := withoutCodeClimate()
	if f, m := without.detect([]byte(codeQualityReport)); m != noMatch || f != "" {
		t.Errorf("the table without the row detects %q, %v", f, m)
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
	if diff := cmp.Diff([]string{"checkstyle.xml:checkstyle", "gl-code-quality-report.json:codeclimate", "pmd.sarif:sarif"}, formatsRead); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	if len(got) != 1 || got[0].Rule != "method_complexity" || got[0].Path != "src/app.js" || got[0].Line != 41 || got[0].Fingerprint == "" ||
		got[0].Tool != "Code Quality" || got[0].Severity != reports.SeverityWarning {
		t.Errorf("findings %+v", got)
	}

	if got, want := table.titles("or"), "SARIF, SpotBugs, Checkstyle, PMD or Code Quality"; got != want {
		t.Errorf("titles %q, want %q", got, want)
	}
	if _, err := table.parse("CodeClimate"); err != nil {
		t.Error(err)
	}
	if _, err := table.parse("nope"); err == nil || !strings.HasSuffix(err.Error(), "(want one of sarif, spotbugs, checkstyle, pmd, codeclimate)") {
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
	if len(formats) != 5 || len(without) != 4 {
		t.Errorf("the package's table has %d rows", len(formats))
	}
}

// TestFormatLists: the lists the CLI and the MCP server show are the
// table's, word for word as before the table wrote them.
func TestFormatLists(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{FormatNames(), "sarif, spotbugs, checkstyle, pmd, codeclimate"},
		{FormatTitles("or"), "SARIF, SpotBugs, Checkstyle, PMD or Code Quality"},
		{FormatTitles("and"), "SARIF, SpotBugs, Checkstyle, PMD and Code Quality"},
		{FormatTitles(""), "SARIF, SpotBugs, Checkstyle, PMD, Code Quality"},
		{ErrUnknownFormat.Error(), "unknown report format (recap reads SARIF 2.1.0, SpotBugs/FindBugs XML, Checkstyle XML, PMD XML and GitLab Code Quality JSON)"},
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

// withoutCodeClimate is the package's table without Code Quality's row.
func withoutCodeClimate() formatTable {
	return slices.DeleteFunc(slices.Clone(formats), func(f formatSpec) bool { return f.name == FormatCodeClimate })
}
