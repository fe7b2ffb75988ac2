package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/recap-dev/recap/reports"
)

// MaxTrendRuns bounds the runs a Markdown trend draws: the latest.
const MaxTrendRuns = 30

// maxTrendLabel bounds a run's label on the chart's axis, in characters.
const maxTrendLabel = 24

// trendColors are the impacts' colours, as the HTML report's light theme
// has them.
var trendColors = map[reports.Impact]string{
	reports.ImpactBlocker: "#a40e26", reports.ImpactHigh: "#bc4c00", reports.ImpactMedium: "#9a6700",
	reports.ImpactLow: "#0969da", reports.ImpactInfo: "#59636e",
}

// MarkdownTrend writes the problems by impact of runs (oldest first; the
// latest MaxTrendRuns) as GitHub Markdown: a Mermaid xychart-beta, which
// GitHub draws, of one bar a run stacked by impact (each impact's bar is
// drawn over the bar of it and the impacts below it), and the same numbers
// in a table inside a <details>, for readers and renderers without Mermaid.
// "" without runs. Its size is bounded: at most MaxTrendRuns runs of
// labels of maxTrendLabel characters.
func MarkdownTrend(title string, runs []HistoryRun) string {
	if len(runs) == 0 {
		return ""
	}
	omitted := 0
	if len(runs) > MaxTrendRuns {
		omitted = len(runs) - MaxTrendRuns
		runs = runs[omitted:]
	}
	// The impacts some run has, lowest first.
	var imps []reports.Impact
	for k := len(reports.Impacts) - 1; k >= 0; k-- {
		i := reports.Impacts[k]
		for _, r := range runs {
			if r.ByImpact[i.String()] > 0 {
				imps = append(imps, i)
				break
			}
		}
	}
	labels := make([]string, len(runs))
	for k, r := range runs {
		labels[k] = trendLabel(r.Label, k)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#### %s\n\n", MarkdownText(title))
	if omitted > 0 {
		fmt.Fprintf(&b, "The latest %d runs (%d earlier ones left out).\n\n", len(runs), omitted)
	}
	b.WriteString("```mermaid\n")
	var colors []string
	for _, i := range imps {
		colors = append(colors, trendColors[i])
	}
	if len(colors) > 0 {
		fmt.Fprintf(&b, "%%%%{init: {\"themeVariables\": {\"xyChart\": {\"plotColorPalette\": \"%s\"}}}}%%%%\n", strings.Join(colors, ", "))
	}
	b.WriteString("xychart-beta\n")
	names := make([]string, len(imps))
	for k, i := range imps {
		names[len(imps)-1-k] = i.String()
	}
	fmt.Fprintf(&b, "    title \"Problems by impact (%s)\"\n", strings.Join(names, ", "))
	b.WriteString("    x-axis [")
	for k, l := range labels {
		if k > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(l))
	}
	b.WriteString("]\n")
	top := 0
	for _, r := range runs {
		top = max(top, total(r))
	}
	fmt.Fprintf(&b, "    y-axis \"Problems\" 0 --> %d\n", max(top, 1))
	// A bar of every impact from the lowest up, then of those above it:
	// drawn in order, each over the last, they stack.
	for k := range imps {
		b.WriteString("    bar [")
		for n, r := range runs {
			if n > 0 {
				b.WriteString(", ")
			}
			sum := 0
			for _, i := range imps[k:] {
				sum += r.ByImpact[i.String()]
			}
			b.WriteString(strconv.Itoa(sum))
		}
		b.WriteString("]\n")
	}
	b.WriteString("```\n\n")
	b.WriteString("<details><summary>Problems by run</summary>\n\n| Run | Problems |")
	for k := len(imps) - 1; k >= 0; k-- {
		b.WriteString(" " + imps[k].String() + " |")
	}
	b.WriteString("\n|---|---:|")
	for range imps {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for k, r := range runs {
		fmt.Fprintf(&b, "| %s | %d |", MarkdownText(labels[k]), r.Problems)
		for n := len(imps) - 1; n >= 0; n-- {
			fmt.Fprintf(&b, " %d |", r.ByImpact[imps[n].String()])
		}
		b.WriteString("\n")
	}
	b.WriteString("\n</details>\n\n")
	return b.String()
}

func total(r HistoryRun) int {
	n := 0
	for _, c := range r.ByImpact {
		n += c
	}
	return n
}

// trendLabel is a run's label as the chart's axis shows it: letters,
// digits and . _ - + / and space, the rest _, at most maxTrendLabel
// characters (the last ones), "run N" when nothing is left.
func trendLabel(s string, k int) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("._-+/ ", r):
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	out := strings.TrimSpace(b.String())
	if len(out) > maxTrendLabel {
		out = "…" + out[len(out)-maxTrendLabel+1:]
	}
	if out == "" {
		out = "run " + strconv.Itoa(k+1)
	}
	return out
}
