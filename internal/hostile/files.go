package hostile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// filesCases are the hostile cases of files, memory and messages: reading
// outside the root, the event file, the baseline, many inputs and
// quadratic shapes, the MCP server's memory, and the messages of inputs
// that used to mislead.
func filesCases() []Case {
	return []Case{
		{
			Name: "context: a file swapped for a link while read", Size: 100, Full: 300, Bound: StreamBound,
			Run: raceRun,
			Check: func(r *Result) error {
				if bytes.Contains(r.Stdout, []byte("SECRET")) || r.Code != 0 {
					return fmt.Errorf("exit %d; the file outside shown: %s", r.Code, firstLine(r.Stdout))
				}
				return nil
			},
		},
		{
			Name: "SpotBugs: a source directory through a link out", Bound: StreamBound,
			Make: srcDirLink,
			Check: func(r *Result) error {
				var s summary
				if err := json.Unmarshal(r.Stdout, &s); err != nil || r.Code != 0 || len(s.Inputs) != 1 {
					return fmt.Errorf("exit %d, output %v", r.Code, err)
				}
				if w := strings.Join(s.Inputs[0].Warnings, "\n"); !strings.Contains(w, "2 SpotBugs source paths were not found") {
					return fmt.Errorf("warnings %q: the files outside were looked at", w)
				}
				return nil
			},
		},
		eventCase("GITHUB_EVENT_PATH: a FIFO", func(dir string, _ int64) (string, string, error) {
			p := filepath.Join(dir, "event.json")
			return p, "a FIFO no one writes to", syscall.Mkfifo(p, 0o644)
		}, "not a regular file (a FIFO)"),
		eventCase("GITHUB_EVENT_PATH: /dev/zero", func(string, int64) (string, string, error) {
			return "/dev/zero", "/dev/zero", nil
		}, "not a regular file (a character device)"),
		{
			Name: "GITHUB_EVENT_PATH: a large file", Size: 1 * GB, Full: 1 * GB, Bound: StreamBound,
			Env: func(dir string) []string { return []string{"GITHUB_EVENT_PATH=" + filepath.Join(dir, "event.json")} },
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				p := filepath.Join(dir, "event.json")
				if err := os.WriteFile(p, []byte(`{"number":1,"x":"`), 0o644); err != nil {
					return nil, nil, "", err
				}
				return []string{"review", "--format", "json", "report.xml"}, nil, Size(size) + " sparse event file", os.Truncate(p, size)
			},
			Check: stderrHas(2, "over the 25 MiB of an event file"),
		},
		{
			Name: "a baseline of millions of findings", Size: 40 * MiB, Full: 480_000_000, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				n, err := distinctSARIF(filepath.Join(dir, "files.sarif"), size)
				if err != nil {
					return nil, nil, "", err
				}
				return []string{"summary", "--format", "json", "--baseline", "files.sarif", "files.sarif"}, nil,
					fmt.Sprintf("%s, %d results, against itself", Size(size), n), nil
			},
			Check: func(r *Result) error {
				var s struct {
					Summary struct {
						Total    int
						Baseline struct{ New, Unchanged, Fixed int }
					}
				}
				if err := json.Unmarshal(r.Stdout, &s); err != nil || r.Code != 0 {
					return fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
				}
				if b := s.Summary.Baseline; b.New != 0 || b.Fixed != 0 || b.Unchanged != s.Summary.Total || s.Summary.Total == 0 {
					return fmt.Errorf("against itself: %+v of %d", b, s.Summary.Total)
				}
				return nil
			},
		},
		manyFiles("many reports, as JSON", 2000, 10_000, []string{"summary", "--format", "json", "reports"}, tinySARIF, func(r *Result, n int) error {
			var s summary
			if err := json.Unmarshal(r.Stdout, &s); err != nil || r.Code != 0 {
				return fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
			}
			return nil
		}),
		manyFiles("many empty .sarif files", 2000, 20_000, []string{"summary", "--format", "json", "reports"}, func(int) string { return "" }, func(r *Result, n int) error {
			if r.Code != 2 || !bytes.Contains(r.Stderr, []byte("byte 0: empty input")) {
				return fmt.Errorf("exit %d (%s): want each named", r.Code, firstLine(r.Stderr))
			}
			return nil
		}),
		manyFiles("many inputs, as text", 10_000, 200_000, []string{"summary", "reports"}, tinySARIF, func(r *Result, n int) error {
			if r.Code != 0 || !bytes.Contains(r.Stdout, []byte(fmt.Sprintf("and %d more inputs", n-1000))) {
				return fmt.Errorf("exit %d: the inputs past the first 1000 not counted in a line (%s)", r.Code, firstLine(r.Stderr))
			}
			return nil
		}),
		sarifCase("SARIF: runs of distinct tools", 10_000, 1_000_000, false, func(w *bufio.Writer, n int64) {
			w.WriteString(`{"version":"2.1.0","runs":[`)
			for i := int64(0); i < n; i++ {
				if i > 0 {
					w.WriteByte(',')
				}
				fmt.Fprintf(w, `{"tool":{"driver":{"name":"T%d"}},"results":[{"ruleId":"R","message":{"text":"m"}}]}`, i)
			}
			w.WriteString(`]}`)
		}, "more tools"),
		sarifCase("SARIF: artifacts through a pipe", 30_000, 300_000, true, func(w *bufio.Writer, n int64) {
			w.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"artifacts":[`)
			for i := int64(0); i < n; i++ {
				if i > 0 {
					w.WriteByte(',')
				}
				fmt.Fprintf(w, `{"location":{"uri":"src/f%d.java"}}`, i)
			}
			w.WriteString(`],"results":[`)
			for i := int64(0); i < n; i++ {
				if i > 0 {
					w.WriteByte(',')
				}
				fmt.Fprintf(w, `{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"index":%d},"region":{"startLine":1}}}]}`, i)
			}
			w.WriteString(`]}]}`)
		}, ""),
		sarifCase("SARIF: notifications through a pipe", 30_000, 300_000, true, func(w *bufio.Writer, n int64) {
			w.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"invocations":[{"executionSuccessful":false,"toolExecutionNotifications":[`)
			for i := int64(0); i < n; i++ {
				if i > 0 {
					w.WriteByte(',')
				}
				fmt.Fprintf(w, `{"level":"error","message":{"text":"problem %d"}}`, i)
			}
			w.WriteString(`]}],"results":[{"ruleId":"R","message":{"text":"m"}}]}]}`)
		}, "further warnings left out"),
		sarifCase("SARIF: a million rules", 100_000, 1_000_000, false, func(w *bufio.Writer, n int64) {
			w.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T","rules":[`)
			for i := int64(0); i < n; i++ {
				if i > 0 {
					w.WriteByte(',')
				}
				fmt.Fprintf(w, `{"id":"R%d","shortDescription":{"text":"rule number %d"},"helpUri":"https://example.com/r%d"}`, i, i, i)
			}
			w.WriteString(`]}},"results":[{"ruleId":"R1","ruleIndex":1,"message":{"text":"m"}}]}]}`)
		}, ""),
		sarifCase("SARIF: one result of millions of locations", 300_000, 3_000_000, false, func(w *bufio.Writer, n int64) {
			w.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","version":"6.40.0"}},"results":[{"ruleId":"R","message":{"text":"m"},"locations":[`)
			for i := int64(0); i < n; i++ {
				if i > 0 {
					w.WriteByte(',')
				}
				fmt.Fprintf(w, `{"physicalLocation":{"artifactLocation":{"uri":"src/f%d.java"},"region":{"startLine":%d}}}`, i%1000, 1+i%90)
			}
			w.WriteString(`]}]}]}`)
		}, ""),
		{
			Name: "counts of millions of files", Size: 40 * MiB, Full: 480_000_000, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				n, err := distinctSARIF(filepath.Join(dir, "files.sarif"), size)
				return []string{"summary", "files.sarif"}, nil, fmt.Sprintf("%s, %d results in as many files", Size(size), n), err
			},
			Check: func(r *Result) error {
				var total, files int
				if _, err := fmt.Sscanf(string(r.Stdout), "%d findings in about %d files", &total, &files); err != nil || r.Code != 0 {
					return fmt.Errorf("exit %d, first line %q: want the files said to be about N", r.Code, firstLine(r.Stdout))
				}
				if files > total || !bytes.Contains(r.Stdout, []byte("at least")) {
					return fmt.Errorf("%d files of %d findings, or the top files not said to be at least", files, total)
				}
				return nil
			},
		},
		{
			Name: "SARIF after white space", Size: 1 * MiB, Full: 1 * GB, Bound: StreamBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				if err := os.MkdirAll(filepath.Join(dir, "reports"), 0o755); err != nil {
					return nil, nil, "", err
				}
				f, err := os.Create(filepath.Join(dir, "reports", "results.json"))
				if err != nil {
					return nil, nil, "", err
				}
				_, err = io.Copy(f, Stream("", " ", size, "\n"+tinySARIF(0)))
				if cerr := f.Close(); err == nil {
					err = cerr
				}
				return []string{"summary", "--format", "json", "reports"}, nil, Size(size) + " of spaces, then a log, in a directory", err
			},
			Check: func(r *Result) error {
				var s summary
				if err := json.Unmarshal(r.Stdout, &s); err != nil || r.Code != 0 || len(s.Inputs) != 1 || s.Inputs[0].Findings != 1 {
					return fmt.Errorf("exit %d (%s): the log not found or not read", r.Code, firstLine(r.Stderr))
				}
				return nil
			},
		},
		messageCase("SARIF: a loop of uriBaseIds", `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"originalUriBaseIds":{"A":{"uri":"a/","uriBaseId":"B"},"B":{"uri":"b/","uriBaseId":"A"}},`+
			`"results":[{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"f.java","uriBaseId":"A"},"region":{"startLine":1}}}]}]}]}`,
			"form a loop or a chain longer than 8"),
		messageCase("SARIF: an artifact index out of range", `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"artifacts":[{"location":{"uri":"a.java"}}],`+
			`"results":[{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"index":7},"region":{"startLine":1}}}]}]}]}`,
			"names an artifact out of range (first: 7; the run has 1 artifact)"),
		{
			Name: "gzip, then junk", Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				var b bytes.Buffer
				zw := gzip.NewWriter(&b)
				zw.Write([]byte(tinySARIF(0)))
				zw.Close()
				b.WriteString("<html>not gzip</html>")
				return []string{"summary", "--format", "json", "junk.sarif.gz"}, nil, "a .gz, then text", os.WriteFile(filepath.Join(dir, "junk.sarif.gz"), b.Bytes(), 0o644)
			},
			Check: stderrHas(2, "what follows the compressed data (member 1) is not gzip"),
		},
		{
			Name: "Checkstyle: rules without descriptions", Size: 100_000, Full: 1_000_000, Bound: AnyBound, // the counts keep 100,000 rule names exactly
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				f, err := os.Create(filepath.Join(dir, "checkstyle.xml"))
				if err != nil {
					return nil, nil, "", err
				}
				w := bufio.NewWriter(f)
				w.WriteString(`<checkstyle version="8.36"><file name="A.java">`)
				for i := int64(0); i < size; i++ {
					fmt.Fprintf(w, `<error line="1" severity="error" message="m" source="x.Rule%d"/>`, i)
				}
				w.WriteString(`</file></checkstyle>`)
				w.Flush()
				return []string{"summary", "--format", "json", "checkstyle.xml"}, nil, fmt.Sprintf("%d distinct checks", size), f.Close()
			},
			Check: func(r *Result) error {
				if r.Code != 0 || bytes.Contains(r.Stderr, []byte("description")) {
					return fmt.Errorf("exit %d (%s): rules without descriptions said to lose them", r.Code, firstLine(r.Stderr))
				}
				return nil
			},
		},
		{
			Name: "a path given twice", Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				if err := os.MkdirAll(filepath.Join(dir, "build"), 0o755); err != nil {
					return nil, nil, "", err
				}
				return []string{"summary", "--format", "json", "build", "build/pmd.sarif", "./build/pmd.sarif"}, nil, "a directory, a report in it, and the report spelled another way",
					os.WriteFile(filepath.Join(dir, "build", "pmd.sarif"), []byte(tinySARIF(0)), 0o644)
			},
			Check: func(r *Result) error {
				var s summary
				if err := json.Unmarshal(r.Stdout, &s); err != nil || len(s.Inputs) != 1 || s.Inputs[0].Findings != 1 ||
					!strings.Contains(strings.Join(s.Inputs[0].Warnings, ""), "./build/pmd.sarif names the same file: read once") {
					return fmt.Errorf("exit %d, %d inputs: want the report read once, and said so", r.Code, len(s.Inputs))
				}
				return nil
			},
		},
		{
			Name: "MCP: a report 3,000 directories deep", Bound: StreamBound, Run: deepRun,
			Check: func(r *Result) error {
				if !bytes.Contains(r.Stdout, []byte("deeper than 64 directories, not searched")) {
					return fmt.Errorf("the answer does not say why: %.300s", r.Stdout)
				}
				return nil
			},
		},
		{
			Name: "MCP: the smallest budget", Bound: AnyBound, Run: smallBudgetRun,
			Check: func(r *Result) error {
				if bytes.Contains(r.Stdout, []byte("next offset=0")) || bytes.Contains(r.Stdout, []byte(`"nextOffset":0`)) || !bytes.Contains(r.Stdout, []byte("no findings in this page")) {
					return fmt.Errorf("the answer suggests the offset asked for: %.400s", r.Stdout)
				}
				return nil
			},
		},
		{
			Name: "MCP: millions of findings, the default cache", Size: 400_000, Full: 4_000_000, Bound: AnyBound, Run: bigMCPRun,
			Check: func(r *Result) error {
				if r.Code != 0 || !bytes.Contains(r.Stdout, []byte(" findings ")) {
					return fmt.Errorf("answer %.300s", r.Stdout)
				}
				// server.stats counts what the process holds, within the bound.
				_, stats, _ := bytes.Cut(bytes.TrimSpace(r.Stdout), []byte("\n{"))
				var s struct {
					Memory struct{ HeapBytes, RuntimeBytes, BoundBytes int64 }
				}
				if err := json.Unmarshal(append([]byte("{"), stats...), &s); err != nil {
					return fmt.Errorf("server.stats: %v: %.300s", err, stats)
				}
				if m := s.Memory; m.BoundBytes != AnyBound || m.RuntimeBytes > m.BoundBytes || m.HeapBytes == 0 || m.RuntimeBytes > 2*r.MaxRSS {
					return fmt.Errorf("server.stats memory %+v, peak RSS %d", m, r.MaxRSS)
				}
				return nil
			},
		},
		{
			Name: "MCP: a root of many small reports", Size: 2000, Full: 10_000, Bound: AnyBound, Run: manyReportsMCPRun,
			Check: func(r *Result) error {
				if r.Code != 0 || !bytes.Contains(r.Stdout, []byte(" findings ")) {
					return fmt.Errorf("answer %.300s", r.Stdout)
				}
				return nil
			},
		},
		{
			Name: "MCP: hundreds of calls at once", Size: 50, Full: 500, Bound: AnyBound, Run: concurrentRun,
			Check: func(r *Result) error {
				if r.Code != 0 {
					return fmt.Errorf("%s", r.Stdout)
				}
				return nil
			},
		},
		{
			Name: "MCP over HTTP: abandoned sessions", Size: 3000, Full: 60_000, Bound: AnyBound, Run: abandonedSessionsRun,
			Check: func(r *Result) error {
				if r.Code != 0 {
					return fmt.Errorf("%s", r.Stdout)
				}
				return nil
			},
		},
		{
			Name: "MCP: the only report 3,000 directories deep, the default search", Bound: StreamBound, Run: deepSearchRun,
			Check: func(r *Result) error {
				if !bytes.Contains(r.Stdout, []byte("deeper than 64 directories, not searched")) || !bytes.Contains(r.Stdout, []byte("deep/d/d")) {
					return fmt.Errorf("the answer does not name the directory left out: %.300s", r.Stdout)
				}
				return nil
			},
		},
		{
			Name: "MCP: the root swapped for a link to another repository", Bound: StreamBound, Run: swappedRootRun, Tools: []string{"git"},
			Check: func(r *Result) error {
				if r.Code != 0 {
					return fmt.Errorf("%s", r.Stdout)
				}
				return nil
			},
		},
		{
			Name: "MCP: an unknown tool of 1 MB", Size: 1 << 20, Full: 1 << 20, Bound: StreamBound, Run: longToolRun,
			Check: func(r *Result) error {
				if r.Code != 0 || !bytes.Contains(r.Stdout, []byte("xxx…")) {
					return fmt.Errorf("%.300s", r.Stdout)
				}
				return nil
			},
		},
		{
			Name: "findings: a 309-digit --offset", Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				return []string{"findings", "--offset", strings.Repeat("9", 309), "pmd.sarif"}, nil, "--offset of 309 digits",
					os.WriteFile(filepath.Join(dir, "pmd.sarif"), []byte(tinySARIF(0)), 0o644)
			},
			Check: func(r *Result) error {
				if r.Code != 2 || len(r.Stderr) > 400 || !bytes.Contains(r.Stderr, []byte("999…")) {
					return fmt.Errorf("exit %d: %.300s", r.Code, r.Stderr)
				}
				return nil
			},
		},
		{
			Name: "MCP over HTTP: bodies that never end", Size: 60, Full: 600, Bound: AnyBound, Run: slowBodiesRun,
			Check: func(r *Result) error {
				if r.Code != 0 {
					return fmt.Errorf("%s", r.Stdout)
				}
				return nil
			},
		},
	}
}

