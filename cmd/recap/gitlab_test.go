package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/gfmtest"
	"github.com/recap-dev/recap/internal/gitlabtest"
)

// TestReviewOnGitLab: recap review --gitlab in a merged results pipeline
// (the merge commit checked out, the source branch's head in
// $CI_MERGE_REQUEST_SOURCE_BRANCH_SHA, the diff's base in
// $CI_MERGE_REQUEST_DIFF_BASE_SHA), against GitLab's stand-in: the
// discussion is on the head's line with the diff version's SHAs; a re-run
// posts nothing twice and updates the summary note; CI_JOB_TOKEN is
// refused by GitLab and recap says what to set, exit 3.
func TestReviewOnGitLab(t *testing.T) {
	pr := newMergePR(t)
	mergeBase := strings.TrimSpace(pr.repo.Git("merge-base", pr.base, pr.head))
	s := gitlabtest.New(t, "acme/shop", 9, pr.repo.Git("diff", pr.base+"..."+pr.head), mergeBase, pr.base, pr.head)
	env := []string{"CI_API_V4_URL=" + s.URL + "/api/v4", "CI_PROJECT_ID=42", "CI_MERGE_REQUEST_IID=9",
		"CI_MERGE_REQUEST_DIFF_BASE_SHA=" + mergeBase, "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA=" + pr.head,
		"GITLAB_TOKEN=" + s.Token, "CI_JOB_TOKEN=", "GITLAB_USER_LOGIN="}

	out, errOut, code := recap(t, pr.repo.Dir, env, "review", "--gitlab", pr.sarif)
	notes, discussions, errs := s.Snapshot()
	if code != 0 || len(errs) > 0 || discussions != 1 || len(notes) != 2 {
		t.Fatalf("exit %d, %d discussions, %d notes, protocol errors %v\n%s%s", code, discussions, len(notes), errs, out, errOut)
	}
	if !strings.HasPrefix(out, "recap review: 42!9: posted 1 discussion; posted the summary note ") {
		t.Errorf("stdout %q", out)
	}
	d := notes[0]
	if p := d.Position; p == nil || p.NewPath != "src/Cart.java" || p.NewLine == nil || *p.NewLine != pr.prLine || p.OldLine != nil ||
		p.BaseSHA != mergeBase || p.StartSHA != pr.base || p.HeadSHA != pr.head {
		t.Errorf("discussion at %+v, want src/Cart.java new_line %d", d.Position, pr.prLine)
	}
	if strings.Contains(d.Body, "@param") || !strings.Contains(d.Body, "<!-- recap:fp=") {
		t.Errorf("discussion body %q", d.Body)
	}
	summary := notes[1]
	if !strings.HasPrefix(summary.Body, "<!-- recap:summary -->") || !strings.Contains(summary.Body, "1 finding is on lines of the merge commit") {
		t.Errorf("summary note %q", summary.Body)
	}

	out, errOut, code = recap(t, pr.repo.Dir, env, "review", "--gitlab", "--fail-on", "warning", pr.sarif)
	notes2, discussions, _ := s.Snapshot()
	if code != 1 || discussions != 1 || len(notes2) != 2 || !strings.Contains(out, "no new discussion (1 posted before, skipped); updated the summary note") ||
		!strings.Contains(errOut, "quality gate failed") {
		t.Errorf("re-run: exit %d, %d discussions, %d notes\n%s%s", code, discussions, len(notes2), out, errOut)
	}

	jobEnv := append(append([]string(nil), env...), "GITLAB_TOKEN=", "CI_JOB_TOKEN="+s.JobToken, "GITLAB_USER_LOGIN=alice")
	_, errOut, code = recap(t, pr.repo.Dir, jobEnv, "review", "--gitlab", pr.sarif)
	if code != 3 || !strings.Contains(errOut, "GitLab answered 401") || !strings.Contains(errOut, "set GITLAB_TOKEN to a project access token with the api scope") {
		t.Errorf("job token: exit %d\n%s", code, errOut)
	}

	_, errOut, code = recap(t, pr.repo.Dir, append(append([]string(nil), env...), "CI_MERGE_REQUEST_IID="), "review", "--gitlab", pr.sarif)
	if code != 2 || !strings.Contains(errOut, "--gitlab needs the merge request") {
		t.Errorf("no merge request: exit %d\n%s", code, errOut)
	}
}

// TestReviewOnGitLabHostileURLs: findings whose messages carry URLs of
// every scheme (also with the colon written as an entity, which GitLab
// decodes before it autolinks any scheme://) are posted to GitLab's
// stand-in, and each note, rendered as GitLab renders it (cmark-gfm, then
// its reference and autolink filters on the text), links nothing.
func TestReviewOnGitLabHostileURLs(t *testing.T) {
	pr := newMergePR(t)
	hostile := []string{"see https://evil.example/x and javascript://%0aalert(1)", "ftp://files.example/a, custom-scheme://open?x=1",
		"entity https&#58;//evil.example and s3&colon;//bucket", "HTTPS://LOUD.example www.evil.example"}
	b, err := os.ReadFile(pr.sarif)
	if err != nil {
		t.Fatal(err)
	}
	var log map[string]any
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatal(err)
	}
	results := log["runs"].([]any)[0].(map[string]any)["results"].([]any)
	for i, r := range results {
		r.(map[string]any)["message"] = map[string]any{"text": hostile[i%len(hostile)]}
	}
	b, _ = json.Marshal(log)
	sarif := filepath.Join(t.TempDir(), "hostile.sarif")
	if err := os.WriteFile(sarif, b, 0o644); err != nil {
		t.Fatal(err)
	}
	mergeBase := strings.TrimSpace(pr.repo.Git("merge-base", pr.base, pr.head))
	s := gitlabtest.New(t, "acme/shop", 9, pr.repo.Git("diff", pr.base+"..."+pr.head), mergeBase, pr.base, pr.head)
	env := []string{"CI_API_V4_URL=" + s.URL + "/api/v4", "CI_PROJECT_ID=42", "CI_MERGE_REQUEST_IID=9",
		"CI_MERGE_REQUEST_DIFF_BASE_SHA=" + mergeBase, "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA=" + pr.head,
		"GITLAB_TOKEN=" + s.Token, "CI_JOB_TOKEN=", "GITLAB_USER_LOGIN="}
	out, errOut, code := recap(t, pr.repo.Dir, env, "review", "--gitlab", sarif)
	notes, _, errs := s.Snapshot()
	if code != 0 || len(errs) > 0 || len(notes) < 2 {
		t.Fatalf("exit %d, %d notes, protocol errors %v\n%s%s", code, len(notes), errs, out, errOut)
	}
	urls := 0
	for _, n := range notes {
		doc := gfmtest.Render(t, n.Body)
		for _, p := range append(gfmtest.Problems(doc), gfmtest.GitLabReferences(doc)...) {
			t.Errorf("note %d: %s", n.ID, p)
		}
		urls += strings.Count(gfmtest.Text(doc), "://")
	}
	if urls == 0 {
		t.Errorf("no note reads the URLs:\n%+v", notes)
	}
}
