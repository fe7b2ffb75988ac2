package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/internal/reportstest"
)

// exampleBlock is a fenced block of the docs with no language (or
// console) whose first line is a command: "$ recap …".
var exampleBlock = regexp.MustCompile("(?ms)^```(?:console)?\n(\\$ recap .*?)^```")

// TestDocsExamples runs every example of README.md and docs/*.md that
// shows a recap command line on the checkout's sample ("$ recap …" and
// what it prints, standard error in place as in a terminal) and compares
// what it prints with what the page shows: line for line, "…" alone
// standing for lines left out, "…" inside a line for a part of it. An
// example on build/reports/ runs on the branch the docs describe: the
// sample committed on master with its reports in build/reports, and a
// branch that changes the message on line 15 of OrderService.java.
func TestDocsExamples(t *testing.T) {
	root := reportstest.RepoRoot(t)
	branch := sampleBranch(t, root)
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	pages = append(pages, filepath.Join(root, "README.md"))
	path := filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH")
	ran := 0
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(page)
		branch := branch
		if name == "triage.md" {
			// Its examples write the triage file: a repository of their own.
			branch = sampleBranch(t, root)
		}
		for _, m := range exampleBlock.FindAllStringSubmatch(string(b), -1) {
			for _, ex := range splitExamples(m[1]) {
				dir := root
				switch {
				case strings.Contains(ex.cmd, "build/reports"):
					dir = branch
				case !strings.Contains(ex.cmd, "testdata/"):
					t.Logf("%s: not run (no input of the checkout): %s", name, ex.cmd)
					continue
				}
				ran++
				cmd := exec.Command("sh", "-c", "{ "+ex.cmd+"\n} 2>&1")
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "PATH="+path)
				out, _ := cmd.Output() // a gate's exit 1 or a usage error's 2 is part of the example
				if err := matchExample(ex.want, strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")); err != "" {
					t.Errorf("%s: $ %s\n%s\nit prints:\n%s", name, ex.cmd, err, out)
				}
			}
		}
	}
	if ran < 11 {
		t.Errorf("%d examples run, want the 11 on the sample at least", ran)
	}
}

// sampleBranch makes the repository of the docs' examples on changed
// lines: the sample and its reports (build/reports) on master, and checked
// out, a branch that changes the message on line 15 of OrderService.java.
func sampleBranch(t *testing.T, root string) string {
	g := gittest.Sample(t, root)
	g.Git("branch", "-m", "master")
	files := map[string]string{}
	for _, r := range []string{"pmd.sarif", "checkstyle.xml", "spotbugs.xml"} {
		files["build/reports/"+r] = readFile(t, filepath.Join(root, "testdata", "reports", r))
	}
	g.Commit("reports", files)
	g.Git("checkout", "-q", "-b", "change")
	const java = "src/main/java/com/example/shop/OrderService.java"
	src := readFile(t, filepath.Join(g.Dir, java))
	changed := strings.Replace(src, `System.out.println("order without customer");`, `System.out.println("an order has no customer");`, 1)
	if changed == src {
		t.Fatal("line 15 of OrderService.java is not the one the docs change")
	}
	g.Commit("change the message", map[string]string{java: changed})
	return g.Dir
}

type example struct {
	cmd  string
	want []string
}

// splitExamples cuts a block into its commands, each with the lines that
// follow it.
func splitExamples(block string) []example {
	var out []example
	for _, line := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
		if c, ok := strings.CutPrefix(line, "$ "); ok {
			out = append(out, example{cmd: c})
			continue
		}
		out[len(out)-1].want = append(out[len(out)-1].want, line)
	}
	return out
}

// matchExample compares the lines a page shows with those printed, and
// says where they part.
func matchExample(want, got []string) string {
	at := 0
	skip := false
	for _, w := range want {
		w = strings.TrimRight(w, " ")
		if w == "…" {
			skip = true
			continue
		}
		found := false
		for at < len(got) {
			g := strings.TrimRight(got[at], " ")
			at++
			if lineMatches(w, g) {
				found = true
				break
			}
			if !skip {
				return "the page shows " + quote(w) + " where it prints " + quote(g)
			}
		}
		if !found {
			return "the page shows " + quote(w) + ", which it does not print (there)"
		}
		skip = false
	}
	if !skip && at < len(got) {
		return "it prints more than the page shows (end the example with …): " + quote(got[at])
	}
	return ""
}

// lineMatches: equal, or with "…" standing for any part of the line.
func lineMatches(w, g string) bool {
	if !strings.Contains(w, "…") {
		return w == g
	}
	parts := strings.Split(w, "…")
	if !strings.HasPrefix(g, parts[0]) || !strings.HasSuffix(g, parts[len(parts)-1]) {
		return false
	}
	g = g[len(parts[0]):]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(g, p)
		if i < 0 {
			return false
		}
		g = g[i+len(p):]
	}
	return len(g) >= len(parts[len(parts)-1])
}

func quote(s string) string { return "«" + s + "»" }

// TestDocsFlagTables: every flag of every command's --help is in the
// command's section of docs/cli.md, so that the tables list every flag.
func TestDocsFlagTables(t *testing.T) {
	root := reportstest.RepoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	for _, s := range strings.Split(string(b), "\n## ")[1:] {
		title, body, _ := strings.Cut(s, "\n")
		sections[title] = body
	}
	flagName := regexp.MustCompile(`(?m)^\s+(?:-\w, )?(--[a-z0-9-]+)`)
	for cmd, titles := range map[string][]string{
		"summary":  {"Flags of summary and findings"},
		"findings": {"Flags of summary and findings", "recap findings"},
		"review":   {"recap review"},
		"diff":     {"recap diff"},
		"tokens":   {"recap tokens"},
		"mcp":      {"recap mcp"},
	} {
		var doc strings.Builder
		for _, title := range titles {
			s, ok := sections[title]
			if !ok {
				t.Fatalf("docs/cli.md has no section %q", title)
			}
			doc.WriteString(s)
		}
		out, err := exec.Command(bin, cmd, "--help").Output()
		if err != nil {
			t.Fatalf("%s --help: %v", cmd, err)
		}
		flags := flagName.FindAllStringSubmatch(string(out), -1)
		if len(flags) < 3 {
			t.Fatalf("%s --help lists %d flags:\n%s", cmd, len(flags), out)
		}
		for _, f := range flags {
			if f[1] != "--help" && !strings.Contains(doc.String(), "`"+f[1]) {
				t.Errorf("docs/cli.md, %q: no row for %s %s", titles[len(titles)-1], cmd, f[1])
			}
		}
	}
}
