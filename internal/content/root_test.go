package content

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRoot(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "repo")
	outside := filepath.Join(top, "secret")
	for name, body := range map[string]string{"repo/src/A.java": "class A {}\n", "secret/passwd": "SECRET\n"} {
		p := filepath.Join(top, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"in.java":     "src/A.java",                        // inside: followed
		"out.java":    "../secret/passwd",                  // relative, leads out
		"abs.java":    filepath.Join(outside, "passwd"),    // absolute, leads out
		"absin.java":  filepath.Join(dir, "src", "A.java"), // absolute, even inside: refused
		"etc":         outside,                             // a directory out
		"srcdir":      "src",                               // a directory inside
		"loop":        "loop",                              // itself
		"dangling.x":  "nowhere",                           // to nothing
		"src/up.java": "../../secret/passwd",               // out from a subdirectory
		"src/ok.java": "../src/A.java",                     // up, then in again
	}
	r := linkedRoot(t, dir, links)
	bothWays(t, func(t *testing.T) {
		rootCases(t, r)
	})
}

// rootCases opens each case's path with r.Open (see TestRoot).
func rootCases(t *testing.T, r *Root) {
	dir := r.Dir()
	outside := filepath.Join(filepath.Dir(dir), "secret")
	for _, tc := range []struct {
		path string
		want string // content, or the error's text
		err  error
	}{
		{path: "src/A.java", want: "class A {}\n"},
		{path: "./src/../src/A.java", want: "class A {}\n"},
		{path: filepath.Join(dir, "src", "A.java"), want: "class A {}\n"},
		{path: `src\A.java`, want: "class A {}\n"},
		{path: "in.java", want: "class A {}\n"},
		{path: "srcdir/A.java", want: "class A {}\n"},
		{path: "src/ok.java", want: "class A {}\n"},
		{path: "../secret/passwd", err: ErrOutside},
		{path: filepath.Join(outside, "passwd"), err: ErrOutside},
		{path: "C:/x.java", err: ErrOutside},
		{path: "out.java", err: ErrLinkOutside},
		{path: "abs.java", err: ErrLinkOutside},
		{path: "absin.java", err: ErrLinkOutside},
		{path: "etc/passwd", err: ErrLinkOutside},
		{path: "etc/missing", err: ErrLinkOutside},
		{path: "src/up.java", err: ErrLinkOutside},
		{path: "fifo.sarif", err: ErrNotRegular},
		{path: "src", want: "is a directory"},
		{path: "missing.java", err: os.ErrNotExist},
		{path: "dangling.x", err: os.ErrNotExist},
		{path: "loop", want: "too many levels of symbolic links"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			done := make(chan struct{})
			var got string
			go func() { // a FIFO must not block
				defer close(done)
				f, _, err := r.Open(tc.path)
				if err != nil {
					got = err.Error()
					if tc.err != nil && !errors.Is(err, tc.err) {
						t.Errorf("Open(%q) = %v, want %v", tc.path, err, tc.err)
					}
					if tc.err == nil && !strings.Contains(got, tc.want) {
						t.Errorf("Open(%q) = %v, want %q", tc.path, err, tc.want)
					}
					return
				}
				defer f.Close()
				b, _ := io.ReadAll(f)
				if tc.err != nil || string(b) != tc.want {
					t.Errorf("Open(%q) read %q, want %q %v", tc.path, b, tc.want, tc.err)
				}
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatalf("Open(%q) blocked", tc.path)
			}
		})
	}
}

// bothWays runs f with the paths opened in one system call where the
// system can (openat2, Linux), then walked by os.Root, and checks that
// the first way opened something on Linux.
func bothWays(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for _, way := range []bool{true, false} {
		name := "walked"
		if way {
			name = "beneath"
		}
		t.Run(name, func(t *testing.T) {
			defer func(was bool) { beneath = was }(beneath)
			beneath = way
			before := beneathOpens.Load()
			f(t)
			opened := beneathOpens.Load() - before
			switch {
			case !way && opened != 0:
				t.Errorf("%d opens in one system call with it turned off", opened)
			case way && runtime.GOOS == "linux" && opened == 0 && !noOpenat2.Load():
				t.Errorf("no open in one system call on Linux")
			}
		})
	}
}

