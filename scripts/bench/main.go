// Command bench runs recap and its peers on the large real reports of
// ../shared/bench side by side, in one run, and prints a Markdown table of
// wall time, MB/s and peak RSS, with each peer's ratio to recap and the
// number of findings each kept.
//
//	go build -o /tmp/recap ./cmd/recap
//	go run ./scripts/bench -recap /tmp/recap
//
// Peers are run when found: jq, python3, the SARIF Multitool (node_modules,
// or Sarif.Multitool on PATH) and reviewdog (on PATH, or -reviewdog BIN). The
// floors are this program reading the same bytes with no work besides the
// format's own tokenizer (jsontext for JSON, encoding/xml for XML), in a
// process of its own. The reports' paths are absolute under the directory
// they were made in (/home/runner/work/REPO/REPO); the findings-on-changed-
// lines rows need that directory to exist as --repo, and the script makes
// it when it can.
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
	cs := in("spring-framework.checkstyle-sun.xml")
	diff200 := in("spring-framework.200-commits.masked.diff")
	haveRoot := os.MkdirAll(springRoot, 0o755) == nil

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
		r.task, r.tool, r.size = task, tool, size(input)
		rows = append(rows, r)
		log.Printf("%-40s %-22s %6.2f s %5d MB %s", task, tool, r.wall.Seconds(), r.rssKB/1024, r.kept)
	}
	count := regexp.MustCompile(`^(\d+) findings`)

	task := "count the findings, PMD SARIF 350 MB"
	add(task, "recap summary", sarif, cmd{args: []string{*recap, "summary", sarif}, kept: firstMatch(count)})
	add(task, "floor (jsontext)", sarif, cmd{args: []string{self, "floor-json", sarif}, kept: lastLine})
	add(task, "SARIF Multitool query", sarif, cmd{args: []string{multitool, "query", sarif, "-e", "Level != 'None'"}, kept: firstMatch(regexp.MustCompile(`of ([\d,]+) results`)), need: multitool})
	add(task, "jq", sarif, cmd{args: []string{"jq", "[.runs[].results | length] | add", sarif}, kept: lastLine, need: "jq"})
	add(task, "python3 json", sarif, cmd{args: []string{"python3", "-c", `import json,sys; d=json.load(open(sys.argv[1])); print(sum(len(r.get("results") or []) for r in d["runs"]))`, sarif}, kept: lastLine, need: "python3"})

	task = "count the findings, Checkstyle XML 74 MB"
	add(task, "recap summary", cs, cmd{args: []string{*recap, "summary", cs}, kept: firstMatch(count)})
	add(task, "floor (encoding/xml)", cs, cmd{args: []string{self, "floor-xml", cs}, kept: lastLine})

	task = "findings --limit 200, PMD SARIF"
	add(task, "recap findings", sarif, cmd{args: []string{*recap, "findings", "--limit", "200", "--no-context", sarif}, kept: firstMatch(count)})

	changed := func(report string) cmd {
		if !haveRoot {
			return cmd{skip: "needs " + springRoot}
		}
		return cmd{args: []string{*recap, "summary", "--repo", springRoot, "--changed-only", "--whitespace-changes", "--diff", diff200, report}, kept: firstMatch(count)}
	}
	dog := func(format, report string) cmd {
		return cmd{args: []string{rd, "-f=" + format, "-reporter=local", "-filter-mode=added", "-diff=cat " + diff200}, stdin: report, dir: springRoot,
			kept: lineCount, need: rd}
	}
	task = "findings on changed lines, PMD SARIF × 200 commits"
	add(task, "recap --changed-only", sarif, changed(sarif))
	add(task, "reviewdog", sarif, dog("sarif", sarif))
	task = "findings on changed lines, Checkstyle × 200 commits"
	add(task, "recap --changed-only", cs, changed(cs))
	add(task, "reviewdog", cs, dog("checkstyle", cs))

	task = "everything as SARIF, PMD SARIF"
	add(task, "recap --format sarif", sarif, cmd{args: []string{*recap, "summary", "--format", "sarif", sarif}})

	fmt.Printf("Measured %s on %s/%s, %d CPUs, Go %s; the fastest of %d run(s).\n\n", time.Now().Format("2006-01-02"),
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), strings.TrimPrefix(runtime.Version(), "go"), *runs)
	fmt.Println("| task | tool | wall | MB/s | peak RSS | × recap (time, memory) | findings kept |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|")
	var base *row
	for i := range rows {
		r := &rows[i]
		if i == 0 || r.task != rows[i-1].task {
			base = r
		}
		if r.note != "" {
			fmt.Printf("| %s | %s | – | – | – | – | %s |\n", r.task, r.tool, r.note)
			continue
		}
		ratio := "1"
		if r != base && base.wall > 0 {
			ratio = fmt.Sprintf("%.1f×, %.1f×", r.wall.Seconds()/base.wall.Seconds(), float64(r.rssKB)/float64(base.rssKB))
		}
		fmt.Printf("| %s | %s | %.2f s | %.0f | %d MB | %s | %s |\n", r.task, r.tool, r.wall.Seconds(),
			float64(r.size)/1e6/r.wall.Seconds(), r.rssKB/1024, ratio, r.kept)
	}
}

type cmd struct {
	args  []string
	stdin string // a file for standard input
	dir   string
	kept  func(out []byte) string
	need  string // a program that must be found, else the row is skipped
	skip  string
}

type row struct {
	task, tool string
	size       int64
	wall       time.Duration
	rssKB      int64
	kept       string
	note       string
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
