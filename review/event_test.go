package review

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recap-dev/recap/internal/githubtest"
)

// TestReadEvent: the event file is read as a report is: a regular file of
// at most MaxEventBytes, or an error naming it; a FIFO does not block, a
// device or a huge file is refused before it is read.
func TestReadEvent(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(`{"number": 1, "x": "`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 1<<30); err != nil { // sparse
		t.Fatal(err)
	}
	junk := filepath.Join(dir, "junk.json")
	if err := os.WriteFile(junk, []byte("<html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{fifo, fifo + ": not a regular file (a FIFO): give a file, or - for standard input"},
		{"/dev/zero", "/dev/zero: not a regular file (a character device): give a file, or - for standard input"},
		{big, big + ": 1073741824 bytes, over the 25 MiB of an event file: not a GitHub event file"},
		{dir, dir + ": is a directory"},
		{filepath.Join(dir, "none.json"), filepath.Join(dir, "none.json") + ": no such file or directory"},
		{junk, junk + ": not a GitHub event file: invalid character '<' looking for beginning of value"},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := ReadEvent(tc.path)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || err.Error() != tc.want {
				t.Errorf("ReadEvent(%s) = %v, want %q", tc.path, err, tc.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadEvent(%s) blocked", tc.path)
		}
	}
}

// TestReadEventExample reads a real pull_request payload of GitHub's
// webhook examples.
func TestReadEventExample(t *testing.T) {
	path := githubtest.EventFile(t, githubtest.PullRequestEvent{Action: "opened", Owner: "o", Repo: "r", Number: 7, Head: strings.Repeat("a", 40), Base: strings.Repeat("b", 40)})
	ev, err := ReadEvent(path)
	if err != nil {
		t.Fatal(err)
	}
	if ev.PullRequest.Number != 7 || ev.PullRequest.Head.SHA != strings.Repeat("a", 40) || ev.Repository.FullName != "o/r" {
		t.Errorf("event %+v", ev)
	}
}

// FuzzReadEvent: no content makes ReadEvent panic, and an error names the
// file.
func FuzzReadEvent(f *testing.F) {
	for _, seed := range []string{`{"number":1,"pull_request":{"number":2,"head":{"sha":"a"}}}`, `{}`, `[]`, `null`, `{"number":"x"}`, "", "\x00", `{"pull_request":` + strings.Repeat("[", 20000)} {
		f.Add([]byte(seed))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(dir, "event.json")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		ev, err := ReadEvent(path)
		if err != nil && !strings.HasPrefix(err.Error(), path+": ") {
			t.Errorf("error %q does not name the file", err)
		}
		if err == nil && ev == nil {
			t.Error("no event and no error")
		}
	})
}
