package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

// full is a finding with every field set, its detail's too: what the
// corpus may not hold.
func full() reports.Finding {
	loc := func(s string) reports.Location {
		return reports.Location{Path: "src/" + s + ".go", Base: "%SRCROOT%", Line: 3, EndLine: 4, Column: -1, EndColumn: 9, Message: "step " + s}
	}
	return reports.Finding{ID: reports.ID("pmdsarif", 12), Fingerprint: "0123456789abcdef", Tool: "PMD", ToolVersion: "7.0", Rule: "UnusedX", RuleName: "Unused X",
		Category: "bug-risk", ToolCategory: "Best Practices", Severity: reports.SeverityWarning, Quality: 2, Impact: 3, Priority: -4,
		Message: "line one\nline two", Path: "a/b.go", Line: 1 << 40, EndLine: 7, Column: 2, EndColumn: 3, HelpURI: "https://x", SecuritySeverity: 7.5,
		CWE: []int{79, 89}, Snippet: "x := 1", SnippetLine: -2, FlowSteps: math.MaxInt32, Related: 1, Fixable: true, Rank: 255, Baseline: "new",
		Triage: &reports.Triage{State: "wont-fix", Reason: "r", By: "b", Date: "2026-01-01", Until: "2027-01-01", Link: "l", Expired: true, Via: reports.ID("x", 1),
			Of: reports.DecidedFinding{Tool: "PMD", Rule: "R", Path: "a/B.java", Location: "0123456789abcdef:1", Line: "x = 1;", Message: "m"}},
		Detail: &reports.Detail{
			Flows:    []reports.Flow{{Code: 1, Message: "m", Steps: []reports.Location{loc("a"), loc("b")}}, {Steps: []reports.Location{}}},
			AllFlows: 3, Related: []reports.Location{loc("c")},
			Fix:       &reports.Fix{Description: "d", Replacements: []reports.Replacement{{Path: "p", Line: 1, Column: 2, EndLine: 3, EndColumn: 4, Offset: 5, Length: 6, Text: "t"}}},
			Locations: []reports.Location{}, Logical: []reports.LogicalLocation{{Name: "n", FullyQualifiedName: "a.n", Kind: "function"}}, Target: "t.jar",
			Suppressions: []reports.Suppression{{Kind: "inSource", Status: "accepted", Justification: "j"},
				{Kind: "external", Properties: &reports.SuppressionProperties{State: "wont-fix", DecidedFinding: reports.DecidedFinding{Tool: "PMD", Rule: "R", Path: "a/B.java", Line: "y", Message: "n"}}}}, Kind: "pass",
			Also: []reports.Also{{Tool: "Checkstyle", Rule: "R", ID: reports.ID("cs", 1)}},
		}}
}

// odd are findings whose fields take the encoding's other branches.
func odd() []reports.Finding {
	return []reports.Finding{
		{},
		{ID: reports.FindingID{Tag: "x"}}, {ID: reports.FindingID{N: 5}}, {ID: reports.FindingID{Tag: "tag", N: math.MaxUint32}},
		{CWE: []int{}, Detail: &reports.Detail{}},
		{Detail: &reports.Detail{Fix: &reports.Fix{}}},
		{Message: strings.Repeat("long ", 100), SecuritySeverity: math.Copysign(0, -1)},
		{Message: strings.Repeat("long ", 100)}, // the same again: a literal still
	}
}

// roundTrip encodes fs in order with one encoder and decodes them with one
// decoder, as a spool does.
func roundTrip(t *testing.T, name string, fs []reports.Finding) {
	t.Helper()
	e, d := newEncoder(), decoder{}
	for i := range fs {
		rec := e.encode(&fs[i])
		var got reports.Finding
		if err := d.decode(bytes.Clone(rec), &got); err != nil {
			t.Fatalf("%s: finding %d: %v", name, i, err)
		}
		if !reflect.DeepEqual(got, fs[i]) {
			t.Fatalf("%s: finding %d:\n got %#v\nwant %#v", name, i, got, fs[i])
		}
	}
}

// TestSpoolRoundTrip: every finding of every report of the corpus (the
// results that are no findings too, with fingerprints), and findings with
// every field set, encode and decode to the same finding.
func TestSpoolRoundTrip(t *testing.T) {
	roundTrip(t, "full", append([]reports.Finding{full(), full()}, odd()...))
	// More strings than a table holds: it starts again, at the same string
	// for the encoder and the decoder.
	var many []reports.Finding
	for i := range tableEntries + 5000 {
		many = append(many, reports.Finding{Message: "message " + strconv.Itoa(i%(tableEntries+100)), Snippet: "snippet " + strconv.Itoa(i%7),
			Tool: strings.Repeat("t", i%300)})
	}
	roundTrip(t, "many", many)
	dir, files := reportstest.Corpus(t)
	n := 0
	for _, cf := range files {
		if cf.Dir() == "diffs" {
			continue
		}
		var fs []reports.Finding
		parsers.ReadAll([]string{filepath.Join(dir, cf.Path)}, parsers.ReadOptions{Uncounted: true}, func(f reports.Finding) error {
			fs = append(fs, f)
			return nil
		})
		roundTrip(t, cf.Path, fs)
		n += len(fs)
	}
	if n < 1000 {
		t.Fatalf("%d findings in the corpus", n)
	}
}

