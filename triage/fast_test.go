package triage

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// The expressions the fast reader's checks were written from: each check
// says what its expression says (TestChecksAsExpressions, FuzzChecks).
var (
	locationExpr = regexp.MustCompile(`^[0-9a-f]{16}:[1-9][0-9]{0,8}$`)
	commitExpr   = regexp.MustCompile(`^[0-9a-f]{7,64}$`)
	dayExpr      = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
	yamlCommit   = regexp.MustCompile(`^[0-9a-f]*[a-df][0-9a-f]*$`)
	timeExpr     = regexp.MustCompile(`^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}[ Tt]`)
)

// fastTextByByte is fastText a character at a time.
func fastTextByByte(data []byte) bool {
	for s := string(data); s != ""; {
		n := textChar(s)
		if n == 0 {
			return false
		}
		s = s[n:]
	}
	return true
}

// textCharOK is what the expression textChar stands for says of s: UTF-8
// of printable characters and newlines, none that YAML reads as a line
// break or refuses.
func textCharOK(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 && r != '\n' || r >= 0x7f && r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff {
			return false
		}
	}
	return true
}

// checksDiffer says which of the fast reader's checks of s differs from
// its expression ("" for none).
func checksDiffer(s string) string {
	for _, c := range []struct {
		name string
		got  bool
		want bool
	}{
		{"isLocation", isLocation(s), locationExpr.MatchString(s)},
		{"isCommit", isCommit(s), commitExpr.MatchString(s)},
		{"isDay", isDay(s), dayExpr.MatchString(s)},
		{"isYAMLCommit", isYAMLCommit(s), yamlCommit.MatchString(s)},
		{"startsWithTime", startsWithTime(s), timeExpr.MatchString(s)},
		{"hasDotDot", hasDotDot(s), slices.Contains(strings.Split(s, "/"), "..")},
		{"folded", folded(s), foldSpace(s) == s && strings.IndexFunc(s, func(r rune) bool { return r >= utf8.RuneSelf || r < ' ' || r == 0x7f }) < 0},
		{"fastText", fastText(s), fastTextByByte([]byte(s))},
		{"textChar", textCharOK(s), fastTextByByte([]byte(s))},
		{"hasPair(: )", hasPair(s, ':', ' '), strings.Contains(s, ": ")},
		{"hasPair( #)", hasPair(s, ' ', '#'), strings.Contains(s, " #")},
	} {
		if c.got != c.want {
			return c.name
		}
	}
	return ""
}

var checkCases = []string{
	"", "0123456789abcdef:1", "0123456789abcdef:0", "0123456789abcdef:123456789", "0123456789abcdef:1234567890",
	"0123456789ABCDEF:1", "0123456789abcde:1", "0123456789abcdef0:1", "0123456789abcdef:", "0123456789abcdef:1a",
	"abcdef0", "abcdef", strings.Repeat("a", 64), strings.Repeat("a", 65), "1234567", "12e4567", "12e45a7", "eeeeeee",
	"2026-11-29", "2026-1-29", "2026-11-299", "20261-11-29", "2026-11-29 10:00", "2026-1-2 x", "2026-1-2T", "2026-1-2t",
	"2026-123-4 x", "2026-12-345 x", "2026-1-", "2026-", "2026-1-2", "202a-1-2 x",
	"a/../b", "..", "a/..", "../a", "a/...", "a/.b", "a//b", "/", "a/b",
	"one two", "one  two", " one", "one ", "one\ttwo", "caf\u00e9",
	"12345678\n12345678", strings.Repeat("abcdefg\n", 9), "abcdefgh\x7f", "abcdefgh\x1f", "abcdefghijklmnop\u2028x",
	"a: b", "a:b", ":", ": ", "a #", " #", "#", "a#b", "a # b: c", "::  ##",
	"abcdefgh\u0085", "~~~~~~~~~~~~~~~~", "        \x00", "abcdefg\xff", "\xef\xbb\xbfabcdefgh", "abcdefgh\u00a0ijklmnop",
}

// TestChecksAsExpressions: each of the fast reader's checks says what the
// expression it replaced says (fastText what a character at a time says).
func TestChecksAsExpressions(t *testing.T) {
	for _, s := range checkCases {
		if c := checksDiffer(s); c != "" {
			t.Errorf("%s(%q) is not its expression's", c, s)
		}
	}
}

func FuzzChecks(f *testing.F) {
	for _, s := range checkCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if c := checksDiffer(s); c != "" {
			t.Fatalf("%s(%q) is not its expression's", c, s)
		}
	})
}
