package review

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/render"
)

// The Checks API's limits (GitHub's REST API description, "Create a check
// run"): at most 50 annotations a request, more added by updates of the
// check run; a summary of at most 65,535 characters; an annotation's title
// of at most 255 characters, its message and raw details of at most 64 KB.
const (
	AnnotationsPerRequest = 50
	MaxCheckSummary       = 65535
	maxAnnotationTitle    = 255
	maxAnnotationText     = 64 << 10
)

// maxAlsoDetails is the most other findings of a problem an annotation's
// raw details list, with their ids.
const maxAlsoDetails = 50

// DefaultMaxAnnotations is the most annotations recap adds to one check
// run by default (--max-annotations): 20 requests, well within the 1,000
// requests an hour GitHub grants a repository's GITHUB_TOKEN.
const DefaultMaxAnnotations = 1000

// CheckRun is a check run of recap's findings: what the create request
// and its updates send.
type CheckRun struct {
	Name       string
	HeadSHA    string
	Conclusion string // success, failure or neutral
	Title      string
	Summary    string // Markdown, inert report text
	// Annotations in view order (most important first: reports.Less).
	Annotations []Annotation
}

// Annotation is one annotation of a check run.
type Annotation struct {
	Path        string `json:"path"`
	StartLine   int    `json:"start_line"`
	EndLine     int    `json:"end_line"`
	StartColumn int    `json:"start_column,omitempty"`
	EndColumn   int    `json:"end_column,omitempty"`
	Level       string `json:"annotation_level"`
	Title       string `json:"title,omitempty"`
	Message     string `json:"message"`
	RawDetails  string `json:"raw_details,omitempty"`
}

// The conclusions recap gives a check run.
const (
	ConclusionSuccess = "success"
	ConclusionFailure = "failure"
	ConclusionNeutral = "neutral"
)

// CheckInput is what a check run is made of.
type CheckInput struct {
	// View holds the summary of the findings kept (by the filter mode).
	View *summarize.View
	// Findings are the findings to annotate, in view order, and Omitted the
	// others the cap left out (see Annotated).
	Findings []reports.Finding
	Omitted  int
	// NoFile counts the findings without a path, which cannot be annotated.
	NoFile int
	// Outside counts the findings the filter mode left out; NotInHead those
	// on lines only the merge commit has.
	Outside, NotInHead int
	// Where says which findings were kept: "on changed lines", "in changed
	// files", "in the reports".
	Where      string
	Name       string
	HeadSHA    string
	Conclusion string
	// Index, with changed lines only, is their index: the files a tool
	// could not analyse are named when they changed (nil: every one).
	Index *diff.Index
}

// CheckName is the check run's name: "recap: " and the tools of the
// inputs, in the order given ("recap: PMD, Checkstyle"), so that it stays
// the same from run to run (a branch protection rule names it).
func CheckName(inputs []reports.Input) string {
	var tools []string
	seen := map[string]bool{}
	for _, in := range inputs {
		if in.Tool != "" && !seen[in.Tool] {
			seen[in.Tool] = true
			tools = append(tools, render.PlainText(in.Tool))
		}
	}
	if len(tools) == 0 {
		return "recap"
	}
	return text.CutBytes("recap: "+strings.Join(tools, ", "), 200)
}

// BuildCheck makes the check run: an annotation per finding, the title and
// the Markdown summary.
func BuildCheck(in CheckInput) *CheckRun {
	run := &CheckRun{Name: in.Name, HeadSHA: in.HeadSHA, Conclusion: in.Conclusion}
	for i := range in.Findings {
		run.Annotations = append(run.Annotations, annotation(&in.Findings[i]))
	}
	s := in.View.Summary
	problems, _, _ := render.ProblemCounts(&s)
	sev := render.ProblemLevels(&s) // the annotations' levels
	switch {
	case s.Total == 0:
		run.Title = "No findings " + in.Where
	case problems < s.Total:
		// Each problem is annotated once: the title counts problems.
		run.Title = fmt.Sprintf("%s (%s) %s: %d error, %d warning, %d note", english.Plural(problems, "problem", "problems"),
			english.Plural(s.Total, "finding", "findings"), in.Where, sev.Error, sev.Warning, sev.Note)
	default:
		run.Title = fmt.Sprintf("%s %s: %d error, %d warning, %d note", english.Plural(s.Total, "finding", "findings"), in.Where,
			s.ByLevel.Error, s.ByLevel.Warning, s.ByLevel.Note)
	}
	run.Summary = checkSummary(in, len(run.Annotations))
	return run
}

