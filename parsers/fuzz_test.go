package parsers

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/reports"
)

// checkoutSeeds are the checkout's own reports of each kind (beside
// testdata/seeds/KIND/, small real reports copied from the corpus), so
// that every fuzz target runs real seeds without ../shared.
var checkoutSeeds = map[string][]string{
	"checkstyle-xml": {"../testdata/reports/checkstyle.xml", "../testdata/duplicates/checkstyle.xml"},
	"spotbugs-xml":   {"../testdata/reports/spotbugs.xml"},
	"pmd-xml":        {"../testdata/pmd-xml/pmd.xml"},
	"sarif-other":    {"testdata/sarif/*.sarif"},
	"invalid":        {"../testdata/bad/truncated.sarif"},
}

// seed adds the reports of the given kinds (and invalid ones) to f: the
// checkout's, then the corpus's when ../shared is there.
func seed(f *testing.F, dirs ...string) {
	dirs = append(dirs, "invalid")
	add := func(name string) {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) > 64<<10 { // large files slow the fuzzer down without adding shapes
			b = b[:64<<10]
		}
		f.Add(b)
	}
	for _, d := range dirs {
		patterns := append([]string{filepath.Join("testdata", "seeds", d, "*")}, checkoutSeeds[d]...)
		for _, p := range patterns {
			names, _ := filepath.Glob(p)
			for _, name := range names {
				add(name)
			}
		}
	}
	dir, files := reportstest.CorpusIfPresent(f)
	for _, cf := range files {
		if slices.Contains(dirs, cf.Dir()) && !strings.HasSuffix(cf.Path, ".diff") {
			add(filepath.Join(dir, cf.Path))
		}
	}
}

// fuzzParse checks the parser's properties on any input: no panic, and on
// success every finding is valid and the counts agree.
func fuzzParse(f *testing.F, format Format) {
	f.Fuzz(func(t *testing.T, data []byte) {
		var got []reports.Finding
		p, err := New(format, Options{Name: "fuzz", Root: "/repo"})
		if err != nil {
			t.Fatal(err)
		}
		var occ occurrences
		uncounted := 0
		in, err := p.Parse(strings.NewReader(string(data)), func(f reports.Finding, partial map[string]string) error {
			f.Fingerprint = occ.fingerprint(&f, partial)
			if f.Uncounted() { // suppressed, or a pass: counted on the input apart
				uncounted++
				return nil
			}
			got = append(got, f)
			return nil
		})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz: ") {
				t.Fatalf("error does not name the input: %v", err)
			}
			return
		}
		if in.Findings != len(got) {
			t.Fatalf("input counts %d findings, %d emitted", in.Findings, len(got))
		}
		kinds := 0
		for _, n := range in.Kinds {
			kinds += n
		}
		if uncounted < in.Suppressed+kinds {
			t.Fatalf("input counts %d suppressed and %d of other kinds, %d emitted as no findings", in.Suppressed, kinds, uncounted)
		}
		for i, f := range got {
			f.ID = reports.ID("fuzz", i+1)
			got[i] = f
		}
		checkFindings(t, got)
	})
}

