// Command bench runs recap and its peers on the large real reports of
// ../shared/bench side by side, in one run, and prints one Markdown table
// of every performance goal: for each row its wall time, MB/s and peak
// RSS, its ratio to the task's first row, the number of findings it kept,
// and where the row carries a goal, the goal, the figure measured against
// it (a ratio to the floor or to the reference it names, a peak) and
// whether it is met; the count of goals met closes the table.
//
//	go build -o /tmp/recap ./cmd/recap
//	go run ./scripts/bench -recap /tmp/recap
//
// Peers are run when found, and their rows carry the goal that recap is at
// least 5× faster: jq, python3, the SARIF Multitool (node_modules at the
// module's root, where the test command installs it, or Sarif.Multitool on
// PATH), reviewdog (on PATH, or -reviewdog BIN); a peer that is not found
// is a row that says so, its goal not met. The floors are this program
// reading the same bytes with no work besides the format's own tokenizer
// (jsontext for JSON, encoding/xml for XML), in a process of its own. The
// reports' paths are absolute under the directory they were made in
// (/home/runner/work/REPO/REPO); the findings-on-changed-lines rows need
// that directory to exist as --repo, and the script makes it when it can,
// and removes what it made when it ends. The diff rows run on the generated
// repository of the diff benchmarks (3,000 files, 3,000 commits), made in
// the temp dir the first time, against git diff; the MCP rows run
// scripts/mcpbench: recap summary in the server's root, a cold first call,
// warm pages, and with -concurrent rounds of calls at once (identical, then
// with filters of their own), each on a new, cold server.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/recap-dev/recap/internal/genrepo"
)

const springRoot = "/home/runner/work/spring-framework/spring-framework"