// tinySARIF is a log of one finding in a file of its own.
func tinySARIF(i int) string {
	return fmt.Sprintf(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R%d","message":{"text":"m"},`+
		`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/f%d.java"},"region":{"startLine":1}}}]}]}]}`, i%50, i)
}

// stderrHas checks recap's exit code and that its standard error holds text.
func stderrHas(code int, text string) func(r *Result) error {
	return func(r *Result) error {
		if r.Code != code || !bytes.Contains(r.Stderr, []byte(text)) {
			return fmt.Errorf("exit %d, %q; want %d and %q", r.Code, firstLine(r.Stderr), code, text)
		}
		return nil
	}
}

// eventCase is recap review with $GITHUB_EVENT_PATH made by event.
func eventCase(name string, event func(dir string, size int64) (path, what string, err error), want string) Case {
	var path string
	return Case{
		Name: name, Bound: StreamBound,
		Env: func(string) []string { return []string{"GITHUB_EVENT_PATH=" + path} },
		Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
			p, what, err := event(dir, size)
			path = p
			return []string{"review", "--format", "json", "report.xml"}, nil, what, err
		},
		Check: stderrHas(2, want),
	}
}

// manyFiles is recap run on a directory of n reports, each made by body.
func manyFiles(name string, size, full int64, args []string, body func(i int) string, check func(r *Result, n int) error) Case {
	var n int
	return Case{
		Name: name, Size: size, Full: full, Bound: AnyBound,
		Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
			n = int(size)
			if err := os.MkdirAll(filepath.Join(dir, "reports"), 0o755); err != nil {
				return nil, nil, "", err
			}
			for i := 0; i < n; i++ {
				if err := os.WriteFile(filepath.Join(dir, "reports", fmt.Sprintf("r%07d.sarif", i)), []byte(body(i)), 0o644); err != nil {
					return nil, nil, "", err
				}
			}
			return args, nil, fmt.Sprintf("%d reports in a directory", n), nil
		},
		Check: func(r *Result) error { return check(r, n) },
	}
}

