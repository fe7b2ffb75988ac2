package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/githubtest"
	"github.com/recap-dev/recap/internal/gitlabtest"
	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/review"
	"github.com/recap-dev/recap/triage"
)

// entriesBlock finds the entries to commit in a review's body.
var entriesBlock = regexp.MustCompile("(?s)\n(~{3,})yaml\n(.*?)\n~{3,}\n")

// checkRepliedBody checks the second run's summary: the entry of the
// writer's reply, which reads as a triage file's entry and covers the
// finding in the checked-out files, and the reader's reply ignored.
func checkRepliedBody(t *testing.T, pr *mergePR, body, by, link string) {
	t.Helper()
	m := entriesBlock.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no entries to commit in the summary:\n%s", body)
	}
	f, err := triage.Parse("the summary's entries", []byte("version: 1\nentries:\n"+m[2]))
	if err != nil || len(f.Entries) != 1 {
		t.Fatalf("the summary's entries: %v\n%s", err, m[2])
	}
	e := f.Entries[0]
	if e.State != triage.FalsePositive || e.Reason != "3000 is the price in cents" || e.By != by || e.Link != link || e.Rule != "MagicNumber" || e.Path != "src/Cart.java" {
		t.Errorf("entry %+v", e)
	}
	src, err := os.ReadFile(filepath.Join(pr.repo.Dir, "src", "Cart.java"))
	if err != nil {
		t.Fatal(err)
	}
	want := ""
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "3000") {
			want = triage.Locations(src)[i]
		}
	}
	if e.Location != want {
		t.Errorf("location %s, want %s (the finding's line in the checked-out merge commit)", e.Location, want)
	}
	if head := strings.TrimSpace(pr.repo.Git("rev-parse", "HEAD")); e.Commit != head {
		t.Errorf("commit %q, want the checkout's %s (where a rename is followed from)", e.Commit, head)
	}
	if !strings.Contains(body, "ignored a reply by @\u200dmallory: no write access") {
		t.Errorf("the summary does not say the reader's reply was ignored:\n%s", body)
	}
}

// TestReviewRepliesGitHub: recap review --post comments on a finding; a
// writer replies "/recap false-positive …", a reader too; the next run
// does not comment on the finding again (the comment is not even
// counted as posted before), and its summary shows the entry to commit
// and says the reader's reply was ignored. Against GitHub's stand-in,
// which checks every request against GitHub's OpenAPI description.
func TestReviewRepliesGitHub(t *testing.T) {
	t.Parallel()
	pr := newMergePR(t)
	s := githubtest.New(t, "acme", "shop", 5, pr.hunks)
	s.Roles = map[string]string{"maria": "write", "mallory": "read"}
	event := githubtest.EventFile(t, githubtest.PullRequestEvent{Action: "synchronize", Owner: "acme", Repo: "shop", Number: 5, Head: pr.head, Base: pr.base})
	env := []string{"GITHUB_EVENT_PATH=" + event, "GITHUB_TOKEN=" + s.Token, "GITHUB_REPOSITORY=acme/shop"}
	args := []string{"review", "--post", "--write-interval", "0", "--api-url", s.URL, pr.sarif}
	out, errOut, code := recap(t, pr.repo.Dir, env, args...)
	rc, _, _, errs := s.Snapshot()
	if code != 0 || len(rc) != 1 || len(errs) > 0 {
		t.Fatalf("first run: exit %d, %d comments, %v\n%s%s", code, len(rc), errs, out, errOut)
	}
	reply := s.Reply(t, rc[0].ID, githubtest.By("maria"), "/recap false-positive 3000 is the price in cents")
	s.Reply(t, rc[0].ID, githubtest.By("mallory"), "/recap wont-fix me too")
	out, errOut, code = recap(t, pr.repo.Dir, env, args...)
	rc2, ic, reviews, errs := s.Snapshot()
	if code != 0 || len(errs) > 0 || reviews != 1 || len(rc2) != 3 || strings.Contains(out, "posted before") || !strings.Contains(out, "no new inline comment") {
		t.Log(ic[len(ic)-1].Body)
		t.Fatalf("second run: exit %d, %d reviews, %d review comments, %v\n%s%s", code, reviews, len(rc2), errs, out, errOut)
	}
	checkRepliedBody(t, pr, ic[len(ic)-1].Body, "maria", reply.HTMLURL)
	if !strings.Contains(ic[len(ic)-1].Body, "; 0 inline comments.") {
		t.Errorf("the summary counts the decided finding's comment:\n%s", ic[len(ic)-1].Body)
	}
	perms := 0
	for _, r := range s.Requests {
		if strings.HasSuffix(r, "/permission") {
			perms++
		}
	}
	if perms != 2 {
		t.Errorf("%d permission requests, want 2 (maria, mallory)", perms)
	}
}

