package hostile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/recap-dev/recap/internal/english"
)

// The cases of changes: a pull request shapes its diff (files of any size,
// links, submodules, names and lines with control characters) and the
// revisions a workflow passes on.

// diffCases are the cases of diffs and revisions, in the order of the table.
func diffCases() []Case {
	return []Case{
		{
			Name: "diff: a link to a directory in the working tree", Tools: []string{"git"}, Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				repo, err := gitRepo(dir, map[string]string{"d/passwd": "tracked one\ntracked two\n"})
				if err != nil {
					return nil, nil, "", err
				}
				if err := outsideSecret(dir); err != nil {
					return nil, nil, "", err
				}
				if err := os.RemoveAll(filepath.Join(repo, "d")); err != nil {
					return nil, nil, "", err
				}
				if err := os.Symlink(filepath.Join(dir, "outside"), filepath.Join(repo, "d")); err != nil {
					return nil, nil, "", err
				}
				return []string{"diff", "--repo", repo, "--format", "json"}, nil, "d/passwd tracked, then d a link to a directory with a passwd", nil
			},
			Check: func(r *Result) error {
				v, err := diffView(r)
				if err != nil {
					return err
				}
				if bytes.Contains(r.Stdout, []byte("SECRET")) || len(v.Files) != 1 || v.Files[0].Path != "d/passwd" || v.Files[0].Status != "deleted" || v.Files[0].Deleted != 2 {
					return fmt.Errorf("files %+v; want d/passwd deleted (2 lines), as git shows it, and nothing of the link's target", v.Files)
				}
				return nil
			},
		},
		{
			Name: "findings --rev: a committed link", Tools: []string{"git"}, Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				repo, err := gitRepo(dir, map[string]string{"A.java": "class A {}\n"})
				if err != nil {
					return nil, nil, "", err
				}
				if err := outsideSecret(dir); err != nil {
					return nil, nil, "", err
				}
				if err := os.Symlink(filepath.Join(dir, "outside", "passwd"), filepath.Join(repo, "Evil.java")); err != nil {
					return nil, nil, "", err
				}
				if err := gitCommit(repo, "link"); err != nil {
					return nil, nil, "", err
				}
				report := `<checkstyle version="8.36"><file name="Evil.java"><error line="1" severity="error" message="m" source="x.Y"/></file></checkstyle>`
				if err := os.WriteFile(filepath.Join(dir, "report.xml"), []byte(report), 0o644); err != nil {
					return nil, nil, "", err
				}
				return []string{"findings", "--format", "json", "--repo", repo, "--rev", "HEAD", "report.xml"}, nil, "a finding on a committed link to a file outside", nil
			},
			Check: func(r *Result) error {
				if r.Code != 0 || bytes.Contains(r.Stdout, []byte("SECRET")) || bytes.Contains(r.Stdout, []byte("outside")) ||
					!bytes.Contains(r.Stdout, []byte("is a symbolic link in revision HEAD")) {
					return fmt.Errorf("exit %d; the target or its path shown, or no note (%s)", r.Code, firstLine(r.Stdout))
				}
				return nil
			},
		},
		{
			Name: "diff: a file of 1,114,200 lines", Tools: []string{"git"}, Size: 200_000, Full: 1_114_200, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				repo, err := bigFileRepo(dir, size, "line %d of a generated file\n")
				if err != nil {
					return nil, nil, "", err
				}
				return []string{"diff", "--repo", repo, "--base", "HEAD~1", "--format", "json"}, nil, fmt.Sprintf("%d distinct lines, one in 1,000 changed", size), nil
			},
			Check: largeChecked(func(size int64) (int, int) { return int(size / 1000), int(size / 1000) }),
		},
		{
			Name: "findings --changed-only: a file of 1,114,200 lines", Tools: []string{"git"}, Size: 200_000, Full: 1_114_200, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				repo, err := bigFileRepo(dir, size, "line %d of a generated file\n")
				if err != nil {
					return nil, nil, "", err
				}
				if err := bigFileReport(dir); err != nil {
					return nil, nil, "", err
				}
				return []string{"findings", "--repo", repo, "--changed-only", "--base", "HEAD~1", "--format", "json", "report.xml"}, nil,
					fmt.Sprintf("%d distinct lines, one in 1,000 changed; findings on a changed line and on another", size), nil
			},
			Check: changedOnlyChecked,
		},
		{
			Name: "review: a file of 1,114,200 lines", Tools: []string{"git"}, Size: 200_000, Full: 1_114_200, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				repo, err := bigFileRepo(dir, size, "line %d of a generated file\n")
				if err != nil {
					return nil, nil, "", err
				}
				if err := bigFileReport(dir); err != nil {
					return nil, nil, "", err
				}
				return []string{"review", "--repo", repo, "--base", "HEAD~1", "--format", "markdown", "report.xml"}, nil,
					fmt.Sprintf("%d distinct lines, one in 1,000 changed", size), nil
			},
			Check: func(r *Result) error {
				if r.Code != 0 || !bytes.Contains(r.Stdout, []byte("### recap: 1 finding on changed lines")) {
					return fmt.Errorf("exit %d (%s); want the finding on the changed line", r.Code, firstLine(r.Stderr))
				}
				return nil
			},
		},
		{
			Name: "diff: a 99 MB file changed", Tools: []string{"git"}, Size: 12 * MiB, Full: 99_000_000, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				n := size / 100
				repo, err := bigFileRepo(dir, n, "%-99d\n")
				if err != nil {
					return nil, nil, "", err
				}
				return []string{"diff", "--repo", repo, "--base", "HEAD~1", "--format", "json"}, nil, fmt.Sprintf("%s, %d lines, one in 1,000 changed", Size(size), n), nil
			},
			Check: largeChecked(func(size int64) (int, int) { return int(size / 100 / 1000), int(size / 100 / 1000) }),
		},
		{
			Name: "diff: a 594 MB file changed", Tools: []string{"git"}, Size: 24 * MiB, Full: 594_000_000, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				n := size / 20
				repo, err := bigFileRepo(dir, n, "line %-14d\n")
				if err != nil {
					return nil, nil, "", err
				}
				return []string{"diff", "--repo", repo, "--base", "HEAD~1", "--format", "json"}, nil, fmt.Sprintf("%s, %d lines, one in 1,000 changed", Size(size), n), nil
			},
			Check: func(r *Result) error {
				v, err := diffView(r)
				if err != nil {
					return err
				}
				if len(v.Files) != 1 || !v.Files[0].Large || !strings.Contains(v.Files[0].Note, "not diffed") {
					return fmt.Errorf("files %+v; want big.txt, large, not diffed", v.Files)
				}
				return nil
			},
		},
		{
			Name: "findings --rev: a finding in a 594 MB blob", Tools: []string{"git"}, Size: 24 * MiB, Full: 594_000_000, Bound: StreamBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				n := size / 20
				repo, err := gitRepo(dir, nil)
				if err != nil {
					return nil, nil, "", err
				}
				if err := writeLines(filepath.Join(repo, "Big.java"), n, func(i int64) string { return fmt.Sprintf("line %-14d\n", i+1) }); err != nil {
					return nil, nil, "", err
				}
				if err := gitCommit(repo, "big"); err != nil {
					return nil, nil, "", err
				}
				report := fmt.Sprintf(`<checkstyle version="8.36"><file name="Big.java">`+
					`<error line="5" severity="error" message="early" source="x.Y"/>`+
					`<error line="%d" severity="error" message="late" source="x.Y"/></file></checkstyle>`, n-5)
				if err := os.WriteFile(filepath.Join(dir, "report.xml"), []byte(report), 0o644); err != nil {
					return nil, nil, "", err
				}
				return []string{"findings", "--format", "json", "--repo", repo, "--rev", "HEAD", "report.xml"}, nil, fmt.Sprintf("a %s blob, findings on its line 5 and its last lines", Size(size)), nil
			},
			Check: func(r *Result) error {
				var s summary
				if r.Code != 0 || json.Unmarshal(r.Stdout, &s) != nil || len(s.Findings) != 2 {
					return fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
				}
				for _, f := range s.Findings {
					switch {
					case f.Line == 5 && len(f.Context) != 3:
						return fmt.Errorf("line 5: %d context lines, want 3", len(f.Context))
					case f.Line != 5 && !strings.Contains(f.ContextNote, "lines past the first 4 MiB are not read"):
						return fmt.Errorf("line %d: note %q", f.Line, f.ContextNote)
					}
				}
				return nil
			},
		},
		{
			Name: "diff: 2 GB of diff on standard input", Size: 64 * MiB, Full: 2 * GB, Bound: StreamBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				return []string{"diff", "--format", "json", "-"}, DiffStream(size), Size(size) + " of a valid diff (files of 10 hunks) on standard input", nil
			},
			Check: func(r *Result) error {
				v, err := diffView(r)
				if err != nil {
					return err
				}
				if v.Summary.Files < 1000 || v.Summary.Hunks != diffStreamHunks*v.Summary.Files {
					return fmt.Errorf("summary %+v; want every file and its %d hunks counted", v.Summary, diffStreamHunks)
				}
				return nil
			},
		},
		{
			Name: "findings --changed-only --diff: 2 GB of diff on standard input", Size: 64 * MiB, Full: 2 * GB, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				if err := diffStreamReport(dir); err != nil {
					return nil, nil, "", err
				}
				return []string{"findings", "--changed-only", "--diff", "-", "--format", "json", "report.xml"}, DiffStream(size),
					Size(size) + " of a valid diff on standard input; findings on a changed line and beside it", nil
			},
			Check: changedOnlyChecked,
		},
		{
			Name: "review --diff: 2 GB of diff on standard input", Size: 64 * MiB, Full: 2 * GB, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				if err := diffStreamReport(dir); err != nil {
					return nil, nil, "", err
				}
				return []string{"review", "--diff", "-", "--format", "markdown", "report.xml"}, DiffStream(size),
					Size(size) + " of a valid diff on standard input", nil
			},
			Check: func(r *Result) error {
				if r.Code != 0 || !bytes.Contains(r.Stdout, []byte("### recap: 1 finding on changed lines")) {
					return fmt.Errorf("exit %d (%s); want the finding on the changed line", r.Code, firstLine(r.Stderr))
				}
				return nil
			},
		},
		{
			Name: "diff: a submodule at another commit", Tools: []string{"git"}, Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				sub, err := gitRepo(filepath.Join(dir, "sub"), map[string]string{"s.txt": "1\n"})
				if err != nil {
					return nil, nil, "", err
				}
				if err := os.WriteFile(filepath.Join(sub, "s.txt"), []byte("2\n"), 0o644); err != nil {
					return nil, nil, "", err
				}
				if err := gitCommit(sub, "two"); err != nil {
					return nil, nil, "", err
				}
				repo, err := gitRepo(filepath.Join(dir, "super"), map[string]string{"a.txt": "a\n"})
				if err != nil {
					return nil, nil, "", err
				}
				for _, args := range [][]string{
					{"-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "lib"},
					{"commit", "-q", "-m", "submodule"},
					{"-C", "lib", "checkout", "-q", "HEAD~1"},
				} {
					if err := git(repo, args...); err != nil {
						return nil, nil, "", err
					}
				}
				return []string{"diff", "--repo", repo}, nil, "git submodule, then its HEAD checked out", nil
			},
			Check: func(r *Result) error {
				if r.Code != 0 || !bytes.HasPrefix(r.Stdout, []byte("1 file changed, 1 hunk (+1 −1)")) || !bytes.Contains(r.Stdout, []byte("+Subproject commit ")) {
					return fmt.Errorf("exit %d: %q; want lib's commits, as git shows them", r.Code, firstLine(r.Stdout))
				}
				return nil
			},
		},
		{
			Name: "diff: control characters in names and lines", Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				return []string{"diff", "-"}, strings.NewReader(controlDiff), "ESC, BEL, CSI (U+009B) and U+202E in a name and in lines", nil
			},
			Check: func(r *Result) error {
				if r.Code != 0 || !bytes.Contains(r.Stdout, []byte("+added")) {
					return fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
				}
				return noControls(r.Stdout)
			},
		},
		{
			Name: "diff --format json: control characters", Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				return []string{"diff", "--format", "json", "-"}, strings.NewReader(controlDiff), "ESC, BEL, CSI (U+009B) and U+202E in a name and in lines", nil
			},
			Check: escapedChecked,
		},
		{
			Name: "tokens: control characters in a file name", Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				name := "a\x1b[31mred\x07\u009b2J\u202etxt.md"
				if err := os.WriteFile(filepath.Join(dir, name), []byte("some text\n"), 0o644); err != nil {
					return nil, nil, "", err
				}
				return []string{"tokens", name}, nil, "a file named with ESC, BEL, CSI and U+202E", nil
			},
			Check: func(r *Result) error {
				if r.Code != 0 || !bytes.Contains(r.Stdout, []byte("red")) {
					return fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
				}
				return noControls(r.Stdout)
			},
		},
		controlReport("sarif"),
		controlReport("codeclimate"),
		controlReport("json"),
		{
			Name: "--base: a file of a revision", Tools: []string{"git"}, Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				repo, err := gitRepo(dir, map[string]string{"a.txt": "a\n"})
				if err != nil {
					return nil, nil, "", err
				}
				return []string{"diff", "--repo", repo, "--base", "HEAD:a.txt"}, nil, "--base HEAD:a.txt", nil
			},
			Check: diffError(`recap: revision "HEAD:a.txt" names a file (REV:PATH), not a commit: give a branch, tag or commit`),
		},
		{
			Name: "--base: a tree", Tools: []string{"git"}, Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				repo, err := gitRepo(dir, map[string]string{"a.txt": "a\n"})
				if err != nil {
					return nil, nil, "", err
				}
				return []string{"diff", "--repo", repo, "--base", "HEAD^{tree}"}, nil, "--base HEAD^{tree}", nil
			},
			Check: diffError(`recap: revision "HEAD^{tree}" peels to a tree, not a commit: give a branch, tag or commit (REV^{commit} or REV)`),
		},
		{
			Name: "--base: a path", Tools: []string{"git"}, Bound: StreamBound,
			Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
				repo, err := gitRepo(dir, map[string]string{"a.txt": "a\n"})
				if err != nil {
					return nil, nil, "", err
				}
				return []string{"diff", "--repo", repo, "--base", "../../etc/passwd"}, nil, "--base ../../etc/passwd", nil
			},
			Check: diffError(`recap: unknown revision "../../etc/passwd": that is a path, not a revision; give a branch, tag, commit or HEAD~N`),
		},
	}
}

