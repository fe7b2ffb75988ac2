// Package gitlabtest is a local stand-in for the parts of GitLab's REST API
// (v4) that recap review --gitlab uses, following GitLab's documentation
// and its API's parameter declarations (lib/api/discussions.rb,
// lib/api/notes.rb, merge request diff versions, users):
//
//	GET  /user
//	GET  /projects/:id/merge_requests/:iid/versions
//	GET  /projects/:id/merge_requests/:iid/notes      (per_page ≤ 100, X-Next-Page)
//	POST /projects/:id/merge_requests/:iid/notes      {body}
//	PUT  /projects/:id/merge_requests/:iid/notes/:id  {body}
//	POST /projects/:id/merge_requests/:iid/discussions {body, position}
//	GET  /projects/:id/merge_requests/:iid/discussions (replies in their discussion)
//	GET  /projects/:id/merge_requests/:iid
//	GET  /projects/:id/members/all/:user_id
//
// It refuses what GitLab refuses: a token in the wrong header (a job token
// as PRIVATE-TOKEN or the reverse) with 401, a job token on the endpoints
// GitLab does not open to it, a position that is not a line of the
// diff with GitLab's 400 ("Note {:line_code=>…}"), a missing position
// field with Grape's 400, and notes of other authors with 403; and it
// records, as protocol errors for the test to fail on, fields GitLab does
// not declare.
package gitlabtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// User is a note's author.
type User struct {
	ID       int64  `json:"id"`
	Username string `json:"username"`
	Name     string `json:"name"`
	State    string `json:"state"`
	WebURL   string `json:"web_url"`
}

// Bot is the user a project access token posts as.
var Bot = User{ID: 9001, Username: "project_42_bot_3f9a1c2b", Name: "recap", State: "active", WebURL: "https://gitlab.example/project_42_bot_3f9a1c2b"}

// Person returns a user of the given username.
func Person(username string) User {
	return User{ID: int64(len(username)) * 100, Username: username, Name: username, State: "active", WebURL: "https://gitlab.example/" + username}
}

// Note is a note as stored and answered.
type Note struct {
	ID           int64     `json:"id"`
	Type         *string   `json:"type"`
	Body         string    `json:"body"`
	Author       User      `json:"author"`
	CreatedAt    string    `json:"created_at"`
	UpdatedAt    string    `json:"updated_at"`
	System       bool      `json:"system"`
	NoteableID   int64     `json:"noteable_id"`
	NoteableType string    `json:"noteable_type"`
	NoteableIID  int       `json:"noteable_iid"`
	Resolvable   bool      `json:"resolvable"`
	Position     *Position `json:"position,omitempty"`
	Discussion   string    `json:"-"`
}

// Position is a diff note's position.
type Position struct {
	BaseSHA      string `json:"base_sha"`
	StartSHA     string `json:"start_sha"`
	HeadSHA      string `json:"head_sha"`
	PositionType string `json:"position_type"`
	NewPath      string `json:"new_path"`
	OldPath      string `json:"old_path"`
	NewLine      *int   `json:"new_line"`
	OldLine      *int   `json:"old_line"`
}

// Version is a merge request diff version.
type Version struct {
	ID             int64  `json:"id"`
	HeadCommitSHA  string `json:"head_commit_sha"`
	BaseCommitSHA  string `json:"base_commit_sha"`
	StartCommitSHA string `json:"start_commit_sha"`
	CreatedAt      string `json:"created_at"`
	MergeRequestID int64  `json:"merge_request_id"`
	State          string `json:"state"`
	RealSize       string `json:"real_size"`
}

// lineKind is a line of the diff: added (new only), removed (old only),
// or unchanged (both).
type diffLine struct{ old, new int }

