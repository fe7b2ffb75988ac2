package main

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/githubtest"
	"github.com/recap-dev/recap/internal/gittest"
)

type reviewRequest struct {
	Body     string `json:"body"`
	Event    string `json:"event"`
	Comments []struct {
		Path, Side, Body string
		Line             int
	} `json:"comments"`
}

// TestReviewWithPMD: recap review on a real repository with PMD run on the
// head of a feature branch: the inline comments are exactly the findings on
// changed lines, each anchored inside a hunk of git diff main...feature;
// --post sends them to a local stand-in of GitHub's API, and a second run
// posts nothing twice and updates the summary.
func TestReviewWithPMD(t *testing.T) {
	t.Parallel()
	pr := newPMDPR(t)
	dir := pr.repo.Dir
	hunks := githubtest.HunksOfGitDiff(pr.repo.Git("diff", "main...feature"))

	out, err := exec.Command(bin, "review", "--repo", dir, "--base", "main", pr.head).Output()
	if err != nil {
		t.Fatalf("recap review: %v", err)
	}
	var req reviewRequest
	if err := json.Unmarshal(out, &req); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	changed, _ := runJSON(t, dir, "findings", "--format", "json", "--limit", "200", "--changed-only", "--base", "main", pr.head)
	if len(req.Comments) != len(changed.Findings) || len(req.Comments) == 0 || req.Event != "COMMENT" {
		t.Fatalf("%d inline comments, want the %d findings on changed lines", len(req.Comments), len(changed.Findings))
	}
	for _, c := range req.Comments {
		ok := false
		for _, h := range hunks[c.Path] {
			ok = ok || (c.Line >= h[0] && c.Line <= h[1])
		}
		if !ok || c.Side != "RIGHT" {
			t.Errorf("comment on %s:%d (%s) is outside the hunks of git diff main...feature: %v", c.Path, c.Line, c.Side, hunks[c.Path])
		}
	}
	all, _ := runJSON(t, dir, "summary", "--format", "json", pr.head)
	headline := "### recap: 1 finding on changed lines"
	if len(changed.Findings) != 1 {
		headline = "### recap: " + itoa(len(changed.Findings)) + " findings on changed lines"
	}
	outside := itoa(all.Summary.Total-len(changed.Findings)) + " more findings in the reports are outside the changed lines"
	if !strings.HasPrefix(req.Body, "<!-- recap:summary -->\n"+headline) || !strings.Contains(req.Body, outside) {
		t.Errorf("body (of %d findings in all) does not start with the summary:\n%s", all.Summary.Total, req.Body)
	}
	md, err := exec.Command(bin, "review", "--repo", dir, "--base", "main", "--format", "markdown", pr.head).Output()
	if err != nil || string(md) != req.Body {
		t.Errorf("--format markdown is not the request's body (%v)", err)
	}

	// --post, with the repository and the number from flags, then from the event file.
	s := githubtest.New(t, "acme", "shop", 12, hunks)
	event := filepath.Join(t.TempDir(), "event.json")
	os.WriteFile(event, []byte(`{"number":12,"pull_request":{"number":12,"head":{"sha":"`+strings.TrimSpace(pr.repo.Git("rev-parse", "feature"))+`"}},"repository":{"full_name":"acme/shop"}}`), 0o644)
	post := func(env []string, args ...string) string {
		cmd := exec.Command(bin, append([]string{"review", "--repo", dir, "--base", "main", "--post", "--api-url", s.URL}, append(args, pr.head)...)...)
		cmd.Env = append(os.Environ(), append(env, "GITHUB_TOKEN="+s.Token)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("recap review --post: %v\n%s", err, out)
		}
		return string(out)
	}
	first := post(nil, "--github-repo", "acme/shop", "--pr", "12")
	rc, ic, reviews, errs := s.Snapshot()
	if len(errs) > 0 {
		t.Fatalf("requests GitHub would not take: %v", errs)
	}
	if reviews != 1 || len(rc) != len(req.Comments) || len(ic) != 1 || !strings.Contains(first, "inline comment") {
		t.Fatalf("first post: %d reviews, %d inline comments, %d summary comments; output %q", reviews, len(rc), len(ic), first)
	}
	second := post([]string{"GITHUB_EVENT_PATH=" + event, "GITHUB_REPOSITORY="})
	rc, ic, reviews, _ = s.Snapshot()
	if reviews != 1 || len(rc) != len(req.Comments) || len(ic) != 1 || !strings.Contains(second, "no new inline comment") ||
		!strings.Contains(second, "updated the summary comment") {
		t.Fatalf("second post: %d reviews, %d inline comments, %d summary comments; output %q", reviews, len(rc), len(ic), second)
	}

	// GitHub refusing to be read: a clear message, exit 3 (the posting failed).
	s.Fail = func(*http.Request) (int, string, http.Header) {
		return 403, `{"message":"Resource not accessible by integration"}`, nil
	}
	cmd := exec.Command(bin, "review", "--repo", dir, "--base", "main", "--post", "--api-url", s.URL, "--github-repo", "acme/shop", "--pr", "12", pr.head)
	cmd.Env = append(os.Environ(), "GITHUB_TOKEN="+s.Token)
	msg, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 || !strings.Contains(string(msg), "403") || !strings.Contains(string(msg), "nothing was posted") {
		t.Errorf("403: %v\n%s", err, msg)
	}
}