// linkedRoot makes the links (name → target) and a FIFO, fifo.sarif, in
// dir, and opens dir as a Root, closed when the test ends.
func linkedRoot(t *testing.T, dir string, links map[string]string) *Root {
	t.Helper()
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.sarif"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// TestRootFS: the root as an fs.FS opens regular files and directories
// (a link inside followed) with one open, judged on what was opened, and
// refuses the rest as Root.Open does, never blocking on a FIFO.
func TestRootFS(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src", "deep", "er"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"src/A.java": "class A {}\n", "src/deep/er/B.java": "class B {}\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "passwd"), []byte("SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := linkedRoot(t, dir, map[string]string{"in.java": "src/A.java", "srcdir": "src", "out": outside, "out.java": filepath.Join(outside, "passwd")})
	bothWays(t, func(t *testing.T) {
		rootFSCases(t, r.FS())
	})
}

// rootFSCases opens each case's path in fsys (see TestRootFS).
func rootFSCases(t *testing.T, fsys fs.FS) {
	for _, tc := range []struct {
		path string
		want string // the content, "dir:" and an entry, or the error's text
		err  error
	}{
		{path: "src/A.java", want: "class A {}\n"},
		{path: "src/deep/er/B.java", want: "class B {}\n"},
		{path: "in.java", want: "class A {}\n"},
		{path: "srcdir/deep/er/B.java", want: "class B {}\n"},
		{path: "src", want: "dir:A.java"},
		{path: "srcdir", want: "dir:deep"},
		{path: ".", want: "dir:fifo.sarif"},
		{path: "out/passwd", err: ErrLinkOutside},
		{path: "out.java", err: ErrLinkOutside},
		{path: "out", err: ErrLinkOutside},
		{path: "fifo.sarif", err: ErrNotRegular},
		{path: "missing.java", err: os.ErrNotExist},
		{path: "../x", err: fs.ErrInvalid},
	} {
		t.Run(tc.path, func(t *testing.T) {
			done := make(chan struct{})
			go func() { // a FIFO must not block
				defer close(done)
				f, err := fsys.Open(tc.path)
				if err != nil {
					if tc.err == nil || !errors.Is(err, tc.err) {
						t.Errorf("Open(%q) = %v, want %v", tc.path, err, tc.err)
					}
					return
				}
				defer f.Close()
				if tc.err != nil {
					t.Errorf("Open(%q) opened, want %v", tc.path, tc.err)
					return
				}
				if entry, ok := strings.CutPrefix(tc.want, "dir:"); ok {
					list, err := fs.ReadDir(fsys, tc.path)
					st, serr := f.Stat()
					if err != nil || serr != nil || !st.IsDir() || !slices.ContainsFunc(list, func(e fs.DirEntry) bool { return e.Name() == entry }) {
						t.Errorf("Open(%q): a directory? %v %v; entries %v, want %s", tc.path, err, serr, list, entry)
					}
					return
				}
				b, _ := io.ReadAll(f)
				if string(b) != tc.want {
					t.Errorf("Open(%q) read %q, want %q", tc.path, b, tc.want)
				}
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatalf("Open(%q) blocked", tc.path)
			}
		})
	}
}

func TestRootRel(t *testing.T) {
	dir := t.TempDir()
	r, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for in, want := range map[string]string{
		"a/b.java": "a/b.java", "./a//b.java": "a/b.java", "a/../b": "b", ".": ".", "": ".",
		filepath.Join(dir, "x", "y"): "x/y", dir: ".",
		"..": "", "../a": "", "a/../../b": "", "/etc/passwd": "", "C:/x": "", `..\x`: "",
	} {
		got, err := r.Rel(in)
		if want == "" {
			if !errors.Is(err, ErrOutside) {
				t.Errorf("Rel(%q) = %q, %v; want ErrOutside", in, got, err)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("Rel(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestOpenNonBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "live.sarif")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := Open(fifo)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a FIFO") {
			t.Errorf("Open(fifo) = %v, want a FIFO refused", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Open(fifo) blocked")
	}
	if _, _, err := Open("/dev/zero"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Open(/dev/zero) = %v, want ErrNotRegular", err)
	}
}

// TestBeneathAsWalked: a path opened in one system call (openat2, Linux)
// gives what os.Root's walk gives: the same file, of the same name, the
// same information, the same listing; and every path it does not open
// is walked, so each error is the walk's.
func TestBeneathAsWalked(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "repo")
	for name, body := range map[string]string{"repo/src/a/b/C.java": "class C {}\n", "repo/README": "r\n", "secret/passwd": "SECRET\n",
		"repo/a:x.java": "a\n", "repo/C:/A.java": "c\n"} {
		p := filepath.Join(top, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{"in": "src/a", "up": "src/../README", "out": "../secret", "abs": filepath.Join(dir, "README"), "src/a/back": "../../README",
		"chain0": "README"}
	// Chains of links inside: os.Root follows 8 at most, the kernel 40.
	for i := 1; i <= 12; i++ {
		links[fmt.Sprintf("chain%d", i)] = fmt.Sprintf("chain%d", i-1)
	}
	r := linkedRoot(t, dir, links)
	type seen struct {
		name, text, info, list, err string
	}
	if err := os.Chmod(filepath.Join(dir, "README"), 0o750|os.ModeSetuid|os.ModeSetgid|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	look := func(p string) seen {
		var s seen
		if f, st, err := r.Open(p); err != nil {
			s.err = err.Error()
		} else {
			b, _ := io.ReadAll(f)
			s.name, s.text = f.Name(), string(b)
			s.info = fmt.Sprint(st.Name(), st.Mode(), st.Size())
			f.Close()
		}
		if st, err := r.Stat(p); err != nil {
			s.err += " | " + err.Error()
		} else {
			s.info += fmt.Sprint(" | ", st.Name(), st.Mode(), st.Size(), st.IsDir())
		}
		if list, err := r.ReadDir(p); err != nil {
			s.err += " | " + err.Error()
		} else {
			for _, e := range list {
				s.list += e.Name() + "," + e.Type().String() + " "
			}
		}
		if f, err := r.FS().Open(p); err != nil {
			s.err += " | " + err.Error()
		} else {
			s.name += " | " + f.(interface{ Name() string }).Name()
			if st, err := f.Stat(); err != nil {
				s.err += " | " + err.Error()
			} else {
				sys := st.Sys().(*syscall.Stat_t)
				s.info += fmt.Sprint(" | ", st.Name(), st.Mode(), st.Size(), st.ModTime(), st.IsDir(), sys.Dev, sys.Ino, sys.Ctim)
			}
			if st, err := f.Stat(); err == nil && !st.IsDir() {
				b, err := io.ReadAll(f)
				s.text += fmt.Sprint(" | ", string(b), err)
			}
			s.err += fmt.Sprint(" | ", f.Close(), " | ", f.Close() != nil)
		}
		return s
	}
	paths := []string{".", "src", "src/a", "src/a/b/C.java", "README", "in", "in/b/C.java", "up", "src/a/back", "out", "out/passwd", "abs",
		"missing", "src/missing/x", "README/x", "fifo.sarif", "src/a/b/C.java/", "chain1", "chain8", "chain9", "chain12"}
	plain := map[string]bool{".": true, "src": true, "src/a": true, "src/a/b/C.java": true, "README": true, "src/a/b/C.java/": true, "fifo.sarif": true}
	for _, p := range paths {
		beneath = false
		walked := look(p)
		beneath = true
		before := beneathOpens.Load()
		got := look(p)
		if got != walked {
			t.Errorf("%q in one system call:\n%+v\nwalked:\n%+v", p, got, walked)
		}
		// A path of directories and a file is opened in one system call
		// (Linux); a path with a link on it is walked.
		if runtime.GOOS == "linux" && !noOpenat2.Load() {
			switch opened := beneathOpens.Load() > before; {
			case plain[p] && !opened:
				t.Errorf("%q: walked, not opened in one system call", p)
			case !plain[p] && opened:
				t.Errorf("%q: opened in one system call, not walked", p)
			}
		}
	}
	// StatAll says of each name what Stat says, the names of a directory
	// looked up in it at once or each walked: names Rel refuses (a drive)
	// or changes (a backslash) too.
	names := append(slices.Clone(paths), "src/a/b/missing.java", "in/b", "src/a/b", "src/a/b/C.java/x", "/README", "src/../README", "", "chain8/x",
		"src/a/back/x", "src/a/b/C.java", "a:x.java", "C:/A.java", `src\a\b\C.java`, `src\a`)
	for _, way := range []bool{true, false} {
		beneath = way
		got := r.FS().(interface{ StatAll([]string) []fs.FileInfo }).StatAll(names)
		info := func(st fs.FileInfo) string {
			if st == nil {
				return "none"
			}
			return fmt.Sprint(st.Name(), st.Mode(), st.Size(), st.ModTime(), st.IsDir())
		}
		for i, n := range names {
			st, err := r.FS().(fs.StatFS).Stat(n)
			if err != nil {
				st = nil
			}
			if info(got[i]) != info(st) {
				t.Errorf("beneath %v: StatAll says of %q %s; Stat: %s (%v)", way, n, info(got[i]), info(st), err)
			}
		}
	}
	beneath = true
}