// annotation is one finding as an annotation: its level from its impact
// (the tool's severity stays in the details), its lines (columns only on one line, as the API takes them),
// the tool and rule as title, the message, and the rule's details.
func annotation(f *reports.Finding) Annotation {
	a := Annotation{Path: f.Path, StartLine: max(f.Line, 1), Level: annotationLevel(f.Level())}
	a.EndLine = max(f.EndLine, a.StartLine)
	if a.EndLine == a.StartLine && f.Line > 0 && f.Column > 0 {
		a.StartColumn = f.Column
		if f.EndColumn >= f.Column {
			a.EndColumn = f.EndColumn
		}
	}
	a.Title = text.CutRunes(render.PlainText(f.Tool+" "+render.DisplayRule(f.Rule, f.RuleName)), maxAnnotationTitle)
	msg := render.PlainText(f.Message)
	if msg == "" {
		msg = render.PlainText(render.DisplayRule(f.Rule, f.RuleName))
	}
	var also []reports.Also
	if f.Detail != nil {
		also = f.Detail.Also
	}
	if note := render.AlsoReportedBy(also); note != "" {
		// The note is bounded (about 1 KB): the message makes room for it.
		msg = text.CutBytes(msg, maxAnnotationText-len(note)-16) + " (" + note + ")"
	}
	if f.Triage != nil { // confirmed, or a decision expired: bounded (about 1 KB)
		note := render.TriageNote(f.Triage)
		msg = text.CutBytes(msg, maxAnnotationText-len(note)-16) + " (" + note + ")"
	}
	a.Message = text.CutBytes(msg, maxAnnotationText-8)
	var d strings.Builder
	fmt.Fprintf(&d, "%s %s: %s rule", f.Severity, render.PlainText(f.Tool), render.PlainText(f.Rule))
	if f.Category != "" && f.Category != reports.CategoryOther {
		fmt.Fprintf(&d, ", category %s", render.PlainText(f.Category))
	}
	if f.Baseline == reports.BaselineNew {
		d.WriteString(", new against the baseline")
	}
	if f.Line <= 0 {
		d.WriteString("; about the whole file")
	}
	if u, ok := linkURI(f.HelpURI); ok {
		d.WriteString("\nHelp: " + u)
	}
	if f.Fingerprint != "" {
		d.WriteString("\nFingerprint: " + f.Fingerprint)
	}
	for i, o := range also[:min(len(also), maxAlsoDetails)] {
		if i == 0 {
			d.WriteString("\nThe same problem, also reported as:")
		}
		fmt.Fprintf(&d, "\n- %s %s (recap id %s)", render.PlainText(o.Tool), render.PlainText(o.Rule), o.ID)
	}
	if more := len(also) - maxAlsoDetails; more > 0 {
		fmt.Fprintf(&d, "\n- and %d more", more)
	}
	a.RawDetails = text.CutBytes(d.String(), maxAnnotationText-8)
	return a
}

// annotationLevel maps a finding's level (its impact's, [reports.HostLevel])
// onto the Checks API's levels.
func annotationLevel(s reports.Severity) string {
	switch s {
	case reports.SeverityError:
		return "failure"
	case reports.SeverityNote:
		return "notice"
	}
	return "warning"
}

// checkSummary is the check run's Markdown summary: the review body's
// counts, the annotations made and left out, the inputs not read, the
// categories.
func checkSummary(in CheckInput, annotated int) string {
	s := in.View.Summary
	var b strings.Builder
	fmt.Fprintf(&b, "### recap: %s %s\n\n", english.Plural(s.Total, "finding", "findings"), in.Where)
	fmt.Fprintf(&b, "%s; %s.", countsLine(&s), english.Plural(annotated, "annotation", "annotations"))
	writeProblems(&b, &s, "annotated")
	if in.Outside > 0 {
		fmt.Fprintf(&b, " %s in the reports %s not %s (not annotated).", english.Plural(in.Outside, "more finding", "more findings"),
			map[bool]string{true: "is", false: "are"}[in.Outside == 1], in.Where)
	}
	b.WriteString("\n\n")
	if in.Omitted > 0 {
		fmt.Fprintf(&b, "%s not annotated: the first %d (most important first) are (--max-annotations).\n\n",
			english.Plural(in.Omitted, "finding is", "findings are"), annotated)
	}
	if in.NoFile > 0 {
		fmt.Fprintf(&b, "%s without a file, which an annotation cannot show.\n\n", english.Plural(in.NoFile, "finding is", "findings are"))
	}
	if in.NotInHead > 0 {
		fmt.Fprintf(&b, "%s on lines of the merge commit that the pull request's head has not (from the base branch): not annotated.\n\n",
			english.Plural(in.NotInHead, "finding is", "findings are"))
	}
	writeCounts(&b, in.View)
	writeNotAnalysed(&b, in.View, in.Index)
	fmt.Fprintf(&b, "Conclusion: **%s**.\n", in.Conclusion)
	return text.CutRunes(b.String(), MaxCheckSummary)
}

// CheckPosted says what PostCheck did.
type CheckPosted struct {
	ID      int64
	HTMLURL string
	// Annotations were added, in Requests requests (the create and its updates).
	Annotations, Requests int
}

