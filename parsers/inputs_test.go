package parsers

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/recap-dev/recap/reports"
)

// TestLeadingSpace: a report after more white space than detection looks
// at is read, by name and in a directory search, and the lines of its
// errors are the input's.
func TestLeadingSpace(t *testing.T) {
	dir := t.TempDir()
	sarif := strings.Repeat(" ", 20000) + "\n\n\n" + `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","message":{"text":"m"}}]}]}`
	xml := strings.Repeat("\n", 10000) + `<checkstyle version="8"><file name="a"><error line="1" severity="error" message="m" source="x.Y"/></fil></checkstyle>`
	for name, body := range map[string]string{"search/report.json": strings.Replace(sarif, `"text":"m"`, `"text":"another"`, 1), "spaced.sarif": sarif, "bad.xml": xml, "blank.sarif": strings.Repeat(" \n", 10000)} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	inputs, _ := ReadAll([]string{filepath.Join(dir, "spaced.sarif"), filepath.Join(dir, "search"), filepath.Join(dir, "bad.xml"), filepath.Join(dir, "blank.sarif")},
		ReadOptions{}, func(reports.Finding) error { n++; return nil })
	if len(inputs) != 4 || n != 3 {
		t.Fatalf("%d inputs, %d findings: %+v", len(inputs), n, inputs)
	}
	for i, want := range []string{"", "", "bad.xml: line 10001: XML syntax error: element <file> closed by </fil>", "blank.sarif: byte 0: empty input"} {
		if got := strings.TrimPrefix(inputs[i].Error, dir+string(filepath.Separator)); got != want {
			t.Errorf("input %d: error %q, want %q", i, got, want)
		}
	}
}

// TestPathGivenTwice: a file named twice (itself and in its directory, or
// by two spellings of its path) is read once, with a warning that says so.
func TestPathGivenTwice(t *testing.T) {
	dir := t.TempDir()
	report := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","message":{"text":"m"}}]}]}`
	if err := os.WriteFile(filepath.Join(dir, "pmd.sarif"), []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	n := 0
	again := dir + "/../" + filepath.Base(dir) + "/pmd.sarif" // another spelling of the same path
	inputs, _ := ReadAll([]string{dir, filepath.Join(dir, "pmd.sarif"), again}, ReadOptions{}, func(reports.Finding) error { n++; return nil })
	if len(inputs) != 1 || n != 1 {
		t.Fatalf("%d inputs, %d findings", len(inputs), n)
	}
	want := []string{"given again: read once", again + " names the same file: read once"}
	if !slices.Equal(inputs[0].Warnings, want) {
		t.Errorf("warnings %q, want %q", inputs[0].Warnings, want)
	}
}

// TestUnplaceableLocations: a loop of uriBaseIds and an artifact index out
// of range are warned of by the run's path, with what was kept, rather
// than made into a/b/a/b/… paths or blank ones without a word.
func TestUnplaceableLocations(t *testing.T) {
	for _, tc := range []struct{ name, log, want, path string }{
		{"a loop of uriBaseIds",
			`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"originalUriBaseIds":{"A":{"uri":"a/","uriBaseId":"B"},"B":{"uri":"b/","uriBaseId":"A"}},` +
				`"results":[{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"f.java","uriBaseId":"A"},"region":{"startLine":1}}}]}]}]}`,
			"the uriBaseIds of $.runs[0] form a loop or a chain longer than 8", "f.java"},
		{"an artifact index out of range",
			`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"artifacts":[{"location":{"uri":"a.java"}}],` +
				`"results":[{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"index":7},"region":{"startLine":1}}}]},` +
				`{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"index":-2},"region":{"startLine":1}}}]}]}]}`,
			"$.runs[0]: 2 locations name an artifact out of range (first: 7; the run has 1 artifact): their findings have no file", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "log.sarif")
			if err := os.WriteFile(p, []byte(tc.log), 0o644); err != nil {
				t.Fatal(err)
			}
			var paths []string
			inputs, _ := ReadAll([]string{p}, ReadOptions{}, func(f reports.Finding) error { paths = append(paths, f.Path); return nil })
			if len(inputs) != 1 || inputs[0].Error != "" || len(paths) == 0 {
				t.Fatalf("%+v", inputs)
			}
			if !slices.ContainsFunc(inputs[0].Warnings, func(w string) bool { return strings.Contains(w, tc.want) }) {
				t.Errorf("warnings %q, want one with %q", inputs[0].Warnings, tc.want)
			}
			for _, got := range paths {
				if got != tc.path {
					t.Errorf("path %q, want %q", got, tc.path)
				}
			}
		})
	}
}

// TestTagged: ReadOptions.Tagged is told the inputs a ReadAll reads (a
// directory's reports by their paths, a file named twice once) and their
// findings' tags, before any finding: the tag of each finding's id names
// its input among them.
func TestTagged(t *testing.T) {
	dir := filepath.Join("..", "testdata", "reports")
	var names, tags []string
	calls, findings := 0, 0
	byTag := map[string]string{}
	ins, err := ReadAll([]string{dir, filepath.Join(dir, "pmd.sarif")}, ReadOptions{NoFingerprints: true, Tagged: func(n, tg []string) {
		calls++
		names, tags = n, tg
		if findings > 0 {
			t.Error("Tagged called after a finding")
		}
	}}, func(f reports.Finding) error {
		findings++
		if i := slices.Index(tags, f.ID.Tag); i < 0 {
			t.Errorf("finding %s: its tag is not among %q", f.ID, tags)
		} else if byTag[f.ID.Tag] = names[i]; !strings.HasPrefix(filepath.Base(names[i]), strings.ToLower(f.Tool)) {
			t.Errorf("finding %s of %s: its tag names %s", f.ID, f.Tool, names[i])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var read []string
	for _, in := range ins {
		if !in.LeftOut {
			read = append(read, in.Path)
		}
	}
	if calls != 1 || !slices.Equal(names, read) || len(tags) != len(names) || findings == 0 {
		t.Fatalf("Tagged called %d times with %q %q; inputs read %q, %d findings", calls, names, tags, read, findings)
	}
	if !slices.Equal(tags, InputTags(names)) || len(byTag) != 3 {
		t.Errorf("tags %q, InputTags %q; findings' inputs %v", tags, InputTags(names), byTag)
	}
}
