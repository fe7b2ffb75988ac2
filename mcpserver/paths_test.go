package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/recap-dev/recap/mcpserver"
)

// TestPathMessages: what the server says of a path it does not read names
// why: a link out (relative, absolute, a directory on the way), a FIFO
// (not "outside the root"), a root deleted under it (not "a symlink"), a
// report too deep for a search (named, not "no report").
func TestPathMessages(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "root")
	outside := filepath.Join(top, "outside")
	for _, d := range []string{filepath.Join(root, "src"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "x.sarif"), []byte(`{"version":"2.1.0","runs":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"rel.sarif": "../outside/x.sarif", "abs.sarif": filepath.Join(outside, "x.sarif"), "out": "../outside"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "src", "Pipe.java"), 0o644); err != nil {
		t.Fatal(err)
	}
	report := `<checkstyle version="8.36"><file name="src/Pipe.java"><error line="2" severity="error" message="m" source="x.Y"/></file></checkstyle>`
	if err := os.WriteFile(filepath.Join(root, "checkstyle-result.xml"), []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, mcpserver.Options{Root: root})
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"reports": []string{"rel.sarif"}}, "OUTSIDE_ROOT: rel.sarif is a symbolic link that leads outside the root " + root + ": give a path inside it"},
		{map[string]any{"reports": []string{"abs.sarif"}}, "OUTSIDE_ROOT: abs.sarif is an absolute symbolic link, which is not followed (a link must be relative and stay inside the root) " + root + ": give a path inside it"},
		{map[string]any{"reports": []string{"out/x.sarif"}}, "OUTSIDE_ROOT: out/x.sarif is under a symbolic link that leads outside the root " + root + ": give a path inside it"},
		{map[string]any{"reports": []string{"out/none.sarif"}}, "OUTSIDE_ROOT: out/none.sarif is under a symbolic link that leads outside the root " + root + ": give a path inside it"},
		{map[string]any{"reports": []string{"src/Pipe.java"}}, "BAD_ARGUMENT: src/Pipe.java: not a regular file (a FIFO): give a file, or - for standard input"},
		{map[string]any{"reports": []string{"src/../../**/*.sarif"}}, "OUTSIDE_ROOT: the pattern src/../../**/*.sarif leaves the root " + root + ": give a pattern relative to it"},
		{map[string]any{"reports": []string{"/**/*.sarif"}}, "OUTSIDE_ROOT: the pattern /**/*.sarif leaves the root " + root + ": give a pattern relative to it"},
	} {
		r := call(t, cs, "analysis.getReports", tc.args)
		if first, _, _ := strings.Cut(r.text, "\n"); !r.isErr || first != tc.want {
			t.Errorf("%v:\n got %q\nwant %q", tc.args, first, tc.want)
		}
	}
	var v struct {
		Findings []struct{ ContextNote string }
	}
	call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"checkstyle-result.xml"}}).decode(t, &v)
	if len(v.Findings) != 1 || v.Findings[0].ContextNote != "no context: not a regular file (a FIFO): give a file, or - for standard input" {
		t.Errorf("the context of a finding in a FIFO: %+v", v.Findings)
	}

	// A report 3,000 directories deep: a search names why it is not found.
	deep := filepath.Join(root, "deep")
	if err := os.Mkdir(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := os.Open(deep)
	if err != nil {
		t.Fatal(err)
	}
	fd := int(d.Fd())
	for i := 0; i < 3000; i++ { // deeper than a path may be long: made one level at a time
		if err := syscall.Mkdirat(fd, "d", 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := syscall.Openat(fd, "d", syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			syscall.Close(fd)
		}
		fd = next
	}
	w, err := syscall.Openat(fd, "pmd.sarif", syscall.O_WRONLY|syscall.O_CREAT, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	syscall.Write(w, []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD"}},"results":[]}]}`))
	syscall.Close(w)
	syscall.Close(fd)
	d.Close()
	r := call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"deep"}})
	first, _, _ := strings.Cut(r.text, "\n")
	if !r.isErr || !strings.HasPrefix(first, "NOT_FOUND: no ") || !strings.Contains(first, " report found under deep, where 1 directory could not be searched (first: deep/d/d/d/") ||
		!strings.HasSuffix(first, ": deeper than 64 directories, not searched): give the report's path in reports") {
		t.Errorf("a report 3,000 directories deep: %q", first)
	}

	// The root deleted under the server.
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	r = call(t, cs, "analysis.getReports", map[string]any{"reports": []string{"checkstyle-result.xml"}})
	if want := "NOT_FOUND: the root " + root + " is gone (deleted or moved since the server started): start the server again on an existing directory"; !r.isErr || !strings.HasPrefix(r.text, want) {
		t.Errorf("a deleted root: %q", r.text)
	}
}

// TestPathsFilterAbsoluteInRoot: getReports' paths filter takes an
// absolute path inside the root as its relative one (the findings name
// their files relative to the root).
func TestPathsFilterAbsoluteInRoot(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	var rel, abs view
	call(t, cs, "analysis.getReports", map[string]any{"paths": []string{"src/**/Order*.java"}, "summaryOnly": true}).decode(t, &rel)
	call(t, cs, "analysis.getReports", map[string]any{"paths": []string{g.Dir + "/src/**/Order*.java"}, "summaryOnly": true}).decode(t, &abs)
	if rel.Summary.Total == 0 || abs.Summary.Total != rel.Summary.Total {
		t.Errorf("paths absolute inside the root: %d findings, relative: %d", abs.Summary.Total, rel.Summary.Total)
	}
}