// checkRequest is the body of "create a check run" and of its updates.
type checkRequest struct {
	Name        string      `json:"name,omitempty"`
	HeadSHA     string      `json:"head_sha,omitempty"`
	Status      string      `json:"status,omitempty"`
	Conclusion  string      `json:"conclusion,omitempty"`
	StartedAt   string      `json:"started_at,omitempty"`
	CompletedAt string      `json:"completed_at,omitempty"`
	DetailsURL  string      `json:"details_url,omitempty"`
	Output      checkOutput `json:"output"`
}

type checkOutput struct {
	Title       string       `json:"title"`
	Summary     string       `json:"summary"`
	Annotations []Annotation `json:"annotations,omitempty"`
}

// PostCheck creates the check run, completed with its conclusion and the
// first 50 annotations, then adds the others 50 at a time by updating it
// (each update appends its annotations, as the API documents). A run of
// recap makes a new check run each time: GitHub shows the latest of a name
// on the commit, and keeps up to 1,000 of one name in a check suite. The
// client's PR is not needed. DetailsURL, when set, links the check run to
// the job that made it.
func (c *Client) PostCheck(ctx context.Context, run *CheckRun, detailsURL string) (*CheckPosted, error) {
	if c.Token == "" {
		return nil, errors.New("no token: set GITHUB_TOKEN (in GitHub Actions, pass secrets.GITHUB_TOKEN with permissions checks: write)")
	}
	if run.HeadSHA == "" {
		return nil, errors.New("no head commit for the check run: give --head or --commit-id (in a pull_request workflow the event file gives it)")
	}
	c.waited = 0
	now := c.now().UTC().Format(time.RFC3339)
	first := run.Annotations[:min(len(run.Annotations), AnnotationsPerRequest)]
	req := checkRequest{Name: run.Name, HeadSHA: run.HeadSHA, Status: "completed", Conclusion: run.Conclusion,
		StartedAt: now, CompletedAt: now, DetailsURL: detailsURL,
		Output: checkOutput{Title: run.Title, Summary: run.Summary, Annotations: first}}
	var out struct {
		ID      int64  `json:"id"`
		HTMLURL string `json:"html_url"`
	}
	path := fmt.Sprintf("/repos/%s/%s/check-runs", c.Owner, c.Repo)
	if err := c.do(ctx, http.MethodPost, path, req, &out); err != nil {
		return nil, fmt.Errorf("creating the check run %q: %w; nothing was posted", run.Name, checkError(err))
	}
	done := &CheckPosted{ID: out.ID, HTMLURL: out.HTMLURL, Annotations: len(first), Requests: 1}
	for rest := run.Annotations[len(first):]; len(rest) > 0; {
		batch := rest[:min(len(rest), AnnotationsPerRequest)]
		rest = rest[len(batch):]
		upd := checkRequest{Output: checkOutput{Title: run.Title, Summary: run.Summary, Annotations: batch}}
		if err := c.do(ctx, http.MethodPatch, fmt.Sprintf("%s/%d", path, out.ID), upd, nil); err != nil {
			return done, fmt.Errorf("the check run %s was created with %s, but adding %d more failed: %w",
				out.HTMLURL, english.Plural(done.Annotations, "annotation", "annotations"), len(batch)+len(rest), checkError(err))
		}
		done.Annotations += len(batch)
		done.Requests++
	}
	return done, nil
}

// checkError explains a refusal of the Checks API: its own words for a
// 422 and a 403 (the review's explanations are about review comments).
func checkError(err error) error {
	var e *APIError
	if !errors.As(err, &e) {
		return err
	}
	what := fmt.Sprintf("GitHub answered %d to %s %s", e.Status, e.Method, e.URL)
	if e.Message != "" {
		what += ": " + e.Message
	}
	if len(e.Details) > 0 {
		what += " (" + strings.Join(e.Details, "; ") + ")"
	}
	switch {
	case e.NotApp:
		return err // its own words say what the Checks API takes
	case e.Status == http.StatusUnprocessableEntity:
		return &checkAPIError{err: e, text: what + "; GitHub refused the check run: its head_sha must be a commit of the repository " +
			"(give --head or --commit-id the pull request's head), and each annotation a path, lines and a level it accepts"}
	case e.ReadOnly || e.Status == http.StatusForbidden && !e.RateLimited:
		return &checkAPIError{err: e, text: what + "; the token cannot create check runs: give the job the permission checks: write " +
			"(a pull request from a fork gets a read-only token)"}
	}
	return err
}

// checkAPIError is an APIError explained for the Checks API.
type checkAPIError struct {
	err  *APIError
	text string
}

func (e *checkAPIError) Error() string { return e.text }
func (e *checkAPIError) Unwrap() error { return e.err }
