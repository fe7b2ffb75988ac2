package mcpserver

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize/tokens"
)

// fileAt is the root's file at rel.
func fileAt(t testing.TB, dir, rel string) file {
	t.Helper()
	abs := filepath.Join(dir, filepath.FromSlash(rel))
	info, err := os.Stat(abs)
	if err != nil {
		t.Fatal(err)
	}
	return file{abs: abs, rel: rel, info: info}
}

// rootAt is a root over dir, closed when the test ends.
func rootAt(t testing.TB, dir string) *root {
	t.Helper()
	r, err := newRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.fs.Close() })
	return r
}

// parseAll reads a report as the server does, through a cache of 1 GiB.
func parseAll(t testing.TB, dir, rel string) *report {
	t.Helper()
	c := newReportCache(1<<30, time.Now)
	r, _, err := c.get(context.Background(), fileAt(t, dir, rel), rootAt(t, dir), "")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// readAll reads a report as the command line's readers give it.
func readAllFindings(t testing.TB, dir, rel string) ([]reports.Finding, reports.Input) {
	t.Helper()
	var out []reports.Finding
	in, err := parsers.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)), reports.InputTag(rel, tagLen), parsers.ReadOptions{Root: dir, Runs: true}, func(f reports.Finding) error {
		out = append(out, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, in
}

// TestReportKeepsEveryField: a report kept in the compact form gives back
// every finding exactly as the readers gave it (id, fingerprint, snippet,
// help link, priority, columns and all), for the sample's reports, every
// report of the corpus, and generated ones: with a snippet per finding,
// findings past the first arena blocks and record chunks, odd
// fingerprints (SARIF's own) and huge line numbers.
func TestReportKeepsEveryField(t *testing.T) {
	type input struct{ dir, rel string }
	var inputs []input
	root := reportstest.RepoRoot(t)
	for _, r := range []string{"pmd.sarif", "checkstyle.xml", "spotbugs.xml"} {
		inputs = append(inputs, input{root, "testdata/reports/" + r})
	}
	inputs = append(inputs, input{root, "testdata/pmd-xml/pmd.xml"}, input{root, "testdata/golden/findings.sarif"})
	gen := t.TempDir()
	reportstest.BigSARIF(t, filepath.Join(gen, "big.sarif"), 10_000)
	var b strings.Builder
	b.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Snip","rules":[{"id":"S1","helpUri":"https://example.com/s1"}]}},"results":[`)
	for i := range 5000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"ruleId":"S1","level":"%s","message":{"text":"message %d %s"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/F%d.java"},"region":{"startLine":%d,"endLine":%d,"startColumn":%d,"endColumn":%d,"snippet":{"text":"code %d"}}}}]}`,
			[]string{"error", "warning", "note"}[i%3], i%17, strings.Repeat("é", i%300), i%40, 1<<30+i, 1<<30+i+2, i%70000, i%90000, i)
	}
	b.WriteString(`]}]}`)
	if err := os.WriteFile(filepath.Join(gen, "snippets.sarif"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	inputs = append(inputs, input{gen, "big.sarif"}, input{gen, "snippets.sarif"})
	if _, ok := reportstest.Shared(t, "corpus"); ok {
		dir, files := reportstest.Corpus(t)
		for _, f := range files {
			if f.Dir() != "diffs" {
				inputs = append(inputs, input{dir, f.Path})
			}
		}
	}
	total := 0
	for _, in := range inputs {
		t.Run(in.rel, func(t *testing.T) {
			want, wantIn := readAllFindings(t, in.dir, in.rel)
			r := parseAll(t, in.dir, in.rel)
			wantIn.Path = in.rel
			wantIn.Error = strings.ReplaceAll(wantIn.Error, filepath.Join(in.dir, filepath.FromSlash(in.rel)), in.rel)
			for i, w := range wantIn.Warnings {
				wantIn.Warnings[i] = strings.ReplaceAll(w, filepath.Join(in.dir, filepath.FromSlash(in.rel)), in.rel)
			}
			if diff := cmp.Diff(wantIn, r.input); diff != "" {
				t.Errorf("input (-want +got):\n%s", diff)
			}
			if r.n != len(want) {
				t.Fatalf("%d findings kept, want %d", r.n, len(want))
			}
			for i := range want {
				if diff := cmp.Diff(want[i], r.finding(i)); diff != "" {
					t.Fatalf("finding %d (-want +got):\n%s", i, diff)
				}
			}
			total += r.n
		})
	}
	if total < 15_000 {
		t.Errorf("%d findings compared: the generated reports were not read", total)
	}
}

// TestReportMemory: a report held by the cache costs what it counts (its
// bytes are the heap it holds, within 10%), and little per finding: at
// most 120 bytes for findings of distinct 62-byte messages (a generated
// report), 60 for findings whose messages repeat, as real reports' do (a
// finding as the readers give it holds 300 to 400 bytes).
func TestReportMemory(t *testing.T) {
	dir := t.TempDir()
	reportstest.BigSARIF(t, filepath.Join(dir, "distinct.sarif"), 100_000)
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<checkstyle version="8.36">` + "\n")
	for f := range 2000 {
		fmt.Fprintf(&b, "<file name=\"/src/main/java/org/example/pkg%d/SomeClass%d.java\">\n", f%50, f)
		for i := range 50 {
			fmt.Fprintf(&b, "<error line=\"%d\" column=\"%d\" severity=\"warning\" message=\"%s\" source=\"com.puppycrawl.tools.checkstyle.checks.%s\"/>\n",
				i*3+1, i%80, []string{"Line is longer than 100 characters (found 120).", "Missing a Javadoc comment.", "&apos;x&apos; hides a field.", "Parameter x should be final."}[i%4],
				[]string{"sizes.LineLengthCheck", "javadoc.MissingJavadocMethodCheck", "coding.HiddenFieldCheck", "FinalParametersCheck"}[i%4])
		}
		b.WriteString("</file>\n")
	}
	b.WriteString("</checkstyle>\n")
	if err := os.WriteFile(filepath.Join(dir, "repeated.xml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rel     string
		n       int
		perItem int64
	}{
		{"distinct.sarif", 100_000, 120},
		{"repeated.xml", 100_000, 60},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r := parseAll(t, dir, tc.rel)
		runtime.GC()
		runtime.ReadMemStats(&after)
		held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		if r.n != tc.n {
			t.Fatalf("%s: %d findings, want %d", tc.rel, r.n, tc.n)
		}
		if per := held / int64(r.n); per > tc.perItem {
			t.Errorf("%s: %d bytes per finding held, want at most %d", tc.rel, per, tc.perItem)
		}
		if r.bytes < held*9/10 || r.bytes > held*11/10 {
			t.Errorf("%s: the report counts %d bytes, the heap grew by %d", tc.rel, r.bytes, held)
		}
		runtime.KeepAlive(r)
	}
}

// inViewOrder checks that refs, sorted, name the findings want in o's
// order (want is sorted here).
func inViewOrder(t *testing.T, reps []*report, refs []ref, want []reports.Finding, o reports.Order) {
	t.Helper()
	slices.SortFunc(want, func(a, b reports.Finding) int {
		if o.Less(&a, &b) {
			return -1
		}
		return 1
	})
	for i, x := range refs {
		if got := reps[x.report].finding(int(x.index)).ID; got != want[i].ID {
			t.Errorf("%s order: %d: %s, want %s", o, i, got, want[i].ID)
			return
		}
	}
}

// commonsLangReps parses the commons-lang bench's PMD SARIF and Checkstyle
// XML (71,989 findings, two tools, every impact) into the cache's form;
// the test is skipped without ../shared/bench.
func commonsLangReps(t *testing.T) []*report {
	t.Helper()
	bench, _ := reportstest.Shared(t, "bench")
	if bench == "" {
		t.Skip("no ../shared/bench")
	}
	dir := t.TempDir()
	var reps []*report
	for _, name := range []string{"commons-lang.pmd7-all.sarif.gz", "commons-lang.checkstyle-sun.xml.gz"} {
		raw, err := os.ReadFile(filepath.Join(bench, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), raw, 0o644); err != nil {
			t.Fatal(err)
		}
		reps = append(reps, parseAll(t, dir, name))
	}
	return reps
}

// TestSortRefsReal: the ranks a buffer gives its findings (the kinds and
// paths of several reports, the ids of their tags) put the commons-lang
// bench's PMD SARIF and Checkstyle XML together (71,989 findings, two
// tools, every impact), in each order, in the order of their findings made
// whole. (reports' TestCompareRankedTies checks the ranks' order itself,
// with ties up to the id.)
func TestSortRefsReal(t *testing.T) {
	reps := commonsLangReps(t)
	for _, o := range []reports.Order{reports.OrderImportance, reports.OrderSeverity, reports.OrderLocation} {
		var refs []ref
		var want []reports.Finding
		for ri, r := range reps {
			for i := 0; i < r.n; i++ {
				refs = append(refs, ref{report: int32(ri), index: int32(i)})
				want = append(want, r.finding(i))
			}
		}
		slices.Reverse(refs)
		sortRefs(reps, refs, o, nil)
		inViewOrder(t, reps, refs, want, o)
	}
}

// TestBufferIDCostsTheSame: every bufferId costs the same tokens, so that
// an answer fitted at the smallest budget cannot go over it by its id.
func TestBufferIDCostsTheSame(t *testing.T) {
	c, err := tokens.New(tokens.Max)
	if err != nil {
		t.Fatal(err)
	}
	want := -1
	seen := map[string]bool{}
	for range 5000 {
		id := newBufferID()
		if seen[id] {
			t.Fatalf("id %s drawn twice in 5,000", id)
		}
		seen[id] = true
		n := c.Count("; bufferId="+id+"; parts") + c.Count(`"bufferId":"`+id+`","tokens"`)
		if want < 0 {
			want = n
		}
		if n != want || len(id) != 16 {
			t.Fatalf("id %s: %d tokens, %d characters; the first cost %d", id, n, len(id), want)
		}
	}
}

// TestRadixRefsAsCompared: the radix sort of many refs gives the order of
// the comparison sort, ties broken by id included, on the commons-lang
// bench's two reports in every order, the refs given in order, reversed,
// shuffled, a filter's share and one report alone.
func TestRadixRefsAsCompared(t *testing.T) {
	reps := commonsLangReps(t)
	var all []ref
	for ri, r := range reps {
		for i := 0; i < r.n; i++ {
			all = append(all, ref{report: int32(ri), index: int32(i), state: uint8(i % 3)})
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	shuffled := slices.Clone(all)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	var third, second []ref
	for i, r := range shuffled {
		if i%3 == 0 {
			third = append(third, r)
		}
		if r.report == 1 {
			second = append(second, r)
		}
	}
	reversed := slices.Clone(all)
	slices.Reverse(reversed)
	inputs := map[string][]ref{"in order": all, "reversed": reversed, "shuffled": shuffled, "a third": third, "one report": second}
	defer func(was bool) { radixSorts = was }(radixSorts)
	ties := 0
	for name, in := range inputs {
		for _, o := range []reports.Order{reports.OrderImportance, reports.OrderSeverity, reports.OrderLocation} {
			radixSorts = false
			want := slices.Clone(in)
			sortRefs(reps, want, o, nil)
			radixSorts = true
			got := slices.Clone(in)
			if !radixRefs(reps, got, rankKinds(reps, o, nil), rankPaths(reps)) {
				t.Fatalf("%s, %s order: not sorted by radix", name, o)
			}
			if !slices.Equal(got, want) {
				i := 0
				for got[i] == want[i] {
					i++
				}
				t.Errorf("%s, %s order: %d: %+v, want %+v", name, o, i, got[i], want[i])
			}
			for i := 1; i < len(want); i++ {
				a, b := reps[want[i-1].report].rec(int(want[i-1].index)), reps[want[i].report].rec(int(want[i].index))
				if want[i-1].report == want[i].report && a.kind == b.kind && a.path == b.path && a.line == b.line && a.column == b.column {
					ties++
				}
			}
		}
	}
	if ties == 0 {
		t.Error("no ties of ranks among the refs: the ids' order is not tried")
	}
}

// TestRadixRefsWidths: refs whose ranks fit in one word are sorted by
// radix, and those that do not (lines and columns spread over the whole
// range of int32) by comparison, both in the order of their findings made
// whole; a made-up SARIF report of 3,000 results, many at one place.
func TestRadixRefsWidths(t *testing.T) {
	for _, c := range []struct {
		name  string
		wide  bool
		radix bool
	}{{"narrow", false, true}, {"wide", true, false}} {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 6))
			var b strings.Builder
			b.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T","rules":[{"id":"A"},{"id":"B","defaultConfiguration":{"level":"error"}},{"id":"C","defaultConfiguration":{"level":"note"}}]}},"results":[`)
			for i := range 3000 {
				line, col := 1+rng.IntN(40), 1+rng.IntN(5)
				if c.wide && i%2 == 0 {
					line, col = 1+rng.IntN(math.MaxInt32-1), 1+rng.IntN(math.MaxInt32-1)
				}
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `{"ruleId":%q,"message":{"text":"m%d"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/F%d.java"},"region":{"startLine":%d,"startColumn":%d}}}]}`,
					[]string{"A", "B", "C"}[rng.IntN(3)], i%7, rng.IntN(9), line, col)
			}
			b.WriteString(`]}]}`)
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "r.sarif"), []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			r := parseAll(t, dir, "r.sarif")
			reps := []*report{r}
			refs := make([]ref, r.n)
			want := make([]reports.Finding, r.n)
			for i := range refs {
				refs[i] = ref{index: int32(i)}
				want[i] = r.finding(i)
			}
			rng.Shuffle(len(refs), func(i, j int) { refs[i], refs[j] = refs[j], refs[i] })
			o := reports.OrderImportance
			if got := radixRefs(reps, slices.Clone(refs), rankKinds(reps, o, nil), rankPaths(reps)); got != c.radix {
				t.Fatalf("sorted by radix: %v, want %v", got, c.radix)
			}
			sortRefs(reps, refs, o, nil)
			inViewOrder(t, reps, refs, want, o)
		})
	}
}
