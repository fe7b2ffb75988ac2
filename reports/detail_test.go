package reports

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFixApply(t *testing.T) {
	lines := []string{"  inputs[x] = 1", "  if inputs[x + 1] == True:", "\tname = \"𝄞é\" + y"}
	tests := map[string]struct {
		repl []Replacement
		want []string // nil: not applicable
	}{
		"columns on one line": {[]Replacement{{Path: "a.py", Line: 1, Column: 3, EndColumn: 12, Text: "inputs.get(x)"}},
			[]string{"  inputs.get(x) = 1"}},
		"whole line (no columns)": {[]Replacement{{Path: "a.py", Line: 2, Text: "  if inputs.get(x + 1):"}},
			[]string{"  if inputs.get(x + 1):"}},
		"two lines into one": {[]Replacement{{Path: "a.py", Line: 1, Column: 3, EndLine: 2, EndColumn: 5, Text: "if"}},
			[]string{"  if inputs[x + 1] == True:"}},
		"insertion": {[]Replacement{{Path: "a.py", Line: 1, Column: 1, EndColumn: 1, Text: "# "}},
			[]string{"#   inputs[x] = 1"}},
		"a line break inserted": {[]Replacement{{Path: "a.py", Line: 1, Column: 16, EndColumn: 16, Text: "\n  y = 2"}},
			[]string{"  inputs[x] = 1", "  y = 2"}},
		"two edits, given in reverse": {[]Replacement{
			{Path: "a.py", Line: 2, Column: 19, EndColumn: 27, Text: ""},
			{Path: "a.py", Line: 1, Column: 3, EndColumn: 12, Text: "inputs.get(x)"}},
			[]string{"  inputs.get(x) = 1", "  if inputs[x + 1]:"}},
		"UTF-16 columns past a surrogate pair": {[]Replacement{{Path: "a.py", Line: 3, Column: 9, EndColumn: 14, Text: "'Ä'"}},
			[]string{"\tname = 'Ä' + y"}},
		"inside a surrogate pair": {[]Replacement{{Path: "a.py", Line: 3, Column: 11, EndColumn: 12, Text: "x"}}, nil},
		"past the line's end":     {[]Replacement{{Path: "a.py", Line: 1, Column: 3, EndColumn: 40, Text: "x"}}, nil},
		"overlapping": {[]Replacement{{Path: "a.py", Line: 1, Column: 3, EndColumn: 9, Text: "a"},
			{Path: "a.py", Line: 1, Column: 5, EndColumn: 12, Text: "b"}}, nil},
		"end before start": {[]Replacement{{Path: "a.py", Line: 1, Column: 9, EndColumn: 3, Text: "a"}}, nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			fix := &Fix{Replacements: append(tc.repl, Replacement{Path: "other.py", Line: 99, Text: "elsewhere"})}
			from, to, ok := fix.Span("a.py")
			if !ok {
				t.Fatal("Span: no lines")
			}
			got, ok := fix.Apply("a.py", from, lines[from-1:to])
			if tc.want == nil {
				if ok {
					t.Fatalf("Apply = %q, want not applicable", got)
				}
				return
			}
			if !ok {
				t.Fatal("Apply: not applicable")
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Apply (-want +got):\n%s", diff)
			}
		})
	}
	fix := &Fix{Replacements: []Replacement{{Path: "a.py", Line: 5, Text: "x"}}}
	if _, ok := fix.Apply("a.py", 1, lines); ok {
		t.Error("Apply took a region past the lines given")
	}
	if diff := cmp.Diff([]string{"a.py", "other.py"}, (&Fix{Replacements: []Replacement{{Path: "a.py"}, {Path: "other.py"}, {Path: "a.py"}}}).Paths()); diff != "" {
		t.Error(diff)
	}
}

func TestRulesBounds(t *testing.T) {
	var rs Rules
	long := strings.Repeat("é", MaxRuleText) // 2 bytes a character
	r := rs.Add("PMD", Rule{ID: "R", Short: "short", Full: long})
	if r == nil || len(r.Full) > MaxRuleText || !strings.HasSuffix(r.Full, "…") || r.Short != "short" || rs.Cut != 1 {
		t.Fatalf("a long text: %d bytes, cut %d", len(r.Full), rs.Cut)
	}
	if again := rs.Add("PMD", Rule{ID: "R", Short: "other"}); again != r {
		t.Error("a second Add of a rule replaced the first")
	}
	if got := rs.Lookup("PMD", "R/sub"); got != r {
		t.Error("a hierarchical id does not find its rule")
	}
	if rs.Lookup("Checkstyle", "R") != nil || (*Rules)(nil).Lookup("PMD", "R") != nil {
		t.Error("Lookup found a rule of another tool, or in a nil table")
	}
	for i := 0; rs.bytes+MaxRuleText <= MaxRuleBytes; i++ {
		rs.Add("PMD", Rule{ID: "F" + itoa(i), Full: long})
	}
	if r := rs.Add("PMD", Rule{ID: "over", Full: long, Name: "kept"}); r == nil || r.Full != "" || r.Name != "kept" {
		t.Errorf("past MaxRuleBytes: %+v", r)
	}
	for i := 0; rs.Len() < MaxRules; i++ {
		rs.Add("X", Rule{ID: itoa(i)})
	}
	// Past MaxRules: a rule with something to say is counted as left
	// out; one that is its id alone loses nothing.
	if rs.Add("X", Rule{ID: "bare"}) != nil || rs.Left != 0 || rs.Len() != MaxRules {
		t.Errorf("past MaxRules, an id alone: %d rules, %d left out", rs.Len(), rs.Left)
	}
	if rs.Add("X", Rule{ID: "one more", Short: "says"}) != nil || rs.Left != 1 || rs.Len() != MaxRules {
		t.Errorf("past MaxRules: %d rules, %d left out", rs.Len(), rs.Left)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