// corpusPaths are the corpus's reports (not its diffs nor invalid files).
func corpusPaths(t *testing.T) []string {
	dir, files := reportstest.Corpus(t)
	var paths []string
	for _, cf := range files {
		if d := cf.Dir(); d != "diffs" && d != "invalid" {
			paths = append(paths, filepath.Join(dir, cf.Path))
		}
	}
	return paths
}

// collect reads src and returns copies of the findings it emits.
func collect(t *testing.T, src Source) ([]reports.Finding, []reports.Input) {
	t.Helper()
	var fs []reports.Finding
	in, err := src.Read(context.Background(), func(*reports.Finding) bool { return true }, func(f *reports.Finding) error {
		fs = append(fs, *f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fs, in
}

// spoolFiles lists the spools' temporary files.
func spoolFiles(t *testing.T) []string {
	m, err := filepath.Glob(filepath.Join(os.TempDir(), "recap-spool-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSpoolReplays: a spool of the corpus's reports, in memory and on disk,
// replays what the reports give read again, in order, with the same
// inputs, as many times as asked; its file is gone after cleanup.
func TestSpoolReplays(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	src := Files{Paths: corpusPaths(t), Options: parsers.ReadOptions{Uncounted: true}}
	want, wantIn := collect(t, src)
	for _, mem := range []int{1 << 30, 0, 4096} {
		defer func(m int) { spoolMemory = m }(spoolMemory)
		spoolMemory = mem
		sp, cleanup := newSpool(src, nil)
		for i := range 3 {
			got, in := collect(t, sp)
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(in, wantIn) {
				t.Fatalf("memory %d, read %d: %d findings differ from the %d read again", mem, i, len(got), len(want))
			}
		}
		if onDisk := sp.file != nil; onDisk != (mem < 1<<30) || len(spoolFiles(t)) != map[bool]int{true: 1}[onDisk] {
			t.Errorf("memory %d: on disk %v, files %v", mem, onDisk, spoolFiles(t))
		}
		cleanup()
		if m := spoolFiles(t); len(m) != 0 {
			t.Errorf("memory %d: left %v", mem, m)
		}
	}
}

// TestSpoolStops: a first read that stops (its emit fails, the context is
// cancelled) leaves no file, and a replay stopped by its context returns
// the context's error.
func TestSpoolStops(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	defer func(m int) { spoolMemory = m }(spoolMemory)
	spoolMemory = 0
	src := Files{Paths: corpusPaths(t)}
	stop := errors.New("stop")
	keep := func(*reports.Finding) bool { return true }
	n := 0
	sp, cleanup := newSpool(src, nil)
	_, err := sp.Read(context.Background(), keep, func(*reports.Finding) error {
		if n++; n == 100 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || len(spoolFiles(t)) != 0 {
		t.Fatalf("%v, files %v", err, spoolFiles(t))
	}
	if _, err := sp.Read(context.Background(), keep, func(*reports.Finding) error { return nil }); err == nil {
		t.Fatal("a spool of part of the reports replayed")
	}
	cleanup()

	sp, cleanup = newSpool(src, nil)
	defer cleanup()
	collect(t, sp)
	ctx, cancel := context.WithCancel(context.Background())
	n = 0
	_, err = sp.Read(ctx, keep, func(*reports.Finding) error {
		if n++; n == 10 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || n > 1024+10 {
		t.Fatalf("%v after %d findings", err, n)
	}
}

// spoolBytes returns a spool of the corpus's reports, some max records,
// and its records.
func spoolBytes(t testing.TB, max int) ([]byte, int) {
	var buf bytes.Buffer
	_, files := reportstest.CorpusIfPresent(t)
	dir, _ := reportstest.Shared(t, "corpus")
	e := newEncoder()
	n := 0
	for _, cf := range files {
		if cf.Dir() == "diffs" || n >= max {
			continue
		}
		parsers.ReadAll([]string{filepath.Join(dir, cf.Path)}, parsers.ReadOptions{Uncounted: true}, func(f reports.Finding) error {
			if n < max {
				buf.Write(appendRecord(nil, e.encode(&f)))
				n++
			}
			return nil
		})
	}
	for _, f := range append([]reports.Finding{full()}, odd()...) {
		buf.Write(appendRecord(nil, e.encode(&f)))
		n++
	}
	return buf.Bytes(), n
}

func replayBytes(b []byte, n int) (int, error) {
	got := 0
	err := replayRecords(context.Background(), bufio.NewReader(bytes.NewReader(b)), int64(len(b)), n, func(*reports.Finding) error {
		got++
		return nil
	})
	return got, err
}

// TestSpoolCorrupt: a spool cut short anywhere, or with a byte changed,
// is an error (or, for a change, findings), never a panic.
func TestSpoolCorrupt(t *testing.T) {
	b, n := spoolBytes(t, 400)
	if got, err := replayBytes(b, n); err != nil || got != n {
		t.Fatalf("%d of %d: %v", got, n, err)
	}
	if _, err := replayBytes(b, n-1); err == nil {
		t.Error("a record more than counted replayed")
	}
	step := max(len(b)/3000, 1)
	for cut := 0; cut < len(b); cut += step {
		if _, err := replayBytes(b[:cut], n); err == nil {
			t.Fatalf("cut at %d of %d: no error", cut, len(b))
		}
	}
	for i := 0; i < len(b); i += step {
		for _, x := range []byte{0x00, 0xff, 0x80, 0x01} {
			c := bytes.Clone(b)
			c[i] ^= x
			replayBytes(c, n)
		}
	}
}

// FuzzSpoolReplay: whatever the bytes, a replay returns findings or an
// error, never a panic. The seeds are spools of findings with every field
// set and of a few of the corpus's (parsed once, outside the target).
func FuzzSpoolReplay(f *testing.F) {
	f.Add([]byte{}, uint16(1))
	f.Add([]byte{0x05, 0xff, 0xff, 0xff, 0xff, 0x0f}, uint16(1))
	e := newEncoder()
	var b []byte
	for _, x := range append([]reports.Finding{full(), full()}, odd()...) {
		b = appendRecord(b, e.encode(&x))
	}
	f.Add(b, uint16(2+len(odd())))
	c, n := spoolBytes(f, 6)
	f.Add(c, uint16(n))
	f.Fuzz(func(t *testing.T, b []byte, n uint16) {
		replayBytes(b, int(n))
	})
}

// TestSpoolInQuery: a grouped query that hands each problem on spools the
// findings (on disk past spoolMemory) and removes the file when done, also
// when Each fails; without grouping, one pass, no spool.
func TestSpoolInQuery(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	defer func(m int) { spoolMemory = m }(spoolMemory)
	spoolMemory = 0
	src := Files{Paths: []string{filepath.Join(reportstest.RepoRoot(t), "testdata", "reports")}, Options: parsers.ReadOptions{Root: filepath.Join(reportstest.RepoRoot(t), "testdata", "sample")}}
	stop := errors.New("stop")
	for _, tc := range []struct {
		name    string
		classes func(tool, rule string) int
		fail    bool
		spooled bool
		handed  int
	}{
		{"grouped", grouping.ClassOf, false, true, tooltest.SampleProblems},
		{"grouped, each fails", grouping.ClassOf, true, true, 1},
		{"no-group", nil, false, false, 171},
	} {
		handed, files := 0, 0
		q := &Query{Reports: src, Classes: tc.classes, Keep: Keep{Each: func(*reports.Finding, string) error {
			handed++
			files = max(files, len(spoolFiles(t)))
			if tc.fail {
				return stop
			}
			return nil
		}}}
		_, err := Run(context.Background(), q)
		if tc.fail != errors.Is(err, stop) || (err != nil) != tc.fail {
			t.Errorf("%s: %v", tc.name, err)
		}
		if handed != tc.handed || (files == 1) != tc.spooled || len(spoolFiles(t)) != 0 {
			t.Errorf("%s: %d handed on (want %d), %d spool files while, %v after", tc.name, handed, tc.handed, files, spoolFiles(t))
		}
	}
}

// TestSpoolUnwritable: when the spool's file cannot be made, report files
// are parsed again (the same problems handed on); standard input, which
// cannot be, is an error naming the spool.
func TestSpoolUnwritable(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	defer func(m int) { spoolMemory = m }(spoolMemory)
	spoolMemory = 0
	dir := filepath.Join(reportstest.RepoRoot(t), "testdata")
	pmd, err := os.ReadFile(filepath.Join(dir, "reports", "pmd.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	opts := parsers.ReadOptions{Root: filepath.Join(dir, "sample")}
	files := Files{Paths: []string{filepath.Join(dir, "reports")}, Options: opts}
	opts.Stdin = bytes.NewReader(pmd)
	stdin := Files{Paths: []string{filepath.Join(dir, "reports", "checkstyle.xml"), "-"}, Options: opts}
	for _, tc := range []struct {
		name   string
		src    Source
		handed int
		err    string
	}{{"files", files, tooltest.SampleProblems, ""}, {"stdin", stdin, 0, "spool: "}} {
		handed := 0
		_, err := Run(context.Background(), &Query{Reports: tc.src, Classes: grouping.ClassOf, Keep: Keep{Each: func(*reports.Finding, string) error {
			handed++
			return nil
		}}})
		if handed != tc.handed || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %d handed on, want %d; error %v, want %q", tc.name, handed, tc.handed, err, tc.err)
		}
	}
}
