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
	"testing"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/genrepo"
	"github.com/recap-dev/recap/reports/reportstest"
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
// and kept in the temp dir) through go-git, as recap diff --base does.
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
	repo, err := diff.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{200, 1000} {
		b.Run(fmt.Sprintf("%d-commits", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				files, err := repo.Revisions(context.Background(), fmt.Sprintf("HEAD~%d", n), "HEAD")
				if err != nil {
					b.Fatal(err)
				}
				summarize.NewDiffView(files, summarize.DiffOptions{})
			}
		})
	}
}
