package diff_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/genrepo"
	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/internal/hostile"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/summarize"
)

// BenchmarkParseBench parses the large masked spring-framework diffs of
// ../shared/bench (200 and 1,000 commits) and builds the view and the
// changed-line index, as recap diff FILE and --changed-only --diff do.
func BenchmarkParseBench(b *testing.B) {
	dir := reportstest.SharedDir(b, "bench")
	for _, n := range []int{200, 1000} {
		gz, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("spring-framework.%d-commits.masked.diff.gz", n)))
		if err != nil {
			b.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			b.Fatal(err)
		}
		text, err := io.ReadAll(zr)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%d-commits", n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				files, err := diff.Parse("bench.diff", bytes.NewReader(text))
				if err != nil {
					b.Fatal(err)
				}
				summarize.NewDiffView(files, summarize.DiffOptions{})
				diff.NewIndex(files)
			}
		})
	}
}

// BenchmarkRevisions diffs 200- and 1,000-commit ranges of a generated
// repository (3,000 files, 3,000 commits; made once with git fast-import
// and kept in the temp dir) as recap diff --base does (the repository
// opened for each, nothing read kept from one to the next), each diff in turn
// with git diff BASE...HEAD on the same range (its output read and thrown
// away, out of the timed part): x-git is recap's time over git's, the goal
// at most 2 (git is timed as a whole process, recap's diff in process:
// recap's start, about 10 ms, is not in it). cpu-ms/op is recap's CPU
// time, on both cores.
func BenchmarkRevisions(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed: it is needed to generate the repository")
	}
	opts := genrepo.Options{Files: 3000, Commits: 3000, Seed: 1}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("recap-bench-repo-%d-%d-%d", opts.Files, opts.Commits, opts.Seed))
	if _, err := os.Stat(filepath.Join(dir, ".git", "recap-complete")); err != nil {
		os.RemoveAll(dir)
		if err := genrepo.Generate(dir, opts); err != nil {
			b.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, ".git", "recap-complete"), nil, 0o644)
	}
	for _, n := range []int{200, 1000} {
		base := fmt.Sprintf("HEAD~%d", n)
		b.Run(fmt.Sprintf("%d-commits", n), func(b *testing.B) {
			b.ReportAllocs()
			var git, cpu time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				cmd := exec.Command("git", "-C", dir, "diff", base+"...HEAD")
				cmd.Stdout = io.Discard
				t := time.Now()
				if err := cmd.Run(); err != nil {
					b.Fatalf("git diff %s...HEAD: %v", base, err)
				}
				git += time.Since(t)
				c := cpuTime()
				b.StartTimer()
				repo, err := diff.Open(dir)
				if err != nil {
					b.Fatal(err)
				}
				files, err := repo.Revisions(context.Background(), base, "HEAD")
				if err != nil {
					b.Fatal(err)
				}
				summarize.NewDiffView(files, summarize.DiffOptions{})
				repo.Close()
				b.StopTimer()
				cpu += cpuTime() - c
				b.StartTimer()
			}
			b.ReportMetric(b.Elapsed().Seconds()/git.Seconds(), "x-git")
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkTreeWalk diffs two commits of a repository of 100,000 files in
// 1,000 directories (made once with git fast-import, repacked, and kept in
// the temp dir), handing the files on one at a time as recap diff --base does: one
// commit changes every tenth file, moves 1,000 to other directories (exact
// renames), deletes 1,000 and adds 1,000; the next changes every file. It
// reports the most heap in use during the diff (peak-MB), the files
// neither held nor viewed.
func BenchmarkTreeWalk(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed: it is needed to generate the repository")
	}
	const files = 100_000
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("recap-bench-treewalk-%d", files))
	if _, err := os.Stat(filepath.Join(dir, ".git", "recap-complete")); err != nil {
		os.RemoveAll(dir)
		if err := treeWalkRepo(dir, files); err != nil {
			b.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, ".git", "recap-complete"), nil, 0o644)
	}
	repo, err := diff.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name, from, to string
		want           int
	}{
		{"10000-changed-1000-renamed", "HEAD~2", "HEAD~1", files/10 + 3000},
		{"100000-changed", "HEAD~1", "HEAD", files},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			var peak uint64
			for i := 0; i < b.N; i++ {
				peak = max(peak, reportstest.PeakHeap(func() {
					n := 0
					if err := repo.EachBetween(context.Background(), c.from, c.to, func(*diff.File) error {
						n++
						return nil
					}); err != nil || n != c.want {
						b.Fatalf("%v, %d files, want %d", err, n, c.want)
					}
				}))
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
		})
	}
}