// controlDiff is a diff whose names and lines hold control characters.
const controlDiff = "diff --git a/x\x1b[2Jy\u202e.go b/x\x1b[2Jy\u202e.go\n" +
	"--- a/x\x1b[2Jy\u202e.go\n+++ b/x\x1b[2Jy\u202e.go\n@@ -1,2 +1,2 @@\n ctx\x07\n-old\u009b31m\n+added\x1b]0;title\x07 \u202eevil\n"

// noControls checks that out holds no C0 control but tab and line feed,
// no C1 control, no bidirectional override or isolate.
func noControls(out []byte) error {
	for i, r := range string(out) {
		if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r < 0xa0 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			return fmt.Errorf("U+%04X at byte %d of the output", r, i)
		}
	}
	return nil
}

// escapedChecked checks a JSON output: no raw control character, the
// bidirectional one escaped (a C1 control escaped too, or removed from a
// message as Code Quality's description removes it).
func escapedChecked(r *Result) error {
	if r.Code != 0 {
		return fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
	}
	if err := noControls(r.Stdout); err != nil {
		return err
	}
	if !bytes.Contains(r.Stdout, []byte(`\u202e`)) {
		return errors.New(`no \u202e escape in the output`)
	}
	var v any
	if err := json.Unmarshal(r.Stdout, &v); err != nil {
		for _, line := range bytes.Split(bytes.TrimSpace(r.Stdout), []byte("\n")) {
			if err := json.Unmarshal(line, &v); err != nil {
				return fmt.Errorf("output is not JSON: %v", err)
			}
		}
	}
	return nil
}

