package reports

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/recap-dev/recap/internal/text"
)

// ClosestWords returns the words of list nearest to word, nearest first:
// those within an edit distance of a third of the word's length (at least
// 2), compared ignoring case, spaces, '-' and '_' as the category table
// compares words; at most max of them. A word of list that starts with
// word, or that word starts with, is near too. At most n are returned.
func ClosestWords(word string, list []string, n int) []string {
	w := foldWord(word)
	type scored struct {
		word string
		d    int
	}
	var near []scored
	seen := map[string]bool{}
	limit := max(2, min(3, utf8.RuneCountInString(w)/3+1))
	for _, c := range list {
		f := foldWord(c)
		if seen[f] || f == "" {
			continue
		}
		seen[f] = true
		prefix := len(w) >= 3 && (strings.HasPrefix(f, w) || strings.HasPrefix(w, f) && len(f) >= 3)
		var d int
		if nw, nf := utf8.RuneCountInString(w), utf8.RuneCountInString(f); nw > maxTypoRunes || nf > maxTypoRunes {
			// No typo of a word this long: only a prefix is near (the edit
			// distance costs the product of the lengths).
			d = max(nw-nf, nf-nw)
			if !prefix {
				continue
			}
		} else {
			d = editDistance(w, f)
		}
		if d <= limit || prefix {
			near = append(near, scored{c, d})
		}
	}
	sort.SliceStable(near, func(i, j int) bool { return near[i].d < near[j].d })
	out := make([]string, 0, min(len(near), n))
	for _, s := range near {
		if len(out) == n {
			break
		}
		out = append(out, s.word)
	}
	return out
}

// maxTypoRunes bounds the words whose edit distance is worked out: past
// it, a word is compared by its prefix only (a rule or a tool of 4,096
// characters against hundreds of rule ids would cost seconds).
const maxTypoRunes = 200

// editDistance is the Damerau-Levenshtein distance (optimal string
// alignment) between a and b, by runes.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}

// CategoryWords are the words a category filter takes: the scale's names
// and the tools' words of the category table.
func CategoryWords() []string {
	out := append([]string(nil), Categories...)
	for _, r := range CategoryTable {
		out = append(out, r.Word)
	}
	return out
}

// KnownCategory reports whether word names a category of the scale or is a
// tool's word of the category table (compared as the table compares words).
func KnownCategory(word string) bool {
	w := foldWord(word)
	if w == "" {
		return false
	}
	for k := range categoryIndex {
		if k[1] == w {
			return true
		}
	}
	return strings.HasSuffix(w, "rules") && KnownCategory(strings.TrimSuffix(w, "rules"))
}

// UnknownWord is the error of a word that is not on one of recap's scales:
// it names what was given, the nearest of words, and the scale.
func UnknownWord(what, word string, words, scale []string) error {
	msg := fmt.Sprintf("unknown %s %q", what, word)
	if near := ClosestWords(word, words, 3); len(near) > 0 {
		msg += "; did you mean " + text.List(near, "or") + "?"
	}
	return fmt.Errorf("%s (want %s)", msg, text.List(scale, "or"))
}
