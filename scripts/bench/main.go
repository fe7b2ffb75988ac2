// Command bench runs recap and its peers on the large real reports of
// ../shared/bench side by side, in one run, and prints a Markdown table of
// wall time, MB/s and peak RSS, with each peer's ratio to recap, the number
// of findings each kept, and for recap's rows the performance goal and
// whether it is met.
//
//	go build -o /tmp/recap ./cmd/recap
//	go run ./scripts/bench -recap /tmp/recap
//
// Peers are run when found: jq, python3, the SARIF Multitool (node_modules,
// or Sarif.Multitool on PATH), reviewdog (on PATH, or -reviewdog BIN) and
// git. The floors are this program reading the same bytes with no work
// besides the format's own tokenizer (jsontext for JSON, encoding/xml for
// XML), in a process of its own. The reports' paths are absolute under the
// directory they were made in (/home/runner/work/REPO/REPO); the findings-
// on-changed-lines rows need that directory to exist as --repo, and the
// script makes it when it can, and removes what it made when it ends. The diff rows run on the generated
// repository of the diff benchmarks (3,000 files, 3,000 commits), made in
// the temp dir the first time; the MCP row runs scripts/mcpbench.
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
	flag.Parse()

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

	multitool := "node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
	if _, err := os.Stat(multitool); err != nil {
		multitool = "Sarif.Multitool"
	}
	rd := *reviewdog
	var rows []row
	add := func(task, tool, input string, c cmd) {
		if c.skip != "" {
			rows = append(rows, row{task: task, tool: tool, note: c.skip})
			return
		}
		r := measure(c, *runs)
		r.task, r.tool, r.size, r.target = task, tool, size(input), c.target
		rows = append(rows, r)
		log.Printf("%-40s %-22s %6.2f s %5d MB %s", task, tool, r.wall.Seconds(), r.rssKB/1024, r.kept)
	}
	count := regexp.MustCompile(`^(\d+) findings`)
	jsonTotal := regexp.MustCompile(`"summary":\{"total":(\d+)`)

	const mb64 = "≤ 1.5 s, ≤ 64 MB"
	task := "count the findings, PMD SARIF 350 MB"
	add(task, "recap summary", sarif, cmd{args: []string{*recap, "summary", sarif}, kept: firstMatch(count),
		target: &target{say: mb64 + ", ≤ 2× the floor, ≥ 5× faster than every peer", want: "314926",
			met: within(1.5, 64, vs("floor (jsontext)", func(r, o row) bool { return r.wall <= 2*o.wall }), fastestPeer(5))}})
	add(task, "floor (jsontext)", sarif, cmd{args: []string{self, "floor-json", sarif}, kept: lastLine})
	add(task, "SARIF Multitool query", sarif, cmd{args: []string{multitool, "query", sarif, "-e", "Level != 'None'"}, kept: firstMatch(regexp.MustCompile(`of ([\d,]+) results`)), need: multitool})
	add(task, "jq", sarif, cmd{args: []string{"jq", "[.runs[].results | length] | add", sarif}, kept: lastLine, need: "jq"})
	add(task, "python3 json", sarif, cmd{args: []string{"python3", "-c", `import json,sys; d=json.load(open(sys.argv[1])); print(sum(len(r.get("results") or []) for r in d["runs"]))`, sarif}, kept: lastLine, need: "python3"})

	task = "count the findings, the same SARIF as .gz (12 MB)"
	add(task, "recap summary", sarifGz, cmd{args: []string{*recap, "summary", sarifGz}, kept: firstMatch(count),
		target: &target{say: mb64, want: "314926", met: within(1.5, 64)}})

	task = "count the findings, Checkstyle XML 74 MB"
	add(task, "recap summary", cs, cmd{args: []string{*recap, "summary", cs}, kept: firstMatch(count),
		target: &target{say: "≤ 64 MB", want: "395900", met: within(60, 64)}})
	add(task, "floor (encoding/xml)", cs, cmd{args: []string{self, "floor-xml", cs}, kept: lastLine})

	task = "findings --limit 200, PMD SARIF"
	add(task, "recap findings", sarif, cmd{args: []string{*recap, "findings", "--limit", "200", "--no-context", sarif}, kept: firstMatch(count),
		target: &target{say: "≤ 64 MB", want: "314926", met: within(60, 64)}})
	add(task, "recap findings --format json", sarif, cmd{args: []string{*recap, "findings", "--format", "json", "--limit", "200", sarif}, kept: firstMatch(jsonTotal),
		target: &target{say: "≤ 64 MB", want: "314926", met: within(60, 64)}})

	changed := func(report string, secs float64, want string) cmd {
		if !haveRoot {
			return cmd{skip: "needs " + springRoot}
		}
		return cmd{args: []string{*recap, "summary", "--repo", springRoot, "--changed-only", "--whitespace-changes", "--diff", diff200, report}, kept: firstMatch(count),
			target: &target{say: fmt.Sprintf("≤ %.1f s, exactly %s kept", secs, want), want: want, met: within(secs, 1<<20)}}
	}
	dog := func(format, report string) cmd {
		return cmd{args: []string{rd, "-f=" + format, "-reporter=local", "-filter-mode=added", "-diff=cat " + diff200}, stdin: report, dir: springRoot,
			kept: lineCount, need: rd}
	}
	task = "findings on changed lines, PMD SARIF × 200 commits"
	add(task, "recap --changed-only", sarif, changed(sarif, 1.5, "3714"))
	add(task, "reviewdog", sarif, dog("sarif", sarif))
	task = "findings on changed lines, Checkstyle × 200 commits"
	add(task, "recap --changed-only", cs, changed(cs, 0.8, "5006"))
	add(task, "reviewdog", cs, dog("checkstyle", cs))

	task = "everything as SARIF, PMD SARIF"
	add(task, "recap --format sarif", sarif, cmd{args: []string{*recap, "summary", "--format", "sarif", sarif},
		target: &target{say: "≤ 3 s, ≤ 256 MB", met: within(3, 256)}})

	if repo, err := genRepo(); err != nil {
		log.Printf("generated repository: %v", err)
	} else {
		files := firstMatch(regexp.MustCompile(`^(\d+) files? changed`))
		for _, n := range []int{200, 1000} {
			task = fmt.Sprintf("diff of %d commits, generated repository (3,000 files)", n)
			base := fmt.Sprintf("HEAD~%d", n)
			add(task, "recap diff", "", cmd{args: []string{*recap, "diff", "--base", base, "--head", "HEAD"}, dir: repo, kept: files,
				target: &target{say: "≤ 3× git diff", met: vs("git diff", func(r, o row) bool { return r.wall <= 3*o.wall })}})
			add(task, "git diff", "", cmd{args: []string{"git", "diff", base + "...HEAD"}, dir: repo, need: "git", kept: countPrefix("diff --git ")})
		}
	}

	if r, err := mcpRow(*recap, sarifGz, tmp); err != nil {
		log.Printf("MCP: %v", err)
	} else {
		rows = append(rows, r)
	}

	fmt.Printf("Measured %s on %s/%s, %d CPUs, Go %s; the fastest of %d run(s).\n\n", time.Now().Format("2006-01-02"),
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), strings.TrimPrefix(runtime.Version(), "go"), *runs)
	fmt.Println("| task | tool | wall | MB/s | peak RSS | × recap (time, memory) | kept | recap's target | met |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---|:---:|")
	var base *row
	for i := range rows {
		r := &rows[i]
		if i == 0 || r.task != rows[i-1].task {
			base = r
		}
		if r.note != "" {
			fmt.Printf("| %s | %s | – | – | – | – | %s | | |\n", r.task, r.tool, r.note)
			continue
		}
		ratio := "1"
		if r != base && base.wall > 0 {
			ratio = fmt.Sprintf("%.1f×, %.1f×", r.wall.Seconds()/base.wall.Seconds(), float64(r.rssKB)/float64(base.rssKB))
		}
		rate := "–"
		if r.size > 0 {
			rate = fmt.Sprintf("%.0f", float64(r.size)/1e6/r.wall.Seconds())
		}
		goal, met := "", ""
		if t := r.target; t != nil {
			var task []row
			for _, o := range rows {
				if o.task == r.task {
					task = append(task, o)
				}
			}
			goal, met = t.say, "✗"
			if t.met(*r, task) && (t.want == "" || t.want == r.kept) {
				met = "✓"
			}
		}
		wall := fmt.Sprintf("%.2f s", r.wall.Seconds())
		if r.wall < 100*time.Millisecond {
			wall = fmt.Sprintf("%.1f ms", float64(r.wall.Microseconds())/1000)
		}
		fmt.Printf("| %s | %s | %s | %s | %d MB | %s | %s | %s | %s |\n", r.task, r.tool, wall,
			rate, r.rssKB/1024, ratio, r.kept, goal, met)
	}
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

