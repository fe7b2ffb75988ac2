// Command genrepo generates a git repository with a long, realistic history
// for measuring recap diff against git diff (see the README's performance
// section):
//
//	go run ./scripts/genrepo -files 3000 -commits 3000 /tmp/bigrepo
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/recap-dev/recap/internal/genrepo"
)

func main() {
	var o genrepo.Options
	flag.IntVar(&o.Files, "files", 3000, "files in the first commit")
	flag.IntVar(&o.Commits, "commits", 3000, "commits after the first")
	flag.Int64Var(&o.Seed, "seed", 1, "random seed: the same seed makes the same history")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: genrepo [-files N] [-commits N] [-seed N] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	start := time.Now()
	if err := genrepo.Generate(flag.Arg(0), o); err != nil {
		fmt.Fprintln(os.Stderr, "genrepo:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "genrepo: %d files, %d commits in %s (%.1fs)\n", o.Files, o.Commits+1, flag.Arg(0), time.Since(start).Seconds())
}
