package grouping_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

// duplicates is what the grouping (grouping.Grouper with grouping.ClassOf,
// docs/formats.md, "Duplicates") makes of a set of findings.
type duplicates struct {
	findings, placed int
	// groups are the problems reported by several findings, each a list of
	// indexes into the findings, its lead first.
	groups [][]int
	fs     []reports.Finding
}

// findDuplicates groups fs as one run.
func findDuplicates(fs []reports.Finding) duplicates {
	d := duplicates{findings: len(fs), fs: fs}
	g := grouping.NewGrouper(grouping.ClassOf)
	for i := range fs {
		if fs[i].Line > 0 {
			d.placed++
		}
		g.Add(&fs[i], grouping.Ref{N: uint32(i)})
	}
	gs := g.Resolve(nil)
	for i := range fs {
		others := gs.Others(grouping.Ref{N: uint32(i)})
		if len(others) == 0 {
			continue
		}
		group := []int{i}
		for _, o := range others {
			group = append(group, int(o.N))
		}
		d.groups = append(d.groups, group)
	}
	if len(d.groups) != gs.Problems() {
		panic(fmt.Sprintf("%d groups, Problems() = %d", len(d.groups), gs.Problems()))
	}
	return d
}

// tools is "Checkstyle + PMD" for a group's findings: its tools, sorted,
// each once; FindBugs is SpotBugs.
func (d duplicates) tools(g []int) string {
	set := map[string]bool{}
	for _, i := range g {
		set[strings.SplitN(tableRule(d.fs[i]), ":", 2)[0]] = true
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	if len(out) == 1 {
		return out[0] + " only"
	}
	return strings.Join(out, " + ")
}

// summary writes the counts: findings, problems, groups by tools and by
// problem.
func (d duplicates) summary(b *strings.Builder) {
	grouped := 0
	byTools, byProblem := map[string]int{}, map[string]int{}
	for _, g := range d.groups {
		grouped += len(g)
		byTools[d.tools(g)]++
		problem := "a security weakness of one CWE id"
		if c := grouping.ClassOf(d.fs[g[0]].Tool, d.fs[g[0]].Rule); c >= 0 {
			problem = grouping.RuleClasses[c].Problem
		}
		byProblem[problem]++
	}
	fmt.Fprintf(b, "%d findings (%d placed on a line): %d problems, %d reported by more than one finding (%d findings)\n",
		d.findings, d.placed, d.findings-grouped+len(d.groups), len(d.groups), grouped)
	writeCounts(b, "groups by tools", byTools)
	writeCounts(b, "groups by problem", byProblem)
}

func writeCounts(b *strings.Builder, title string, counts map[string]int) {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return keys[i] < keys[j]
	})
	fmt.Fprintf(b, "%s:\n", title)
	if len(keys) == 0 {
		b.WriteString("  none\n")
	}
	for _, k := range keys {
		fmt.Fprintf(b, "  %d  %s\n", counts[k], k)
	}
}

