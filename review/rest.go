package review

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// restCall is what one JSON request to a code host's REST API needs of its
// client; send makes it, the same for every host (github.go, gitlab.go).
type restCall struct {
	http      *http.Client // nil: one with a 60 s timeout
	userAgent string       // "": "recap"
	header    func(*http.Request)
	// refused makes the error of an answer that is not a success, and says
	// the wait the host asked for (Retry-After; 0 when none).
	refused   func(resp *http.Response, body []byte) (time.Duration, error)
	retryWait time.Duration // before a GET that failed with 5xx or on the network is tried again
	clock     *clock
	waited    *time.Duration // on Retry-After so far, within MaxRetryWait
	pace      *pacer         // nil: writes are not paced
}

// clock is a client's time: Sleep waits d or until ctx ends (a timer when
// nil), Now tells the time (time.Now when nil). Tests give their own.
type clock struct {
	sleep func(ctx context.Context, d time.Duration) error
	now   func() time.Time
}

func (c *clock) Now() time.Time {
	if c == nil || c.now == nil {
		return time.Now()
	}
	return c.now()
}

// Sleep waits d or until ctx ends.
func (c *clock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	if c != nil && c.sleep != nil {
		return c.sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// DefaultWriteInterval is the least time between two writes (POST, PATCH,
// PUT, DELETE) of one GitHub client: GitHub's REST guidance asks for at
// least a second between many writes of one user or client, to keep clear
// of its secondary rate limits ("Best practices for using the REST API").
const DefaultWriteInterval = time.Second

// pacer spaces a client's writes by interval, from the end of one to the
// start of the next; reads are not paced.
type pacer struct {
	interval time.Duration
	last     time.Time // the previous write's end; zero before the first
}

// wait sleeps until interval has passed since the previous write.
func (p *pacer) wait(ctx context.Context, c *clock) error {
	if p == nil || p.interval <= 0 {
		return nil
	}
	if !p.last.IsZero() {
		if d := p.interval - c.Now().Sub(p.last); d > 0 {
			if err := c.Sleep(ctx, d); err != nil {
				return err
			}
		}
	}
	return nil
}

// done notes the end of a write.
func (p *pacer) done(c *clock) {
	if p != nil && p.interval > 0 {
		p.last = c.Now()
	}
}

func isWrite(method string) bool {
	return method != http.MethodGet && method != http.MethodHead
}

// send makes one request and decodes the answer into out. A write waits
// for its turn (the pacer). A GET is tried again once after a 5xx or a
// network error; any request answered with Retry-After is tried again
// after that time, within MaxTries and MaxRetryWait (past them, the
// answer's error says when to re-run).
func (c *restCall) send(ctx context.Context, method, u string, in, out any) (*http.Response, error) {
	var payload []byte
	if in != nil {
		var err error
		if payload, err = json.Marshal(in); err != nil {
			return nil, err
		}
	}
	hc := sameOriginClient(c.http)
	ua := c.userAgent
	if ua == "" {
		ua = "recap"
	}
	failedOnce := false // a GET's one retry after a 5xx or a network error
	var lastErr error
	for try := 0; try < MaxTries; try++ {
		if isWrite(method) {
			if err := c.pace.wait(ctx, c.clock); err != nil {
				return nil, err
			}
		}
		req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(payload))
		if err != nil {
			return nil, err
		}
		c.header(req)
		req.Header.Set("User-Agent", ua)
		if in != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		wait := time.Duration(-1)
		resp, err := hc.Do(req)
		if isWrite(method) {
			c.pace.done(c.clock)
		}
		if err != nil {
			lastErr = fmt.Errorf("%s %s: %w", method, redact(u), err)
			if method == http.MethodGet && !failedOnce && ctx.Err() == nil {
				failedOnce, wait = true, c.retryWait
			}
		} else {
			body, rerr := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
			resp.Body.Close()
			if rerr != nil {
				return resp, fmt.Errorf("%s %s: reading the answer: %w", method, redact(u), rerr)
			}
			if resp.StatusCode < 300 {
				if out != nil && len(body) > 0 {
					if err := json.Unmarshal(body, out); err != nil {
						return resp, fmt.Errorf("%s %s: the answer is not the JSON expected: %w", method, redact(u), err)
					}
				}
				return resp, nil
			}
			retryAfter, e := c.refused(resp, body)
			lastErr = e
			switch {
			case retryAfter > 0:
				if try+1 < MaxTries && *c.waited+retryAfter <= MaxRetryWait {
					wait = retryAfter
					*c.waited += wait
				}
			case resp.StatusCode >= 500 && method == http.MethodGet && !failedOnce:
				failedOnce, wait = true, c.retryWait
			}
			if wait < 0 {
				return resp, e
			}
		}
		if wait < 0 {
			return nil, lastErr
		}
		if err := c.clock.Sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
	return nil, lastErr
}

// MaxPages bounds a listing: 100 pages of 100 items.
const MaxPages = 100

var nextLink = regexp.MustCompile(`<([^>]+)>;\s*rel="next"`)

// each calls fn for every item of a listing at u, page after page, 100 a
// page: the next page is the Link header's rel="next" (GitHub, GitLab),
// else GitLab's X-Next-Page.
func (c *restCall) each(ctx context.Context, u string, fn func(json.RawMessage) error) error {
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	next := u + sep + "per_page=100"
	for pages := 0; next != "" && pages < MaxPages; pages++ {
		var items []json.RawMessage
		resp, err := c.send(ctx, http.MethodGet, next, nil, &items)
		if err != nil {
			return err
		}
		for _, it := range items {
			if err := fn(it); err != nil {
				return fmt.Errorf("GET %s: %w", redact(u), err)
			}
		}
		next = ""
		if m := nextLink.FindStringSubmatch(resp.Header.Get("Link")); m != nil {
			if next, err = sameOrigin(u, m[1]); err != nil {
				return fmt.Errorf("GET %s: the next page: %w", redact(u), err)
			}
		} else if p := resp.Header.Get("X-Next-Page"); p != "" {
			if _, err := strconv.Atoi(p); err == nil {
				next = u + sep + "per_page=100&page=" + p
			}
		}
	}
	return nil
}

// sameOrigin is the address ref (absolute, or relative to base) when it
// has base's scheme, host and port, so that the token is sent nowhere
// else; else an error that names both origins.
func sameOrigin(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("the Link header's address %q is not a URL: %v", redact(ref), err)
	}
	r = b.ResolveReference(r)
	if origin(r) != origin(b) {
		return "", fmt.Errorf("the Link header points to %s, not to the API at %s; recap sends its token to the API only and stopped", origin(r), origin(b))
	}
	return r.String(), nil
}

// origin is a URL's scheme, host and port (the scheme's default port
// written out).
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// sameOriginClient is hc (nil: one with a 60 s timeout) that follows a
// redirect only to the origin of the request it started from: the GitLab
// token travels in a header of its own (PRIVATE-TOKEN, JOB-TOKEN), which
// Go's client would carry to any host a redirect names.
func sameOriginClient(hc *http.Client) *http.Client {
	if hc == nil {
		hc = &http.Client{Timeout: 60 * time.Second}
	}
	c := *hc
	check := hc.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if origin(req.URL) != origin(via[0].URL) {
			return fmt.Errorf("redirected to %s, not to the API at %s; recap sends its token to the API only and stopped", origin(req.URL), origin(via[0].URL))
		}
		if check != nil {
			return check(req, via)
		}
		if len(via) >= 10 {
			return fmt.Errorf("stopped after 10 redirects")
		}
		return nil
	}
	return &c
}

// user is the account the token is of (GET /user): the value of its field
// named by field ("login" on GitHub, "username" on GitLab).
func (c *restCall) user(ctx context.Context, u, field string) (string, error) {
	var who map[string]any
	if _, err := c.send(ctx, http.MethodGet, u, nil, &who); err != nil {
		return "", err
	}
	name, _ := who[field].(string)
	if name == "" {
		return "", fmt.Errorf("GET /user gave no %s", field)
	}
	return name, nil
}
