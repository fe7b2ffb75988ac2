package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/summarize/render"
)

// TestOutputFormatsAgree: the --format help of every command, recap --help
// and docs/cli.md name the formats of render's table, the default first.
func TestOutputFormatsAgree(t *testing.T) {
	kinds := map[string]render.Kind{"summary": render.Findings, "findings": render.Findings,
		"diff": render.Diffs, "tokens": render.TokenCounts, "review": render.Reviews}
	for _, cmd := range newRoot(&IO{}).Commands() {
		f := cmd.Flags().Lookup("format")
		if f == nil {
			continue
		}
		k, ok := kinds[cmd.Name()]
		if !ok {
			t.Errorf("recap %s takes --format but writes no kind of output of render's table", cmd.Name())
			continue
		}
		want := render.Names(k)
		if diff := cmp.Diff(want, helpNames(f.Usage)); diff != "" {
			t.Errorf("recap %s --format's help %q (-table +help):\n%s", cmd.Name(), f.Usage, diff)
		}
		if f.DefValue != want[0] {
			t.Errorf("recap %s --format's default is %s, want %s", cmd.Name(), f.DefValue, want[0])
		}
	}

	var out bytes.Buffer
	if code := Main(context.Background(), []string{"--help"}, nil, &out, &out); code != 0 {
		t.Fatalf("recap --help exits %d: %s", code, out.String())
	}
	help := out.String()
	if line := lineAfter(help, "Output formats: "); !cmp.Equal(helpNames(line), render.Names(render.Findings)) {
		t.Errorf("recap --help's output formats %q, want %v", line, render.Names(render.Findings))
	}
	if line := lineAfter(help, "Report formats: "); !strings.HasPrefix(line, parsers.FormatTitles("and")) {
		t.Errorf("recap --help's report formats %q, want %s", line, parsers.FormatTitles("and"))
	}

	doc, err := os.ReadFile(filepath.Join(reportstest.RepoRoot(t), "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]render.Kind{"Flags of summary and findings": render.Findings,
		"recap diff": render.Diffs, "recap tokens": render.TokenCounts, "recap review": render.Reviews}
	for title, k := range sections {
		rows := tableRows(t, doc, title, "| `--format")
		if len(rows) != 1 {
			t.Errorf("docs/cli.md, %q: %d rows of --format, want 1", title, len(rows))
			continue
		}
		if diff := cmp.Diff(render.Names(k), docNames(rows[0])); diff != "" {
			t.Errorf("docs/cli.md, %q, --format (-table +doc):\n%s", title, diff)
		}
	}
	var listed []string
	for _, row := range tableRows(t, doc, "Output formats", "| `") {
		listed = append(listed, docNames(strings.SplitN(row, "|", 3)[1])...)
	}
	slices.Sort(listed)
	want := slices.Sorted(slices.Values(render.Names(render.Findings)))
	if diff := cmp.Diff(want, listed); diff != "" {
		t.Errorf("docs/cli.md, \"Output formats\" (-table +doc):\n%s", diff)
	}
}

// lineAfter returns the rest of the line of s that starts with prefix.
func lineAfter(s, prefix string) string {
	for line := range strings.Lines(s) {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}

// parens matches a parenthesized remark, one level of nesting inside.
var parens = regexp.MustCompile(`\s*\((?:[^()]|\([^()]*\))*\)`)

// helpNames lists the names of a help's list, "text, markdown (…) or
// json" after what it is ("output format: "), remarks left out.
func helpNames(help string) []string {
	list := parens.ReplaceAllString(help, "")
	if _, after, ok := strings.Cut(list, ": "); ok {
		list = after
	}
	return strings.Split(strings.ReplaceAll(list, " or ", ", "), ", ")
}

var code = regexp.MustCompile("`([^`]+)`")

// docNames lists the names that a docs' table row gives in code spans,
// remarks left out: "`--format json` or `markdown`", "`text` (default),
// `markdown` or `json`".
func docNames(row string) []string {
	var out []string
	for _, m := range code.FindAllStringSubmatch(parens.ReplaceAllString(row, ""), -1) {
		if name := strings.TrimPrefix(m[1], "--format "); name != "NAME" && !strings.HasPrefix(name, "--") {
			out = append(out, name)
		}
	}
	return out
}

// tableRows returns the lines of a section of doc (## title) that start
// with prefix.
func tableRows(t *testing.T, doc []byte, title, prefix string) []string {
	t.Helper()
	_, rest, ok := strings.Cut(string(doc), "\n## "+title+"\n")
	if !ok {
		t.Fatalf("docs/cli.md has no section %q", title)
	}
	rest, _, _ = strings.Cut(rest, "\n## ")
	var rows []string
	for line := range strings.Lines(rest) {
		if strings.HasPrefix(line, prefix) {
			rows = append(rows, line)
		}
	}
	return rows
}
