// Package githubtest is a local stand-in for the parts of GitHub's REST API
// that recap review --post and --checks use (checks.go: check runs). It checks every request against GitHub's
// OpenAPI description (the operation, its path and query parameters, its
// request body with no field it does not define; see [Spec]) and GitHub's
// headers and limits, checks its own answers against the description too,
// answers as GitHub does (422 for a review comment on a line outside the
// diff, 403 for a read-only token or a used-up rate limit, GET /user refused
// to an installation token), and keeps what was posted for the test to read.
package githubtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Comment is an inline review comment or an issue comment as stored.
type Comment struct {
	ID        int64  `json:"id"`
	Path      string `json:"path,omitempty"`
	StartLine int    `json:"start_line,omitempty"`
	Line      int    `json:"line,omitempty"`
	Side      string `json:"side,omitempty"`
	Body      string `json:"body"`
	ReviewID  int64  `json:"pull_request_review_id,omitempty"`
	HTMLURL   string `json:"html_url"`
	User      User   `json:"user"`
	// InReplyToID is the review comment a reply answers (replies.go).
	InReplyToID int64  `json:"in_reply_to_id,omitempty"`
	CreatedAt   string `json:"created_at,omitempty"`
	// payload, when set, is the comment as GitHub sends it whole (a real
	// payload with this comment's fields put in it): the listing serves it.
	payload map[string]any
}

// User is a comment's author.
type User struct {
	Login string `json:"login"`
	ID    int64  `json:"id"`
	Type  string `json:"type"`
}

// ActionsBot is the account GITHUB_TOKEN posts as.
var ActionsBot = User{Login: "github-actions[bot]", ID: 41898282, Type: "Bot"}

// By returns a user of the given login.
func By(login string) User { return User{Login: login, ID: int64(len(login)) * 1000, Type: "User"} }

// Server is one repository with one pull request.
type Server struct {
	*httptest.Server
	t           testing.TB
	Owner, Repo string
	PR          int
	Token       string
	// Hunks: path → the [start, end] line ranges of the head side that the
	// pull request's diff shows; a review comment elsewhere is refused.
	Hunks map[string][][2]int

	mu             sync.Mutex
	nextID         int64
	ReviewComments []Comment
	IssueComments  []Comment
	Reviews        int
	Requests       []string // "METHOD path" of every request, in order
	writes         []time.Time
	// Fail, when set, answers a request instead of the normal handler:
	// return a status (0: handle normally) and a JSON body.
	Fail func(r *http.Request) (int, string, http.Header)
	// Errors are the protocol mistakes found in recap's requests.
	Errors []string
	// Poster is who the token posts as. A Bot (GITHUB_TOKEN's ActionsBot,
	// the default) is an installation: GET /user answers 403 to it; any
	// other is a personal token, which the Checks API refuses (403 "You
	// must authenticate via a GitHub App.").
	Poster User
	// ReadOnly makes every write answer 403 "Resource not accessible by
	// integration", as the GITHUB_TOKEN of a pull request from a fork does.
	ReadOnly bool
	// Roles are the repository roles of its collaborators by login
	// (admin, maintain, write, triage, read), as GET
	// /repos/{owner}/{repo}/collaborators/{username}/permission tells
	// them; any other user has read (a public repository). The role
	// "unavailable" answers 500, GitHub failing on that lookup.
	Roles map[string]string
	// CheckRuns are the check runs made (checks.go); Commits, when set, are
	// the commits a check run may be made on.
	CheckRuns []*CheckRun
	Commits   map[string]bool
	// Alerts are the repository's code scanning alerts (codescanning.go).
	Alerts []Alert
	spec   *Spec
}

