package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLongArgumentsCut: an argument of the command line longer than 100
// characters is quoted cut to 100 in the error (with …), whatever the
// command and the flag; the message still says what is wrong.
func TestLongArgumentsCut(t *testing.T) {
	digits := strings.Repeat("9", 309)
	long := strings.Repeat("é", 1<<19) // 1 MB
	tests := map[string]struct {
		args []string
		want string // in the message
	}{
		"a 309-digit --offset":           {[]string{"findings", "--offset", digits, "x.sarif"}, `invalid argument "9999`},
		"a 309-digit --offset=":          {[]string{"findings", "--offset=" + digits, "x.sarif"}, `invalid argument "9999`},
		"an unknown flag of 1 MB":        {[]string{"summary", "--" + long, "x.sarif"}, "unknown flag"},
		"an unknown command of 1 MB":     {[]string{long}, "unknown command"},
		"a --format of 1 MB":             {[]string{"summary", "--format", long, "x.sarif"}, "--format"},
		"a --max-tokens of 309 digits":   {[]string{"summary", "--max-tokens", digits, "x.sarif"}, "--max-tokens"},
		"an --http address of 1 MB":      {[]string{"mcp", "--http", long}, "--http"},
		"a --cache-size of 1 MB":         {[]string{"mcp", "--cache-size", long}, "--cache-size"},
		"a --fail-on of 1 MB":            {[]string{"summary", "--fail-on", long, "x.sarif"}, "--fail-on"},
		"a --base of 1 MB (a revision)":  {[]string{"diff", "--base", long}, "revision"},
		"a --tokenizer of 1 MB":          {[]string{"tokens", "--tokenizer", long, "x"}, "--tokenizer"},
		"a --sort of 1 MB":               {[]string{"findings", "--sort", long, "x.sarif"}, "--sort"},
		"a --filter-mode of 1 MB":        {[]string{"findings", "--filter-mode", long, "--changed-only", "x.sarif"}, "filter"},
		"a --severity of 1 MB":           {[]string{"findings", "--severity", long, "x.sarif"}, "--severity"},
		"a --path of 1 MB (a glob)":      {[]string{"findings", "--path", "[" + long, "x.sarif"}, "--path"},
		"a --max-chars of 309 digits":    {[]string{"summary", "--format", "markdown", "--max-chars", digits, "x.sarif"}, "--max-chars"},
		"a --repo of 1 MB, no directory": {[]string{"summary", "--repo", long, "x.sarif"}, "--repo"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Main(context.Background(), tc.args, strings.NewReader(""), &out, &errOut)
			msg := errOut.String()
			if code != exitUsage {
				t.Errorf("exit %d, want %d: %.300s", code, exitUsage, msg)
			}
			if n := utf8.RuneCountInString(msg); n > 600 || !strings.Contains(msg, "…") || !strings.Contains(msg, tc.want) {
				t.Errorf("a message of %d characters: %.600s", n, msg)
			}
		})
	}
}
