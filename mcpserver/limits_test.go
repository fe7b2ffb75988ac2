package mcpserver_test

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/internal/hostile"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/mcpserver"
)

// copyTo copies src to dst (made with its directories), gzipped when zip.
func copyTo(t testing.TB, src, dst string, zip bool) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if zip {
		zw := gzip.NewWriter(out)
		if _, err := zw.Write(b); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	} else if _, err := out.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// lastWarnings are the inputs' warnings that contain what (the sample's
// reports have warnings of their own), by input path.
func lastWarnings(v view, what string) map[string][]string {
	out := map[string][]string{}
	for _, in := range v.Inputs {
		for _, w := range in.Warnings {
			if strings.Contains(w, what) {
				out[in.Path] = append(out[in.Path], w)
			}
		}
	}
	return out
}

// TestCopiesCountedOnce: reports of the same content (the same bytes once
// gzip is undone) under the root are read and counted once, the kept one
// naming its copies in its warnings; found by the default search, named
// explicitly, or as a baseline. A report of other bytes with the same
// findings (recap's own SARIF of the sample's reports) still counts.
func TestCopiesCountedOnce(t *testing.T) {
	g := workspace(t)
	reportsDir := filepath.Join(g.Dir, "build", "reports")
	copyTo(t, filepath.Join(reportsDir, "pmd.sarif"), filepath.Join(g.Dir, "test", "fixtures", "pmd.sarif"), false)
	copyTo(t, filepath.Join(reportsDir, "pmd.sarif"), filepath.Join(g.Dir, "test", "fixtures", "pmd-copy.sarif.gz"), true)
	copyTo(t, filepath.Join(reportsDir, "checkstyle.xml"), filepath.Join(g.Dir, "old", "checkstyle.xml.gz"), true)
	// The same size, other bytes: not a copy.
	b := []byte(readFile(t, filepath.Join(reportsDir, "checkstyle.xml")))
	i := strings.Index(string(b), `line="16"`)
	copy(b[i:], `line="17"`)
	if err := os.MkdirAll(filepath.Join(g.Dir, "other"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(g.Dir, "other", "checkstyle.xml"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})

	var v view
	call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true}).decode(t, &v)
	if want := tooltest.SampleFindings + tooltest.SampleCheckstyle; v.Summary.Total != want || len(v.Inputs) != 4 {
		t.Fatalf("%d findings from %d reports, want %d from 4 (the sample's and other/checkstyle.xml)", v.Summary.Total, len(v.Inputs), want)
	}
	want := map[string][]string{
		"build/reports/checkstyle.xml": {"old/checkstyle.xml.gz has the same content: counted once"},
		"build/reports/pmd.sarif":      {"test/fixtures/pmd-copy.sarif.gz, test/fixtures/pmd.sarif have the same content: counted once"},
	}
	if diff := cmp.Diff(want, lastWarnings(v, "counted once")); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}

	// Named explicitly, and through a glob.
	call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true, "reports": []string{"test/fixtures/pmd.sarif", "build/reports/pmd.sarif", "**/*.gz"}}).decode(t, &v)
	if v.Summary.Total != tooltest.SamplePMD+tooltest.SampleCheckstyle || len(v.Inputs) != 2 || v.Inputs[0].Path != "test/fixtures/pmd.sarif" {
		t.Fatalf("named: %d findings from %+v", v.Summary.Total, v.Inputs)
	}
	// A baseline that holds a report twice marks each finding once.
	call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true, "reports": []string{"build/reports/pmd.sarif"}, "baseline": []string{"test/fixtures"}}).decode(t, &v)
	if bl := v.Summary.Baseline; bl == nil || bl.New != 0 || bl.Unchanged != tooltest.SamplePMD || bl.Fixed != 0 {
		t.Fatalf("baseline of two copies: %+v", bl)
	}

	// recap's SARIF of the sample's reports, found by the search, is left
	// out with a row saying so; named, it counts.
	root := reportstest.RepoRoot(t)
	copyTo(t, filepath.Join(root, "testdata", "golden", "findings.sarif"), filepath.Join(g.Dir, "golden", "findings.sarif"), false)
	// So are its Code Quality report and its JSON.
	copyTo(t, filepath.Join(root, "summarize", "render", "testdata", "grouped.codeclimate.golden"), filepath.Join(g.Dir, "golden", "gl-code-quality-report.json"), false)
	copyTo(t, filepath.Join(root, "testdata", "golden", "summary.json"), filepath.Join(g.Dir, "golden", "summary.json"), false)
	// And its SARIF gzip'd (a page of it: another content).
	copyTo(t, filepath.Join(root, "testdata", "golden", "findings-page.sarif"), filepath.Join(g.Dir, "golden", "page.sarif.gz"), true)
	res := call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true, "group": false})
	res.decode(t, &v)
	if want := tooltest.SampleFindings + tooltest.SampleCheckstyle; v.Summary.Total != want {
		t.Errorf("with recap's SARIF found: %d findings, want %d", v.Summary.Total, want)
	}
	// Listed, not counted among the reports read.
	if line, _, _ := strings.Cut(res.text, "\n"); !strings.Contains(line, " from 4 reports") {
		t.Errorf("with recap's outputs found, the answer's line: %q, want it to count the 4 reports read", line)
	}
	if diff := cmp.Diff(map[string][]string{
		"golden/findings.sarif":              {"recap's own SARIF, made from other reports: not read (name it alone to read it)"},
		"golden/gl-code-quality-report.json": {"recap's own Code Quality report, made from other reports: not read (name it alone to read it)"},
		"golden/summary.json":                {"recap's own JSON output: no report, not read"},
		"golden/page.sarif.gz":               {"recap's own SARIF, made from other reports: not read (name it alone to read it)"},
	}, lastWarnings(v, "recap's own")); diff != "" {
		t.Errorf("recap's outputs found: warnings (-want +got):\n%s", diff)
	}
	call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true, "group": false, "reports": []string{"golden/findings.sarif"}}).decode(t, &v)
	var golden struct {
		Runs []struct{ Results []json.RawMessage }
	}
	raw, err := os.ReadFile(filepath.Join(root, "testdata", "golden", "findings.sarif"))
	if err != nil || json.Unmarshal(raw, &golden) != nil || len(golden.Runs) == 0 {
		t.Fatalf("testdata/golden/findings.sarif: %v", err)
	}
	results := 0
	for _, r := range golden.Runs {
		results += len(r.Results)
	}
	if v.Summary.Total != results {
		t.Errorf("recap's SARIF named: %d findings, want its %d results", v.Summary.Total, results)
	}
}

