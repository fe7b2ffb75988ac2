package main

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/render"
)

// elideHTMLAssets leaves the page's script and style sheet out of a
// golden: its CSP line names their hashes, so a change of either shows.
var htmlAssets = regexp.MustCompile(`(?s)<style>.*?</style>|<script>.*?</script>`)

func elideHTMLAssets(page string) string {
	return htmlAssets.ReplaceAllStringFunc(page, func(s string) string {
		if strings.HasPrefix(s, "<style>") {
			return "<style>/* report.css */</style>"
		}
		return "<script>/* report.js */</script>"
	})
}

// TestHTMLOutput: --format html writes the page to --output (nothing on
// standard output) or to standard output, the same page; the sample's
// page is pinned by a golden, its script and style sheet by their hashes.
func TestHTMLOutput(t *testing.T) {
	root := reportstest.RepoRoot(t)
	out := filepath.Join(t.TempDir(), "report.html")
	stdout, stderr, code := recap(t, root, nil, "summary", "--format", "html", "--output", out, "--repo", "testdata/sample", "testdata/reports")
	if code != 0 || stdout != "" {
		t.Fatalf("recap summary --format html --output: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	reportstest.Golden(t, filepath.Join(root, "testdata", "golden", "summary.html"), []byte(elideHTMLAssets(string(page))))
	again, _, code := recap(t, root, nil, "summary", "--format", "html", "--repo", "testdata/sample", "testdata/reports")
	if code != 0 || again != string(page) {
		t.Errorf("the page on standard output differs from --output's (exit %d)", code)
	}
	_, stderr, code = recap(t, root, nil, "summary", "--format", "html", "--output", filepath.Join(t.TempDir(), "no", "such", "dir", "r.html"), "testdata/reports")
	if code == 0 || !strings.Contains(stderr, "--output") {
		t.Errorf("--output into a missing directory: exit %d, stderr %s", code, stderr)
	}
}

// historyDir writes recap's JSON summaries of two earlier runs of the
// sample, PMD's alone then PMD's and Checkstyle's, into a directory.
func historyDir(t *testing.T) string {
	t.Helper()
	root := reportstest.RepoRoot(t)
	dir := t.TempDir()
	for name, reports := range map[string][]string{
		"run-1.json": {"testdata/reports/pmd.sarif"},
		"run-2.json": {"testdata/reports/pmd.sarif", "testdata/reports/checkstyle.xml"},
	} {
		out, stderr, code := recap(t, root, nil, append([]string{"summary", "--format", "json", "--repo", "testdata/sample"}, reports...)...)
		if code != 0 {
			t.Fatalf("recap summary: exit %d: %s", code, stderr)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestHTMLHistory: --history reads recap's JSON summaries of earlier runs,
// oldest first, into the page's trend: each run's problems, and its
// problems by impact (its findings' less the duplicates'); a file that is
// no summary, and --history with another format, are usage errors.
func TestHTMLHistory(t *testing.T) {
	root := reportstest.RepoRoot(t)
	dir := historyDir(t)
	page := htmlPage(t, "summary", "--history", dir, "--repo", "testdata/sample", "testdata/reports")
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<script type="application/json" id="recap-meta">(.*?)</script>`).FindSubmatch(b)
	var meta struct {
		History []struct {
			Label    string
			Problems int
			ByImpact map[string]int
		}
	}
	if m == nil || json.Unmarshal(m[1], &meta) != nil {
		t.Fatal("no data in the page")
	}
	pmd := summaryJSON(t, "--repo", "testdata/sample", "testdata/reports/pmd.sarif")
	two := summaryJSON(t, "--repo", "testdata/sample", "testdata/reports/pmd.sarif", "testdata/reports/checkstyle.xml")
	if len(meta.History) != 2 || meta.History[0].Label != "run-1" || meta.History[0].Problems != pmd.Summary.Problems ||
		meta.History[1].Label != "run-2" || meta.History[1].Problems != two.Summary.Problems {
		t.Errorf("history %+v, want run-1 with %d problems, run-2 with %d", meta.History, pmd.Summary.Problems, two.Summary.Problems)
	}
	for _, h := range meta.History {
		n := 0
		for _, c := range h.ByImpact {
			n += c
		}
		if n != h.Problems {
			t.Errorf("%s: %d problems by impact, %d in all", h.Label, n, h.Problems)
		}
	}
	notSummary := filepath.Join(t.TempDir(), "x.json")
	os.WriteFile(notSummary, []byte(`{"runs": []}`), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"summary", "--format", "json", "--history", dir, "testdata/reports"}, "--history applies to --format html"},
		{[]string{"summary", "--format", "html", "--history", notSummary, "testdata/reports"}, "--history " + notSummary + ": not recap's JSON summary"},
		{[]string{"summary", "--format", "html", "--history", filepath.Join(dir, "nope.json"), "testdata/reports"}, "--history " + filepath.Join(dir, "nope.json") + ": "},
	} {
		_, stderr, code := recap(t, root, nil, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("recap %v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// chromium finds Debian's chromium, or skips.
func chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("chromium is not installed (Debian package chromium; scripts/test installs it): the HTML report's browser tests are skipped")
	return ""
}

// browser is a headless Chromium page that records every request that
// leaves it, every console message, exception and log entry.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	requests []string
	console  []string
}

func newBrowser(t testing.TB, dark bool) *browser {
	t.Helper()
	exe := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.WindowSize(1280, 900),
		chromedp.Flag("disable-gpu", true), chromedp.Flag("lang", "en-US"))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelTime(); cancel(); cancelAlloc() })
	b := &browser{ctx: ctx}
	if err := chromedp.Listen(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			b.requests = append(b.requests, ev.Request.URL)
		case *runtime.EventConsoleAPICalled:
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			b.console = append(b.console, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			desc := ""
			if d.Exception != nil {
				desc = d.Exception.Description
			}
			b.console = append(b.console, fmt.Sprintf("exception: %s %s at %d:%d", d.Text, desc, d.LineNumber, d.ColumnNumber))
		case *log.EventEntryAdded:
			b.console = append(b.console, fmt.Sprintf("log %s %s: %s", ev.Entry.Source, ev.Entry.Level, ev.Entry.Text))
		}
	}); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	scheme := "light"
	if dark {
		scheme = "dark"
	}
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, tg, log.Enable, cdp.Empty{}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, tg, runtime.Enable, cdp.Empty{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	})); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	return b
}

// open loads the page from file:// and waits until its list is ready.
func (b *browser) open(t testing.TB, page string) {
	t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Navigate("file://"+page), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`))); err != nil {
		t.Fatalf("opening %s: %v (console: %v)", page, err, b.console)
	}
}

func (b *browser) eval(t testing.TB, js string, out any) {
	t.Helper()
	raw, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]byte](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%.300s: %v", js, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%.300s: %v", js, err)
		}
	}
}