// New starts a server; it stops with the test.
func New(t testing.TB, owner, repo string, pr int, hunks map[string][][2]int) *Server {
	s := &Server{t: t, Owner: owner, Repo: repo, PR: pr, Token: "test-token", Hunks: hunks, nextID: 1000, Poster: ActionsBot}
	var err error
	if s.spec, err = LoadSpec(t); err != nil {
		t.Logf("requests are not checked against GitHub's OpenAPI description: %v", err)
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// HunksOfGitDiff reads the head-side ranges of the hunks of a unified diff
// (git diff output).
func HunksOfGitDiff(diff string) map[string][][2]int {
	out := map[string][][2]int{}
	header := regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@`)
	path := ""
	for _, line := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(line, "+++ "):
			path = strings.TrimPrefix(strings.TrimPrefix(line, "+++ "), "b/")
		case strings.HasPrefix(line, "@@"):
			m := header.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			start, _ := strconv.Atoi(m[1])
			n := 1
			if m[2] != "" {
				n, _ = strconv.Atoi(m[2])
			}
			if n > 0 {
				out[path] = append(out[path], [2]int{start, start + n - 1})
			}
		}
	}
	return out
}

func (s *Server) errorf(format string, args ...any) {
	s.Errors = append(s.Errors, fmt.Sprintf(format, args...))
}

// recorder keeps the stand-in's answer for the check against the description.
type recorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (r *recorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = 200
	}
	r.body.Write(b)
	return r.ResponseWriter.Write(b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Requests = append(s.Requests, r.Method+" "+r.URL.Path)
	if r.Method != "GET" {
		s.writes = append(s.writes, time.Now())
	}
	if r.Header.Get("Authorization") != "Bearer "+s.Token && r.Header.Get("Authorization") != "token "+s.Token {
		writeJSON(w, 401, map[string]string{"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"})
		return
	}
	if a := r.Header.Get("Accept"); a != "application/vnd.github+json" {
		s.errorf("%s %s: Accept %q, want application/vnd.github+json", r.Method, r.URL.Path, a)
	}
	if v := r.Header.Get("X-GitHub-Api-Version"); v != "2022-11-28" {
		s.errorf("%s %s: X-GitHub-Api-Version %q", r.Method, r.URL.Path, v)
	}
	if r.Header.Get("User-Agent") == "" {
		s.errorf("%s %s: no User-Agent (GitHub requires one)", r.Method, r.URL.Path)
	}
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var op *Operation
	if s.spec != nil {
		var err error
		if op, err = s.spec.Find(r.Method, r.URL.Path); err != nil {
			s.errorf("%v", err)
		} else {
			for _, e := range op.CheckParams(r.URL.Query()) {
				s.errorf("%s %s: %s", r.Method, r.URL.Path, e)
			}
			for _, e := range op.CheckBody(r.Header.Get("Content-Type"), body) {
				s.errorf("%s %s: %s", r.Method, r.URL.Path, e)
			}
		}
	}
	if op != nil {
		rec := &recorder{ResponseWriter: w}
		w = rec
		defer func() {
			if rec.status < 300 {
				for _, e := range op.CheckResponse(rec.status, rec.body.Bytes()) {
					s.errorf("the stand-in's answer to %s %s: %s", r.Method, r.URL.Path, e)
				}
			}
		}()
	}
	if s.Fail != nil {
		if status, body, h := s.Fail(r); status != 0 {
			for k, v := range h {
				w.Header()[k] = v
			}
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(status)
			w.Write([]byte(body))
			return
		}
	}
	repo := fmt.Sprintf("/repos/%s/%s", s.Owner, s.Repo)
	pr := strconv.Itoa(s.PR)
	if s.ReadOnly && r.Method != "GET" {
		writeJSON(w, 403, map[string]string{"message": "Resource not accessible by integration",
			"documentation_url": "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request", "status": "403"})
		return
	}
	switch p := r.URL.Path; {
	case r.Method == "GET" && p == "/user":
		if s.Poster.Type == "Bot" {
			writeJSON(w, 403, map[string]string{"message": "Resource not accessible by integration",
				"documentation_url": "https://docs.github.com/rest/users/users#get-the-authenticated-user", "status": "403"})
			return
		}
		writeJSON(w, 200, map[string]any{"login": s.Poster.Login, "id": s.Poster.ID, "type": s.Poster.Type})
	case r.Method == "GET" && p == repo+"/code-scanning/alerts":
		s.listAlerts(w, r)
	case r.Method == "GET" && p == repo+"/pulls/"+pr+"/comments":
		s.list(w, r, s.ReviewComments)
	case r.Method == "GET" && strings.HasPrefix(p, repo+"/collaborators/") && strings.HasSuffix(p, "/permission"):
		s.permission(w, strings.TrimSuffix(strings.TrimPrefix(p, repo+"/collaborators/"), "/permission"))
	case r.Method == "GET" && p == repo+"/issues/"+pr+"/comments":
		s.list(w, r, s.IssueComments)
	case r.Method == "POST" && p == repo+"/pulls/"+pr+"/reviews":
		s.createReview(w, r)
	case r.Method == "POST" && p == repo+"/issues/"+pr+"/comments":
		s.createIssueComment(w, r)
	case r.Method == "PATCH" && strings.HasPrefix(p, repo+"/issues/comments/"):
		s.updateIssueComment(w, r, strings.TrimPrefix(p, repo+"/issues/comments/"))
	case strings.HasPrefix(p, repo+"/check-runs") && r.Method != "GET" && s.Poster.Type != "Bot":
		// The Checks API takes only a GitHub App's token.
		writeJSON(w, 403, map[string]string{"message": "You must authenticate via a GitHub App.",
			"documentation_url": "https://docs.github.com/rest/checks/runs#create-a-check-run"})
	case r.Method == "POST" && p == repo+"/check-runs":
		s.createCheckRun(w, r)
	case r.Method == "PATCH" && strings.HasPrefix(p, repo+"/check-runs/"):
		s.updateCheckRun(w, r, strings.TrimPrefix(p, repo+"/check-runs/"))
	default:
		s.errorf("%s %s: not an endpoint recap should call", r.Method, p)
		writeJSON(w, 404, map[string]string{"message": "Not Found"})
	}
}

// page reads a listing's page of n items as GitHub takes it (per_page,
// 30 by default and at most 100; page from 1) and sets the Link header to
// the next page, keeping the request's other parameters. It returns the
// bounds of the page's items.
func (s *Server) page(w http.ResponseWriter, r *http.Request, n int) (from, to int) {
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if per == 0 {
		per = 30
	}
	if per > 100 {
		s.errorf("GET %s: per_page %d over GitHub's 100", r.URL.Path, per)
		per = 100
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1)
	from = min((page-1)*per, n)
	to = min(from+per, n)
	if to < n {
		q := r.URL.Query()
		q.Set("per_page", strconv.Itoa(per))
		q.Set("page", strconv.Itoa(page+1))
		w.Header().Set("Link", fmt.Sprintf(`<%s%s?%s>; rel="next"`, s.URL, r.URL.Path, q.Encode()))
	}
	return from, to
}

// list serves a listing page by page (per_page at most 100, Link rel=next).
func (s *Server) list(w http.ResponseWriter, r *http.Request, items []Comment) {
	from, to := s.page(w, r, len(items))
	out := make([]any, 0, to-from)
	for _, c := range items[from:to] {
		if c.payload != nil {
			out = append(out, c.payload)
		} else {
			out = append(out, c)
		}
	}
	writeJSON(w, 200, out)
}

// decode reads a JSON body with only the allowed fields.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, allowed []string, v any) bool {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		s.errorf("%s %s: Content-Type %q", r.Method, r.URL.Path, ct)
	}
	var raw map[string]json.RawMessage
	if err := json.NewDecoder(r.Body).Decode(&raw); err != nil {
		writeJSON(w, 400, map[string]string{"message": "Problems parsing JSON"})
		return false
	}
	for k := range raw {
		ok := false
		for _, a := range allowed {
			ok = ok || k == a
		}
		if !ok {
			s.errorf("%s %s: field %q is not a field of this endpoint", r.Method, r.URL.Path, k)
		}
	}
	b, _ := json.Marshal(raw)
	if err := json.Unmarshal(b, v); err != nil {
		writeJSON(w, 422, map[string]any{"message": "Invalid request.", "errors": []string{err.Error()}})
		return false
	}
	return true
}

func (s *Server) createReview(w http.ResponseWriter, r *http.Request) {
	var req struct {
		CommitID string `json:"commit_id"`
		Body     string `json:"body"`
		Event    string `json:"event"`
		Comments []struct {
			Path      string `json:"path"`
			StartLine int    `json:"start_line"`
			StartSide string `json:"start_side"`
			Line      int    `json:"line"`
			Side      string `json:"side"`
			Body      string `json:"body"`
		} `json:"comments"`
	}
	if !s.decode(w, r, []string{"commit_id", "body", "event", "comments"}, &req) {
		return
	}
	switch req.Event {
	case "COMMENT", "REQUEST_CHANGES":
		if req.Body == "" {
			writeJSON(w, 422, map[string]any{"message": "Unprocessable Entity", "errors": []string{"Body is required for an event of " + req.Event}})
			return
		}
	case "APPROVE", "":
	default:
		writeJSON(w, 422, map[string]any{"message": "Unprocessable Entity", "errors": []string{"event is not valid"}})
		return
	}
	if len([]rune(req.Body)) > 65536 {
		writeJSON(w, 422, map[string]any{"message": "Unprocessable Entity", "errors": []string{"Body is too long (maximum is 65536 characters)"}})
		return
	}
	if len(req.Comments) > 30 {
		s.errorf("review with %d inline comments, over recap's 30", len(req.Comments))
	}
	for _, c := range req.Comments {
		if c.Path == "" || c.Line < 1 || c.Body == "" || (c.Side != "RIGHT" && c.Side != "LEFT") || len([]rune(c.Body)) > 65536 {
			writeJSON(w, 422, map[string]any{"message": "Unprocessable Entity", "errors": []string{fmt.Sprintf("comment %+v is not valid", c)}})
			return
		}
		if !s.inDiff(c.Path, c.Line) {
			writeJSON(w, 422, map[string]any{"message": "Unprocessable Entity",
				"errors": []string{"Line could not be resolved"}, "documentation_url": "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request"})
			return
		}
		// A multi-line comment: its first line before its last, on the
		// same side, in the same hunk.
		if c.StartLine != 0 && (c.StartLine >= c.Line || c.StartSide != "" && c.StartSide != c.Side || !s.sameHunk(c.Path, c.StartLine, c.Line)) {
			writeJSON(w, 422, map[string]any{"message": "Unprocessable Entity",
				"errors": []string{"start_line must be part of the same hunk as the line, and before it"}, "documentation_url": "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request"})
			return
		}
	}
	s.Reviews++
	s.nextID++
	review := s.nextID
	for _, c := range req.Comments {
		s.nextID++
		s.ReviewComments = append(s.ReviewComments, Comment{ID: s.nextID, Path: c.Path, StartLine: c.StartLine, Line: c.Line, Side: c.Side, Body: c.Body, User: s.Poster,
			ReviewID: review, HTMLURL: fmt.Sprintf("https://github.com/%s/%s/pull/%d#discussion_r%d", s.Owner, s.Repo, s.PR, s.nextID)})
	}
	writeJSON(w, 200, map[string]any{"id": review, "state": "COMMENTED", "body": req.Body, "user": s.Poster, "commit_id": req.CommitID})
}

// sameHunk reports whether lines a and b of path are in one hunk.
func (s *Server) sameHunk(path string, a, b int) bool {
	for _, h := range s.Hunks[path] {
		if a >= h[0] && b <= h[1] {
			return true
		}
	}
	return false
}

func (s *Server) inDiff(path string, line int) bool {
	for _, h := range s.Hunks[path] {
		if line >= h[0] && line <= h[1] {
			return true
		}
	}
	return false
}

func (s *Server) createIssueComment(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Body string `json:"body"`
	}
	if !s.decode(w, r, []string{"body"}, &req) {
		return
	}
	if req.Body == "" || len([]rune(req.Body)) > 65536 {
		writeJSON(w, 422, map[string]any{"message": "Validation Failed", "errors": []map[string]string{{"resource": "IssueComment", "field": "body", "code": "invalid"}}})
		return
	}
	s.nextID++
	c := Comment{ID: s.nextID, Body: req.Body, User: s.Poster, HTMLURL: fmt.Sprintf("https://github.com/%s/%s/pull/%d#issuecomment-%d", s.Owner, s.Repo, s.PR, s.nextID)}
	s.IssueComments = append(s.IssueComments, c)
	writeJSON(w, 201, c)
}

func (s *Server) updateIssueComment(w http.ResponseWriter, r *http.Request, id string) {
	var req struct {
		Body string `json:"body"`
	}
	if !s.decode(w, r, []string{"body"}, &req) {
		return
	}
	for i := range s.IssueComments {
		if strconv.FormatInt(s.IssueComments[i].ID, 10) == id {
			if s.IssueComments[i].User.Login != s.Poster.Login {
				// GitHub lets an app edit only its own comments.
				writeJSON(w, 403, map[string]string{"message": "Resource not accessible by integration"})
				return
			}
			if req.Body == "" || len([]rune(req.Body)) > 65536 {
				writeJSON(w, 422, map[string]any{"message": "Validation Failed"})
				return
			}
			s.IssueComments[i].Body = req.Body
			writeJSON(w, 200, s.IssueComments[i])
			return
		}
	}
	writeJSON(w, 404, map[string]string{"message": "Not Found"})
}

// WriteTimes are the times the writes (every request but GET) came in, in
// order.
func (s *Server) WriteTimes() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Time(nil), s.writes...)
}

// Snapshot returns copies of what was posted, under the lock.
func (s *Server) Snapshot() (review, issue []Comment, reviews int, errs []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Comment(nil), s.ReviewComments...), append([]Comment(nil), s.IssueComments...), s.Reviews, append([]string(nil), s.Errors...)
}
