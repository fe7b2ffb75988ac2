package parsers

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/reports"
)

// coresInputs are real reports large enough for every goroutine of the
// readers to start (a pipe past pipeBatch findings, a read ahead past
// aheadMin bytes), as gzip and as plain files, with their finding counts.
func coresInputs(t *testing.T) []struct {
	name, path string
	want       int
} {
	t.Helper()
	bench := reportstest.SharedDir(t, "bench")
	corpus := reportstest.SharedDir(t, "corpus")
	dir := t.TempDir()
	plain := func(gz string) string {
		in, err := os.Open(filepath.Join(bench, gz))
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		zr, err := gzip.NewReader(in)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, strings.TrimSuffix(gz, ".gz"))
		out, err := os.Create(dst)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(out, zr); err != nil {
			t.Fatal(err)
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
		return dst
	}
	const sarif, cs = "commons-lang.pmd7-all.sarif.gz", "commons-lang.checkstyle-sun.xml.gz"
	return []struct {
		name, path string
		want       int
	}{
		{"SARIF gzip", filepath.Join(bench, sarif), 30380},
		{"SARIF", plain(sarif), 30380},
		{"Checkstyle XML gzip", filepath.Join(bench, cs), 41609},
		{"Checkstyle XML", plain(cs), 41609},
		{"PMD XML", filepath.Join(corpus, "pmd-xml/pmd-4.1-669-violations.xml"), 669},
	}
}

// readFindings reads path with ReadAll and returns its findings in order.
func readFindings(t *testing.T, path string) ([]reports.Finding, []reports.Input) {
	t.Helper()
	var got []reports.Finding
	inputs, err := ReadAll([]string{path}, ReadOptions{Root: "/home/runner/work/commons-lang/commons-lang"}, func(f reports.Finding) error {
		got = append(got, f)
		return nil
	})
	if err != nil || len(inputs) != 1 || inputs[0].Error != "" {
		t.Fatalf("%v %+v", err, inputs)
	}
	return got, inputs
}

// TestTwoCoresSameFindings: read on several goroutines (the gzip
// inflated and the file read ahead, the findings converted and handed on
// beside the parsing), with GOMAXPROCS 2 and 1, each report gives the
// findings it gives on one goroutine, in the same order, ids,
// fingerprints and all, and the same input.
func TestTwoCoresSameFindings(t *testing.T) {
	for _, in := range coresInputs(t) {
		t.Run(in.name, func(t *testing.T) {
			serial = true
			want, wantIn := readFindings(t, in.path)
			serial = false
			if len(want) != in.want {
				t.Fatalf("%d findings on one goroutine, want %d", len(want), in.want)
			}
			for _, procs := range []int{2, 1} {
				prev := runtime.GOMAXPROCS(procs)
				before := started.Load()
				got, gotIn := readFindings(t, in.path)
				runtime.GOMAXPROCS(prev)
				if started.Load() == before {
					t.Errorf("GOMAXPROCS=%d: no goroutine started", procs)
				}
				if len(got) != len(want) {
					t.Fatalf("GOMAXPROCS=%d: %d findings, want %d", procs, len(got), len(want))
				}
				for i := range got {
					if !reflect.DeepEqual(got[i], want[i]) {
						t.Fatalf("GOMAXPROCS=%d: finding %d is\n%+v\nwant\n%+v", procs, i, got[i], want[i])
					}
				}
				if !reflect.DeepEqual(gotIn, wantIn) {
					t.Errorf("GOMAXPROCS=%d: inputs %+v\nwant %+v", procs, gotIn, wantIn)
				}
			}
		})
	}
}

