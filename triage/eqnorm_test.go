package triage

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// slowEqNorm is eqNorm as normalize defines it: the two lines without
// their white space, compared.
func slowEqNorm(a, b []byte) bool { return string(normalize(a)) == string(normalize(b)) }

// eqNormLines are lines that differ or not by white space, within and
// past their first eight bytes, indented by spaces and tabs, with
// characters of more than a byte and white space of more than one.
var eqNormLines = []string{"", "a", "        return x;", "\treturn  x;", "\t return x;", "return x;", "int v1 = compute(v0, 3);",
	"int v12 = compute(v11, 3);", "        int v12 = compute(v11, 3);", "intv12=compute(v11,3);", "abcdefgh", "abcdefg ", "abcdefgh ",
	"abc\x01defgh", "abc\x7fdefgh", "héllo wörld", "hé llo wörld", "a b c d e f g h i", "abcdefghi", "\u00a0\u00a0abcdefghij",
	"abcdefghij", "12345678\xff", "12345678\xfe", "!!!!!!!!", "~~~~~~~~~", "  \v\f\rabcdefgh", "abcdefgh\u2028", "abcdefgh\u3000x", "abcdefghx",
	"                        }", "}", "                                        deep(); // a comment past two words"}

// TestEqNorm: eqNorm, eight bytes at a time, tells the lines apart as
// their normalized texts do.
func TestEqNorm(t *testing.T) {
	lines := slices.Clone(eqNormLines)
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte(" \t\x00\x01\x1f !\"09AZaz~\x7f\x80\xc3\xa9\xe2\x80\xa8\x85")
	for range 4000 {
		// Pairs alike but for white space, and random ones.
		b := make([]byte, r.IntN(30))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		lines = append(lines, string(b), strings.Repeat(" ", r.IntN(20))+strings.ReplaceAll(string(b), " ", ""))
	}
	for i, a := range lines {
		for _, b := range lines[max(i-40, 0):min(i+40, len(lines))] {
			if got, want := eqNorm([]byte(a), []byte(b)), slowEqNorm([]byte(a), []byte(b)); got != want {
				t.Fatalf("eqNorm(%q, %q) = %v, want %v", a, b, got, want)
			}
		}
	}
}

func FuzzEqNorm(f *testing.F) {
	for i, s := range eqNormLines {
		f.Add([]byte(s), []byte(eqNormLines[(i+1)%len(eqNormLines)]))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		if got, want := eqNorm(a, b), slowEqNorm(a, b); got != want {
			t.Fatalf("eqNorm(%q, %q) = %v, want %v", a, b, got, want)
		}
	})
}
