package hostile

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// memoryCases are the cases of memory bounds that used to fail: many
// one-finding reports in the command line and the MCP server.
func memoryCases() []Case {
	return append([]Case{
		manyFiles("many one-finding reports, findings as JSON", 20_000, 200_000, []string{"findings", "--format", "json", "reports"}, tinySARIF, func(r *Result, n int) error {
			return manyTotal(r, n, true)
		}),
		manyFiles("many one-finding reports, findings as text", 20_000, 200_000, []string{"findings", "reports"}, tinySARIF, func(r *Result, n int) error {
			return manyTotal(r, n, false)
		}),
		{
			Name: "MCP: a root of 200,000 one-finding reports", Size: 20_000, Full: 200_000, Bound: AnyBound, Run: manyReportsMCPWalk,
			Check: func(r *Result) error {
				if r.Code != 0 || !bytes.Contains(r.Stdout, []byte(" findings ")) {
					return fmt.Errorf("answer %.300s", r.Stdout)
				}
				return nil
			},
		},
	}, diffCasesMemory()...)
}

// manyTotal checks that recap findings counted every one of n reports'
// findings, in its JSON or its text.
func manyTotal(r *Result, n int, asJSON bool) error {
	if r.Code != 0 {
		return fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
	}
	if !asJSON {
		if want := fmt.Sprintf("%d findings", n); !bytes.Contains(r.Stdout, []byte(want)) {
			return fmt.Errorf("no %q in %.300s", want, r.Stdout)
		}
		return nil
	}
	var s struct {
		Summary struct{ Total int }
		Page    struct{ Returned int }
	}
	if err := json.Unmarshal(r.Stdout, &s); err != nil {
		return fmt.Errorf("output: %v", err)
	}
	if s.Summary.Total != n || s.Page.Returned == 0 {
		return fmt.Errorf("total %d, %d shown; want %d", s.Summary.Total, s.Page.Returned, n)
	}
	return nil
}

// manyReportsMCPWalk is the MCP server on a root of size one-finding
// reports in one directory, the default search: one call, then a page
// of the buffer.
func manyReportsMCPWalk(ctx context.Context, bin, dir string, size int64) (*Result, error) {
	if err := os.MkdirAll(filepath.Join(dir, "build"), 0o755); err != nil {
		return nil, err
	}
	for i := 0; i < int(size); i++ {
		if err := os.WriteFile(filepath.Join(dir, "build", fmt.Sprintf("r%07d.sarif", i)), []byte(tinySARIF(i)), 0o644); err != nil {
			return nil, err
		}
	}
	return mcpRun(ctx, bin, dir, nil, fmt.Sprintf("%d one-finding reports under the root; the default search, one call", size), func(cs *mcp.ClientSession) (string, error) {
		text, isErr, err := callText(ctx, cs, "analysis.getReports", map[string]any{})
		if err == nil && isErr {
			err = errors.New(text)
		}
		line, _, _ := strings.Cut(text, "\n")
		return line, err
	})
}

// oneLineDiffs is a git diff of n files, each with one line changed,
// made as it is read.
type oneLineDiffs struct {
	n, file int
	buf     bytes.Buffer
}

func (d *oneLineDiffs) Read(p []byte) (int, error) {
	for d.buf.Len() < len(p) && d.file < d.n {
		name := fmt.Sprintf("src/d%d/f%d.java", d.file%1000, d.file)
		fmt.Fprintf(&d.buf, "diff --git a/%s b/%s\nindex 1234567..89abcde 100644\n--- a/%s\n+++ b/%s\n@@ -1 +1 @@\n-old\n+new\n", name, name, name, name)
		d.file++
	}
	if d.buf.Len() == 0 {
		return 0, io.EOF
	}
	return d.buf.Read(p)
}

