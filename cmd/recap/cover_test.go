package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The end-to-end tests run a built recap, whose code go test -cover does
// not see. Under go test -cover the binary is built with -cover of every
// recap package and its runs write their counters to a directory of their
// own; after the tests, their coverage is printed beside go test's own line
// and, with -coverprofile, added to the profile, so that `go tool cover`
// counts what the end-to-end tests run. With $GOCOVERDIR set (and no
// -cover), the runs write their counters there, for `go tool covdata`.
type coverage struct {
	dir, mode string
	own       bool // dir is ours: report it after the tests
}

const coverPkgs = "github.com/recap-dev/recap/..."

func binaryCoverage(tmp string) coverage {
	if mode := testing.CoverMode(); mode != "" {
		dir := filepath.Join(tmp, "cover")
		if err := os.Mkdir(dir, 0o755); err != nil {
			panic(err)
		}
		os.Setenv("GOCOVERDIR", dir)
		return coverage{dir: dir, mode: mode, own: true}
	}
	if dir := os.Getenv("GOCOVERDIR"); dir != "" {
		return coverage{dir: dir, mode: "set"}
	}
	return coverage{}
}

func (c coverage) buildFlags() []string {
	if c.dir == "" {
		return nil
	}
	return []string{"-cover", "-covermode=" + c.mode, "-coverpkg=" + coverPkgs}
}

// report prints the binary's coverage, in total and of the command line's
// package, and adds its blocks to -coverprofile's file.
func (c coverage) report() {
	if !c.own {
		return
	}
	profile := filepath.Join(c.dir, "..", "binary.cover")
	if out, err := exec.Command("go", "tool", "covdata", "textfmt", "-i", c.dir, "-o", profile).CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "recap binary coverage: %v\n%s", err, out)
		return
	}
	b, err := os.ReadFile(profile)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	fmt.Printf("recap binary (end-to-end runs): coverage: %s of statements in %s; %s in cmd/recap/internal/cli\n",
		percent(string(b), ""), coverPkgs, percent(string(b), "github.com/recap-dev/recap/cmd/recap/internal/cli/"))
	if f := flag.Lookup("test.coverprofile"); f != nil && f.Value.String() != "" {
		name := f.Value.String()
		if out := flag.Lookup("test.outputdir"); out != nil && out.Value.String() != "" && !filepath.IsAbs(name) {
			name = filepath.Join(out.Value.String(), name)
		}
		w, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return
		}
		_, body, _ := strings.Cut(string(b), "\n") // the mode line is the profile's already
		w.WriteString(body)
		w.Close()
	}
}

// percent is the share of statements run among the blocks of a text
// profile whose file starts with prefix. A block the profile lists twice
// (from two runs) counts once.
func percent(profile, prefix string) string {
	type block struct {
		stmts int
		run   bool
	}
	blocks := map[string]block{}
	sc := bufio.NewScanner(strings.NewReader(profile))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 || !strings.HasPrefix(f[0], prefix) || strings.HasPrefix(f[0], "mode:") {
			continue
		}
		n, _ := strconv.Atoi(f[1])
		count, _ := strconv.Atoi(f[2])
		b := blocks[f[0]]
		b.stmts = n
		b.run = b.run || count > 0
		blocks[f[0]] = b
	}
	var all, run int
	for _, b := range blocks {
		all += b.stmts
		if b.run {
			run += b.stmts
		}
	}
	if all == 0 {
		return "0.0%"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(run)/float64(all))
}
