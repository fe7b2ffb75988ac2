package parsers

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestManyLocations: a PMD result of many locations (PMD 6.31–6.42 put
// every violation of a rule into one) gives a finding per location, in
// order, past the locations kept as structs, in memory and through a
// temporary file, which is removed; another tool's result gives one
// finding, its first location's.
func TestManyLocations(t *testing.T) {
	const n = spillAfter*2 + 123
	var locs []string
	for i := 0; i < n; i++ {
		msg := ""
		if i%1000 == 7 {
			msg = fmt.Sprintf(`,"message":{"text":"step %d","arguments":["a","b"]}`, i)
		}
		ctx := ""
		if i%3 == 0 {
			ctx = fmt.Sprintf(`,"contextRegion":{"startLine":%d,"snippet":{"text":"x\ny"}}`, 1+i%90)
		}
		locs = append(locs, fmt.Sprintf(`{"physicalLocation":{"artifactLocation":{"uri":"src/f%d.java","uriBaseId":"SRC"},"region":{"startLine":%d,"startColumn":%d,"endLine":%d}%s}%s}`,
			i%37, 1+i%90, i%5, 2+i%90, ctx, msg))
	}
	log := func(tool string) string {
		return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"` + tool + `","version":"6.40.0"}},"originalUriBaseIds":{"SRC":{"uri":"file:///ci/"}},` +
			`"results":[{"ruleId":"R","message":{"text":"m"},"locations":[` + strings.Join(locs, ",") + `]}]}]}`
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for _, inMemory := range []int{8 << 20, 1 << 10} {
		old := spillInMemory
		spillInMemory = inMemory
		findings, in := ParseAll(strings.NewReader(log("PMD")), "pmd.sarif", ReadOptions{})
		spillInMemory = old
		if in.Error != "" || len(findings) != n {
			t.Fatalf("in memory %d: %d findings of %d, error %q", inMemory, len(findings), n, in.Error)
		}
		for i, f := range findings {
			want := fmt.Sprintf("/ci/src/f%d.java:%d:%d-%d", i%37, 1+i%90, i%5, 2+i%90)
			if got := fmt.Sprintf("%s:%d:%d-%d", f.Path, f.Line, f.Column, f.EndLine); got != want {
				t.Fatalf("in memory %d: finding %d at %s, want %s", inMemory, i, got, want)
			}
		}
		left, _ := os.ReadDir(tmp)
		if diff := cmp.Diff([]os.DirEntry(nil), left); len(left) > 0 {
			t.Errorf("temporary files left: %s", diff)
		}
	}
	findings, _ := ParseAll(strings.NewReader(log("Semgrep")), "s.sarif", ReadOptions{})
	if len(findings) != 1 || findings[0].Path != filepath.ToSlash("/ci/src/f0.java") {
		t.Errorf("another tool: %d findings (%+v)", len(findings), findings)
	}
}