// diffCasesMemory are the cases of diffs of many files.
func diffCasesMemory() []Case {
	return []Case{
		{
			Name: "findings --changed-only --diff: a million one-line file diffs", Size: 100_000, Full: 1_000_000, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				report := `<checkstyle version="8.36"><file name="src/d1/f1.java">` +
					`<error line="1" severity="error" message="on line 1" source="x.Y"/>` +
					`<error line="2" severity="error" message="on line 2" source="x.Y"/></file></checkstyle>`
				if err := os.WriteFile(filepath.Join(dir, "report.xml"), []byte(report), 0o644); err != nil {
					return nil, nil, "", err
				}
				return []string{"findings", "--changed-only", "--diff", "-", "--format", "json", "report.xml"}, &oneLineDiffs{n: int(size)},
					fmt.Sprintf("%d files of one changed line on standard input; findings on a changed line and beside it", size), nil
			},
			Check: func(r *Result) error {
				var s summary
				if r.Code != 0 || json.Unmarshal(r.Stdout, &s) != nil {
					return fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
				}
				if len(s.Findings) != 1 || s.Findings[0].Line != 1 {
					return fmt.Errorf("%d findings kept; want the one on line 1", len(s.Findings))
				}
				return nil
			},
		},
		{
			Name: "findings --changed-only --diff: six million one-line file diffs", Size: 20_000, Full: 6_000_000, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				report := `<checkstyle version="8.36"><file name="src/d1/f1.java">` +
					`<error line="1" severity="error" message="on line 1" source="x.Y"/>` +
					`<error line="2" severity="error" message="on line 2" source="x.Y"/></file></checkstyle>`
				if err := os.WriteFile(filepath.Join(dir, "report.xml"), []byte(report), 0o644); err != nil {
					return nil, nil, "", err
				}
				return []string{"findings", "--changed-only", "--diff", "-", "--format", "json", "report.xml"}, &oneLineDiffs{n: int(size)},
					fmt.Sprintf("%d files of one changed line on standard input; findings on a changed line and beside it", size), nil
			},
			Check: func(r *Result) error {
				var s summary
				if r.Code != 0 || json.Unmarshal(r.Stdout, &s) != nil {
					return fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
				}
				if len(s.Findings) != 1 || s.Findings[0].Line != 1 {
					return fmt.Errorf("%d findings kept; want the one on line 1", len(s.Findings))
				}
				return nil
			},
		},
		{
			// Not a window of one input: the view counts a million files
			// (60–71 MiB measured, the garbage collector's timing apart).
			Name: "diff: a million one-line file diffs", Size: 100_000, Full: 1_000_000, Bound: 96 * MiB,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				return []string{"diff", "--format", "json", "-"}, &oneLineDiffs{n: int(size)}, fmt.Sprintf("%d files of one changed line on standard input", size), nil
			},
			Check: func(r *Result) error {
				v, err := diffView(r)
				if err != nil {
					return err
				}
				if v.Summary.Files != int(r.size) || v.Summary.Hunks != int(r.size) {
					return fmt.Errorf("summary %+v; want every file counted", v.Summary)
				}
				return nil
			},
		},
		{
			Name: "diff: 300,000 changed files between two commits", Tools: []string{"git"}, Size: 10_000, Full: 300_000, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				repo, err := manyFilesRepo(filepath.Join(dir, "repo"), int(size))
				if err != nil {
					return nil, nil, "", err
				}
				return []string{"diff", "--repo", repo, "--base", "HEAD~1", "--format", "json"}, nil,
					fmt.Sprintf("a repository made by git fast-import: two commits of %d files of one line (`src/dN/fM.java`), every file changed", size), nil
			},
			Check: func(r *Result) error {
				v, err := diffView(r)
				if err != nil {
					return err
				}
				if v.Summary.Files != int(r.size) || v.Summary.Hunks != int(r.size) || v.Summary.Added != int(r.size) || v.Summary.Deleted != int(r.size) {
					return fmt.Errorf("summary %+v; want every file counted, a line changed in each", v.Summary)
				}
				return nil
			},
		},
		{
			Name: "findings --changed-only --base: 300,000 changed files", Tools: []string{"git"}, Size: 10_000, Full: 300_000, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				repo, err := manyFilesRepo(filepath.Join(dir, "repo"), int(size))
				if err != nil {
					return nil, nil, "", err
				}
				if err := manyFilesReport(dir); err != nil {
					return nil, nil, "", err
				}
				return []string{"findings", "--changed-only", "--repo", repo, "--base", "HEAD~1", "--rev", "HEAD", "--format", "json", "report.xml"}, nil,
					fmt.Sprintf("two commits of %d files of one line, every file changed; findings on a changed line and below it", size), nil
			},
			Check: func(r *Result) error {
				var s summary
				if r.Code != 0 || json.Unmarshal(r.Stdout, &s) != nil {
					return fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
				}
				if len(s.Findings) != 1 || s.Findings[0].Line != 1 {
					return fmt.Errorf("%d findings kept; want the one on line 1", len(s.Findings))
				}
				return nil
			},
		},
		{
			Name: "review --base: 300,000 changed files", Tools: []string{"git"}, Size: 10_000, Full: 300_000, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				repo, err := manyFilesRepo(filepath.Join(dir, "repo"), int(size))
				if err != nil {
					return nil, nil, "", err
				}
				if err := manyFilesReport(dir); err != nil {
					return nil, nil, "", err
				}
				return []string{"review", "--repo", repo, "--base", "HEAD~1", "--format", "markdown", "report.xml"}, nil,
					fmt.Sprintf("two commits of %d files of one line, every file changed", size), nil
			},
			Check: func(r *Result) error {
				if r.Code != 0 || !bytes.Contains(r.Stdout, []byte("### recap: 1 finding on changed lines")) {
					return fmt.Errorf("exit %d (%s); want the finding on the changed line", r.Code, firstLine(r.Stderr))
				}
				return nil
			},
		},
	}
}

