package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/recap-dev/recap/internal/gfmtest"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/triagetest"
	"github.com/recap-dev/recap/triage"
)

// TestHTMLReviewInBrowser: recap review --format html on a real repository
// with PMD run on the head of a feature branch writes the review's page:
// its headline names the change (main..HEAD, one file changed) and counts
// the findings outside it, its rows are the findings on changed lines
// recap findings --changed-only lists (against the baseline, with their
// new, unchanged and fixed counts), each opening to its code; no request,
// nothing logged, axe-core clean. The page without a baseline is pinned by
// a golden.
func TestHTMLReviewInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser tests are slow")
	}
	pr := newPMDPR(t)
	dir := pr.repo.Dir
	all, _ := runJSON(t, dir, "summary", "--format", "json", pr.head)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"changed", nil},
		{"baseline", []string{"--baseline", pr.base}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := filepath.Join(t.TempDir(), "review.html")
			args := append([]string{"review", "--repo", dir, "--base", "main", "--format", "html", "--output", page}, append(tc.args, pr.head)...)
			if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
				t.Fatalf("recap %v: %v\n%s", args, err, out)
			}
			want, _ := runJSON(t, dir, append(append([]string{"findings", "--format", "json", "--limit", "200", "--max-tokens", "25000", "--changed-only", "--base", "main"}, tc.args...), pr.head)...)
			var places []string
			for _, f := range want.Findings {
				places = append(places, f.Path+":"+strconv.Itoa(f.Line))
			}
			sort.Strings(places)
			if len(places) == 0 {
				t.Fatal("no finding on the changed lines")
			}
			b := newBrowser(t, false)
			b.open(t, page)
			var got struct {
				Title, Generated, Notes string
				Problems, Matched       int
				Places                  []string
				New, Unchanged, Fixed   int
				Code                    []string
			}
			b.eval(t, `(async () => {
  const n = id => { const e = document.getElementById('count-' + id); return e ? +e.dataset.count : -1; };
  const li = document.querySelector('#list > li');
  li.querySelector('summary').click();
  await new Promise(r => setTimeout(r, 50)); // the toggle event comes after the click
  return {
    title: document.getElementById('title').textContent + ' | ' + document.title,
    generated: document.getElementById('generated').textContent,
    notes: document.getElementById('notes').textContent,
    problems: n('problems'), new: n('new'), unchanged: n('unchanged'), fixed: n('fixed'),
    matched: +document.getElementById('status').dataset.matched,
    places: Array.from(document.querySelectorAll('#list > li .where')).map(e => e.textContent.split(':').slice(0, 2).join(':')).sort(),
    code: Array.from(li.querySelectorAll('.line.hit code')).map(e => e.textContent),
  };
})()`, &got)
			if got.Title != "recap review | recap review" {
				t.Errorf("title %q", got.Title)
			}
			if !strings.HasPrefix(got.Generated, "Review of main..HEAD, 1 file changed: the findings on changed lines") {
				t.Errorf("headline %q, want the review of main..HEAD", got.Generated)
			}
			if outside := all.Summary.Total - want.Summary.Total; !strings.Contains(got.Notes, strconv.Itoa(outside)+" more findings are outside the changed lines") {
				t.Errorf("notes %q, want %d findings outside", got.Notes, outside)
			}
			if strings.Contains(got.Notes, "this page holds") {
				t.Errorf("notes %q name a page: the review's page holds every finding it keeps", got.Notes)
			}
			if got.Problems != want.Summary.Problems || got.Matched != len(want.Findings) || strings.Join(got.Places, " ") != strings.Join(places, " ") {
				t.Errorf("page: %d problems, rows %v; want %d, %v", got.Problems, got.Places, want.Summary.Problems, places)
			}
			if len(got.Code) != 1 || strings.TrimSpace(got.Code[0]) == "" {
				t.Errorf("the first finding opened shows code %q", got.Code)
			}
			if bl := want.Summary.Baseline; bl != nil {
				if got.New != bl.New || got.Unchanged != bl.Unchanged || got.Fixed != bl.Fixed || bl.New+bl.Unchanged == 0 {
					t.Errorf("page's baseline counts %d/%d/%d, want %+v", got.New, got.Unchanged, got.Fixed, *bl)
				}
			} else if got.New != -1 {
				t.Errorf("a page without a baseline counts %d new", got.New)
			}
			if v := b.axe(t); len(v) > 0 {
				t.Errorf("axe-core: %s", strings.Join(v, "\n"))
			}
			b.quiet(t, page)
			if tc.args == nil {
				data, err := os.ReadFile(page)
				if err != nil {
					t.Fatal(err)
				}
				s := strings.ReplaceAll(elideHTMLAssets(string(data)), filepath.Dir(pr.head), "$REPORTS")
				// A finding's id begins with a hash of its input's path, a temporary one.
				s = regexp.MustCompile(`\["[0-9a-z]{4}-(\d+)",`).ReplaceAllString(s, `["$$ID-$1",`)
				reportstest.Golden(t, filepath.Join(reportstest.RepoRoot(t), "testdata", "golden", "review.html"), []byte(s))
			}
		})
	}
	// The page goes to a file when the review goes elsewhere too.
	cmd := exec.Command(bin, "review", "--repo", dir, "--base", "main", "--format", "html", "--annotations", pr.head)
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "give --output FILE") {
		t.Errorf("--format html --annotations without --output: %v\n%s", err, out)
	}
}

