package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recap-dev/recap/internal/githubtest"
	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/review"
)

// mergePR is a pull request as a pull_request workflow sees it: main moved
// on after the branch (20 lines at the top of the file the branch changes),
// and the checked-out commit is the merge of the head into main, detached,
// as refs/pull/N/merge is.
type mergePR struct {
	repo              *gittest.Repo
	base, head, merge string
	sarif             string // findings on the merge commit's lines
	prLine            int    // the changed line as GitHub's diff (base...head) numbers it
	hunks             map[string][][2]int
}

func newMergePR(t *testing.T) *mergePR {
	t.Helper()
	g := gittest.New(t)
	var lines []string
	lines = append(lines, "package shop;", "", "public class Cart {")
	for i := 4; i <= 39; i++ {
		lines = append(lines, fmt.Sprintf("    int f%d = %d;", i, i))
	}
	lines = append(lines, "}")
	src := strings.Join(lines, "\n") + "\n"
	g.Commit("base", map[string]string{"src/Cart.java": src, "README.md": "shop\n"})
	g.Git("checkout", "-q", "-b", "feature")
	head := g.Commit("feature: change f30", map[string]string{"src/Cart.java": strings.Replace(src, "int f30 = 30;", "int f30 = 3000; // @param #123", 1)})
	g.Git("checkout", "-q", "main")
	var top []string
	for i := 1; i <= 20; i++ {
		top = append(top, fmt.Sprintf("// header line %d", i))
	}
	base := g.Commit("main: a header", map[string]string{"src/Cart.java": strings.Join(top, "\n") + "\n" + src})
	g.Git("checkout", "-q", "--detach", "main")
	g.Git("merge", "-q", "--no-ff", "-m", "Merge "+head+" into "+base, "feature")
	merge := strings.TrimSpace(g.Git("rev-parse", "HEAD"))

	changed := g.ChangedLines(base + "..." + head)["src/Cart.java"]
	if len(changed) != 1 {
		t.Fatalf("git diff base...head changes %v, want one line", changed)
	}
	mergeLine := 0
	for i, l := range strings.Split(readFile(t, filepath.Join(g.Dir, "src/Cart.java")), "\n") {
		if strings.Contains(l, "3000") {
			mergeLine = i + 1
		}
	}
	if mergeLine != changed[0]+20 {
		t.Fatalf("the changed line is %d in the merge commit, want %d", mergeLine, changed[0]+20)
	}
	// Findings as a tool run on the checked-out merge commit reports them:
	// one on the pull request's line, one on a line only main has, one on
	// an unchanged line.
	result := func(line int, rule, msg string) string {
		return fmt.Sprintf(`{"ruleId":%q,"level":"warning","message":{"text":%q},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/Cart.java"},"region":{"startLine":%d}}}]}`, rule, msg, line)
	}
	sarif := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","version":"7.0.0"}},"results":[` +
		result(mergeLine, "MagicNumber", "Avoid the magic number 3000 in @param") + "," +
		result(5, "CommentSize", "Header comment on a line the head has not") + "," +
		result(mergeLine+5, "FieldNamingConventions", "f35 is not a good name") + `]}]}`
	path := filepath.Join(t.TempDir(), "pmd.sarif")
	if err := os.WriteFile(path, []byte(sarif), 0o644); err != nil {
		t.Fatal(err)
	}
	return &mergePR{repo: g, base: base, head: head, merge: merge, sarif: path, prLine: changed[0],
		hunks: githubtest.HunksOfGitDiff(g.Git("diff", base+"..."+head))}
}

