package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
)

// mcpWorkspace is a repository with the sample project committed, an
// uncommitted edit, and the sample's reports in build/reports (untracked).
func mcpWorkspace(t *testing.T) string {
	t.Helper()
	root := reportstest.RepoRoot(t)
	g := gittest.Sample(t, root)
	svc := filepath.Join(g.Dir, "src", "main", "java", "com", "example", "shop", "OrderService.java")
	g.Write(map[string]string{"src/main/java/com/example/shop/OrderService.java": strings.Replace(readFile(t, svc), "order without customer", "an order has no customer", 1)})
	if err := os.MkdirAll(filepath.Join(g.Dir, "build", "reports"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, r := range []string{"pmd.sarif", "checkstyle.xml", "spotbugs.xml"} {
		if err := os.WriteFile(filepath.Join(g.Dir, "build", "reports", r), []byte(readFile(t, filepath.Join(root, "testdata", "reports", r))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return g.Dir
}

// agentFlow walks what an agent does: the summary, a category, the next
// page by bufferId, one finding in full, the diff, token counts.
func agentFlow(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	ctx := context.Background()
	call := func(tool string, args map[string]any, out any) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError {
			t.Fatalf("%s %v: %s", tool, args, text)
		}
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatal(err)
		}
		return text
	}
	type view struct {
		Summary struct {
			Total, Problems int
			TopCategories   []struct {
				Name  string
				Count int
			}
		}
		Findings []struct{ ID, Category, Path string }
		Page     *struct {
			Total      int
			NextOffset *int
		}
		BufferID string
		Tokens   struct{ Estimated, Budget int }
	}
	var sum view
	line := call("analysis.getReports", map[string]any{"summaryOnly": true}, &sum)
	if sum.Summary.Total != tooltest.SampleFindings || sum.Findings != nil || !strings.HasPrefix(line, "recap: "+itoa(tooltest.SampleFindings)+" findings") {
		t.Fatalf("summary: %d findings; %q", sum.Summary.Total, strings.SplitN(line, "\n", 2)[0])
	}
	cat := sum.Summary.TopCategories[0]
	var first view
	call("analysis.getReports", map[string]any{"categories": []string{cat.Name}, "limit": 10, "maxTokens": 10000}, &first)
	// The page holds the category's problems: its findings less those that
	// repeat another's problem.
	if first.Summary.Total != cat.Count || first.Page.Total != first.Summary.Problems || first.Page.Total > cat.Count || len(first.Findings) != 10 ||
		first.Page.NextOffset == nil || first.BufferID == "" {
		t.Fatalf("category %s: %+v", cat.Name, first.Page)
	}
	var next view
	call("analysis.getReports", map[string]any{"bufferId": first.BufferID, "offset": *first.Page.NextOffset, "limit": 10, "maxTokens": 10000}, &next)
	if len(next.Findings) != min(10, first.Page.Total-10) || next.Findings[0].ID == first.Findings[0].ID || next.Findings[0].Category != cat.Name {
		t.Fatalf("next page: %+v", next.Findings)
	}
	var f struct {
		Finding struct{ ID, Path string }
		Code    *struct{ Lines []struct{ Line int } }
	}
	call("analysis.getFinding", map[string]any{"id": next.Findings[0].ID}, &f)
	if f.Finding.ID != next.Findings[0].ID || f.Code == nil || len(f.Code.Lines) == 0 {
		t.Fatalf("finding: %+v", f)
	}
	var d struct {
		Summary struct{ Files, Hunks int }
		Files   []struct{ Path string }
	}
	call("vcs.diff", nil, &d)
	if d.Summary.Files != 1 || d.Summary.Hunks != 1 || d.Files[0].Path != "src/main/java/com/example/shop/OrderService.java" {
		t.Fatalf("diff: %+v", d)
	}
	var tk struct {
		Files []struct{ Path string }
		Total struct{ Tokens int }
	}
	call("tokens.count", map[string]any{"paths": []string{"build/reports/*"}}, &tk)
	if len(tk.Files) != 3 || tk.Total.Tokens == 0 {
		t.Fatalf("tokens: %+v", tk)
	}
}

// syncBuffer is a bytes buffer safe for a process's writes and a test's reads.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestMCPStdio runs recap mcp as an agent's client does: a subprocess
// speaking MCP on its standard input and output, logging on standard error.
func TestMCPStdio(t *testing.T) {
	dir := mcpWorkspace(t)
	cmd := exec.Command(bin, "mcp", "--root", dir)
	var stderr syncBuffer
	cmd.Stderr = &stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	agentFlow(t, cs)
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	logs := stderr.String()
	for _, want := range []string{"tool=analysis.getReports", "tool=analysis.getFinding", "tool=vcs.diff", "tool=tokens.count", "tokens=", "bytes=", "duration="} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log on standard error has no %q:\n%s", want, logs)
		}
	}
}

// TestMCPHTTP runs recap mcp --http on a free port and walks the same flow
// over streamable HTTP.
func TestMCPHTTP(t *testing.T) {
	dir := mcpWorkspace(t)
	cmd := exec.Command(bin, "mcp", "--root", dir, "--tool-names", "dotted", "--http", ":0") // no host: bound to 127.0.0.1
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("recap mcp --http after an interrupt: %v", err)
			}
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Error("recap mcp --http did not stop on an interrupt")
		}
	})
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if _, rest, ok := strings.Cut(sc.Text(), "serving http://"); ok {
				urls <- "http://" + strings.Fields(rest)[0]
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	var url string
	select {
	case url = <-urls:
	case <-time.After(15 * time.Second):
		t.Fatal("recap mcp --http did not say where it listens")
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("listening at %s", url)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	agentFlow(t, cs)
}
