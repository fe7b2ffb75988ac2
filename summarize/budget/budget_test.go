package budget_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/tokens"
)

// The kinds a findings view uses, for the tests.
const (
	summary = iota
	topLists
	finding
	context
)

func TestPack(t *testing.T) {
	t.Parallel()
	parts := []budget.Part{
		{Kind: summary, Tokens: 100}, {Kind: topLists, Tokens: 50},
		{Kind: finding, Tokens: 20}, {Kind: context, Tokens: 10, Needs: 3},
		{Kind: finding, Tokens: 20}, {Kind: context, Tokens: 10, Needs: 5},
		{Kind: finding, Tokens: 20}, {Kind: context, Tokens: 10, Needs: 7},
	}
	tests := map[string]struct {
		budget   int
		want     []bool
		wantUsed int
	}{
		// summary 100 + top lists 50 = 150; each finding 20, each context 10.
		"everything fits exactly":           {240, []bool{true, true, true, true, true, true, true, true}, 240},
		"one over: the last context":        {239, []bool{true, true, true, true, true, true, true, false}, 230},
		"findings before any context":       {210, []bool{true, true, true, false, true, false, true, false}, 210},
		"a prefix of contexts":              {209, []bool{true, true, true, true, true, false, false, false}, 200},
		"a prefix of findings":              {195, []bool{true, true, true, false, true, false, false, false}, 190},
		"top lists skipped, a finding fits": {120, []bool{true, false, true, false, false, false, false, false}, 120},
		"only the summary, over budget":     {50, []bool{true, false, false, false, false, false, false, false}, 100},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			keep, used := budget.Pack(parts, tc.budget, nil)
			if diff := cmp.Diff(tc.want, keep); diff != "" {
				t.Errorf("keep mismatch (-want +got):\n%s", diff)
			}
			if used != tc.wantUsed {
				t.Errorf("used = %d, want %d", used, tc.wantUsed)
			}
		})
	}
}

