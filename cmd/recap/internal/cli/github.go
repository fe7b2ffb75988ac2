package cli

import (
	"os"
	"strings"

	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/review"
)

// GitHub's environment: the token ($GITHUB_TOKEN), the API
// ($GITHUB_API_URL), the repository ($GITHUB_REPOSITORY) and the pull
// request's event file ($GITHUB_EVENT_PATH), as GitHub Actions sets them;
// --github-repo, --pr and --api-url override them. $RECAP_GITHUB_LOGIN is
// --github-login's default (the Action's github-login input).

// githubClient makes the GitHub client; needPR asks for a pull request
// (--post; --checks needs the repository alone).
func (rf *reviewFlags) githubClient(needPR bool, ev *review.Event) (*review.Client, error) {
	c := &review.Client{Token: os.Getenv("GITHUB_TOKEN"), APIURL: rf.apiURL, PR: rf.pr, RetryWait: 2e9,
		UserAgent: "recap/" + version(), Account: rf.login, WriteInterval: rf.writeInterval}
	if c.Account == "" {
		c.Account = strings.TrimSpace(os.Getenv("RECAP_GITHUB_LOGIN")) // the Action's github-login input
	}
	if c.WriteInterval == 0 {
		c.WriteInterval = -1 // none
	}
	flag := "--post"
	if !needPR {
		flag = "--checks"
	}
	if c.Token == "" {
		return nil, usageError("%s needs a token in GITHUB_TOKEN (in GitHub Actions: env: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }})", flag)
	}
	if c.APIURL == "" {
		c.APIURL = os.Getenv("GITHUB_API_URL")
	}
	slug := rf.repoSlug
	if slug == "" {
		slug = os.Getenv("GITHUB_REPOSITORY")
	}
	if slug == "" && ev != nil {
		slug = ev.Repository.FullName
	}
	if c.PR == 0 && ev != nil {
		c.PR = ev.PullRequest.Number
	}
	owner, repo, ok := strings.Cut(slug, "/")
	if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
		return nil, usageError("%s needs the repository as OWNER/REPO: --github-repo, or $GITHUB_REPOSITORY (got %q)", flag, text.CutRunes(slug, maxEcho))
	}
	if c.PR <= 0 && needPR {
		return nil, usageError("--post needs the pull request number: --pr N, or a pull_request event in $GITHUB_EVENT_PATH")
	}
	c.Owner, c.Repo = owner, repo
	return c, nil
}

// eventFile reads $GITHUB_EVENT_PATH when it is set (nil when not); an
// event file that cannot be read is a usage error naming it, not a
// review made without it.
func eventFile() (*review.Event, error) {
	p := os.Getenv("GITHUB_EVENT_PATH")
	if p == "" {
		return nil, nil
	}
	ev, err := review.ReadEvent(p)
	if err != nil {
		return nil, usageError("$GITHUB_EVENT_PATH: %v", err)
	}
	return ev, nil
}
