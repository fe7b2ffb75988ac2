package cli

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/recap-dev/recap/mcpserver"
)

// TestMCPHelpFollowsTheToolTable: recap mcp's help and recap's list of
// commands name every tool of mcpserver's tool table, each with its title,
// and the --tool-names flag shows a tool's two names.
func TestMCPHelpFollowsTheToolTable(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	if code := Main(context.Background(), []string{"mcp", "--help"}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("recap mcp --help: exit %d\n%s", code, errOut.String())
	}
	help := out.String()
	var root bytes.Buffer
	if code := Main(context.Background(), []string{"--help"}, strings.NewReader(""), &root, &errOut); code != 0 {
		t.Fatalf("recap --help: exit %d\n%s", code, errOut.String())
	}
	tools := mcpserver.Tools()
	if len(tools) < 5 {
		t.Fatalf("the tool table has %d tools: %v", len(tools), tools)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
		row := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(tool.Name) + ` +` + regexp.QuoteMeta(tool.Title) + `$`)
		if !row.MatchString(help) {
			t.Errorf("recap mcp --help has no row %q for %s:\n%s", tool.Title, tool.Name, help)
		}
	}
	list := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	if !strings.Contains(root.String(), "Serve the MCP tools "+list+"\n") {
		t.Errorf("recap --help does not list the tools (%s):\n%s", list, root.String())
	}
	if !strings.Contains(help, "dotted ("+tools[0].Name+") or underscore ("+tools[0].Underscore+")") {
		t.Errorf("--tool-names' help does not show %s's two names:\n%s", tools[0].Name, help)
	}
}
