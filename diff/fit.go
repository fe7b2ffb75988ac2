package diff

import (
	"fmt"
	"unicode/utf8"

	"github.com/recap-dev/recap/summarize"
)

// A Layout renders a diff view as one output format writes it: whole, and
// a file line and a hunk alone, so that Fit prices them as they render.
type Layout interface {
	View(v *View) string
	File(f *FileRow) string
	Hunk(h *HunkView) string
}

// Fit makes v fit budget tokens as counted by c, and 4 characters per
// budget token, when rendered by l: the summary always; then file lines, in
// order, within half of what is left; then hunks, in order, whole. Each part
// left out gets a marker with its cost; Tokens is set.
func Fit(v *View, c summarize.Counter, budget int, l Layout) {
	budget = min(max(budget, summarize.MinMaxTokens), summarize.MaxMaxTokens)
	v.Tokens = &summarize.TokenInfo{Budget: budget, Tokenizer: c.Name()}
	cost := func(s string) int { return max(c.Count(s), (utf8.RuneCountInString(s)+3)/4) }
	files, hunks := v.Files, v.Hunks
	fileCost := make([]int, len(files))
	for i := range files {
		fileCost[i] = cost(l.File(&files[i]))
	}
	hunkCost := make([]int, len(hunks))
	for i := range hunks {
		hunkCost[i] = cost(l.Hunk(&hunks[i]))
	}
	v.Files, v.Hunks = []FileRow{}, []HunkView{}
	base := cost(l.View(v))
	room := int(float64(budget)*0.97) - base
	for {
		nf, used := 0, 0
		for nf < len(files) && used+fileCost[nf] <= max(room, 0)/2 {
			used += fileCost[nf]
			nf++
		}
		nh := 0
		for nh < len(hunks) && used+hunkCost[nh] <= room {
			used += hunkCost[nh]
			nh++
		}
		v.Files, v.Hunks = files[:nf], hunks[:nh]
		v.Omitted = append(v.Omitted[:0], v.hunkBase...)
		if nf < len(files) {
			v.Omitted = append(v.Omitted, summarize.Omission{
				What:   fmt.Sprintf("%d more files: narrow with a path filter, or raise maxTokens", len(files)-nf),
				Tokens: sum(fileCost[nf:]),
			})
		}
		if nh < len(hunks) {
			v.Omitted = append(v.Omitted, summarize.Omission{
				What:   fmt.Sprintf("%d of the first %d hunks: raise maxTokens, or narrow with a path filter", len(hunks)-nh, len(hunks)),
				Tokens: sum(hunkCost[nh:]),
			})
		}
		n := measure(v, c, l)
		over := max(n, (utf8.RuneCountInString(l.View(v))+3)/4) - budget
		if over <= 0 || (nf == 0 && nh == 0) {
			return
		}
		room -= max(over, budget/100)
	}
}

func measure(v *View, c summarize.Counter, l Layout) int {
	return summarize.Measure(v.Tokens, c, func() string { return l.View(v) })
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}