// TestHTMLTriageInBrowser: with the sample's triage file, the page counts
// the triaged problems by state in its headline as recap's JSON summary
// does; with --triaged include its rows carry each decision (state,
// reason, by, date) and its triage filter keeps each state's problems;
// with --triaged only every row is triaged.
func TestHTMLTriageInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser tests are slow")
	}
	file, _ := sampleTriage(t)
	sample := []string{"--triage", file, "--repo", "testdata/sample", "testdata/reports"}
	for _, mode := range []string{"exclude", "include", "only"} {
		t.Run(mode, func(t *testing.T) {
			args := append([]string{"--triaged", mode}, sample...)
			out, stderr, code := recap(t, reportstest.RepoRoot(t), nil, append([]string{"summary", "--format", "json"}, args...)...)
			if code != 0 {
				t.Fatalf("recap summary: exit %d: %s", code, stderr)
			}
			var s struct {
				Summary struct {
					Problems int
					Triaged  struct {
						Problems int
						ByState  map[string]int
					}
				}
			}
			mustJSON(t, out, &s)
			page := htmlPage(t, append([]string{"summary"}, args...)...)
			b := newBrowser(t, false)
			b.open(t, page)
			var got struct {
				Triaged, Matched int
				Note             string
				Filter           bool
			}
			b.eval(t, `(() => ({
  triaged: +document.getElementById('count-triaged').dataset.count,
  note: document.querySelector('#count-triaged + dd.note').textContent,
  matched: +document.getElementById('status').dataset.matched,
  filter: !!document.getElementById('filter-triage'),
}))()`, &got)
			if got.Triaged != triagedProblems || s.Summary.Triaged.Problems != triagedProblems ||
				!strings.HasPrefix(got.Note, "1 high among them, 3 false positive, 1 won't fix, 1 accepted risk") {
				t.Errorf("headline: %d triaged (%q), want %d: 1 high among them, 3 false positive, 1 won't fix, 1 accepted risk", got.Triaged, got.Note, triagedProblems)
			}
			if got.Matched != s.Summary.Problems || got.Filter != (mode != "exclude") {
				t.Errorf("%d rows, want %d; a triage filter %v", got.Matched, s.Summary.Problems, got.Filter)
			}
			var rows []string
			switch mode {
			case "include":
				for state, n := range map[string]int{"false positive": 3, "won't fix": 1, "accepted risk": 1, "not triaged": s.Summary.Problems - triagedProblems} {
					b.eval(t, setFilter+`('filter-triage', `+jsString(state)+`)`, &rows)
					if len(rows) != min(n, 100) {
						t.Errorf("triage %s: %d rows, want %d", state, len(rows), n)
					}
					for _, r := range rows {
						if marked := strings.Contains(r, state); marked != (state != "not triaged") {
							t.Errorf("triage %s: row %q", state, r)
						}
					}
				}
				b.eval(t, setFilter+`('filter-triage', `+jsString("won't fix")+`)`, &rows)
			case "only":
				var marked int
				b.eval(t, `document.querySelectorAll('#list > li .badge.triaged').length`, &marked)
				if marked != triagedProblems {
					t.Errorf("--triaged only: %d rows marked, want %d", marked, triagedProblems)
				}
			}
			if mode != "exclude" {
				var fact string
				b.eval(t, `(async () => {
  const li = document.querySelector('#list > li');
  li.querySelector('summary').click();
  await new Promise(r => setTimeout(r, 50));
  const dt = Array.from(li.querySelectorAll('.facts dt')).find(d => d.textContent === 'Triage');
  return dt ? dt.nextElementSibling.textContent : '';
})()`, &fact)
				if !strings.Contains(fact, ": decided in review ") || !strings.Contains(fact, "(by octocat, on 2026-11-01)") {
					t.Errorf("the decision shown: %q", fact)
				}
				if v := b.axe(t); len(v) > 0 {
					t.Errorf("axe-core: %s", strings.Join(v, "\n"))
				}
			}
			b.quiet(t, page)
		})
	}
	// Confirmed and expired decisions leave their findings in the counts:
	// the headline says so apart from the decisions that took theirs out.
	t.Run("confirmed and expired", func(t *testing.T) {
		f, _ := triagetest.Sample(t)
		if len(f.Entries) < 3 {
			t.Fatalf("%d entries in the sample's triage", len(f.Entries))
		}
		f.Entries[0].State = triage.Confirmed
		f.Entries[1].Until = "2020-01-01"
		gone := f.Entries[2]
		gone.Rule, gone.Reason = "NoSuchRule", "its rule no longer fires"
		f.Entries = append(f.Entries, gone)
		p := filepath.Join(t.TempDir(), "triage.yml")
		if err := triage.WriteFile(p, f); err != nil {
			t.Fatal(err)
		}
		page := htmlPage(t, "summary", "--triage", p, "--repo", "testdata/sample", "testdata/reports")
		b := newBrowser(t, false)
		b.open(t, page)
		var note string
		b.eval(t, `document.querySelector('#count-triaged + dd.note').textContent`, &note)
		parts := strings.Split(note, "; ")
		if len(parts) != 3 || !strings.HasSuffix(parts[0], " (not counted above)") || strings.Contains(parts[0], "confirmed") || strings.Contains(parts[0], "expired") ||
			!strings.Contains(parts[1], "confirmed") || !strings.Contains(parts[1], "back, triage expired") || !strings.HasSuffix(parts[1], " (counted above)") ||
			parts[2] != "1 decision matches no finding (fixed, edited, or the reports are older than the code): recap triage check says which" {
			t.Errorf("headline note %q: want the decisions not counted, then the confirmed and expired ones, counted, then the one that matches nothing", note)
		}
		b.quiet(t, page)
	})
}