// TestReviewUsage: what review refuses before reading anything.
func TestReviewUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  []string
		want string
	}{
		{[]string{"review", "testdata/reports"}, nil, "--base REV"},
		{[]string{"review", "--base", "HEAD", "--format", "sarif", "testdata/reports"}, nil, "json, markdown or html"},
		{[]string{"review", "--base", "HEAD", "--post", "testdata/reports"}, []string{"GITHUB_TOKEN="}, "GITHUB_TOKEN"},
		{[]string{"review", "--base", "HEAD", "--post", "testdata/reports"}, []string{"GITHUB_TOKEN=x", "GITHUB_REPOSITORY=", "GITHUB_EVENT_PATH="}, "OWNER/REPO"},
		{[]string{"review", "--base", "HEAD", "--post", "--github-repo", "a/b", "testdata/reports"}, []string{"GITHUB_TOKEN=x", "GITHUB_EVENT_PATH="}, "--pr N"},
		{[]string{"review", "--base", "HEAD", "--post", "--github-repo", "a/b", "--pr", "1", "--job-summary", "testdata/reports"},
			[]string{"GITHUB_TOKEN=x", "GITHUB_STEP_SUMMARY="}, "$GITHUB_STEP_SUMMARY, which is not set"},
		{[]string{"review", "--base", "HEAD", "--write-interval", "-1s", "testdata/reports"}, nil, "--write-interval must be 0 or more"},
		{[]string{"review", "--base", "HEAD", "--checks", "--max-annotations", "-1", "testdata/reports"}, []string{"GITHUB_TOKEN=x"}, "--max-annotations must be 0"},
	} {
		cmd := exec.Command(bin, tc.args...)
		cmd.Dir = filepath.Join("..", "..")
		cmd.Env = append(os.Environ(), tc.env...)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), tc.want) {
			t.Errorf("%v: %v\n%s\nwant exit 2 and %q", tc.args, err, out, tc.want)
		}
	}
}

