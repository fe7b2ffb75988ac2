package cli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReplaceFileStopped: a signal that comes while the output is
// written leaves the earlier file as it was and no file beside it, the
// signal the error (recap then exits 128 + its number); the file being
// written is among those removed should recap be cut short, and only
// while it is written.
func TestReplaceFileStopped(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	if err := os.WriteFile(path, []byte("earlier"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer stopped.Store(nil)
	var writing string
	err := replaceFile(path, 0o644, func(w io.Writer) error {
		leftovers.Lock()
		for name := range leftovers.names {
			writing = name
		}
		leftovers.Unlock()
		stopped.Store(&signalError{syscall.SIGTERM})
		_, err := io.WriteString(w, "new")
		return err
	})
	var se *signalError
	if !errors.As(err, &se) || se.sig != syscall.SIGTERM {
		t.Errorf("error %v, want the signal", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "earlier" {
		t.Errorf("%s holds %q, want it as it was", path, b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want the output's alone: %v", len(entries), entries)
	}
	if filepath.Dir(writing) != dir {
		t.Errorf("the file being written (%q) was not among those removed on a signal", writing)
	}
	leftovers.Lock()
	n := len(leftovers.names)
	leftovers.Unlock()
	if n != 0 {
		t.Errorf("%d files left among those removed on a signal after the write", n)
	}

	// Cut short: removeLeftovers removes what is being written.
	f, err := createBeside(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	done := leaveNothing(f.Name())
	removeLeftovers()
	done()
	if _, err := os.Lstat(f.Name()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s still there after removeLeftovers: %v", f.Name(), err)
	}
}
