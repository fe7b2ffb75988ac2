package diff_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/gittest"
)

// TestLineMapAgainstGit: every line of the old revision maps to the line git
// blame --reverse would follow it to, checked here by content: a line kept
// by the diff has the same text on the new side at the mapped number, and
// the lines the diff deletes map to nothing.
func TestLineMapAgainstGit(t *testing.T) {
	g := gittest.New(t)
	var a, b []string
	for i := 1; i <= 60; i++ {
		a = append(a, fmt.Sprintf("line %d", i))
	}
	b = append(b, "new top 1", "new top 2")
	for i, l := range a {
		switch {
		case i == 9: // deleted
		case i == 19:
			b = append(b, "changed 20")
		case i == 29:
			b = append(b, l, "inserted after 30", "again")
		case i >= 49 && i < 53: // deleted block
		default:
			b = append(b, l)
		}
	}
	from := g.Commit("old", map[string]string{"A.txt": strings.Join(a, "\n") + "\n", "gone.txt": "x\n", "same.txt": "s\n", "old/name.txt": strings.Join(a, "\n") + "\n"})
	g.Git("mv", "old/name.txt", "new-name.txt")
	g.Commit("new", map[string]string{"A.txt": strings.Join(b, "\n") + "\n"})
	g.Git("rm", "-q", "gone.txt")
	to := g.Commit("gone", nil)
	repo, err := diff.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	files, err := repo.Between(context.Background(), from, to)
	if err != nil {
		t.Fatal(err)
	}
	m := diff.NewLineMap(files)
	kept := 0
	for n, text := range a {
		line := n + 1
		p, got, ok := m.Map("A.txt", line)
		gone := text == "line 10" || text == "line 20" || n >= 49 && n < 53
		if ok == gone {
			t.Errorf("A.txt:%d (%q): mapped %v, want %v", line, text, ok, !gone)
			continue
		}
		if ok {
			kept++
			if p != "A.txt" || got < 1 || got > len(b) || b[got-1] != text {
				t.Errorf("A.txt:%d (%q) maps to %s:%d", line, text, p, got)
			}
		}
	}
	if kept != 54 {
		t.Errorf("%d lines kept, want 54", kept)
	}
	for _, tc := range []struct {
		path     string
		line     int
		wantPath string
		wantLine int
		ok       bool
	}{
		{"same.txt", 1, "same.txt", 1, true},
		{"gone.txt", 1, "", 0, false},
		{"old/name.txt", 7, "new-name.txt", 7, true},
		{"A.txt", 0, "A.txt", 0, true},
	} {
		p, l, ok := m.Map(tc.path, tc.line)
		if p != tc.wantPath || l != tc.wantLine || ok != tc.ok {
			t.Errorf("Map(%s, %d) = %s, %d, %v; want %s, %d, %v", tc.path, tc.line, p, l, ok, tc.wantPath, tc.wantLine, tc.ok)
		}
	}
}