// quiet checks that nothing but the page itself was requested and that
// nothing was logged.
func (b *browser) quiet(t testing.TB, page string) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, u := range b.requests {
		if u != "file://"+page {
			t.Errorf("the page made a request: %s", u)
		}
	}
	for _, c := range b.console {
		t.Errorf("the page logged: %s", c)
	}
}

// axe runs axe-core on the page and returns its serious and critical
// violations.
func (b *browser) axe(t testing.TB) []string {
	t.Helper()
	path := filepath.Join(reportstest.RepoRoot(t), "node_modules", "axe-core", "axe.min.js")
	if p := os.Getenv("RECAP_AXE"); p != "" {
		path = p
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Logf("axe-core is not installed (%v; scripts/test installs it from npm): the accessibility check is skipped", err)
		return nil
	}
	var res []string
	b.eval(t, string(src)+`;
axe.run(document, {resultTypes: ['violations']}).then(r => r.violations
  .filter(v => v.impact === 'serious' || v.impact === 'critical')
  .map(v => v.id + ' (' + v.impact + '): ' + v.help + ': ' + v.nodes.map(n => n.target.join(' ')).slice(0, 5).join(', ')))`, &res)
	return res
}

// htmlPage writes recap's page of args into a temporary file.
func htmlPage(t testing.TB, args ...string) string {
	t.Helper()
	root := reportstest.RepoRoot(t)
	out := filepath.Join(t.TempDir(), "report.html")
	_, stderr, code := recap(t.(*testing.T), root, nil, append([]string{"--format", "html", "--output", out}, args...)...)
	if code != 0 && code != 1 {
		t.Fatalf("recap %v: exit %d: %s", args, code, stderr)
	}
	return out
}

