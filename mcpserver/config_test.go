package mcpserver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/mcpserver"
)

// TestConfigRewrites: the configuration is read again when its content
// changes, even when a rewrite keeps its size and its modification time
// (two writes within one tick of the clock): 30 quick rewrites between two
// files of one size, each with the same mtime, are all seen.
func TestConfigRewrites(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	name := filepath.Join(g.Dir, ".recap.yml")
	files := []struct {
		text     string
		excluded int
	}{
		{"exclude:\n  rules: [Checkstyle:JavadocVariable]\n", 7},
		{"exclude:\n  rules: [Checkstyle:XavadocVariable]\n", 0},
	}
	if len(files[0].text) != len(files[1].text) {
		t.Fatal("the two files differ in size")
	}
	tick := time.Now().Truncate(time.Second)
	seen := 0
	for i := range 30 {
		f := files[i%2]
		if err := os.WriteFile(name, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(name, tick, tick); err != nil {
			t.Fatal(err)
		}
		var v view
		call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true}).decode(t, &v)
		if v.Summary.Excluded == f.excluded && v.Summary.Total == tooltest.SampleFindings-f.excluded {
			seen++
		}
	}
	if seen != 30 {
		t.Errorf("%d of 30 same-size rewrites seen", seen)
	}
}

// TestConfigNotRegular: a .recap.yml that is a FIFO (no one writes to it),
// a directory or a link out of the root is the call's error, naming the
// file, at once.
func TestConfigNotRegular(t *testing.T) {
	for _, c := range []struct {
		name, want string
		make       func(dir, path string) error
	}{
		{"a FIFO", "not a regular file (a FIFO)", func(_, p string) error { return syscall.Mkfifo(p, 0o644) }},
		{"a directory", "not a regular file (a directory)", func(_, p string) error { return os.Mkdir(p, 0o755) }},
		{"a link out of the root", "a symbolic link on the path leads outside the root", func(dir, p string) error {
			out := filepath.Join(filepath.Dir(dir), "outside.yml")
			if err := os.WriteFile(out, []byte("exclude: {rules: [\"*:*\"]}\n"), 0o644); err != nil {
				return err
			}
			return os.Symlink("../outside.yml", p)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := workspace(t)
			cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
			path := filepath.Join(g.Dir, ".recap.yml")
			if err := c.make(g.Dir, path); err != nil {
				t.Skip(err)
			}
			start := time.Now()
			r := call(t, cs, "analysis.getReports", map[string]any{"summaryOnly": true})
			if code := r.errorCode(t); code != mcpserver.CodeBadArgument || !strings.Contains(r.text, path) || !strings.Contains(r.text, c.want) {
				t.Errorf("%s: %s; want %s naming %s with %q", code, r.text, mcpserver.CodeBadArgument, path, c.want)
			}
			t.Logf("answered in %s", time.Since(start).Round(time.Millisecond))
		})
	}
}

// TestLongPatterns: paths and rules of the most and longest patterns the
// tool takes (100 of 256 characters, shaped to cost the most: stars and
// classes against long runs of one character) are answered, not BUSY; a
// longer glob is the call's error naming it.
func TestLongPatterns(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	var paths, rules []string
	for i := range 100 {
		paths = append(paths, fmt.Sprintf("**/%02d%s*[!x]%s/**", i, strings.Repeat("*a", 75), strings.Repeat("?", 90)))
		rules = append(rules, strings.Repeat("Javadoc", 585)[:4093]+fmt.Sprintf("%03d", i))
	}
	start := time.Now()
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"paths": paths, "summaryOnly": true}).decode(t, &v)
	if v.Summary.Total != 0 {
		t.Errorf("long paths: %d findings, want 0", v.Summary.Total)
	}
	call(t, cs, "analysis.getReports", map[string]any{"rules": rules, "summaryOnly": true}).decode(t, &v)
	if v.Summary.Total != 0 {
		t.Errorf("long rules: %d findings, want 0", v.Summary.Total)
	}
	t.Logf("100 globs of 256 characters, then 100 rules of 4,096: answered in %s", time.Since(start).Round(time.Millisecond))
	r := call(t, cs, "analysis.getReports", map[string]any{"paths": []string{strings.Repeat("a", 257)}, "summaryOnly": true})
	if code := r.errorCode(t); code != mcpserver.CodeBadArgument || !strings.Contains(r.text, "257 characters, more than 256") {
		t.Errorf("a glob of 257 characters: %s %s", code, r.text)
	}
}

// TestGetFindingExcluded: analysis.getFinding on a finding that .recap.yml
// excludes answers it, and says so (which file, which key), in its first
// line and its JSON; on another finding it says nothing of the kind.
func TestGetFindingExcluded(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	var v view
	call(t, cs, "analysis.getReports", map[string]any{"limit": 200, "maxTokens": 25000, "context": false, "group": false}).decode(t, &v)
	ids := map[string]string{}
	for _, f := range v.Findings {
		switch {
		case f.Rule == "com.puppycrawl.tools.checkstyle.checks.javadoc.JavadocVariableCheck" && ids["rule"] == "":
			ids["rule"] = f.ID.String()
		case strings.HasSuffix(f.Path, "PriceCalculator.java") && ids["path"] == "":
			ids["path"] = f.ID.String()
		case f.Tool == "PMD" && !strings.HasSuffix(f.Path, "PriceCalculator.java") && ids["kept"] == "":
			ids["kept"] = f.ID.String()
		}
	}
	if len(ids) != 3 {
		t.Fatalf("findings of the sample: %v", ids)
	}
	if err := os.WriteFile(filepath.Join(g.Dir, ".recap.yml"), []byte("exclude:\n  rules: [Checkstyle:JavadocVariable]\n  paths: [\"**/PriceCalculator.java\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		which, excluded string
	}{
		{"rule", "excluded by .recap.yml (exclude.rules): analysis.getReports leaves it out and counts it in summary.excluded"},
		{"path", "excluded by .recap.yml (exclude.paths): analysis.getReports leaves it out and counts it in summary.excluded"},
		{"kept", ""},
	}
	for _, tc := range tests {
		t.Run(tc.which, func(t *testing.T) {
			r := call(t, cs, "analysis.getFinding", map[string]any{"id": ids[tc.which]})
			var a mcpserver.FindingAnswer
			r.decode(t, &a)
			if a.Excluded != tc.excluded || a.Finding.ID.String() != ids[tc.which] {
				t.Errorf("getFinding %s: excluded %q, want %q", ids[tc.which], a.Excluded, tc.excluded)
			}
			first, _, _ := strings.Cut(r.text, "\n")
			if strings.Contains(first, "[excluded by the configuration]") != (tc.excluded != "") {
				t.Errorf("first line %q", first)
			}
		})
	}
}
