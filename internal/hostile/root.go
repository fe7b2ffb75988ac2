package hostile

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// swappedRootRun serves a repository, then renames its directory away and
// puts a link to a sibling repository in its place: vcs.diff (the working
// tree, and base...head) must go on diffing the repository the server
// opened, never the sibling's.
func swappedRootRun(ctx context.Context, bin, dir string, _ int64) (*Result, error) {
	root, sibling := filepath.Join(dir, "root"), filepath.Join(dir, "sibling")
	for _, r := range []string{root, sibling} {
		if _, err := gitRepo(r, map[string]string{"Main.java": "class Main {}\n", "Other.java": "class Other {}\n"}); err != nil {
			return nil, err
		}
	}
	steps := []struct {
		repo, file, text string
		commit           bool
	}{
		{root, "Main.java", "class Main { int feature; }\n", true},
		{root, "Main.java", "class Main { int original; }\n", false},
		{sibling, "Other.java", "class Other { String SIBLING; }\n", true},
		{sibling, "Other.java", "class Other { String SIBLING; }\n", false},
	}
	for _, s := range steps {
		if s.commit {
			if err := git(s.repo, "checkout", "-q", "-b", "feature"); err != nil {
				return nil, err
			}
		}
		if err := os.WriteFile(filepath.Join(s.repo, s.file), []byte(s.text), 0o644); err != nil {
			return nil, err
		}
		if s.commit {
			if err := gitCommit(s.repo, "feature"); err != nil {
				return nil, err
			}
			if err := git(s.repo, "checkout", "-q", "main"); err != nil {
				return nil, err
			}
		}
	}
	return mcpRun(ctx, bin, root, nil, "the root renamed away and replaced by a link to a sibling repository while served", func(cs *mcp.ClientSession) (string, error) {
		if err := os.Rename(root, root+".moved"); err != nil {
			return "", err
		}
		if err := os.Symlink(sibling, root); err != nil {
			return "", err
		}
		var lines []string
		for _, args := range []map[string]any{nil, {"base": "main", "head": "feature"}} {
			text, isErr, err := callText(ctx, cs, "vcs.diff", args)
			switch {
			case err != nil:
				return "", err
			case isErr || strings.Contains(text, "SIBLING") || strings.Contains(text, "Other.java") || !strings.Contains(text, "Main.java"):
				return "", fmt.Errorf("vcs.diff %v after the swap: %.300s", args, text)
			}
			line, _, _ := strings.Cut(text, "\n")
			lines = append(lines, line)
		}
		return strings.Join(lines, "; ") + ": the original's Main.java, nothing of the sibling", nil
	})
}

// longToolRun calls a tool whose name is 1 MB long.
func longToolRun(ctx context.Context, bin, dir string, size int64) (*Result, error) {
	return mcpRun(ctx, bin, dir, nil, fmt.Sprintf("a tools/call of a name of %s", Size(size)), func(cs *mcp.ClientSession) (string, error) {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: strings.Repeat("x", int(size))})
		if err == nil {
			return "", fmt.Errorf("no error")
		}
		if len(err.Error()) > 1000 {
			return "", fmt.Errorf("an error of %d bytes", len(err.Error()))
		}
		return err.Error(), nil
	})
}
