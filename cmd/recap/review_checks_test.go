package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/githubtest"
)

// TestChecksOnGitHub: recap review --checks with the pull request's merge
// commit checked out, replaying a real pull_request event, against GitHub's
// stand-in (every request checked against the OpenAPI description): the
// check run is on the head commit with the annotations on the head's
// lines; its conclusion is the gate's (neutral without one); --filter-mode
// file annotates the whole changed file; a re-run makes a new check run; a
// fork's read-only token falls back to workflow annotations and the job
// summary; a 422 fails with exit 3 and says why.
func TestChecksOnGitHub(t *testing.T) {
	pr := newMergePR(t)
	event := githubtest.EventFile(t, githubtest.PullRequestEvent{Action: "synchronize", Owner: "acme", Repo: "shop", Number: 5, Head: pr.head, Base: pr.base})
	s := githubtest.New(t, "acme", "shop", 5, pr.hunks)
	env := []string{"GITHUB_EVENT_PATH=" + event, "GITHUB_TOKEN=" + s.Token, "GITHUB_REPOSITORY=acme/shop",
		"GITHUB_SERVER_URL=https://github.com", "GITHUB_RUN_ID=77"}
	type ann struct {
		line  int
		level string
	}
	for i, tc := range []struct {
		name       string
		args       []string
		wantCode   int
		conclusion string
		anns       []ann
	}{
		{"no gate", nil, 0, "neutral", []ann{{pr.prLine, "warning"}}},
		{"gate fails", []string{"--fail-on", "warning"}, 1, "failure", []ann{{pr.prLine, "warning"}}},
		{"gate passes", []string{"--fail-on", "error"}, 0, "success", []ann{{pr.prLine, "warning"}}},
		{"whole files", []string{"--filter-mode", "file"}, 0, "neutral", []ann{{pr.prLine, "warning"}, {pr.prLine + 5, "warning"}}},
		{"named", []string{"--check-name", "static analysis"}, 0, "neutral", []ann{{pr.prLine, "warning"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := recap(t, pr.repo.Dir, env, append(append([]string{"review", "--checks", "--api-url", s.URL}, tc.args...), pr.sarif)...)
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.wantCode, out, errOut)
			}
			checks := s.Checks()
			if _, _, _, errs := s.Snapshot(); len(errs) > 0 {
				t.Fatalf("protocol errors: %v", errs)
			}
			if len(checks) != i+1 {
				t.Fatalf("%d check runs after %d runs: each run makes a new one", len(checks), i+1)
			}
			c := checks[i]
			name := "recap: PMD"
			if tc.name == "named" {
				name = "static analysis"
			}
			if c.Name != name || c.HeadSHA != pr.head || c.Conclusion != tc.conclusion || c.DetailsURL != "https://github.com/acme/shop/actions/runs/77" {
				t.Errorf("check run %q on %s, %s, %s", c.Name, c.HeadSHA, c.Conclusion, c.DetailsURL)
			}
			var got []ann
			for _, a := range c.Annotations {
				if a.Path != "src/Cart.java" {
					t.Errorf("annotation on %s", a.Path)
				}
				got = append(got, ann{a.StartLine, a.Level})
			}
			sort.Slice(got, func(i, j int) bool { return got[i].line < got[j].line })
			if len(got) != len(tc.anns) || len(got) > 0 && got[0] != tc.anns[0] || len(got) > 1 && got[1] != tc.anns[1] {
				t.Errorf("annotations %v, want %v (the head's lines)", got, tc.anns)
			}
			if !strings.Contains(c.Summary, "1 finding is on lines of the merge commit that the pull request's head has not") {
				t.Errorf("summary:\n%s", c.Summary)
			}
			if !strings.Contains(out, "created the check run \""+name+"\" https://github.com/acme/shop/runs/") || !strings.Contains(out, "("+tc.conclusion+")") {
				t.Errorf("stdout: %s", out)
			}
		})
	}

	t.Run("fork", func(t *testing.T) {
		fork := githubtest.New(t, "acme", "shop", 5, pr.hunks)
		fork.ReadOnly = true
		summary := filepath.Join(t.TempDir(), "summary.md")
		forkEvent := githubtest.EventFile(t, githubtest.PullRequestEvent{Action: "opened", Owner: "acme", Repo: "shop", Number: 5, Head: pr.head, Base: pr.base, Fork: true})
		out, errOut, code := recap(t, pr.repo.Dir, []string{"GITHUB_EVENT_PATH=" + forkEvent, "GITHUB_TOKEN=" + fork.Token, "GITHUB_REPOSITORY=acme/shop", "GITHUB_STEP_SUMMARY=" + summary},
			"review", "--checks", "--api-url", fork.URL, pr.sarif)
		b, _ := os.ReadFile(summary)
		if code != 0 || !strings.Contains(out, "::warning file=src/Cart.java,line=") || !strings.Contains(errOut, "the token cannot create check runs on acme/shop") ||
			!strings.HasPrefix(string(b), "### recap: 1 finding on changed lines") || len(fork.Checks()) != 0 {
			t.Errorf("exit %d\nstdout %s\nstderr %s\nsummary %s", code, out, errOut, b)
		}
	})

	t.Run("422", func(t *testing.T) {
		strict := githubtest.New(t, "acme", "shop", 5, pr.hunks)
		strict.Commits = map[string]bool{pr.base: true}
		out, errOut, code := recap(t, pr.repo.Dir, []string{"GITHUB_EVENT_PATH=" + event, "GITHUB_TOKEN=" + strict.Token, "GITHUB_REPOSITORY=acme/shop"},
			"review", "--checks", "--fail-on", "warning", "--api-url", strict.URL, pr.sarif)
		if code != 3 || !strings.Contains(errOut, "No commit found for SHA: "+pr.head) || !strings.Contains(errOut, "quality gate failed") || out != "" {
			t.Errorf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
		}
	})
}