// TestHTMLTriageOverruled: the page says, in its headline and on the
// problem's row, that a confirmation overrules a decision of the same
// problem: its finding's own (the confirmed finding is not the one the
// row leads with), or another finding's (it is).
func TestHTMLTriageOverruled(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser tests are slow")
	}
	const spotbugs, pmd = "ES_COMPARING_PARAMETER_STRING_WITH_EQ", "UseEqualsToCompareStrings"
	for _, tc := range []struct {
		name                  string
		suppressed, confirmed string
		over                  string // what the row's decision says it overrules
	}{
		{"its own decision", spotbugs, pmd, ", over this finding's own decision: false positive"},
		{"another finding's decision", pmd, spotbugs, ", over the problem's PMD " + pmd + " finding's decision: false positive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := order34Triage(t, [3]string{tc.suppressed, "false-positive", "the values are interned"}, [3]string{tc.confirmed, "confirmed", "must fix"})
			page := htmlPage(t, "summary", "--triage", p, "--repo", "testdata/sample", "testdata/reports")
			b := newBrowser(t, false)
			b.open(t, page)
			var got struct{ Note, Fact string }
			b.eval(t, `(async () => {
  const li = Array.from(document.querySelectorAll('#list > li')).find(li => li.querySelector('.badge.triaged'));
  let fact = '';
  if (li) {
    li.querySelector('summary').click();
    await new Promise(r => setTimeout(r, 50));
    const dt = Array.from(li.querySelectorAll('.facts dt')).find(d => d.textContent === 'Triage');
    fact = dt ? dt.nextElementSibling.textContent : '';
  }
  return { note: document.querySelector('#count-triaged + dd.note').textContent, fact: fact };
})()`, &got)
			if !strings.Contains(got.Note, "2 findings confirmed (1 finding decided otherwise too: the decisions on its problem disagree)") {
				t.Errorf("headline note %q: no word of the decisions that disagree", got.Note)
			}
			if !strings.HasPrefix(got.Fact, "confirmed: must fix") || !strings.Contains(got.Fact, tc.over) {
				t.Errorf("the decision shown: %q; want it to say %q", got.Fact, tc.over)
			}
			if v := b.axe(t); len(v) > 0 {
				t.Errorf("axe-core: %s", strings.Join(v, "\n"))
			}
			b.quiet(t, page)
		})
	}
}