// TestReviewSuggestion: a SARIF fix that changes only the lines a review
// comment anchors (on changed lines of a real repository's pull request)
// becomes a GitHub suggested change, one line or several (start_line and
// line, side RIGHT), which the stand-in of GitHub's API takes; a fix that
// reaches past its hunk suggests nothing.
func TestReviewSuggestion(t *testing.T) {
	g := gittest.New(t)
	g.Commit("base", map[string]string{"app/db.py": "import db\n\n\ndef q(req):\n    return 1\n\n\n\n\n\n\n\n\n\ndef last():\n    pass\n"})
	g.Git("checkout", "-q", "-b", "feature")
	g.Commit("feature", map[string]string{"app/db.py": "import db\n\n\ndef q(req):\n    id = req.args['id']\n    db.run(\"SELECT * FROM t WHERE id=\" + id)\n" +
		"    return 1\n\n\n\n\n\n\n\n\ndef last():\n    pass\n"})
	hunks := githubtest.HunksOfGitDiff(g.Git("diff", "main...feature"))
	result := func(rule string, line, endLine int, fix string) string {
		return `{"ruleId":"` + rule + `","level":"error","message":{"text":"SQL built from user input"},"locations":[{"physicalLocation":` +
			`{"artifactLocation":{"uri":"app/db.py"},"region":{"startLine":` + itoa(line) + `,"endLine":` + itoa(endLine) + `}}}],"fixes":[` + fix + `]}`
	}
	repl := func(line, col, endLine, endCol int, text string) string {
		b, _ := json.Marshal(text)
		return `{"artifactChanges":[{"artifactLocation":{"uri":"app/db.py"},"replacements":[{"deletedRegion":{"startLine":` + itoa(line) +
			`,"startColumn":` + itoa(col) + `,"endLine":` + itoa(endLine) + `,"endColumn":` + itoa(endCol) + `},"insertedContent":{"text":` + string(b) + `}}]}],` +
			`"description":{"text":"Use a parameter"}}`
	}
	report := filepath.Join(t.TempDir(), "semgrep.sarif")
	os.WriteFile(report, []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Semgrep","rules":[{"id":"sqli"},{"id":"id-name"},{"id":"wide"}]}},"results":[`+
		result("sqli", 6, 6, repl(6, 12, 6, 44, `"SELECT * FROM t WHERE id=?", id`))+","+
		result("id-name", 5, 6, repl(5, 5, 6, 45, "key = req.args['id']\n    db.run(\"SELECT * FROM t WHERE id=?\", key)"))+","+
		result("wide", 6, 6, repl(1, 1, 6, 5, "# gone\n"))+`]}]}`), 0o644)

	s := githubtest.New(t, "acme", "shop", 7, hunks)
	cmd := exec.Command(bin, "review", "--repo", g.Dir, "--base", "main", "--post", "--api-url", s.URL, "--github-repo", "acme/shop", "--pr", "7", report)
	cmd.Env = append(os.Environ(), "GITHUB_TOKEN="+s.Token)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("recap review --post: %v\n%s", err, out)
	}
	rc, _, reviews, errs := s.Snapshot()
	if len(errs) > 0 || reviews != 1 || len(rc) != 3 {
		t.Fatalf("%d reviews, %d comments; requests GitHub would not take: %v", reviews, len(rc), errs)
	}
	byRule := map[string]githubtest.Comment{}
	for _, c := range rc {
		for _, r := range []string{"sqli", "id-name", "wide"} {
			if strings.Contains(c.Body, "<code>"+r+"</code>") {
				byRule[r] = c
			}
		}
	}
	one := byRule["sqli"]
	if one.StartLine != 0 || one.Line != 6 || !strings.Contains(one.Body, "Suggested fix: Use a parameter\n\n```suggestion\n    db.run(\"SELECT * FROM t WHERE id=?\", id)\n```\n") {
		t.Errorf("one-line suggestion on line 6 (%d-%d):\n%s", one.StartLine, one.Line, one.Body)
	}
	two := byRule["id-name"]
	if two.StartLine != 5 || two.Line != 6 || two.Side != "RIGHT" ||
		!strings.Contains(two.Body, "```suggestion\n    key = req.args['id']\n    db.run(\"SELECT * FROM t WHERE id=?\", key)\n```\n") {
		t.Errorf("two-line suggestion on lines 5-6 (%d-%d):\n%s", two.StartLine, two.Line, two.Body)
	}
	if wide := byRule["wide"]; wide.Line != 6 || wide.StartLine != 0 || strings.Contains(wide.Body, "suggestion") {
		t.Errorf("a fix that reaches past its hunk suggests a change on %d-%d:\n%s", wide.StartLine, wide.Line, wide.Body)
	}
}
