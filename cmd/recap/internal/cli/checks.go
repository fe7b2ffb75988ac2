package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/review"
)

// checksOptions are review's flags of the Checks API reporter.
type checksOptions struct {
	on             bool
	name           string
	maxAnnotations int
}

// where says which findings the filter mode keeps, for the check run's
// title and summary.
func where(mode string) string {
	switch pipeline.FilterMode(mode) {
	case pipeline.DiffContext:
		return "on the diff's lines"
	case pipeline.File:
		return "in changed files"
	case pipeline.NoFilter:
		return "in the reports"
	}
	return "on changed lines"
}

// conclusion is the check run's conclusion: failure when the gate failed or
// an input could not be read, success when it passed, neutral when no gate
// was asked for (--fail-on, --max-new).
func conclusion(gate error, failed bool, g *gateFlags) string {
	switch {
	case gate != nil || failed:
		return review.ConclusionFailure
	case g.failOn == "" && g.maxNew < 0:
		return review.ConclusionNeutral
	}
	return review.ConclusionSuccess
}

// headSHA is the commit the check run is on: --commit-id, the event's
// pull_request.head.sha when the review is anchored on it, the --head
// revision (or HEAD) resolved in the repository, else $GITHUB_SHA (or
// GitLab CI's $CI_COMMIT_SHA).
func headSHA(rf *reviewFlags, fromEvent, head, root string) string {
	switch {
	case rf.commitID != "":
		return rf.commitID
	case fromEvent != "":
		return fromEvent
	}
	if head == "" {
		head = "HEAD"
	}
	if repo, err := openRepo(root); err == nil {
		if c, err := repo.Commit(head); err == nil {
			return c.Hash.String()
		}
	}
	if sha := os.Getenv("GITHUB_SHA"); sha != "" {
		return sha
	}
	return os.Getenv("CI_COMMIT_SHA")
}

// detailsURL links the check run to the Actions job that made it.
func detailsURL() string {
	server, repo, id := os.Getenv("GITHUB_SERVER_URL"), os.Getenv("GITHUB_REPOSITORY"), os.Getenv("GITHUB_RUN_ID")
	if server == "" || repo == "" || id == "" {
		return ""
	}
	return server + "/" + repo + "/actions/runs/" + id
}

// postChecks makes the check run and posts it; it reports what it did on
// stdout.
func postChecks(ctx context.Context, streams *IO, c *review.Client, run *review.CheckRun) error {
	done, err := c.PostCheck(ctx, run, detailsURL())
	if done != nil {
		fmt.Fprintf(streams.Out, "recap review: %s/%s: created the check run %q %s (%s) with %s in %s\n",
			c.Owner, c.Repo, run.Name, done.HTMLURL, run.Conclusion,
			english.Plural(done.Annotations, "annotation", "annotations"), english.Plural(done.Requests, "request", "requests"))
	}
	return err
}
