// Package genrepo generates a git repository with a long, realistic history
// (thousands of Java-like files and commits: edits, inserted and deleted
// blocks, re-indents, blank lines, renames, new and deleted files) through
// git fast-import, for measuring diffs on ranges of hundreds of commits.
package genrepo

import (
	"bufio"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path"
	"sort"
	"strings"
)

// Options size the repository.
type Options struct {
	Files   int   // files in the first commit
	Commits int   // commits after the first
	Seed    int64 // the same seed makes the same history
}

// Generate makes a repository in dir (created, or empty) with branch main.
// It needs the git binary.
func Generate(dir string, o Options) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if out, err := exec.Command("git", "-C", dir, "init", "-q", "-b", "main").CombinedOutput(); err != nil {
		return fmt.Errorf("git init: %v: %s", err, out)
	}
	cmd := exec.Command("git", "-C", dir, "fast-import", "--quiet", "--done")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	w := bufio.NewWriterSize(stdin, 1<<20)
	werr := newHistory(o).write(w)
	if werr == nil {
		werr = w.Flush()
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git fast-import: %v: %s", err, stderr.String())
	}
	if werr != nil {
		return werr
	}
	if out, err := exec.Command("git", "-C", dir, "checkout", "-q", "-f", "main").CombinedOutput(); err != nil {
		return fmt.Errorf("git checkout: %v: %s", err, out)
	}
	return nil
}

type history struct {
	o     Options
	rng   *rand.Rand
	files map[string][]string
	names []string // sorted keys of files, for a reproducible choice
	seq   int
}

func newHistory(o Options) *history {
	return &history{o: o, rng: rand.New(rand.NewSource(o.Seed)), files: map[string][]string{}}
}

var (
	packages = []string{"core", "web", "data", "util", "service", "model", "config", "http", "cache", "auth", "jdbc", "io"}
	nouns    = []string{"Order", "Customer", "Invoice", "Payment", "Session", "Request", "Response", "Handler", "Registry", "Factory", "Builder", "Mapper", "Parser", "Writer", "Reader", "Client"}
	suffixes = []string{"", "Impl", "Support", "Utils", "Service", "Tests", "Config", "Adapter"}
	verbs    = []string{"get", "set", "find", "load", "save", "resolve", "apply", "create", "build", "parse", "write", "check", "update", "remove"}
	types    = []string{"String", "int", "long", "boolean", "List<String>", "Map<String, Object>", "Optional<Order>", "byte[]"}
)

func (h *history) pick(xs []string) string { return xs[h.rng.Intn(len(xs))] }

func (h *history) statement(indent int) string {
	h.seq++
	pad := strings.Repeat("    ", indent)
	switch h.rng.Intn(7) {
	case 0:
		return fmt.Sprintf("%s%s value%d = %s%s(%d);", pad, h.pick(types), h.seq, h.pick(verbs), h.pick(nouns), h.rng.Intn(100))
	case 1:
		return fmt.Sprintf("%sif (value%d != null && value%d.isEmpty()) {", pad, h.seq, h.seq) + "\n" +
			fmt.Sprintf("%s    throw new IllegalStateException(\"%s %s failed\");", pad, h.pick(verbs), strings.ToLower(h.pick(nouns))) + "\n" + pad + "}"
	case 2:
		return fmt.Sprintf("%s// %s the %s before the %s is %sd", pad, h.pick(verbs), strings.ToLower(h.pick(nouns)), strings.ToLower(h.pick(nouns)), h.pick(verbs))
	case 3:
		return fmt.Sprintf("%sthis.%s%d = %s;", pad, strings.ToLower(h.pick(nouns)), h.seq, h.pick([]string{"null", "0", "true", "\"\"", "new ArrayList<>()"}))
	case 4:
		return fmt.Sprintf("%sfor (%s item : items%d) {\n%s    process(item, %d);\n%s}", pad, h.pick(types), h.seq, pad, h.rng.Intn(10), pad)
	case 5:
		return fmt.Sprintf("%sreturn %s%s(value%d);", pad, h.pick(verbs), h.pick(nouns), h.seq)
	}
	return fmt.Sprintf("%slogger.debug(\"%s %d\", %s);", pad, h.pick(verbs), h.seq, strings.ToLower(h.pick(nouns)))
}

func (h *history) method() []string {
	name := h.pick(verbs) + h.pick(nouns)
	out := []string{"", fmt.Sprintf("    public %s %s%d(%s arg) {", h.pick(types), name, h.rng.Intn(1000), h.pick(types))}
	for i := 0; i < 2+h.rng.Intn(8); i++ {
		out = append(out, strings.Split(h.statement(2), "\n")...)
	}
	return append(out, "    }")
}