// TestTwoCoresStop: a reading cancelled through its context, stopped by an
// error of the callback or by its panic ends every goroutine it started
// before ReadAll returns; the cancelled one says so on its input, the
// error and the panic reach the caller, and the callback sees no finding
// after its error.
func TestTwoCoresStop(t *testing.T) {
	const at = 1000
	for _, in := range coresInputs(t) {
		if in.want <= at {
			continue
		}
		t.Run(in.name, func(t *testing.T) {
			t.Run("cancelled", func(t *testing.T) {
				base := runtime.NumGoroutine()
				before := started.Load()
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				n := 0
				inputs, err := ReadAll([]string{in.path}, ReadOptions{Context: ctx}, func(reports.Finding) error {
					if n++; n == at {
						cancel()
					}
					return nil
				})
				if err != nil || len(inputs) != 1 || !strings.Contains(inputs[0].Error, context.Canceled.Error()) {
					t.Errorf("err %v, inputs %+v: want the input's error to say it was cancelled", err, inputs)
				}
				if n >= in.want {
					t.Errorf("%d findings after the cancel at %d: the reading went on to the end", n, at)
				}
				checkGoroutines(t, base, started.Load()-before)
			})
			t.Run("error", func(t *testing.T) {
				base := runtime.NumGoroutine()
				before := started.Load()
				stop := errors.New("enough")
				n := 0
				_, err := ReadAll([]string{in.path}, ReadOptions{}, func(reports.Finding) error {
					if n++; n == at {
						return stop
					}
					return nil
				})
				if !errors.Is(err, stop) || n != at {
					t.Errorf("err %v after %d findings: want %v at finding %d", err, n, stop, at)
				}
				checkGoroutines(t, base, started.Load()-before)
			})
			t.Run("panic", func(t *testing.T) {
				base := runtime.NumGoroutine()
				before := started.Load()
				func() {
					defer func() {
						if v := recover(); v != "boom" {
							t.Errorf("recovered %v, want the callback's panic", v)
						}
					}()
					n := 0
					ReadAll([]string{in.path}, ReadOptions{}, func(reports.Finding) error {
						if n++; n == at {
							panic("boom")
						}
						return nil
					})
				}()
				checkGoroutines(t, base, started.Load()-before)
			})
		})
	}
}

// checkGoroutines fails unless the goroutines are back to base (those
// that end as they are waited for are given a moment), and unless the
// reading started some.
func checkGoroutines(t *testing.T, base int, startedNow int64) {
	t.Helper()
	if startedNow == 0 {
		t.Errorf("no goroutine started")
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, %d before the reading:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(time.Millisecond)
	}
}

// TestPipeFinishStop: a pipe's error is returned by finish, every time;
// stop ends a started pipe without working on what is queued.
func TestPipeFinishStop(t *testing.T) {
	for _, tc := range []struct {
		n, failAt int
		stop      bool
	}{
		{n: 10, failAt: -1}, {n: 10, failAt: 3}, {n: 3*pipeBatch + 5, failAt: -1},
		{n: 3*pipeBatch + 5, failAt: pipeBatch + 7}, {n: 3*pipeBatch + 5, failAt: -1, stop: true},
	} {
		t.Run(fmt.Sprintf("%d items, fail at %d, stop %v", tc.n, tc.failAt, tc.stop), func(t *testing.T) {
			base := runtime.NumGoroutine()
			var seen []int
			fail := errors.New("fail")
			p := newPipe(func(i *int) error {
				if *i == tc.failAt {
					return fail
				}
				seen = append(seen, *i)
				return nil
			})
			pushed := 0
			for i := range tc.n {
				*p.slot() = i
				pushed++
				if !p.push() {
					break
				}
			}
			if tc.stop {
				p.stop()
				if err := p.finish(); err != nil {
					t.Errorf("finish after stop: %v", err)
				}
				checkGoroutines(t, base, 1)
				return
			}
			err := p.finish()
			want := tc.n
			if tc.failAt >= 0 {
				want = tc.failAt
				if !errors.Is(err, fail) || !errors.Is(p.finish(), fail) {
					t.Errorf("finish: %v, want %v twice", err, fail)
				}
			} else if err != nil {
				t.Errorf("finish: %v", err)
			}
			if len(seen) != want {
				t.Fatalf("%d items worked on, want %d", len(seen), want)
			}
			for i, v := range seen {
				if v != i {
					t.Fatalf("item %d is %d: out of order", i, v)
				}
			}
		})
	}
}

// TestTwoCoresReaderPanics: a panic of the input's reader, which is read
// ahead on a goroutine of its own, reaches the caller of ReadAll once the
// findings are under way, and every goroutine the reading started ends.
func TestTwoCoresReaderPanics(t *testing.T) {
	for _, in := range coresInputs(t) {
		t.Run(in.name, func(t *testing.T) {
			base := runtime.NumGoroutine()
			before := started.Load()
			func() {
				defer func() {
					if v := recover(); v != "boom" {
						t.Errorf("recovered %v, want the reader's panic", v)
					}
				}()
				ReadAll([]string{in.path}, ReadOptions{Wrap: func(r io.Reader, _ string, size int64) io.Reader {
					return &panicReader{r: r, after: int(size) * 3 / 4} // the findings are under way
				}}, func(reports.Finding) error { return nil })
			}()
			checkGoroutines(t, base, started.Load()-before)
		})
	}
}

// panicReader panics once more than after bytes were read.
type panicReader struct {
	r     io.Reader
	after int
}

func (p *panicReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if p.after -= n; p.after < 0 {
		panic("boom")
	}
	return n, err
}
