package parsers

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/recap-dev/recap/reports"
)

// manyResults is a SARIF log of n results, the i-th with message "m<i>" on
// line i+1, and the offset where each result starts.
func manyResults(n int) (string, []int) {
	var b strings.Builder
	b.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}},"results":[`)
	starts := make([]int, n)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		starts[i] = b.Len()
		fmt.Fprintf(&b, `{"ruleId":"R%d","message":{"text":"m%d"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/A.java"},"region":{"startLine":%d}}}]}`, i%7, i, i+1)
	}
	b.WriteString("]}]}")
	return b.String(), starts
}

// TestSARIFPipeline: results are converted on a goroutine of their own in
// batches; the findings come out whole and in order at every batch boundary,
// an error of emit stops reading at its result, a truncated log keeps every
// result before the cut, and a panic of emit reaches the caller.
func TestSARIFPipeline(t *testing.T) {
	for _, n := range []int{0, 1, convBatch - 1, convBatch, convBatch + 1, 3*convBatch + 17, 10 * convBatch} {
		t.Run(fmt.Sprintf("%d results", n), func(t *testing.T) {
			report, starts := manyResults(n)
			findings, in := ParseAll(strings.NewReader(report), "many.sarif", ReadOptions{Root: t.TempDir()})
			if in.Error != "" || len(findings) != n || in.Findings != n {
				t.Fatalf("error %q, %d findings, input counts %d; want %d", in.Error, len(findings), in.Findings, n)
			}
			for i, f := range findings {
				if f.Message != fmt.Sprintf("m%d", i) || f.Line != i+1 || f.Rule != fmt.Sprintf("R%d", i%7) {
					t.Fatalf("finding %d = %q line %d rule %s", i, f.Message, f.Line, f.Rule)
				}
			}

			if n == 0 {
				return
			}
			// Cut inside the last result: every one before it is kept.
			cut := report[:starts[n-1]+20]
			findings, in = ParseAll(strings.NewReader(cut), "cut.sarif", ReadOptions{Root: t.TempDir()})
			if len(findings) != n-1 || !strings.Contains(in.Error, "cut.sarif") || !strings.Contains(in.Error, "unexpected end of input") {
				t.Errorf("truncated: %d findings (want %d), error %q", len(findings), n-1, in.Error)
			}

			// emit fails at the k-th finding: exactly k-1 before it were taken.
			k := n/2 + 1
			stop := errors.New("enough")
			var got []reports.Finding
			_, err := ReadAll([]string{"-"}, ReadOptions{Root: t.TempDir(), Stdin: strings.NewReader(report)}, func(f reports.Finding) error {
				if len(got) == k-1 {
					return stop
				}
				got = append(got, f)
				return nil
			})
			if !errors.Is(err, stop) || len(got) != k-1 {
				t.Errorf("emit error at %d: err %v, %d findings taken", k, err, len(got))
			}

			// A panic of emit is raised on the caller's goroutine.
			func() {
				defer func() {
					if v := recover(); v != "boom" {
						t.Errorf("recovered %v, want the emit's panic", v)
					}
				}()
				seen := 0
				ReadAll([]string{"-"}, ReadOptions{Root: t.TempDir(), Stdin: strings.NewReader(report)}, func(reports.Finding) error {
					if seen++; seen == k {
						panic("boom")
					}
					return nil
				})
			}()
		})
	}
}

// TestKeep: findings refused by ReadOptions.Keep are counted but not
// emitted, Keep sees each finding's id but no fingerprint, and the kept
// ones have the ids and fingerprints they have when everything is read.
func TestKeep(t *testing.T) {
	report, _ := manyResults(3*convBatch + 5)
	root := t.TempDir()
	all, allIn := ParseAll(strings.NewReader(report), "r.sarif", ReadOptions{Root: root})
	var ids []reports.FindingID
	fingerprints := 0
	kept, keptIn := ParseAll(strings.NewReader(report), "r.sarif", ReadOptions{Root: root, Keep: func(f *reports.Finding) bool {
		ids = append(ids, f.ID)
		if f.Fingerprint != "" {
			fingerprints++
		}
		return f.Rule == "R3"
	}})
	var want []reports.Finding
	var wantIDs []reports.FindingID
	for _, f := range all {
		wantIDs = append(wantIDs, f.ID)
		if f.Rule == "R3" {
			want = append(want, f)
		}
	}
	if len(ids) != len(all) || keptIn.Findings != allIn.Findings || len(want) == 0 || !reflect.DeepEqual(kept, want) {
		t.Errorf("asked %d of %d, input counts %d vs %d, kept %d findings, want %d equal to the unfiltered ones",
			len(ids), len(all), keptIn.Findings, allIn.Findings, len(kept), len(want))
	}
	if !reflect.DeepEqual(ids, wantIDs) || fingerprints != 0 {
		t.Errorf("Keep saw ids %v, want %v; %d fingerprints, want none", ids, wantIDs, fingerprints)
	}
}

// TestNoFingerprints: findings read without fingerprints are the same
// findings, ids too, with an empty fingerprint.
func TestNoFingerprints(t *testing.T) {
	report, _ := manyResults(convBatch + 7)
	all, allIn := ParseAll(strings.NewReader(report), "r.sarif", ReadOptions{})
	bare, bareIn := ParseAll(strings.NewReader(report), "r.sarif", ReadOptions{NoFingerprints: true})
	if len(all) != len(bare) || allIn.Findings != bareIn.Findings {
		t.Fatalf("%d findings, want %d", len(bare), len(all))
	}
	for i := range all {
		if bare[i].Fingerprint != "" || all[i].Fingerprint == "" {
			t.Fatalf("finding %d: fingerprint %q (with them: %q)", i, bare[i].Fingerprint, all[i].Fingerprint)
		}
		all[i].Fingerprint = ""
		if !reflect.DeepEqual(all[i], bare[i]) {
			t.Fatalf("finding %d: %+v, with fingerprints %+v", i, bare[i], all[i])
		}
	}
}