func main() {
	if len(os.Args) == 3 && (os.Args[1] == "floor-json" || os.Args[1] == "floor-xml") {
		floor(os.Args[1], os.Args[2])
		return
	}
	recap := flag.String("recap", "", "the recap binary (default: built from ./cmd/recap)")
	benchDir := flag.String("bench", "../shared/bench", "the directory of the bench reports")
	reviewdog := flag.String("reviewdog", "reviewdog", "the reviewdog binary")
	runs := flag.Int("runs", 2, "runs of each command; the fastest counts (the first warms the page cache)")
	concurrent := flag.Int("concurrent", 50, "MCP calls at once on a cold server")
	flag.Parse()
	load := loadAverage()

	tmp, err := os.MkdirTemp("", "recap-bench")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	if *recap == "" {
		*recap = filepath.Join(tmp, "recap")
		if out, err := exec.Command("go", "build", "-o", *recap, "./cmd/recap").CombinedOutput(); err != nil {
			log.Fatalf("go build: %v\n%s", err, out)
		}
	}
	self, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	in := func(name string) string {
		return gunzip(filepath.Join(*benchDir, name+".gz"), filepath.Join(tmp, name))
	}
	sarif := in("spring-framework.pmd7-all.sarif")
	sarifGz := filepath.Join(*benchDir, "spring-framework.pmd7-all.sarif.gz")
	cs := in("spring-framework.checkstyle-sun.xml")
	diff200 := in("spring-framework.200-commits.masked.diff")
	removeRoot, haveRoot := makeDir(springRoot)
	defer removeRoot()

	multitool := findMultitool()
	rd := *reviewdog
	var rows []row
	add := func(task, tool, input string, c cmd) {
		if c.skip != "" {
			rows = append(rows, row{task: task, tool: tool, note: c.skip, target: c.target})
			return
		}
		r := measure(c, *runs)
		r.task, r.tool, r.size, r.target = task, tool, size(input), c.target
		rows = append(rows, r)
		log.Printf("%-40s %-22s %6.2f s %5d MB %s %s", task, tool, r.wall.Seconds(), r.rssKB/1024, r.kept, r.note)
	}
	count := regexp.MustCompile(`^(\d+) findings`)
	jsonTotal := regexp.MustCompile(`"summary":\{"total":(\d+)`)

	// A peer's goal: recap at least 5× faster than it.
	peer := func(recapTool string) *target {
		return &target{say: "≥ 5× " + recapTool, check: slower(recapTool, 5)}
	}
	task := "count the findings, PMD SARIF 350 MB"
	add(task, "recap summary", sarif, cmd{args: []string{*recap, "summary", sarif}, kept: firstMatch(count),
		target: &target{say: "≤ 1.5× the floor, ≤ 64 MB", want: "314926", check: all(within("floor (jsontext)", 1.5), memory(64))}})
	add(task, "floor (jsontext)", sarif, cmd{args: []string{self, "floor-json", sarif}, kept: lastLine})
	add(task, "SARIF Multitool query", sarif, cmd{args: []string{multitool, "query", sarif, "-e", "Level != 'None'"}, kept: firstMatch(regexp.MustCompile(`of ([\d,]+) results`)), need: multitool,
		target: peer("recap summary")})
	add(task, "jq", sarif, cmd{args: []string{"jq", "[.runs[].results | length] | add", sarif}, kept: lastLine, need: "jq", target: peer("recap summary")})
	add(task, "python3 json", sarif, cmd{args: []string{"python3", "-c", `import json,sys; d=json.load(open(sys.argv[1])); print(sum(len(r.get("results") or []) for r in d["runs"]))`, sarif}, kept: lastLine, need: "python3",
		target: peer("recap summary")})

	task = "count the findings, the same SARIF as .gz (12 MB)"
	add(task, "recap summary", sarifGz, cmd{args: []string{*recap, "summary", sarifGz}, kept: firstMatch(count),
		target: &target{say: "≤ 1.5 s, ≤ 64 MB", want: "314926", check: all(seconds(1.5), memory(64))}})

	task = "count the findings, Checkstyle XML 74 MB"
	add(task, "recap summary", cs, cmd{args: []string{*recap, "summary", cs}, kept: firstMatch(count),
		target: &target{say: "≤ 64 MB", want: "395900", check: memory(64)}})
	add(task, "floor (encoding/xml)", cs, cmd{args: []string{self, "floor-xml", cs}, kept: lastLine})

	task = "findings --limit 200, PMD SARIF"
	add(task, "recap findings", sarif, cmd{args: []string{*recap, "findings", "--limit", "200", "--no-context", sarif}, kept: firstMatch(count),
		target: &target{say: "≤ 64 MB", want: "314926", check: memory(64)}})
	add(task, "recap findings --format json", sarif, cmd{args: []string{*recap, "findings", "--format", "json", "--limit", "200", sarif}, kept: firstMatch(jsonTotal),
		target: &target{say: "≤ 64 MB", want: "314926", check: memory(64)}})

	changed := func(report string, secs float64, want string) cmd {
		if !haveRoot {
			return cmd{skip: "needs " + springRoot}
		}
		return cmd{args: []string{*recap, "summary", "--repo", springRoot, "--changed-only", "--whitespace-changes", "--diff", diff200, report}, kept: firstMatch(count),
			target: &target{say: fmt.Sprintf("≤ %.1f s, exactly %s kept", secs, want), want: want, check: seconds(secs)}}
	}
	dog := func(format, report string) cmd {
		return cmd{args: []string{rd, "-f=" + format, "-reporter=local", "-filter-mode=added", "-diff=cat " + diff200}, stdin: report, dir: springRoot,
			kept: lineCount, need: rd, target: peer("recap --changed-only")}
	}
	task = "findings on changed lines, PMD SARIF × 200 commits"
	add(task, "recap --changed-only", sarif, changed(sarif, 1.5, "3714"))
	add(task, "reviewdog", sarif, dog("sarif", sarif))
	task = "findings on changed lines, Checkstyle × 200 commits"
	add(task, "recap --changed-only", cs, changed(cs, 0.8, "5006"))
	add(task, "reviewdog", cs, dog("checkstyle", cs))

	task = "everything as SARIF, PMD SARIF"
	add(task, "recap summary --format json", sarif, cmd{args: []string{*recap, "summary", "--format", "json", sarif}, kept: firstMatch(jsonTotal)})
	add(task, "recap summary --format sarif", sarif, cmd{args: []string{*recap, "summary", "--format", "sarif", sarif},
		target: &target{say: "≤ 1.3× summary --format json, ≤ 256 MB", check: all(within("recap summary --format json", 1.3), memory(256))}})

	if repo, err := genRepo(); err != nil {
		log.Printf("generated repository: %v", err)
	} else {
		files := firstMatch(regexp.MustCompile(`^(\d+) files? changed`))
		for _, n := range []int{200, 1000} {
			task = fmt.Sprintf("diff of %d commits, generated repository (3,000 files)", n)
			base := fmt.Sprintf("HEAD~%d", n)
			add(task, "recap diff", "", cmd{args: []string{*recap, "diff", "--base", base, "--head", "HEAD"}, dir: repo, kept: files,
				target: &target{say: "≤ 2× git diff", check: within("git diff", 2)}})
			add(task, "git diff", "", cmd{args: []string{"git", "diff", base + "...HEAD"}, dir: repo, need: "git", kept: countPrefix("diff --git ")})
		}
	}

	if mcp, err := mcpRows(*recap, sarifGz, tmp, *concurrent); err != nil {
		log.Printf("MCP: %v", err)
		rows = append(rows, row{task: "MCP server", tool: "recap mcp", note: "did not run: " + err.Error(),
			target: &target{say: "the MCP server's goals", check: func(row, []row) (string, bool) { return "", false }}})
	} else {
		rows = append(rows, mcp...)
	}

	printTable(rows, *runs, load)
}