// controlReport is a report whose message and path hold a CSI and a
// bidirectional override, written in a JSON format.
func controlReport(format string) Case {
	return Case{
		Name: "findings --format " + format + ": C1 and bidi characters", Bound: StreamBound,
		Make: func(dir string, _ int64) ([]string, io.Reader, string, error) {
			report := "<checkstyle version=\"8.36\"><file name=\"src/A\u202egpj.java\">" +
				"<error line=\"3\" severity=\"error\" message=\"bad \u009b31m red \u202e txt\" source=\"x.Y\"/></file></checkstyle>"
			if err := os.WriteFile(filepath.Join(dir, "report.xml"), []byte(report), 0o644); err != nil {
				return nil, nil, "", err
			}
			return []string{"findings", "--format", format, "report.xml"}, nil, "U+009B and U+202E in a message and a path", nil
		},
		Check: escapedChecked,
	}
}

// gitRepo makes a repository in dir with files committed (none: empty).
func gitRepo(dir string, files map[string]string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"config", "user.email", "h@example.com"}, {"config", "user.name", "H"}, {"config", "core.autocrlf", "false"}} {
		if err := git(dir, args...); err != nil {
			return "", err
		}
	}
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			return "", err
		}
	}
	if len(files) > 0 {
		return dir, gitCommit(dir, "base")
	}
	return dir, nil
}

