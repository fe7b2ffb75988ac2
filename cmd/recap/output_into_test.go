//go:build unix

package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// TestOutputDescriptors: --output naming one of recap's descriptors
// (/proc/self/fd/1, /dev/fd/1) writes into the descriptor as the shell
// opened it: appended to a file opened for appending, into a file since
// deleted, into a socket; "-" is standard output; a link to nothing makes
// what it names; a directory, a link to one and a loop of links are
// refused and left as they were; a replaced file keeps its permissions.
func TestOutputDescriptors(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd/1"); err != nil {
		t.Skipf("no /proc/self/fd here: %v", err)
	}
	root := reportstest.RepoRoot(t)
	dir := t.TempDir()
	args := func(out string) []string {
		return []string{"summary", "--format", "json", "-o", out, "--repo", "testdata/sample", "testdata/reports"}
	}
	want, stderr, code := recap(t, root, nil, args("-")...)
	if code != 0 || want == "" {
		t.Fatalf("-o -: exit %d, %d bytes\n%s", code, len(want), stderr)
	}
	// run runs recap with stdout on f.
	run := func(t *testing.T, out string, f *os.File) {
		t.Helper()
		cmd := exec.Command(bin, args(out)...)
		cmd.Dir, cmd.Stdout = root, f
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("-o %s: %v\n%s", out, err, errOut.String())
		}
	}
	for _, name := range []string{"/proc/self/fd/1", "/dev/fd/1"} {
		t.Run("appended "+name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "log")
			if err := os.WriteFile(path, []byte("PRE\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			run(t, name, f)
			f.Close()
			got, err := os.ReadFile(path)
			if err != nil || string(got) != "PRE\n"+want {
				t.Errorf("%q (%v), want PRE and the output", got, err)
			}
			if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
				t.Errorf("the log afterwards: %v, %v", st, err)
			}
		})
	}
	t.Run("a deleted file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "gone")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		os.Remove(path)
		run(t, "/proc/self/fd/1", f)
		f.Seek(0, io.SeekStart)
		if got, _ := io.ReadAll(f); string(got) != want {
			t.Errorf("%d bytes in the deleted file, want the %d of the output", len(got), len(want))
		}
	})
	t.Run("a socket", func(t *testing.T) {
		fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
		if err != nil {
			t.Skipf("no socket pair: %v", err)
		}
		ours, theirs := os.NewFile(uintptr(fds[0]), "ours"), os.NewFile(uintptr(fds[1]), "theirs")
		defer ours.Close()
		done := make(chan []byte, 1)
		go func() { b, _ := io.ReadAll(ours); done <- b }()
		run(t, "/proc/self/fd/1", theirs)
		theirs.Close()
		if got := <-done; string(got) != want {
			t.Errorf("%d bytes through the socket, want the %d of the output", len(got), len(want))
		}
	})
	t.Run("a link to nothing", func(t *testing.T) {
		link, target := filepath.Join(dir, "dangling"), filepath.Join(dir, "made.json")
		if err := os.Symlink("made.json", link); err != nil {
			t.Fatal(err)
		}
		run(t, link, nil)
		if got, err := os.ReadFile(target); err != nil || string(got) != want {
			t.Errorf("%s: %d bytes (%v), want the output", target, len(got), err)
		}
		if st, err := os.Lstat(link); err != nil || st.Mode().Type() != fs.ModeSymlink {
			t.Errorf("%s afterwards: %v, %v", link, st, err)
		}
	})
	t.Run("permissions kept", func(t *testing.T) {
		path := filepath.Join(dir, "kept.json")
		if err := os.WriteFile(path, []byte("old"), 0o640); err != nil {
			t.Fatal(err)
		}
		run(t, path, nil)
		if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o640 || st.Size() != int64(len(want)) {
			t.Errorf("%s afterwards: %v, %v", path, st, err)
		}
	})
	for _, tc := range []struct {
		name, out, why string
		make           func(t *testing.T, out string)
	}{
		{"a directory", filepath.Join(dir, "d"), "is a directory", func(t *testing.T, out string) { os.Mkdir(out, 0o755) }},
		{"a link to a directory", filepath.Join(dir, "to-d"), "is a directory", func(t *testing.T, out string) {
			os.Mkdir(filepath.Join(dir, "d2"), 0o755)
			os.Symlink("d2", out)
		}},
		{"a loop of links", filepath.Join(dir, "loop-a"), "links", func(t *testing.T, out string) {
			os.Symlink("loop-b", out)
			os.Symlink("loop-a", filepath.Join(dir, "loop-b"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.make(t, tc.out)
			before, _ := os.Lstat(tc.out)
			_, stderr, code := recap(t, root, nil, args(tc.out)...)
			if code == 0 || !strings.Contains(stderr, "--output "+tc.out) || !strings.Contains(stderr, tc.why) {
				t.Errorf("exit %d, %s; want an error that names --output and says %q", code, stderr, tc.why)
			}
			if after, err := os.Lstat(tc.out); err != nil || after.Mode() != before.Mode() {
				t.Errorf("%s afterwards: %v, %v (before: %v)", tc.out, after, err, before)
			}
		})
	}
}

// TestOutputLinksAsTheSystemReadsThem: a link's text is read in the
// link's directory as the system reads it (a relative link in a linked
// directory, a link's .. after a link); names that lead into recap's
// descriptors through links (a link to /proc/self, to /dev/fd) are
// those descriptors, another process's refused; a new file is made as
// the umask says; a name of 250 bytes is made; a link to a .gz file
// writes gzip.
func TestOutputLinksAsTheSystemReadsThem(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd/1"); err != nil {
		t.Skipf("no /proc/self/fd here: %v", err)
	}
	root := reportstest.RepoRoot(t)
	args := func(out string) []string {
		return []string{"summary", "--format", "json", "-o", out, "--repo", "testdata/sample", "testdata/reports"}
	}
	want, stderr, code := recap(t, root, nil, args("-")...)
	if code != 0 || want == "" {
		t.Fatalf("-o -: exit %d\n%s", code, stderr)
	}
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "real", "sub", "deep"), 0o755))
	must(os.Symlink("real/sub", filepath.Join(dir, "alias")))
	must(os.Symlink("../t.json", filepath.Join(dir, "real", "sub", "out")))
	must(os.Symlink("real/sub/deep", filepath.Join(dir, "lk")))
	must(os.Symlink("lk/../v.json", filepath.Join(dir, "tl")))
	must(os.Symlink("/proc/self", filepath.Join(dir, "me")))
	must(os.Symlink("/dev/fd", filepath.Join(dir, "myfd")))
	must(os.Symlink("tgt.gz", filepath.Join(dir, "plainlink")))
	long := strings.Repeat("c", 250)

	for _, tc := range []struct{ out, file string }{
		{filepath.Join(dir, "alias", "out"), filepath.Join(dir, "real", "t.json")},
		{filepath.Join(dir, "tl"), filepath.Join(dir, "real", "sub", "v.json")},
		{filepath.Join(dir, long), filepath.Join(dir, long)},
	} {
		if _, stderr, code := recap(t, root, nil, args(tc.out)...); code != 0 {
			t.Errorf("-o %s: exit %d\n%s", tc.out, code, stderr)
			continue
		}
		if got, err := os.ReadFile(tc.file); err != nil || string(got) != want {
			t.Errorf("-o %s: %s has %d bytes (%v), want the output", tc.out, tc.file, len(got), err)
		}
	}
	for _, wrong := range []string{filepath.Join(dir, "t.json"), filepath.Join(dir, "v.json")} {
		if _, err := os.Lstat(wrong); err == nil {
			t.Errorf("%s made: a link read by its text", wrong)
		}
	}

	// A link to a .gz file.
	if _, stderr, code := recap(t, root, nil, args(filepath.Join(dir, "plainlink"))...); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "tgt.gz"))
	must(err)
	if zr, err := gzip.NewReader(bytes.NewReader(b)); err != nil {
		t.Errorf("tgt.gz, made through a link, is no gzip file: %v", err)
	} else if u, _ := io.ReadAll(zr); string(u) != want {
		t.Errorf("tgt.gz undone: %d bytes, want the output", len(u))
	}

	// Descriptors through links: appended to standard output's file.
	for _, name := range []string{filepath.Join(dir, "me", "fd", "1"), filepath.Join(dir, "myfd", "1")} {
		path := filepath.Join(t.TempDir(), "log")
		must(os.WriteFile(path, []byte("PRE\n"), 0o600))
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		must(err)
		cmd := exec.Command(bin, args(name)...)
		var errOut bytes.Buffer
		cmd.Dir, cmd.Stdout, cmd.Stderr = root, f, &errOut
		err = cmd.Run()
		f.Close()
		if err != nil {
			t.Fatalf("-o %s: %v\n%s", name, err, errOut.String())
		}
		if got, _ := os.ReadFile(path); string(got) != "PRE\n"+want {
			t.Errorf("-o %s: the log has %d bytes, want PRE and the output", name, len(got))
		}
	}

	// A descriptor's number as the system writes it: /proc/self/fd/01
	// names none.
	if _, stderr, code := recap(t, root, nil, args("/proc/self/fd/01")...); code == 0 || !strings.Contains(stderr, "no descriptor") {
		t.Errorf("-o /proc/self/fd/01: exit %d, %s; want it refused", code, stderr)
	}

	// Another process's descriptor.
	if _, err := os.Lstat("/proc/1/fd"); err == nil {
		_, stderr, code := recap(t, root, nil, args("/proc/1/fd/1")...)
		if code == 0 || !strings.Contains(stderr, "another process") {
			t.Errorf("-o /proc/1/fd/1: exit %d, %s; want it refused", code, stderr)
		}
	}

	// The umask.
	path := filepath.Join(dir, "private.json")
	sh := exec.Command("sh", append([]string{"-c", `umask 077 && exec "$0" "$@"`, bin}, args(path)...)...)
	sh.Dir = root
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("made under umask 077: %v, %v; want -rw-------", st, err)
	}
}
