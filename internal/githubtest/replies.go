package githubtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/recap-dev/recap/internal/reportstest"
)

// Reply adds a reply by who to the review comment to, as GitHub keeps
// one made in the pull request's conversation: the comment of a real
// pull_request_review_comment payload of GitHub's webhook examples (every
// field GitHub sends), with the reply's id, author, body, thread and
// place. It skips the test when the examples are not installed.
func (s *Server) Reply(t testing.TB, to int64, who User, body string) Comment {
	t.Helper()
	example := reviewCommentExample(t)
	s.mu.Lock()
	defer s.mu.Unlock()
	var parent *Comment
	for i := range s.ReviewComments {
		if s.ReviewComments[i].ID == to {
			parent = &s.ReviewComments[i]
		}
	}
	if parent == nil {
		t.Fatalf("no review comment %d to reply to", to)
	}
	s.nextID++
	c := Comment{ID: s.nextID, Path: parent.Path, Line: parent.Line, Side: parent.Side, Body: body, User: who, ReviewID: s.nextID + 500000,
		InReplyToID: to, CreatedAt: time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC).Add(time.Duration(s.nextID) * time.Second).Format(time.RFC3339),
		HTMLURL: fmt.Sprintf("https://github.com/%s/%s/pull/%d#discussion_r%d", s.Owner, s.Repo, s.PR, s.nextID)}
	api := fmt.Sprintf("https://api.github.com/repos/%s/%s", s.Owner, s.Repo)
	u := map[string]any{}
	for k, v := range example["user"].(map[string]any) {
		u[k] = v
	}
	u["login"], u["id"], u["type"] = who.Login, who.ID, who.Type
	set := map[string]any{
		"id": c.ID, "in_reply_to_id": to, "body": body, "user": u, "path": c.Path, "line": c.Line, "original_line": c.Line, "side": c.Side,
		"start_line": nil, "original_start_line": nil, "start_side": nil,
		"pull_request_review_id": c.ReviewID, "created_at": c.CreatedAt, "updated_at": c.CreatedAt, "html_url": c.HTMLURL,
		"url":              fmt.Sprintf("%s/pulls/comments/%d", api, c.ID),
		"pull_request_url": fmt.Sprintf("%s/pulls/%d", api, s.PR),
		"_links": map[string]any{"self": map[string]string{"href": fmt.Sprintf("%s/pulls/comments/%d", api, c.ID)},
			"html": map[string]string{"href": c.HTMLURL}, "pull_request": map[string]string{"href": fmt.Sprintf("%s/pulls/%d", api, s.PR)}},
	}
	c.payload = map[string]any{}
	for k, v := range example {
		c.payload[k] = v
	}
	for k, v := range set {
		c.payload[k] = v
	}
	s.ReviewComments = append(s.ReviewComments, c)
	return c
}

// reviewCommentExample is the comment of the first
// pull_request_review_comment "created" payload of GitHub's examples.
func reviewCommentExample(t testing.TB) map[string]any {
	t.Helper()
	exampleOnce.Do(func() {
		b, err := os.ReadFile(filepath.Join(reportstest.RepoRoot(t), filepath.FromSlash(ExamplesPath)))
		if err != nil {
			exampleErr = fmt.Errorf("GitHub's webhook examples are not installed (npm install puts %s there): %w", ExamplesPath, err)
			return
		}
		var all []struct {
			Name     string           `json:"name"`
			Examples []map[string]any `json:"examples"`
		}
		if err := json.Unmarshal(b, &all); err != nil {
			exampleErr = fmt.Errorf("%s: %w", ExamplesPath, err)
			return
		}
		for _, w := range all {
			for _, ex := range w.Examples {
				if c, ok := ex["comment"].(map[string]any); ok && w.Name == "pull_request_review_comment" && ex["action"] == "created" && example == nil {
					example = c
				}
			}
		}
		if example == nil {
			exampleErr = fmt.Errorf("%s has no pull_request_review_comment created example", ExamplesPath)
		}
	})
	if exampleErr != nil {
		t.Skip(exampleErr)
	}
	return example
}

// The review comment example, read once per test binary.
var (
	exampleOnce sync.Once
	example     map[string]any
	exampleErr  error
)

// permission answers GET /repos/{owner}/{repo}/collaborators/{username}/permission
// as GitHub does: the role (role_name) and the older permission it maps
// onto (maintain is write, triage is read), with the user.
func (s *Server) permission(w http.ResponseWriter, login string) {
	role, ok := s.Roles[login]
	if !ok {
		role = "read"
	}
	if role == "unavailable" { // GitHub failing on this one lookup
		writeJSON(w, 500, map[string]any{"message": "Server Error"})
		return
	}
	perm := map[string]string{"admin": "admin", "maintain": "write", "write": "write", "triage": "read", "read": "read", "none": "none"}[role]
	u := By(login)
	writeJSON(w, 200, map[string]any{"permission": perm, "role_name": role,
		"user": map[string]any{"login": u.Login, "id": u.ID, "type": u.Type, "site_admin": false,
			"permissions": map[string]bool{"admin": role == "admin", "maintain": role == "admin" || role == "maintain",
				"push": perm == "admin" || perm == "write", "triage": perm != "none", "pull": perm != "none"}, "role_name": role}})
}
