package main

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/internal/reportstest"
)

// TestMCPCacheSize: --cache-size bounds the parsed reports kept: a report
// larger than it alone is still answered, read by the call and not kept
// (the answer says so, without a bufferId); a size under 1 MiB or not a
// size is refused with exit 2.
func TestMCPCacheSize(t *testing.T) {
	dir := t.TempDir()
	reportstest.BigSARIF(t, filepath.Join(dir, "big.sarif"), 60_000) // about 7 MB held
	for _, size := range []string{"10", "0.5MiB", "lots"} {
		out, err := exec.Command(bin, "mcp", "--root", dir, "--cache-size", size).CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), "--cache-size "+size+": want a size of at least 1MiB") {
			t.Errorf("--cache-size %s: %v\n%s", size, err, out)
		}
	}
	for _, tc := range []struct {
		size string
		kept bool
	}{{"1MiB", false}, {"64MiB", true}} {
		cmd := exec.Command(bin, "mcp", "--root", dir, "--cache-size", tc.size)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "analysis.getReports", Arguments: map[string]any{"limit": 2}})
		if err != nil || res.IsError {
			t.Fatalf("--cache-size %s: %v %v", tc.size, err, res)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		line, _, _ := strings.Cut(text, "\n")
		if !strings.HasPrefix(line, "recap: 60000 findings") || strings.Contains(line, "bufferId=") != tc.kept ||
			strings.Contains(text, "larger than the cache (1 MiB): read again by each call, not kept") == tc.kept {
			t.Errorf("--cache-size %s: %.600s", tc.size, text)
		}
		cs.Close()
	}
}

// TestMCPConcurrentCalls: calls at once to a cold `recap mcp`, identical
// and with different filters, are all answered, none BUSY, from one parse
// of the report.
func TestMCPConcurrentCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("parses a report of 150,000 findings")
	}
	dir := t.TempDir()
	reportstest.BigSARIF(t, filepath.Join(dir, "big.sarif"), 150_000)
	cmd := exec.Command(bin, "mcp", "--root", dir)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var calls []map[string]any
	for i := range 30 {
		args := map[string]any{"limit": 3}
		switch {
		case i%3 == 1:
			args["impact"] = []string{"high", "medium", "low"}[i%3]
		case i%3 == 2:
			args["grep"] = fmt.Sprint(i)
		}
		calls = append(calls, args)
	}
	var wg sync.WaitGroup
	answers := make([]string, len(calls))
	for i, args := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "analysis.getReports", Arguments: args})
			switch {
			case err != nil:
				answers[i] = "failed: " + err.Error()
			case res.IsError:
				answers[i] = res.Content[0].(*mcp.TextContent).Text
			}
		}()
	}
	wg.Wait()
	for i, a := range answers {
		if a != "" {
			t.Errorf("call %d (%v): %.300s", i, calls[i], a)
		}
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "server.stats"})
	if err != nil || res.IsError {
		t.Fatalf("server.stats: %v %v", err, res)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, `"reportsParsed":1,`) {
		t.Errorf("server.stats: %.500s", text)
	}
}
