package parsers_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/internal/hostile"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

// sameRunRules are the rules the fuzzed runs draw from.
var sameRunRules = []string{"UnusedPrivateField", "HardCodedCryptoKey", "CloseResource", "SystemPrintln"}

// fuzzRun makes the violations of one PMD run from data, three bytes a
// violation (at most 64): its file, line, rule and priority, and a message
// of letters.
func fuzzRun(dir string, data []byte) []hostile.PMDViolation {
	var vs []hostile.PMDViolation
	for i := 0; i+3 <= len(data) && len(vs) < 64; i += 3 {
		a, b, c := data[i], data[i+1], data[i+2]
		vs = append(vs, hostile.PMDViolation{
			File:     filepath.Join(dir, "src", fmt.Sprintf("m%d", a%3), "Util.java"), // one base name in three directories
			Line:     1 + int(b%40),
			Rule:     sameRunRules[c%4],
			Ruleset:  "Best Practices",
			Priority: 1 + int(c/4%5),
			Message:  fmt.Sprintf("Avoid %c%c", 'a'+a%26, 'a'+b%26),
		})
	}
	return vs
}

// differ changes one thing of one violation, as how picks: its
// directory, its line, its rule, its priority, or its message.
func differ(vs []hostile.PMDViolation, how uint8) []hostile.PMDViolation {
	out := append([]hostile.PMDViolation(nil), vs...)
	v := &out[int(how/5)%len(out)]
	switch how % 5 {
	case 0:
		v.File = filepath.Join(filepath.Dir(filepath.Dir(v.File)), "other", "Util.java")
	case 1:
		v.Line++
	case 2:
		v.Rule = "Other" + v.Rule
	case 3: // another level: priorities 1-2 are errors, 3 warnings
		if v.Priority <= 2 {
			v.Priority = 3
		} else {
			v.Priority = 1
		}
	case 4:
		v.Message += "x"
	}
	return out
}

// FuzzSameRun: one PMD run written as PMD XML and SARIF side by side
// counts once; the same but one finding different in anything (its path,
// line, rule, level or message) in one of them, both count.
func FuzzSameRun(f *testing.F) {
	f.Add([]byte("abcdefghi"), uint8(0))
	f.Add([]byte("\x00\x01\x02"), uint8(4))
	f.Add([]byte("zzzzzzzzzzzz"), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, how uint8) {
		dir := t.TempDir()
		vs := fuzzRun(dir, data)
		if len(vs) == 0 {
			return
		}
		read := func(xml, sarif []hostile.PMDViolation) ([]reports.Input, int) {
			t.Helper()
			if err := os.MkdirAll(filepath.Join(dir, "target"), 0o755); err != nil {
				t.Fatal(err)
			}
			for name, body := range map[string]string{"target/pmd.xml": hostile.PMDXML("7.0.0", xml), "target/pmd.sarif": hostile.PMDSARIF("7.0.0", sarif)} {
				if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			n := 0
			inputs, err := parsers.ReadAll([]string{filepath.Join(dir, "target")}, parsers.ReadOptions{Root: dir}, func(reports.Finding) error { n++; return nil })
			if err != nil {
				t.Fatal(err)
			}
			return inputs, n
		}
		inputs, n := read(vs, vs)
		if len(inputs) != 1 || n != len(vs) {
			t.Fatalf("one run in two formats: %d findings from %d inputs, want %d from 1 (%+v)", n, len(inputs), len(vs), inputs)
		}
		other := differ(vs, how)
		inputs, n = read(vs, other)
		if len(inputs) != 2 || n != 2*len(vs) {
			t.Fatalf("one finding different (%d): %d findings from %d inputs, want %d from 2 (%+v)", how%5, n, len(inputs), 2*len(vs), inputs)
		}
	})
}
