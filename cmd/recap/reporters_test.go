package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/recap-dev/recap/internal/githubtest"
	"github.com/recap-dev/recap/review"
)

// TestReportersOnHeadLines: a pull request whose base moved, analysed on
// the merge commit actions/checkout checks out and on its head: the
// workflow annotations, the inline comment with its suggested change, the
// check run's annotation and the job summary are all on the line the pull
// request shows (git diff base...head), never on the merge commit's; with
// a check run made, no finding is annotated twice.
func TestReportersOnHeadLines(t *testing.T) {
	pr := newMergePR(t)
	event := githubtest.EventFile(t, githubtest.PullRequestEvent{Action: "synchronize", Owner: "acme", Repo: "shop", Number: 5, Head: pr.head, Base: pr.base})
	for _, checkout := range []string{"merge", "head"} {
		t.Run(checkout, func(t *testing.T) {
			line := pr.prLine + 20 // the merge commit's line of the change
			if checkout == "head" {
				pr.repo.Git("checkout", "-q", "--detach", pr.head)
				defer pr.repo.Git("checkout", "-q", "--detach", pr.merge)
				line = pr.prLine
			}
			fixed := "    int f30 = 3000; // fixed"
			sarif := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","version":"7.0.0"}},"results":[` +
				`{"ruleId":"MagicNumber","level":"warning","message":{"text":"Avoid 3000, see GH-12 and a5c3785ed8d6a35868bc169f07e40e889087fd2e"},` +
				`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/Cart.java"},"region":{"startLine":` + fmt.Sprint(line) + `}}}],` +
				`"fixes":[{"description":{"text":"name it"},"artifactChanges":[{"artifactLocation":{"uri":"src/Cart.java"},"replacements":[{"deletedRegion":{"startLine":` +
				fmt.Sprint(line) + `},"insertedContent":{"text":` + jsonString(fixed) + `}}]}]}]},` +
				`{"ruleId":"CommentSize","level":"warning","message":{"text":"header"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/Cart.java"},"region":{"startLine":5}}}]}` +
				`]}]}`
			report := filepath.Join(t.TempDir(), "pmd.sarif")
			os.WriteFile(report, []byte(sarif), 0o644)
			summary := filepath.Join(t.TempDir(), "summary.md")
			env := []string{"GITHUB_EVENT_PATH=" + event, "GITHUB_STEP_SUMMARY=" + summary}

			out, errOut, code := recap(t, pr.repo.Dir, env, "review", report)
			var req review.Request
			if err := json.Unmarshal([]byte(out), &req); err != nil || code != 0 {
				t.Fatalf("exit %d: %v\n%s%s", code, err, out, errOut)
			}
			if len(req.Comments) != 1 || req.Comments[0].Line != pr.prLine || !strings.Contains(req.Comments[0].Body, "```suggestion\n"+fixed+"\n```") {
				t.Fatalf("comments %+v, want one on line %d suggesting %q", req.Comments, pr.prLine, fixed)
			}

			out, errOut, code = recap(t, pr.repo.Dir, env, "review", "--annotations", "--job-summary", report)
			ann := regexp.MustCompile(`(?m)^::warning file=src/Cart.java,line=(\d+)`).FindAllStringSubmatch(out, -1)
			if code != 0 || len(ann) != 1 || ann[0][1] != fmt.Sprint(pr.prLine) || strings.Contains(out, `"comments"`) {
				t.Errorf("exit %d, annotations %v, want one on line %d\n%s%s", code, ann, pr.prLine, out, errOut)
			}
			// --output takes the review request beside the annotations.
			reqFile := filepath.Join(t.TempDir(), "review.json")
			out, errOut, code = recap(t, pr.repo.Dir, env, "review", "--annotations", "--format", "json", "-o", reqFile, report)
			var written review.Request
			if b, err := os.ReadFile(reqFile); err != nil || json.Unmarshal(b, &written) != nil || len(written.Comments) != 1 || !strings.Contains(out, "::warning file=src/Cart.java") {
				t.Errorf("exit %d, --output %s: %v; stdout:\n%s%s", code, reqFile, err, out, errOut)
			}
			js, _ := os.ReadFile(summary)
			if !strings.Contains(string(js), fmt.Sprintf("line %d · PMD", pr.prLine)) || strings.Contains(string(js), "offset") ||
				!strings.Contains(string(js), "<details><summary><code>src/Cart.java</code>: 1 warning</summary>") {
				t.Errorf("job summary:\n%s", js)
			}

			s := githubtest.New(t, "acme", "shop", 5, pr.hunks)
			out, errOut, code = recap(t, pr.repo.Dir, append(env, "GITHUB_TOKEN="+s.Token, "GITHUB_REPOSITORY=acme/shop"),
				"review", "--checks", "--annotations", "--write-interval", "0", "--api-url", s.URL, report)
			checks := s.Checks()
			if code != 0 || len(checks) != 1 || len(checks[0].Annotations) != 1 || checks[0].Annotations[0].StartLine != pr.prLine || strings.Contains(out, "::warning") {
				t.Errorf("exit %d, check runs %+v; stdout (no workflow annotation beside the check run):\n%s%s", code, checks, out, errOut)
			}
		})
	}
}

