package review

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// restCall is what one JSON request to a code host's REST API needs of its
// client; send makes it, the same for GitHub and GitLab.
type restCall struct {
	http      *http.Client // nil: one with a 60 s timeout
	userAgent string       // "": "recap"
	header    func(*http.Request)
	// refused makes the error of an answer that is not a success, and says
	// the wait the host asked for (Retry-After; 0 when none).
	refused   func(resp *http.Response, body []byte) (time.Duration, error)
	retryWait time.Duration                                    // before a GET that failed with 5xx or on the network is tried again
	sleep     func(ctx context.Context, d time.Duration) error // nil: a timer
	waited    *time.Duration                                   // on Retry-After so far, within MaxRetryWait
}

// send makes one request and decodes the answer into out. A GET is tried
// again once after a 5xx or a network error; any request answered with
// Retry-After is tried again after that time, within MaxTries and
// MaxRetryWait (past them, the answer's error says when to re-run).
func (c *restCall) send(ctx context.Context, method, u string, in, out any) (*http.Response, error) {
	var payload []byte
	if in != nil {
		var err error
		if payload, err = json.Marshal(in); err != nil {
			return nil, err
		}
	}
	hc := c.http
	if hc == nil {
		hc = &http.Client{Timeout: 60 * time.Second}
	}
	ua := c.userAgent
	if ua == "" {
		ua = "recap"
	}
	failedOnce := false // a GET's one retry after a 5xx or a network error
	var lastErr error
	for try := 0; try < MaxTries; try++ {
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
		if err := sleepCtx(ctx, wait, c.sleep); err != nil {
			return nil, err
		}
	}
	return nil, lastErr
}

// sleepCtx waits d or until ctx ends, through sleep when a test gives one.
func sleepCtx(ctx context.Context, d time.Duration, sleep func(context.Context, time.Duration) error) error {
	if sleep != nil {
		return sleep(ctx, d)
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