// TestRunInTwoFormatsOnce: PMD's XML and SARIF of one run (the sample's)
// side by side count once, found by the search or named, the kept one
// naming the other, and the pages show each finding once; in two
// directories, both count, each naming the other.
func TestRunInTwoFormatsOnce(t *testing.T) {
	g := workspace(t)
	root := reportstest.RepoRoot(t)
	copyTo(t, filepath.Join(root, "testdata", "pmd-xml", "pmd.xml"), filepath.Join(g.Dir, "build", "reports", "pmd.xml"), false)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})

	var v view
	call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true}).decode(t, &v)
	if v.Summary.Total != tooltest.SampleFindings || len(v.Inputs) != 3 {
		t.Fatalf("%d findings from %d reports, want %d from 3", v.Summary.Total, len(v.Inputs), tooltest.SampleFindings)
	}
	want := map[string][]string{"build/reports/pmd.sarif": {"build/reports/pmd.xml is the same PMD 7.28.0 run in another format (84 findings alike): counted once"}}
	if diff := cmp.Diff(want, lastWarnings(v, "same PMD")); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"build/reports/pmd.xml", "build/reports/pmd.sarif"}, "tools": []string{"PMD"}, "group": false, "limit": 200, "maxTokens": 25000, "context": false}).decode(t, &v)
	if v.Summary.Total != tooltest.SamplePMD || len(v.Findings) != tooltest.SamplePMD {
		t.Errorf("named: %d findings, %d on the page, want %d", v.Summary.Total, len(v.Findings), tooltest.SamplePMD)
	}
	if diff := cmp.Diff(map[string][]string{"build/reports/pmd.xml": {"build/reports/pmd.sarif is the same PMD 7.28.0 run in another format (84 findings alike): counted once"}}, lastWarnings(v, "same PMD")); diff != "" {
		t.Errorf("named: warnings (-want +got):\n%s", diff)
	}

	copyTo(t, filepath.Join(root, "testdata", "pmd-xml", "pmd.xml"), filepath.Join(g.Dir, "build", "pmd", "main.xml"), false)
	call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"build/pmd/main.xml", "build/reports/pmd.sarif"}, "summaryOnly": true}).decode(t, &v)
	if v.Summary.Total != 2*tooltest.SamplePMD || len(v.Inputs) != 2 {
		t.Errorf("apart: %d findings from %d reports, want %d from 2", v.Summary.Total, len(v.Inputs), 2*tooltest.SamplePMD)
	}
	apart := " holds the same 84 findings of PMD 7.28.0 in another format, but lies in another directory: both counted (one run's formats lie side by side)"
	if diff := cmp.Diff(map[string][]string{"build/pmd/main.xml": {"build/reports/pmd.sarif" + apart}, "build/reports/pmd.sarif": {"build/pmd/main.xml" + apart}},
		lastWarnings(v, "same 84 findings")); diff != "" {
		t.Errorf("apart: warnings (-want +got):\n%s", diff)
	}
}