// TestPackShares: a diff's file lines fill at most half of the room the
// summary leaves; hunks the rest.
func TestPackShares(t *testing.T) {
	t.Parallel()
	const files, hunks = 1, 2
	parts := []budget.Part{
		{Kind: 0, Tokens: 40},
		{Kind: files, Tokens: 15}, {Kind: files, Tokens: 15}, {Kind: files, Tokens: 15},
		{Kind: hunks, Tokens: 25}, {Kind: hunks, Tokens: 25},
	}
	tests := map[string]struct {
		budget int
		want   []bool
	}{
		"room 60: two files (30 = half), one hunk": {100, []bool{true, true, true, false, true, false}},
		"room 61: still two files, a hunk":         {101, []bool{true, true, true, false, true, false}},
		"room 90: three files, one hunk":           {130, []bool{true, true, true, true, true, false}},
		"room 29: no file, one hunk":               {69, []bool{true, false, false, false, true, false}},
		"no room":                                  {30, []bool{true, false, false, false, false, false}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			keep, _ := budget.Pack(parts, tc.budget, map[int]int{files: 50})
			if diff := cmp.Diff(tc.want, keep); diff != "" {
				t.Errorf("keep mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// runeCounter counts a token per rune: exact, so that budgets are easy to
// reason about in the tests below.
type runeCounter struct{}

func (runeCounter) Count(s string) int { return len([]rune(s)) }
func (runeCounter) Name() string       { return "runes" }

// TestFit packs a view of a head and numbered items, each priced alone,
// whose whole costs a little more than its parts (a separator per item):
// Fit must end within the budget whenever the head alone fits, keep the
// longest prefix of items that fits, and go through the last resorts only
// when the head alone is over.
func TestFit(t *testing.T) {
	t.Parallel()
	item := func(i int) string { return fmt.Sprintf("item %02d %s", i, strings.Repeat("x", 40)) }
	const items = 20 // each item: 48 runes, +1 separator in the whole
	tests := map[string]struct {
		head      int // runes of the head
		budget    int
		wantItems int
		wantLevel int
		wantOver  bool
	}{
		"everything fits":                   {200, 2000, 20, 0, false},
		"fits whole, but not in the margin": {264, 1244, 19, 0, false}, // 264 + 20×49 = 1244 = the budget; packed into 97% of it
		"exactly fits the margin":           {235, 1232, 20, 0, false}, // 97% of 1232 = 1195 = 235 + 20×48, as priced
		"one over the margin":               {236, 1232, 19, 0, false},
		"nothing but the head fits":         {300, 340, 0, 0, false},
		"the head alone is over: resorts":   {1200, 1000, 0, 2, true},
		"a resort is enough":                {1001, 1000, 0, 1, false},
		"smallest budget, the head fits":    {200, 256, 1, 0, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			parts := []budget.Part{{Kind: 0, Tokens: tc.head}}
			for i := 0; i < items; i++ {
				parts = append(parts, budget.Part{Kind: 1, Tokens: len(item(i))})
			}
			var shown []string
			head, level := tc.head, 0
			plan := budget.Plan{
				Parts: parts,
				Apply: func(keep []bool, l int) {
					shown, level = shown[:0], l
					for i := range items {
						if keep[1+i] {
							shown = append(shown, item(i))
						}
					}
				},
				Levels: 2,
				Render: func() string {
					// Each resort halves what is left of the head over 1000.
					h := head
					for range level {
						h = 1000 + (h-1000)/2
					}
					return strings.Repeat("h", h) + strings.Join(append(shown, ""), "\n")
				},
			}
			n := budget.Fit(runeCounter{}, tc.budget, plan)
			if len(shown) != tc.wantItems || level != tc.wantLevel {
				t.Errorf("%d items at level %d, want %d at level %d", len(shown), level, tc.wantItems, tc.wantLevel)
			}
			if over := n > budget.Clamp(tc.budget); over != tc.wantOver {
				t.Errorf("cost %d, budget %d: over = %v, want %v", n, tc.budget, over, tc.wantOver)
			}
			if n != len([]rune(plan.Render())) {
				t.Errorf("Fit returned %d, the view costs %d", n, len([]rune(plan.Render())))
			}
		})
	}
}

// TestFitRepack: when the whole is over, packing again into less leaves
// out a large part of a lower kind, which makes room for smaller ones.
func TestFitRepack(t *testing.T) {
	t.Parallel()
	// head 100; a top list priced 300 that renders 400; items of 48 that
	// render 49. Budget 450: first pack (436) keeps the top list and no
	// item, whose whole (500) is over; the next (386) leaves the top list
	// out and keeps 5 items (100 + 5×49 = 345).
	parts := []budget.Part{{Kind: 0, Tokens: 100}, {Kind: 1, Tokens: 300}}
	for range 10 {
		parts = append(parts, budget.Part{Kind: 2, Tokens: 48})
	}
	var top bool
	var items int
	plan := budget.Plan{
		Parts: parts,
		Apply: func(keep []bool, _ int) {
			top, items = keep[1], 0
			for _, k := range keep[2:] {
				if k {
					items++
				}
			}
		},
		Render: func() string {
			s := strings.Repeat("h", 100) + strings.Repeat("i", 49*items)
			if top {
				s += strings.Repeat("t", 400)
			}
			return s
		},
	}
	n := budget.Fit(runeCounter{}, 450, plan)
	if top || items != 5 || n != 345 {
		t.Errorf("top list %v, %d items, cost %d; want no top list, 5 items, 345", top, items, n)
	}
}

// TestFitTokens: a view that states its own size states what it costs.
func TestFitTokens(t *testing.T) {
	t.Parallel()
	c, err := tokens.New(tokens.Max)
	if err != nil {
		t.Fatal(err)
	}
	var info budget.TokenInfo
	body := strings.Repeat(`{"rule":"UnusedImport","line":12} `, 200)
	var kept int
	plan := budget.Plan{
		Parts: []budget.Part{{Kind: 0, Tokens: 10}, {Kind: 1, Tokens: budget.Cost(c, body)}, {Kind: 1, Tokens: budget.Cost(c, body)}},
		Apply: func(keep []bool, _ int) {
			kept = 0
			for _, k := range keep[1:] {
				if k {
					kept++
				}
			}
		},
		Render: func() string {
			return `{"tokens":{"estimated":` + strconv.Itoa(info.Estimated) + `}}` + strings.Repeat(body, kept)
		},
		Tokens: &info,
	}
	n := budget.Fit(c, 3000, plan)
	if kept != 1 || n > 3000 || info.Estimated != c.Count(plan.Render()) || info.Budget != 3000 || info.Tokenizer != tokens.Max {
		t.Errorf("kept %d, cost %d, info %+v, counted %d", kept, n, info, c.Count(plan.Render()))
	}
}

// plainCounter hides a counter's SplitCounter methods, so that Measure
// counts every text whole.
type plainCounter struct{ budget.Counter }

// TestMeasureSplit: Measure with a split counter (one count, the number
// priced alone) gives what counting every text whole gives, wherever the
// number stands; where it cannot be priced alone (twice, next to digits),
// the texts are counted whole.
func TestMeasureSplit(t *testing.T) {
	t.Parallel()
	long := strings.Repeat(`{"id":"ab12-3","message":"Avoid unused imports such as 'java.util.List'","line":120} `, 300)
	renders := map[string]func(n int) string{
		"json": func(n int) string {
			return `{"tokens":{"estimated":` + strconv.Itoa(n) + `,"budget":8000},"x":` + long + `}`
		},
		"text":          func(n int) string { return long + "\n~" + strconv.Itoa(n) + " tokens\n" },
		"after letters": func(n int) string { return long + "estimated" + strconv.Itoa(n) + "tokens" },
		"after digits":  func(n int) string { return long + "12" + strconv.Itoa(n) },
		"before digits": func(n int) string { return strconv.Itoa(n) + "٣" + long },
		"twice":         func(n int) string { return strconv.Itoa(n) + long + strconv.Itoa(n) },
		"at the end":    func(n int) string { return long + strconv.Itoa(n) },
		"short":         func(n int) string { return strconv.Itoa(n) },
		"unicode":       func(n int) string { return "é" + strconv.Itoa(n) + "ü " + long },
	}
	for _, name := range tokens.Names() {
		c, err := tokens.New(name)
		if err != nil {
			t.Fatal(err)
		}
		for what, render := range renders {
			var split, whole budget.TokenInfo
			got := budget.Measure(&split, c, func() string { return render(split.Estimated) })
			want := budget.Measure(&whole, plainCounter{c}, func() string { return render(whole.Estimated) })
			if got != want || split.Estimated != want {
				t.Errorf("%s, %s: Measure = %d (estimated %d), counting whole texts %d", name, what, got, split.Estimated, want)
			}
			if n := c.Count(render(got)); n != got {
				t.Errorf("%s, %s: the text shows %d and counts %d", name, what, got, n)
			}
		}
	}
}