// treeWalkRepo makes BenchmarkTreeWalk's repository in dir.
func treeWalkRepo(dir string, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if out, err := exec.Command("git", "-C", dir, "init", "-q", "-b", "main").CombinedOutput(); err != nil {
		return fmt.Errorf("git init: %v: %s", err, out)
	}
	cmd := exec.Command("git", "-C", dir, "fast-import", "--quiet", "--done")
	var in bytes.Buffer
	file := func(path, content string) {
		fmt.Fprintf(&in, "M 100644 inline %s\ndata %d\n%s\n", path, len(content), content)
	}
	name := func(i int) string { return fmt.Sprintf("src/d%d/F%d.java", i%1000, i) }
	body := func(i, v int) string {
		return fmt.Sprintf("package d%d;\n\nclass F%d {\n    int value = %d;\n    int other = %d;\n}\n", i%1000, i, v, i)
	}
	for c := 0; c < 3; c++ {
		fmt.Fprintf(&in, "commit refs/heads/main\ncommitter Dev <dev@example.com> %d +0000\ndata 6\ncommit\n", 1_700_000_000+c)
		for i := 0; i < n; i++ {
			switch {
			case c == 0:
				file(name(i), body(i, 0))
			case c == 2: // every file changed, the moved and deleted ones back
				file(name(i), body(i, 2))
			case i%100 == 1: // moved
				fmt.Fprintf(&in, "D %s\n", name(i))
				file(fmt.Sprintf("moved/d%d/F%d.java", i%1000, i), body(i, 0))
			case i%100 == 2: // deleted
				fmt.Fprintf(&in, "D %s\n", name(i))
			case i%10 == 0:
				file(name(i), body(i, 1))
			}
		}
		if c == 1 {
			for i := 0; i < n/100; i++ {
				file(fmt.Sprintf("added/A%d.java", i), fmt.Sprintf("class A%d {}\n", i))
			}
		}
	}
	in.WriteString("done\n")
	cmd.Stdin = &in
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git fast-import: %v: %s", err, out)
	}
	// packed as git gc packs a repository (fast-import's deltas are
	// chains in the order of the import)
	if out, err := exec.Command("git", "-C", dir, "repack", "-adfq").CombinedOutput(); err != nil {
		return fmt.Errorf("git repack: %v: %s", err, out)
	}
	return nil
}

// BenchmarkLargeFile diffs a file of a million lines (26 MB, past
// MaxDiffBytes: streamed and summarized), with one line in a thousand
// changed and wholly rewritten, and with the whitespace-blind changed lines
// (--changed-only): the time is linear in the lines, the memory a few
// words a line.
func BenchmarkLargeFile(b *testing.B) {
	g := gittest.New(b)
	const n = 1_000_000
	write := func(f func(i int) string) string {
		var sb strings.Builder
		for i := 0; i < n; i++ {
			sb.WriteString(f(i))
		}
		return sb.String()
	}
	g.Commit("base", map[string]string{"big.txt": write(func(i int) string { return fmt.Sprintf("line %d of the file\n", i) })})
	g.Commit("edit", map[string]string{"big.txt": write(func(i int) string {
		if i%1000 == 0 {
			return fmt.Sprintf("changed %d\n", i)
		}
		return fmt.Sprintf("line %d of the file\n", i)
	})})
	g.Commit("rewrite", map[string]string{"big.txt": write(func(i int) string { return fmt.Sprintf("other %d of the file\n", i) })})
	repo, err := diff.Open(g.Dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name, base, head string
		changed          bool
	}{
		{"edited", "HEAD~2", "HEAD~1", false},
		{"edited-changed-lines", "HEAD~2", "HEAD~1", true},
		{"rewritten", "HEAD~1", "HEAD", false},
	} {
		b.Run(c.name, func(b *testing.B) {
			repo.ChangedLines = c.changed
			b.SetBytes(26 << 20)
			b.ReportAllocs()
			defer reportCPU(b)()
			for i := 0; i < b.N; i++ {
				files, err := repo.Between(context.Background(), c.base, c.head)
				if err != nil || len(files) != 1 || files[0].Large == nil {
					b.Fatalf("%v, %d files", err, len(files))
				}
			}
		})
	}
}

// BenchmarkParseStream reads generated diffs of 16 and 64 MB (files of 10
// hunks, 2.8 KB a file) a file at a time into the view and the
// changed-line index, as recap diff - and --changed-only --diff do: the
// time per byte is the same at both sizes, and the memory allocated is
// what the files' lines take once each, none of it held.
func BenchmarkParseStream(b *testing.B) {
	for _, size := range []int64{16 << 20, 64 << 20} {
		b.Run(fmt.Sprintf("%dMiB", size>>20), func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			defer reportCPU(b)()
			for i := 0; i < b.N; i++ {
				v := summarize.NewDiffViewBuilder(summarize.DiffOptions{})
				x := diff.NewIndex(nil)
				if err := diff.ParseEach("bench.diff", hostile.DiffStream(size), func(f *diff.File) error {
					v.Add(f)
					x.Add(f)
					return nil
				}); err != nil {
					b.Fatal(err)
				}
				if v.View().Summary.Files == 0 {
					b.Fatal("no files")
				}
			}
		})
	}
}

// reportCPU reports the process's CPU time per operation (cpu-ms/op), which
// a loaded machine does not inflate as it does the wall time; call the
// function it returns when the operations are done.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64((cpuTime()-start).Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkIndexManyFiles adds a million one-line files to a changed-line
// index, then asks it a million times, as --changed-only --diff does with
// a million one-line file diffs: the bytes it holds a file (held-B/file)
// and what it allocates.
func BenchmarkIndexManyFiles(b *testing.B) {
	const n = 1_000_000
	files := make([]diff.File, n)
	for i := range files {
		files[i] = diff.File{NewPath: fmt.Sprintf("src/d%d/f%d.java", i%1000, i), Status: diff.Modified, Changed: []int{1}}
	}
	b.ReportAllocs()
	b.ResetTimer()
	var held int64
	for i := 0; i < b.N; i++ {
		var before, after runtime.MemStats
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		x := diff.NewIndex(nil)
		for k := range files {
			x.Add(&files[k])
		}
		for k := range files {
			if !x.Touches(files[k].NewPath, 1, 1) || x.Touches(files[k].NewPath, 2, 2) {
				b.Fatal("wrong answer")
			}
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		held = int64(after.HeapAlloc) - int64(before.HeapAlloc)
		runtime.KeepAlive(x)
		b.StartTimer()
	}
	b.ReportMetric(float64(held)/n, "held-B/file")
}
