package parsers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/reports"
)

// sarifResults is a SARIF log of the results given as JSON objects.
func sarifResults(results ...string) string {
	return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[` + strings.Join(results, ",") + `]}]}`
}

func sarifAt(rule, msg, file string, line int, extra string) string {
	return fmt.Sprintf(`{"ruleId":%q,"message":{"text":%q},"locations":[{"physicalLocation":{"artifactLocation":{"uri":%q},"region":{"startLine":%d}}}]%s}`,
		rule, msg, file, line, extra)
}

func readSARIF(t *testing.T, log string, opts ReadOptions) []reports.Finding {
	t.Helper()
	var out []reports.Finding
	in, err := ReadAll([]string{"-"}, ReadOptions{Stdin: strings.NewReader(log), Keep: opts.Keep, NoFingerprints: opts.NoFingerprints}, func(f reports.Finding) error {
		out = append(out, f)
		return nil
	})
	if err != nil || in[0].Error != "" {
		t.Fatalf("%v %s", err, in[0].Error)
	}
	return out
}

// TestFingerprintOccurrences: findings of one identity get fingerprints of
// their own, numbered in the report's order over all its findings, so that
// a filter does not change them; recap's own fingerprints are read back as
// they are, a repeated one too (one finding of two reports of a tool, which
// recap's SARIF writes in one run).
func TestFingerprintOccurrences(t *testing.T) {
	log := sarifResults(
		sarifAt("R", "same", "a.go", 1, ""),
		sarifAt("R", "other", "a.go", 2, ""),
		sarifAt("R", "same", "a.go", 3, ""),
		sarifAt("R", "same", "a.go", 4, ""),
		sarifAt("R", "same", "b.go", 5, ""))
	all := readSARIF(t, log, ReadOptions{})
	fps := map[int]string{}
	for _, f := range all {
		fps[f.Line] = f.Fingerprint
	}
	base := fps[1]
	want := map[int]string{1: base, 3: base + ":2", 4: base + ":3"}
	for line, fp := range want {
		if fps[line] != fp {
			t.Errorf("line %d: fingerprint %s, want %s", line, fps[line], fp)
		}
	}
	if fps[2] == base || fps[5] == base || strings.Contains(fps[2]+fps[5], ":") {
		t.Errorf("other identities: %s, %s", fps[2], fps[5])
	}
	// A filter keeps the fingerprints: line 4 is still the third.
	kept := readSARIF(t, log, ReadOptions{Keep: func(f *reports.Finding) bool { return f.Line >= 4 }})
	if len(kept) != 2 || kept[0].Fingerprint != base+":3" || kept[1].Fingerprint != fps[5] {
		t.Errorf("filtered: %+v", kept)
	}
	if none := readSARIF(t, log, ReadOptions{NoFingerprints: true}); none[0].Fingerprint != "" {
		t.Errorf("NoFingerprints: %q", none[0].Fingerprint)
	}

	// recap's SARIF: its fingerprints as they are ("…:1" is the first), a
	// repeated one as well.
	const id = "0123456789abcdef"
	recap := func(v string) string {
		return `,"partialFingerprints":{"recapFingerprint/v1":"` + v + `"}`
	}
	back := readSARIF(t, sarifResults(
		sarifAt("R", "x", "a.go", 1, recap(id+":1")),
		sarifAt("R", "x", "a.go", 2, recap(id+":3")),
		sarifAt("R", "x", "a.go", 3, recap(id+":1")),
		sarifAt("R", "y", "a.go", 4, recap("not a fingerprint"))), ReadOptions{})
	got := []string{back[0].Fingerprint, back[1].Fingerprint, back[2].Fingerprint}
	if diff := cmp.Diff([]string{id, id + ":3", id}, got); diff != "" {
		t.Errorf("recap's fingerprints (-want +got):\n%s", diff)
	}
	if fp := back[3].Fingerprint; len(fp) != 16 || fp == reports.Fingerprint(back[3], nil) {
		t.Errorf("a malformed recap fingerprint is hashed as a partial fingerprint: %q", fp)
	}
}
