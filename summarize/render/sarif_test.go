package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/recap-dev/recap/internal/githubtest"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// sarifLog is what the tests read back of recap's SARIF output.
type sarifLog struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Name  string `json:"name"`
				Rules []struct {
					ID               string `json:"id"`
					ShortDescription struct {
						Text string `json:"text"`
					} `json:"shortDescription"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID              string            `json:"ruleId"`
			RuleIndex           *int              `json:"ruleIndex"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
		} `json:"results"`
	} `json:"runs"`
}

// TestSARIFOfCorpus writes every corpus report as recap's SARIF (with the
// results that are no findings, as the command line writes it) and checks
// it: the SARIF Multitool's validate (SARIF's rules and GitHub's) finds no
// error in any of them; reading the output back gives the same findings,
// field by field, fingerprints included, their detail (flows, related and
// further locations, fixes, logical locations, suppressions), the same
// results that are no findings, and the same counts on the input; a
// baseline of the output against the report finds nothing new and nothing
// fixed; every rule is declared once with a description, every result's
// ruleIndex points at its rule, and every result has a fingerprint of its
// own.
func TestSARIFOfCorpus(t *testing.T) {
	dir, files := reportstest.Corpus(t)
	out := t.TempDir()
	var written []string
	type input struct{ path, root, name string }
	var ins []input
	for _, cf := range files {
		switch cf.Dir() {
		case "invalid", "diffs", "": // not reports
			continue
		}
		ins = append(ins, input{filepath.Join(dir, cf.Path), dir, cf.Path})
	}
	// The parsers' own small cases: results without a file, of every kind,
	// suppressed, further locations, fixes of characters and in words.
	cases, _ := filepath.Glob(filepath.Join("..", "..", "parsers", "testdata", "sarif", "*.sarif"))
	for _, c := range cases {
		root, _ := filepath.Abs(filepath.Join(filepath.Dir(c), "repo"))
		ins = append(ins, input{c, root, "parsers-testdata/" + filepath.Base(c)})
	}
	for _, in := range ins {
		path, dir := in.path, in.root
		if _, err := os.Stat(path); err != nil {
			continue
		}
		t.Run(in.name, func(t *testing.T) {
			all, inputs, err := readAll(path, dir)
			if err != nil || inputs[0].Error != "" {
				msg := fmt.Sprint(err)
				if err == nil {
					msg = inputs[0].Error
				}
				t.Skipf("not a report recap reads: %s", msg)
			}
			c := summarize.NewCollector()
			for _, f := range all {
				if !f.Uncounted() {
					c.Add(f)
				}
			}
			v := c.View(inputs)
			for _, f := range all {
				v.Findings = append(v.Findings, summarize.FindingView{Finding: f})
			}
			var buf bytes.Buffer
			if err := (SARIF{}).Render(&buf, v); err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(out, strings.ReplaceAll(in.name, "/", "_")+".sarif")
			if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			written = append(written, name)
			checkSARIFLog(t, buf.Bytes(), v)

			// The stream writes the same log, given the findings in the same order.
			st := NewSARIFStream()
			for i := range v.Findings {
				if err := st.Add(&v.Findings[i].Finding); err != nil {
					t.Fatal(err)
				}
			}
			var streamed bytes.Buffer
			if err := st.Write(&streamed, v); err != nil {
				t.Fatal(err)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(streamed.Bytes(), buf.Bytes()) {
				t.Fatalf("SARIFStream wrote another log than SARIF.Render:\n%.600s\nwant\n%.600s", streamed.Bytes(), buf.Bytes())
			}

			back, backIn, err := readAll(name, dir)
			if err != nil || backIn[0].Error != "" {
				t.Fatalf("reading the output back: %v %s", err, backIn[0].Error)
			}
			sameFindings(t, all, back, inputs, backIn)
			in, bin := inputs[0], backIn[0]
			if in.Findings != bin.Findings || in.Suppressed != bin.Suppressed || !cmp.Equal(in.Kinds, bin.Kinds, cmpopts.EquateEmpty()) {
				t.Errorf("input counts %d findings, %d suppressed, kinds %v; read back %d, %d, %v", in.Findings, in.Suppressed, in.Kinds,
					bin.Findings, bin.Suppressed, bin.Kinds)
			}

			// recap's SARIF as the baseline of the report: nothing new, nothing fixed.
			base := reports.NewBaseline()
			for _, f := range back {
				if !f.Uncounted() {
					base.Add(f)
				}
			}
			for _, f := range all {
				if !f.Uncounted() {
					if state := base.State(&f); state != reports.BaselineUnchanged {
						t.Errorf("%s %s:%d (%s) is %s against recap's SARIF of its report", f.Rule, f.Path, f.Line, f.Fingerprint, state)
					}
				}
			}
			if fixed := base.Fixed(); fixed > 0 {
				t.Errorf("%d findings fixed against recap's SARIF of the report", fixed)
			}
		})
	}
	if len(written) < 60 {
		t.Fatalf("only %d corpus reports written as SARIF", len(written))
	}
	if errs := tooltest.ValidateSARIF(t, written...); len(errs) > 0 {
		t.Errorf("Sarif.Multitool validate: %d errors, first:\n%s", len(errs), strings.Join(errs[:min(len(errs), 10)], "\n"))
	}
}

// readAll reads a report with the results that are no findings, as recap's
// SARIF output reads them.
func readAll(path, root string) ([]reports.Finding, []reports.Input, error) {
	var all []reports.Finding
	inputs, err := parsers.ReadAll([]string{path}, parsers.ReadOptions{Root: root, Uncounted: true}, func(f reports.Finding) error {
		all = append(all, f)
		return nil
	})
	return all, inputs, err
}

// sameFindings checks that the findings read back from recap's SARIF are
// the report's, field by field (all but the id, which names the input),
// in the same order, and their rules say the same.
func sameFindings(t *testing.T, want, got []reports.Finding, wantIn, gotIn []reports.Input) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("read back %d results, wrote %d", len(got), len(want))
	}
	// recap's SARIF groups results by tool, in order of the tools' names.
	order := func(fs []reports.Finding) []reports.Finding {
		out := slices.Clone(fs)
		sort.SliceStable(out, func(i, j int) bool { return out[i].Tool < out[j].Tool })
		return out
	}
	want, got = order(want), order(got)
	for i := range want {
		w, g := want[i], got[i]
		w.ID, g.ID = reports.FindingID{}, reports.FindingID{}
		sameDetail(t, w, g, reports.RuleOf(wantIn, &w), reports.RuleOf(gotIn, &g))
		w.Detail, g.Detail = nil, nil
		if diff := cmp.Diff(w, g); diff != "" {
			t.Errorf("%s %s %s:%d read back (-report +recap's SARIF):\n%s", w.Tool, w.Rule, w.Path, w.Line, diff)
		}
	}
}