// sarifCase is recap summary of one SARIF log that write makes of n items,
// from a file or through a pipe; recap must exit 0, its JSON output
// holding want.
func sarifCase(name string, size, full int64, pipe bool, write func(w *bufio.Writer, n int64), want string) Case {
	return Case{
		Name: name, Size: size, Full: full, Bound: AnyBound,
		Make: func(dir string, n int64) ([]string, io.Reader, string, error) {
			p := filepath.Join(dir, "log.sarif")
			f, err := os.Create(p)
			if err != nil {
				return nil, nil, "", err
			}
			w := bufio.NewWriterSize(f, 1<<20)
			write(w, n)
			if err := w.Flush(); err != nil {
				f.Close()
				return nil, nil, "", err
			}
			st, _ := f.Stat()
			f.Close()
			what := fmt.Sprintf("%s, %d items", Size(st.Size()), n)
			if !pipe {
				return []string{"summary", "--format", "json", "log.sarif"}, nil, what, nil
			}
			in, err := os.Open(p)
			return []string{"summary", "--format", "json", "-"}, in, what + ", through a pipe", err
		},
		Check: func(r *Result) error {
			if r.Code != 0 {
				return fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
			}
			if want != "" && !bytes.Contains(r.Stdout, []byte(want)) {
				return fmt.Errorf("output without %q: %.300s", want, r.Stdout)
			}
			return nil
		},
	}
}

