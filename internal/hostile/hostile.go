// Package hostile holds the hostile-input cases of recap: inputs a pull
// request can shape (huge strings, endless streams, deep nesting, files of
// gigabytes), each run through the recap binary with a time limit and its
// peak RSS read from the process's rusage. cmd/recap/hostile's TestHostile runs
// them at small sizes in the test command; scripts/hostile runs them at
// full size and prints the table of the reliability page.
//
// A case makes its input on the fly, in a directory of its own, at the size
// asked: files (gzip where it helps), a stream on standard input, sparse
// files made with truncate. Cases of other kinds (the MCP server, signals)
// give a Run of their own.
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
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/internal/hostile/gen"
)

// MiB is 2^20 bytes; GB 10^9.
const (
	MiB = 1 << 20
	GB  = 1_000_000_000
)

// Bounds of peak RSS (the process's, as rusage gives it): a streaming
// reader holds a bounded window of its input; anything else a bounded
// amount more.
const (
	StreamBound = 64 * MiB
	AnyBound    = 256 * MiB
)

// A Case is one hostile input and what recap must do with it.
type Case struct {
	Name string
	// Make writes the case's inputs of about size bytes into dir, and
	// gives recap's arguments, its standard input (nil: none) and a few
	// words on the input ("6.5 GB of spaces, 6.4 MB as .gz").
	Make func(dir string, size int64) (args []string, stdin io.Reader, what string, err error)
	// Size is the hostile part's size in the test command; Full in
	// scripts/hostile.
	Size, Full int64
	// Bound is the peak RSS allowed, in bytes.
	Bound int64
	// Check judges a run: nil when it ended as it must (a named error, or a
	// bounded result), with the good inputs of the same call reported.
	Check func(r *Result) error
	// Run, when set, runs the case instead of the recap command Make gives
	// (a case of the MCP server).
	Run func(ctx context.Context, bin, dir string, size int64) (*Result, error)
	// Signal, when set, is sent to recap SignalAfter after it started.
	Signal      syscall.Signal
	SignalAfter time.Duration
	// Env, when set, gives environment variables (NAME=value) to add to
	// recap's, with the case's directory.
	Env func(dir string) []string
	// Tools are the programs Make needs (git): without one the case is
	// skipped.
	Tools []string
}

// Missing is the first of the case's tools that is not installed, or "".
func (c *Case) Missing() string {
	for _, t := range c.Tools {
		if _, err := exec.LookPath(t); err != nil {
			return t
		}
	}
	return ""
}

// A Result is one run of a case.
type Result struct {
	Code           int
	Stdout, Stderr []byte
	Wall           time.Duration
	MaxRSS         int64 // bytes
	What           string
	size           int64 // the size the case was made at
}

