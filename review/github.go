package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/summarize/render"
)

// DefaultAPIURL is GitHub.com's REST API; GitHub Enterprise Server has its
// own (https://HOST/api/v3), given by $GITHUB_API_URL in Actions.
const DefaultAPIURL = "https://api.github.com"

// apiVersion is the REST API version recap speaks.
const apiVersion = "2022-11-28"

// Client is GitHub's REST API for one repository and, to post reviews,
// one pull request: a [Host] whose inline comments go in one review and
// whose summary is a comment of the pull request.
type Client struct {
	APIURL string // DefaultAPIURL when ""
	Token  string
	Owner  string
	Repo   string
	PR     int
	// UserAgent names the client (GitHub requires one).
	UserAgent string
	HTTP      *http.Client
	// RetryWait is the pause before a GET that failed with 5xx is tried again.
	RetryWait time.Duration
	// WriteInterval is the least time between two writes
	// (DefaultWriteInterval when 0; negative: no pause).
	WriteInterval time.Duration
	// Account is the account recap posts as: only its comments' markers count
	// (anyone can write "<!-- recap:summary -->" in a comment). "" learns
	// it: GET /user answers for a personal or OAuth token; an installation
	// token (GITHUB_TOKEN in Actions, a GitHub App's) may not read /user,
	// and is then taken for GITHUB_TOKEN's github-actions[bot], the markers
	// of any App account ("Bot") counting too: an App posts as
	// <app-slug>[bot].
	Account string
	// Sleep waits d or until ctx ends (time.Sleep's when nil); Now is the
	// clock (time.Now when nil). Tests give their own.
	Sleep func(ctx context.Context, d time.Duration) error
	Now   func() time.Time

	// anyBot: the account is an installation's, taken for ActionsBot
	// without being told: the markers of any App account (a "Bot", such as
	// <app-slug>[bot]) count too, a person's never.
	anyBot bool

	waited time.Duration // on Retry-After, in this Post
	pace   pacer
	// listed is the review comments Threads read, which the next Earlier
	// takes instead of listing them again (replies_hosts.go).
	listed []json.RawMessage
}

// Rate-limit retries (docs/ci.md): a request GitHub answers with
// Retry-After (a secondary rate limit, or 429) is tried again after the
// time it asks, at most MaxTries times in all, and one Post waits at most
// MaxRetryWait in all; past that it fails and names the time to re-run at.
const (
	MaxTries     = 3
	MaxRetryWait = 60 * time.Second
)

// SecondaryWait is the least wait after a secondary rate limit that names
// no time (no Retry-After, requests left in the hour): GitHub's guidance
// is to wait at least a minute. recap does not wait it out: the error says
// when to re-run.
const SecondaryWait = time.Minute

// ActionsBot is the account GITHUB_TOKEN posts as in GitHub Actions.
const ActionsBot = "github-actions[bot]"

// MaxRefusedTries bounds the reviews GitHub may refuse (422) in one Post
// while recap looks for the comments it refuses: GitHub's answer does not
// say which comment it refused, so recap halves the comments until it
// finds them; past this many refusals, the comments not yet placed are
// listed in the summary together.
const MaxRefusedTries = 16

// Name implements [Host].
func (c *Client) Name() string { return "GitHub" }

// Target implements [Host]: OWNER/REPO#N.
func (c *Client) Target() string { return fmt.Sprintf("%s/%s#%d", c.Owner, c.Repo, c.PR) }

// Words implements [Host].
func (c *Client) Words() (comment, summary string) { return "inline comment", "summary comment" }

// Post posts req to the pull request (see [Post]).
func (c *Client) Post(ctx context.Context, req *Request) (*Posted, error) {
	if c.Token == "" {
		return nil, errors.New("no token: set GITHUB_TOKEN (in GitHub Actions, pass secrets.GITHUB_TOKEN with permissions pull-requests: write)")
	}
	c.waited = 0
	return Post(ctx, c, req)
}