// TestReviewRepliesGitLab: the same on a GitLab merge request: a
// Developer's reply in recap's discussion is honoured, a Reporter's is
// ignored.
func TestReviewRepliesGitLab(t *testing.T) {
	t.Parallel()
	pr := newMergePR(t)
	mergeBase := strings.TrimSpace(pr.repo.Git("merge-base", pr.base, pr.head))
	s := gitlabtest.New(t, "acme/shop", 9, pr.repo.Git("diff", pr.base+"..."+pr.head), mergeBase, pr.base, pr.head)
	maria, mallory := gitlabtest.User{ID: 71, Username: "maria", State: "active"}, gitlabtest.User{ID: 72, Username: "mallory", State: "active"}
	s.Members = map[int64]int{maria.ID: 30, mallory.ID: 20}
	env := []string{"CI_API_V4_URL=" + s.URL + "/api/v4", "CI_PROJECT_ID=42", "CI_MERGE_REQUEST_IID=9",
		"CI_MERGE_REQUEST_DIFF_BASE_SHA=" + mergeBase, "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA=" + pr.head,
		"GITLAB_TOKEN=" + s.Token, "CI_JOB_TOKEN=", "GITLAB_USER_LOGIN="}
	out, errOut, code := recap(t, pr.repo.Dir, env, "review", "--gitlab", pr.sarif)
	notes, discussions, errs := s.Snapshot()
	if code != 0 || discussions != 1 || len(errs) > 0 {
		t.Fatalf("first run: exit %d, %d discussions, %v\n%s%s", code, discussions, errs, out, errOut)
	}
	n := s.Reply(t, notes[0].ID, maria, "/recap false-positive 3000 is the price in cents")
	s.Reply(t, notes[0].ID, mallory, "/recap wont-fix me too")
	out, errOut, code = recap(t, pr.repo.Dir, env, "review", "--gitlab", pr.sarif)
	notes2, discussions, errs := s.Snapshot()
	if code != 0 || len(errs) > 0 || discussions != 1 || strings.Contains(out, "posted before") {
		t.Fatalf("second run: exit %d, %d discussions, %v\n%s%s", code, discussions, errs, out, errOut)
	}
	var summary string
	for _, x := range notes2 {
		if strings.HasPrefix(x.Body, review.SummaryMarker) {
			summary = x.Body
		}
	}
	checkRepliedBody(t, pr, summary, "maria", "https://gitlab.example/acme/shop/-/merge_requests/9#note_"+itoa(int(n.ID)))
}

// TestReviewReplyReplacesChanged: a finding decided in the triage file,
// its line then edited on the pull request's branch (check calls the
// entry changed): recap comments on the finding on the edited line, a
// writer replies "/recap false-positive …", and the next run's summary
// shows the new entry to commit and names the entry it replaces, to
// remove, as recap triage and analysis.triage replace it. Against
// GitHub's stand-in, which checks every request against GitHub's OpenAPI
// description.
func TestReviewReplyReplacesChanged(t *testing.T) {
	t.Parallel()
	g := gittest.New(t)
	src := "package shop;\n\npublic class Cart {\n    int count = 1;\n    int price = 2999;\n    int other = 2;\n}\n"
	base := g.Commit("base", map[string]string{"src/Cart.java": src})
	result := func(n string) string {
		return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","version":"7.0.0"}},"results":[` +
			`{"ruleId":"MagicNumber","level":"warning","message":{"text":"Avoid the magic number ` + n + `"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/Cart.java"},"region":{"startLine":5}}}]}]}]}`
	}
	e := triage.EntryFor(&reports.Finding{Tool: "PMD", Rule: "MagicNumber", Path: "src/Cart.java", Line: 5, Message: "Avoid the magic number 2999"}, os.DirFS(g.Dir))
	e.State, e.Reason, e.By, e.Date, e.Commit = triage.FalsePositive, "the price is set by the shop", "ana", "2026-11-20", base
	y, err := triage.EntriesYAML(e)
	if err != nil {
		t.Fatal(err)
	}
	base = g.Commit("triage", map[string]string{".recap/triage.yml": "version: 1\nentries:\n" + y})
	g.Git("checkout", "-q", "-b", "feature")
	head := g.Commit("feature: a new price", map[string]string{"src/Cart.java": strings.Replace(src, "2999", "3000", 1)})
	sarif := filepath.Join(t.TempDir(), "pmd.sarif")
	if err := os.WriteFile(sarif, []byte(result("3000")), 0o644); err != nil {
		t.Fatal(err)
	}
	s := githubtest.New(t, "acme", "shop", 5, githubtest.HunksOfGitDiff(g.Git("diff", base+".."+head)))
	s.Roles = map[string]string{"maria": "write"}
	event := githubtest.EventFile(t, githubtest.PullRequestEvent{Action: "synchronize", Owner: "acme", Repo: "shop", Number: 5, Head: head, Base: base})
	env := []string{"GITHUB_EVENT_PATH=" + event, "GITHUB_TOKEN=" + s.Token, "GITHUB_REPOSITORY=acme/shop"}
	args := []string{"review", "--post", "--write-interval", "0", "--api-url", s.URL, sarif}
	out, errOut, code := recap(t, g.Dir, env, args...)
	rc, _, _, errs := s.Snapshot()
	if code != 0 || len(rc) != 1 || len(errs) > 0 {
		t.Fatalf("first run: exit %d, %d comments, %v\n%s%s", code, len(rc), errs, out, errOut)
	}
	s.Reply(t, rc[0].ID, githubtest.By("maria"), "/recap false-positive 3000 is the price in cents")
	out, errOut, code = recap(t, g.Dir, env, args...)
	_, ic, _, errs := s.Snapshot()
	if code != 0 || len(errs) > 0 {
		t.Fatalf("second run: exit %d, %v\n%s%s", code, errs, out, errOut)
	}
	body := ic[len(ic)-1].Body
	want := "It replaces an entry of `.recap/triage.yml` that `recap triage check` calls changed: remove it when committing this one (or run `recap triage prune` after):\n\n" +
		"- PMD MagicNumber at src/Cart.java, on \"int price = 2999;\", false-positive (\"the price is set by the shop\"): its decided line was edited since\n"
	if !strings.Contains(body, want) {
		t.Errorf("the summary does not name the entry replaced; want\n%s\nin\n%s", want, body)
	}
	m := entriesBlock.FindStringSubmatch(body)
	if m == nil || !strings.Contains(m[2], "int price = 3000;") {
		t.Errorf("the summary's entry to commit: %q", m)
	}
}