// printTable prints the rows as docs/performance.md's table, each goal
// checked, and the goals met.
func printTable(rows []row, runs int, load string) {
	fmt.Printf("Measured %s on %s/%s, %d CPUs, Go %s; the fastest of %d run(s); load average before: %s.\n\n", time.Now().Format("2006-01-02"),
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), strings.TrimPrefix(runtime.Version(), "go"), runs, load)
	fmt.Println("| task | tool | wall | MB/s | peak RSS | × the task's first row (time, memory) | kept | goal | measured against the goal | met |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---|---|:---:|")
	var base *row
	met, goals := 0, 0
	for i := range rows {
		r := &rows[i]
		if i == 0 || r.task != rows[i-1].task {
			base = r
		}
		goal, got, ok := "", "", ""
		if t := r.target; t != nil {
			var task []row
			for _, o := range rows {
				if o.task == r.task {
					task = append(task, o)
				}
			}
			goals++
			goal, ok = t.say, "✗"
			pass := false
			if r.note == "" {
				got, pass = t.check(*r, task)
				if t.want != "" && t.want != r.kept {
					got, pass = got+", kept "+r.kept+" (want "+t.want+")", false
				}
			} else {
				got = "not run"
			}
			if pass {
				ok = "✓"
				met++
			}
		}
		if r.note != "" {
			fmt.Printf("| %s | %s | – | – | – | – | %s | %s | %s | %s |\n", r.task, r.tool, r.note, goal, got, ok)
			continue
		}
		ratio := "1"
		if r != base && base.wall > 0 && base.note == "" {
			mem := "–" // the first row has no RSS of its own (a figure of mcpbench's)
			if base.rssKB > 0 && r.rssKB > 0 {
				mem = fmt.Sprintf("%.1f×", float64(r.rssKB)/float64(base.rssKB))
			}
			ratio = fmt.Sprintf("%.1f×, %s", r.wall.Seconds()/base.wall.Seconds(), mem)
		}
		rate := "–"
		if r.size > 0 {
			rate = fmt.Sprintf("%.0f", float64(r.size)/1e6/r.wall.Seconds())
		}
		wall := fmt.Sprintf("%.2f s", r.wall.Seconds())
		if r.wall < 100*time.Millisecond {
			wall = fmt.Sprintf("%.1f ms", float64(r.wall.Microseconds())/1000)
		}
		rss := "–"
		if r.rssKB > 0 {
			rss = fmt.Sprintf("%d MB", r.rssKB/1024)
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.task, r.tool, wall,
			rate, rss, ratio, r.kept, goal, got, ok)
	}
	fmt.Printf("\n%d of %d goals met.\n", met, goals)
}