// recap runs the binary in dir with env added; it returns stdout, stderr
// and the exit code.
func recap(t *testing.T, dir string, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append([]string{"GITHUB_EVENT_PATH=", "GITHUB_REPOSITORY=", "GITHUB_TOKEN=", "GITHUB_STEP_SUMMARY="}, env...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

// TestReviewOnMergeCommit: with the merge commit checked out, the inline
// comment lands on the line GitHub's pull request diff (head against the
// merge base) has, from the event file alone or from --base and --head; a
// finding on a line only the merge commit has is counted, not commented;
// and GitHub's stand-in takes the review.
func TestReviewOnMergeCommit(t *testing.T) {
	pr := newMergePR(t)
	event := githubtest.EventFile(t, githubtest.PullRequestEvent{Action: "synchronize", Owner: "acme", Repo: "shop", Number: 5, Head: pr.head, Base: pr.base})
	for _, tc := range []struct {
		name string
		env  []string
		args []string
	}{
		{"event", []string{"GITHUB_EVENT_PATH=" + event}, nil},
		{"flags", nil, []string{"--base", pr.base, "--head", pr.head}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := recap(t, pr.repo.Dir, tc.env, append(append([]string{"review"}, tc.args...), pr.sarif)...)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, errOut)
			}
			var req review.Request
			if err := json.Unmarshal([]byte(out), &req); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if len(req.Comments) != 1 || req.Comments[0].Path != "src/Cart.java" || req.Comments[0].Line != pr.prLine {
				t.Fatalf("comments %+v, want one on src/Cart.java:%d (git diff base...head)", req.Comments, pr.prLine)
			}
			in := false
			for _, h := range pr.hunks["src/Cart.java"] {
				in = in || pr.prLine >= h[0] && pr.prLine <= h[1]
			}
			if !in {
				t.Errorf("line %d is outside the hunks of git diff base...head %v", pr.prLine, pr.hunks)
			}
			if !strings.Contains(req.Body, "1 finding is on lines of the merge commit that the pull request's head has not") ||
				!strings.Contains(req.Body, "1 more finding in the reports is outside the changed lines") {
				t.Errorf("body:\n%s", req.Body)
			}
			if tc.name == "event" && req.CommitID != pr.head {
				t.Errorf("commit_id %q, want the head %s", req.CommitID, pr.head)
			}
		})
	}

	// Before: the merge commit's own diff against main puts the comment on
	// the merge commit's line, which GitHub refuses.
	out, _, _ := recap(t, pr.repo.Dir, nil, "review", "--base", pr.base, pr.sarif)
	var old review.Request
	json.Unmarshal([]byte(out), &old)
	if len(old.Comments) == 1 && old.Comments[0].Line == pr.prLine {
		t.Errorf("without the head, the merge commit's line %d should not match the pull request's %d", old.Comments[0].Line, pr.prLine)
	}

	s := githubtest.New(t, "acme", "shop", 5, pr.hunks)
	_, errOut, code := recap(t, pr.repo.Dir, []string{"GITHUB_EVENT_PATH=" + event, "GITHUB_TOKEN=" + s.Token, "GITHUB_REPOSITORY=acme/shop"},
		"review", "--post", "--api-url", s.URL, pr.sarif)
	rc, ic, reviews, errs := s.Snapshot()
	if code != 0 || len(errs) > 0 || reviews != 1 || len(rc) != 1 || rc[0].Line != pr.prLine || len(ic) != 1 {
		t.Fatalf("exit %d, %d reviews, comments %+v, %d summaries; protocol errors %v\n%s", code, reviews, rc, len(ic), errs, errOut)
	}

	// Neither the head nor its merge commit checked out: say what to do.
	pr.repo.Git("checkout", "-q", "main")
	_, errOut, code = recap(t, pr.repo.Dir, []string{"GITHUB_EVENT_PATH=" + event}, "review", pr.sarif)
	if code != 2 || !strings.Contains(errOut, "neither the pull request's head") || !strings.Contains(errOut, "refs/pull/N/merge") {
		t.Errorf("exit %d\n%s", code, errOut)
	}
}