// Login implements [Host]: the account recap posts as (see Client.Account).
func (c *Client) Login(ctx context.Context) (string, error) {
	if c.Account != "" {
		return c.Account, nil
	}
	login, err := c.rest().user(ctx, c.url("/user"), "login")
	var ae *APIError
	switch {
	case err == nil:
		c.Account = login
	case errors.As(err, &ae) && (ae.Status == http.StatusForbidden || ae.Status == http.StatusNotFound) && !ae.RateLimited:
		// "Resource not accessible by integration": an installation token,
		// GITHUB_TOKEN's or another App's, whose login no endpoint an
		// installation token may call tells (docs/ci.md).
		c.Account = ActionsBot
		c.anyBot = true
	default:
		return "", err
	}
	return c.Account, nil
}

// Earlier implements [Host]: the keys of login's review comments, and
// login's summary comment.
func (c *Client) Earlier(ctx context.Context, login string) (*Earlier, error) {
	e := &Earlier{Keys: map[string]bool{}}
	err := c.eachReviewComment(ctx, func(raw json.RawMessage) error {
		var cm issueComment
		if err := json.Unmarshal(raw, &cm); err != nil {
			return err
		}
		if k := KeyOf(cm.Body); k != "" && c.ours(cm.User, login) {
			e.Keys[k] = true
			e.noteAt(k, AtOf(cm.Body))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the pull request's review comments: %w", err)
	}
	exact := false // SummaryID is login's own
	err = c.rest().each(ctx, c.url(c.prPath("issues", "comments")), func(raw json.RawMessage) error {
		var ic issueComment
		if err := json.Unmarshal(raw, &ic); err != nil {
			return err
		}
		if !strings.Contains(ic.Body, SummaryMarker) {
			return nil
		}
		switch {
		case ic.User.Login == login && !exact: // login's own first
			e.SummaryID, exact = ic.ID, true
		case e.SummaryID == 0 && c.ours(ic.User, login):
			e.SummaryID = ic.ID
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the pull request's comments: %w", err)
	}
	return e, nil
}

// PostComments implements [Host]: the comments as one review. GitHub
// refuses a whole review (422) for one comment it cannot place, without
// saying which: recap then posts the halves as reviews of their own, and
// halves the refused ones again, until the refused comments are found (at
// most MaxRefusedTries refusals; the rest are refused together).
func (c *Client) PostComments(ctx context.Context, r *Request, comments []Comment) (int, []Refusal, error) {
	posted, tries := 0, 0
	var refused []Refusal
	var post func(cs []Comment) error
	post = func(cs []Comment) error {
		err := c.postReview(ctx, r, cs)
		var ae *APIError
		switch {
		case err == nil:
			posted += len(cs)
			return nil
		case !errors.As(err, &ae) || ae.Status != http.StatusUnprocessableEntity:
			return err
		}
		tries++
		if len(cs) == 1 || tries >= MaxRefusedTries {
			reason := "GitHub answered 422"
			if d := ae.Reason(); d != "" {
				reason += ": " + d
			}
			if len(cs) > 1 {
				reason += fmt.Sprintf(" (to %d comments together)", len(cs))
			}
			for _, cm := range cs {
				refused = append(refused, Refusal{Comment: cm, Reason: reason})
			}
			return nil
		}
		if err := post(cs[:len(cs)/2]); err != nil {
			return err
		}
		return post(cs[len(cs)/2:])
	}
	err := post(comments)
	return posted, refused, err
}

// postReview posts comments as one review of the pull request.
func (c *Client) postReview(ctx context.Context, r *Request, cs []Comment) error {
	body := fmt.Sprintf("recap: %s on changed lines, commented inline. The summary is the recap comment in the conversation.",
		english.Plural(len(cs), "finding", "findings"))
	event := r.Event
	if event == "" {
		event = "COMMENT"
	}
	return c.do(ctx, http.MethodPost, c.prPath("pulls", "reviews"), Request{CommitID: r.CommitID, Body: body, Event: event, Comments: cs}, nil)
}

// PostSummary implements [Host]: the summary comment, updated in place
// when earlier has one.
func (c *Client) PostSummary(ctx context.Context, earlier *Earlier, body string) (*Summary, error) {
	var out issueComment
	payload := map[string]string{"body": body}
	var err error
	if earlier != nil && earlier.SummaryID != 0 {
		err = c.do(ctx, http.MethodPatch, fmt.Sprintf("/repos/%s/%s/issues/comments/%d", c.Owner, c.Repo, earlier.SummaryID), payload, &out)
	} else {
		err = c.do(ctx, http.MethodPost, c.prPath("issues", "comments"), payload, &out)
	}
	if err != nil {
		return nil, err
	}
	return &Summary{ID: out.ID, URL: out.HTMLURL, Updated: earlier != nil && earlier.SummaryID != 0, Author: out.User.Login}, nil
}

type user struct {
	Login string `json:"login"`
	Type  string `json:"type"` // "Bot" for an App's account (github-actions[bot], <app-slug>[bot])
}

type issueComment struct {
	ID      int64  `json:"id"`
	Body    string `json:"body"`
	HTMLURL string `json:"html_url"`
	User    user   `json:"user"`
}

// ours reports whether a comment by u carries markers recap trusts: u is
// login, or, when the token is an installation's whose login recap could
// not learn, any App account (recap posting as <app-slug>[bot] finds its
// own comments; a person's planted marker still does not count).
func (c *Client) ours(u user, login string) bool {
	return u.Login == login || c.anyBot && u.Type == "Bot"
}

// prPath is /repos/{owner}/{repo}/{kind}/{number}/{what}.
func (c *Client) prPath(kind, what string) string {
	return fmt.Sprintf("/repos/%s/%s/%s/%d/%s", c.Owner, c.Repo, kind, c.PR, what)
}

func (c *Client) url(path string) string {
	base := c.APIURL
	if base == "" {
		base = DefaultAPIURL
	}
	return strings.TrimRight(base, "/") + path
}

func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	_, err := c.rest().send(ctx, method, c.url(path), in, out)
	return err
}

// rest is the REST call set-up of GitHub: its headers, its errors, and
// its writes paced by WriteInterval.
func (c *Client) rest() *restCall {
	c.pace.interval = c.WriteInterval
	if c.pace.interval == 0 {
		c.pace.interval = DefaultWriteInterval
	}
	return &restCall{http: c.HTTP, userAgent: c.UserAgent, retryWait: c.RetryWait, clock: &clock{sleep: c.Sleep, now: c.Now},
		waited: &c.waited, pace: &c.pace,
		header: func(req *http.Request) {
			req.Header.Set("Accept", "application/vnd.github+json")
			req.Header.Set("Authorization", "Bearer "+c.Token)
			req.Header.Set("X-GitHub-Api-Version", apiVersion)
		},
		refused: func(resp *http.Response, body []byte) (time.Duration, error) {
			e := apiError(resp.Request.Method, resp.Request.URL.String(), resp, body, c.now())
			return e.RetryAfter, e
		},
	}
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// APIError is an answer of GitHub's API that is not a success.
type APIError struct {
	Method, URL string
	Status      int
	Message     string
	Details     []string
	// RateLimited, with the time to try again at (zero when not said):
	// Retry-After's when GitHub sent it (a secondary rate limit), else the
	// primary limit's reset (X-RateLimit-Reset).
	RateLimited bool
	Reset       time.Time
	// RetryAfter is the wait GitHub asked for (Retry-After), 0 if none.
	RetryAfter time.Duration
	// Secondary: a secondary rate limit (requests too fast or too many at
	// once), which the hourly limit's counts do not show.
	Secondary bool
	// ReadOnly: the token may read but not write (403 "Resource not
	// accessible by integration"): a pull request from a fork, or a job
	// without the permissions.
	ReadOnly bool
	// NotApp: the endpoint takes only a GitHub App's token (403 "You must
	// authenticate via a GitHub App.", the Checks API to a personal token).
	NotApp bool
}

// Reason is GitHub's message and its details, on one line.
func (e *APIError) Reason() string {
	r := e.Message
	if len(e.Details) > 0 {
		if r != "" {
			r += ": "
		}
		r += strings.Join(e.Details, "; ")
	}
	return r
}

func (e *APIError) Error() string {
	what := fmt.Sprintf("GitHub answered %d to %s %s", e.Status, e.Method, e.URL)
	if e.Message != "" {
		what += ": " + e.Message
	}
	if len(e.Details) > 0 {
		what += " (" + strings.Join(e.Details, "; ") + ")"
	}
	switch {
	case e.RateLimited && e.RetryAfter > 0:
		return what + fmt.Sprintf("; GitHub's rate limit asks to wait %s (Retry-After): re-run after %s", e.RetryAfter, e.Reset.UTC().Format("15:04:05 MST"))
	case e.Secondary:
		return what + fmt.Sprintf("; this is GitHub's secondary rate limit (too many requests at once, not the hourly limit), which names no time: "+
			"GitHub asks to wait at least a minute; re-run after %s", e.Reset.UTC().Format("15:04:05 MST"))
	case e.NotApp:
		return what + "; the Checks API takes only a GitHub App's token (GITHUB_TOKEN in Actions, or an app's installation token), " +
			"not a personal access token: give --checks the job's GITHUB_TOKEN with the permission checks: write"
	case e.RateLimited && !e.Reset.IsZero():
		return what + fmt.Sprintf("; the API rate limit is used up until %s", e.Reset.UTC().Format("15:04:05 MST"))
	case e.RateLimited:
		return what + "; the API rate limit is used up, try again later"
	case e.Status == http.StatusUnauthorized:
		return what + "; check GITHUB_TOKEN"
	case e.ReadOnly:
		return what + "; the token cannot write here: give the job the permissions pull-requests: write and issues: write " +
			"(a pull request from a fork gets a read-only token: see docs/ci.md for commenting on forks)"
	case e.Status == http.StatusForbidden:
		return what + "; the token needs the permissions pull-requests: write and issues: write"
	case e.Status == http.StatusNotFound:
		return what + "; check the repository (--github-repo) and the pull request number (--pr), and that the token can see them"
	case e.Status == http.StatusUnprocessableEntity:
		return what + "; GitHub refuses a review whose comment is on a line outside the pull request's diff (its head against the merge base with its base): " +
			"give recap the pull request's head and base (the event file $GITHUB_EVENT_PATH, or --head and --base), with reports made on that head or on its merge commit"
	case e.Status >= 500:
		return what + "; GitHub failed, re-run later (comments already posted are not posted again)"
	}
	return what
}

func apiError(method, u string, resp *http.Response, body []byte, now time.Time) *APIError {
	e := &APIError{Method: method, URL: redact(u), Status: resp.StatusCode}
	var msg struct {
		Message string `json:"message"`
		Errors  []any  `json:"errors"`
	}
	if json.Unmarshal(body, &msg) == nil {
		e.Message = msg.Message
		for _, d := range msg.Errors {
			switch d := d.(type) {
			case string:
				e.Details = append(e.Details, d)
			case map[string]any:
				if m, ok := d["message"].(string); ok {
					e.Details = append(e.Details, m)
				} else if code, ok := d["code"].(string); ok {
					e.Details = append(e.Details, fmt.Sprintf("%v %v: %s", d["resource"], d["field"], code))
				}
			}
		}
	} else if len(body) > 0 {
		e.Message = render.OneLine(text.CutBytes(string(body), 200))
	}
	rateLimit(e, resp, now)
	e.ReadOnly = resp.StatusCode == http.StatusForbidden && !e.RateLimited && method != http.MethodGet &&
		strings.Contains(e.Message, "Resource not accessible by integration")
	e.NotApp = resp.StatusCode == http.StatusForbidden && strings.Contains(e.Message, "must authenticate via a GitHub App")
	return e
}

// rateLimit tells the rate limits apart as GitHub's guidance does ("Rate
// limits for the REST API", "Handle rate limit errors appropriately"):
// Retry-After names the wait; else X-RateLimit-Remaining 0 is the hourly
// limit, used up until X-RateLimit-Reset; else a 403 or 429 about a rate
// limit is a secondary limit, to wait at least a minute out.
func rateLimit(e *APIError, resp *http.Response, now time.Time) {
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusForbidden {
		return
	}
	retryAfter, hasRetry := parseRetryAfter(resp.Header.Get("Retry-After"), now)
	used := resp.Header.Get("X-RateLimit-Remaining") == "0"
	said := strings.Contains(strings.ToLower(e.Message), "rate limit")
	switch {
	case hasRetry:
		e.RateLimited, e.RetryAfter, e.Reset = true, retryAfter, now.Add(retryAfter)
	case used:
		e.RateLimited = true
		if s, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
			e.Reset = time.Unix(s, 0)
		}
	case said || resp.StatusCode == http.StatusTooManyRequests:
		e.RateLimited, e.Secondary, e.Reset = true, true, now.Add(SecondaryWait)
	}
}

// parseRetryAfter reads a Retry-After header: seconds, or an HTTP date.
func parseRetryAfter(h string, now time.Time) (time.Duration, bool) {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(h); err == nil && s >= 0 {
		return max(time.Duration(s)*time.Second, time.Second), true
	}
	if t, err := http.ParseTime(h); err == nil {
		return max(t.Sub(now), time.Second), true
	}
	return 0, false
}

// redact leaves the query out of a URL in messages.
func redact(u string) string {
	if p, err := url.Parse(u); err == nil {
		p.RawQuery = ""
		return p.String()
	}
	return u
}

// Event is what recap reads of a GitHub Actions event file
// ($GITHUB_EVENT_PATH) of a pull_request or pull_request_target event.
type Event struct {
	Number      int `json:"number"`
	PullRequest struct {
		Number int `json:"number"`
		Head   struct {
			SHA string `json:"sha"`
		} `json:"head"`
		Base struct {
			SHA string `json:"sha"`
		} `json:"base"`
	} `json:"pull_request"`
	Repository struct {
		FullName string `json:"full_name"`
	} `json:"repository"`
}

// MaxEventBytes bounds an event file: GitHub caps a webhook's payload at
// 25 MB, and a pull request's event is a few tens of KB.
const MaxEventBytes = 25 << 20

// ReadEvent reads an event file as recap reads a report: a regular file
// (a FIFO would block, a device never end), at most MaxEventBytes; the
// error names the file.
func ReadEvent(path string) (*Event, error) {
	f, st, err := content.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, content.PathErr(err))
	}
	defer f.Close()
	if st.Size() > MaxEventBytes {
		return nil, fmt.Errorf("%s: %d bytes, over the %d MiB of an event file: not a GitHub event file", path, st.Size(), MaxEventBytes>>20)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxEventBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, content.PathErr(err))
	}
	if len(b) > MaxEventBytes { // grew while read
		return nil, fmt.Errorf("%s: over the %d MiB of an event file: not a GitHub event file", path, MaxEventBytes>>20)
	}
	var e Event
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, fmt.Errorf("%s: not a GitHub event file: %w", path, err)
	}
	if e.PullRequest.Number == 0 {
		e.PullRequest.Number = e.Number
	}
	return &e, nil
}

// ReadOnly reports whether err says the token may not write to the pull
// request (see APIError.ReadOnly).
func ReadOnly(err error) bool {
	var e *APIError
	return errors.As(err, &e) && e.ReadOnly
}