// sameDetail checks that what a report says beyond a finding's place
// survives a round trip through recap's SARIF whole: the flow, related and
// further locations, fix, logical locations, suppressions, kind; and the
// rule's descriptions, help, help URI, precision and CWE ids.
func sameDetail(t *testing.T, want, got reports.Finding, wantRule, gotRule *reports.Rule) {
	t.Helper()
	where := fmt.Sprintf("%s %s %s:%d", want.Tool, want.Rule, want.Path, want.Line)
	if diff := cmp.Diff(want.Detail, got.Detail, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("%s: detail (-want +got):\n%s", where, diff)
	}
	if wantRule == nil {
		return
	}
	if gotRule == nil {
		t.Fatalf("%s: rule not read back", where)
	}
	for _, c := range []struct{ what, want, got string }{
		{"short description", wantRule.Short, gotRule.Short}, {"full description", wantRule.Full, gotRule.Full},
		{"help", wantRule.Help, gotRule.Help}, {"precision", wantRule.Precision, gotRule.Precision},
	} {
		if c.want != "" && c.got != c.want {
			t.Errorf("%s: rule's %s %q, want %q", where, c.what, c.got, c.want)
		}
	}
	if validHelpURI(wantRule.HelpURI) && want.HelpURI == "" && gotRule.HelpURI != wantRule.HelpURI {
		t.Errorf("%s: rule's help URI %q, want %q", where, gotRule.HelpURI, wantRule.HelpURI)
	}
	for _, id := range wantRule.CWE {
		if !slicesContain(gotRule.CWE, id) {
			t.Errorf("%s: rule's CWE %v, want %v among them", where, gotRule.CWE, wantRule.CWE)
		}
	}
}