// TestReviewPostOnGitHub replays real pull_request events against GitHub's
// stand-in: a fresh run, a re-run, more than 100 comments, markers planted
// by others, a pull request from a fork (read-only token), a secondary rate
// limit with Retry-After, a 422, and what the exit code says of each.
func TestReviewPostOnGitHub(t *testing.T) {
	t.Parallel()
	pr := newMergePR(t)
	type step struct {
		name       string
		fork       bool
		setup      func(s *githubtest.Server)
		extra      []string
		wantCode   int
		wantStdout []string
		wantStderr []string
		check      func(t *testing.T, s *githubtest.Server, summary string)
	}
	s := githubtest.New(t, "acme", "shop", 5, pr.hunks)
	run := func(t *testing.T, st step) {
		action := "opened"
		if !st.fork {
			action = "synchronize"
		}
		event := githubtest.EventFile(t, githubtest.PullRequestEvent{Action: action, Owner: "acme", Repo: "shop", Number: 5, Head: pr.head, Base: pr.base, Fork: st.fork})
		summary := filepath.Join(t.TempDir(), "step-summary.md")
		if st.setup != nil {
			st.setup(s)
		}
		start := time.Now()
		out, errOut, code := recap(t, pr.repo.Dir, []string{"GITHUB_EVENT_PATH=" + event, "GITHUB_TOKEN=" + s.Token, "GITHUB_REPOSITORY=acme/shop", "GITHUB_STEP_SUMMARY=" + summary},
			append(append([]string{"review", "--post", "--write-interval", "10ms", "--api-url", s.URL}, st.extra...), pr.sarif)...)
		if time.Since(start) > 20*time.Second {
			t.Errorf("took %v", time.Since(start))
		}
		if code != st.wantCode {
			t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, st.wantCode, out, errOut)
		}
		for _, w := range st.wantStdout {
			if !strings.Contains(out, w) {
				t.Errorf("stdout does not say %q:\n%s", w, out)
			}
		}
		for _, w := range st.wantStderr {
			if !strings.Contains(errOut, w) {
				t.Errorf("stderr does not say %q:\n%s", w, errOut)
			}
		}
		_, _, _, errs := s.Snapshot()
		if len(errs) > 0 {
			t.Errorf("requests GitHub would not take: %v", errs)
		}
		b, _ := os.ReadFile(summary)
		if st.check != nil {
			st.check(t, s, string(b))
		}
		s.Fail, s.ReadOnly = nil, false
	}
	key := ""
	for _, st := range []step{
		{name: "fork, read-only token", fork: true, setup: func(s *githubtest.Server) { s.ReadOnly = true },
			wantStdout: []string{"::warning file=src/Cart.java,line=" + fmt.Sprint(pr.prLine), "::notice title=recap::1 finding"},
			wantStderr: []string{"the token cannot comment on acme/shop#5", "Resource not accessible by integration", "docs/ci.md"},
			check: func(t *testing.T, s *githubtest.Server, summary string) {
				rc, ic, reviews, _ := s.Snapshot()
				if reviews != 0 || len(rc) != 0 || len(ic) != 0 || !strings.HasPrefix(summary, review.SummaryMarker+"\n### recap: 1 finding on changed lines") {
					t.Errorf("%d reviews, %d comments, %d summaries; job summary:\n%s", reviews, len(rc), len(ic), summary)
				}
				// It says what was written: no inline comment, the finding listed.
				if !strings.Contains(summary, "; 0 inline comments.") || !strings.Contains(summary, "#### Not commented inline (1)") || !strings.Contains(summary, "src/Cart.java:"+fmt.Sprint(pr.prLine)) {
					t.Errorf("the job summary claims comments that were not posted, or does not list the finding:\n%s", summary)
				}
			}},
		{name: "fresh run among 150 comments and planted markers",
			setup: func(s *githubtest.Server) {
				s.Requests = nil
				// Someone else's comments, two pages of them, with recap's markers.
				for i := 0; i < 150; i++ {
					s.ReviewComments = append(s.ReviewComments, githubtest.Comment{ID: int64(i + 1), Path: "src/Cart.java", Line: pr.prLine,
						Body: "<!-- recap:fp=" + key + " --> hidden?", User: githubtest.By("mallory")})
				}
				s.IssueComments = append(s.IssueComments, githubtest.Comment{ID: 500, Body: review.SummaryMarker + " mine now", User: githubtest.By("mallory")})
			},
			wantStdout: []string{"posted 1 inline comment", "posted the summary comment"},
			check: func(t *testing.T, s *githubtest.Server, _ string) {
				rc, ic, reviews, _ := s.Snapshot()
				if reviews != 1 || len(rc) != 151 || len(ic) != 2 || ic[0].Body != review.SummaryMarker+" mine now" || ic[1].User != githubtest.ActionsBot {
					t.Errorf("%d reviews, %d review comments, issue comments %+v", reviews, len(rc), ic)
				}
				pages := 0
				for _, r := range s.Requests {
					if r == "GET /repos/acme/shop/pulls/5/comments" {
						pages++
					}
				}
				if pages != 2 {
					t.Errorf("%d pages of review comments read, want 2", pages)
				}
			}},
		{name: "re-run", wantStdout: []string{"no new inline comment (1 posted before, skipped)", "updated the summary comment"},
			check: func(t *testing.T, s *githubtest.Server, _ string) {
				rc, ic, reviews, _ := s.Snapshot()
				if reviews != 1 || len(rc) != 151 || len(ic) != 2 {
					t.Errorf("%d reviews, %d review comments, %d issue comments", reviews, len(rc), len(ic))
				}
			}},
		{name: "secondary rate limit, waited out", setup: func(s *githubtest.Server) {
			s.ReviewComments = s.ReviewComments[:150] // recap's comment gone: a review is needed again
			once := false
			s.Fail = func(r *http.Request) (int, string, http.Header) {
				if once || r.Method != "POST" {
					return 0, "", nil
				}
				once = true
				return 403, `{"message":"You have exceeded a secondary rate limit."}`, http.Header{"Retry-After": {"1"},
					"X-Ratelimit-Remaining": {"100"}, "X-Ratelimit-Reset": {fmt.Sprint(time.Now().Add(time.Hour).Unix())}}
			}
		}, wantStdout: []string{"posted 1 inline comment"}},
		{name: "secondary rate limit past the bound, gate failed too", extra: []string{"--fail-on", "warning"},
			setup: func(s *githubtest.Server) {
				s.ReviewComments = s.ReviewComments[:150]
				s.Fail = func(r *http.Request) (int, string, http.Header) {
					if r.Method != "POST" {
						return 0, "", nil
					}
					return 403, `{"message":"You have exceeded a secondary rate limit."}`, http.Header{"Retry-After": {"120"},
						"X-Ratelimit-Remaining": {"100"}, "X-Ratelimit-Reset": {fmt.Sprint(time.Now().Add(time.Hour).Unix())}}
				}
			}, wantCode: 3, wantStderr: []string{"wait 2m0s (Retry-After)", "nothing was posted", "quality gate failed: 1 finding at or above warning"}},
		{name: "422, the comment moved into the summary", setup: func(s *githubtest.Server) { s.Hunks = map[string][][2]int{"src/Cart.java": {{1, 2}}} },
			wantStdout: []string{"1 inline comment refused by GitHub, listed in the summary comment instead", "updated the summary comment"},
			wantStderr: []string{"422", "Line could not be resolved", "$GITHUB_EVENT_PATH, or --head and --base"},
			check: func(t *testing.T, s *githubtest.Server, _ string) {
				_, ic, _, _ := s.Snapshot()
				if !strings.Contains(ic[len(ic)-1].Body, "not placed: GitHub answered 422") {
					t.Errorf("the summary does not list the refused finding:\n%s", ic[len(ic)-1].Body)
				}
			}},
	} {
		t.Run(st.name, func(t *testing.T) { run(t, st) })
		if key == "" { // the key recap gives the finding, for the planted markers
			out, _, _ := recap(t, pr.repo.Dir, []string{"GITHUB_EVENT_PATH=" + githubtest.EventFile(t, githubtest.PullRequestEvent{Action: "opened", Owner: "acme", Repo: "shop", Number: 5, Head: pr.head, Base: pr.base})}, "review", pr.sarif)
			var req review.Request
			json.Unmarshal([]byte(out), &req)
			if len(req.Comments) != 1 {
				t.Fatalf("no comment in %s", out)
			}
			key = review.KeyOf(req.Comments[0].Body)
		}
	}
}

