package render

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/tokens"
)

const mixedDiff = `diff --git a/old.txt b/new.txt
similarity index 80%
rename from old.txt
rename to new.txt
--- a/old.txt
+++ b/new.txt
@@ -1,2 +1,2 @@
 keep
-old
+new
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
--- a/gone.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-a
-b
diff --git a/img.png b/img.png
new file mode 100644
index 0000000..1111111
Binary files /dev/null and b/img.png differ
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
diff --git a/doc|<b>.md b/doc|<b>.md
--- a/doc|<b>.md
+++ b/doc|<b>.md
@@ -3,3 +3,3 @@ heading
 text
-` + "```go" + `
+` + "````go" + `
 more
@@ -20,2 +20,2 @@
-  indented
+	indented
 end
`

func manyHunks(files, hunks int) string {
	var b strings.Builder
	for f := 0; f < files; f++ {
		fmt.Fprintf(&b, "diff --git a/src/F%d.java b/src/F%d.java\n--- a/src/F%d.java\n+++ b/src/F%d.java\n", f, f, f, f)
		for h := 0; h < hunks; h++ {
			l := 1 + h*20
			fmt.Fprintf(&b, "@@ -%d,3 +%d,3 @@\n     int a%d;\n-    return old(%d);\n+    return renamed(%d, true);\n     }\n", l, l, h, h, h)
		}
	}
	return b.String()
}

// largeDiff adds a file of 25,000 lines, past diff.MaxHunkLines: the view
// shows its counts, not its hunk.
func largeDiff() string {
	var b strings.Builder
	b.WriteString("diff --git a/gen/Big.java b/gen/Big.java\nnew file mode 100644\n--- /dev/null\n+++ b/gen/Big.java\n@@ -0,0 +1,25000 @@\n")
	for i := 1; i <= 25000; i++ {
		fmt.Fprintf(&b, "+    int generated%d;\n", i)
	}
	b.WriteString("diff --git a/src/A.java b/src/A.java\n--- a/src/A.java\n+++ b/src/A.java\n@@ -1,2 +1,2 @@\n class A {\n-  int a;\n+  int b;\n")
	return b.String()
}

// controlsDiff names a file and changes lines with ESC, BEL, CSI (U+009B)
// and a right-to-left override (U+202E): text and Markdown drop them, JSON
// escapes them.
const controlsDiff = "diff --git a/x\x1b[2Jy\u202e.go b/x\x1b[2Jy\u202e.go\n" +
	"--- a/x\x1b[2Jy\u202e.go\n+++ b/x\x1b[2Jy\u202e.go\n@@ -1,2 +1,2 @@\n ctx\x07\n-old\u009b31m\n+added\x1b]0;title\x07 \u202eevil\n"