func slicesContain(list []int, v int) bool { return slices.Contains(list, v) }

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func checkSARIFLog(t *testing.T, b []byte, v *summarize.View) {
	t.Helper()
	var log sarifLog
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	fps := map[string]int{}
	for _, f := range v.Findings {
		id, n := reports.SplitFingerprint(f.Fingerprint)
		fps[id+":"+strconv.Itoa(n)]++ // each finding's own fingerprint, as SARIF writes it
	}
	n := 0
	for _, run := range log.Runs {
		ids := map[string]bool{}
		for _, r := range run.Tool.Driver.Rules {
			if ids[r.ID] || r.ShortDescription.Text == "" {
				t.Errorf("%s: rule %q declared twice or without a description", run.Tool.Driver.Name, r.ID)
			}
			ids[r.ID] = true
		}
		used := map[string]bool{}
		seen := map[string]bool{}
		for _, res := range run.Results {
			n++
			if res.RuleIndex == nil || *res.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[*res.RuleIndex].ID != res.RuleID {
				t.Fatalf("result of %q: ruleIndex %v does not point at its rule", res.RuleID, res.RuleIndex)
			}
			used[res.RuleID] = true
			fp := res.PartialFingerprints[FingerprintKey]
			if seen[fp] {
				t.Errorf("%s: fingerprint %s on two results", run.Tool.Driver.Name, fp)
			}
			seen[fp] = true
			fps[fp]--
		}
		if len(used) != len(ids) {
			t.Errorf("%s: %d rules declared, %d used", run.Tool.Driver.Name, len(ids), len(used))
		}
	}
	if n != len(v.Findings) {
		t.Errorf("%d results, want %d", n, len(v.Findings))
	}
	for fp, left := range fps {
		if left != 0 {
			t.Errorf("fingerprint %s: %d more in the input than in the output", fp, left)
			break
		}
	}
}