func gitCommit(dir, msg string) error {
	if err := git(dir, "add", "-A"); err != nil {
		return err
	}
	return git(dir, "commit", "-q", "--allow-empty", "-m", msg)
}

func git(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

// outsideSecret writes dir/outside/passwd, a file outside the repository.
func outsideSecret(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "outside"), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "outside", "passwd"), []byte("root:x:0:0:SECRET\n"), 0o644)
}

// writeLines writes n lines made by line.
func writeLines(path string, n int64, line func(i int64) string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i := int64(0); i < n; i++ {
		w.WriteString(line(i))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// bigFileRepo commits big.txt of n lines made with format, then the same
// with one line in 1,000 changed (lines 1, 1001, …).
func bigFileRepo(dir string, n int64, format string) (string, error) {
	repo, err := gitRepo(filepath.Join(dir, "repo"), nil)
	if err != nil {
		return "", err
	}
	big := filepath.Join(repo, "big.txt")
	if err := writeLines(big, n, func(i int64) string { return fmt.Sprintf(format, i) }); err != nil {
		return "", err
	}
	if err := gitCommit(repo, "base"); err != nil {
		return "", err
	}
	if err := writeLines(big, n, func(i int64) string {
		if i%1000 == 0 {
			return fmt.Sprintf("changed %d\n", i)
		}
		return fmt.Sprintf(format, i)
	}); err != nil {
		return "", err
	}
	return repo, gitCommit(repo, "edit")
}

// bigFileReport writes report.xml: a finding on big.txt's changed line
// 1001, another on line 1002, unchanged.
func bigFileReport(dir string) error {
	report := `<checkstyle version="8.36"><file name="big.txt">` +
		`<error line="1001" severity="error" message="on line 1001" source="x.Y"/>` +
		`<error line="1002" severity="error" message="on line 1002" source="x.Y"/></file></checkstyle>`
	return os.WriteFile(filepath.Join(dir, "report.xml"), []byte(report), 0o644)
}

// diffStreamReport writes report.xml for newDiffStream: a finding on an
// added line of its second file, another on a context line after it.
func diffStreamReport(dir string) error {
	report := `<checkstyle version="8.36"><file name="src/f1.java">` +
		`<error line="1001" severity="error" message="on line 1001" source="x.Y"/>` +
		`<error line="1004" severity="error" message="on line 1004" source="x.Y"/></file></checkstyle>`
	return os.WriteFile(filepath.Join(dir, "report.xml"), []byte(report), 0o644)
}

// changedOnlyChecked checks a findings JSON output: the finding on the
// changed line kept, the other not.
func changedOnlyChecked(r *Result) error {
	var s summary
	if r.Code != 0 || json.Unmarshal(r.Stdout, &s) != nil {
		return fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
	}
	if len(s.Findings) != 1 || s.Findings[0].Line != 1001 {
		return fmt.Errorf("%d findings kept; want the one on line 1001", len(s.Findings))
	}
	return nil
}

// diffSummary is what the checks read of a diff view.
type diffSummary struct {
	Summary struct{ Files, Hunks, Added, Deleted int }
	Files   []struct {
		Path, Status, Note string
		Large              bool
		Added, Deleted     int
	}
}

func diffView(r *Result) (*diffSummary, error) {
	var v diffSummary
	if r.Code != 0 {
		return nil, fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
	}
	if err := json.Unmarshal(r.Stdout, &v); err != nil {
		return nil, fmt.Errorf("output: %v", err)
	}
	return &v, nil
}

// largeChecked checks a diff of big.txt: one large file with the counts
// want gives for the case's size.
func largeChecked(want func(size int64) (added, deleted int)) func(r *Result) error {
	return func(r *Result) error {
		v, err := diffView(r)
		if err != nil {
			return err
		}
		if len(v.Files) != 1 || v.Files[0].Large && !strings.Contains(v.Files[0].Note, "lines changed") || !v.Files[0].Large && r.size > 1_000_000 {
			return fmt.Errorf("files %+v; want big.txt, large (past 8 MiB) with its lines changed", v.Files)
		}
		if a, d := want(r.size); r.size > 0 && (v.Files[0].Added != a && v.Files[0].Added != a+1 || v.Files[0].Deleted != d && v.Files[0].Deleted != d+1) {
			return fmt.Errorf("+%d −%d, want +%d −%d", v.Files[0].Added, v.Files[0].Deleted, a, d)
		}
		return nil
	}
}

// diffStream is a valid git diff of about n bytes, made as it is read: file
// after file, each with 10 hunks of 3 lines changed in 6 of context, about
// 2.8 KB a file (the spring-framework diffs of ../shared/bench have 2.6 and
// 3.1 KB a file).
const diffStreamHunks = 10

type diffStream struct {
	n    int64
	file int
	buf  bytes.Buffer
}

// DiffStream is a valid git diff of about n bytes, made as it is read (see
// diffStream), for the cases and the benchmarks of a streamed diff.
func DiffStream(n int64) io.Reader { return &diffStream{n: n} }

func (d *diffStream) Read(p []byte) (int, error) {
	for d.buf.Len() < len(p) && d.n > 0 {
		before := d.buf.Len()
		name := fmt.Sprintf("src/f%d.java", d.file)
		fmt.Fprintf(&d.buf, "diff --git a/%s b/%s\nindex 1234567..89abcde 100644\n--- a/%s\n+++ b/%s\n", name, name, name, name)
		for h := 0; h < diffStreamHunks; h++ {
			start := 1000*h + 998 // the first hunk's added line is 1001
			fmt.Fprintf(&d.buf, "@@ -%d,9 +%d,9 @@ class F%d {\n", start, start, d.file)
			for i := 0; i < 3; i++ {
				fmt.Fprintf(&d.buf, "     int context%d = %d;\n", i, start+i)
			}
			for i := 0; i < 3; i++ {
				fmt.Fprintf(&d.buf, "-    int old%d = %d;\n", i, h)
			}
			for i := 0; i < 3; i++ {
				fmt.Fprintf(&d.buf, "+    int updated%d = %d;\n", i, h)
			}
			for i := 0; i < 3; i++ {
				fmt.Fprintf(&d.buf, "     int after%d = %d;\n", i, start+i)
			}
		}
		d.n -= int64(d.buf.Len() - before)
		d.file++
	}
	if d.buf.Len() == 0 {
		return 0, io.EOF
	}
	return d.buf.Read(p)
}

// describeOutput says in a few words what a command wrote that is not a
// summary: a diff view's counts and its large files, the headline of a
// text or Markdown output, what a JSON output holds.
func describeOutput(r *Result) string {
	var v diffSummary
	if json.Unmarshal(r.Stdout, &v) == nil && (v.Summary.Files > 0 || v.Files != nil) {
		d := fmt.Sprintf("%s, %s (+%d −%d)", english.Plural(v.Summary.Files, "file", "files"), english.Plural(v.Summary.Hunks, "hunk", "hunks"), v.Summary.Added, v.Summary.Deleted)
		for _, f := range v.Files {
			if f.Note != "" {
				return d + "; " + f.Path + ": " + f.Note
			}
			if len(v.Files) == 1 {
				if noControls([]byte(f.Path)) != nil {
					return d + "; a path with control characters, escaped"
				}
				return d + "; " + f.Path + " " + f.Status
			}
		}
		return d
	}
	out := bytes.TrimSpace(r.Stdout)
	switch {
	case len(out) == 0:
		return ""
	case out[0] == '{' || out[0] == '[':
		if err := noControls(out); err != nil {
			return "JSON with " + err.Error()
		}
		return fmt.Sprintf("JSON of %s, no raw control character", Size(int64(len(out))))
	}
	line := firstLine(out)
	header := false
	for _, l := range strings.Split(string(out), "\n") {
		t := strings.TrimSpace(l)
		switch {
		case t == "" || t[0] == '+' || strings.HasPrefix(t, "<!--"): // a table's border, a marker
			continue
		case t[0] == '|' && !header: // a table's header
			header = true
			continue
		}
		line = t
		break
	}
	if err := noControls(out); err != nil {
		return line + " (" + err.Error() + ")"
	}
	line += ", no raw control character"
	return strings.TrimPrefix(line, "### ") // the table escapes its |
}
