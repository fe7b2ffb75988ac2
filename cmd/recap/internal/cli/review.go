package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/review"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/spf13/cobra"
)

// reviewFlags are review's own flags: where to post.
type reviewFlags struct {
	post     bool
	repoSlug string
	pr       int
	apiURL   string
	commitID string
	login    string
	checks   checksOptions
	gitlab   gitlabFlags
}

func newReview(streams *IO) *cobra.Command {
	var opts reportOptions
	var rf reviewFlags
	cmd := &cobra.Command{
		Use:   "review [--base REV [--head REV]] [flags] INPUT...",
		Short: "A pull-request review of the findings on changed lines: a Markdown summary and inline comments",
		Long: `review keeps the findings on the lines changed from the merge base of --base to
--head (default HEAD), or in a --diff file, and writes a GitHub review: a
Markdown body that starts with the summary (findings outside the diff are
counted, not listed) and at most 30 inline comments, each checked to sit on a
line of the diff's hunks (GitHub refuses a whole review for one bad anchor).
The output is the JSON of GitHub's "create a review" request (--format json),
or its Markdown body alone (--format markdown).

With --post it sends the review to GitHub's REST API with $GITHUB_TOKEN: the
inline comments not posted by an earlier run (each carries the finding's
fingerprint in a hidden marker), as one review, then the summary as a comment
of the pull request that later runs update in place. The repository and the
pull request number come from --github-repo and --pr, or from the GitHub
Actions event ($GITHUB_EVENT_PATH, $GITHUB_REPOSITORY); --api-url (or
$GITHUB_API_URL) points at GitHub Enterprise Server.

In a pull_request workflow the event file gives the diff GitHub shows: the
pull request's head against its merge base with the base (--base and --head
override). When the checked-out commit is the pull request's merge commit
(refs/pull/N/merge, what actions/checkout checks out), the findings' lines
are carried onto the head through the diff between the two; findings on
lines only the merge commit has are counted in the body, not commented. The
clone needs both commits (actions/checkout with fetch-depth: 0).

With --checks it creates a GitHub check run instead of (or, with --post,
besides) the review: named "recap: " and the inputs' tools (--check-name),
on the pull request's head commit, its conclusion the quality gate's
(success, failure, or neutral without --fail-on or --max-new), the review's
summary, and an annotation for every finding the filter mode keeps
(--filter-mode file: the whole changed files), the most severe first, at
most --max-annotations, 50 a request. Each run makes a new check run.

A token that cannot write (a pull request from a fork) makes recap write the
findings as workflow annotations and the summary to $GITHUB_STEP_SUMMARY
instead, without failing. Exit codes: 1 a quality gate failed, 2 bad input or
usage, 3 the review could not be posted (docs/cli.md).`,
		Example: `  recap review --base origin/main build/reports/
  recap review --base origin/main --format markdown build/reports/pmd.sarif
  GITHUB_TOKEN=… recap review --base origin/main --post --github-repo acme/shop --pr 42 build/reports/
  GITHUB_TOKEN=… recap review --checks --filter-mode file --fail-on error build/reports/   # in a pull_request workflow`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReview(cmd, streams, &opts, &rf, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.common.repo, "repo", "", "repository root for paths and the diff (default: the git top level of the current directory)")
	f.StringVar(&opts.common.format, "format", "json", "output: json (the review request) or markdown (its body)")
	f.StringVar(&opts.common.inputFormat, "input-format", "", "read every input as this report format ("+parsers.FormatNames()+") instead of detecting it")
	opts.filters.register(cmd)
	opts.changes.register(cmd, true)
	opts.changes.registerIndex(cmd)
	opts.gate.register(cmd)
	f.BoolVar(&rf.post, "post", false, "post the review to GitHub (needs GITHUB_TOKEN)")
	f.StringVar(&rf.repoSlug, "github-repo", "", "OWNER/REPO of the pull request (default: $GITHUB_REPOSITORY or the event file)")
	f.IntVar(&rf.pr, "pr", 0, "the pull request number (default: from $GITHUB_EVENT_PATH)")
	f.StringVar(&rf.apiURL, "api-url", "", "GitHub's REST API URL (default: $GITHUB_API_URL or "+review.DefaultAPIURL+"); with --gitlab, GitLab's (default: $CI_API_V4_URL)")
	f.StringVar(&rf.commitID, "commit-id", "", "the head commit the review is on (default: the event's pull_request.head.sha; else GitHub takes the latest)")
	f.BoolVar(&rf.checks.on, "checks", false, "create a GitHub check run of the findings (the Checks API; needs GITHUB_TOKEN with checks: write): an annotation for each finding the filter mode keeps, the quality gate's conclusion")
	f.StringVar(&rf.checks.name, "check-name", "", "--checks: the check run's name (default: \"recap: \" and the inputs' tools)")
	f.IntVar(&rf.checks.maxAnnotations, "max-annotations", review.DefaultMaxAnnotations, "--checks: the most annotations, most severe first (0: every finding)")
	f.BoolVar(&rf.gitlab.on, "gitlab", false, "post the review to a GitLab merge request: discussions on changed lines and a summary note (GITLAB_TOKEN or CI_JOB_TOKEN; the project and merge request from GitLab CI's variables)")
	f.StringVar(&rf.gitlab.project, "gitlab-project", "", "--gitlab: the project's id or path (default: $CI_PROJECT_ID)")
	f.IntVar(&rf.gitlab.mr, "mr", 0, "--gitlab: the merge request's iid (default: $CI_MERGE_REQUEST_IID)")
	f.StringVar(&rf.gitlab.login, "gitlab-login", "", "--gitlab: the username the token posts as, whose notes' markers recap trusts (default: GET /user; with CI_JOB_TOKEN, $GITLAB_USER_LOGIN)")
	f.StringVar(&rf.login, "github-login", "", "the account the token posts as, whose comments' markers recap trusts (default: GET /user, or github-actions[bot] for an installation token)")
	return cmd
}

func runReview(cmd *cobra.Command, streams *IO, opts *reportOptions, rf *reviewFlags, args []string) error {
	if err := opts.flagsChanged(cmd); err != nil {
		return err
	}
	if opts.common.format != "json" && opts.common.format != "markdown" {
		return usageError("--format: review writes json or markdown, not %q", opts.common.format)
	}
	var ev *review.Event
	headFromEvent := false
	if rf.gitlab.on {
		if rf.post || rf.checks.on {
			return usageError("--gitlab posts to GitLab; --post and --checks to GitHub: give one")
		}
		headFromEvent = gitlabChanges(&opts.changes)
	} else {
		var err error
		if ev, err = eventFile(); err != nil {
			return err
		}
	}
	if opts.changes.file == "" && ev != nil && ev.PullRequest.Head.SHA != "" {
		// The diff GitHub shows: the head against its merge base with the base.
		if opts.changes.base == "" {
			opts.changes.base = ev.PullRequest.Base.SHA
		}
		if opts.changes.head == "" {
			opts.changes.head, headFromEvent = ev.PullRequest.Head.SHA, true
		}
	}
	if opts.changes.base == "" && opts.changes.file == "" {
		return usageError("review needs the changes: --base REV (the pull request's base branch), --diff FILE, a pull_request event in $GITHUB_EVENT_PATH, or with --gitlab $CI_MERGE_REQUEST_DIFF_BASE_SHA")
	}
	var client *review.Client
	if rf.post || rf.checks.on {
		var err error
		if client, err = rf.client(rf.post); err != nil {
			return err
		}
	}
	var gl *review.GitLab
	if rf.gitlab.on {
		var err error
		if gl, err = gitlabClient(rf); err != nil {
			return err
		}
	}
	if rf.checks.maxAnnotations < 0 {
		return usageError("--max-annotations must be 0 (every finding) or more")
	}
	opts.changedOnly, opts.noContext = true, true
	opts.limit, opts.maxTokens, opts.tokenizer = summarize.MaxLimit, budget.DefaultMaxTokens, "chars4"
	opts.common.maxChars = review.MaxBody
	rep, err := newReport(streams, opts, args, true)
	if err != nil {
		return err
	}
	defer rep.close()
	rep.fit = false // the review has its own limits (comments, body)
	var annotated *review.Annotated
	if rf.checks.on {
		annotated = rf.checks.collect(&rep.query)
	}
	if ch := rep.query.Changes; ch != nil && ch.Base != "" && ch.Head != "" {
		if ch.From, err = checkedOut(ch.Root, ch.Head, headFromEvent); err != nil {
			return err
		}
	}
	res, err := rep.run(cmd.Context(), opts)
	if err != nil {
		return err
	}
	commitID := rf.commitID
	if commitID == "" && ev != nil && opts.changes.head == ev.PullRequest.Head.SHA {
		commitID = ev.PullRequest.Head.SHA
	}
	req := review.Build(review.Input{View: res.View, Outside: res.Outside, Files: res.Files,
		Index: res.Index, CommitID: commitID, NotInHead: res.NotInHead})

	postFailed := false
	var readOnly error // the first write refused to a read-only token, when nothing was posted
	fallbackTarget, fallbackSummary := "", req.Body
	if client != nil {
		client.UserAgent = "recap/" + version()
		client.Login = rf.login
	}
	if client != nil && rf.post {
		done, err := client.Post(cmd.Context(), req)
		switch {
		case err == nil:
			reportPosted(streams, client, done)
			if done.PostedAs != "" && done.PostedAs != done.Login {
				fmt.Fprintf(streams.ErrOut, "recap: warning: review: GitHub says the summary was posted by %s, not %s: give --github-login %s so that later runs know recap's comments\n",
					done.PostedAs, done.Login, done.PostedAs)
			}
		case review.ReadOnly(err) && (done == nil || done.ReviewID == 0 && done.SummaryID == 0):
			readOnly = err
			fallbackTarget = fmt.Sprintf("comment on %s/%s#%d", client.Owner, client.Repo, client.PR)
		default:
			if done != nil {
				reportPosted(streams, client, done)
			}
			fmt.Fprintf(streams.ErrOut, "recap: review: %s\n", render.InertLine(err.Error()))
			postFailed = true
		}
	}
	if client != nil && rf.checks.on {
		kept, omitted, noFile := annotated.Findings()
		name := rf.checks.name
		if name == "" {
			name = review.CheckName(res.View.Inputs)
		}
		run := review.BuildCheck(review.CheckInput{View: res.View, Findings: kept, Omitted: omitted, NoFile: noFile,
			Outside: res.Outside, NotInHead: res.NotInHead, Where: where(opts.changes.mode), Name: name,
			HeadSHA:    headSHA(rf, commitID, opts.changes.head, rep.query.Changes.Root),
			Conclusion: conclusion(rep.gate.Check(res.View), res.View.Failed(), &opts.gate)})
		err := postChecks(cmd.Context(), streams, client, run)
		switch {
		case err == nil:
		case review.ReadOnly(err) && !rf.post:
			readOnly = err
			fallbackTarget = fmt.Sprintf("create check runs on %s/%s", client.Owner, client.Repo)
			fallbackSummary = run.Summary
		case review.ReadOnly(err) && readOnly != nil:
			// the review's fallback writes the annotations and the summary
		default:
			fmt.Fprintf(streams.ErrOut, "recap: review: %s\n", render.InertLine(err.Error()))
			postFailed = true
		}
	}
	if readOnly != nil {
		if err := readOnlyFallback(streams, fallbackTarget, res.View, fallbackSummary, readOnly); err != nil {
			return err
		}
	}
	if gl != nil {
		gl.UserAgent = "recap/" + version()
		gl.HeadSHA = headSHA(rf, "", opts.changes.head, rep.query.Changes.Root)
		if !postGitLab(cmd.Context(), streams, gl, req, review.NewGitLabPositions(res.Files)) {
			postFailed = true
		}
	}
	if client == nil && gl == nil {
		out := guardOutput(streams.Out, opts.common.format)
		if opts.common.format == "markdown" {
			_, err = io.WriteString(out, req.Body)
		} else {
			enc := json.NewEncoder(out)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			err = enc.Encode(req)
		}
		if err == nil {
			err = out.Close()
		}
		if err != nil {
			return err
		}
	}
	reportInputs(streams.ErrOut, res.View)
	if res.View.Failed() {
		return errInputs
	}
	gate := gateError(rep.gate.Check(res.View), opts)
	if postFailed {
		// The gate's verdict is printed all the same; the exit code says
		// that what was posted is incomplete (docs/cli.md, "Exit codes").
		if gate != nil {
			fmt.Fprintf(streams.ErrOut, "recap: %s\n", gate)
		}
		return &exitError{code: exitPost}
	}
	return gate
}

// checkedOut says which commit the reports' lines are of, when the review
// is anchored on head: "" when HEAD is head, HEAD's hash when HEAD is a
// merge commit of head (refs/pull/N/merge, which actions/checkout checks
// out for a pull_request event). Another commit is an error when head came
// from the event (the lines would not match); with --head the reports are
// taken to be of it.
func checkedOut(root, head string, strict bool) (string, error) {
	repo, err := openRepo(root)
	if err != nil {
		return "", usageError("%v", err)
	}
	hc, err := repo.Commit("HEAD")
	if err != nil {
		return "", usageError("the checked-out commit: %v", err)
	}
	want, err := repo.Commit(head)
	if err != nil {
		return "", usageError("the pull request's head: %v", err)
	}
	if hc.Hash == want.Hash {
		return "", nil
	}
	for _, p := range hc.ParentHashes {
		if p == want.Hash && len(hc.ParentHashes) > 1 {
			return hc.Hash.String(), nil
		}
	}
	if !strict {
		return "", nil
	}
	return "", usageError("the checked-out commit %.12s is neither the pull request's head %.12s nor its merge commit (refs/pull/N/merge): "+
		"the reports' lines would not be the pull request's. Check out one of them and make the reports there "+
		"(actions/checkout checks out the merge commit for pull_request events; ref: ${{ github.event.pull_request.head.sha }} checks out the head)", hc.Hash, want.Hash)
}

// readOnlyFallback does what a read-only token allows (a pull request from
// a fork gets one): the findings as workflow annotations on stdout, the
// summary appended to the job summary ($GITHUB_STEP_SUMMARY), and a note
// on stderr that says so once.
func readOnlyFallback(streams *IO, target string, v *summarize.View, summary string, cause error) error {
	where := "annotations"
	summaryFile := os.Getenv("GITHUB_STEP_SUMMARY")
	var werr error
	if summaryFile != "" {
		werr = appendFile(summaryFile, summary+"\n")
		if werr == nil {
			where += " and the job summary"
		}
	}
	fmt.Fprintf(streams.ErrOut, "recap: review: the token cannot %s (%s): a pull request from a fork gets a read-only GITHUB_TOKEN. "+
		"Wrote the findings as %s instead; docs/ci.md shows how to comment on forks (workflow_run)\n",
		target, render.InertLine(readOnlyCause(cause)), where)
	if werr != nil {
		fmt.Fprintf(streams.ErrOut, "recap: warning: the job summary: %v\n", werr)
	}
	return render.GitHub{}.Render(streams.Out, v)
}

func readOnlyCause(err error) string {
	var e *review.APIError
	if errors.As(err, &e) {
		return fmt.Sprintf("GitHub answered %d to %s: %s", e.Status, e.Method, e.Message)
	}
	return err.Error()
}

func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func reportPosted(streams *IO, c *review.Client, done *review.Posted) {
	pr := fmt.Sprintf("%s/%s#%d", c.Owner, c.Repo, c.PR)
	switch {
	case done.ReviewID != 0:
		fmt.Fprintf(streams.Out, "recap review: %s: posted a review with %s", pr, english.Plural(done.Comments, "inline comment", "inline comments"))
	default:
		fmt.Fprintf(streams.Out, "recap review: %s: no new inline comment", pr)
	}
	if done.Skipped > 0 {
		fmt.Fprintf(streams.Out, " (%d posted before, skipped)", done.Skipped)
	}
	switch {
	case done.SummaryID != 0 && done.SummaryUpdated:
		fmt.Fprintf(streams.Out, "; updated the summary comment %s", done.SummaryURL)
	case done.SummaryID != 0:
		fmt.Fprintf(streams.Out, "; posted the summary comment %s", done.SummaryURL)
	}
	fmt.Fprintln(streams.Out)
}

// client makes the GitHub client from the flags, the environment and the
// Actions event file.
func (rf *reviewFlags) client(needPR bool) (*review.Client, error) {
	c := &review.Client{Token: os.Getenv("GITHUB_TOKEN"), APIURL: rf.apiURL, PR: rf.pr, RetryWait: 2e9}
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
	ev, err := eventFile()
	if err != nil {
		return nil, err
	}
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
		return nil, usageError("%s needs the repository as OWNER/REPO: --github-repo, or $GITHUB_REPOSITORY (got %q)", flag, slug)
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
