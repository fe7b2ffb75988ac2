package diff_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/reportstest"
)

// TestParseBounds: an input that is not a diff (zeros, a long line, text
// with no file header) ends at its first bytes with an error naming the
// input and the line, in bounded memory; a diff with a preamble, or with
// long lines under the bound, is read.
func TestParseBounds(t *testing.T) {
	const big = 64 << 20 // read whole, it shows far above the bounds
	good := "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+b\n"
	cases := []struct {
		name  string
		in    io.Reader
		files int
		err   string
		bound uint64 // of the heap
	}{
		{name: "zeros", in: reportstest.Repeat("\x00", big), err: "in: line 1: binary data before any file header: not a diff", bound: 4 << 20},
		{name: "one long line", in: reportstest.Repeat("a", big), err: "in: line 1: no file header (diff --git, or --- and +++ lines) in the first 1 MiB: not a diff", bound: 8 << 20},
		{name: "text lines", in: reportstest.Repeat("hello\n", big), err: fmt.Sprintf("in: line %d: no file header", diff.MaxPreamble/6+1), bound: 8 << 20},
		{name: "binary after text", in: reportstest.Stream("From 1234 Mon Sep 17 00:00:00 2001\nSubject: x\n\n", "\x7fELF\x00", big, ""), err: "in: line 4: binary data before any file header", bound: 4 << 20},
		{name: "long hunk line", in: reportstest.Stream(good+"@@ -5 +5 @@\n-c\n+", "x", big, "\n"), err: "in: line 9: a line longer than 8 MiB: not a diff", bound: 4 * diff.MaxLine},
		{name: "preamble", in: strings.NewReader("From 1234 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\n---\n x.go | 2 +-\n\n" + good), files: 1, bound: 4 << 20},
		{name: "long lines under the bound", in: reportstest.Stream(good+"@@ -5 +5 @@\n-c\n+", "y", diff.MaxLine-4, "\n"), files: 1, bound: 6 * diff.MaxLine},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var files []diff.File
			var err error
			peak := reportstest.PeakHeap(func() { files, err = diff.Parse("in", c.in) })
			t.Logf("heap peak %.1f MiB", float64(peak)/(1<<20))
			if peak > c.bound {
				t.Errorf("heap peaked %d MiB above the start, want at most %d", peak>>20, c.bound>>20)
			}
			if c.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || len(files) != c.files {
				t.Fatalf("%d files, error %v; want %d", len(files), err, c.files)
			}
		})
	}
}
