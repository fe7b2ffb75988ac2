package githubtest

import (
	"fmt"
	"net/http"
)

// Alert is a code scanning alert of the repository, answered by GET
// /repos/{owner}/{repo}/code-scanning/alerts shaped as the example of
// GitHub's OpenAPI description (code-scanning-alert-items).
type Alert struct {
	Number    int
	Tool      string // tool.name
	Rule      string // rule.id and rule.name
	Path      string // most_recent_instance.location.path
	Line      int    // most_recent_instance.location.start_line
	Message   string
	State     string // open, dismissed, fixed
	Reason    string // dismissed_reason: false positive, won't fix, used in tests
	Comment   string // dismissed_comment
	Dismisser string // dismissed_by.login
	At        string // dismissed_at
}

// json is the alert as GitHub writes it.
func (s *Server) alertJSON(a Alert) map[string]any {
	api := fmt.Sprintf("%s/repos/%s/%s/code-scanning/alerts/%d", s.URL, s.Owner, s.Repo, a.Number)
	out := map[string]any{
		"number":            a.Number,
		"created_at":        "2020-02-13T12:29:18Z",
		"url":               api,
		"html_url":          fmt.Sprintf("https://github.com/%s/%s/security/code-scanning/%d", s.Owner, s.Repo, a.Number),
		"state":             a.State,
		"fixed_at":          nil,
		"dismissed_by":      nil,
		"dismissed_at":      nil,
		"dismissed_reason":  nil,
		"dismissed_comment": nil,
		"rule": map[string]any{"id": a.Rule, "severity": "warning", "tags": []string{"maintainability"},
			"description": a.Rule, "name": a.Rule},
		"tool": map[string]any{"name": a.Tool, "guid": nil, "version": "7.0.0"},
		"most_recent_instance": map[string]any{
			"ref": "refs/heads/main", "analysis_key": ".github/workflows/recap.yml:analysis", "category": ".github/workflows/recap.yml:analysis",
			"environment": "{}", "state": a.State, "commit_sha": "39406e42cb832f683daa691dd652a8dc36ee8930",
			"message":         map[string]any{"text": a.Message},
			"location":        map[string]any{"path": a.Path, "start_line": a.Line, "end_line": a.Line, "start_column": 1, "end_column": 2},
			"classifications": []string{},
		},
		"instances_url": api + "/instances",
	}
	if a.State == "dismissed" {
		u := By(a.Dismisser)
		out["dismissed_by"] = map[string]any{"login": u.Login, "id": u.ID, "node_id": "MDQ6VXNlcjE=", "avatar_url": "https://github.com/images/error/octocat_happy.gif",
			"gravatar_id": "", "url": "https://api.github.com/users/" + u.Login, "html_url": "https://github.com/" + u.Login,
			"followers_url": "https://api.github.com/users/" + u.Login + "/followers", "following_url": "https://api.github.com/users/" + u.Login + "/following{/other_user}",
			"gists_url": "https://api.github.com/users/" + u.Login + "/gists{/gist_id}", "starred_url": "https://api.github.com/users/" + u.Login + "/starred{/owner}{/repo}",
			"subscriptions_url": "https://api.github.com/users/" + u.Login + "/subscriptions", "organizations_url": "https://api.github.com/users/" + u.Login + "/orgs",
			"repos_url": "https://api.github.com/users/" + u.Login + "/repos", "events_url": "https://api.github.com/users/" + u.Login + "/events{/privacy}",
			"received_events_url": "https://api.github.com/users/" + u.Login + "/received_events", "type": "User", "site_admin": false}
		out["dismissed_at"] = a.At
		out["dismissed_reason"] = a.Reason
		out["dismissed_comment"] = a.Comment
	}
	return out
}

// listAlerts serves the alerts of the state asked, page by page (per_page
// at most 100, Link rel=next).
func (s *Server) listAlerts(w http.ResponseWriter, r *http.Request) {
	state := r.URL.Query().Get("state")
	var items []map[string]any
	for _, a := range s.Alerts {
		if state == "" || a.State == state {
			items = append(items, s.alertJSON(a))
		}
	}
	from, to := s.page(w, r, len(items))
	out := items[from:to]
	if out == nil {
		out = []map[string]any{}
	}
	writeJSON(w, 200, out)
}