// findMultitool finds the SARIF Multitool where the test command installs
// it, node_modules at the module's root (whatever the directory the bench
// runs in), else Sarif.Multitool on PATH; "" when neither.
func findMultitool() string {
	const inModules = "node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
	if dir, err := os.Getwd(); err == nil {
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				if p := filepath.Join(dir, inModules); isFile(p) {
					return p
				}
				break
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	if p, err := exec.LookPath("Sarif.Multitool"); err == nil {
		return p
	}
	return "Sarif.Multitool" // not found: its row says so
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// loadAverage is the system's load average over the last minute, as
// /proc/loadavg gives it ("?" elsewhere): the figures depend on it.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(b))[0]
}

// genRepo returns the generated repository of the diff benchmarks (3,000
// files, 3,000 commits, seed 1), made in the temp dir the first time, as
// BenchmarkRevisions makes it.
func genRepo() (string, error) {
	opts := genrepo.Options{Files: 3000, Commits: 3000, Seed: 1}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("recap-bench-repo-%d-%d-%d", opts.Files, opts.Commits, opts.Seed))
	done := filepath.Join(dir, ".git", "recap-complete")
	if _, err := os.Stat(done); err == nil {
		return dir, nil
	}
	if _, err := exec.LookPath("git"); err != nil {
		return "", err
	}
	log.Printf("generating %s (once)", dir)
	os.RemoveAll(dir)
	if err := genrepo.Generate(dir, opts); err != nil {
		return "", err
	}
	return dir, os.WriteFile(done, nil, 0o644)
}

// mcpRows runs scripts/mcpbench on report: recap summary in the server's
// root, recap mcp over stdio, one cold call (the parse), 200 warm
// getReports pages, then n calls at once on a second, cold server. Its
// rows: the summary (the cold call's reference), the cold call, the warm
// pages' p95 and the calls at once (the slowest, that server's peak RSS).
func mcpRows(recap, report, tmp string, n int) ([]row, error) {
	bin := filepath.Join(tmp, "mcpbench")
	if out, err := exec.Command("go", "build", "-o", bin, "./scripts/mcpbench").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "-recap", recap, report).Output()
	if err != nil {
		return nil, fmt.Errorf("%v\n%s", err, out)
	}
	var load []byte // the rounds of calls at once, each on a new, cold server
	if n > 0 {
		if load, err = exec.Command(bin, "-recap", recap, "-concurrent", strconv.Itoa(n), report).Output(); err != nil {
			return nil, fmt.Errorf("%v\n%s", err, load)
		}
	}
	const task = "MCP server, PMD SARIF (.gz), over stdio"
	kept := ""
	var summary, cold, p95 time.Duration
	var peak int64
	dur := func(s string) time.Duration {
		d, err := time.ParseDuration(s)
		if err != nil {
			log.Printf("mcpbench: %q: %v", s, err)
		}
		return d
	}
	kb := func(s string) int64 {
		v, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(s), " kB"), 10, 64)
		return v
	}
	for _, line := range strings.Split(string(out), "\n") {
		if m := regexp.MustCompile(`^recap: (\d+) findings`).FindStringSubmatch(line); m != nil {
			kept = m[1]
		}
		if m := regexp.MustCompile(`^first call \(parse\): (\S+)`).FindStringSubmatch(line); m != nil {
			cold = dur(m[1])
		}
		if m := regexp.MustCompile(`^recap summary: ([^;]+);`).FindStringSubmatch(line); m != nil {
			summary = dur(m[1])
		}
		if m := regexp.MustCompile(`p95 (\S+),`).FindStringSubmatch(line); m != nil {
			p95 = dur(m[1])
		}
		if v, ok := strings.CutPrefix(line, "server peak RSS: "); ok {
			peak = kb(v)
		}
	}
	if cold == 0 || summary == 0 || p95 == 0 {
		return nil, fmt.Errorf("mcpbench's output lacks a figure:\n%s", out)
	}
	rows := []row{
		{task: task, tool: "recap summary, the same root", wall: summary, kept: kept},
		{task: task, tool: "recap mcp: cold first call", wall: cold, rssKB: peak, kept: kept,
			target: &target{say: "≤ 1.3× recap summary", check: within("recap summary, the same root", 1.3)}},
		{task: task, tool: "recap mcp: warm page, p95 of 200", wall: p95, rssKB: peak, kept: kept,
			target: &target{say: "p95 < 20 ms", check: func(r row, _ []row) (string, bool) {
				return fmt.Sprintf("%.1f ms", float64(r.wall.Microseconds())/1000), r.wall < 20*time.Millisecond
			}}},
	}
	// mcpbench -concurrent prints a line a round: "50 identical calls:
	// slowest 5.1s (1.10 × one call), server CPU …, answers map[ok:50],
	// server peak RSS 150000 kB".
	round := regexp.MustCompile(`^(\d+ identical calls|\d+ calls, different filters): slowest (\S+) \(([\d.]+) × one call\).*answers map\[([^\]]*)\], server peak RSS (\d+) kB`)
	rounds := 0
	for _, line := range strings.Split(string(load), "\n") {
		m := round.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		rounds++
		ratio, _ := strconv.ParseFloat(m[3], 64)
		answers := map[string]int{}
		for _, kv := range strings.Fields(m[4]) {
			k, v, _ := strings.Cut(kv, ":")
			answers[k], _ = strconv.Atoi(v)
		}
		rss := kb(m[5])
		rows = append(rows, row{task: task, tool: "recap mcp: " + m[1] + " at once, cold (the slowest)", wall: dur(m[2]), rssKB: rss, kept: kept,
			target: &target{say: fmt.Sprintf("all %d answered, none BUSY, the slowest ≤ 2× one cold call, ≤ 256 MiB", n), check: func(r row, _ []row) (string, bool) {
				got := fmt.Sprintf("%d answered, %d BUSY, the slowest %.2f× one cold call, %d MiB", answers["ok"], answers["BUSY"], ratio, rss/1024)
				return got, answers["ok"] == n && ratio <= 2 && rss <= 256*1024
			}}})
	}
	if n > 0 && rounds == 0 {
		rows = append(rows, row{task: task, tool: fmt.Sprintf("recap mcp: %d calls at once, cold", n), note: "no figures from mcpbench",
			target: &target{say: fmt.Sprintf("all %d answered, none BUSY", n), check: func(row, []row) (string, bool) { return "not measured", false }}})
	}
	for _, r := range rows {
		log.Printf("%-40s %-22s %v %5d MB", r.task, r.tool, r.wall, r.rssKB/1024)
	}
	return rows, nil
}