// TestValidateSARIFFindsErrors: the validation the corpus test relies on
// does report a broken log.
func TestValidateSARIFFindsErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.sarif")
	os.WriteFile(bad, []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[]}},"results":[{"ruleId":"R","ruleIndex":-7,"message":{"text":"m."}}]}]}`), 0o644)
	if errs := tooltest.ValidateSARIF(t, bad); len(errs) == 0 {
		t.Error("Sarif.Multitool validate found no error in a log with ruleIndex -7")
	}
	noFull := filepath.Join(t.TempDir(), "gh.sarif")
	os.WriteFile(noFull, []byte(`{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"tool":{"driver":{"name":"x",`+
		`"rules":[{"id":"R","shortDescription":{"text":"s"}}]}},"results":[{"ruleId":"R","ruleIndex":0,"message":{"text":"m."}}]}]}`), 0o644)
	errs := tooltest.ValidateSARIF(t, noFull)
	if len(errs) == 0 || !strings.Contains(strings.Join(errs, "\n"), "GH2012") {
		t.Errorf("Sarif.Multitool validate found no GH2012 in a log whose rule has no fullDescription: %q", errs)
	}
}

// TestSARIFStreamCap: a stream of more results than GitHub's code scanning
// takes in a run keeps the 25,000 most severe (then first in view order),
// counts the others in the run's properties, gives every result a
// fingerprint of its own, and writes a log within every limit GitHub
// documents for an upload; a run under the cap keeps its order.
func TestSARIFStreamCap(t *testing.T) {
	const n = 60000
	var all []reports.Finding
	for i := 0; i < n; i++ {
		f := reports.Finding{ID: reports.ID("p", i), Tool: "PMD", Rule: fmt.Sprintf("R%02d", i%40), Category: "Design",
			Severity: reports.Severities[[]int{0, 1, 1, 1, 2}[i%5]], Path: fmt.Sprintf("src/F%03d.java", i%700), Line: 1 + i/700,
			Message: "the same message in every file, so that fingerprints repeat"}
		f.Fingerprint = reports.Fingerprint(f, nil)
		all = append(all, f)
	}
	for i := 0; i < 100; i++ {
		f := reports.Finding{ID: reports.ID("c", i), Tool: "Checkstyle", Rule: "LineLength", Severity: reports.SeverityWarning,
			Path: "src/A.java", Line: 100 - i, Message: "Line is longer than 100 characters"}
		f.Fingerprint = reports.Fingerprint(f, nil)
		all = append(all, f)
	}
	// Occurrences as a reader numbers them in one report (each finding
	// of an identity its own), which the log keeps.
	seen := map[string]int{}
	for i := range all {
		seen[all[i].Fingerprint]++
		all[i].Fingerprint = reports.Occurrence(all[i].Fingerprint, seen[all[i].Fingerprint])
	}
	st := NewSARIFStream()
	st.MaxResults = MaxRunResults
	defer st.Close()
	for i := range all {
		if err := st.Add(&all[i]); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := st.Write(&buf, &summarize.View{}); err != nil {
		t.Fatal(err)
	}
	if st.Omitted() != n-MaxRunResults {
		t.Errorf("%d omitted, want %d", st.Omitted(), n-MaxRunResults)
	}
	if errs := githubtest.SARIFLimits(buf.Bytes()); len(errs) > 0 {
		t.Errorf("GitHub would reject the log: %v", errs)
	}
	var log struct {
		Runs []struct {
			Tool       struct{ Driver struct{ Name string } }
			Properties map[string]int `json:"properties"`
			Results    []struct {
				Level               string            `json:"level"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				Locations           []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	sort.SliceStable(all[:n], func(i, j int) bool { return reports.Less(&all[i], &all[j]) })
	for _, run := range log.Runs {
		fps := map[string]bool{}
		for i, r := range run.Results {
			fp := r.PartialFingerprints[FingerprintKey]
			if fps[fp] {
				t.Fatalf("%s: fingerprint %s twice", run.Tool.Driver.Name, fp)
			}
			fps[fp] = true
			loc := r.Locations[0].PhysicalLocation
			var want reports.Finding
			switch run.Tool.Driver.Name {
			case "PMD":
				want = all[i] // the first 25,000 in view order
			default:
				want = all[n+i] // under the cap: the order added
			}
			if loc.ArtifactLocation.URI != want.Path || loc.Region.StartLine != want.Line || r.Level != sarifLevel(want.Severity) {
				t.Fatalf("%s: result %d is %s:%d (%s), want %s:%d (%s)", run.Tool.Driver.Name, i, loc.ArtifactLocation.URI,
					loc.Region.StartLine, r.Level, want.Path, want.Line, sarifLevel(want.Severity))
			}
		}
		wantN, wantOmitted := MaxRunResults, n-MaxRunResults
		if run.Tool.Driver.Name != "PMD" {
			wantN, wantOmitted = 100, 0
		}
		if len(run.Results) != wantN || run.Properties[OmittedProperty] != wantOmitted {
			t.Errorf("%s: %d results, %d omitted; want %d, %d", run.Tool.Driver.Name, len(run.Results), run.Properties[OmittedProperty], wantN, wantOmitted)
		}
	}
	if testing.Short() {
		return
	}
	name := filepath.Join(t.TempDir(), "capped.sarif")
	os.WriteFile(name, buf.Bytes(), 0o644)
	if errs := tooltest.ValidateSARIF(t, name); len(errs) > 0 {
		t.Errorf("Sarif.Multitool validate: %d errors, first:\n%s", len(errs), strings.Join(errs[:min(len(errs), 10)], "\n"))
	}
}

