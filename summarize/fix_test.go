package summarize

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/reports"
)

// linesSource serves files from memory.
type linesSource map[string][]string

func (s linesSource) Lines(path string, from, to int) ([]string, error) {
	lines, ok := s[path]
	if !ok {
		return nil, errors.New("no such file")
	}
	to = min(to, len(lines))
	if from > to {
		return nil, errors.New("past the end")
	}
	return lines[from-1 : to], nil
}

func TestFixDiff(t *testing.T) {
	src := linesSource{"a.py": {"def f(inputs, x):", "  inputs[x] = 1", "  if inputs[x + 1] == True:", "    return 1"}}
	tests := map[string]struct {
		fix   reports.Fix
		diff  string
		notes []string
	}{
		"one region": {reports.Fix{Replacements: []reports.Replacement{{Path: "a.py", Line: 2, Column: 3, EndColumn: 12, Text: "inputs.get(x)"}}},
			"--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,3 @@\n def f(inputs, x):\n-  inputs[x] = 1\n+  inputs.get(x) = 1\n   if inputs[x + 1] == True:\n", nil},
		"two lines, unchanged ones are context": {reports.Fix{Replacements: []reports.Replacement{
			{Path: "a.py", Line: 2, Column: 3, EndColumn: 3, Text: "# "},
			{Path: "a.py", Line: 4, Column: 5, EndColumn: 13, Text: "return 2"}}},
			"--- a/a.py\n+++ b/a.py\n@@ -1,4 +1,4 @@\n def f(inputs, x):\n-  inputs[x] = 1\n-  if inputs[x + 1] == True:\n-    return 1\n+  # inputs[x] = 1\n+  if inputs[x + 1] == True:\n+    return 2\n", nil},
		"a whole line deleted, last line": {reports.Fix{Replacements: []reports.Replacement{{Path: "a.py", Line: 4, EndLine: 4, Text: ""}}},
			"--- a/a.py\n+++ b/a.py\n@@ -3,2 +3,2 @@\n   if inputs[x + 1] == True:\n-    return 1\n+\n", nil},
		"the file is gone": {reports.Fix{Replacements: []reports.Replacement{{Path: "b.py", Line: 3, Column: 2, EndColumn: 4, Text: "x\ny"}}},
			"--- a/b.py\n+++ b/b.py\n@@ -3,1 +3,2 @@ replaces 3:2-3:4\n+x\n+y\n", []string{"b.py: no such file; the fix's replacements are shown alone"}},
		"the file changed": {reports.Fix{Replacements: []reports.Replacement{{Path: "a.py", Line: 2, Column: 30, EndColumn: 31, Text: "x"}}},
			"--- a/a.py\n+++ b/a.py\n@@ -2,1 +2,1 @@ replaces 2:30-2:31\n+x\n",
			[]string{"a.py: its regions do not fit the file's lines 2-2 (the file may have changed since the report); the fix's replacements are shown alone"}},
		"past the end": {reports.Fix{Replacements: []reports.Replacement{{Path: "a.py", Line: 9, Text: "x"}}},
			"--- a/a.py\n+++ b/a.py\n@@ -9,1 +9,1 @@ replaces line 9\n+x\n", []string{"a.py: past the end; the fix's replacements are shown alone"}},
		"regions of characters": {reports.Fix{Replacements: []reports.Replacement{{Path: "a.py", Offset: 40, Length: 4, Text: "JSON.parse"}}},
			"--- a/a.py\n+++ b/a.py\n@@ replaces the 4 characters at offset 40 @@\n+JSON.parse\n",
			[]string{"a.py: the fix's regions are given by characters, which recap could not place on lines (the file was not at hand when the report was read); its replacements are shown alone"}},
		"in words alone": {reports.Fix{Description: "Upgrade to 2.0"}, "", nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			diff, notes := FixDiff(&tc.fix, src)
			if d := cmp.Diff(tc.diff, diff); d != "" {
				t.Errorf("diff (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.notes, notes); d != "" {
				t.Errorf("notes (-want +got):\n%s", d)
			}
		})
	}
}
