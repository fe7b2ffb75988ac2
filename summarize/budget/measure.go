package budget

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Measure sets t.Estimated to the count of what render returns, which shows
// t itself: it counts again until the count it shows is the count it has.
//
// The first count is of the text showing 0; the next guess adds what the
// number costs more than "0" (a few tokens), so that one more count
// usually confirms it. A [SplitCounter] needs no second count: the number
// is priced alone, and the text is checked to differ from the first only
// by it.
func Measure(t *TokenInfo, c Counter, render func() string) int {
	if sc, ok := c.(SplitCounter); ok {
		if n, ok := measureSplit(t, sc, render); ok {
			return n
		}
	}
	t.Estimated = 0
	n := c.Count(render())
	t.Estimated = n + c.Count(strconv.Itoa(n)) - c.Count("0")
	for i := 0; i < 3; i++ {
		n := c.Count(render())
		if n == t.Estimated {
			break
		}
		t.Estimated = n
	}
	return t.Estimated
}

// measureSplit is Measure for a SplitCounter: the same steps, each count
// after the first made of the first and the number's own; false when the
// text shows the number in another way (twice, or next to digits), and
// Measure counts the texts whole.
func measureSplit(t *TokenInfo, c SplitCounter, render func() string) (int, bool) {
	t.Estimated = 0
	text0 := render()
	bpe0, runes0, zero := c.BPE(text0), utf8.RuneCountInString(text0), c.BPE("0")
	count := func(n int) int {
		d := strconv.Itoa(n)
		return c.Combine(bpe0-zero+c.BPE(d), runes0-1+len(d))
	}
	n := c.Combine(bpe0, runes0)
	est := n + c.Count(strconv.Itoa(n)) - c.Count("0")
	for i := 0; i < 3; i++ {
		n := count(est)
		if n == est {
			break
		}
		est = n
	}
	t.Estimated = est
	if !numberReplaced(text0, render(), strconv.Itoa(est)) {
		return 0, false
	}
	return est, true
}

// numberReplaced reports whether b is a with one "0" replaced by the digits
// d, and no number character either side of them.
func numberReplaced(a, b, d string) bool {
	if len(b) != len(a)-1+len(d) {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if i == len(a) {
		return a == b // d is "0"
	}
	if a[i] != '0' || b[i:i+len(d)] != d || a[i+1:] != b[i+len(d):] {
		return false
	}
	if r, _ := utf8.DecodeLastRuneInString(a[:i]); i > 0 && unicode.IsNumber(r) {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(a[i+1:]); i+1 < len(a) && unicode.IsNumber(r) {
		return false
	}
	return true
}