// TestSameRunClaimed: a SARIF log committed in the repository that claims
// to be the run of the real target/pmd.xml (hostile.ClaimedRun: PMD 7.0.0,
// its rules at its base names and lines) leaves it whole: the first answer
// counts both reports and shows the real priority-1 HardCodedCryptoKey
// first; two modules' reports (hostile.TwoModules) are both counted.
func TestSameRunClaimed(t *testing.T) {
	tests := []struct {
		name   string
		make   func(dir string) error
		total  int
		leader string // the first finding's path and rule ("" any)
	}{
		{"a SARIF elsewhere claiming the run", hostile.ClaimedRun, 4, "src/main/java/com/example/Crypto.java HardCodedCryptoKey"},
		{"two modules", hostile.TwoModules, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := tt.make(dir); err != nil {
				t.Fatal(err)
			}
			cs, _ := connect(t, mcpserver.Options{Root: dir})
			var v view
			call(t, cs, "analysis.getReports", nil).decode(t, &v)
			if v.Summary.Total != tt.total || len(v.Inputs) != 2 || len(v.Findings) == 0 {
				t.Fatalf("%d findings from %d reports, %d shown; want %d from 2", v.Summary.Total, len(v.Inputs), len(v.Findings), tt.total)
			}
			if w := lastWarnings(v, "same"); len(w) > 0 {
				t.Errorf("warnings %v, want none", w)
			}
			if got := v.Findings[0].Path + " " + v.Findings[0].Rule; tt.leader != "" && got != tt.leader {
				t.Errorf("the first finding is %s, want %s", got, tt.leader)
			}
		})
	}
}

