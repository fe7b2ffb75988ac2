package cli

import (
	"os"
	"strconv"

	"github.com/recap-dev/recap/review"
)

// gitlabFlags are review's flags of GitLab merge requests.
type gitlabFlags struct {
	on      bool
	project string
	mr      int
	login   string
}

// gitlabChanges fills in the changes of a GitLab merge request pipeline:
// the diff's base is $CI_MERGE_REQUEST_DIFF_BASE_SHA (the merge base
// GitLab's diff starts from); in a merged results pipeline, which checks
// out a merge commit, the head is $CI_MERGE_REQUEST_SOURCE_BRANCH_SHA. It
// reports whether the head came from the environment.
func gitlabChanges(d *diffSource) bool {
	if d.file != "" {
		return false
	}
	if d.base == "" {
		d.base = os.Getenv("CI_MERGE_REQUEST_DIFF_BASE_SHA")
	}
	if d.head == "" && d.base != "" {
		if h := os.Getenv("CI_MERGE_REQUEST_SOURCE_BRANCH_SHA"); h != "" {
			d.head = h
			return true
		}
	}
	return false
}

// gitlabClient makes the GitLab client from the flags and the job's
// environment: $CI_API_V4_URL, $CI_PROJECT_ID, $CI_MERGE_REQUEST_IID, and
// $GITLAB_TOKEN (sent as PRIVATE-TOKEN) or else $CI_JOB_TOKEN (sent as
// JOB-TOKEN, whose account is $GITLAB_USER_LOGIN: a job token cannot read
// GET /user).
func gitlabClient(rf *reviewFlags, opts *reportOptions) (*review.GitLab, error) {
	g := &review.GitLab{APIURL: rf.apiURL, Project: rf.gitlab.project, MR: rf.gitlab.mr, Account: rf.gitlab.login, RetryWait: 2e9,
		UserAgent: "recap/" + version()}
	if g.APIURL == "" {
		g.APIURL = os.Getenv("CI_API_V4_URL")
	}
	if g.APIURL == "" {
		return nil, usageError("--gitlab needs GitLab's API URL: --api-url https://gitlab.example/api/v4, or $CI_API_V4_URL (set in GitLab CI)")
	}
	g.Token = os.Getenv("GITLAB_TOKEN")
	if g.Token == "" {
		if g.Token = os.Getenv("CI_JOB_TOKEN"); g.Token != "" {
			g.JobToken = true
			if g.Account == "" {
				g.Account = os.Getenv("GITLAB_USER_LOGIN")
			}
		}
	}
	if g.Token == "" {
		return nil, usageError("--gitlab needs a token: GITLAB_TOKEN (a project access token with the api scope, as a masked CI/CD variable), or CI_JOB_TOKEN")
	}
	if g.Project == "" {
		g.Project = os.Getenv("CI_PROJECT_ID")
	}
	if g.Project == "" {
		return nil, usageError("--gitlab needs the project: --gitlab-project ID, or $CI_PROJECT_ID (set in GitLab CI)")
	}
	if g.MR == 0 {
		if n, err := strconv.Atoi(os.Getenv("CI_MERGE_REQUEST_IID")); err == nil {
			g.MR = n
		}
	}
	if g.MR <= 0 {
		return nil, usageError("--gitlab needs the merge request: --mr IID, or $CI_MERGE_REQUEST_IID (set in merge request pipelines: rules: - if: $CI_PIPELINE_SOURCE == \"merge_request_event\")")
	}
	root, err := repoRoot(opts.common.repo)
	if err != nil {
		return nil, err
	}
	g.HeadSHA = headSHA(rf, "", opts.changes.head, root)
	return g, nil
}
