package render

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/gfmtest"
	"github.com/recap-dev/recap/internal/reportstest"
)

// mermaidBlock is the Mermaid code block as cmark-gfm renders it (GitHub
// draws a code block of language mermaid as a chart).
var mermaidBlock = regexp.MustCompile(`(?s)<pre><code class="language-mermaid">(.*?)</code></pre>`)

// TestMarkdownTrend: the trend is a Mermaid xychart-beta in a code block
// cmark-gfm renders as GitHub's mermaid block, one bar series an impact
// present, stacked (each series the sum of its impact and those above it),
// the x axis one label a run (the latest MaxTrendRuns), the same numbers
// in a table; hostile labels stay inside their quotes and make nothing on
// GitHub. The three-run trend is pinned by a golden.
func TestMarkdownTrend(t *testing.T) {
	three := []HistoryRun{
		{Label: "run-1", Problems: 10, ByImpact: map[string]int{"high": 1, "medium": 4, "low": 5}},
		{Label: "run-2", Problems: 7, ByImpact: map[string]int{"medium": 3, "low": 4}},
		{Label: "this run", Problems: 9, ByImpact: map[string]int{"blocker": 1, "medium": 3, "low": 5}},
	}
	var many []HistoryRun
	for i := range 1000 {
		many = append(many, HistoryRun{Label: fmt.Sprintf("build-%04d-%s", i, strings.Repeat("x", 100)), Problems: i, ByImpact: map[string]int{"low": i}})
	}
	hostile := []HistoryRun{{Label: "\"]\n```\n<script>alert(1)</script> @octocat #12 [x](javascript:y)", Problems: 1, ByImpact: map[string]int{"info": 1}}}
	for _, tc := range []struct {
		name   string
		runs   []HistoryRun
		series []string // the bars, as the chart lists them
		labels int
	}{
		{"none", nil, nil, 0},
		{"three", three, []string{"[10, 7, 9]", "[5, 3, 4]", "[1, 0, 1]", "[0, 0, 1]"}, 3},
		{"many", many, []string{"[" + strings.Join(seq(970, 1000), ", ") + "]"}, MaxTrendRuns},
		{"hostile", hostile, []string{"[1]"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md := MarkdownTrend("Trend", tc.runs)
			if tc.runs == nil {
				if md != "" {
					t.Errorf("no runs: %q", md)
				}
				return
			}
			if len(md) > 8<<10 {
				t.Errorf("%d bytes, want at most 8 KiB", len(md))
			}
			doc := gfmtest.Render(t, md)
			m := mermaidBlock.FindStringSubmatch(doc)
			if m == nil {
				t.Fatalf("no mermaid block in\n%s", doc)
			}
			for _, p := range gfmtest.Problems(doc) {
				t.Errorf("%s", p)
			}
			chart := strings.Split(strings.TrimSpace(m[1]), "\n")
			var bars []string
			labels := 0
			for _, l := range chart {
				l = strings.TrimSpace(l)
				if s, ok := strings.CutPrefix(l, "bar "); ok {
					bars = append(bars, s)
				}
				if s, ok := strings.CutPrefix(l, "x-axis "); ok {
					labels = strings.Count(s, "&quot;") / 2
				}
			}
			if !containsLine(chart, "xychart-beta") || strings.Join(bars, " ") != strings.Join(tc.series, " ") || labels != tc.labels {
				t.Errorf("chart %q: bars %q, %d labels; want %q, %d", chart, bars, labels, tc.series, tc.labels)
			}
			if rows := strings.Count(doc, "<tr>") - 1; rows != tc.labels {
				t.Errorf("%d rows in the table, want %d", rows, tc.labels)
			}
			if tc.name == "three" {
				reportstest.Golden(t, filepath.Join("testdata", "trend.markdown.golden"), []byte(md))
			}
		})
	}
}

func seq(from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, strconv.Itoa(i))
	}
	return out
}

func containsLine(lines []string, s string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) == s {
			return true
		}
	}
	return false
}
