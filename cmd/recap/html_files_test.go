package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fileViewState is what the test reads of the file view.
const fileViewState = `(() => {
  const a = document.activeElement;
  return {
    status: document.getElementById('file-status').textContent,
    lines: document.querySelectorAll('#file-body pre .line').length,
    hits: Array.from(document.querySelectorAll('#file-body pre .line.hit .ln')).map(e => +e.textContent),
    marks: document.querySelectorAll('#file-body button.mark').length,
    focusLine: a && a.closest('.line') ? +a.closest('.line').querySelector('.ln').textContent : 0,
    files: document.querySelectorAll('#file-select option').length - 1,
  };
})()`

type fileView struct {
	Status           string
	Lines, Marks     int
	Hits             []int
	FocusLine, Files int
}

// TestHTMLFileViewInBrowser: with the source at hand, a problem opened
// shows its file in the file view, its findings' lines marked (every
// problem of the file recap's JSON view lists, on its line), the focus on
// its mark; a mark opens its problem in the list, focused; the files with
// findings are in the view's list. A file of 100,000 lines with a finding
// on every 20th shows at most 2,000 lines of it, saying so, and its page
// stays small. No request, nothing logged, axe-core clean.
func TestHTMLFileViewInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser tests are slow")
	}
	sample := []string{"--repo", "testdata/sample", "testdata/reports"}
	problems := findingsJSON(t, sample...)
	for _, dark := range []bool{false, true} {
		t.Run(map[bool]string{false: "sample", true: "sample-dark"}[dark], func(t *testing.T) { fileViewSample(t, problems, sample, dark) })
	}
	t.Run("charts", func(t *testing.T) {
		// The bars of the tools, rules and directories filter the list;
		// those of the files open the file view; from the keyboard too.
		byTool, byDir := map[string]int{}, map[string]int{}
		for _, f := range problems.Findings {
			byTool[f.Tool]++
			if k := strings.LastIndex(f.Path, "/"); k > 0 {
				byDir[f.Path[:k]]++
			}
		}
		page := htmlPage(t, append([]string{"summary"}, sample...)...)
		b := newBrowser(t, false)
		b.open(t, page)
		var got []struct {
			Label, Filter, Status string
			Matched               int
			Tools                 []string
		}
		b.eval(t, `(() => {
  const out = [];
  for (const fig of document.querySelectorAll('#charts figure')) {
    const title = fig.querySelector('figcaption').textContent;
    const bar = fig.querySelector('g.pick');
    if (!bar) continue;
    bar.focus();
    bar.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}));
    const a = document.activeElement;
    out.push({
      label: title + '|' + bar.getAttribute('aria-label'),
      filter: a && a.id ? a.id + '=' + a.value : '',
      status: document.getElementById('file-status').textContent,
      matched: +document.getElementById('status').dataset.matched,
      tools: Array.from(document.querySelectorAll('#list > li .tool')).map(e => e.textContent),
    });
  }
  return out;
})()`, &got)
		seen := map[string]bool{}
		for _, g := range got {
			title, label, _ := strings.Cut(g.Label, "|")
			shown, _, _ := strings.Cut(label, " (") // "SpotBugs 50 (filter the problems by tool)"
			name := shown[:strings.LastIndex(shown, " ")]
			seen[title] = true
			switch title {
			case "Findings by tool":
				ok := g.Matched == byTool[name] && g.Filter != "" && strings.HasPrefix(g.Filter, "filter-tool=")
				for _, tool := range g.Tools {
					ok = ok && tool == name
				}
				if !ok {
					t.Errorf("%s, bar %s: %+v, want its %d problems", title, name, g, byTool[name])
				}
			case "Top rules":
				if !strings.HasPrefix(g.Filter, "filter-rule=") || g.Matched == 0 || g.Matched == len(problems.Findings) {
					t.Errorf("%s, bar %s: %+v", title, name, g)
				}
			case "Directories by problems":
				if g.Filter != "filter-path="+name+"/" || g.Matched != byDir[name] {
					t.Errorf("%s, bar %s: %+v, want its %d problems", title, name, g, byDir[name])
				}
			case "Quality × impact":
				if !strings.HasPrefix(g.Filter, "filter-impact=") || g.Matched == 0 || g.Matched == len(problems.Findings) {
					t.Errorf("%s, cell %s: %+v", title, name, g)
				}
			case "Files by problems":
				if _, path, _ := strings.Cut(g.Status, ": "); !strings.HasSuffix(strings.TrimSuffix(g.Status, ": "+path), strings.TrimPrefix(name, "…")) {
					t.Errorf("%s, bar %s: the file view shows %q", title, name, g.Status)
				}
			}
		}
		if len(seen) != 5 {
			t.Errorf("charts with bars to pick: %v, want 5", seen)
		}
		if v := b.axe(t); len(v) > 0 {
			t.Errorf("axe-core: %s", strings.Join(v, "\n"))
		}
		b.quiet(t, page)
	})
	t.Run("large", func(t *testing.T) {
		dir := t.TempDir()
		const lines, every = 100_000, 20
		var src strings.Builder
		for i := 1; i <= lines; i++ {
			fmt.Fprintf(&src, "    int x%d = %d; // line %d\n", i, i, i)
		}
		os.MkdirAll(filepath.Join(dir, "src"), 0o755)
		if err := os.WriteFile(filepath.Join(dir, "src", "Big.java"), []byte(src.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		var results []string
		for l := every; l <= lines; l += every {
			results = append(results, fmt.Sprintf(`{"ruleId":"R1","level":"warning","message":{"text":"finding on line %d"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/Big.java"},"region":{"startLine":%d}}}]}`, l, l))
		}
		report := filepath.Join(dir, "big.sarif")
		sarif := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Lint","rules":[{"id":"R1"}]}},"results":[` + strings.Join(results, ",") + `]}]}`
		if err := os.WriteFile(report, []byte(sarif), 0o644); err != nil {
			t.Fatal(err)
		}
		page := htmlPage(t, "findings", "--repo", dir, report)
		st, err := os.Stat(page)
		if err != nil {
			t.Fatal(err)
		}
		b := newBrowser(t, false)
		b.open(t, page)
		var got fileView
		b.eval(t, `(() => {
  const s = document.getElementById('file-select');
  s.value = 'src/Big.java';
  s.dispatchEvent(new Event('change'));
  return `+fileViewState+`;
})()`, &got)
		var left string
		b.eval(t, `document.getElementById('file-body').lastElementChild.textContent`, &left)
		if got.Lines > 2000 || got.Lines < 1900 || got.Marks == 0 || !strings.Contains(left, "left out") ||
			!strings.HasPrefix(got.Status, "src/Big.java: 5,000 problems, ") {
			t.Errorf("the large file's view: %+v, %q; want at most 2,000 lines and a note", got, left)
		}
		t.Logf("a page of %d findings in a file of %d lines: %d KB, %d lines in the file view", lines/every, lines, st.Size()>>10, got.Lines)
		if st.Size() > 4<<20 {
			t.Errorf("the page is %d bytes", st.Size())
		}
		b.quiet(t, page)
	})
}

func containsInt(list []int, n int) bool {
	for _, l := range list {
		if l == n {
			return true
		}
	}
	return false
}

// fileViewSample opens the SQL injection of the sample in the file view,
// in light or dark mode.
func fileViewSample(t *testing.T, problems jsonFindings, sample []string, dark bool) {
	var sql struct {
		id, path string
		line     int
	}
	inFile := map[string][]int{}
	for _, f := range problems.Findings {
		inFile[f.Path] = append(inFile[f.Path], f.Line)
		if strings.Contains(f.Message, "nonconstant String") {
			sql.id, sql.path, sql.line = f.ID, f.Path, f.Line
		}
	}
	if sql.id == "" {
		t.Fatal("no SQL injection in the sample")
	}
	page := htmlPage(t, append([]string{"summary"}, sample...)...)
	b := newBrowser(t, dark)
	b.open(t, page)
	var got fileView
	b.eval(t, `(async () => {
  const li = document.querySelector('#list > li[data-id=`+jsString(sql.id)+`]');
  li.querySelector('summary').click();
  await new Promise(r => setTimeout(r, 50));
  li.querySelector('button.open-file').click();
  return `+fileViewState+`;
})()`, &got)
	want := len(inFile[sql.path])
	if !strings.HasPrefix(got.Status, sql.path+": "+strconv.Itoa(want)+" problem") || got.Marks != want || got.Files != len(inFile) {
		t.Errorf("file view %+v; want %s with %d problems marked, %d files", got, sql.path, want, len(inFile))
	}
	if got.FocusLine != sql.line {
		t.Errorf("the focus is on line %d, want the problem's %d", got.FocusLine, sql.line)
	}
	for _, l := range inFile[sql.path] {
		if !containsInt(got.Hits, l) {
			t.Errorf("line %d of %s is not marked (marked: %v)", l, sql.path, got.Hits)
		}
	}
	if v := b.axe(t); len(v) > 0 {
		t.Errorf("axe-core, with the file view open: %s", strings.Join(v, "\n"))
	}
	// A mark opens its problem in the list, from the keyboard too.
	var opened struct {
		Open    bool
		Focused string
	}
	b.eval(t, `(async () => {
  const other = Array.from(document.querySelectorAll('#file-body button.mark')).find(b => +b.closest('.line').querySelector('.ln').textContent !== `+strconv.Itoa(sql.line)+`);
  other.focus();
  other.click();
  await new Promise(r => setTimeout(r, 50));
  const a = document.activeElement;
  const li = a.closest('#list > li');
  return {open: !!li && li.querySelector('details').open, focused: li ? li.dataset.id : a.tagName};
})()`, &opened)
	if !opened.Open || opened.Focused == "" || opened.Focused == sql.id {
		t.Errorf("a mark opened %+v, want another problem of %s open and focused", opened, sql.path)
	}
	b.quiet(t, page)
}
