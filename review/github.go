package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/summarize/render"
)

// DefaultAPIURL is GitHub.com's REST API; GitHub Enterprise Server has its
// own (https://HOST/api/v3), given by $GITHUB_API_URL in Actions.
const DefaultAPIURL = "https://api.github.com"

// apiVersion is the REST API version recap speaks.
const apiVersion = "2022-11-28"

// Client posts reviews to one pull request.
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
	// Login is the account recap posts as: only its comments' markers count
	// (anyone can write "<!-- recap:summary -->" in a comment). "" learns
	// it: GET /user answers for a personal or OAuth token; an installation
	// token (GITHUB_TOKEN in Actions, a GitHub App's) may not read /user,
	// and is then taken for GITHUB_TOKEN's github-actions[bot].
	Login string
	// Sleep waits d or until ctx ends (time.Sleep's when nil); Now is the
	// clock (time.Now when nil). Tests give their own.
	Sleep func(ctx context.Context, d time.Duration) error
	Now   func() time.Time

	waited time.Duration // on Retry-After, in this Post
}

// Rate-limit retries (docs/ci.md): a request GitHub answers with
// Retry-After (a secondary rate limit, or 429) is tried again after the
// time it asks, at most MaxTries times in all, and one Post waits at most
// MaxRetryWait in all; past that it fails and names the time to re-run at.
const (
	MaxTries     = 3
	MaxRetryWait = 60 * time.Second
)

// ActionsBot is the account GITHUB_TOKEN posts as in GitHub Actions.
const ActionsBot = "github-actions[bot]"

// Posted says what Post did.
type Posted struct {
	// ReviewID is the review made for the new inline comments (0: none needed).
	ReviewID int64
	// Comments were posted inline; Skipped were posted by an earlier run.
	Comments, Skipped int
	// SummaryID is the summary comment; SummaryUpdated when it was there before.
	SummaryID      int64
	SummaryURL     string
	SummaryUpdated bool
	// Login is the account recap took itself for; PostedAs the one GitHub
	// says wrote the summary (they differ when an installation token is not
	// GITHUB_TOKEN's: give its login, e.g. my-app[bot]).
	Login, PostedAs string
}

// Post posts req to the pull request: the inline comments that an earlier
// run has not posted, as one review, then the summary as the pull request's
// recap comment, updated in place when it is there already. A review with a
// bad anchor fails whole at GitHub, so an error before the review leaves
// nothing posted; the error says what was posted when it comes after.
func (c *Client) Post(ctx context.Context, req *Request) (*Posted, error) {
	if c.Token == "" {
		return nil, errors.New("no token: set GITHUB_TOKEN (in GitHub Actions, pass secrets.GITHUB_TOKEN with permissions pull-requests: write)")
	}
	c.waited = 0
	done := &Posted{}
	login, err := c.login(ctx)
	if err != nil {
		return nil, fmt.Errorf("finding the account the token posts as: %w; nothing was posted", err)
	}
	done.Login = login
	posted, err := c.postedKeys(ctx, login)
	if err != nil {
		return nil, fmt.Errorf("reading the pull request's review comments: %w; nothing was posted", err)
	}
	var fresh []Comment
	for _, cm := range req.Comments {
		if posted[cm.Key] {
			done.Skipped++
			continue
		}
		fresh = append(fresh, cm)
	}
	if len(fresh) > 0 {
		body := fmt.Sprintf("recap: %s on changed lines, commented inline. The summary is the recap comment in the conversation.",
			english.Plural(len(fresh), "finding", "findings"))
		var out struct {
			ID int64 `json:"id"`
		}
		r := Request{CommitID: req.CommitID, Body: body, Event: req.Event, Comments: fresh}
		if err := c.do(ctx, http.MethodPost, c.prPath("pulls", "reviews"), r, &out); err != nil {
			return nil, fmt.Errorf("posting the review with %s: %w; nothing was posted",
				english.Plural(len(fresh), "inline comment", "inline comments"), err)
		}
		done.ReviewID, done.Comments = out.ID, len(fresh)
	}
	if err := c.postSummary(ctx, login, req.Body, done); err != nil {
		what := "no review was needed (every inline comment was posted before)"
		if done.ReviewID != 0 {
			what = fmt.Sprintf("the review with %s was posted", english.Plural(done.Comments, "inline comment", "inline comments"))
		}
		return done, fmt.Errorf("%s, but the summary comment was not: %w", what, err)
	}
	return done, nil
}

// login is the account recap posts as (see Client.Login).
func (c *Client) login(ctx context.Context) (string, error) {
	if c.Login != "" {
		return c.Login, nil
	}
	var u user
	err := c.do(ctx, http.MethodGet, "/user", nil, &u)
	var ae *APIError
	switch {
	case err == nil && u.Login != "":
		c.Login = u.Login
	case errors.As(err, &ae) && (ae.Status == http.StatusForbidden || ae.Status == http.StatusNotFound) && !ae.RateLimited:
		// "Resource not accessible by integration": an installation token.
		c.Login = ActionsBot
	case err == nil:
		return "", errors.New("GET /user gave no login")
	default:
		return "", err
	}
	return c.Login, nil
}

