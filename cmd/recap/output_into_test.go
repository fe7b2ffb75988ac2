//go:build unix

package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/recap-dev/recap/internal/reportstest"
)

// TestOutputInto: --output naming a device, a FIFO or a link to one
// writes into it and leaves it as it was (a new file renamed onto it
// replaced it: run as root, "-o /dev/null" left a file where the device
// was); /dev/stdout is standard output; a link to a file makes or
// replaces that file and stays a link. The bytes are those of a plain
// file's.
func TestOutputInto(t *testing.T) {
	root := reportstest.RepoRoot(t)
	dir := t.TempDir()
	args := func(out string) []string {
		return []string{"summary", "--format", "json", "-o", out, "--repo", "testdata/sample", "testdata/reports"}
	}
	plain := filepath.Join(dir, "plain.json")
	if _, stderr, code := recap(t, root, nil, args(plain)...); code != 0 {
		t.Fatalf("-o %s: exit %d\n%s", plain, code, stderr)
	}
	want, err := os.ReadFile(plain)
	if err != nil || len(want) == 0 {
		t.Fatalf("%s: %d bytes, %v", plain, len(want), err)
	}
	gunzip := func(b []byte) []byte {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("no gzip: %v", err)
		}
		u, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	modeOf := func(path string) fs.FileMode {
		st, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		return st.Mode().Type()
	}

	for _, tc := range []struct {
		name string
		// make makes what -o names and returns it, and a function that
		// returns what was written into it (nil: nothing to read back).
		make func(t *testing.T) (string, func() []byte)
		gz   bool
		// stdout says the output is on standard output.
		stdout bool
		// after is what must still be true of the files afterwards.
		after func(t *testing.T, out string)
	}{
		{name: "a FIFO", make: fifoReader("out.fifo"), after: func(t *testing.T, out string) {
			if m := modeOf(out); m != fs.ModeNamedPipe {
				t.Errorf("%s is %v afterwards, not a FIFO", out, m)
			}
		}},
		{name: "a FIFO, gzip'd", make: fifoReader("out.json.gz"), gz: true},
		{name: "a link to a FIFO", make: func(t *testing.T) (string, func() []byte) {
			fifo, read := fifoReader("linked.fifo")(t)
			link := filepath.Join(filepath.Dir(fifo), "to-fifo")
			if err := os.Symlink(fifo, link); err != nil {
				t.Fatal(err)
			}
			return link, read
		}, after: func(t *testing.T, out string) {
			if m := modeOf(out); m != fs.ModeSymlink {
				t.Errorf("%s is %v afterwards, not a link", out, m)
			}
		}},
		{name: "a link to /dev/null", make: func(t *testing.T) (string, func() []byte) {
			link := filepath.Join(t.TempDir(), "null")
			if err := os.Symlink("/dev/null", link); err != nil {
				t.Fatal(err)
			}
			return link, nil
		}, after: func(t *testing.T, out string) {
			if m := modeOf(out); m != fs.ModeSymlink {
				t.Errorf("%s is %v afterwards, not a link", out, m)
			}
			if m := modeOf("/dev/null"); m != fs.ModeDevice|fs.ModeCharDevice {
				t.Errorf("/dev/null is %v afterwards", m)
			}
		}},
		// What /dev/stdout names (not /dev/stdout itself: were the
		// output renamed onto it, as root, the test would replace the
		// machine's /dev/stdout; nothing can be made in /proc).
		{name: "standard output", stdout: true, make: func(t *testing.T) (string, func() []byte) {
			if _, err := os.Stat("/proc/self/fd/1"); err != nil {
				t.Skipf("no /proc/self/fd here: %v", err)
			}
			return "/proc/self/fd/1", nil
		}},
		{name: "a link to a file", make: func(t *testing.T) (string, func() []byte) {
			d := t.TempDir()
			file, link := filepath.Join(d, "real.json"), filepath.Join(d, "link.json")
			if err := os.WriteFile(file, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("real.json", link); err != nil {
				t.Fatal(err)
			}
			return link, func() []byte {
				b, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
		}, after: func(t *testing.T, out string) {
			if m := modeOf(out); m != fs.ModeSymlink {
				t.Errorf("%s is %v afterwards, not a link", out, m)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, read := tc.make(t)
			stdout, stderr, code := recap(t, root, nil, args(out)...)
			if code != 0 {
				t.Fatalf("-o %s: exit %d\n%s", out, code, stderr)
			}
			var got []byte
			switch {
			case tc.stdout:
				got = []byte(stdout)
			case read != nil:
				got = read()
			}
			if tc.gz {
				got = gunzip(got)
			}
			if (tc.stdout || read != nil) && !bytes.Equal(got, want) {
				t.Errorf("-o %s: %d bytes written, want the %d of a plain file", out, len(got), len(want))
			}
			if !tc.stdout && stdout != "" {
				t.Errorf("-o %s: standard output %q", out, stdout)
			}
			if tc.after != nil {
				tc.after(t, out)
			}
		})
	}
}

// fifoReader makes a FIFO of that name in a temp dir, and a reader of it
// that starts at once; its function waits for what the reader read.
func fifoReader(name string) func(t *testing.T) (string, func() []byte) {
	return func(t *testing.T) (string, func() []byte) {
		fifo := filepath.Join(t.TempDir(), name)
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skipf("no FIFO here: %v", err)
		}
		done := make(chan []byte, 1)
		go func() {
			f, err := os.Open(fifo) // waits for the writer
			if err != nil {
				done <- nil
				return
			}
			defer f.Close()
			b, _ := io.ReadAll(f)
			done <- b
		}()
		return fifo, func() []byte {
			select {
			case b := <-done:
				return b
			case <-time.After(time.Minute):
				t.Fatalf("nothing was written into %s", fifo)
				return nil
			}
		}
	}
}

// TestReviewOutputInto: recap review's request (json, markdown) goes to
// --output as summary's output does: into a FIFO as it is, to a file made
// whole, the same bytes as on standard output.
func TestReviewOutputInto(t *testing.T) {
	pr := newMergePR(t)
	for _, format := range []string{"json", "markdown"} {
		t.Run(format, func(t *testing.T) {
			args := []string{"review", "--format", format, "--base", pr.base, "--head", pr.head, pr.sarif}
			want, stderr, code := recap(t, pr.repo.Dir, nil, args...)
			if code != 0 || want == "" {
				t.Fatalf("exit %d, %d bytes\n%s", code, len(want), stderr)
			}
			file := filepath.Join(t.TempDir(), "request."+format)
			fifo, read := fifoReader("request.fifo")(t)
			for _, out := range []string{file, fifo} {
				stdout, stderr, code := recap(t, pr.repo.Dir, nil, append([]string{"-o", out}, args...)...)
				if code != 0 || stdout != "" {
					t.Fatalf("-o %s: exit %d, standard output %q\n%s", out, code, stdout, stderr)
				}
			}
			got, err := os.ReadFile(file)
			if err != nil || string(got) != want {
				t.Errorf("-o %s: %q (%v), want %q", file, got, err, want)
			}
			if got := read(); string(got) != want {
				t.Errorf("-o %s: %q, want %q", fifo, got, want)
			}
		})
	}
}
