package hostile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// memoryCases are the cases of memory bounds that used to fail: many
// one-finding reports in the command line and the MCP server.
func memoryCases() []Case {
	return []Case{
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
	}
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
