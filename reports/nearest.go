package reports

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxNearest is how many words [Nearest] returns at most: a suggestion
// names a few words, not a list to read.
const MaxNearest = 3

// maxNearestRunes bounds the words [Nearest] measures the distance of: past
// it, only case and containment count, so that a long word costs no more
// than a short one (the distance takes the product of the two lengths).
const maxNearestRunes = 128

// Nearest returns the words of words closest to word, for a "did you mean"
// suggestion after a typo ("hihg" → "high", "FinalParameter" →
// "FinalParameters", "pmd7" → "PMD"). Words are compared
// case-insensitively. A word is near when its Damerau-Levenshtein distance
// (optimal string alignment: an insertion, a deletion, a substitution or a
// swap of two neighbours each count 1) is at most a third of word's length,
// and at least 1; or when one of the two contains the other and the shorter
// has 3 letters or more ("Prone" → "Error Prone"). The nearest come first
// (then in the order of words), duplicates once, at most [MaxNearest]. A
// word equal to word but for case is the only answer; none near is nil.
func Nearest(word string, words []string) []string {
	w := strings.ToLower(strings.TrimSpace(word))
	if w == "" {
		return nil
	}
	for _, c := range words {
		if strings.EqualFold(strings.TrimSpace(c), w) {
			return []string{c}
		}
	}
	wr := []rune(w)
	limit := max(1, len(wr)/3)
	type near struct {
		word string
		d    int
	}
	var found []near
	seen := map[string]bool{}
	for _, c := range words {
		lc := strings.ToLower(strings.TrimSpace(c))
		if lc == "" || seen[c] {
			continue
		}
		if d, ok := nearness(w, wr, lc, limit); ok {
			seen[c] = true
			found = append(found, near{c, d})
		}
	}
	slices.SortStableFunc(found, func(a, b near) int { return a.d - b.d })
	out := make([]string, 0, min(len(found), MaxNearest))
	for _, n := range found[:min(len(found), MaxNearest)] {
		out = append(out, n.word)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// nearness says whether c is near w (both lower-cased; wr is w's runes)
// and how near: the edit distance, or for a containment the difference in
// length.
func nearness(w string, wr []rune, c string, limit int) (int, bool) {
	n := utf8.RuneCountInString(c)
	if short := min(len(wr), n); short >= 3 && (strings.Contains(c, w) || strings.Contains(w, c)) {
		return max(len(wr), n) - short, true
	}
	if abs(n-len(wr)) > limit || n > maxNearestRunes || len(wr) > maxNearestRunes {
		return 0, false
	}
	d := editDistance(wr, []rune(c))
	return d, d <= limit
}

// editDistance is the optimal string alignment distance of a and b: the
// Levenshtein distance where swapping two neighbouring letters costs 1.
func editDistance(a, b []rune) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
