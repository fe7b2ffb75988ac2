package cli

import (
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/recap-dev/recap/internal/text"
)

// maxEcho bounds an argument of the command line quoted in an error, in
// characters, as the MCP server bounds its arguments': a 309-digit
// --offset or an unknown flag of a megabyte is quoted cut, its last
// character "…".
const maxEcho = 100

// cutEchoes cuts, wherever msg quotes them (as they are or escaped as %q
// quotes them), the arguments of the command line longer than maxEcho and
// the values of --flag=value arguments. A path that names a file or a
// directory is left whole: a message about it names it.
func cutEchoes(msg string, args []string) string {
	for _, a := range args {
		_, value, _ := strings.Cut(a, "=")
		for _, s := range []string{a, value} {
			if utf8.RuneCountInString(s) <= maxEcho || !strings.Contains(msg, s) && !strings.Contains(msg, quoted(s)) {
				continue
			}
			if _, err := os.Lstat(s); err == nil {
				continue
			}
			msg = strings.ReplaceAll(msg, s, text.CutRunes(s, maxEcho))
			if q := quoted(s); q != s {
				msg = strings.ReplaceAll(msg, q, text.CutRunes(q, maxEcho))
			}
		}
	}
	return msg
}

// quoted is s as %q writes it, without its quotes.
func quoted(s string) string {
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}
