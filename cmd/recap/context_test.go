package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recap-dev/recap/internal/gittest"
)

// TestContextEditedSinceReport: recap findings shows a finding's context
// from its file now; when the file was edited after the finding's report
// was written, and not committed, the context says so (JSON contextNote,
// and a line under the code in text): the tool may have read other code
// at the line. The file as committed, whatever its time, and the files
// not edited carry no note.
func TestContextEditedSinceReport(t *testing.T) {
	t.Parallel()
	g, src := agedReport(t)
	const path = editedPath
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

// TestHTMLEditedSinceInBrowser: the HTML page shows each finding's code
// from the working tree; when the finding's file was edited after its
// report was written, the page says so under the code, as recap findings
// does (the tool may have read other code at the line), and so does the
// file view above the file's lines; a file not edited has no note.
func TestHTMLEditedSinceInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser tests are slow")
	}
	g, src := agedReport(t)
	const path = editedPath
	if err := os.WriteFile(src, []byte("// a\n// b\n// c\n"+readFile(t, src)), 0o644); err != nil {
		t.Fatal(err)
	}
	const note = path + " changed after build/reports/pmd.sarif was written: the lines shown are the file's now, which may not be the code the tool read at this line (run the tool again)"
	// A finding of the edited file and one of another, by their ids.
	out, stderr, code := recap(t, g.Dir, nil, "findings", "--format", "json", "--no-group", "--limit", "200", "--max-tokens", "25000", "build/reports/pmd.sarif")
	if code != 0 {
		t.Fatalf("findings: exit %d\n%s", code, stderr)
	}
	var v struct {
		Findings []struct{ ID, Path, ContextNote string }
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	var edited, other, otherPath string
	for _, f := range v.Findings {
		switch {
		case f.Path == path && edited == "":
			edited = f.ID
		case f.Path != path && other == "" && strings.HasSuffix(f.Path, ".java"):
			other, otherPath = f.ID, f.Path
		}
	}
	if edited == "" || other == "" {
		t.Fatalf("no finding of %s and of another file: %+v", path, v.Findings)
	}
	page := filepath.Join(t.TempDir(), "report.html")
	if _, stderr, code := recap(t, g.Dir, nil, "findings", "--no-group", "--format", "html", "--output", page, "build/reports/pmd.sarif"); code != 0 {
		t.Fatalf("findings --format html: exit %d\n%s", code, stderr)
	}
	b := newBrowser(t, false)
	b.open(t, page)
	for _, tc := range []struct{ id, want string }{{edited, note}, {other, ""}} {
		var got struct {
			Code []string
			Note string
		}
		b.eval(t, `(async () => {
  const li = document.querySelector('#list > li[data-id=`+jsString(tc.id)+`]');
  if (!li) return {};
  li.querySelector('summary').click();
  await new Promise(r => setTimeout(r, 50)); // the toggle event comes after the click
  const sec = Array.from(li.querySelectorAll('.part')).find(s => s.querySelector('h3').textContent === 'Code');
  if (!sec) return {};
  return {code: Array.from(sec.querySelectorAll('pre .line')).map(e => e.textContent), note: sec.querySelector('p.muted').textContent};
})()`, &got)
		if len(got.Code) == 0 || got.Note != tc.want {
			t.Errorf("finding %s: %d lines of code, note %q; want code and note %q", tc.id, len(got.Code), got.Note, tc.want)
		}
	}
	// The file view says it of the file, above its lines, and of no other.
	for _, tc := range []struct {
		path string
		note bool
	}{{path, true}, {otherPath, false}} {
		var got struct {
			Lines int
			First string
		}
		b.eval(t, `(() => {
  const s = document.getElementById('file-select');
  s.value = `+jsString(tc.path)+`;
  s.dispatchEvent(new Event('change'));
  const body = document.getElementById('file-body');
  return {lines: body.querySelectorAll('pre .line').length, first: body.firstElementChild ? body.firstElementChild.textContent : ''};
})()`, &got)
		const fileNote = "This file changed after its report was written: the lines shown are the file's now, and a mark may be on other code than the tool read at its line (run the tool again)."
		if got.Lines == 0 || (got.First == fileNote) != tc.note {
			t.Errorf("file view of %s: %d lines, first %q; want the note: %v", tc.path, got.Lines, got.First, tc.note)
		}
	}
	if v := b.axe(t); len(v) > 0 {
		t.Errorf("axe-core: %q", v)
	}
}

// editedPath is the file the tests of context notes edit.
const editedPath = "src/main/java/com/example/shop/Order.java"

// agedReport returns the sample's repository with its PMD report made an
// hour ago, and editedPath's file in it.
func agedReport(t *testing.T) (*gittest.Repo, string) {
	t.Helper()
	g := triageRepo(t)
	report := filepath.Join(g.Dir, "build", "reports", "pmd.sarif")
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(report, past, past); err != nil {
		t.Fatal(err)
	}
	return g, filepath.Join(g.Dir, filepath.FromSlash(editedPath))
}