// TestJobSummaryTrend: recap review --job-summary --history appends to the
// job summary a Mermaid chart of the earlier runs' problems by impact,
// their counts recap's JSON summaries of them give (checked in the table
// beside the chart, as cmark-gfm renders it); --history without
// --job-summary or --format html is a usage error, as is a file that is
// no summary.
func TestJobSummaryTrend(t *testing.T) {
	root := reportstest.RepoRoot(t)
	runs := historyDir(t)
	summary := filepath.Join(t.TempDir(), "summary.md")
	args := []string{"review", "--job-summary", "--history", runs, "--filter-mode", "nofilter", "--repo", "testdata/sample", "testdata/reports"}
	_, errOut, code := recap(t, root, []string{"GITHUB_STEP_SUMMARY=" + summary}, args...)
	if code != 0 {
		t.Fatalf("recap %v: exit %d: %s", args, code, errOut)
	}
	b, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	doc := gfmtest.Render(t, md)
	if !strings.Contains(doc, `<pre><code class="language-mermaid">`) || !strings.Contains(md, "\nxychart-beta\n") {
		t.Fatalf("no Mermaid chart in the job summary:\n%s", md)
	}
	if strings.Index(md, "#### Trend") > strings.Index(md, "#### Findings by file") {
		t.Errorf("the trend comes after the findings")
	}
	pmd := summaryJSON(t, "--repo", "testdata/sample", "testdata/reports/pmd.sarif")
	two := summaryJSON(t, "--repo", "testdata/sample", "testdata/reports/pmd.sarif", "testdata/reports/checkstyle.xml")
	for _, want := range []string{
		"<td>run-1</td>\n<td align=\"right\">" + strconv.Itoa(pmd.Summary.Problems) + "</td>",
		"<td>run-2</td>\n<td align=\"right\">" + strconv.Itoa(two.Summary.Problems) + "</td>",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the trend's table has no %q:\n%s", want, doc)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"review", "--history", runs, "--filter-mode", "nofilter", "testdata/reports"}, "--history applies to --format html and to review's --job-summary"},
		{[]string{"review", "--job-summary", "--history", filepath.Join(runs, "nope.json"), "--filter-mode", "nofilter", "testdata/reports"}, "--history " + filepath.Join(runs, "nope.json")},
	} {
		_, errOut, code := recap(t, root, []string{"GITHUB_STEP_SUMMARY=" + summary}, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("recap %v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestMermaidTrendRenders: the job summary's trend (its golden) is a chart
// Mermaid draws, in Chromium, as GitHub does: one bar a run and series,
// the runs' labels on its axis. Mermaid comes from npm
// (node_modules/mermaid, or $RECAP_MERMAID: its dist/mermaid.min.js).
func TestMermaidTrendRenders(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser tests are slow")
	}
	root := reportstest.RepoRoot(t)
	lib := filepath.Join(root, "node_modules", "mermaid", "dist", "mermaid.min.js")
	if p := os.Getenv("RECAP_MERMAID"); p != "" {
		lib = p
	}
	src, err := os.ReadFile(lib)
	if err != nil {
		t.Skipf("mermaid is not installed (%v; npm install mermaid): the trend's chart is not drawn", err)
	}
	md, err := os.ReadFile(filepath.Join(root, "summarize", "render", "testdata", "trend.markdown.golden"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```mermaid\n(.*?)```").FindSubmatch(md)
	if m == nil {
		t.Fatal("no mermaid block in the trend's golden")
	}
	page := filepath.Join(t.TempDir(), "blank.html")
	os.WriteFile(page, []byte("<!DOCTYPE html><html lang=en><head><title>m</title></head><body></body></html>"), 0o644)
	b := newBrowser(t, false)
	if err := chromedp.Do(b.ctx, chromedp.Navigate("file://"+page)); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Error  string
		Bars   int
		Labels []string
	}
	b.eval(t, string(src)+`;
(async () => {
  try {
    mermaid.initialize({startOnLoad: false});
    const {svg} = await mermaid.render('trend', `+jsString(string(m[1]))+`);
    const d = document.createElement('div');
    d.innerHTML = svg;
    return {
      bars: d.querySelectorAll('.bar-plot-0 rect, .bar-plot-1 rect, .bar-plot-2 rect, .bar-plot-3 rect').length,
      labels: Array.from(d.querySelectorAll('.bottom-axis .label text, .bottom-axis text')).map(e => e.textContent),
    };
  } catch (e) {
    return {error: String(e)};
  }
})()`, &got)
	if got.Error != "" || got.Bars != 3*4 || !contains(got.Labels, "run-1") || !contains(got.Labels, "this run") {
		t.Errorf("mermaid drew %+v; want 12 bars (3 runs, 4 impacts) and the runs' labels", got)
	}
}