// manyFilesReport writes report.xml for manyFilesRepo: a finding on the
// changed line of src/d1/f1.java, another on its line 2, which is not.
func manyFilesReport(dir string) error {
	report := `<checkstyle version="8.36"><file name="src/d1/f1.java">` +
		`<error line="1" severity="error" message="on line 1" source="x.Y"/>` +
		`<error line="2" severity="error" message="on line 2" source="x.Y"/></file></checkstyle>`
	return os.WriteFile(filepath.Join(dir, "report.xml"), []byte(report), 0o644)
}

// manyFilesRepo makes a repository in dir through git fast-import: a
// commit of n files of one line (src/dN/fM.java, a thousand directories),
// then one that changes the line of every file. No working tree is
// checked out.
func manyFilesRepo(dir string, n int) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := git(dir, "init", "-q", "-b", "main"); err != nil {
		return "", err
	}
	cmd := exec.Command("git", "-C", dir, "fast-import", "--quiet", "--done")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return "", err
	}
	w := bufio.NewWriterSize(stdin, 1<<20)
	for c, value := range []int{1, 2} {
		msg := fmt.Sprintf("commit %d", c+1)
		fmt.Fprintf(w, "commit refs/heads/main\ncommitter Dev <dev@example.com> %d +0000\ndata %d\n%s\n", 1_700_000_000+c, len(msg), msg)
		for i := 0; i < n; i++ {
			content := fmt.Sprintf("class F%d { int v = %d; }\n", i, value)
			fmt.Fprintf(w, "M 100644 inline src/d%d/f%d.java\ndata %d\n%s\n", i%1000, i, len(content), content)
		}
	}
	fmt.Fprintf(w, "done\n")
	werr := w.Flush()
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		return "", fmt.Errorf("git fast-import: %v: %s", err, stderr.String())
	}
	return dir, werr
}