type user struct {
	Login string `json:"login"`
}

// postSummary updates recap's summary comment, or makes it.
func (c *Client) postSummary(ctx context.Context, login, body string, done *Posted) error {
	var found *issueComment
	err := c.each(ctx, c.prPath("issues", "comments"), func(raw json.RawMessage) error {
		var ic issueComment
		if err := json.Unmarshal(raw, &ic); err != nil {
			return err
		}
		if found == nil && ic.User.Login == login && strings.Contains(ic.Body, SummaryMarker) {
			found = &ic
		}
		return nil
	})
	if err != nil {
		return err
	}
	var out issueComment
	payload := map[string]string{"body": body}
	if found != nil {
		err = c.do(ctx, http.MethodPatch, fmt.Sprintf("/repos/%s/%s/issues/comments/%d", c.Owner, c.Repo, found.ID), payload, &out)
		done.SummaryUpdated = err == nil
	} else {
		err = c.do(ctx, http.MethodPost, c.prPath("issues", "comments"), payload, &out)
	}
	done.SummaryID, done.SummaryURL, done.PostedAs = out.ID, out.HTMLURL, out.User.Login
	return err
}

type issueComment struct {
	ID      int64  `json:"id"`
	Body    string `json:"body"`
	HTMLURL string `json:"html_url"`
	User    user   `json:"user"`
}

// postedKeys reads the keys of the inline comments login already posted
// on the pull request.
func (c *Client) postedKeys(ctx context.Context, login string) (map[string]bool, error) {
	keys := map[string]bool{}
	err := c.each(ctx, c.prPath("pulls", "comments"), func(raw json.RawMessage) error {
		var cm struct {
			Body string `json:"body"`
			User user   `json:"user"`
		}
		if err := json.Unmarshal(raw, &cm); err != nil {
			return err
		}
		if k := KeyOf(cm.Body); k != "" && cm.User.Login == login {
			keys[k] = true
		}
		return nil
	})
	return keys, err
}

// prPath is /repos/{owner}/{repo}/{kind}/{number}/{what}.
func (c *Client) prPath(kind, what string) string {
	return fmt.Sprintf("/repos/%s/%s/%s/%d/%s", c.Owner, c.Repo, kind, c.PR, what)
}

var nextLink = regexp.MustCompile(`<([^>]+)>;\s*rel="next"`)

// each calls fn for every item of a listing, page after page (100 a page,
// following the Link header).
func (c *Client) each(ctx context.Context, path string, fn func(json.RawMessage) error) error {
	next := c.url(path) + "?per_page=100"
	for pages := 0; next != "" && pages < 100; pages++ {
		var items []json.RawMessage
		resp, err := c.send(ctx, http.MethodGet, next, nil, &items)
		if err != nil {
			return err
		}
		for _, it := range items {
			if err := fn(it); err != nil {
				return fmt.Errorf("GET %s: %w", path, err)
			}
		}
		next = ""
		if m := nextLink.FindStringSubmatch(resp.Header.Get("Link")); m != nil {
			next = m[1]
		}
	}
	return nil
}

func (c *Client) url(path string) string {
	base := c.APIURL
	if base == "" {
		base = DefaultAPIURL
	}
	return strings.TrimRight(base, "/") + path
}

func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	_, err := c.send(ctx, method, c.url(path), in, out)
	return err
}

// send makes one request to GitHub and decodes the answer into out (see
// restCall.send).
func (c *Client) send(ctx context.Context, method, u string, in, out any) (*http.Response, error) {
	call := restCall{http: c.HTTP, userAgent: c.UserAgent, retryWait: c.RetryWait, sleep: c.Sleep, waited: &c.waited,
		header: func(req *http.Request) {
			req.Header.Set("Accept", "application/vnd.github+json")
			req.Header.Set("Authorization", "Bearer "+c.Token)
			req.Header.Set("X-GitHub-Api-Version", apiVersion)
		},
		refused: func(resp *http.Response, body []byte) (time.Duration, error) {
			e := apiError(method, u, resp, body, c.now())
			return e.RetryAfter, e
		},
	}
	return call.send(ctx, method, u, in, out)
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
	// ReadOnly: the token may read but not write (403 "Resource not
	// accessible by integration"): a pull request from a fork, or a job
	// without the permissions.
	ReadOnly bool
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
		e.Message = render.OneLine(cut(string(body), 200))
	}
	retryAfter, hasRetry := parseRetryAfter(resp.Header.Get("Retry-After"), now)
	if resp.StatusCode == http.StatusTooManyRequests || (resp.StatusCode == http.StatusForbidden &&
		(hasRetry || resp.Header.Get("X-RateLimit-Remaining") == "0" || strings.Contains(strings.ToLower(e.Message), "rate limit"))) {
		e.RateLimited = true
		if hasRetry {
			e.RetryAfter = retryAfter
			e.Reset = now.Add(retryAfter)
		} else if s, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
			e.Reset = time.Unix(s, 0)
		}
	}
	e.ReadOnly = resp.StatusCode == http.StatusForbidden && !e.RateLimited && method != http.MethodGet &&
		strings.Contains(e.Message, "Resource not accessible by integration")
	return e
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