// messageCase is recap summary of a small SARIF log whose warnings must
// hold want.
func messageCase(name, log, want string) Case {
	return Case{
		Name: name, Bound: StreamBound,
		Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
			return []string{"summary", "--format", "json", "log.sarif"}, nil, "a small log", os.WriteFile(filepath.Join(dir, "log.sarif"), []byte(log), 0o644)
		},
		Check: func(r *Result) error {
			if r.Code != 0 || !bytes.Contains(r.Stderr, []byte(want)) {
				return fmt.Errorf("exit %d, warnings %q; want %q", r.Code, r.Stderr, want)
			}
			return nil
		},
	}
}

// srcDirLink makes a repository whose link leads to a directory outside
// holding the files a SpotBugs report names under it.
func srcDirLink(dir string, _ int64) ([]string, io.Reader, string, error) {
	repo, host := filepath.Join(dir, "repo"), filepath.Join(dir, "host")
	for _, f := range []string{"host/shadow", "host/com/ex/Leak.java", "repo/src/A.java"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, nil, "", err
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			return nil, nil, "", err
		}
	}
	if err := os.Symlink(host, filepath.Join(repo, "etc")); err != nil {
		return nil, nil, "", err
	}
	report := `<BugCollection version="4.8.2"><Project><SrcDir>` + repo + `/etc</SrcDir></Project>`
	for _, sp := range []string{"shadow", "com/ex/Leak.java"} {
		report += `<BugInstance type="X" priority="1" rank="5" category="CORRECTNESS"><SourceLine classname="c" start="1" end="1" sourcepath="` + sp + `" primary="true"/></BugInstance>`
	}
	report += `</BugCollection>`
	return []string{"summary", "--format", "json", "--repo", repo, "spotbugs.xml"}, nil, "SrcDir REPO/etc, a link to a directory outside",
		os.WriteFile(filepath.Join(dir, "spotbugs.xml"), []byte(report), 0o644)
}

