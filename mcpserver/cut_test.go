package mcpserver

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/tokens"
)

// TestCut: an argument quoted in an error keeps at most 100 characters, the
// last one … when it was longer; one of 100 is kept whole.
func TestCut(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"", ""},
		{strings.Repeat("a", 100), strings.Repeat("a", 100)},
		{strings.Repeat("a", 101), strings.Repeat("a", 99) + "…"},
		{strings.Repeat("😀", 100), strings.Repeat("😀", 100)},
		{strings.Repeat("😀", 5000), strings.Repeat("😀", 99) + "…"},
		{strings.Repeat("é", 99) + "\xff\xfe", strings.Repeat("é", 99) + "…"},
	} {
		if got := cut(tc.in); got != tc.want {
			t.Errorf("cut(%.20q…) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestFitError: an error's text fits its budget (tokens and 4 characters a
// token) whatever its message, long arguments it quotes cut first.
func TestFitError(t *testing.T) {
	c, err := tokens.New(tokens.Default)
	if err != nil {
		t.Fatal(err)
	}
	arg := strings.Repeat(`x"é😀`, 200_000)
	for _, msg := range []string{
		"short",
		"no such file " + arg + ": check the path",
		`the pattern "` + strings.ReplaceAll(arg, `"`, `\"`) + `": bad`,
		strings.Repeat("word ", 300_000),
		strings.Repeat("😀", 300_000),
	} {
		for _, limit := range []int{256, 1000, budget.DefaultMaxTokens} {
			te, text, n := fitError(c, &ToolError{Code: CodeNotFound, Message: msg}, limit, []string{arg})
			if n > limit || budget.Cost(c, text) > limit || utf8.RuneCountInString(text) > 4*limit || text != te.Error() {
				t.Errorf("%.30q… in %d: %d tokens, %d characters", msg, limit, n, utf8.RuneCountInString(text))
			}
			if strings.Contains(text, arg[:200]) {
				t.Errorf("%.30q… in %d: the argument quoted whole", msg, limit)
			}
		}
	}
	if _, text, _ := fitError(c, &ToolError{Code: CodeNotFound, Message: "no such file " + arg + ": check the path"}, 256, []string{arg}); !strings.HasSuffix(text, ": check the path") {
		t.Errorf("the advice after a cut argument was lost: %s", text)
	}
}
