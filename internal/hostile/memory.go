package hostile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
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
	}
}
