package reports

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNearest(t *testing.T) {
	impacts := []string{"blocker", "high", "medium", "low", "info"}
	tests := map[string]struct {
		word  string
		words []string
		want  []string
	}{
		"swap":                        {"hihg", impacts, []string{"high"}},
		"one letter missing":          {"hgh", impacts, []string{"high"}},
		"case only":                   {"HIGH", impacts, []string{"high"}},
		"exact wins alone":            {"low", []string{"lows", "low", "slow"}, []string{"low"}},
		"nothing near":                {"Bugs", Categories, nil},
		"contained":                   {"Prone", Categories, []string{"Error Prone"}},
		"containing":                  {"pmd7", []string{"PMD", "Checkstyle", "SpotBugs"}, []string{"PMD"}},
		"plural missing":              {"FinalParameter", []string{"FinalParameters", "FinalLocalVariable", "HiddenField"}, []string{"FinalParameters"}},
		"category spelling":           {"error prone", Categories, []string{"Error Prone"}},
		"closest first":               {"maintenability", []string{"security", "reliability", "maintainability"}, []string{"maintainability"}},
		"several, by distance":        {"lov", []string{"low", "love", "lo", "high"}, []string{"low", "love", "lo"}},
		"at most three":               {"ab", []string{"abc", "abd", "abe", "abf"}, []string{"abc", "abd", "abe"}},
		"duplicates once":             {"hgh", []string{"high", "high"}, []string{"high"}},
		"empty word":                  {"", impacts, nil},
		"empty list":                  {"high", nil, nil},
		"two letters, no containment": {"ig", []string{"high"}, nil},
		"unicode":                     {"catégorie", []string{"categorie", "catégories"}, []string{"categorie", "catégories"}},
		"long word":                   {strings.Repeat("a", 1000), []string{strings.Repeat("a", 999) + "b"}, nil},
		"long word contained":         {strings.Repeat("a", 1000), []string{strings.Repeat("a", 999)}, []string{strings.Repeat("a", 999)}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := Nearest(tc.word, tc.words)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Nearest(%.20q) mismatch (-want +got):\n%s", tc.word, diff)
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"hihg", "high", 1}, {"ca", "abc", 3}, {"abcdef", "abcdef", 0}, {"ab", "ba", 1},
	} {
		if got := editDistance([]rune(tc.a), []rune(tc.b)); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// BenchmarkNearest measures a suggestion among many words: the rules
// present in a large report.
func BenchmarkNearest(b *testing.B) {
	words := make([]string, 5000)
	for i := range words {
		words[i] = "com.puppycrawl.tools.checkstyle.checks.Rule" + strings.Repeat("x", i%40)
	}
	for b.Loop() {
		Nearest("FinalParameter", words)
	}
}