// summaryJSON is recap summary --format json of args.
func summaryJSON(t *testing.T, args ...string) (s struct {
	Summary struct {
		Total, Problems, Files int
		ByTool                 map[string]int
	}
}) {
	t.Helper()
	out, stderr, code := recap(t, reportstest.RepoRoot(t), nil, append([]string{"summary", "--format", "json", "--max-tokens", "25000"}, args...)...)
	if code != 0 {
		t.Fatalf("recap summary %v: exit %d: %s", args, code, stderr)
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// pageState is what the test reads of the page.
const pageState = `(() => ({
  problems: +document.getElementById('count-problems').dataset.count,
  findings: +document.getElementById('count-findings').dataset.count,
  files: +document.getElementById('count-files').dataset.count,
  matched: +document.getElementById('status').dataset.matched,
  shown: document.querySelectorAll('#list > li').length,
  charts: Array.from(document.querySelectorAll('#charts figcaption')).map(c => c.textContent),
}))()`

type shownState struct {
	Problems, Findings, Files, Matched, Shown int
	Charts                                    []string
}

// setFilter sets a filter control and returns the rows shown after it:
// their ids and their text.
const setFilter = `((id, value) => {
  const c = document.getElementById(id);
  if (c.tagName === 'SELECT') {
    const o = Array.from(c.options).find(o => o.textContent.startsWith(value));
    c.value = o ? o.value : '__none__';
    c.dispatchEvent(new Event('change'));
  } else {
    c.value = value;
    c.dispatchEvent(new Event('input'));
  }
  return Array.from(document.querySelectorAll('#list > li')).map(li => li.dataset.id + '\t' + li.querySelector('summary').textContent);
})`

// TestHTMLInBrowser opens the sample's page in headless Chromium from
// file://: its counts are recap summary --format json's, its filters and
// search keep the rows they should, a problem opens to its code, its
// rule's text and the other tools that report it; it makes no request,
// logs nothing, and axe-core finds no serious violation, in light and dark
// mode. The screenshots of docs/ are made here (-update).
func TestHTMLInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser tests are slow")
	}
	root := reportstest.RepoRoot(t)
	sample := []string{"--repo", "testdata/sample", "testdata/reports"}
	want := summaryJSON(t, sample...)
	problems := findingsJSON(t, sample...)
	runs := historyDir(t)
	for _, tc := range []struct {
		name  string
		args  []string
		dark  bool
		shots string // the screenshot under docs/, "" for none
	}{
		{"light", append([]string{"summary", "--history", runs}, sample...), false, "html-report.png"},
		{"dark", append([]string{"summary", "--history", runs}, sample...), true, "html-report-dark.png"},
		// The data deflated in the page, inflated by the browser.
		{"compressed", append([]string{"findings"}, sample...), false, ""},
		// A string table cut short: the rows hold their strings.
		{"bounded", nil, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var page string
			switch tc.name {
			case "bounded":
				page = boundedPage(t)
			case "compressed":
				page = compressedPage(t, htmlPage(t, tc.args...))
			default:
				page = htmlPage(t, tc.args...)
			}
			b := newBrowser(t, tc.dark)
			b.open(t, page)
			var got shownState
			b.eval(t, pageState, &got)
			if got.Problems != want.Summary.Problems || got.Findings != want.Summary.Total || got.Files != want.Summary.Files || got.Matched != want.Summary.Problems {
				t.Errorf("page counts %+v, want problems %d, findings %d, files %d", got, want.Summary.Problems, want.Summary.Total, want.Summary.Files)
			}
			if got.Shown != min(100, want.Summary.Problems) {
				t.Errorf("%d rows shown, want %d", got.Shown, min(100, want.Summary.Problems))
			}
			for _, c := range []string{"Quality × impact", "Findings by tool", "Top rules", "Directories by problems"} {
				if !contains(got.Charts, c) {
					t.Errorf("no chart %q in %v", c, got.Charts)
				}
			}
			if trend := contains(got.Charts, "Problems by run"); trend != (tc.name == "light" || tc.name == "dark") {
				t.Errorf("charts %v: a trend %v, want it with --history", got.Charts, trend)
			}
			// Filters: the tool, then the rule, then the path, then search.
			// The problems SpotBugs leads (a problem shows once, by its
			// most important finding), as recap's JSON view has them.
			spot := 0
			for _, f := range problems.Findings {
				if f.Tool == "SpotBugs" {
					spot++
				}
			}
			var rows []string
			b.eval(t, setFilter+`('filter-tool', 'SpotBugs')`, &rows)
			b.eval(t, pageState, &got)
			if spot == 0 || got.Matched != spot || len(rows) != spot {
				t.Errorf("tool SpotBugs: %d problems match, %d shown, want %d", got.Matched, len(rows), spot)
			}
			for _, r := range rows {
				if !strings.Contains(r, "SpotBugs") {
					t.Errorf("tool SpotBugs shows %q", r)
				}
			}
			// The rule filter names Checkstyle's rules as the rows do, by
			// the check's name rather than its class.
			var ruleOptions []string
			b.eval(t, `Array.from(document.getElementById('filter-rule').options, o => o.textContent)`, &ruleOptions)
			if tc.name != "bounded" && !slices.ContainsFunc(ruleOptions, func(o string) bool { return strings.HasPrefix(o, "Checkstyle FinalParameters ") }) {
				t.Errorf("the rule filter has no Checkstyle FinalParameters: %q", ruleOptions)
			}
			for _, o := range ruleOptions {
				if strings.Contains(o, "com.puppycrawl") {
					t.Errorf("the rule filter names a Checkstyle class: %q", o)
				}
			}
			b.eval(t, setFilter+`('filter-tool', 'all')`, &rows)
			b.eval(t, setFilter+`('filter-search', 'nonconstant string')`, &rows)
			if len(rows) != 1 || !strings.Contains(rows[0], "SQL_NONCONSTANT_STRING_PASSED_TO_EXECUTE") {
				t.Fatalf("search 'nonconstant string' shows %q", rows)
			}
			b.eval(t, setFilter+`('filter-search', '')`, &rows)
			b.eval(t, setFilter+`('filter-path', 'Order.java')`, &rows)
			orders := summaryJSON(t, append([]string{"--path", "**/Order.java"}, sample...)...)
			if len(rows) != orders.Summary.Problems {
				t.Errorf("path Order.java shows %d rows, want %d", len(rows), orders.Summary.Problems)
			}
			b.eval(t, setFilter+`('filter-path', '')`, &rows)
			if len(rows) != min(100, want.Summary.Problems) {
				t.Errorf("filters cleared: %d rows", len(rows))
			}
			// A problem opened: its code, its rule's text, the other tools.
			lead := alsoReported(t, problems)
			var body struct {
				Code, Rule, Also []string
				Open             bool
			}
			b.eval(t, setFilter+`('filter-search', `+jsString(lead.message)+`)`, &rows)
			b.eval(t, `(async () => {
  const li = document.querySelector('#list > li[data-id=`+jsString(lead.id)+`]');
  if (!li) return {};
  li.querySelector('summary').click();
  await new Promise(r => setTimeout(r, 50)); // the toggle event comes after the click
  const sec = t => Array.from(li.querySelectorAll('.part')).filter(s => s.querySelector('h3').textContent === t)
    .flatMap(s => Array.from(s.querySelectorAll('.line.hit code, p, li')).map(e => e.textContent));
  return {open: li.querySelector('details').open, code: sec('Code'), rule: sec('Rule'), also: sec('Also reported by')};
})()`, &body)
			if !body.Open {
				t.Fatalf("problem %s did not open (rows %q)", lead.id, rows)
			}
			if len(body.Code) == 0 || strings.TrimSpace(body.Code[0]) != strings.TrimSpace(lead.line) {
				t.Errorf("problem %s shows code %q, want its line %q", lead.id, body.Code, lead.line)
			}
			if len(body.Rule) == 0 {
				t.Errorf("problem %s shows no rule text", lead.id)
			}
			for _, other := range lead.also {
				if !containsPrefix(body.Also, other) {
					t.Errorf("problem %s: also reported by %q, want %q", lead.id, body.Also, other)
				}
			}
			if v := b.axe(t); len(v) > 0 {
				t.Errorf("axe-core, with a problem open: %s", strings.Join(v, "\n"))
			}
			b.eval(t, setFilter+`('filter-search', '')`, &rows)
			if tc.shots != "" {
				screenshot(t, b, filepath.Join(root, "docs", tc.shots))
			}
			b.quiet(t, page)
		})
	}
}