// mcpRow runs scripts/mcpbench on report: recap mcp over stdio, one parse,
// then 200 warm getReports pages; the row's wall time is their p95 and its
// RSS the server's peak.
func mcpRow(recap, report, tmp string) (row, error) {
	bin := filepath.Join(tmp, "mcpbench")
	if out, err := exec.Command("go", "build", "-o", bin, "./scripts/mcpbench").CombinedOutput(); err != nil {
		return row{}, fmt.Errorf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "-recap", recap, report).Output()
	if err != nil {
		return row{}, err
	}
	r := row{task: "warm analysis.getReports page, PMD SARIF (recap mcp over stdio, p95 of 200)", tool: "recap mcp",
		target: &target{say: "p95 < 20 ms", met: func(r row, _ []row) bool { return r.wall < 20*time.Millisecond }}}
	for _, line := range strings.Split(string(out), "\n") {
		if m := regexp.MustCompile(`p95 ([\d.]+)(ms|µs|s)`).FindStringSubmatch(line); m != nil {
			d, err := time.ParseDuration(m[1] + m[2])
			if err != nil {
				return row{}, err
			}
			r.wall = d
		}
		if v, ok := strings.CutPrefix(line, "server peak RSS: "); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			r.rssKB = kb
		}
		if m := regexp.MustCompile(`^recap: (\d+) findings`).FindStringSubmatch(line); m != nil {
			r.kept = m[1]
		}
	}
	if r.wall == 0 {
		return row{}, fmt.Errorf("no p95 in mcpbench's output:\n%s", out)
	}
	log.Printf("%-40s %-22s %v p95 %5d MB", r.task, r.tool, r.wall, r.rssKB/1024)
	return r, nil
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