type cmd struct {
	target *target // recap's goal on this task, checked against the task's other rows
	args   []string
	stdin  string // a file for standard input
	dir    string
	kept   func(out []byte) string
	need   string // a program that must be found, else the row is skipped
	skip   string
}

type row struct {
	task, tool string
	size       int64 // bytes read; 0 leaves MB/s out
	wall       time.Duration
	rssKB      int64
	kept       string
	note       string
	target     *target
}

// target is a goal of the performance work: what it says, and the row's
// figure against it with whether it is met, given the rows of its task
// (floors, peers, references).
type target struct {
	say   string
	check func(r row, task []row) (got string, met bool)
	want  string // the findings the row must keep ("" for any)
}

// other returns the row of tool in task.
func other(task []row, tool string) (row, bool) {
	for _, o := range task {
		if o.tool == tool && o.note == "" && o.wall > 0 {
			return o, true
		}
	}
	return row{}, false
}

// within: r's wall time at most times the wall time of tool's row (a
// floor, a reference); a reference that did not run fails it.
func within(tool string, times float64) func(r row, task []row) (string, bool) {
	return func(r row, task []row) (string, bool) {
		o, ok := other(task, tool)
		if !ok {
			return tool + " did not run", false
		}
		ratio := r.wall.Seconds() / o.wall.Seconds()
		return fmt.Sprintf("%.2f× %s", ratio, tool), ratio <= times
	}
}

// slower: a peer's wall time at least times that of recap's row (tool).
func slower(tool string, times float64) func(r row, task []row) (string, bool) {
	return func(r row, task []row) (string, bool) {
		o, ok := other(task, tool)
		if !ok {
			return tool + " did not run", false
		}
		ratio := r.wall.Seconds() / o.wall.Seconds()
		return fmt.Sprintf("%.1f× %s", ratio, tool), ratio >= times
	}
}

// memory: a peak RSS of at most mb MiB.
func memory(mb int64) func(r row, task []row) (string, bool) {
	return func(r row, _ []row) (string, bool) {
		return fmt.Sprintf("%d MiB", r.rssKB/1024), r.rssKB <= mb*1024
	}
}

// seconds: a wall time of at most secs.
func seconds(secs float64) func(r row, task []row) (string, bool) {
	return func(r row, _ []row) (string, bool) {
		return fmt.Sprintf("%.2f s", r.wall.Seconds()), r.wall.Seconds() <= secs
	}
}