// raceRun runs recap findings size times on a file swapped between a
// regular file and a link to a file outside the repository; Stdout holds
// what leaked (nothing) and the counts.
func raceRun(ctx context.Context, bin, dir string, size int64) (*Result, error) {
	repo := filepath.Join(dir, "repo")
	if err := os.MkdirAll(filepath.Join(repo, "src"), 0o755); err != nil {
		return nil, err
	}
	report := filepath.Join(dir, "report.xml")
	if err := os.WriteFile(report, []byte(`<checkstyle version="8.36"><file name="src/Flip.java"><error line="2" severity="error" message="m" source="x.Y"/></file></checkstyle>`), 0o644); err != nil {
		return nil, err
	}
	fl, err := Flip(filepath.Join(repo, "src", "Flip.java"), "one\ntwo\nthree\nfour\n", filepath.Join(dir, "passwd"))
	if err != nil {
		return nil, err
	}
	defer fl.Stop()
	r := &Result{}
	start := time.Now()
	shown, leaks := 0, 0
	var leaked []byte
	for i := int64(0); i < size; i++ {
		cmd := exec.CommandContext(ctx, bin, "findings", "--repo", repo, report)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		peak := watchPeak(cmd.Process.Pid)
		err := cmd.Wait()
		r.MaxRSS = max(r.MaxRSS, peak())
		if err != nil {
			r.Code = cmd.ProcessState.ExitCode()
		}
		if bytes.Contains(out.Bytes(), []byte("SECRET")) {
			leaks++
			leaked = out.Bytes()
		}
		if bytes.Contains(out.Bytes(), []byte("two")) {
			shown++
		}
	}
	swaps, err := fl.Stop()
	if err != nil {
		return nil, err
	}
	r.Wall = time.Since(start)
	r.What = fmt.Sprintf("%d runs during %d swaps", size, swaps)
	r.Stdout = append(fmt.Appendf(nil, "%d leaks of %d runs, the file inside shown %d times\n", leaks, size, shown), leaked...)
	return r, nil
}

