package text

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCutBytes(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 5, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "…"},
		{"abcdefgh", 7, "abcd…"},
		{"héllo wörld", 7, "hél…"}, // é is two bytes
		{"日本語のテキスト", 8, "日…"},      // a character is not split
		{"abcdef", 1, "…"},
	} {
		got := CutBytes(tc.s, tc.n)
		if got != tc.want {
			t.Errorf("CutBytes(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("CutBytes(%q, %d) = %q: not valid UTF-8", tc.s, tc.n, got)
		}
		if tc.n >= len(Ellipsis) && len(got) > tc.n {
			t.Errorf("CutBytes(%q, %d) = %q: %d bytes", tc.s, tc.n, got, len(got))
		}
	}
}

func TestCutRunes(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"日本語", 3, "日本語"},
		{"日本語の", 3, "日本…"},
		{"abcd", 3, "ab…"},
		{"abcd", 1, "…"},
		{"abcd", 0, ""},
		{strings.Repeat("x", 200), 100, strings.Repeat("x", 99) + "…"},
	} {
		if got := CutRunes(tc.s, tc.n); got != tc.want {
			t.Errorf("CutRunes(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// TestCutRunesAsRunes: CutRunes gives what cutting the runes of s gives.
func TestCutRunesAsRunes(t *testing.T) {
	for _, s := range []string{"", "a", "ab", "日本語のテキスト", "mixed ascii and 日本語", strings.Repeat("é", 50)} {
		for n := 1; n < 30; n++ {
			want := s
			if r := []rune(s); len(r) > n {
				want = string(r[:n-1]) + Ellipsis
			}
			if got := CutRunes(s, n); got != want {
				t.Errorf("CutRunes(%q, %d) = %q, want %q", s, n, got, want)
			}
		}
	}
}

func TestList(t *testing.T) {
	tests := []struct {
		items []string
		conj  string
		want  string
	}{
		{nil, "or", ""},
		{[]string{"a"}, "or", "a"},
		{[]string{"a", "b"}, "or", "a or b"},
		{[]string{"a", "b", "c"}, "and", "a, b and c"},
		{[]string{"a", "b", "c"}, "", "a, b, c"},
	}
	for _, tt := range tests {
		if got := List(tt.items, tt.conj); got != tt.want {
			t.Errorf("List(%q, %q) = %q, want %q", tt.items, tt.conj, got, tt.want)
		}
	}
}