// TestCacheBound: the cache holds at most MaxCacheBytes of reports, as
// they really are in memory; a report that does not fit alone is read by
// each call that needs it (no bufferId, no page past 10,000, a warning
// that says so) and found by id and fingerprint all the same; reports that
// fit alone but not together take turns, and a buffer goes with its report.
func TestCacheBound(t *testing.T) {
	dir := t.TempDir()
	reportstest.BigSARIF(t, filepath.Join(dir, "big.sarif"), 60_000) // about 7 MB held
	const limit = 1500 << 10
	cs, _ := connect(t, mcpserver.Options{Root: dir, MaxCacheBytes: limit})
	stats := func() mcpserver.StatsAnswer {
		var s mcpserver.StatsAnswer
		call(t, cs, "server.stats", nil).decode(t, &s)
		if s.CacheBytes > limit {
			t.Fatalf("the cache holds %d bytes, over its %d", s.CacheBytes, limit)
		}
		return s
	}

	var v view
	call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"big.sarif"}, "limit": 3, "offset": 100}).decode(t, &v)
	if v.Summary.Total != 60_000 || v.BufferID != "" || len(v.Findings) != 3 || v.Page.Total != 60_000 || *v.Page.NextOffset != 103 {
		t.Fatalf("a report over the cache: total %d, bufferId %q, page %+v", v.Summary.Total, v.BufferID, v.Page)
	}
	if w := v.Inputs[0].Warnings; len(w) != 1 || !strings.Contains(w[0], "larger than the cache (1 MiB): read again by each call, not kept") {
		t.Errorf("warnings %q", w)
	}
	if s := stats(); s.ReportsCached != 0 {
		t.Errorf("%d reports cached", s.ReportsCached)
	}
	// The page is the one a report that fits gives.
	cs2, _ := connect(t, mcpserver.Options{Root: dir})
	var w view
	call(t, cs2, "analysis.getReports", map[string]any{"reports": []string{"big.sarif"}, "limit": 3, "offset": 100}).decode(t, &w)
	if diff := cmp.Diff(w.Findings, v.Findings); diff != "" {
		t.Errorf("the streamed page differs from the cached one (-cached +streamed):\n%s", diff)
	}
	if code := call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"big.sarif"}, "offset": 20_000}).errorCode(t); code != "TOO_LARGE" {
		t.Errorf("a deep page of a report over the cache: %s", code)
	}
	var f mcpserver.FindingAnswer
	call(t, cs, "analysis.getFinding", map[string]any{"id": v.Findings[1].ID}).decode(t, &f)
	// Result i is rule R(i%7): of 60,000, R0 to R2 have 8,572, the others 8,571.
	wantIn := 60_000 / 7
	if r := f.Finding.Rule; r == "R0" || r == "R1" || r == "R2" {
		wantIn++
	}
	if f.Finding.Message != v.Findings[1].Message || f.Report != "big.sarif" || f.Rule.InReport != wantIn {
		t.Errorf("by id: %+v, rule %+v", f.Finding, f.Rule)
	}
	call(t, cs, "analysis.getFinding", map[string]any{"id": v.Findings[2].Fingerprint}).decode(t, &f)
	if f.Finding.ID != v.Findings[2].ID {
		t.Errorf("by fingerprint: %s, want %s", f.Finding.ID, v.Findings[2].ID)
	}

	// Two that fit alone, not together: the second pushes the first out,
	// and the first's buffer goes with it.
	for i, p := range []string{"a/one.sarif", "b/two.sarif"} { // about 1 MB held each
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		reportstest.BigSARIF(t, filepath.Join(dir, p), 8000+i) // not copies
	}
	var one, two view
	call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"a"}, "limit": 1}).decode(t, &one)
	if one.BufferID == "" || one.Summary.Total != 8000 {
		t.Fatalf("one: %+v", one.Summary)
	}
	if s := stats(); s.ReportsCached != 1 || s.CacheBytes < 800<<10 {
		t.Errorf("after one: %d cached, %d bytes", s.ReportsCached, s.CacheBytes)
	}
	call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"b"}, "limit": 1}).decode(t, &two)
	if two.BufferID == "" || two.Summary.Total != 8001 {
		t.Fatalf("two: %+v", two.Summary)
	}
	if s := stats(); s.ReportsCached != 1 || s.Buffers != 1 {
		t.Errorf("after two: %d cached, %d buffers", s.ReportsCached, s.Buffers)
	}
	if code := call(t, cs, "analysis.getReports", map[string]any{"bufferId": one.BufferID}).errorCode(t); code != "NOT_FOUND" {
		t.Errorf("the buffer of a report pushed out: %s", code)
	}
	// Both in one call: the one in the cache stays, the other is read as
	// it goes.
	var both view
	call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"a", "b"}, "limit": 2, "offset": 7999}).decode(t, &both)
	if both.Summary.Total != 16_001 || both.BufferID != "" || len(both.Findings) != 2 {
		t.Fatalf("both: %+v, bufferId %q", both.Summary, both.BufferID)
	}
	// The one read as it goes fits alone: it is kept the next time.
	call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"b"}, "limit": 1}).decode(t, &two)
	if two.BufferID == "" {
		t.Error("a report that fits alone was not kept after a call that had no room for it")
	}
	stats()
}

