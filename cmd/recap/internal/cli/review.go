package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

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
}

func newReview(streams *IO) *cobra.Command {
	var opts reportOptions
	var rf reviewFlags
	cmd := &cobra.Command{
		Use:   "review --base REV [--head REV] [flags] INPUT...",
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
$GITHUB_API_URL) points at GitHub Enterprise Server.`,
		Example: `  recap review --base origin/main build/reports/
  recap review --base origin/main --format markdown build/reports/pmd.sarif
  GITHUB_TOKEN=… recap review --base origin/main --post --github-repo acme/shop --pr 42 build/reports/`,
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
	f.StringVar(&rf.apiURL, "api-url", "", "GitHub's REST API URL (default: $GITHUB_API_URL or "+review.DefaultAPIURL+")")
	f.StringVar(&rf.commitID, "commit-id", "", "the head commit the review is on (default: the event's pull_request.head.sha; else GitHub takes the latest)")
	return cmd
}

func runReview(cmd *cobra.Command, streams *IO, opts *reportOptions, rf *reviewFlags, args []string) error {
	if err := opts.flagsChanged(cmd); err != nil {
		return err
	}
	if opts.common.format != "json" && opts.common.format != "markdown" {
		return usageError("--format: review writes json or markdown, not %q", opts.common.format)
	}
	if opts.changes.base == "" && opts.changes.file == "" {
		return usageError("review needs the changes: --base REV (the pull request's base branch), or --diff FILE")
	}
	var client *review.Client
	if rf.post {
		var err error
		if client, err = rf.client(); err != nil {
			return err
		}
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
	res, err := rep.run(cmd.Context(), opts)
	if err != nil {
		return err
	}
	commitID := rf.commitID
	if client != nil && commitID == "" {
		if ev := eventFile(); ev != nil {
			commitID = ev.PullRequest.Head.SHA
		}
	}
	req := review.Build(review.Input{View: res.View, Outside: res.Outside, Files: res.Files,
		Index: res.Index, CommitID: commitID})

	if client != nil {
		client.UserAgent = "recap/" + version()
		done, err := client.Post(cmd.Context(), req)
		if done != nil {
			reportPosted(streams, client, done)
		}
		if err != nil {
			return &exitError{code: exitUsage, err: fmt.Errorf("review: %w", err)}
		}
	} else if opts.common.format == "markdown" {
		fmt.Fprint(streams.Out, req.Body)
	} else {
		enc := json.NewEncoder(streams.Out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(req); err != nil {
			return err
		}
	}
	if res.View.Failed() {
		for _, in := range res.View.Inputs {
			if in.Error != "" {
				fmt.Fprintf(streams.ErrOut, "recap: %s\n", in.Error)
			}
		}
		return errInputs
	}
	return gateError(rep.gate.Check(res.View), opts)
}

func reportPosted(streams *IO, c *review.Client, done *review.Posted) {
	pr := fmt.Sprintf("%s/%s#%d", c.Owner, c.Repo, c.PR)
	switch {
	case done.ReviewID != 0:
		fmt.Fprintf(streams.Out, "recap review: %s: posted a review with %s", pr, render.Plural(done.Comments, "inline comment", "inline comments"))
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
func (rf *reviewFlags) client() (*review.Client, error) {
	c := &review.Client{Token: os.Getenv("GITHUB_TOKEN"), APIURL: rf.apiURL, PR: rf.pr, RetryWait: 2e9}
	if c.Token == "" {
		return nil, usageError("--post needs a token in GITHUB_TOKEN (in GitHub Actions: env: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }})")
	}
	if c.APIURL == "" {
		c.APIURL = os.Getenv("GITHUB_API_URL")
	}
	slug := rf.repoSlug
	ev := eventFile()
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
		return nil, usageError("--post needs the repository as OWNER/REPO: --github-repo, or $GITHUB_REPOSITORY (got %q)", slug)
	}
	if c.PR <= 0 {
		return nil, usageError("--post needs the pull request number: --pr N, or a pull_request event in $GITHUB_EVENT_PATH")
	}
	c.Owner, c.Repo = owner, repo
	return c, nil
}

// eventFile reads $GITHUB_EVENT_PATH when it is set and readable.
func eventFile() *review.Event {
	p := os.Getenv("GITHUB_EVENT_PATH")
	if p == "" {
		return nil
	}
	ev, err := review.ReadEvent(p)
	if err != nil {
		return nil
	}
	return ev
}
