package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestContextEditedSinceReport: recap findings shows a finding's context
// from its file now; when the file was edited after the finding's report
// was written, and not committed, the context says so (JSON contextNote,
// and a line under the code in text): the tool may have read other code
// at the line. The file as committed, whatever its time, and the files
// not edited carry no note.
func TestContextEditedSinceReport(t *testing.T) {
	t.Parallel()
	g := triageRepo(t)
	report := filepath.Join(g.Dir, "build", "reports", "pmd.sarif")
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(report, past, past); err != nil {
		t.Fatal(err)
	}
	const path = "src/main/java/com/example/shop/Order.java"
	src := filepath.Join(g.Dir, filepath.FromSlash(path))
	text := readFile(t, src)
	page := func() (noted, plain int) {
		t.Helper()
		out, stderr, code := recap(t, g.Dir, nil, "findings", "--format", "json", "--no-group", "--limit", "200", "--max-tokens", "25000", "build/reports")
		if code != 0 {
			t.Fatalf("findings: exit %d\n%s", code, stderr)
		}
		var v struct {
			Findings []struct {
				Path        string
				Context     []any
				ContextNote string
			}
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		for _, f := range v.Findings {
			switch {
			case f.ContextNote == "":
				plain++
			case f.Path == path && len(f.Context) > 0 && f.ContextNote == path+" changed after build/reports/pmd.sarif was written: the lines shown are the file's now, which may not be the code the tool read at this line (run the tool again)":
				noted++
			default:
				t.Errorf("%s: note %q", f.Path, f.ContextNote)
			}
		}
		return noted, plain
	}
	if noted, plain := page(); noted != 0 || plain == 0 {
		t.Errorf("before the edit: %d findings noted, %d not", noted, plain)
	}
	if err := os.WriteFile(src, []byte("// a\n// b\n// c\n"+text), 0o644); err != nil {
		t.Fatal(err)
	}
	if noted, plain := page(); noted == 0 || plain == 0 {
		t.Errorf("after the edit: %d findings noted, %d not; want some of each", noted, plain)
	}
	out, _, _ := recap(t, g.Dir, nil, "findings", "--path", path, "--limit", "1", "build/reports")
	if want := "(" + path + " changed after build/reports/pmd.sarif was written: the lines shown are the file's now"; !strings.Contains(out, want) {
		t.Errorf("text: no line %q under the code:\n%s", want, out)
	}
	// As committed, newer than the report: no note.
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if noted, _ := page(); noted != 0 {
		t.Errorf("the file as committed: %d findings noted", noted)
	}
	// The edit committed after the report was written (HEAD then, by its
	// reflog, holds the file otherwise): noted, as committed since.
	if err := os.WriteFile(src, []byte("// a\n// b\n// c\n"+text), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Minute).UTC().Format(time.RFC3339)
	commit := exec.Command("git", "commit", "-q", "-am", "an edit after the report")
	commit.Dir = g.Dir
	commit.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_DATE="+later, "GIT_COMMITTER_DATE="+later)
	if out, err := commit.CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
	out, _, _ = recap(t, g.Dir, nil, "findings", "--path", path, "--limit", "1", "build/reports")
	if want := "(" + path + " changed after build/reports/pmd.sarif was written (committed since): the lines shown are the file's now"; !strings.Contains(out, want) {
		t.Errorf("committed since the report: no line %q under the code:\n%s", want, out)
	}
}