// Run runs c at size with bin in dir (made empty by the caller), within
// timeout.
func Run(bin, dir string, c Case, size int64, timeout time.Duration) (*Result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if c.Run != nil {
		return c.Run(ctx, bin, dir, size)
	}
	args, stdin, what, err := c.Make(dir, size)
	if err != nil {
		return nil, fmt.Errorf("making the input: %w", err)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	if c.Env != nil {
		cmd.Env = append(os.Environ(), c.Env(dir)...)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &limited{w: &out, n: 4 * MiB}, &limited{w: &errOut, n: MiB}
	if stdin != nil {
		cmd.Stdin = stdin
	}
	cmd.WaitDelay = 5 * time.Second // standard input may still be being written
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	if c.Signal != 0 {
		t := time.AfterFunc(c.SignalAfter, func() { cmd.Process.Signal(c.Signal) })
		defer t.Stop()
	}
	peak := watchPeak(cmd.Process.Pid)
	err = cmd.Wait()
	polled := peak()
	r := &Result{Stdout: out.Bytes(), Stderr: errOut.Bytes(), Wall: time.Since(start), What: what, size: size}
	if ctx.Err() != nil {
		return r, fmt.Errorf("no end within %s", timeout)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) && !errors.Is(err, exec.ErrWaitDelay) {
		return r, err
	}
	r.Code = cmd.ProcessState.ExitCode()
	r.MaxRSS = polled
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		var self syscall.Rusage
		if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil {
			self.Maxrss = 0
		}
		r.MaxRSS = childPeak(polled, ru.Maxrss*1024, self.Maxrss*1024) // KiB on Linux
	}
	return r, nil
}

// childPeak is a child's peak resident set: the one sampled (polled), or,
// when it was never sampled (it ended before the watcher first ran, on a
// busy machine), its rusage's (rusage), unless that may be this
// process's (self, this process's own peak): a child started as Go
// starts them (vfork) takes at its exec the peak of the memory it shared
// with this process, so a peak no higher than this process's own is not
// the child's to tell (0: unknown).
func childPeak(polled, rusage, self int64) int64 {
	if polled > 0 || rusage <= self {
		return polled
	}
	return rusage
}

// watchPeak samples the peak resident set (VmHWM) of process pid every
// millisecond until the returned function is called, which gives the
// highest seen (0: none). The process's own rusage is no good for a child
// of a large process: Linux counts in it the parent's memory, which the
// child shared until it started recap (os/exec forks with CLONE_VM).
func watchPeak(pid int) func() int64 {
	status := fmt.Sprintf("/proc/%d/status", pid)
	var peak atomic.Int64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			if n := vmHWM(status); n > peak.Load() {
				peak.Store(n)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() int64 {
		close(done)
		<-stopped
		return peak.Load()
	}
}

// vmHWM reads the peak resident set of a /proc status file, in bytes; 0
// when it cannot.
func vmHWM(status string) int64 {
	b, err := os.ReadFile(status)
	if err != nil {
		return 0
	}
	_, rest, ok := bytes.Cut(b, []byte("VmHWM:"))
	if !ok {
		return 0
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(string(line)), " kB"), 10, 64)
	if err != nil {
		return 0
	}
	return kb * 1024
}

// limited keeps the first n bytes written to it.
type limited struct {
	w *bytes.Buffer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room > 0 {
		l.w.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// Repeat gives pattern repeated up to n bytes, made as it is read.
func Repeat(pattern string, n int64) io.Reader { return gen.Repeat(pattern, n) }

// Stream is head, pattern repeated to n bytes, and tail.
func Stream(head, pattern string, n int64, tail string) io.Reader {
	return gen.Stream(head, pattern, n, tail)
}

// writeGzip writes r gzip-compressed (fastest level: the inputs repeat)
// and gives the compressed size.
func writeGzip(path string, r io.Reader) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	if _, err := io.Copy(zw, r); err != nil {
		f.Close()
		return 0, err
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return 0, err
	}
	return st.Size(), f.Close()
}

// Size writes a size as the table shows it.
func Size(n int64) string {
	switch {
	case n >= GB:
		return fmt.Sprintf("%.1f GB", float64(n)/GB)
	case n >= 1_000_000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%.0f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}

// The good inputs given beside a hostile one: they must still be reported.
const (
	goodCheckstyle = `<?xml version="1.0" encoding="UTF-8"?>
<checkstyle version="8.36"><file name="src/Good.java">
<error line="3" severity="warning" message="good one" source="com.puppycrawl.tools.checkstyle.checks.coding.MagicNumberCheck"/>
<error line="4" severity="error" message="good two" source="com.puppycrawl.tools.checkstyle.checks.coding.MagicNumberCheck"/>
</file></checkstyle>
`
	goodFindings = 2
)

// summary is the part of recap's JSON output the checks read.
type summary struct {
	Inputs []struct {
		Path     string   `json:"path"`
		Findings int      `json:"findings"`
		Error    string   `json:"error"`
		Warnings []string `json:"warnings"`
	} `json:"inputs"`
	Findings []struct {
		Message     string               `json:"message"`
		Line        int                  `json:"line"`
		Context     []struct{ Line int } `json:"context"`
		ContextNote string               `json:"contextNote"`
	} `json:"findings"`
}

// inputs checks a summary's inputs: the hostile one's findings, and its
// error or a warning holding the text given ("" for none), then the good
// one's findings.
func inputs(r *Result, code, findings int, errText, warnText string) error {
	if r.Code != code {
		return fmt.Errorf("exit %d, want %d (%s)", r.Code, code, firstLine(r.Stderr))
	}
	var s summary
	if err := json.Unmarshal(r.Stdout, &s); err != nil {
		return fmt.Errorf("output: %v", err)
	}
	if len(s.Inputs) != 2 {
		return fmt.Errorf("%d inputs reported, want 2", len(s.Inputs))
	}
	h, g := s.Inputs[0], s.Inputs[1]
	if h.Findings != findings {
		return fmt.Errorf("%d findings of the hostile input, want %d", h.Findings, findings)
	}
	if errText == "" && h.Error != "" || !strings.Contains(h.Error, errText) || errText != "" && !strings.HasPrefix(h.Error, h.Path+": ") {
		return fmt.Errorf("error %q, want one naming the input, with %q", h.Error, errText)
	}
	if warnText != "" && !strings.Contains(strings.Join(h.Warnings, "\n"), warnText) {
		return fmt.Errorf("warnings %q, want one with %q", h.Warnings, warnText)
	}
	if g.Findings != goodFindings || g.Error != "" {
		return fmt.Errorf("the good input: %d findings, error %q; want %d", g.Findings, g.Error, goodFindings)
	}
	return nil
}

// Describe says in a few words how a run ended: the hostile input's error,
// else its warnings and findings (recap's JSON), else recap's error.
func Describe(r *Result) string {
	var s summary
	if json.Unmarshal(r.Stdout, &s) == nil && len(s.Inputs) > 0 {
		h := s.Inputs[0]
		switch {
		case h.Error != "":
			return fmt.Sprintf("exit %d: %s", r.Code, h.Error)
		case len(h.Warnings) > 0:
			return fmt.Sprintf("exit %d: %s; %s", r.Code, english.Plural(h.Findings, "finding", "findings"), strings.Join(h.Warnings, "; "))
		case len(s.Findings) > 0 && s.Findings[len(s.Findings)-1].ContextNote != "":
			return fmt.Sprintf("exit %d: context note %q", r.Code, s.Findings[len(s.Findings)-1].ContextNote)
		}
		return fmt.Sprintf("exit %d: %s", r.Code, english.Plural(h.Findings, "finding", "findings"))
	}
	if line := firstLine(r.Stderr); line != "" {
		return fmt.Sprintf("exit %d: %s", r.Code, line)
	}
	if d := []rune(describeOutput(r)); len(d) > 0 { // a text summary, a diff, or what a case's Run saw
		if len(d) > 240 {
			d = append(d[:239], '…')
		}
		return fmt.Sprintf("exit %d: %s", r.Code, string(d))
	}
	return fmt.Sprintf("exit %d", r.Code)
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return s
}

// gzCase is a summary of one hostile .gz report beside a good one.
func gzCase(name, head, pattern, tail string) func(dir string, size int64) ([]string, io.Reader, string, error) {
	return func(dir string, size int64) ([]string, io.Reader, string, error) {
		if err := os.WriteFile(filepath.Join(dir, "good.xml"), []byte(goodCheckstyle), 0o644); err != nil {
			return nil, nil, "", err
		}
		gz, err := writeGzip(filepath.Join(dir, name), Stream(head, pattern, size, tail))
		if err != nil {
			return nil, nil, "", err
		}
		what := fmt.Sprintf("%s as .gz of %s", Size(gz), Size(size))
		return []string{"summary", "--format", "json", name, "good.xml"}, nil, what, nil
	}
}

// Cases are the hostile inputs, in the order of the table.
func Cases() []Case {
	var cases []Case
	for _, more := range []func() []Case{
		readerCases,
		diffCases,
		runCases,
		configCases,
		memoryCases,
		groupsCases,
		htmlCases,
		triageCases,
	} {
		cases = append(cases, more()...)
	}
	return cases
}

// readerCases are the cases of the report readers, context and signals.
func readerCases() []Case {
	const csHead = `<?xml version="1.0" encoding="UTF-8"?><checkstyle version="8"><file name="a.java">`
	const csTail = `<error line="1" severity="error" message="after" source="x.Y"/></file></checkstyle>`
	const pmdHead = `<pmd version="7.0.0"><file name="a.java"><violation beginline="1" rule="R" ruleset="Design" priority="3">`
	const sarifHead = `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","message":{"text":"`
	const sarifTail = `"}},{"ruleId":"R","message":{"text":"m"}}]}]}`
	return append([]Case{
		{
			Name: "Checkstyle XML: spaces", Size: 64 * MiB, Full: 6_500_000_000, Bound: StreamBound,
			Make:  gzCase("spaces.xml.gz", csHead, " ", csTail),
			Check: func(r *Result) error { return inputs(r, 0, 1, "", "") },
		},
		{
			Name: "Checkstyle XML: nested elements", Size: 4 * MiB, Full: 1 * GB, Bound: StreamBound,
			Make:  gzCase("nested.xml.gz", csHead, "<a>", ""),
			Check: func(r *Result) error { return inputs(r, 2, 0, "elements nested deeper than 256", "") },
		},
		{
			Name: "Checkstyle XML: zeros on standard input", Size: 64 * MiB, Full: 100 * GB, Bound: StreamBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				if err := os.WriteFile(filepath.Join(dir, "good.xml"), []byte(goodCheckstyle), 0o644); err != nil {
					return nil, nil, "", err
				}
				return []string{"summary", "--format", "json", "--input-format", "checkstyle", "-", "good.xml"},
					Repeat("\x00", size), Size(size) + " of zeros on standard input", nil
			},
			Check: func(r *Result) error { return inputs(r, 2, 0, "illegal character code U+0000", "") },
		},
		{
			Name: "PMD XML: one long message", Size: 64 * MiB, Full: 2 * GB, Bound: StreamBound,
			Make:  gzCase("message.xml.gz", pmdHead, "x", "</violation></file></pmd>"),
			Check: func(r *Result) error { return inputs(r, 0, 1, "", "1 value longer than 64 KiB cut") },
		},
		{
			Name: "SARIF: one long string", Size: 64 * MiB, Full: 500_000_000, Bound: StreamBound,
			Make:  gzCase("string.sarif.gz", sarifHead, "x", sarifTail),
			Check: func(r *Result) error { return inputs(r, 0, 2, "", "1 string longer than its bound cut") },
		},
		{
			Name: "SARIF: long string in a skipped member", Size: 64 * MiB, Full: 500_000_000, Bound: StreamBound,
			Make:  gzCase("skipped.sarif.gz", `{"x":"`, "s", `",`+sarifHead[1:]+"m"+sarifTail),
			Check: func(r *Result) error { return inputs(r, 0, 2, "", "1 string longer than its bound cut") },
		},
		{
			Name: "SpotBugs XML: many bugs", Size: 16 * MiB, Full: 330_000_000, Bound: StreamBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				if err := os.WriteFile(filepath.Join(dir, "good.xml"), []byte(goodCheckstyle), 0o644); err != nil {
					return nil, nil, "", err
				}
				n := size / int64(len(spotbugsBug))
				f, err := os.Create(filepath.Join(dir, "spotbugs.xml"))
				if err != nil {
					return nil, nil, "", err
				}
				_, err = io.Copy(f, Stream(`<?xml version="1.0" encoding="UTF-8"?><BugCollection version="4.8.2"><Project><SrcDir>/ci/src/main/java</SrcDir></Project>`,
					spotbugsBug, n*int64(len(spotbugsBug)), `<BugPattern type="NP_NULL_ON_SOME_PATH"><ShortDescription>Possible null pointer dereference</ShortDescription></BugPattern></BugCollection>`))
				if cerr := f.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					return nil, nil, "", err
				}
				return []string{"summary", "--format", "json", "spotbugs.xml", "good.xml"}, nil, fmt.Sprintf("%s, %d bugs", Size(size), n), nil
			},
			Check: func(r *Result) error {
				var s summary
				json.Unmarshal(r.Stdout, &s)
				want := 0
				if len(s.Inputs) > 0 {
					want = s.Inputs[0].Findings // checked against the size below
				}
				if err := inputs(r, 0, want, "", ""); err != nil {
					return err
				}
				if want == 0 {
					return errors.New("no bugs read")
				}
				return nil
			},
		},
		{
			Name: "diff: zeros on standard input", Size: 64 * MiB, Full: 100 * GB, Bound: StreamBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				return []string{"diff", "-"}, Repeat("\x00", size), Size(size) + " of zeros on standard input", nil
			},
			Check: diffError("recap: standard input: line 1: binary data before any file header: not a diff"),
		},
		{
			Name: "diff: one long line", Size: 64 * MiB, Full: 2 * GB, Bound: StreamBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				return []string{"diff", "-"}, Repeat("a", size), Size(size) + " without a line end on standard input", nil
			},
			Check: diffError("recap: standard input: line 1: no file header (diff --git, or --- and +++ lines) in the first 1 MiB: not a diff"),
		},
		{
			Name: "context: a finding in a 2 GB file", Size: 2 * GB, Full: 2 * GB, Bound: StreamBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				repo := filepath.Join(dir, "repo")
				if err := os.MkdirAll(repo, 0o755); err != nil {
					return nil, nil, "", err
				}
				var head strings.Builder
				for i := 1; i <= 1000; i++ {
					fmt.Fprintf(&head, "line %d\n", i)
				}
				big := filepath.Join(repo, "Big.java")
				if err := os.WriteFile(big, []byte(head.String()), 0o644); err != nil {
					return nil, nil, "", err
				}
				if err := os.Truncate(big, size); err != nil { // sparse
					return nil, nil, "", err
				}
				report := `<checkstyle version="8.36"><file name="Big.java">` +
					`<error line="5" severity="error" message="early" source="x.Y"/>` +
					`<error line="40000000" severity="error" message="late" source="x.Y"/></file></checkstyle>`
				if err := os.WriteFile(filepath.Join(dir, "report.xml"), []byte(report), 0o644); err != nil {
					return nil, nil, "", err
				}
				return []string{"findings", "--format", "json", "--repo", repo, "report.xml"}, nil, Size(size) + " sparse source file", nil
			},
			Check: func(r *Result) error {
				if r.Code != 0 {
					return fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
				}
				var s summary
				if err := json.Unmarshal(r.Stdout, &s); err != nil {
					return fmt.Errorf("output: %v", err)
				}
				if len(s.Findings) != 2 {
					return fmt.Errorf("%d findings, want 2", len(s.Findings))
				}
				for _, f := range s.Findings {
					switch {
					case f.Line == 5 && len(f.Context) != 3:
						return fmt.Errorf("line 5: %d context lines, want 3", len(f.Context))
					case f.Line != 5 && !strings.Contains(f.ContextNote, "lines past the first 4 MiB are not read"):
						return fmt.Errorf("line %d: note %q", f.Line, f.ContextNote)
					}
				}
				return nil
			},
		},
		{
			Name: "SARIF: millions of distinct files", Size: 40 * MiB, Full: 480_000_000, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				if err := os.WriteFile(filepath.Join(dir, "good.xml"), []byte(goodCheckstyle), 0o644); err != nil {
					return nil, nil, "", err
				}
				n, err := distinctSARIF(filepath.Join(dir, "files.sarif"), size)
				if err != nil {
					return nil, nil, "", err
				}
				return []string{"summary", "--format", "json", "files.sarif", "good.xml"}, nil, fmt.Sprintf("%s, %d results in as many files", Size(size), n), nil
			},
			Check: func(r *Result) error {
				var s summary
				json.Unmarshal(r.Stdout, &s)
				if len(s.Inputs) == 0 || s.Inputs[0].Findings < 100_000 {
					return errors.New("too few findings read")
				}
				return inputs(r, 0, s.Inputs[0].Findings, "", "")
			},
		},
		{
			Name: "findings: a deep page", Size: 40 * MiB, Full: 480_000_000, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				n, err := distinctSARIF(filepath.Join(dir, "files.sarif"), size)
				if err != nil {
					return nil, nil, "", err
				}
				return []string{"findings", "--format", "json", "--offset", strconv.FormatInt(n-1000, 10), "files.sarif"}, nil,
					fmt.Sprintf("%s, %d results; --offset %d", Size(size), n, n-1000), nil
			},
			Check: func(r *Result) error {
				var s struct {
					Findings []json.RawMessage
					Page     struct{ Offset, Returned, Total int }
				}
				if r.Code != 0 {
					return fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
				}
				if err := json.Unmarshal(r.Stdout, &s); err != nil {
					return fmt.Errorf("output: %v", err)
				}
				if s.Page.Returned == 0 || len(s.Findings) != s.Page.Returned || s.Page.Offset != s.Page.Total-1000 {
					return fmt.Errorf("page %+v, %d findings", s.Page, len(s.Findings))
				}
				return nil
			},
		},
		{
			Name: "a FIFO named as input", Size: 0, Full: 0, Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				if err := os.WriteFile(filepath.Join(dir, "good.xml"), []byte(goodCheckstyle), 0o644); err != nil {
					return nil, nil, "", err
				}
				if err := syscall.Mkfifo(filepath.Join(dir, "live.sarif"), 0o644); err != nil {
					return nil, nil, "", err
				}
				return []string{"summary", "--format", "json", "live.sarif", "good.xml"}, nil, "a FIFO no one writes to", nil
			},
			Check: func(r *Result) error { return inputs(r, 2, 0, "not a regular file (a FIFO)", "") },
		},
		{
			Name: "SARIF with garbage appended", Size: 0, Full: 0, Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				if err := os.WriteFile(filepath.Join(dir, "good.xml"), []byte(goodCheckstyle), 0o644); err != nil {
					return nil, nil, "", err
				}
				log := sarifHead + "m" + sarifTail + "\n<html>not a log</html>"
				if err := os.WriteFile(filepath.Join(dir, "garbage.sarif"), []byte(log), 0o644); err != nil {
					return nil, nil, "", err
				}
				return []string{"summary", "--format", "json", "garbage.sarif", "good.xml"}, nil, "a log, then text", nil
			},
			Check: func(r *Result) error { return inputs(r, 2, 2, "content after the SARIF log", "") },
		},
		{
			Name: "two SARIF logs concatenated", Size: 0, Full: 0, Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				if err := os.WriteFile(filepath.Join(dir, "good.xml"), []byte(goodCheckstyle), 0o644); err != nil {
					return nil, nil, "", err
				}
				log := sarifHead + "m" + sarifTail
				if err := os.WriteFile(filepath.Join(dir, "two.sarif"), []byte(log+"\n"+log), 0o644); err != nil {
					return nil, nil, "", err
				}
				return []string{"summary", "--format", "json", "two.sarif", "good.xml"}, nil, "cat a.sarif a.sarif", nil
			},
			Check: func(r *Result) error { return inputs(r, 0, 4, "", "") },
		},
		{
			Name: "a .gz whose checksum is wrong", Size: 0, Full: 0, Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				if err := os.WriteFile(filepath.Join(dir, "good.xml"), []byte(goodCheckstyle), 0o644); err != nil {
					return nil, nil, "", err
				}
				path := filepath.Join(dir, "bad.sarif.gz")
				if _, err := writeGzip(path, strings.NewReader(sarifHead+"m"+sarifTail)); err != nil {
					return nil, nil, "", err
				}
				b, err := os.ReadFile(path)
				if err != nil {
					return nil, nil, "", err
				}
				b[len(b)-8] ^= 0xff // the CRC-32 of the trailer
				return []string{"summary", "--format", "json", "bad.sarif.gz", "good.xml"}, nil, "a gzip trailer whose CRC-32 is wrong", os.WriteFile(path, b, 0o644)
			},
			Check: func(r *Result) error { return inputs(r, 2, 2, "invalid checksum", "") },
		},
		{
			Name: "a symlink out of the repository", Size: 0, Full: 0, Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				repo := filepath.Join(dir, "repo")
				if err := os.MkdirAll(repo, 0o755); err != nil {
					return nil, nil, "", err
				}
				if err := os.WriteFile(filepath.Join(dir, "secret"), []byte("one\nSECRET\nthree\n"), 0o644); err != nil {
					return nil, nil, "", err
				}
				if err := os.Symlink(filepath.Join(dir, "secret"), filepath.Join(repo, "Evil.java")); err != nil {
					return nil, nil, "", err
				}
				report := `<checkstyle version="8.36"><file name="Evil.java"><error line="2" severity="error" message="m" source="x.Y"/></file></checkstyle>`
				if err := os.WriteFile(filepath.Join(dir, "report.xml"), []byte(report), 0o644); err != nil {
					return nil, nil, "", err
				}
				return []string{"findings", "--format", "json", "--repo", repo, "report.xml"}, nil, "a finding on a link to a file outside", nil
			},
			Check: func(r *Result) error {
				if r.Code != 0 || bytes.Contains(r.Stdout, []byte("SECRET")) || !bytes.Contains(r.Stdout, []byte("no context: Evil.java is an absolute symbolic link, which is not followed")) {
					return fmt.Errorf("exit %d; the target's lines shown, or no note (%s)", r.Code, firstLine(r.Stdout))
				}
				return nil
			},
		},
		{
			Name: "SIGINT during a long read", Size: 64 * MiB, Full: 2 * GB, Bound: AnyBound, Signal: syscall.SIGINT, SignalAfter: 500 * time.Millisecond,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				n, err := distinctSARIF(filepath.Join(dir, "big.sarif"), size)
				if err != nil {
					return nil, nil, "", err
				}
				return []string{"findings", "--format", "sarif", "big.sarif"}, nil, fmt.Sprintf("%s, %d results; SIGINT after 0.5 s", Size(size), n), nil
			},
			Check: func(r *Result) error {
				if r.Code != 130 || len(r.Stdout) > 0 || r.Wall > 2*time.Second {
					return fmt.Errorf("exit %d after %s, %d bytes written; want 130 within a second and nothing written", r.Code, r.Wall.Round(time.Millisecond), len(r.Stdout))
				}
				return nil
			},
		},
	}, filesCases()...)
}

