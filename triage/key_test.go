package triage

import (
	"math/rand/v2"
	"testing"
)

// slowPrefixKey is prefixKey without its eight characters read at once.
func slowPrefixKey(l []byte) uint64 { return prefixKeyFrom(l, asciiIndent(l)) }

// TestPrefixKey: a line's key is the same whether its first eight
// characters are read at once or one at a time.
func TestPrefixKey(t *testing.T) {
	lines := []string{"", "a", "        return x;", "\treturn  x;", "int v1 = compute(v0, 3);", "abcdefgh", "abcdefg ", "abc\x01defgh",
		"abc\x7fdefgh", "héllo wörld", "a b c d e f g h i", "\u00a0\u00a0abcdefghij", "12345678\xff", "!!!!!!!!", "~~~~~~~~~", "  \v\f\rabcdefgh"}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte(" \t\x00\x01\x1f !\"09AZaz~\x7f\x80\xc3\xa9\xe2\x80\xa8")
	spaced := []byte("      ab(")
	for range 20000 {
		b := make([]byte, r.IntN(14))
		if r.IntN(2) == 0 { // sixteen bytes or more, mostly printable, with spaces
			b = make([]byte, 16+r.IntN(14))
			for i := range b {
				b[i] = spaced[r.IntN(len(spaced))]
			}
		}
		for i := range b {
			if b[i] == 0 || r.IntN(40) == 0 {
				b[i] = alphabet[r.IntN(len(alphabet))]
			}
		}
		lines = append(lines, string(b))
	}
	for _, l := range lines {
		if got, want := prefixKey([]byte(l)), slowPrefixKey([]byte(l)); got != want {
			t.Fatalf("prefixKey(%q) = %x, want %x", l, got, want)
		}
	}
}

func FuzzPrefixKey(f *testing.F) {
	for _, s := range []string{"", "        return x;", "abcdefgh", "abc\x01defgh", "a b c d e f g h i j k l m n o p q", "abcdefgh        ijklmnop", "        a       b       c       d", "héllo wörld", "\u2028abcdefgh"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, l []byte) {
		if got, want := prefixKey(l), slowPrefixKey(l); got != want {
			t.Fatalf("prefixKey(%q) = %x, want %x", l, got, want)
		}
	})
}
