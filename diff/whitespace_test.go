package diff_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/gittest"
)

func oneHunk(t *testing.T, body string) diff.Hunk {
	t.Helper()
	files, err := diff.Parse("t.diff", strings.NewReader("--- a/f\n+++ b/f\n"+body))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || len(files[0].Hunks) != 1 {
		t.Fatalf("want one file with one hunk: %+v", files)
	}
	return files[0].Hunks[0]
}

// TestWhitespaceKinds: one case per kind of whitespace change, and the
// changes that are not whitespace.
func TestWhitespaceKinds(t *testing.T) {
	tests := []struct {
		name, body string
		wsOnly     bool
	}{
		{"spaces to a tab", "@@ -1,2 +1,2 @@\n-    x = 1;\n+\tx = 1;\n y\n", true},
		{"re-indent a block", "@@ -1,3 +1,3 @@\n-  a;\n-  b;\n+    a;\n+    b;\n c\n", true},
		{"trailing blanks", "@@ -1 +1 @@\n-x = 1;   \n+x = 1;\n", true},
		{"spaces inside", "@@ -1 +1 @@\n-f(a,b)\n+f( a, b )\n", true},
		{"CRLF to LF", "@@ -1,2 +1,2 @@\n-one\r\n-two\r\n+one\n+two\n", true},
		{"blank line added", "@@ -1,2 +1,3 @@\n a\n+\n b\n", true},
		{"blank lines removed", "@@ -1,4 +1,2 @@\n a\n-\n-   \n b\n", true},
		{"final newline added", "@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n", true},
		{"re-indent and a blank line", "@@ -1,2 +1,3 @@\n-  a\n+\ta\n+\n b\n", true},
		{"a real change", "@@ -1 +1 @@\n-x = 1;\n+x = 2;\n", false},
		{"a line added", "@@ -1 +1,2 @@\n a\n+b\n", false},
		{"a line removed", "@@ -1,2 +1 @@\n a\n-b\n", false},
		{"a line split in two", "@@ -1 +1,2 @@\n-f(a, b)\n+f(a,\n+  b)\n", false},
		{"whitespace, then a real change", "@@ -1,4 +1,4 @@\n-  a\n+\ta\n b\n c\n-d\n+e\n", false},
		{"a line moved within the hunk", "@@ -1,3 +1,3 @@\n-a\n b\n+a\n c\n", false},
		// A block re-indented, git's diff pairing a closing brace of the
		// new side with another of the old, kept as context between.
		{"re-indent across a brace kept", "@@ -1,5 +1,5 @@\n-a {\n-    b {\n-        c;\n+    a {\n+        b {\n+            c;\n+        }\n     }\n-}\n", true},
		{"a brace moved across one kept", "@@ -1,2 +1,2 @@\n-  }\n   }\n+  } else {\n", false},
		// git diff -w --ignore-blank-lines shows the brace moved.
		{"a brace moved across a blank line", "@@ -1,4 +1,4 @@\n   x++;\n-  }\n \n+  }\n }\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := oneHunk(t, tc.body)
			if got := h.WhitespaceOnly(); got != tc.wsOnly {
				t.Errorf("WhitespaceOnly = %v, want %v", got, tc.wsOnly)
			}
		})
	}
}

// TestWhitespaceLikeGit: the hunks recap keeps are those in which git diff
// -w --ignore-blank-lines still shows a change.
func TestWhitespaceLikeGit(t *testing.T) {
	g := gittest.New(t)
	base := lines(120, func(i int) string { return fmt.Sprintf("    stmt(%d);", i) })
	g.Commit("base", map[string]string{"A.java": base, "B.java": base,
		"C.java": "class C {\n    int count(String path) {\n        int lines = 0;\n        try {\n            Reader r = open(path);\n            while (r.readLine() != null) {\n                lines++;\n            }\n        } catch (IOException e) {\n        }\n        return lines;\n    }\n}\n"})
	edit := func(s string, edits map[int]string) string {
		l := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
		for i := len(l); i >= 1; i-- {
			if e, ok := edits[i]; ok {
				l[i-1] = e
			}
		}
		return strings.Join(l, "\n") + "\n"
	}
	g.Commit("edits", map[string]string{
		"A.java": edit(base, map[int]string{
			5:   "\tstmt(5);",                  // re-indent
			20:  "    stmt(20);   ",            // trailing blanks
			35:  "    stmt(35);\n",             // a blank line added
			50:  "    stmt(50); // real",       // a real change
			65:  "    stmt( 65 );",             // spaces inside
			80:  "\tstmt(80);\n    stmt(81b);", // whitespace and a real change in one hunk
			100: "    stmt(100);\r",            // CRLF
		}),
		// A form feed, a vertical tab and a non-breaking space are text
		// to git: their hunks are kept.
		"B.java": edit(base, map[int]string{10: "  stmt(10);", 30: "\f    stmt(30);", 60: "    stmt(60);\n\n", 90: "    stmt(90);\v",
			110: "    stmt(\u00a0110);"}),
		// A block re-indented: git's diff keeps a closing brace as
		// context between its two runs of changed lines.
		"C.java": "class C {\n    int count(String path) {\n            int lines = 0;\n            try {\n                Reader r = open(path);\n                while (r.readLine() != null) {\n                    lines++;\n                }\n            } catch (IOException e) {\n            }\n            return lines;\n    }\n}\n",
	})
	repo, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	files, err := repo.Revisions(context.Background(), "HEAD~1", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	wsFiles, err := diff.Parse("git diff -w", strings.NewReader(g.Git("diff", "-w", "--ignore-blank-lines", "HEAD~1", "HEAD")))
	if err != nil {
		t.Fatal(err)
	}
	// changed[path] holds the new-side line numbers of git's -w changes,
	// and of the line after a deletion.
	changed := map[string]map[int]bool{}
	for _, f := range wsFiles {
		changed[f.Path()] = map[int]bool{}
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.Kind == diff.Add {
					changed[f.Path()][l.New] = true
				}
			}
		}
	}
	kept, dropped := 0, 0
	for _, f := range files {
		for _, h := range f.Hunks {
			gitKeeps := false
			for n := h.NewStart; n < h.NewStart+h.NewLines; n++ {
				gitKeeps = gitKeeps || changed[f.Path()][n]
			}
			if h.WhitespaceOnly() == gitKeeps {
				t.Errorf("%s @@ -%d,%d +%d,%d: recap drops it: %v, git -w keeps it: %v", f.Path(), h.OldStart, h.OldLines, h.NewStart, h.NewLines, h.WhitespaceOnly(), gitKeeps)
			}
			if h.WhitespaceOnly() {
				dropped++
			} else {
				kept++
			}
		}
	}
	if kept != 5 || dropped != 8 {
		t.Errorf("kept %d hunks and dropped %d, want 5 and 8", kept, dropped)
	}
}