// target is a goal of the performance issue: what it says, and whether the
// row meets it, given the rows of its task (floors, peers).
type target struct {
	say  string
	met  func(r row, task []row) bool
	want string // the findings the row must keep ("" for any)
}

// within is the usual goal: at most secs seconds and mb MB of peak RSS.
func within(secs float64, mb int64, more ...func(r row, task []row) bool) func(r row, task []row) bool {
	return func(r row, task []row) bool {
		ok := r.wall.Seconds() <= secs && r.rssKB <= mb*1024
		for _, m := range more {
			ok = ok && m(r, task)
		}
		return ok
	}
}

// vs checks r's wall time against the row of another tool: r.wall × at most
// times (a floor), or the other's wall at least times r's (a peer); a tool
// that did not run fails it.
func vs(tool string, check func(r, o row) bool) func(r row, task []row) bool {
	return func(r row, task []row) bool {
		for _, o := range task {
			if o.tool == tool {
				return o.note == "" && check(r, o)
			}
		}
		return false
	}
}

// fastestPeer checks that every peer row (not recap's, not a floor) that ran
// took at least times recap's wall time.
func fastestPeer(times float64) func(r row, task []row) bool {
	return func(r row, task []row) bool {
		for _, o := range task {
			if o.tool == r.tool || strings.HasPrefix(o.tool, "floor") || o.note != "" {
				continue
			}
			if o.wall.Seconds() < times*r.wall.Seconds() {
				return false
			}
		}
		return true
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