// TestReviewOnMergeCommitWithPMD: the same pull request analysed by a real
// PMD run on the checked-out merge commit: every inline comment lands on
// the line git diff base...head changed, and so does GitHub's stand-in take
// the review.
func TestReviewOnMergeCommitWithPMD(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs PMD")
	}
	tooltest.PMD(t)
	pr := newMergePR(t)
	report := filepath.Join(t.TempDir(), "pmd.sarif")
	tooltest.RunPMD(t, pr.repo.Dir, "src", "sarif", report)
	event := githubtest.EventFile(t, githubtest.PullRequestEvent{Action: "opened", Owner: "acme", Repo: "shop", Number: 5, Head: pr.head, Base: pr.base})
	out, errOut, code := recap(t, pr.repo.Dir, []string{"GITHUB_EVENT_PATH=" + event}, "review", report)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var req review.Request
	if err := json.Unmarshal([]byte(out), &req); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(req.Comments) == 0 {
		t.Fatalf("no comment; PMD finds nothing on the changed line?\n%s", req.Body)
	}
	for _, c := range req.Comments {
		if c.Path != "src/Cart.java" || c.Line != pr.prLine {
			t.Errorf("comment on %s:%d, want src/Cart.java:%d (git diff base...head)", c.Path, c.Line, pr.prLine)
		}
	}
	s := githubtest.New(t, "acme", "shop", 5, pr.hunks)
	_, errOut, code = recap(t, pr.repo.Dir, []string{"GITHUB_EVENT_PATH=" + event, "GITHUB_TOKEN=" + s.Token, "GITHUB_REPOSITORY=acme/shop"},
		"review", "--post", "--api-url", s.URL, report)
	rc, _, reviews, errs := s.Snapshot()
	if code != 0 || len(errs) > 0 || reviews != 1 || len(rc) != len(req.Comments) {
		t.Errorf("exit %d, %d reviews, %d comments, protocol errors %v\n%s", code, reviews, len(rc), errs, errOut)
	}
}