func FuzzParseSARIF(f *testing.F) {
	seed(f, "pmd-sarif", "checkstyle-sarif", "spotbugs-sarif", "sarif-other")
	f.Add([]byte(`{"version":"2.1.0","runs":[{"results":[{"ruleIndex":-1,"locations":[{"physicalLocation":{"artifactLocation":{"index":-1}}}]}],"tool":{"driver":{"name":"PMD"}}}]}`))
	f.Add([]byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"originalUriBaseIds":{"A":{"uri":"a/","uriBaseId":"B"},"B":{"uri":"b/","uriBaseId":"A"}},"artifacts":[{"location":{"uri":"x.java"}}],` +
		`"results":[{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"f.java","uriBaseId":"A"}}},{"physicalLocation":{"artifactLocation":{"index":9}}}]}]}]}`))
	fuzzParse(f, FormatSARIF)
}

func FuzzParseSpotBugs(f *testing.F) {
	seed(f, "spotbugs-xml")
	fuzzParse(f, FormatSpotBugs)
}

func FuzzParseCheckstyle(f *testing.F) {
	seed(f, "checkstyle-xml")
	fuzzParse(f, FormatCheckstyle)
}

func FuzzParseCodeClimate(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "codeclimate", "*.json"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(codeQualityReport))
	f.Add([]byte(`[{"type":"measurement"},{"location":{"positions":{"begin":{"line":3,"column":2},"end":{"line":1}}}}]`))
	fuzzParse(f, FormatCodeClimate)
}

func FuzzParsePMD(f *testing.F) {
	seed(f, "pmd-xml")
	fuzzParse(f, FormatPMD)
}

func FuzzDetect(f *testing.F) {
	f.Add([]byte(codeQualityReport))
	f.Add([]byte(`{"runs":[]}`))
	seed(f, "pmd-sarif", "spotbugs-xml", "checkstyle-xml", "pmd-xml")
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := Detect(data)
		if ok != (got != "") {
			t.Fatalf("Detect = %q, %v", got, ok)
		}
		again, ok2 := Detect(data)
		if got != again || ok != ok2 {
			t.Fatal("Detect is not a pure function of its input")
		}
		// A row of the table (Code Quality's) changes nothing for the
		// other formats.
		more, m2 := formats.detect(data)
		base, m := withoutCodeClimate().detect(data)
		if more != got || (m2 != noMatch) != ok {
			t.Fatalf("detect = %q, %v; Detect = %q, %v", more, m2, got, ok)
		}
		if more != FormatCodeClimate && (more != base || m2 != m) {
			t.Fatalf("with a format more: %q, %v; without: %q, %v", more, m2, base, m)
		}
		// What a search tells of recap's outputs: a pure function, and of
		// a content a report's detection takes for the format it names.
		own, isOwn := RecapOutput("r.json", bytes.NewReader(data), int64(len(data)))
		if again, ok := RecapOutput("r.json", bytes.NewReader(data), int64(len(data))); again != own || ok != isOwn {
			t.Fatal("RecapOutput is not a pure function of its input")
		}
		if isOwn && own.Format != "" && own.Format != string(FormatSARIF) && !ok {
			t.Fatalf("taken for recap's %s, which detection does not read", own.Format)
		}
	})
}

// FuzzReadInput reads data as recap reads standard input: gzip undone
// (members one after the other, what follows named), leading white space
// passed over for detection, the format detected, then parsed. It never
// panics, an error names the input, and a report read after leading white
// space counts the findings the same one reads without it.
func FuzzReadInput(f *testing.F) {
	const log = `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"originalUriBaseIds":{"A":{"uri":"a/","uriBaseId":"B"},"B":{"uri":"b/","uriBaseId":"A"}},` +
		`"artifacts":[{"location":{"uri":"x.java"}}],"results":[{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"f.java","uriBaseId":"A"}}}]},` +
		`{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"index":3}}}]}]}]}`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(log))
	zw.Close()
	f.Add([]byte(log))
	f.Add(append([]byte(strings.Repeat(" \n", 5000)), log...))
	f.Add(append(slices.Clone(gz.Bytes()), gz.Bytes()...))
	f.Add(append(slices.Clone(gz.Bytes()), "<html>"...))
	f.Add([]byte(strings.Repeat("\n", 9000) + `<checkstyle version="8"><file name="a"><error line="1" severity="error" message="m" source="x.Y"/></file></checkstyle>`))
	seed(f, "pmd-sarif", "checkstyle-xml")
	read := func(data []byte) reports.Input {
		inputs, err := ReadAll([]string{"-"}, ReadOptions{Stdin: bytes.NewReader(data), Root: "/repo"}, func(reports.Finding) error { return nil })
		if err != nil || len(inputs) != 1 {
			panic(fmt.Sprintf("%v, %d inputs", err, len(inputs)))
		}
		return inputs[0]
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := read(data)
		if in.Error != "" && !strings.HasPrefix(in.Error, "-: ") {
			t.Fatalf("error does not name the input: %s", in.Error)
		}
		if in.Error == "" && len(data) > 0 && data[0] != 0x1f {
			spaced := read(append([]byte(strings.Repeat(" ", SniffLen+10)), data...))
			if spaced.Findings != in.Findings {
				t.Fatalf("%d findings after leading white space, %d without", spaced.Findings, in.Findings)
			}
		}
	})
}