// Server is one project with one merge request.
type Server struct {
	*httptest.Server
	t       testing.TB
	Project string // the project's id; its path, URL-encoded, is accepted too
	Path    string // the project's path ("acme/shop")
	MR      int
	// Token is the access token (PRIVATE-TOKEN); JobToken the job's
	// (JOB-TOKEN), which posts as JobUser.
	Token, JobToken string
	Poster, JobUser User
	// JobTokenNotes lets a job token post and edit notes, as GitLab does not
	// (its job token reaches a list of endpoints without them).
	JobTokenNotes bool
	// Versions of the merge request's diff, newest last.
	Versions []Version
	// Members are the project's members (direct or inherited) by user id,
	// with their access level (10 Guest, 20 Reporter, 30 Developer, 40
	// Maintainer, 50 Owner).
	Members map[int64]int

	mu          sync.Mutex
	nextID      int64
	lines       map[string]map[diffLine]bool // new path → its diff's lines
	oldPaths    map[string]string            // new path → old path
	Notes       []*Note
	Discussions int
	Requests    []string
	// Fail, when set, answers a request instead of the normal handler.
	Fail func(r *http.Request) (int, string)
	// Errors are the protocol mistakes found in recap's requests.
	Errors []string
}

// New starts a server for a merge request whose diff is gitDiff (git diff
// base...head output), with one diff version of those commits.
func New(t testing.TB, path string, mr int, gitDiff, base, start, head string) *Server {
	s := &Server{t: t, Project: "42", Path: path, MR: mr, Token: "glpat-test-token", JobToken: "glcbt-job-token",
		Poster: Bot, JobUser: Person("alice"), nextID: 5000}
	s.Versions = []Version{{ID: 700, HeadCommitSHA: head, BaseCommitSHA: base, StartCommitSHA: start, CreatedAt: "2026-11-23T10:00:00.000Z",
		MergeRequestID: 99, State: "collected", RealSize: "1"}}
	s.lines, s.oldPaths = parseDiff(gitDiff)
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@`)

// parseDiff indexes the lines of a unified diff's hunks by new path.
func parseDiff(text string) (map[string]map[diffLine]bool, map[string]string) {
	lines := map[string]map[diffLine]bool{}
	olds := map[string]string{}
	var path, old string
	var o, n int
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "--- "):
			old = strings.TrimPrefix(strings.TrimPrefix(l, "--- "), "a/")
		case strings.HasPrefix(l, "+++ "):
			path = strings.TrimPrefix(strings.TrimPrefix(l, "+++ "), "b/")
			if old == "/dev/null" {
				old = path
			}
			olds[path] = old
			lines[path] = map[diffLine]bool{}
		case strings.HasPrefix(l, "@@"):
			m := hunkHeader.FindStringSubmatch(l)
			o, _ = strconv.Atoi(m[1])
			n, _ = strconv.Atoi(m[2])
		case path == "" || l == "":
		case l[0] == '+':
			lines[path][diffLine{0, n}] = true
			n++
		case l[0] == '-':
			lines[path][diffLine{o, 0}] = true
			o++
		case l[0] == ' ':
			lines[path][diffLine{o, n}] = true
			o++
			n++
		}
	}
	return lines, olds
}

func (s *Server) errorf(format string, args ...any) {
	s.Errors = append(s.Errors, fmt.Sprintf(format, args...))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// message answers as GitLab's API does ({"message": "401 Unauthorized"}).
func message(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"message": msg})
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Requests = append(s.Requests, r.Method+" "+r.URL.Path)
	p := strings.TrimPrefix(r.URL.EscapedPath(), "/api/v4")
	if p == r.URL.EscapedPath() {
		s.errorf("%s %s: not under /api/v4 (CI_API_V4_URL)", r.Method, r.URL.Path)
	}
	if r.Header.Get("Authorization") != "" {
		s.errorf("%s %s: an Authorization header: recap sends PRIVATE-TOKEN or JOB-TOKEN", r.Method, p)
	}
	if r.Header.Get("User-Agent") == "" {
		s.errorf("%s %s: no User-Agent", r.Method, p)
	}
	private, job := r.Header.Get("PRIVATE-TOKEN"), r.Header.Get("JOB-TOKEN")
	var who User
	switch {
	case private != "" && job != "":
		s.errorf("%s %s: both PRIVATE-TOKEN and JOB-TOKEN", r.Method, p)
		message(w, 401, "401 Unauthorized")
		return
	case private == s.Token && private != "":
		who = s.Poster
	case job == s.JobToken && job != "":
		who = s.JobUser
	default: // no token, an unknown one, or one in the other's header
		message(w, 401, "401 Unauthorized")
		return
	}
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if s.Fail != nil {
		if status, b := s.Fail(r); status != 0 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			w.Write([]byte(b))
			return
		}
	}
	if p == "/user" && r.Method == "GET" {
		if job != "" {
			message(w, 401, "401 Unauthorized") // /user is not an endpoint of the job token
			return
		}
		writeJSON(w, 200, who)
		return
	}
	for _, id := range []string{s.Project, url.PathEscape(s.Path)} {
		if pre := "/projects/" + id + "/members/all/"; strings.HasPrefix(p, pre) && r.Method == "GET" {
			if job != "" {
				message(w, 401, "401 Unauthorized")
				return
			}
			s.member(w, strings.TrimPrefix(p, pre))
			return
		}
	}
	mr, isMR := "", false
	for _, id := range []string{s.Project, url.PathEscape(s.Path)} {
		if pre := "/projects/" + id + "/merge_requests/" + strconv.Itoa(s.MR); strings.HasPrefix(p, pre) {
			mr, isMR = strings.TrimPrefix(p, pre), true
		}
	}
	if !isMR || mr != "" && !strings.HasPrefix(mr, "/") {
		s.errorf("%s %s: not this project's merge request", r.Method, p)
		message(w, 404, "404 Project Not Found")
		return
	}
	jobAllowed := r.Method == "GET" && mr == "/notes" || s.JobTokenNotes && (strings.HasPrefix(mr, "/notes") || mr == "/discussions" || mr == "/versions")
	if job != "" && !jobAllowed {
		message(w, 401, "401 Unauthorized")
		return
	}
	switch {
	case r.Method == "GET" && mr == "":
		writeJSON(w, 200, s.mergeRequest())
	case r.Method == "GET" && mr == "/discussions":
		s.checkQuery(r, "page", "per_page")
		s.list(w, r, s.discussions())
	case r.Method == "GET" && mr == "/versions":
		s.list(w, r, s.versions())
	case r.Method == "GET" && mr == "/notes":
		s.checkQuery(r, "page", "per_page", "sort", "order_by", "activity_filter")
		items := make([]any, len(s.Notes))
		for i, n := range s.Notes {
			items[i] = n
		}
		s.list(w, r, items)
	case r.Method == "POST" && mr == "/notes":
		s.createNote(w, r, body, who)
	case r.Method == "PUT" && strings.HasPrefix(mr, "/notes/"):
		s.updateNote(w, r, body, who, strings.TrimPrefix(mr, "/notes/"))
	case r.Method == "POST" && mr == "/discussions":
		s.createDiscussion(w, r, body, who)
	default:
		s.errorf("%s %s: not an endpoint recap should call", r.Method, p)
		message(w, 404, "404 Not Found")
	}
}

func (s *Server) versions() []any {
	out := make([]any, 0, len(s.Versions))
	for i := len(s.Versions) - 1; i >= 0; i-- { // newest first
		out = append(out, s.Versions[i])
	}
	return out
}

func (s *Server) checkQuery(r *http.Request, allowed ...string) {
	for k := range r.URL.Query() {
		ok := false
		for _, a := range allowed {
			ok = ok || k == a
		}
		if !ok {
			s.errorf("%s %s: query parameter %q is not one of the endpoint's", r.Method, r.URL.Path, k)
		}
	}
}

// list serves a listing page by page, as GitLab paginates (per_page at most
// 100, default 20; X-Page, X-Per-Page, X-Next-Page, X-Total, Link).
func (s *Server) list(w http.ResponseWriter, r *http.Request, items []any) {
	q := r.URL.Query()
	per, _ := strconv.Atoi(q.Get("per_page"))
	if per <= 0 {
		per = 20
	}
	if per > 100 {
		s.errorf("GET %s: per_page %d over GitLab's 100", r.URL.Path, per)
		per = 100
	}
	page, _ := strconv.Atoi(q.Get("page"))
	page = max(page, 1)
	from := min((page-1)*per, len(items))
	to := min(from+per, len(items))
	w.Header().Set("X-Page", strconv.Itoa(page))
	w.Header().Set("X-Per-Page", strconv.Itoa(per))
	w.Header().Set("X-Total", strconv.Itoa(len(items)))
	next := ""
	if to < len(items) {
		next = strconv.Itoa(page + 1)
		q.Set("page", next)
		w.Header().Set("Link", fmt.Sprintf(`<%s%s?%s>; rel="next"`, s.URL, r.URL.Path, q.Encode()))
	}
	w.Header().Set("X-Next-Page", next)
	out := items[from:to]
	if out == nil {
		out = []any{}
	}
	writeJSON(w, 200, out)
}

// decode reads a JSON body; fields GitLab does not declare for the
// endpoint are recorded, and answered 400 as a parameter error.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, body []byte, allowed map[string][]string, v any) bool {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		s.errorf("%s %s: Content-Type %q", r.Method, r.URL.Path, ct)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		writeJSON(w, 400, map[string]string{"error": "400 Bad request - the body is not JSON"})
		return false
	}
	for k, val := range raw {
		sub, ok := allowed[k]
		if !ok {
			s.errorf("%s %s: %q is not a parameter of this endpoint", r.Method, r.URL.Path, k)
			writeJSON(w, 400, map[string]string{"error": k + " is not a parameter of this endpoint"})
			return false
		}
		if sub != nil {
			var inner map[string]json.RawMessage
			if json.Unmarshal(val, &inner) != nil {
				writeJSON(w, 400, map[string]string{"error": k + " is invalid"})
				return false
			}
			for ik := range inner {
				found := false
				for _, a := range sub {
					found = found || a == ik
				}
				if !found {
					s.errorf("%s %s: %s[%s] is not a parameter of this endpoint", r.Method, r.URL.Path, k, ik)
					writeJSON(w, 400, map[string]string{"error": k + "[" + ik + "] is not a parameter of this endpoint"})
					return false
				}
			}
		}
	}
	if err := json.Unmarshal(body, v); err != nil {
		writeJSON(w, 400, map[string]string{"error": "400 Bad request - " + err.Error()})
		return false
	}
	return true
}

var noteFields = map[string][]string{"body": nil, "internal": nil, "confidential": nil, "created_at": nil, "merge_request_diff_head_sha": nil}

func (s *Server) newNote(body string, who User, typ *string) *Note {
	s.nextID++
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC).Add(time.Duration(s.nextID) * time.Second).Format("2006-01-02T15:04:05.000Z")
	return &Note{ID: s.nextID, Type: typ, Body: body, Author: who, CreatedAt: now, UpdatedAt: now,
		NoteableID: 99, NoteableType: "MergeRequest", NoteableIID: s.MR}
}

func (s *Server) createNote(w http.ResponseWriter, r *http.Request, body []byte, who User) {
	var req struct {
		Body *string `json:"body"`
	}
	if !s.decode(w, r, body, noteFields, &req) {
		return
	}
	if req.Body == nil {
		writeJSON(w, 400, map[string]string{"error": "body is missing"})
		return
	}
	if strings.TrimSpace(*req.Body) == "" || len([]rune(*req.Body)) > 1_000_000 {
		message(w, 400, `400 Bad request - Note {:note=>["can't be blank"]}`)
		return
	}
	n := s.newNote(*req.Body, who, nil)
	s.Notes = append(s.Notes, n)
	writeJSON(w, 201, n)
}

func (s *Server) updateNote(w http.ResponseWriter, r *http.Request, body []byte, who User, id string) {
	var req struct {
		Body *string `json:"body"`
	}
	if !s.decode(w, r, body, map[string][]string{"body": nil, "confidential": nil}, &req) {
		return
	}
	for _, n := range s.Notes {
		if strconv.FormatInt(n.ID, 10) != id {
			continue
		}
		if n.Author.Username != who.Username {
			message(w, 403, "403 Forbidden") // only the author may edit a note
			return
		}
		if req.Body == nil || strings.TrimSpace(*req.Body) == "" {
			writeJSON(w, 400, map[string]string{"error": "body is empty"})
			return
		}
		n.Body = *req.Body
		writeJSON(w, 200, n)
		return
	}
	message(w, 404, "404 Note Not Found")
}

var positionFields = []string{"base_sha", "start_sha", "head_sha", "position_type", "new_path", "new_line", "old_path", "old_line",
	"width", "height", "x", "y", "line_range"}

func (s *Server) createDiscussion(w http.ResponseWriter, r *http.Request, body []byte, who User) {
	var req struct {
		Body     *string   `json:"body"`
		Position *Position `json:"position"`
	}
	if !s.decode(w, r, body, map[string][]string{"body": nil, "created_at": nil, "position": positionFields, "commit_id": nil}, &req) {
		return
	}
	if req.Body == nil {
		writeJSON(w, 400, map[string]string{"error": "body is missing"})
		return
	}
	p := req.Position
	if p == nil {
		s.errorf("POST discussions without a position: recap's discussions are on lines")
		n := s.newNote(*req.Body, who, ptr("DiscussionNote"))
		s.Notes = append(s.Notes, n)
		writeJSON(w, 201, s.discussion(n))
		return
	}
	for _, f := range []struct{ name, v string }{{"base_sha", p.BaseSHA}, {"start_sha", p.StartSHA}, {"head_sha", p.HeadSHA}, {"position_type", p.PositionType}} {
		if f.v == "" {
			writeJSON(w, 400, map[string]string{"error": "position[" + f.name + "] is missing"})
			return
		}
	}
	if p.PositionType != "text" && p.PositionType != "image" {
		writeJSON(w, 400, map[string]string{"error": "position[position_type] does not have a valid value"})
		return
	}
	if !s.validPosition(p) {
		message(w, 400, `400 Bad request - Note {:line_code=>["can't be blank", "must be a valid line code"]}`)
		return
	}
	n := s.newNote(*req.Body, who, ptr("DiffNote"))
	n.Position, n.Resolvable, n.Discussion = p, true, fmt.Sprintf("%040x", n.ID)
	s.Notes = append(s.Notes, n)
	s.Discussions++
	writeJSON(w, 201, s.discussion(n))
}

// validPosition: the SHAs are a diff version's, both paths are the file's,
// and the lines are a line of its diff: new_line alone an added line,
// old_line alone a removed one, both an unchanged one.
func (s *Server) validPosition(p *Position) bool {
	ok := false
	for _, v := range s.Versions {
		ok = ok || v.BaseCommitSHA == p.BaseSHA && v.StartCommitSHA == p.StartSHA && v.HeadCommitSHA == p.HeadSHA
	}
	if !ok || p.NewPath == "" || p.OldPath == "" || s.oldPaths[p.NewPath] != p.OldPath {
		return false
	}
	l := diffLine{}
	if p.OldLine != nil {
		l.old = *p.OldLine
	}
	if p.NewLine != nil {
		l.new = *p.NewLine
	}
	return (l.old > 0 || l.new > 0) && s.lines[p.NewPath][l]
}

func (s *Server) discussion(n *Note) map[string]any {
	return map[string]any{"id": fmt.Sprintf("%040x", n.ID), "individual_note": false, "notes": []*Note{n}}
}

func ptr(s string) *string { return &s }

// Snapshot returns copies of the notes, the discussions started and the
// protocol errors, under the lock.
func (s *Server) Snapshot() (notes []Note, discussions int, errs []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range s.Notes {
		notes = append(notes, *n)
	}
	return notes, s.Discussions, append([]string(nil), s.Errors...)
}

// AddNote adds a note by who, as a person or an earlier run wrote it.
func (s *Server) AddNote(body string, who User, diffNote bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var typ *string
	if diffNote {
		typ = ptr("DiffNote")
	}
	n := s.newNote(body, who, typ)
	if diffNote { // a discussion of its own, as a diff note starts one
		n.Discussion = fmt.Sprintf("%040x", n.ID)
	}
	s.Notes = append(s.Notes, n)
}

// Body is a request body, for Fail hooks.
func Body(r *http.Request) string {
	b, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(b))
	return string(b)
}
