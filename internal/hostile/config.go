package hostile

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// configCases are the hostile cases of the configuration file
// (.recap.yml, --config): what is not a file, a file swapped for a FIFO
// while recap opens it, and patterns shaped to cost the most against
// long paths and rule ids.
func configCases() []Case {
	return []Case{
		{
			Name: "--config on a FIFO", Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				if err := os.WriteFile(filepath.Join(dir, "good.xml"), []byte(goodCheckstyle), 0o644); err != nil {
					return nil, nil, "", err
				}
				if err := syscall.Mkfifo(filepath.Join(dir, "live.yml"), 0o644); err != nil {
					return nil, nil, "", err
				}
				return []string{"summary", "--format", "json", "--config", "live.yml", "good.xml"}, nil, "a FIFO no one writes to", nil
			},
			Check: func(r *Result) error {
				if want := "recap: live.yml: not a regular file (a FIFO): a configuration is a file"; r.Code != 2 || firstLine(r.Stderr) != want {
					return fmt.Errorf("exit %d, %q; want 2, %q", r.Code, firstLine(r.Stderr), want)
				}
				return nil
			},
		},
		{
			Name: ".recap.yml swapped between a file and a FIFO", Size: 100, Full: 100, Bound: StreamBound,
			Run: configSwapRun,
			Check: func(r *Result) error {
				if r.Code != 0 {
					return fmt.Errorf("%s", firstLine(r.Stdout))
				}
				return nil
			},
		},
		{
			Name: "250 long exclude globs against long paths", Size: 10, Full: 100, Bound: AnyBound,
			Make:  longGlobs,
			Check: func(r *Result) error { return excludedNone(r) },
		},
		{
			Name: "250 long exclude rules against long rule ids", Size: 10, Full: 100, Bound: AnyBound,
			Make:  longRules,
			Check: func(r *Result) error { return excludedNone(r) },
		},
	}
}

// WorstGlob is a path glob of 255 characters (recap takes 256) shaped to
// cost the most: ** keeps the automaton alive through any path, * and ?
// keep its positions busy on a run of a's, and it has no literal end to
// refuse a path by.
func WorstGlob(i int) string {
	return "**/" + strings.Repeat("a*?", 82) + fmt.Sprintf("%04d", i%10000) + "b*"
}

// longPath is a path of about 4 KiB (the longest a SARIF report gives),
// mostly one directory of a's.
func longPath(i int) string { return "src/" + strings.Repeat("a", 4000) + fmt.Sprintf("/F%d.java", i) }