// compressedPage writes the page again with its data deflated, as recap
// writes the data of a large report (render.HTML's CompressOver), so that
// the browser inflates it.
func compressedPage(t *testing.T, page string) string {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	plain := regexp.MustCompile(`(?s)<script type="application/json" id="recap-findings">(.*?)</script>`)
	m := plain.FindSubmatchIndex(data)
	if m == nil {
		t.Fatal("the page has no plain data")
	}
	var z bytes.Buffer
	zw, _ := flate.NewWriter(&z, flate.BestSpeed)
	zw.Write(data[m[2]:m[3]])
	zw.Close()
	var out bytes.Buffer
	out.Write(data[:m[0]])
	fmt.Fprintf(&out, `<script type="application/octet-stream" id="recap-findings-deflate" data-bytes="%d">%s</script>`, m[3]-m[2], wrapLines(base64.StdEncoding.EncodeToString(z.Bytes()), 76))
	out.Write(data[m[1]:])
	name := strings.TrimSuffix(page, ".html") + "-deflated.html"
	if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// boundedPage writes the sample's page with a string table of 5 strings,
// past which the rows hold their names and messages themselves.
func boundedPage(t *testing.T) string {
	t.Helper()
	root := reportstest.RepoRoot(t)
	src := &summarize.Dir{Root: filepath.Join(root, "testdata", "sample")}
	defer src.Close()
	st := render.HTML{Source: src, MaxStrings: 5}.NewStream()
	defer st.Close()
	t.Chdir(root) // the inputs named as the command line names them: their ids are the same
	q := &pipeline.Query{Reports: pipeline.Files{Paths: []string{"testdata/reports"},
		Options: parsers.ReadOptions{Root: filepath.Join(root, "testdata", "sample")}}, Classes: grouping.ClassOf}
	q.Keep.Each = func(f *reports.Finding, state string) error { return st.Add(f) }
	res, err := pipeline.Run(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := st.Write(&buf, res.View); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"SpotBugs",`) {
		t.Fatal("the rows hold no string of their own")
	}
	page := filepath.Join(t.TempDir(), "bounded.html")
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return page
}

// wrapLines breaks s into lines of n characters, as recap writes the
// page's base64.
func wrapLines(s string, n int) string {
	var b strings.Builder
	for len(s) > n {
		b.WriteString(s[:n] + "\n")
		s = s[n:]
	}
	b.WriteString(s)
	return b.String()
}

// lead is a problem that other tools report too, as recap's JSON view has
// it: its id, message, the line of code it is on, the other findings.
type leadProblem struct {
	id, message, line string
	also              []string
}

// jsonFindings is recap's JSON view of every problem.
type jsonFindings struct {
	Page     struct{ Total, Returned int }
	Findings []struct {
		ID, Tool, Message, Path string
		Line                    int
		Context                 []struct {
			Line int
			Text string
		}
		AlsoReportedBy []struct{ Tool, Rule, ID string }
	}
}

func findingsJSON(t *testing.T, args ...string) (v jsonFindings) {
	t.Helper()
	out, stderr, code := recap(t, reportstest.RepoRoot(t), nil, append([]string{"findings", "--format", "json", "--limit", "200", "--max-tokens", "25000"}, args...)...)
	if code != 0 {
		t.Fatalf("recap findings: exit %d: %s", code, stderr)
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.Page.Returned != v.Page.Total {
		t.Fatalf("recap findings returned %d of %d problems within its budget", v.Page.Returned, v.Page.Total)
	}
	return v
}

func alsoReported(t *testing.T, v jsonFindings) leadProblem {
	t.Helper()
	for _, f := range v.Findings {
		if len(f.AlsoReportedBy) == 0 || len(f.Context) == 0 {
			continue
		}
		p := leadProblem{id: f.ID, message: f.Message}
		for _, c := range f.Context {
			if c.Line == f.Line {
				p.line = c.Text
			}
		}
		for _, a := range f.AlsoReportedBy {
			p.also = append(p.also, a.Tool+" "+a.Rule+" (id "+a.ID+")")
		}
		return p
	}
	t.Fatal("no problem of the sample is reported by two tools")
	return leadProblem{}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

func containsPrefix(list []string, s string) bool {
	for _, l := range list {
		if strings.HasPrefix(l, s) {
			return true
		}
	}
	return false
}

// screenshot writes the page's first screen to path with -update, and
// otherwise checks that the docs have it.
func screenshot(t *testing.T, b *browser, path string) {
	t.Helper()
	if !reportstest.Updating() {
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%v: run go test ./cmd/recap -run TestHTMLInBrowser -update", err)
		}
		return
	}
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(1280, 1100)); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHTMLHostileInBrowser: a report whose tool, rule, rule text, message,
// path, help links and code hold markup, javascript: links and
// bidirectional controls shows them as text: no script of theirs runs, no
// javascript: link is made, the controls are named.
func TestHTMLHostileInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser tests are slow")
	}
	page := htmlPage(t, "findings", "testdata/html/hostile.sarif")
	b := newBrowser(t, false)
	b.open(t, page)
	var got struct {
		Pwned   any
		Text    string
		Links   []string
		Scripts int
		Imgs    int
		Open    bool
	}
	b.eval(t, `(async () => {
  const li = document.querySelector('#list > li');
  li.querySelector('summary').click();
  await new Promise(r => setTimeout(r, 50)); // the toggle event comes after the click
  return {
    pwned: window.pwned === undefined ? null : window.pwned,
    text: document.body.innerText,
    links: Array.from(document.querySelectorAll('a[href]')).map(a => a.getAttribute('href')),
    scripts: document.querySelectorAll('script').length,
    imgs: document.querySelectorAll('img, svg[onload], iframe, object, embed').length,
    open: li.querySelector('details').open,
  };
})()`, &got)
	if got.Pwned != nil {
		t.Errorf("a script of the report ran: window.pwned = %v", got.Pwned)
	}
	if !got.Open {
		t.Fatal("the finding did not open")
	}
	for _, s := range []string{
		"</script><script>window.pwned=8</script>", "[click](javascript:window.pwned=10)",
		"Evil<script>window.pwned=1</script>", "X1<img src=x onerror=window.pwned=2>",
		"Rule bold window.pwned=4", "See [this](javascript:window.pwned=5)", "javascript:window.pwned=7",
		"src/<svg onload=window.pwned=11>.java", "[U+202E]evil[U+202C]", "[U+2066]isolate[U+2069]",
	} {
		if !strings.Contains(got.Text, s) {
			t.Errorf("the page does not show %q as text", s)
		}
	}
	if strings.ContainsAny(got.Text, "\u202e\u2066") {
		t.Errorf("the page shows a bidirectional control unnamed")
	}
	for _, l := range got.Links {
		if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") && !strings.HasPrefix(l, "#") {
			t.Errorf("the page links %q", l)
		}
	}
	if got.Scripts != 3 || got.Imgs != 0 {
		t.Errorf("the page has %d script and %d img/svg/iframe elements, want its own 3 and none", got.Scripts, got.Imgs)
	}
	b.quiet(t, page)
}

// TestActionHTML: the action's html input writes the page with the
// script's run step and names it, absolute, in the step's html output
// (which the upload step reads); its html-link step links the uploaded
// artifact from the job summary.
func TestActionHTML(t *testing.T) {
	root := reportstest.RepoRoot(t)
	script := filepath.Join(root, "action", "run.sh")
	dir := t.TempDir()
	output, summary := filepath.Join(dir, "output"), filepath.Join(dir, "summary.md")
	cmd := exec.Command("bash", script, "run")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RECAP_BIN="+bin, "GITHUB_EVENT_PATH=", "GITHUB_OUTPUT="+output, "GITHUB_STEP_SUMMARY=",
		"INPUT_REPORTS="+filepath.Join(root, "testdata", "reports")+"\n", "INPUT_BASE=", "INPUT_FILTER_MODE=added", "INPUT_FAIL_ON=",
		"INPUT_MAX_NEW=", "INPUT_BASELINE=", "INPUT_SUMMARY=false", "INPUT_ANNOTATIONS=false", "INPUT_REVIEW=false", "INPUT_CHECKS=false",
		"INPUT_SARIF=", "INPUT_HTML=recap.html")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("run.sh run: %v\n%s", err, out)
	}
	page := filepath.Join(dir, "recap.html")
	if got, _ := os.ReadFile(output); string(got) != "html="+page+"\n" {
		t.Errorf("GITHUB_OUTPUT: %q, want html=%s", got, page)
	}
	if b, err := os.ReadFile(page); err != nil || !strings.Contains(string(b), `id="recap-meta"`) {
		t.Errorf("%s: %v", page, err)
	}
	cmd = exec.Command("bash", script, "html-link")
	cmd.Env = append(os.Environ(), "GITHUB_STEP_SUMMARY="+summary, "RECAP_HTML_URL=https://github.com/acme/shop/actions/runs/1/artifacts/2")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("run.sh html-link: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(summary); !strings.Contains(string(b), "[The HTML report](https://github.com/acme/shop/actions/runs/1/artifacts/2)") {
		t.Errorf("job summary: %q", b)
	}
}

// TestHTMLBaselineInBrowser: against a baseline, the page's headline has
// the new, unchanged and fixed counts of recap's JSON summary, and its
// baseline filter keeps the new problems recap's JSON view marks new.
func TestHTMLBaselineInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser tests are slow")
	}
	args := []string{"--baseline", "testdata/reports/pmd.sarif", "--repo", "testdata/sample", "testdata/reports"}
	out, stderr, code := recap(t, reportstest.RepoRoot(t), nil, append([]string{"summary", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("recap summary: exit %d: %s", code, stderr)
	}
	var s struct {
		Summary struct {
			Baseline struct{ New, Unchanged, Fixed int }
		}
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	out, stderr, code = recap(t, reportstest.RepoRoot(t), nil, append([]string{"findings", "--format", "json", "--limit", "200", "--max-tokens", "25000"}, args...)...)
	if code != 0 {
		t.Fatalf("recap findings: exit %d: %s", code, stderr)
	}
	var v struct {
		Findings []struct{ Baseline string }
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	newProblems := 0
	for _, f := range v.Findings {
		if f.Baseline == "new" {
			newProblems++
		}
	}
	page := htmlPage(t, append([]string{"summary"}, args...)...)
	b := newBrowser(t, false)
	b.open(t, page)
	var got struct{ New, Unchanged, Fixed int }
	b.eval(t, `(() => {
  const n = id => +document.getElementById('count-' + id).dataset.count;
  return {new: n('new'), unchanged: n('unchanged'), fixed: n('fixed')};
})()`, &got)
	if got != s.Summary.Baseline {
		t.Errorf("page's baseline counts %+v, want %+v", got, s.Summary.Baseline)
	}
	var rows []string
	b.eval(t, setFilter+`('filter-baseline', 'new')`, &rows)
	if newProblems == 0 || len(rows) != newProblems {
		t.Errorf("baseline new: %d rows, want %d", len(rows), newProblems)
	}
	for _, r := range rows {
		if !strings.Contains(r, "new") {
			t.Errorf("a row of the new problems is not marked new: %q", r)
		}
	}
	b.quiet(t, page)
}

// TestHTMLFixAndFlowInBrowser: a problem opened shows its fix as a diff
// (Semgrep's autofix) and its flow's steps (Semgrep's dataflow), as the
// corpus's reports give them and recap's JSON view counts them.
func TestHTMLFixAndFlowInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser tests are slow")
	}
	corpus := reportstest.SharedDir(t, "corpus")
	for _, tc := range []struct {
		report, section string
	}{
		{"semgrep-autofix-fixes.sarif", "Fix"},
		{"semgrep-dataflow-codeflows.sarif", "Flow"},
	} {
		t.Run(tc.section, func(t *testing.T) {
			report := filepath.Join(corpus, "sarif-other", tc.report)
			out, stderr, code := recap(t, reportstest.RepoRoot(t), nil, "findings", "--format", "json", "--limit", "1", report)
			if code != 0 {
				t.Fatalf("recap findings: exit %d: %s", code, stderr)
			}
			var v struct {
				Findings []struct {
					ID        string
					FlowSteps int
					Fixable   bool
				}
			}
			if err := json.Unmarshal([]byte(out), &v); err != nil || len(v.Findings) != 1 {
				t.Fatalf("recap findings: %v, %s", err, out)
			}
			want := v.Findings[0]
			page := htmlPage(t, "findings", report)
			b := newBrowser(t, false)
			b.open(t, page)
			var lines []string
			b.eval(t, `(async () => {
  const li = document.querySelector('#list > li[data-id=`+jsString(want.ID)+`]');
  if (!li) return [];
  li.querySelector('summary').click();
  await new Promise(r => setTimeout(r, 50));
  const sec = Array.from(li.querySelectorAll('.part')).find(s => s.querySelector('h3').textContent === `+jsString(tc.section)+`);
  if (!sec) return [];
  return Array.from(sec.querySelectorAll('pre .line, ol.places > li')).map(e => e.className + '\t' + e.textContent);
})()`, &lines)
			switch tc.section {
			case "Fix":
				adds := 0
				for _, l := range lines {
					if strings.HasPrefix(l, "line add\t+") {
						adds++
					}
				}
				if !want.Fixable || len(lines) == 0 || !strings.HasSuffix(lines[0], "--- a/targets/autofix/autofix.py") || adds == 0 {
					t.Errorf("fix of %s: %q", want.ID, lines)
				}
			case "Flow":
				if want.FlowSteps == 0 || len(lines) != want.FlowSteps {
					t.Errorf("flow of %s: %d steps shown, recap's JSON counts %d: %q", want.ID, len(lines), want.FlowSteps, lines)
				}
			}
			b.quiet(t, page)
		})
	}
}