// TestSARIFOfSample: recap's SARIF of the sample's reports declares every
// rule with the descriptions and help GitHub's code scanning needs, in the
// tools' words where the reports have them (PMD's, SpotBugs'), and the
// SARIF Multitool finds nothing against GitHub's rules in it.
func TestSARIFOfSample(t *testing.T) {
	root := reportstest.RepoRoot(t)
	c := summarize.NewCollector()
	var all []reports.Finding
	inputs, err := parsers.ReadAll([]string{filepath.Join(root, "testdata", "reports")}, parsers.ReadOptions{Root: filepath.Join(root, "testdata", "sample")},
		func(f reports.Finding) error {
			c.Add(f)
			all = append(all, f)
			return nil
		})
	if err != nil || len(all) != tooltest.SampleFindings {
		t.Fatalf("%d findings, %v", len(all), err)
	}
	v := c.View(inputs)
	for _, f := range all {
		v.Findings = append(v.Findings, summarize.FindingView{Finding: f})
	}
	var buf bytes.Buffer
	if err := (SARIF{}).Render(&buf, v); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Name  string
					Rules []struct {
						ID               string
						ShortDescription struct{ Text string }
						FullDescription  struct{ Text string }
						Help             struct{ Text, Markdown string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	described := 0
	for _, run := range log.Runs {
		for _, r := range run.Tool.Driver.Rules {
			if r.ShortDescription.Text == "" || r.FullDescription.Text == "" || r.Help.Text == "" || r.Help.Markdown != "" {
				t.Errorf("%s %s: short %q, full %q, help %q (markdown %q)", run.Tool.Driver.Name, r.ID, r.ShortDescription.Text, r.FullDescription.Text,
					r.Help.Text, r.Help.Markdown)
			}
			if want := reports.RuleOf(inputs, &reports.Finding{Tool: run.Tool.Driver.Name, Rule: r.ID}); want != nil && want.Full != "" {
				described++
				if r.FullDescription.Text != want.Full {
					t.Errorf("%s %s: full description %q, want the report's %q", run.Tool.Driver.Name, r.ID, r.FullDescription.Text, want.Full)
				}
			}
		}
	}
	if described < 20 {
		t.Errorf("only %d rules described in the reports' words", described)
	}
	name := filepath.Join(t.TempDir(), "sample.sarif")
	os.WriteFile(name, buf.Bytes(), 0o644)
	if errs := tooltest.ValidateSARIF(t, name); len(errs) > 0 {
		t.Errorf("Sarif.Multitool validate: %d results, first:\n%s", len(errs), strings.Join(errs[:min(len(errs), 10)], "\n"))
	}
}

// TestSARIFResultCWE: a CWE id that one result of a rule gives in its taxa
// stays that result's through recap's SARIF, and the rule's own (a tag)
// stays on every result of the rule.
func TestSARIFResultCWE(t *testing.T) {
	const log = `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"CodeQL","rules":[
{"id":"py/a","properties":{"tags":["external/cwe/cwe-89"]}},{"id":"py/b"}]}},"results":[
{"ruleId":"py/a","message":{"text":"one"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.py"},"region":{"startLine":1}}}],
 "taxa":[{"id":"79","toolComponent":{"name":"CWE"}}]},
{"ruleId":"py/a","message":{"text":"two"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.py"},"region":{"startLine":2}}}]},
{"ruleId":"py/b","message":{"text":"three"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.py"},"region":{"startLine":3}}}],
 "taxa":[{"id":"22","toolComponent":{"name":"CWE"}}]},
{"ruleId":"py/b","message":{"text":"four"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.py"},"region":{"startLine":4}}}],
 "taxa":[{"id":"22","toolComponent":{"name":"CWE"}},{"id":"23","toolComponent":{"name":"CWE"}}]}]}]}`
	findings, in := parsers.ParseAll(strings.NewReader(log), "in.sarif", parsers.ReadOptions{})
	want := map[string][]int{"one": {79, 89}, "two": {89}, "three": {22}, "four": {22, 23}}
	check := func(what string, fs []reports.Finding) {
		t.Helper()
		if len(fs) != len(want) {
			t.Fatalf("%s: %d findings", what, len(fs))
		}
		for _, f := range fs {
			if !slices.Equal(f.CWE, want[f.Message]) {
				t.Errorf("%s: %q has CWE %v, want %v", what, f.Message, f.CWE, want[f.Message])
			}
		}
	}
	check("read", findings)
	v := &summarize.View{Inputs: []reports.Input{in}}
	for _, f := range findings {
		v.Findings = append(v.Findings, summarize.FindingView{Finding: f})
	}
	var buf bytes.Buffer
	if err := (SARIF{}).Render(&buf, v); err != nil {
		t.Fatal(err)
	}
	back, bin := parsers.ParseAll(bytes.NewReader(buf.Bytes()), "out.sarif", parsers.ReadOptions{})
	if bin.Error != "" {
		t.Fatal(bin.Error)
	}
	check("read back", back)
	name := filepath.Join(t.TempDir(), "cwe.sarif")
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if errs := tooltest.ValidateSARIF(t, name); len(errs) > 0 {
		t.Errorf("Sarif.Multitool validate: %s", strings.Join(errs, "\n"))
	}
}

// TestSARIFStreamKeptReadEither: a capped stream writes the same log
// whether it reads its kept results out of its spill in one pass (up to
// maxKeptRead bytes of them) or a result at a time, in the order of the
// results (capped) or of their adding (under the cap).
func TestSARIFStreamKeptReadEither(t *testing.T) {
	write := func(t *testing.T, n, max int) []byte {
		st := NewSARIFStream()
		st.MaxResults = max
		defer st.Close()
		for i := range n {
			f := reports.Finding{ID: reports.ID("p", i), Tool: "PMD", Rule: fmt.Sprintf("R%02d", i%13),
				Severity: reports.Severities[i*7%len(reports.Severities)], Path: fmt.Sprintf("src/F%03d.java", i%97), Line: 1 + i%61,
				Message: strings.Repeat("m", i%300)}
			f.Fingerprint = reports.Occurrence(reports.Fingerprint(f, nil), 1)
			if err := st.Add(&f); err != nil {
				t.Fatal(err)
			}
		}
		var buf bytes.Buffer
		if err := st.Write(&buf, &summarize.View{}); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	for _, tc := range []struct {
		name   string
		n, max int
	}{{"capped", 3000, 500}, {"under the cap", 400, 500}} {
		t.Run(tc.name, func(t *testing.T) {
			once := write(t, tc.n, tc.max)
			defer func(was int) { maxKeptRead = was }(maxKeptRead)
			maxKeptRead = 1 << 10
			each := write(t, tc.n, tc.max)
			if !bytes.Equal(once, each) {
				t.Fatalf("the log differs with the kept results read one at a time (%d and %d bytes)", len(once), len(each))
			}
			if got := bytes.Count(once, []byte(`"ruleId"`)); got != min(tc.n, tc.max) {
				t.Errorf("%d results, want %d", got, min(tc.n, tc.max))
			}
		})
	}
}
