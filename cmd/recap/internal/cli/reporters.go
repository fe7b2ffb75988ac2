package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/review"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/spf13/cobra"
)

// check checks review's flags and fills in the changes from the
// environment: a pull_request event ($GITHUB_EVENT_PATH) or GitLab CI's
// merge request variables. It returns the event, and whether the head
// came from it (then the checked-out commit must be the head or its
// merge commit).
func (rf *reviewFlags) check(cmd *cobra.Command, opts *reportOptions) (*review.Event, bool, error) {
	if err := opts.flagsChanged(cmd); err != nil {
		return nil, false, err
	}
	if _, err := render.Lookup(render.Reviews, opts.common.format); err != nil {
		return nil, false, usageError("--format: %v", err)
	}
	if opts.common.format == "html" && opts.common.output == "" && (rf.post || rf.checks.on || rf.gitlab.on || rf.annotations || rf.jobSummary) {
		// What goes to GitHub or GitLab may write annotations on standard output.
		return nil, false, usageError("--format html with --post, --checks, --gitlab, --annotations or --job-summary writes the page to a file: give --output FILE")
	}
	var ev *review.Event
	headFromEvent := false
	if rf.gitlab.on {
		if rf.post || rf.checks.on {
			return nil, false, usageError("--gitlab posts to GitLab; --post and --checks to GitHub: give one")
		}
		headFromEvent = gitlabChanges(&opts.changes)
	} else {
		var err error
		if ev, err = eventFile(); err != nil {
			return nil, false, err
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
		if pipeline.FilterMode(opts.changes.mode) != pipeline.NoFilter || opts.changes.head != "" {
			return nil, false, usageError("review needs the changes: --base REV (the pull request's base branch), --diff FILE, a pull_request event in $GITHUB_EVENT_PATH, " +
				"or with --gitlab $CI_MERGE_REQUEST_DIFF_BASE_SHA; or --filter-mode nofilter for every finding of the reports")
		}
		rf.wholeReports = true
	}
	switch {
	case rf.checks.maxAnnotations < 0:
		return nil, false, usageError("--max-annotations must be 0 (every finding) or more")
	case rf.writeInterval < 0:
		return nil, false, usageError("--write-interval must be 0 or more")
	case rf.jobSummary && os.Getenv("GITHUB_STEP_SUMMARY") == "":
		// Before anything is posted.
		return nil, false, usageError("--job-summary writes to $GITHUB_STEP_SUMMARY, which is not set (GitHub Actions sets it)")
	}
	return ev, headFromEvent, nil
}

// host is the code host the review is posted to, from the flags and its
// environment (github.go, gitlab.go); nil when it is only printed.
func (rf *reviewFlags) host(ev *review.Event, opts *reportOptions) (review.Host, error) {
	switch {
	case rf.post:
		return rf.githubClient(true, ev)
	case rf.gitlab.on:
		return gitlabClient(rf, opts)
	}
	return nil, nil
}

// reviewRun is one run of recap review: the query's result, the review
// made of it, and what each reporter did with them.
type reviewRun struct {
	streams *IO
	opts    *reportOptions
	rf      *reviewFlags
	ev      *review.Event
	host    review.Host
	checks  *review.Client // --checks

	rep       *report
	res       *pipeline.Result
	req       *review.Request
	annotated *review.Annotated
	job       *review.JobSummary
	trend     []render.HistoryRun // --history, for the job summary

	postFailed    bool
	readOnly      error  // the first write refused to a read-only token, when nothing was posted
	readOnlyWhat  string // what the token could not do
	fallbackBody  string // the summary the fallback writes
	checkRunMade  bool
	annotationsOK bool // the workflow annotations were written
}

// collect makes the query hand every finding it keeps to the check run's
// annotations and to the job summary, besides the review's page.
func (rr *reviewRun) collect(q *pipeline.Query) {
	var sinks []func(*reports.Finding)
	if rr.rf.checks.on {
		rr.annotated = &review.Annotated{Max: rr.rf.checks.maxAnnotations, Order: q.Order}
		sinks = append(sinks, rr.annotated.Add)
	}
	if rr.rf.jobSummary {
		rr.job = &review.JobSummary{Room: jobSummaryRoom(), Order: q.Order}
		sinks = append(sinks, rr.job.Add)
	}
	if len(sinks) == 0 {
		return
	}
	page := q.Keep.Each // the HTML page's, when it is written
	q.Keep.Early = nil  // the annotations and the job summary take each problem once, after the first pass
	q.Keep.Each = func(f *reports.Finding, state string) error {
		g := *f
		g.Baseline = state
		for _, add := range sinks {
			add(&g)
		}
		if page != nil {
			return page(f, state)
		}
		return nil
	}
}

// reviewOf is the change the review is of, as the HTML page names it.
func (rr *reviewRun) reviewOf() *render.ReviewOf {
	r := &render.ReviewOf{Files: len(rr.res.Files), Outside: rr.res.Outside, NotInHead: rr.res.NotInHead, Whole: rr.rf.wholeReports}
	if !r.Whole {
		ch := rr.opts.changes
		r.Base, r.Head, r.Diff = ch.base, ch.head, ch.file
		if r.Base != "" && r.Head == "" {
			r.Head = "HEAD"
		}
	}
	return r
}

// commitID is the head commit the review is on: --commit-id, or the
// event's head when the review is anchored on it.
func (rr *reviewRun) commitID() string {
	if rr.rf.commitID != "" {
		return rr.rf.commitID
	}
	if rr.ev != nil && rr.opts.changes.head == rr.ev.PullRequest.Head.SHA {
		return rr.ev.PullRequest.Head.SHA
	}
	return ""
}

// lines is the map the findings' lines were carried onto the head through
// (nil when the reports are of the head).
func (rr *reviewRun) lines() *diff.LineMap {
	if ch := rr.rep.query.Changes; ch != nil {
		return ch.Lines()
	}
	return nil
}

// reporting reports whether the review goes anywhere but stdout: the
// request is then written only to --output, when given.
func (rr *reviewRun) reporting() bool {
	return rr.host != nil || rr.checks != nil || rr.rf.annotations || rr.rf.jobSummary
}

// report runs the reporters in order: the review, the check run, the
// read-only fallback, the workflow annotations, the job summary; without
// any, it prints the review request.
func (rr *reviewRun) report(ctx context.Context) error {
	rr.post(ctx)
	rr.postChecks(ctx)
	steps := []func() error{rr.fallback, rr.annotations, rr.writeJobSummary, rr.print}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	reportInputs(rr.streams.ErrOut, rr.res.View, true)
	reportUnmatched(rr.streams.ErrOut, rr.res.Unmatched)
	return nil
}

// post posts the review to its host and says what was posted.
func (rr *reviewRun) post(ctx context.Context) {
	if rr.host == nil {
		return
	}
	done, err := review.Post(ctx, rr.host, rr.req)
	if done != nil {
		fmt.Fprintf(rr.streams.Out, "recap review: %s: %s\n", done.Target, done.Said())
		if len(done.Refused) > 0 {
			fmt.Fprintf(rr.streams.ErrOut, "recap: warning: review: %s refused comments on %s: %s; their findings are listed in the summary. "+
				"A line the host refuses is one its diff of the pull request does not show: give recap the pull request's head and base "+
				"(the event file $GITHUB_EVENT_PATH, or --head and --base; on GitLab, $CI_MERGE_REQUEST_DIFF_BASE_SHA)\n", done.Host, rr.host.Target(),
				render.InertLine(review.RefusedText(done.Refused)))
		}
		switch s := done.Summary; {
		case s == nil || s.Author == "" || s.Author == done.Login:
		case done.Login == review.ActionsBot && strings.HasSuffix(s.Author, "[bot]"):
			// An installation token: recap trusts any App account's markers.
			fmt.Fprintf(rr.streams.ErrOut, "recap: review: %s says the summary was posted by %s; recap takes the comments of any App account for its own: give %s %s (the Action's github-login input) to trust that account only\n",
				done.Host, s.Author, loginFlag(rr.host), s.Author)
		default:
			fmt.Fprintf(rr.streams.ErrOut, "recap: warning: review: %s says the summary was posted by %s, not %s: give %s %s so that later runs know recap's comments\n",
				done.Host, s.Author, done.Login, loginFlag(rr.host), s.Author)
		}
	}
	switch {
	case err == nil:
	case review.ReadOnly(err) && done == nil:
		rr.readOnly, rr.readOnlyWhat, rr.fallbackBody = err, "comment on "+rr.host.Target(), rr.req.BodyNoComments()
	default:
		fmt.Fprintf(rr.streams.ErrOut, "recap: review: %s: %s\n", rr.host.Target(), render.InertLine(err.Error()))
		rr.postFailed = true
	}
}

// loginFlag is the flag that names the account recap posts as on h.
func loginFlag(h review.Host) string {
	if h.Name() == "GitLab" {
		return "--gitlab-login"
	}
	return "--github-login"
}

// postChecks makes the check run and posts it.
func (rr *reviewRun) postChecks(ctx context.Context) {
	if rr.checks == nil {
		return
	}
	kept, omitted, noFile := rr.annotated.Findings()
	name := rr.rf.checks.name
	if name == "" {
		name = review.CheckName(rr.res.View.Inputs)
	}
	root := ""
	if ch := rr.rep.query.Changes; ch != nil {
		root = ch.Root
	} else {
		root, _ = repoRoot(rr.opts.common.repo)
	}
	idx := rr.res.Index // the files not analysed: the changed ones, unless the whole reports are
	if rr.rf.wholeReports {
		idx = nil
	}
	run := review.BuildCheck(review.CheckInput{View: rr.res.View, Findings: kept, Omitted: omitted, NoFile: noFile,
		Outside: rr.res.Outside, NotInHead: rr.res.NotInHead, Where: rr.where(), Name: name, Index: idx,
		HeadSHA:    headSHA(rr.rf, rr.commitID(), rr.opts.changes.head, root),
		Conclusion: conclusion(rr.rep.gate.Check(rr.res.View), rr.res.View.Failed(), &rr.opts.gate)})
	err := postChecks(ctx, rr.streams, rr.checks, run)
	switch {
	case err == nil:
		rr.checkRunMade = true
	case review.ReadOnly(err) && rr.readOnly == nil && !rr.rf.post:
		rr.readOnly, rr.readOnlyWhat, rr.fallbackBody = err, fmt.Sprintf("create check runs on %s/%s", rr.checks.Owner, rr.checks.Repo), run.Summary
	case review.ReadOnly(err) && rr.readOnly != nil:
		// the review's fallback writes the annotations and the summary
	default:
		fmt.Fprintf(rr.streams.ErrOut, "recap: review: %s\n", render.InertLine(err.Error()))
		rr.postFailed = true
	}
}

// where says which findings the filter mode keeps.
func (rr *reviewRun) where() string {
	if rr.rf.wholeReports {
		return "in the reports"
	}
	return where(rr.opts.changes.mode)
}

// fallback does what a read-only token allows (a pull request from a
// fork gets one): the findings as workflow annotations on stdout, the
// summary appended to the job summary (unless --job-summary writes it),
// and a note on stderr that says so once.
func (rr *reviewRun) fallback() error {
	if rr.readOnly == nil {
		return nil
	}
	where := "annotations"
	var werr error
	if file := os.Getenv("GITHUB_STEP_SUMMARY"); file != "" && !rr.rf.jobSummary {
		if werr = appendFile(file, rr.fallbackBody+"\n"); werr == nil {
			where += " and the job summary"
		}
	} else if rr.rf.jobSummary {
		where += " and the job summary"
	}
	fmt.Fprintf(rr.streams.ErrOut, "recap: review: the token cannot %s (%s): a pull request from a fork gets a read-only GITHUB_TOKEN. "+
		"Wrote the findings as %s instead; docs/ci.md shows how to comment on forks (workflow_run)\n",
		rr.readOnlyWhat, render.InertLine(readOnlyCause(rr.readOnly)), where)
	if werr != nil {
		fmt.Fprintf(rr.streams.ErrOut, "recap: warning: the job summary: %v\n", werr)
	}
	rr.annotationsOK = true
	return render.GitHub{}.Render(rr.streams.Out, rr.res.View)
}

// annotations writes the workflow annotations (--annotations), once: not
// again after the fallback, nor beside a check run, which has them all.
func (rr *reviewRun) annotations() error {
	if !rr.rf.annotations || rr.annotationsOK || rr.checkRunMade {
		return nil
	}
	rr.annotationsOK = true
	return render.GitHub{}.Render(rr.streams.Out, rr.res.View)
}

// writeJobSummary appends the job summary to $GITHUB_STEP_SUMMARY.
func (rr *reviewRun) writeJobSummary() error {
	if rr.job == nil {
		return nil
	}
	f, err := os.OpenFile(os.Getenv("GITHUB_STEP_SUMMARY"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	idx := rr.res.Index // the files not analysed: the changed ones, unless the whole reports are
	if rr.rf.wholeReports {
		idx = nil
	}
	err = rr.job.Write(f, review.JobSummaryInput{View: rr.res.View, Where: rr.where(), Outside: rr.res.Outside, NotInHead: rr.res.NotInHead, Index: idx, Trend: rr.trend,
		Rest: "the SARIF log (the action's sarif input, recap summary --format sarif) and recap findings --format json list every finding"})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// jobSummaryRoom is what GitHub's 1 MiB leaves of the step's summary.
func jobSummaryRoom() int {
	if st, err := os.Stat(os.Getenv("GITHUB_STEP_SUMMARY")); err == nil {
		return max(review.MaxJobSummary-int(st.Size()), 1)
	}
	return review.MaxJobSummary
}

// print writes the HTML page (--format html), else the review request
// (json) or its body (markdown) when the review goes nowhere else: to
// standard output or to --output.
func (rr *reviewRun) print() error {
	if rr.rep.stream != nil {
		// The HTML page, whatever else the review goes to.
		return writeOutput(rr.streams.Out, rr.opts.common.output, rr.rep, rr.res.View)
	}
	if rr.reporting() && rr.opts.common.output == "" {
		return nil // standard output has the annotations, or says what was posted
	}
	if path := rr.opts.common.output; path != "" {
		return writeTo(rr.streams.Out, path, rr.rep.format, rr.writeRequest)
	}
	out := rr.rep.format.Guard(rr.streams.Out)
	err := rr.writeRequest(out)
	if err == nil {
		err = out.Close()
	}
	return err
}

// writeRequest writes the review request (json) or its body (markdown).
func (rr *reviewRun) writeRequest(out io.Writer) error {
	var err error
	if rr.rep.format.JSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		err = enc.Encode(rr.req)
	} else {
		_, err = io.WriteString(out, rr.req.Body)
	}
	return err
}

// exit is the exit code: an input not read, then posting, then the gate.
func (rr *reviewRun) exit(gate error) error {
	if rr.res.View.Failed() {
		return errInputs
	}
	g := gateError(gate, rr.opts)
	if rr.postFailed {
		// The gate's verdict is printed all the same; the exit code says
		// that what was posted is incomplete (docs/cli.md, "Exit codes").
		if g != nil {
			fmt.Fprintf(rr.streams.ErrOut, "recap: %s\n", g)
		}
		return &exitError{code: exitPost}
	}
	return g
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