// TestSearchBounds: a search for reports leaves out those over
// MaxReportBytes (listed as inputs not read, with what to do; read when a
// path names one, or as a baseline), and walks at most MaxWalkFiles entries in MaxWalkTime,
// answering with what it found and a warning, or NOT_FOUND that says why.
func TestSearchBounds(t *testing.T) {
	dir := t.TempDir()
	root := reportstest.RepoRoot(t)
	copyTo(t, filepath.Join(root, "testdata", "reports", "pmd.sarif"), filepath.Join(dir, "build", "pmd.sarif"), false)
	reportstest.BigSARIF(t, filepath.Join(dir, "build", "huge.sarif"), 2000)
	copyTo(t, filepath.Join(dir, "build", "huge.sarif"), filepath.Join(dir, "build", "huge2.sarif.gz"), true)
	cs, _ := connect(t, mcpserver.Options{Root: dir, MaxReportBytes: 200 << 10})

	var v view
	call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true}).decode(t, &v)
	if v.Summary.Total != tooltest.SamplePMD || len(v.Inputs) != 3 {
		t.Fatalf("%d findings, inputs %+v", v.Summary.Total, v.Inputs)
	}
	for i, p := range []string{"build/huge.sarif", "build/huge2.sarif.gz"} {
		in := v.Inputs[1+i]
		if in.Path != p || !strings.HasPrefix(in.Error, "not read: ") || !strings.Contains(in.Error, "over the 200 KiB a search reads; give its path in reports to read it") {
			t.Errorf("input %d: %+v", i, in)
		}
	}
	if line, _, _ := strings.Cut(call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true}).text, "\n"); !strings.Contains(line, "2 not read (see inputs[].error)") {
		t.Errorf("the line: %s", line)
	}
	call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true, "reports": []string{"build/huge2.sarif.gz"}}).decode(t, &v)
	if v.Summary.Total != 2000 {
		t.Errorf("named: %d findings", v.Summary.Total)
	}
	r := call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true, "reports": []string{"build/huge*"}})
	if r.errorCode(t) != "TOO_LARGE" || !strings.Contains(r.text, "build/huge.sarif (") || !strings.Contains(r.text, "give the path of one in reports to read it") {
		t.Errorf("a glob of large reports only: %s", r.text)
	}

	// A baseline is read whatever its size (and its copies once).
	call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true, "reports": []string{"build/pmd.sarif"}, "baseline": []string{"build/huge*"}}).decode(t, &v)
	if bl := v.Summary.Baseline; bl == nil || bl.New != tooltest.SamplePMD || bl.Fixed != 2000 {
		t.Errorf("a large baseline: %+v", bl)
	}

	// Walk bounds: 300 files in a/ come before the report in z/.
	many := map[string]string{}
	for i := range 300 {
		many[filepath.Join("a", strings.Repeat("d", i%5), "f"+time.Duration(i).String()+".txt")] = "x"
	}
	wdir := t.TempDir()
	for p, c := range many {
		if err := os.MkdirAll(filepath.Join(wdir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(wdir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyTo(t, filepath.Join(root, "testdata", "reports", "pmd.sarif"), filepath.Join(wdir, "0", "pmd.sarif"), false)
	copyTo(t, filepath.Join(root, "testdata", "reports", "checkstyle.xml"), filepath.Join(wdir, "z", "checkstyle.xml"), false)
	for _, tc := range []struct {
		name  string
		opts  mcpserver.Options
		stop  string
		total int
	}{
		{"files", mcpserver.Options{MaxWalkFiles: 100}, "it visited 100 files and directories, its bound", tooltest.SamplePMD},
		{"time", mcpserver.Options{MaxWalkTime: time.Nanosecond}, "it took 1ns, its bound, and visited 256 files and directories", tooltest.SamplePMD},
		{"unbounded", mcpserver.Options{}, "", tooltest.SamplePMD + tooltest.SampleCheckstyle},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Root = wdir
			cs, _ := connect(t, tc.opts)
			var v view
			call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true}).decode(t, &v)
			var want map[string][]string
			if tc.stop != "" {
				want = map[string][]string{"0/pmd.sarif": {"the search for reports stopped (" + tc.stop + "): reports further on were not looked for; give reports to name them"}}
			}
			if diff := cmp.Diff(want, lastWarnings(v, "stopped"), cmpEmpty); diff != "" || v.Summary.Total != tc.total {
				t.Errorf("%d findings; warnings (-want +got):\n%s", v.Summary.Total, diff)
			}
		})
	}
	if err := os.RemoveAll(filepath.Join(wdir, "0")); err != nil {
		t.Fatal(err)
	}
	cs, _ = connect(t, mcpserver.Options{Root: wdir, MaxWalkFiles: 100})
	r = call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true})
	if r.errorCode(t) != "NOT_FOUND" || !strings.Contains(r.text, "before the search stopped (it visited 100 files and directories, its bound): give reports") {
		t.Errorf("nothing before the bound: %s", r.text)
	}
	r = call(t, cs, "tokens.count", map[string]any{"paths": []string{"**/*.txt"}})
	if r.errorCode(t) != "TOO_LARGE" || strings.Contains(r.text, "report") {
		t.Errorf("tokens.count past the bound (files, not reports, were looked for): %s", r.text)
	}
	r = call(t, cs, "tokens.count", map[string]any{"paths": []string{"**/*.nothing"}})
	if r.errorCode(t) != "TOO_LARGE" || strings.Contains(r.text, "report") || !strings.Contains(r.text, "no file matching **/*.nothing found before the search stopped") {
		t.Errorf("tokens.count past the bound, nothing found (files, not reports, were looked for): %s", r.text)
	}
	// A glob that starts with a directory walks that directory only.
	var tk mcpserver.TokensAnswer
	call(t, cs, "tokens.count", map[string]any{"paths": []string{"z/*.xml"}}).decode(t, &tk)
	if len(tk.Files) != 1 {
		t.Errorf("z/*.xml: %+v", tk.Files)
	}
}

