package content

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// TestUpdateConcurrent: writers at once, each adding a line under the
// lock, keep every line; no temporary file is left.
func TestUpdateConcurrent(t *testing.T) {
	dir := t.TempDir()
	r, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	const writers = 40
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each writer its own Root, as two processes would have.
			ri, err := OpenRoot(dir)
			if err != nil {
				errs <- err
				return
			}
			defer ri.Close()
			errs <- ri.Update(".recap/triage.yml", func(old []byte) ([]byte, error) {
				return append(old, fmt.Sprintf("line %02d\n", i)...), nil
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, ".recap", "triage.yml"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	sort.Strings(lines)
	if len(lines) != writers || lines[0] != "line 00" || lines[writers-1] != fmt.Sprintf("line %02d", writers-1) {
		t.Errorf("%d lines, want %d: %q", len(lines), writers, lines)
	}
	ents, _ := os.ReadDir(filepath.Join(dir, ".recap"))
	if len(ents) != 1 {
		t.Errorf(".recap holds %d entries, want the file alone: %v", len(ents), ents)
	}
}

// TestUpdateConfined: a name that leaves the root, or a directory that is
// a link out, is refused and nothing is written outside.
func TestUpdateConfined(t *testing.T) {
	top := t.TempDir()
	dir, outside := filepath.Join(top, "repo"), filepath.Join(top, "out")
	for _, d := range []string{dir, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../out", filepath.Join(dir, ".recap")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "f.yml"), filepath.Join(dir, "abs.yml")); err != nil {
		t.Fatal(err)
	}
	r, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	write := func([]byte) ([]byte, error) { return []byte("x\n"), nil }
	for _, tc := range []struct {
		name string
		want error
	}{
		{"../out/t.yml", ErrOutside},
		{filepath.Join(outside, "t.yml"), ErrOutside},
		{".recap/triage.yml", ErrLinkOutside},
		{".", ErrOutside},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := r.Update(tc.name, write)
			if !errors.Is(err, tc.want) {
				t.Errorf("Update(%q) = %v, want %v", tc.name, err, tc.want)
			}
		})
	}
	// A link to a file outside is read through? No: absolute links are refused.
	if err := r.Update("abs.yml", write); !errors.Is(err, ErrLinkOutside) {
		t.Errorf("Update through an absolute link = %v, want %v", err, ErrLinkOutside)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("written outside the root: %v", ents)
	}
	// change's error writes nothing.
	boom := errors.New("boom")
	if err := r.Update("t.yml", func([]byte) ([]byte, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Errorf("Update = %v, want %v", err, boom)
	}
	if _, err := os.Stat(filepath.Join(dir, "t.yml")); !os.IsNotExist(err) {
		t.Errorf("t.yml written after change failed: %v", err)
	}
}
