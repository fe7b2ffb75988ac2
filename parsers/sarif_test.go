package parsers

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/recap-dev/recap/reports"
)

func TestFormatArgs(t *testing.T) {
	tests := []struct {
		text string
		args []string
		want string
	}{
		{"Found {0} in {1}.", []string{"a", "b"}, "Found a in b."},
		{"{1}{0}", []string{"x", "y"}, "yx"},
		{"literal {{0}} and {2}", []string{"x"}, "literal {0} and {2}"},
		{"no placeholders", []string{"x"}, "no placeholders"},
		{"{0", []string{"x"}, "{0"},
	}
	for _, tc := range tests {
		if got := formatArgs(tc.text, tc.args); got != tc.want {
			t.Errorf("formatArgs(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestHostileSizes guards against work that grows faster than the input:
// a path of many components and a message with many arguments. The bound is
// far above the linear cost (milliseconds); it catches quadratic work only.
func TestHostileSizes(t *testing.T) {
	deep := "file:///" + strings.Repeat("a/", 30000) + "x.java"
	args := `"` + strings.Repeat(`x","`, 20000) + `x"`
	text := strings.Repeat("{1}", 20000)
	report := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}},"results":[` +
		`{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"` + deep + `"}}}]},` +
		`{"message":{"text":"` + text + `","arguments":[` + args + `]}}]}]}`
	start := time.Now()
	findings, in := ParseAll(strings.NewReader(report), "hostile", ReadOptions{Root: t.TempDir()})
	if in.Error != "" || len(findings) != 2 {
		t.Fatalf("error %q, %d findings", in.Error, len(findings))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v; the work is not linear in the input", d)
	}
}

// TestTagsProperty: the hand reader of a rule's tags agrees with
// encoding/json on arrays of strings, and gives no tags for anything else.
func TestTagsProperty(t *testing.T) {
	for _, raw := range []string{
		`["a","b"]`, ` [ "a" , "b\"c" ,"d\\"] `, `[]`, `[ ]`, `["\u00e9", "x\ty"]`, `["\ud800"]`,
		`"a"`, `[1]`, `["a",1]`, `{"a":1}`, `null`, `["a"`, `["a",]`, `["a"]x`, "[\"\xff\"]", ``,
	} {
		var want []string
		if json.Unmarshal([]byte(raw), &want) != nil || len(want) == 0 {
			want = nil
		}
		if got := tagsProperty([]byte(raw)); !reflect.DeepEqual(got, want) {
			t.Errorf("tagsProperty(%s) = %q, want %q", raw, got, want)
		}
	}
}

// TestSARIFResultsBeforeTheTool: results read before what converts them
// (the tool, the artifacts their locations name by index) are kept aside,
// each with its own locations, while the next result is read into the
// same place.
func TestSARIFResultsBeforeTheTool(t *testing.T) {
	result := func(uri string, line int) string {
		return fmt.Sprintf(`{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":%q},"region":{"startLine":%d,"startColumn":2}}},`+
			`{"physicalLocation":{"artifactLocation":{"uri":"other.c"},"region":{"startLine":99}}}]}`, uri, line)
	}
	byIndex := func(i, line int) string {
		return fmt.Sprintf(`{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"index":%d},"region":{"startLine":%d}}}]}`, i, line)
	}
	for name, log := range map[string]string{
		"results before the tool": `{"version":"2.1.0","runs":[{"results":[` + result("a.c", 1) + `,` + result("b.c", 2) + `,` + result("c.c", 3) +
			`],"tool":{"driver":{"name":"T","rules":[{"id":"R"}]}}}]}`,
		"artifacts after the results": `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[` + byIndex(0, 1) + `,` + byIndex(1, 2) + `,` + byIndex(2, 3) +
			`],"artifacts":[{"location":{"uri":"a.c"}},{"location":{"uri":"b.c"}},{"location":{"uri":"c.c"}}]}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			fs, in := ParseAll(strings.NewReader(log), "t.sarif", ReadOptions{})
			if in.Error != "" {
				t.Fatal(in.Error)
			}
			var got []string
			for _, f := range fs {
				got = append(got, fmt.Sprintf("%s:%d", f.Path, f.Line))
			}
			if want := "a.c:1 b.c:2 c.c:3"; strings.Join(got, " ") != want {
				t.Errorf("findings at %v, want %s", got, want)
			}
		})
	}
}

// TestSARIFSuppressed: a result is suppressed when it has suppressions and
// each is accepted (its status absent or accepted, SARIF §3.27.23, the
// SARIF SDK's TryIsSuppressed): one under review or rejected beside an
// accepted one leaves it a finding, counted, past the suppressions kept
// too.
func TestSARIFSuppressed(t *testing.T) {
	accepted, noStatus := `{"kind":"inSource","status":"accepted"}`, `{"kind":"inSource"}`
	rejected, underReview := `{"kind":"external","status":"rejected"}`, `{"kind":"external","status":"underReview"}`
	many := strings.Repeat(accepted+",", reports.MaxSuppressions+1)
	for _, tt := range []struct {
		name         string
		suppressions string // the array's members; "-" for no array
		want         bool
	}{
		{"none", "-", false},
		{"empty", "", false},
		{"accepted", accepted, true},
		{"no status", noStatus, true},
		{"accepted and no status", accepted + "," + noStatus, true},
		{"accepted, rejected", accepted + "," + rejected, false},
		{"rejected, accepted", rejected + "," + accepted, false},
		{"accepted, underReview", accepted + "," + underReview, false},
		{"underReview, no status", underReview + "," + noStatus, false},
		{"rejected", rejected, false},
		{"underReview", underReview, false},
		{"a status SARIF does not name", `{"kind":"external","status":"dismissed"}`, false},
		{"rejected past those kept", many + rejected, false},
		{"accepted past those kept", many + accepted, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			extra := ""
			if tt.suppressions != "-" {
				extra = `,"suppressions":[` + tt.suppressions + `]`
			}
			fs, in := ParseAll(strings.NewReader(sarifResults(sarifAt("R", "m", "a.go", 3, extra))), "t.sarif", ReadOptions{Uncounted: true})
			if in.Error != "" || len(fs) != 1 {
				t.Fatalf("%d findings, error %q", len(fs), in.Error)
			}
			wantFindings, wantSuppressed := 1, 0
			if tt.want {
				wantFindings, wantSuppressed = 0, 1
			}
			if got := fs[0].Uncounted(); got != tt.want || in.Findings != wantFindings || in.Suppressed != wantSuppressed {
				t.Errorf("uncounted %v, input counts %d findings and %d suppressed; want %v, %d and %d",
					got, in.Findings, in.Suppressed, tt.want, wantFindings, wantSuppressed)
			}
			if d := fs[0].Detail; d != nil && len(d.Suppressions) > reports.MaxSuppressions {
				t.Errorf("%d suppressions kept, at most %d", len(d.Suppressions), reports.MaxSuppressions)
			}
		})
	}
}