func (h *history) newFile() (string, []string) {
	for {
		cls := h.pick(nouns) + h.pick(suffixes) + fmt.Sprint(h.rng.Intn(500))
		p := path.Join("src/main/java/org/example", h.pick(packages), cls+".java")
		if _, ok := h.files[p]; ok {
			continue
		}
		lines := []string{"package org.example." + path.Base(path.Dir(p)) + ";", "", "import java.util.*;", "", "public class " + cls + " {"}
		for i := 0; i < 3+h.rng.Intn(12); i++ {
			lines = append(lines, h.method()...)
		}
		return p, append(lines, "}")
	}
}

func (h *history) setNames() {
	h.names = h.names[:0]
	for p := range h.files {
		h.names = append(h.names, p)
	}
	sort.Strings(h.names)
}

// edit changes lines in one of the ways code changes.
func (h *history) edit(lines []string) []string {
	if len(lines) < 8 {
		return append(lines[:len(lines)-1], append(h.method(), "}")...)
	}
	at := 5 + h.rng.Intn(len(lines)-7)
	switch r := h.rng.Intn(100); {
	case r < 35: // change a line
		indent := (len(lines[at]) - len(strings.TrimLeft(lines[at], " "))) / 4
		lines[at] = strings.Split(h.statement(max(indent, 1)), "\n")[0]
	case r < 55: // insert statements
		var ins []string
		for i := 0; i < 1+h.rng.Intn(4); i++ {
			ins = append(ins, strings.Split(h.statement(2), "\n")...)
		}
		lines = append(lines[:at], append(ins, lines[at:]...)...)
	case r < 68: // add a method
		lines = append(lines[:len(lines)-1], append(h.method(), "}")...)
	case r < 80: // delete lines
		end := min(at+1+h.rng.Intn(5), len(lines)-1)
		lines = append(lines[:at], lines[end:]...)
	case r < 88: // re-indent a block (a formatter run)
		end := min(at+3+h.rng.Intn(10), len(lines)-1)
		for i := at; i < end; i++ {
			if strings.HasPrefix(lines[i], "    ") {
				lines[i] = "\t" + lines[i][4:]
			}
		}
	case r < 94: // a blank line
		lines = append(lines[:at], append([]string{""}, lines[at:]...)...)
	default: // trailing blanks
		lines[at] += "  "
	}
	return lines
}

func blob(w io.Writer, lines []string) {
	content := strings.Join(lines, "\n") + "\n"
	fmt.Fprintf(w, "data %d\n%s\n", len(content), content)
}

func (h *history) write(w *bufio.Writer) error {
	when := int64(1_700_000_000)
	commit := func(msg string) {
		when += 600 + int64(h.rng.Intn(7200))
		fmt.Fprintf(w, "commit refs/heads/main\ncommitter Dev <dev@example.com> %d +0000\ndata %d\n%s\n", when, len(msg), msg)
	}
	commit("initial import")
	for i := 0; i < h.o.Files; i++ {
		p, lines := h.newFile()
		h.files[p] = lines
		fmt.Fprintf(w, "M 100644 inline %s\n", p)
		blob(w, lines)
	}
	h.setNames()
	for c := 1; c <= h.o.Commits; c++ {
		commit(fmt.Sprintf("change %d", c))
		changed := false
		switch r := h.rng.Intn(100); {
		case r < 2: // a new file
			p, lines := h.newFile()
			h.files[p] = lines
			fmt.Fprintf(w, "M 100644 inline %s\n", p)
			blob(w, lines)
			changed = true
		case r < 3 && len(h.names) > 10: // a file deleted
			p := h.pick(h.names)
			delete(h.files, p)
			fmt.Fprintf(w, "D %s\n", p)
			changed = true
		case r < 5: // a file renamed (moved to another package), then edited
			old := h.pick(h.names)
			p := path.Join("src/main/java/org/example", h.pick(packages), path.Base(old))
			if _, taken := h.files[p]; !taken && p != old {
				h.files[p] = h.edit(h.files[old])
				delete(h.files, old)
				fmt.Fprintf(w, "D %s\nM 100644 inline %s\n", old, p)
				blob(w, h.files[p])
				changed = true
			}
		}
		if changed {
			h.setNames()
		}
		// Edits: most touch a few files; a hot set of files changes often.
		n := 1 + h.rng.Intn(4)
		for e := 0; e < n; e++ {
			var p string
			if h.rng.Intn(3) == 0 {
				p = h.names[h.rng.Intn(min(40, len(h.names)))]
			} else {
				p = h.pick(h.names)
			}
			lines := h.files[p]
			for k := 0; k < 1+h.rng.Intn(3); k++ {
				lines = h.edit(lines)
			}
			h.files[p] = lines
			fmt.Fprintf(w, "M 100644 inline %s\n", p)
			blob(w, lines)
		}
	}
	_, err := fmt.Fprintf(w, "done\n")
	return err
}