// mcpRun starts recap mcp on root with args, calls fn with the session,
// and gives the peak RSS of the server; fn's text goes to Stdout.
func mcpRun(ctx context.Context, bin, root string, args []string, what string, fn func(cs *mcp.ClientSession) (string, error)) (*Result, error) {
	cmd := exec.CommandContext(ctx, bin, append([]string{"mcp", "--root", root}, args...)...)
	start := time.Now()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "hostile", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, err
	}
	peak := watchPeak(cmd.Process.Pid)
	text, err := fn(cs)
	rss := peak()
	cs.Close()
	r := &Result{Stdout: []byte(text), Wall: time.Since(start), MaxRSS: rss, What: what}
	if err != nil {
		r.Code = 1
		r.Stdout = []byte(err.Error())
	}
	return r, nil
}

// callText is a call's text, or its error.
func callText(ctx context.Context, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", false, err
	}
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String(), res.IsError, nil
}

func deepRun(ctx context.Context, bin, dir string, _ int64) (*Result, error) {
	if err := deepReport(dir); err != nil {
		return nil, err
	}
	return mcpRun(ctx, bin, dir, nil, "a report 3,000 directories under the root", func(cs *mcp.ClientSession) (string, error) {
		text, _, err := callText(ctx, cs, "analysis.getReports", map[string]any{"reports": []string{"deep"}})
		return text, err
	})
}

