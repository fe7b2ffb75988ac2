// Command hostile runs recap's hostile-input cases (internal/hostile) at
// full size — gigabyte streams made on the fly, 2 GB sparse files — and
// prints a Markdown table of each: its input, how recap ended, the wall
// time, the peak RSS (the process's rusage), the bound and whether it was
// kept. The test command runs the same cases at small sizes (TestHostile
// in cmd/recap/hostile).
//
//	go build -o /tmp/recap ./cmd/recap
//	go run ./scripts/hostile -recap /tmp/recap
//
// -size test runs the test sizes instead; -run keeps the cases whose name
// matches a regular expression.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/recap-dev/recap/internal/hostile"
)

func main() {
	recap := flag.String("recap", "", "the recap binary (default: built from this checkout)")
	size := flag.String("size", "full", "full, or test (the sizes of the test command)")
	run := flag.String("run", "", "only the cases whose name matches this regular expression")
	timeout := flag.Duration("timeout", 10*time.Minute, "time limit of one case")
	flag.Parse()
	log.SetFlags(0)
	match, err := regexp.Compile(*run)
	if err != nil {
		log.Fatal(err)
	}
	tmp, err := os.MkdirTemp("", "recap-hostile")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	if *recap == "" {
		*recap = filepath.Join(tmp, "recap")
		if out, err := exec.Command("go", "build", "-o", *recap, "./cmd/recap").CombinedOutput(); err != nil {
			log.Fatalf("building recap: %v\n%s", err, out)
		}
	}
	fmt.Println("| case | input | result | wall | peak RSS | bound | within? |")
	fmt.Println("| --- | --- | --- | ---: | ---: | ---: | --- |")
	failed := false
	for _, c := range hostile.Cases() {
		if !match.MatchString(c.Name) {
			continue
		}
		if tool := c.Missing(); tool != "" {
			fmt.Printf("| %s | | skipped: %s is not installed | | | | |\n", c.Name, tool)
			continue
		}
		n := c.Full
		if *size == "test" {
			n = c.Size
		}
		dir := filepath.Join(tmp, "case")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			log.Fatal(err)
		}
		r, err := hostile.Run(*recap, dir, c, n, *timeout)
		os.RemoveAll(dir)
		result, within := "", "no"
		switch {
		case err != nil:
			result = "✗ " + err.Error()
		default:
			result = hostile.Describe(r)
			if cerr := c.Check(r); cerr != nil {
				result = "✗ " + cerr.Error() + " (" + result + ")"
			} else if r.MaxRSS <= c.Bound {
				within = "yes"
			}
		}
		if within != "yes" {
			failed = true
		}
		wall, rss, what := "–", "–", hostile.Size(n)
		if r != nil {
			wall = fmt.Sprintf("%.1f s", r.Wall.Seconds())
			rss = fmt.Sprintf("%.0f MiB", float64(r.MaxRSS)/hostile.MiB)
			what = r.What
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %d MiB | %s |\n", c.Name, what, cell(result), wall, rss, c.Bound/hostile.MiB, within)
	}
	if failed {
		os.Exit(1)
	}
}

// cell makes text fit a table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:159]) + "…"
	}
	return s
}
