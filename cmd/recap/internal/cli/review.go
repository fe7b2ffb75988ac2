package cli

import (
	"bytes"
	"fmt"
	"time"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/review"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/triage"
	"github.com/spf13/cobra"
)

// reviewFlags are review's own flags: where to post.
type reviewFlags struct {
	post          bool
	repoSlug      string
	pr            int
	apiURL        string
	commitID      string
	login         string
	checks        checksOptions
	gitlab        gitlabFlags
	annotations   bool
	jobSummary    bool
	writeInterval time.Duration
	// wholeReports: no changes were given (--filter-mode nofilter without
	// --base, --diff or an event): every finding, nothing anchored.
	wholeReports bool
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
its Markdown body alone (--format markdown), or a page to open in a browser
(--format html, best with --output FILE): the findings on changed lines, with
their code, in the HTML report (docs/html.md).

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
(--filter-mode file: the whole changed files), the most important first, at
most --max-annotations, 50 a request. Each run makes a new check run.

A token that cannot write (a pull request from a fork) makes recap write the
findings as workflow annotations and the summary to $GITHUB_STEP_SUMMARY
instead, without failing. Exit codes: 1 a quality gate failed, 2 bad input or
usage, 3 the review could not be posted (docs/cli.md).`,
		Example: `  recap review --base origin/main build/reports/
  recap review --base origin/main --format markdown build/reports/pmd.sarif
  GITHUB_TOKEN=… recap review --base origin/main --post --github-repo acme/shop --pr 42 build/reports/
  GITHUB_TOKEN=… recap review --checks --filter-mode file --fail-on error build/reports/   # in a pull_request workflow`,
		Args: needInputs("the reports to read (files, directories to search, or - for standard input)", "recap review --base origin/main build/reports/"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReview(cmd, streams, &opts, &rf, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.common.repo, "repo", "", "repository root for paths and the diff (default: the git top level of the current directory)")
	f.StringVar(&opts.common.format, "format", render.Default(render.Reviews), "output: "+render.Help(render.Reviews))
	f.StringVarP(&opts.common.output, "output", "o", "", "write the output to this file instead of standard output (html: the page to open; the file is made or replaced)")
	f.StringArrayVar(&opts.common.history, "history", nil, "recap's JSON summaries of earlier runs (recap summary --format json; files, or directories of .json files in name order), oldest first: html draws the problems by impact of each run and this one, --job-summary of each (as a Mermaid chart) (repeatable)")
	f.StringVar(&opts.common.inputFormat, "input-format", "", "read every input as this report format ("+parsers.FormatNames()+") instead of detecting it")
	opts.filters.register(cmd)
	opts.common.registerConfig(cmd)
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
	f.IntVar(&rf.checks.maxAnnotations, "max-annotations", review.DefaultMaxAnnotations, "--checks: the most annotations, the most important first (0: every finding)")
	f.BoolVar(&rf.gitlab.on, "gitlab", false, "post the review to a GitLab merge request: discussions on changed lines and a summary note (GITLAB_TOKEN or CI_JOB_TOKEN; the project and merge request from GitLab CI's variables)")
	f.StringVar(&rf.gitlab.project, "gitlab-project", "", "--gitlab: the project's id or path (default: $CI_PROJECT_ID)")
	f.IntVar(&rf.gitlab.mr, "mr", 0, "--gitlab: the merge request's iid (default: $CI_MERGE_REQUEST_IID)")
	f.StringVar(&rf.gitlab.login, "gitlab-login", "", "--gitlab: the username the token posts as, whose notes' markers recap trusts (default: GET /user; with CI_JOB_TOKEN, $GITLAB_USER_LOGIN)")
	f.BoolVar(&rf.annotations, "annotations", false, "write the findings kept as GitHub workflow annotations on stdout, on the head's lines (not with a check run made: it has them)")
	f.BoolVar(&rf.jobSummary, "job-summary", false, "append the job summary to $GITHUB_STEP_SUMMARY: the counts, then every finding kept that fits GitHub's 1 MiB, grouped by file")
	f.DurationVar(&rf.writeInterval, "write-interval", review.DefaultWriteInterval, "the least time between two writes to GitHub's API (GitHub asks for 1s between many writes; 0 for none)")
	f.StringVar(&rf.login, "github-login", "", "the account the token posts as, whose comments' markers recap trusts (default: $RECAP_GITHUB_LOGIN, else GET /user, else for an installation token github-actions[bot] and any App account)")
	return cmd
}

func runReview(cmd *cobra.Command, streams *IO, opts *reportOptions, rf *reviewFlags, args []string) error {
	ev, headFromEvent, err := rf.check(cmd, opts)
	if err != nil {
		return err
	}
	host, err := rf.host(ev, opts)
	if err != nil {
		return err
	}
	rr := &reviewRun{streams: streams, opts: opts, rf: rf, ev: ev, host: host}
	if rf.jobSummary && len(opts.common.history) > 0 {
		opts.common.historyJob = true
		if rr.trend, err = history(opts.common.history); err != nil {
			return err
		}
	}
	if c, ok := host.(*review.Client); ok && rf.checks.on {
		rr.checks = c // one client: its writes are paced together
	} else if rf.checks.on {
		if rr.checks, err = rf.githubClient(false, ev); err != nil {
			return err
		}
	}
	html := opts.common.format == "html"
	// The page shows each finding's code; the review's body does not.
	opts.changedOnly, opts.noContext = true, !html
	opts.limit, opts.maxTokens, opts.tokenizer = summarize.MaxLimit, budget.DefaultMaxTokens, "chars4"
	opts.common.maxChars = review.MaxBody
	rep, err := newReport(streams, opts, args, true)
	if err != nil {
		return err
	}
	defer rep.close()
	rep.fit = false // the review has its own limits (comments, body)
	if rf.wholeReports {
		rep.query.Changes = nil
	}
	if rep.stream != nil {
		// The page streams every finding the review keeps; the review
		// itself is made of its page of them.
		rep.query.Keep.Page = &pipeline.Page{Limit: opts.limit}
	}
	rr.collect(&rep.query)
	replied := rr.replies(cmd.Context(), &rep.query)
	if replied != nil && len(replied.Entries) > 0 && opts.common.triageFS != nil {
		// The decisions of the pull request's replies join the file's for
		// this run: their findings are triaged as if the entries were
		// committed (the body shows them, to commit).
		replied.Replaced = repliesReplace(cmd.Context(), &rep.query, opts.common.triageFile, opts.common.triageFS, opts.common.triageRoot, replied.Entries)
		rep.query.Triage = followed(triage.NewMatcher(triage.With(opts.common.triageFile, replied.Entries...), opts.common.triageFS, triageNow()), opts.common.triageRoot, streams.ErrOut)
	}
	if ch := rep.query.Changes; ch != nil && ch.Base != "" && ch.Head != "" {
		if ch.From, err = checkedOut(ch.Root, ch.Head, headFromEvent); err != nil {
			return err
		}
	}
	if rr.res, err = rep.run(cmd.Context(), opts); err != nil {
		return err
	}
	for _, w := range rep.triageWarnings { // in the job's log, as the other commands say them
		fmt.Fprintln(streams.ErrOut, w)
	}
	if h, ok := rep.stream.(*render.HTMLStream); ok {
		h.SetReview(rr.reviewOf())
	}
	rr.rep = rep
	rr.req = review.Build(review.Input{View: rr.res.View, Outside: rr.res.Outside, Files: rr.res.Files,
		Index: rr.res.Index, CommitID: rr.commitID(), NotInHead: rr.res.NotInHead, Lines: rr.lines(), Replied: replied,
		Locate: locator(&rep.query, rr.lines())})
	if err := rr.report(cmd.Context()); err != nil {
		return err
	}
	return rr.exit(rep.gate.Check(rr.res.View))
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

// locator returns the location of a finding's line in the checkout of the
// reports, as the triage file writes it, for the review's comments to
// carry (review.Input.Locate): where a reply to the comment finds the
// finding again, in the reports' lines. The view's lines are the head's
// when the reports were made on a merge commit (lines, the map that
// carried them): the checkout's line is the one it carries there. Nil
// when the reports' root cannot be opened.
func locator(q *pipeline.Query, lines *diff.LineMap) func(f *reports.Finding) string {
	files, ok := q.Reports.(pipeline.Files)
	if !ok {
		return nil
	}
	root, err := content.OpenRoot(files.Options.Root)
	if err != nil {
		return nil
	}
	read := map[string][]byte{} // each file once, however many comments it has
	return func(f *reports.Finding) string {
		g := *f
		if lines != nil && g.Line > 0 {
			src, ok := read[g.Path]
			if !ok {
				src, _ = readCapped(root, g.Path)
				read[g.Path] = src
			}
			if src == nil {
				return ""
			}
			g.Line = 0
			for l, n := 1, bytes.Count(src, []byte("\n"))+1; l <= n; l++ {
				if p, at, ok := lines.Map(f.Path, l); ok && p == f.Path && at == f.Line {
					g.Line = l
					break
				}
			}
			if g.Line == 0 {
				return ""
			}
		}
		return triage.EntryFor(&g, root.FS()).Location
	}
}