// deepSearchRun: the root's only report is 3,000 directories deep, and
// the call names no report (the default search).
func deepSearchRun(ctx context.Context, bin, dir string, _ int64) (*Result, error) {
	if err := deepReport(dir); err != nil {
		return nil, err
	}
	return mcpRun(ctx, bin, dir, nil, "the root's only report 3,000 directories down; no reports named", func(cs *mcp.ClientSession) (string, error) {
		text, _, err := callText(ctx, cs, "analysis.getReports", nil)
		return text, err
	})
}

// deepReport writes a report 3,000 directories under dir/deep.
func deepReport(dir string) error {
	deep := filepath.Join(dir, "deep")
	if err := os.Mkdir(deep, 0o755); err != nil {
		return err
	}
	fd, err := syscall.Open(deep, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return err
	}
	for i := 0; i < 3000; i++ { // deeper than a path may be long: one level at a time
		if err := syscall.Mkdirat(fd, "d", 0o755); err != nil {
			return err
		}
		next, err := syscall.Openat(fd, "d", syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
		syscall.Close(fd)
		if err != nil {
			return err
		}
		fd = next
	}
	w, err := syscall.Openat(fd, "pmd.sarif", syscall.O_WRONLY|syscall.O_CREAT, 0o644)
	syscall.Close(fd)
	if err != nil {
		return err
	}
	syscall.Write(w, []byte(tinySARIF(0)))
	return syscall.Close(w)
}

func smallBudgetRun(ctx context.Context, bin, dir string, _ int64) (*Result, error) {
	if _, err := distinctSARIF(filepath.Join(dir, "files.sarif"), 1<<20); err != nil {
		return nil, err
	}
	return mcpRun(ctx, bin, dir, nil, "maxTokens 256 on a 1 MB log of distinct files", func(cs *mcp.ClientSession) (string, error) {
		text, _, err := callText(ctx, cs, "analysis.getReports", map[string]any{"maxTokens": 256})
		return text, err
	})
}

func bigMCPRun(ctx context.Context, bin, dir string, size int64) (*Result, error) {
	if err := bigSARIF(filepath.Join(dir, "big.sarif.gz"), int(size)); err != nil {
		return nil, err
	}
	return mcpRun(ctx, bin, dir, nil, fmt.Sprintf("%d findings of distinct messages, gzip; two calls", size), func(cs *mcp.ClientSession) (string, error) {
		var out strings.Builder
		for i := 0; i < 2; i++ {
			text, isErr, err := callText(ctx, cs, "analysis.getReports", map[string]any{"reports": []string{"big.sarif.gz"}, "summaryOnly": true})
			if err != nil || isErr {
				return text, fmt.Errorf("call %d: %v %.300s", i, err, text)
			}
			line, _, _ := strings.Cut(text, "\n")
			out.WriteString(line + "\n")
		}
		stats, _, err := callText(ctx, cs, "server.stats", nil)
		out.WriteString(stats)
		return out.String(), err
	})
}

func manyReportsMCPRun(ctx context.Context, bin, dir string, size int64) (*Result, error) {
	if err := os.MkdirAll(filepath.Join(dir, "build"), 0o755); err != nil {
		return nil, err
	}
	for i := 0; i < int(size); i++ {
		if err := os.WriteFile(filepath.Join(dir, "build", fmt.Sprintf("r%05d.sarif", i)), []byte(tinySARIF(i)), 0o644); err != nil {
			return nil, err
		}
	}
	return mcpRun(ctx, bin, dir, nil, fmt.Sprintf("%d one-finding reports under the root; the default search, one call", size), func(cs *mcp.ClientSession) (string, error) {
		text, isErr, err := callText(ctx, cs, "analysis.getReports", map[string]any{})
		if err == nil && isErr {
			err = errors.New(text)
		}
		line, _, _ := strings.Cut(text, "\n")
		return line, err
	})
}

func concurrentRun(ctx context.Context, bin, dir string, size int64) (*Result, error) {
	if err := bigSARIF(filepath.Join(dir, "pmd.sarif.gz"), 300_000); err != nil {
		return nil, err
	}
	return mcpRun(ctx, bin, dir, nil, fmt.Sprintf("%d calls of distinct filters at once on 300,000 findings", size), func(cs *mcp.ClientSession) (string, error) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		codes := map[string]int{}
		for i := int64(0); i < size; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				text, isErr, err := callText(ctx, cs, "analysis.getReports", map[string]any{"grep": "finding " + strconv.FormatInt(i, 10), "limit": 5})
				k := "ok"
				switch {
				case err != nil:
					k = "failed: " + err.Error()
				case isErr:
					k, _, _ = strings.Cut(text, ":")
				}
				mu.Lock()
				codes[k]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		for k := range codes {
			if k != "ok" && k != "BUSY" {
				return "", fmt.Errorf("answers %v: want each served or BUSY", codes)
			}
		}
		return fmt.Sprintf("answers %v", codes), nil
	})
}