// TestChecksPersonalToken: the Checks API refuses a personal token (403
// "You must authenticate via a GitHub App."): recap says it takes a GitHub
// App's token, not that the token lacks checks: write.
func TestChecksPersonalToken(t *testing.T) {
	pr := newMergePR(t)
	s := githubtest.New(t, "acme", "shop", 5, pr.hunks)
	s.Poster = githubtest.By("octocat")
	_, errOut, code := recap(t, pr.repo.Dir, []string{"GITHUB_TOKEN=" + s.Token, "GITHUB_REPOSITORY=acme/shop"},
		"review", "--checks", "--base", pr.base, "--head", pr.head, "--api-url", s.URL, pr.sarif)
	if code != 3 || !strings.Contains(errOut, "You must authenticate via a GitHub App.") || !strings.Contains(errOut, "takes only a GitHub App's token") ||
		strings.Contains(errOut, "give the job the permission checks: write (a pull request") {
		t.Errorf("exit %d\n%s", code, errOut)
	}
}

// TestReviewAppTokenPostsOnce: a GitHub App's installation token (posting
// as <app-slug>[bot], GET /user refused) run twice against the
// OpenAPI-validating stand-in posts the review once: with the login given
// as the Action gives it ($RECAP_GITHUB_LOGIN) and without it.
func TestReviewAppTokenPostsOnce(t *testing.T) {
	pr := newMergePR(t)
	app := githubtest.User{Login: "recap-app[bot]", ID: 9001, Type: "Bot"}
	for _, env := range []string{"RECAP_GITHUB_LOGIN=" + app.Login, "RECAP_GITHUB_LOGIN="} {
		t.Run(env, func(t *testing.T) {
			s := githubtest.New(t, "acme", "shop", 5, pr.hunks)
			s.Poster = app
			event := githubtest.EventFile(t, githubtest.PullRequestEvent{Action: "synchronize", Owner: "acme", Repo: "shop", Number: 5, Head: pr.head, Base: pr.base})
			var outs []string
			for run := 0; run < 2; run++ {
				out, errOut, code := recap(t, pr.repo.Dir, []string{"GITHUB_EVENT_PATH=" + event, "GITHUB_TOKEN=" + s.Token, "GITHUB_REPOSITORY=acme/shop", env},
					"review", "--post", "--write-interval", "10ms", "--api-url", s.URL, pr.sarif)
				if code != 0 {
					t.Fatalf("run %d: exit %d\n%s%s", run+1, code, out, errOut)
				}
				outs = append(outs, out)
				// Learned, recap says whose markers it trusts; given, nothing.
				if says := strings.Contains(errOut, "takes the comments of any App account"); says != (env == "RECAP_GITHUB_LOGIN=") || strings.Contains(errOut, "warning") {
					t.Errorf("run %d: stderr:\n%s", run+1, errOut)
				}
			}
			rc, ic, reviews, errs := s.Snapshot()
			if len(errs) > 0 {
				t.Errorf("requests GitHub would not take: %v", errs)
			}
			if reviews != 1 || len(rc) != 1 || len(ic) != 1 || !strings.Contains(outs[1], "no new inline comment (1 posted before, skipped)") ||
				!strings.Contains(outs[1], "updated the summary comment") {
				t.Errorf("%d reviews, %d review comments, %d summaries; second run: %s", reviews, len(rc), len(ic), outs[1])
			}
		})
	}
}

// TestWritesPaced: the review, its summary and the check run of one recap
// review are one client's writes, spaced by --write-interval from the end
// of one to the start of the next.
func TestWritesPaced(t *testing.T) {
	pr := newMergePR(t)
	s := githubtest.New(t, "acme", "shop", 5, pr.hunks)
	event := githubtest.EventFile(t, githubtest.PullRequestEvent{Action: "synchronize", Owner: "acme", Repo: "shop", Number: 5, Head: pr.head, Base: pr.base})
	out, errOut, code := recap(t, pr.repo.Dir, []string{"GITHUB_EVENT_PATH=" + event, "GITHUB_TOKEN=" + s.Token, "GITHUB_REPOSITORY=acme/shop"},
		"review", "--post", "--checks", "--write-interval", "300ms", "--api-url", s.URL, pr.sarif)
	times := s.WriteTimes()
	if code != 0 || len(times) != 3 || len(s.Checks()) != 1 {
		t.Fatalf("exit %d, %d writes, %d check runs, want 3 writes (review, summary, check run)\n%s%s", code, len(times), len(s.Checks()), out, errOut)
	}
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap < 300*time.Millisecond {
			t.Errorf("write %d came %v after the one before, want at least 300ms", i, gap)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