// distinctSARIF writes a SARIF log of about size bytes whose every result
// names a file of its own, and returns the number of results.
func distinctSARIF(path string, size int64) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[`)
	var n, written int64
	for ; written < size; n++ {
		if n > 0 {
			w.WriteByte(',')
		}
		k, _ := fmt.Fprintf(w, `{"ruleId":"R%d","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"/ci/src/d%d/f%d.java"},"region":{"startLine":%d}}}]}`, n%50, n%1000, n, 1+n%90)
		written += int64(k)
	}
	w.WriteString(`]}]}`)
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	return n, f.Close()
}

// spotbugsBug is the BugInstance the SpotBugs case repeats.
const spotbugsBug = `
<BugInstance type="NP_NULL_ON_SOME_PATH" priority="1" rank="6" abbrev="NP" category="CORRECTNESS" instanceHash="0123456789abcdef0123456789abcdef">
<ShortMessage>Possible null pointer dereference</ShortMessage><LongMessage>Possible null pointer dereference of value in com.example.shop.Order.total()</LongMessage>
<Class classname="com.example.shop.Order" primary="true"><SourceLine classname="com.example.shop.Order" start="1" end="120" sourcefile="Order.java" sourcepath="com/example/shop/Order.java"/></Class>
<Method classname="com.example.shop.Order" name="total" signature="()J" isStatic="false" primary="true"><SourceLine classname="com.example.shop.Order" start="40" end="60" startBytecode="0" endBytecode="120" sourcefile="Order.java" sourcepath="com/example/shop/Order.java"/></Method>
<LocalVariable name="value" register="1" pc="12" role="LOCAL_VARIABLE_VALUE_OF"/>
<SourceLine classname="com.example.shop.Order" primary="true" start="44" end="44" startBytecode="12" endBytecode="12" sourcefile="Order.java" sourcepath="com/example/shop/Order.java"/>
</BugInstance>`

// diffError checks that recap diff ended with the error given.
func diffError(want string) func(r *Result) error {
	return func(r *Result) error {
		if r.Code == 0 || firstLine(r.Stderr) != want {
			return fmt.Errorf("exit %d, error %q; want %q", r.Code, firstLine(r.Stderr), want)
		}
		return nil
	}
}