var cmpEmpty = cmp.FilterValues(func(a, b map[string][]string) bool { return len(a) == 0 && len(b) == 0 }, cmp.Ignore())

// TestRootOfTheDisk: a server over / answers the default search: its walk
// stops at its bounds (5 s), and it reads what it found (here, reports of
// up to 64 MiB) within a cache of 64 MiB, whatever the disk holds.
func TestRootOfTheDisk(t *testing.T) {
	if !*full {
		t.Skip("walks the disk of this machine: with -full (the test command)")
	}
	cs, _ := connect(t, mcpserver.Options{Root: "/", MaxCacheBytes: 64 << 20, MaxReportBytes: 64 << 20})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "analysis.getReports", Arguments: map[string]any{"summaryOnly": true, "maxTokens": 256}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v: %.300s", time.Since(start), res.Content[0].(*mcp.TextContent).Text)
	if d := time.Since(start); d > 2*time.Minute {
		t.Errorf("the answer took %v", d)
	}
}

// TestSmallReportAndItsGzipOnce: a small report and its gzip, larger than
// the report, are one content (a gzip's content size is its trailer's,
// as the command line takes it), read once.
func TestSmallReportAndItsGzipOnce(t *testing.T) {
	dir := t.TempDir()
	log := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","message":{"text":"m"}}]}]}`
	p := filepath.Join(dir, "r.sarif")
	if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	copyTo(t, p, filepath.Join(dir, "z", "r.sarif.gz"), true)
	if st, _ := os.Stat(filepath.Join(dir, "z", "r.sarif.gz")); st.Size() <= int64(len(log)) {
		t.Fatalf("the gzip is %d bytes, not larger than its content", st.Size())
	}
	cs, _ := connect(t, mcpserver.Options{Root: dir})
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true}).decode(t, &v)
	want := map[string][]string{"r.sarif": {"z/r.sarif.gz has the same content: counted once"}}
	if diff := cmp.Diff(want, lastWarnings(v, "counted once")); diff != "" || v.Summary.Total != 1 || len(v.Inputs) != 1 {
		t.Errorf("%d findings from %d inputs; warnings (-want +got):\n%s", v.Summary.Total, len(v.Inputs), diff)
	}
}