// apart returns, for each line that starts findings of more than one
// problem, the line ("path:line") and its problems, each written as its
// rules ("Checkstyle:FinalParameters = PMD:MethodArgumentCouldBeFinal");
// rules of one class on the line are one problem, every other rule one of
// its own.
func (d duplicates) apart() (lines []string, problems [][]string) {
	type place struct {
		path string
		line int
	}
	at := map[place]map[string][]string{}
	for _, f := range d.fs {
		if f.Line <= 0 {
			continue
		}
		p := place{f.Path, f.Line}
		if at[p] == nil {
			at[p] = map[string][]string{}
		}
		key := tableRule(f)
		if class := grouping.ClassOf(f.Tool, f.Rule); class >= 0 {
			key = fmt.Sprint(class)
		}
		if !contains(at[p][key], tableRule(f)) {
			at[p][key] = append(at[p][key], tableRule(f))
		}
	}
	places := make([]place, 0, len(at))
	for p, ps := range at {
		if len(ps) > 1 {
			places = append(places, p)
		}
	}
	sort.Slice(places, func(i, j int) bool {
		if places[i].path != places[j].path {
			return places[i].path < places[j].path
		}
		return places[i].line < places[j].line
	})
	for _, p := range places {
		var ps []string
		for _, rules := range at[p] {
			sort.Strings(rules)
			ps = append(ps, strings.Join(rules, " = "))
		}
		sort.Strings(ps)
		lines = append(lines, fmt.Sprintf("%s:%d", p.path, p.line))
		problems = append(problems, ps)
	}
	return lines, problems
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// apartPairs counts, for each pair of rules of different problems that start
// findings on one line, the lines where they do.
func (d duplicates) apartPairs() map[string]int {
	pairs := map[string]int{}
	_, problems := d.apart()
	for _, ps := range problems {
		for i := range ps {
			for j := i + 1; j < len(ps); j++ {
				for _, a := range strings.Split(ps[i], " = ") {
					for _, b := range strings.Split(ps[j], " = ") {
						if a > b {
							a, b = b, a
						}
						pairs[a+" | "+b]++
					}
				}
			}
		}
	}
	return pairs
}

// readFindings reads report files or directories, paths relative to root.
func readFindings(t testing.TB, root string, names ...string) []reports.Finding {
	t.Helper()
	var fs []reports.Finding
	inputs, err := parsers.ReadAll(names, parsers.ReadOptions{Root: root, NoFingerprints: true}, func(f reports.Finding) error {
		fs = append(fs, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range inputs {
		if in.Error != "" {
			t.Fatalf("%s: %s", in.Path, in.Error)
		}
	}
	return fs
}

// checkGroups: every group's findings are of one file, of different
// rules, of one class (or, about security, share a CWE id); no finding is in
// two groups.
func checkGroups(t *testing.T, d duplicates) {
	t.Helper()
	seen := map[int]bool{}
	for _, g := range d.groups {
		first := d.fs[g[0]]
		class := grouping.ClassOf(first.Tool, first.Rule)
		rules := map[string]bool{}
		for _, i := range g {
			f := d.fs[i]
			if f.Path != first.Path || seen[i] || rules[tableRule(f)] || !reachOverlap(f, first) && f.Line != first.Line {
				t.Errorf("group %v: %s:%d %s and %s:%d %s", g, first.Path, first.Line, tableRule(first), f.Path, f.Line, tableRule(f))
			}
			if c := grouping.ClassOf(f.Tool, f.Rule); c != class && !(f.Security() && len(f.CWE) > 0) {
				t.Errorf("group %v mixes classes: %s and %s", g, tableRule(first), tableRule(f))
			}
			seen[i] = true
			rules[tableRule(f)] = true
		}
	}
}

// reachOverlap reports whether two findings of one file share a line, each
// reaching as far as its rule's anchor (grouping.Anchors) says.
func reachOverlap(a, b reports.Finding) bool {
	reach := func(f reports.Finding) (int, int) {
		first, last := lines(f)
		r := grouping.Anchors[tableRule(f)]
		return max(first-r.Up, 1), last + r.Down
	}
	a1, a2 := reach(a)
	b1, b2 := reach(b)
	return a.Line > 0 && b.Line > 0 && a1 <= b2 && b1 <= a2
}

// TestDuplicatesInSample: the sample's reports (testdata/reports, read as
// `recap --repo testdata/sample` reads them), grouped by the table. The
// golden file lists the groups by tools and by problem, and every line where
// findings of different problems start, kept apart.
func TestDuplicatesInSample(t *testing.T) {
	root := reportstest.RepoRoot(t)
	fs := readFindings(t, filepath.Join(root, "testdata", "sample"), filepath.Join(root, "testdata", "reports"))
	d := findDuplicates(fs)
	checkGroups(t, d)
	var b strings.Builder
	b.WriteString("The sample's reports (testdata/reports) grouped by grouping.Grouper with grouping.ClassOf:\nfindings of different rules of one class on overlapping lines of one file are one problem.\n\n")
	d.summary(&b)
	lines, problems := d.apart()
	fmt.Fprintf(&b, "\nlines where findings of different problems start, kept apart (%d):\n", len(lines))
	for i, l := range lines {
		fmt.Fprintf(&b, "  %s  %s\n", strings.TrimPrefix(l, "src/main/java/com/example/shop/"), strings.Join(problems[i], " | "))
	}
	reportstest.Golden(t, filepath.Join("testdata", "duplicates-sample.txt"), []byte(b.String()))
}

// TestDuplicatesInCorpus: the corpus's Checkstyle, PMD and SpotBugs reports,
// each file on its own (they come from different projects), grouped by the
// table; the golden file has the counts and the pairs of rules of different
// problems that start findings on one line, kept apart.
func TestDuplicatesInCorpus(t *testing.T) {
	corpus := reportstest.SharedDir(t, "corpus")
	var names []string
	for _, dir := range []string{"checkstyle-sarif", "checkstyle-xml", "pmd-sarif", "pmd-xml", "spotbugs-sarif", "spotbugs-xml"} {
		entries, err := os.ReadDir(filepath.Join(corpus, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			names = append(names, filepath.Join(dir, e.Name()))
		}
	}
	var all []reports.Finding
	for _, name := range names {
		for _, f := range readFindings(t, "", filepath.Join(corpus, name)) {
			f.Path = name + ": " + f.Path // the reports are of different projects
			all = append(all, f)
		}
	}
	d := findDuplicates(all)
	checkGroups(t, d)
	var b strings.Builder
	fmt.Fprintf(&b, "The corpus's Checkstyle, PMD and SpotBugs reports (%d files, each on its own) grouped by grouping.Grouper with grouping.ClassOf.\n\n", len(names))
	d.summary(&b)
	b.WriteString("\n")
	writeCounts(&b, "pairs of rules of different problems starting findings on one line, kept apart (lines)", d.apartPairs())
	reportstest.Golden(t, filepath.Join("testdata", "duplicates-corpus.txt"), []byte(b.String()))
}

// TestDuplicatesInCommonsLang: Checkstyle (Sun checks) and PMD 7 (all Java
// rules) on one project, commons-lang (../shared/bench), grouped by the
// table. The golden file has the counts and the 40 pairs of rules of
// different problems most often starting findings on one line.
func TestDuplicatesInCommonsLang(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 70,000 findings")
	}
	bench := reportstest.SharedDir(t, "bench")
	fs := readFindings(t, "",
		filepath.Join(bench, "commons-lang.checkstyle-sun.xml.gz"), filepath.Join(bench, "commons-lang.pmd7-all.sarif.gz"))
	d := findDuplicates(fs)
	checkGroups(t, d)
	var b strings.Builder
	b.WriteString("commons-lang (../shared/bench): Checkstyle 8.36 (Sun checks) and PMD 7.28 (all Java rules), grouped by grouping.Grouper with grouping.ClassOf.\n\n")
	d.summary(&b)
	b.WriteString("\n")
	pairs := d.apartPairs()
	type pair struct {
		name string
		n    int
	}
	var top []pair
	for k, n := range pairs {
		top = append(top, pair{k, n})
	}
	sort.Slice(top, func(i, j int) bool {
		if top[i].n != top[j].n {
			return top[i].n > top[j].n
		}
		return top[i].name < top[j].name
	})
	if len(top) > 40 {
		top = top[:40]
	}
	shown := map[string]int{}
	for _, p := range top {
		shown[p.name] = p.n
	}
	writeCounts(&b, fmt.Sprintf("the 40 pairs of rules of different problems most often starting findings on one line, kept apart (lines; %d pairs in all)", len(pairs)), shown)
	reportstest.Golden(t, filepath.Join("testdata", "duplicates-commons-lang.txt"), []byte(b.String()))
}