func slowBodiesRun(ctx context.Context, bin, dir string, size int64) (*Result, error) {
	cmd := exec.CommandContext(ctx, bin, "mcp", "--root", dir, "--http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	peak := watchPeak(cmd.Process.Pid)
	sc := bufio.NewScanner(stderr)
	addr := ""
	for sc.Scan() {
		if _, rest, ok := strings.Cut(sc.Text(), "serving http://"); ok {
			addr, _, _ = strings.Cut(rest, "/")
			break
		}
	}
	go io.Copy(io.Discard, stderr)
	if addr == "" {
		return nil, errors.New("the server did not say its address")
	}
	body := bytes.Repeat([]byte(" "), 4<<20-100)
	var mu sync.Mutex
	var wg sync.WaitGroup
	status := map[string]int{}
	for i := int64(0); i < size; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return nil, err
		}
		defer c.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", addr, 4<<20)
			// Never the last 100 bytes; those held are answered when
			// their 30 s are up, the others at once.
			c.Write(body)
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			line, err := bufio.NewReader(c).ReadString('\n')
			if err != nil {
				line = "no answer"
			}
			mu.Lock()
			status[strings.TrimSpace(line)]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	r := &Result{Wall: time.Since(start), MaxRSS: peak(), What: fmt.Sprintf("%d connections, 4 MiB bodies less 100 bytes", size)}
	r.Stdout = fmt.Appendf(nil, "answers %v", status)
	if status["HTTP/1.1 503 Service Unavailable"] < int(size)-8 {
		r.Code = 1
	}
	return r, nil
}

// abandonedSessionsRun opens size HTTP sessions, one after the other, and
// abandons each (no request after initialize): the server keeps at most
// its bound open, closing the least recently used, and the last one made
// is served.
func abandonedSessionsRun(ctx context.Context, bin, dir string, size int64) (*Result, error) {
	cmd := exec.CommandContext(ctx, bin, "mcp", "--root", dir, "--http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	peak := watchPeak(cmd.Process.Pid)
	sc := bufio.NewScanner(stderr)
	addr := ""
	for sc.Scan() {
		if _, rest, ok := strings.Cut(sc.Text(), "serving http://"); ok {
			addr, _, _ = strings.Cut(rest, "/")
			break
		}
	}
	go io.Copy(io.Discard, stderr)
	if addr == "" {
		return nil, errors.New("the server did not say its address")
	}
	url := "http://" + addr + "/mcp"
	post := func(session, body string) (int, string, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
		if err != nil {
			return 0, "", err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, "", err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), nil
	}
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"abandoned","version":"1"}}}`
	var first, last string
	for i := int64(0); i < size; i++ {
		code, id, err := post("", initialize)
		if err != nil {
			return nil, fmt.Errorf("session %d: %w", i, err)
		}
		if code != http.StatusOK || id == "" {
			return nil, fmt.Errorf("session %d: initialize answered %d", i, code)
		}
		if i == 0 {
			first = id
		}
		last = id
	}
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	firstCode, _, err := post(first, ping)
	if err != nil {
		return nil, err
	}
	lastCode, _, err := post(last, ping)
	if err != nil {
		return nil, err
	}
	r := &Result{Wall: time.Since(start), MaxRSS: peak(), What: fmt.Sprintf("%d sessions opened and abandoned", size)}
	r.Stdout = fmt.Appendf(nil, "the first session then: %d; the last: %d", firstCode, lastCode)
	if firstCode != http.StatusNotFound || lastCode != http.StatusOK {
		r.Code = 1
	}
	return r, nil
}

// bigSARIF writes a gzip SARIF log of n results of distinct messages in 50
// files.
func bigSARIF(path string, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	w := bufio.NewWriterSize(zw, 1<<20)
	w.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"BigTool","version":"1.0"}},"results":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			w.WriteString(",\n")
		}
		fmt.Fprintf(w, `{"ruleId":"R%d","level":"warning","message":{"text":"finding %d: a generated result that only makes the report large"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/main/java/Big%d.java"},"region":{"startLine":%d,"startColumn":5}}}]}`,
			i%7, i, i%50, i%500+1)
	}
	w.WriteString("]}]}\n")
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