// longSARIF writes a SARIF log of n results, each with the rule and the
// path given.
func longSARIF(path string, n int, rule, file func(i int) string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[`)
	for i := range n {
		if i > 0 {
			w.WriteByte(',')
		}
		fmt.Fprintf(w, `{"ruleId":%q,"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":%q},"region":{"startLine":1}}}]}`, rule(i), file(i))
	}
	w.WriteString(`]}]}`)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// longGlobs: 250 exclude globs of the worst shape against size findings,
// each in a path of its own of 4 KiB.
func longGlobs(dir string, size int64) ([]string, io.Reader, string, error) {
	var b strings.Builder
	b.WriteString("exclude:\n  paths:\n")
	for i := range 250 {
		fmt.Fprintf(&b, "    - %q\n", WorstGlob(i))
	}
	if err := os.WriteFile(filepath.Join(dir, ".recap.yml"), []byte(b.String()), 0o644); err != nil {
		return nil, nil, "", err
	}
	if err := longSARIF(filepath.Join(dir, "long.sarif"), int(size), func(int) string { return "R" }, longPath); err != nil {
		return nil, nil, "", err
	}
	return []string{"summary", "--format", "json", "--repo", dir, "long.sarif"}, nil,
		fmt.Sprintf("250 globs of 255 characters, %d findings in as many paths of 4 KiB", size), nil
}

// longRules: 250 exclude rules of the worst shape against size findings,
// each of a rule id of its own of 4 KiB.
func longRules(dir string, size int64) ([]string, io.Reader, string, error) {
	var b strings.Builder
	b.WriteString("exclude:\n  rules:\n")
	for i := range 250 {
		fmt.Fprintf(&b, "    - %q\n", fmt.Sprintf("*:*%sa%04db*", strings.Repeat("a*?", 82), i))
	}
	if err := os.WriteFile(filepath.Join(dir, ".recap.yml"), []byte(b.String()), 0o644); err != nil {
		return nil, nil, "", err
	}
	rule := func(i int) string { return strings.Repeat("a", 4090) + fmt.Sprintf("%05d", i) }
	if err := longSARIF(filepath.Join(dir, "long.sarif"), int(size), rule, func(int) string { return "src/A.java" }); err != nil {
		return nil, nil, "", err
	}
	return []string{"summary", "--format", "json", "--repo", dir, "long.sarif"}, nil,
		fmt.Sprintf("250 rule patterns of 256 characters, %d findings of as many rules of 4 KiB", size), nil
}

// excludedNone checks a summary of the long cases: every finding read,
// none excluded (no pattern matches).
func excludedNone(r *Result) error {
	var s struct {
		Summary struct{ Total, Excluded int }
		Inputs  []struct{ Findings int }
	}
	if r.Code != 0 {
		return fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
	}
	if err := json.Unmarshal(r.Stdout, &s); err != nil {
		return fmt.Errorf("output: %v", err)
	}
	if len(s.Inputs) != 1 || s.Inputs[0].Findings != int(r.size) || s.Summary.Excluded != 0 {
		return fmt.Errorf("%+v: want %d findings, none excluded", s, r.size)
	}
	return nil
}

// configSwapRun runs recap summary size times while the repository's
// .recap.yml is swapped between a regular file and a FIFO no one writes
// to: each run must end within 20 s, either reading the file or refusing
// the FIFO by name (a run that checked the path, then opened it, blocked
// on the FIFO).
func configSwapRun(ctx context.Context, bin, dir string, size int64) (*Result, error) {
	repo := filepath.Join(dir, "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		return nil, err
	}
	report := filepath.Join(dir, "good.xml")
	if err := os.WriteFile(report, []byte(goodCheckstyle), 0o644); err != nil {
		return nil, err
	}
	sw, err := swapFIFO(filepath.Join(repo, ".recap.yml"), "exclude:\n  paths: [\"**/Good.java\"]\n")
	if err != nil {
		return nil, err
	}
	defer sw.stop()
	r := &Result{size: size}
	start := time.Now()
	read, refused := 0, 0
	var bad []string
	for i := int64(0); i < size; i++ {
		rctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		cmd := exec.CommandContext(rctx, bin, "summary", "--format", "json", "--repo", repo, report)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Start(); err != nil {
			cancel()
			return nil, err
		}
		peak := watchPeak(cmd.Process.Pid)
		err := cmd.Wait()
		r.MaxRSS = max(r.MaxRSS, peak())
		timedOut := rctx.Err() != nil
		cancel()
		var ee *exec.ExitError
		switch {
		case timedOut:
			bad = append(bad, "a run blocked for 20 s")
		case err == nil && bytes.Contains(out.Bytes(), []byte(`"excluded":2,`)):
			read++
		case errors.As(err, &ee) && ee.ExitCode() == 2 && strings.Contains(errOut.String(), ".recap.yml: not a regular file (a FIFO)"):
			refused++
		default:
			bad = append(bad, fmt.Sprintf("exit %v: %s %s", err, firstLine(errOut.Bytes()), firstLine(out.Bytes())))
		}
	}
	swaps := sw.stop()
	r.Wall = time.Since(start)
	r.What = fmt.Sprintf("%d runs during %d swaps", size, swaps)
	r.Stdout = fmt.Appendf(nil, "%d runs read the file, %d refused the FIFO, %d went wrong\n", read, refused, len(bad))
	if len(bad) > 0 || read == 0 {
		r.Code = 1
		r.Stdout = fmt.Appendf(nil, "%d read, %d refused, %d wrong (first: %s)\n", read, refused, len(bad), strings.Join(append(bad, "none read")[:1], ""))
	}
	return r, nil
}

// fifoSwapper swaps a path between a regular file and a FIFO until
// stopped, each swap a rename over the path.
type fifoSwapper struct {
	done  chan struct{}
	once  sync.Once
	wg    sync.WaitGroup
	swaps atomic.Int64
}

func swapFIFO(path, body string) (*fifoSwapper, error) {
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		return nil, err
	}
	s := &fifoSwapper{done: make(chan struct{})}
	tmpFile, tmpFIFO := path+".swap-file", path+".swap-fifo"
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer os.Remove(tmpFile)
		defer os.Remove(tmpFIFO)
		for {
			select {
			case <-s.done:
				return
			default:
			}
			os.Remove(tmpFIFO)
			if syscall.Mkfifo(tmpFIFO, 0o644) != nil || os.Rename(tmpFIFO, path) != nil {
				return
			}
			time.Sleep(time.Millisecond)
			if os.WriteFile(tmpFile, []byte(body), 0o644) != nil || os.Rename(tmpFile, path) != nil {
				return
			}
			s.swaps.Add(1)
			time.Sleep(time.Millisecond)
		}
	}()
	return s, nil
}

func (s *fifoSwapper) stop() int64 {
	s.once.Do(func() { close(s.done) })
	s.wg.Wait()
	return s.swaps.Load()
}
