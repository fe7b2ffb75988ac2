// Command testcount reads `go test -json` on its standard input, prints
// what `go test` prints (each package's line, and the whole output of a
// test that failed), and ends with one line counting the tests that
// passed, failed and were skipped, followed by each skipped test with the
// reason it gave. It exits 1 when a test or a package failed.
//
//	go test -json ./... | go run ./scripts/testcount
//
// -total=false leaves the closing lines out (a step of several), and
// -quiet prints the closing lines alone (the steps' log read again).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// event is test2json's (go doc test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

type skip struct{ name, reason string }

type counts struct {
	pass, fail, skip int
	pkgFail          int
	skipped          []skip
}

func main() {
	total := flag.Bool("total", true, "end with the counts and the skipped tests")
	quiet := flag.Bool("quiet", false, "print the counts and the skipped tests alone")
	flag.Parse()
	var w io.Writer = os.Stdout
	if *quiet {
		w = io.Discard
	}
	c, err := count(os.Stdin, w)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testcount:", err)
		os.Exit(2)
	}
	if !*total {
		if c.fail > 0 || c.pkgFail > 0 {
			os.Exit(1)
		}
		return
	}
	fmt.Println(c.line())
	for _, s := range c.skipped {
		fmt.Printf("  skipped %s: %s\n", s.name, s.reason)
	}
	if c.fail > 0 || c.pkgFail > 0 {
		os.Exit(1)
	}
}

// count reads the events of r, writes go test's own lines to w, and counts.
func count(r io.Reader, w io.Writer) (*counts, error) {
	c := &counts{}
	out := map[string][]string{} // package\x00test → its output
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
			// A line that is no event (a build error) is shown as it is.
			fmt.Fprintln(w, string(line))
			continue
		}
		key := e.Package + "\x00" + e.Test
		switch e.Action {
		case "output":
			if e.Test == "" {
				if !strings.HasPrefix(e.Output, "=== ") && !strings.HasPrefix(e.Output, "PASS\n") {
					fmt.Fprint(w, e.Output)
				}
				continue
			}
			out[key] = append(out[key], e.Output)
		case "pass":
			if e.Test != "" {
				c.pass++
			}
			delete(out, key)
		case "fail":
			if e.Test == "" {
				c.pkgFail++
				continue
			}
			c.fail++
			fmt.Fprint(w, strings.Join(out[key], ""))
			delete(out, key)
		case "skip":
			if e.Test == "" {
				continue // a package without tests
			}
			c.skip++
			c.skipped = append(c.skipped, skip{e.Package + "." + e.Test, reason(out[key])})
			delete(out, key)
		}
	}
	sort.Slice(c.skipped, func(i, j int) bool { return c.skipped[i].name < c.skipped[j].name })
	return c, sc.Err()
}

// reason is what a skipped test said: its last line of output other than
// go test's own "--- SKIP" and "=== RUN", without the file:line prefix.
func reason(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "--- SKIP") || strings.HasPrefix(l, "=== ") {
			continue
		}
		if f, rest, ok := strings.Cut(l, ": "); ok && strings.Contains(f, ".go:") {
			l = rest
		}
		return l
	}
	return "no reason given"
}

func (c *counts) line() string {
	s := fmt.Sprintf("tests: %d passed, %d failed, %d skipped", c.pass, c.fail, c.skip)
	if c.pkgFail > 0 {
		s += fmt.Sprintf(" (%d packages failed)", c.pkgFail)
	}
	return s
}