func viewOf(t *testing.T, text string, opts summarize.DiffOptions) *summarize.DiffView {
	t.Helper()
	files, err := diff.Parse("t.diff", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return summarize.NewDiffView(files, opts)
}

// TestDiffRenderGolden: each diff scenario in each format, with and without a budget.
func TestDiffRenderGolden(t *testing.T) {
	counter, err := tokens.New(tokens.Max)
	if err != nil {
		t.Fatal(err)
	}
	scenarios := []struct {
		name   string
		text   string
		maxTok int
	}{
		{"mixed", mixedDiff, 0},
		{"capped", manyHunks(8, 4), 0},
		{"budget", manyHunks(8, 4), 600},
		{"empty", "", 0},
		{"large", largeDiff(), 0},
		{"controls", controlsDiff, 0},
	}
	for _, format := range Names(Diffs) {
		f, err := Lookup(Diffs, format)
		if err != nil {
			t.Fatal(err)
		}
		r := f.Diff
		for _, sc := range scenarios {
			t.Run(format+"/"+sc.name, func(t *testing.T) {
				var v *summarize.DiffView
				if sc.text == "" {
					v = summarize.NewDiffView(nil, summarize.DiffOptions{})
				} else {
					v = viewOf(t, sc.text, summarize.DiffOptions{})
				}
				if sc.maxTok > 0 {
					summarize.FitDiff(v, counter, sc.maxTok, r)
				}
				var buf bytes.Buffer
				if err := r.Render(&buf, v); err != nil {
					t.Fatal(err)
				}
				reportstest.Golden(t, filepath.Join("testdata", "diff-"+sc.name+"."+format+".golden"), buf.Bytes())
			})
		}
	}
}

// TestDiffFit is the maxTok's property test for diff views: over every
// corpus diff and generated ones, with random budgets, hunk caps and formats,
// the output stays within the maxTok by the exact o200k_base count and by
// chars/4; the hunks shown are the first ones, whole; every hunk left out is
// in a marker.
func TestDiffFit(t *testing.T) {
	dir, files := reportstest.Corpus(t)
	o200k, err := tokens.New(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	counter, _ := tokens.New(tokens.Max)
	texts := map[string]string{"generated-small": manyHunks(3, 2), "generated-large": manyHunks(60, 9)}
	for _, cf := range files {
		if cf.Dir() == "diffs" {
			b, err := os.ReadFile(filepath.Join(dir, cf.Path))
			if err != nil {
				t.Fatal(err)
			}
			texts[filepath.Base(cf.Path)] = string(b)
		}
	}
	rng := rand.New(rand.NewSource(11))
	runs, packed := 0, 0
	for name, text := range texts {
		parsed, err := diff.Parse(name, strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		for round := 0; round < 12; round++ {
			format := []string{"text", "markdown", "json"}[rng.Intn(3)]
			f, _ := Lookup(Diffs, format)
			r := f.Diff
			maxTok := budget.MinMaxTokens + rng.Intn(2000)
			if rng.Intn(3) == 0 {
				maxTok = budget.MinMaxTokens + rng.Intn(budget.MaxMaxTokens-budget.MinMaxTokens+1)
			}
			maxHunks := rng.Intn(summarize.MaxHunks + 1)
			label := fmt.Sprintf("%s/%s/maxTok=%d/maxHunks=%d", name, format, maxTok, maxHunks)

			full := summarize.NewDiffView(parsed, summarize.DiffOptions{MaxHunks: maxHunks})
			v := summarize.NewDiffView(parsed, summarize.DiffOptions{MaxHunks: maxHunks})
			summarize.FitDiff(v, counter, maxTok, r)
			var out strings.Builder
			if err := r.Render(&out, v); err != nil {
				t.Fatal(err)
			}
			runs++
			if n := o200k.Count(out.String()); n > maxTok {
				t.Errorf("%s: o200k count %d over the budget", label, n)
			}
			if n := (len([]rune(out.String())) + 3) / 4; n > maxTok {
				t.Errorf("%s: chars/4 %d over the budget", label, n)
			}
			if v.Tokens == nil || v.Tokens.Estimated > maxTok {
				t.Errorf("%s: tokens %+v", label, v.Tokens)
			}
			for i := range v.Hunks {
				if strings.Join(v.Hunks[i].Lines, "\n") != strings.Join(full.Hunks[i].Lines, "\n") {
					t.Errorf("%s: hunk %d not whole", label, i)
				}
			}
			if len(v.Hunks) < len(full.Hunks) || len(v.Files) < len(full.Files) {
				packed++
				if len(v.Omitted) == len(full.Omitted) {
					t.Errorf("%s: %d of %d hunks and %d of %d files shown, and no marker says so",
						label, len(v.Hunks), len(full.Hunks), len(v.Files), len(full.Files))
				}
			}
			if v.Summary != full.Summary {
				t.Errorf("%s: the summary changed: %+v", label, v.Summary)
			}
		}
	}
	t.Logf("%d runs, %d packed", runs, packed)
	if packed == 0 {
		t.Error("no run needed packing: the test does not test the packer")
	}
}