// all meets every check.
func all(checks ...func(r row, task []row) (string, bool)) func(r row, task []row) (string, bool) {
	return func(r row, task []row) (string, bool) {
		var got []string
		met := true
		for _, c := range checks {
			g, ok := c(r, task)
			got = append(got, g)
			met = met && ok
		}
		return strings.Join(got, ", "), met
	}
}

// measure runs c, runs times, and keeps the fastest wall time and the
// largest peak RSS (getrusage of the child).
func measure(c cmd, runs int) row {
	var r row
	if c.need != "" {
		if _, err := exec.LookPath(c.need); err != nil {
			return row{note: c.need + " not found"}
		}
	}
	for i := 0; i < runs; i++ {
		x := exec.Command(c.args[0], c.args[1:]...)
		x.Dir = c.dir
		if c.stdin != "" {
			f, err := os.Open(c.stdin)
			if err != nil {
				log.Fatal(err)
			}
			defer f.Close()
			x.Stdin = f
		}
		var out bytes.Buffer
		x.Stdout = io.Discard // a large output is not held in this process
		if c.kept != nil {
			x.Stdout = &out
		}
		x.Stderr = io.Discard
		start := time.Now()
		err := x.Run()
		wall := time.Since(start)
		if x.ProcessState == nil {
			return row{note: fmt.Sprintf("did not run: %v", err)}
		}
		if ru, ok := x.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > r.rssKB {
			r.rssKB = ru.Maxrss
		}
		if r.wall == 0 || wall < r.wall {
			r.wall = wall
		}
		if c.kept != nil {
			r.kept = c.kept(out.Bytes())
		}
	}
	return r
}

func firstMatch(re *regexp.Regexp) func([]byte) string {
	return func(out []byte) string {
		for _, line := range strings.Split(string(out), "\n") {
			if m := re.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
				return strings.ReplaceAll(m[1], ",", "")
			}
		}
		return "?"
	}
}

func lastLine(out []byte) string {
	lines := strings.Fields(string(out))
	if len(lines) == 0 {
		return "?"
	}
	return lines[len(lines)-1]
}

// countPrefix counts the lines that start with p.
func countPrefix(p string) func([]byte) string {
	return func(out []byte) string {
		n := bytes.Count(out, []byte("\n"+p))
		if bytes.HasPrefix(out, []byte(p)) {
			n++
		}
		return strconv.Itoa(n)
	}
}

func lineCount(out []byte) string { return strconv.Itoa(bytes.Count(out, []byte("\n"))) }

func size(p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return st.Size()
}

func gunzip(src, dst string) string {
	in, err := os.Open(src)
	if err != nil {
		log.Fatal(err)
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		log.Fatal(err)
	}
	out, err := os.Create(dst)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		log.Fatal(err)
	}
	if err := out.Close(); err != nil {
		log.Fatal(err)
	}
	return dst
}

// floor reads the file with the format's tokenizer alone and prints how
// many results (SARIF) or <error> elements (Checkstyle) it holds.
func floor(kind, path string) {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	n := 0
	if kind == "floor-xml" {
		d := xml.NewDecoder(f)
		for {
			tok, err := d.RawToken()
			if err == io.EOF {
				break
			}
			if err != nil {
				log.Fatal(err)
			}
			if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "error" {
				n++
			}
		}
		fmt.Println(n)
		return
	}
	d := jsontext.NewDecoder(f, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	// Count the elements of every "results" array at depth 4 ($.runs[i].results).
	for {
		tok, err := d.ReadToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		if tok.Kind() == '"' && d.StackDepth() == 3 && tok.String() == "results" && d.PeekKind() == '[' {
			d.ReadToken()
			for d.PeekKind() != ']' {
				if err := d.SkipValue(); err != nil {
					log.Fatal(err)
				}
				n++
			}
		}
	}
	fmt.Println(n)
}

// makeDir makes dir and its missing parents, and returns what removes the
// directories it made (the highest of them, with what is under it).
func makeDir(dir string) (remove func(), ok bool) {
	top := ""
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		top = d
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return func() {}, false
	}
	if top == "" {
		return func() {}, true
	}
	return func() { os.RemoveAll(top) }, true
}
