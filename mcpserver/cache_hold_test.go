package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCacheHold: what a call holds beside its reports counts in the
// cache while the call lasts: idle reports go to make room, and a report
// that finds no room beside it and the reports in use is not parsed at
// all (errTooLarge: the call reads it as it goes); released, the room
// comes back.
func TestCacheHold(t *testing.T) {
	dir := t.TempDir()
	rt := rootAt(t, dir)
	files := make([]file, 4)
	for i := range files {
		files[i] = tinyReport(t, rt, dir, i, "m")
	}
	c := newReportCache(1<<20, time.Now)
	parses := 0
	c.parsed = func() { parses++ }
	r0, _, err := c.get(context.Background(), files[0], rt, "")
	if err != nil {
		t.Fatal(err)
	}
	one := r0.bytes
	c.unpin(r0) // idle: may go to make room

	// A call holding all but room for less than one report: the idle
	// report goes, and a new one is refused before it is parsed.
	release := c.hold(c.maxBytes - one/2)
	if n, _ := c.held(); n != 0 {
		t.Errorf("%d reports kept beside the hold, want the idle one gone", n)
	}
	if _, _, err := c.get(context.Background(), files[1], rt, ""); !errors.Is(err, errTooLarge) {
		t.Fatalf("a report past the room: %v, want errTooLarge", err)
	}
	if parses != 1 {
		t.Errorf("%d parses, want 1: a report that cannot be kept is not parsed", parses)
	}
	if len(c.entries) != 0 {
		t.Errorf("%d entries left by the refused report", len(c.entries))
	}
	release()
	if _, total := c.held(); total != 0 {
		t.Errorf("%d bytes counted once released, want 0", total)
	}
	r1, _, err := c.get(context.Background(), files[1], rt, "")
	if err != nil {
		t.Fatal(err)
	}
	c.unpin(r1)
	if n, total := c.held(); n != 1 || total != r1.bytes {
		t.Errorf("after the release: %d reports, %d bytes; want 1, %d", n, total, r1.bytes)
	}
}

// TestFoundFile: a file a search found keeps its path relative to the
// root inside its absolute path, and its stamp as the stat gave it.
func TestFoundFile(t *testing.T) {
	dir := t.TempDir()
	rt := rootAt(t, dir)
	if err := os.MkdirAll(filepath.Join(dir, "build", "reports"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "build", "reports", "pmd.sarif")
	if err := os.WriteFile(p, []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	f := rt.found("build/reports/pmd.sarif", info)
	if f.abs != rt.abs("build/reports/pmd.sarif") || f.rel != "build/reports/pmd.sarif" {
		t.Errorf("found %q, %q", f.abs, f.rel)
	}
	if stampOf(f.info) != stampOf(info) || f.info.Size() != info.Size() || !f.info.ModTime().Equal(info.ModTime()) ||
		f.info.Mode() != info.Mode() || f.info.Name() != "pmd.sarif" || f.info.IsDir() {
		t.Errorf("kept %+v, stat %+v", f.info, info)
	}
}

// TestProgressFold: a call's progress sums the parses that ended without
// holding them.
func TestProgressFold(t *testing.T) {
	p := &callProgress{}
	ctx := context.WithValue(context.Background(), progressKey{}, p)
	for i := range 1000 {
		e := &cacheEntry{ready: make(chan struct{}), size: 10}
		e.read.Store(int64(i % 11))
		if i%100 != 0 { // one in a hundred still reading
			close(e.ready)
		}
		watch(ctx, e)
	}
	if len(p.entries) > 128 {
		t.Errorf("%d entries held, want the ended ones folded", len(p.entries))
	}
	read, total := p.state()
	wantRead := int64(0)
	for i := range 1000 {
		wantRead += min(int64(i%11), 10)
	}
	if read != wantRead || total != 10_000 {
		t.Errorf("state %d of %d, want %d of 10000", read, total, wantRead)
	}
}

// tinyReport writes a SARIF log of one finding, r<i>.sarif in dir (the
// root rt), and returns it as a search finds it.
func tinyReport(t *testing.T, rt *root, dir string, i int, msg string) file {
	t.Helper()
	log := fmt.Sprintf(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","message":{"text":"%s"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"f%d.java"},"region":{"startLine":1}}}]}]}]}`, msg, i)
	p := filepath.Join(dir, fmt.Sprintf("r%d.sarif", i))
	if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return rt.found(filepath.Base(p), info)
}
