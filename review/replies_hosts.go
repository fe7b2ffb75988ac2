package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"time"
)

// reviewComment is what recap reads of a pull request's review comment
// (GET /repos/{owner}/{repo}/pulls/{pull_number}/comments): a reply
// names the comment it answers in in_reply_to_id.
type reviewComment struct {
	ID          int64     `json:"id"`
	InReplyToID int64     `json:"in_reply_to_id"`
	Body        string    `json:"body"`
	HTMLURL     string    `json:"html_url"`
	User        user      `json:"user"`
	CreatedAt   time.Time `json:"created_at"`
}

// Threads implements [ReplyHost]: the pull request's review comments
// that have replies, each reply under the comment its thread starts with
// (GitHub's replies name the thread's first comment; a reply to a reply
// is followed up to it).
func (c *Client) Threads(ctx context.Context, login string) ([]Thread, error) {
	byID := map[int64]*reviewComment{}
	var order []int64
	var listed []json.RawMessage
	err := c.eachReviewComment(ctx, func(raw json.RawMessage) error {
		listed = append(listed, raw)
		var cm reviewComment
		if err := json.Unmarshal(raw, &cm); err != nil {
			return err
		}
		byID[cm.ID] = &cm
		order = append(order, cm.ID)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the pull request's review comments: %w", err)
	}
	c.listed = listed
	threads := map[int64]*Thread{}
	var roots []int64
	for _, id := range order {
		cm := byID[id]
		if cm.InReplyToID == 0 {
			continue
		}
		root := cm
		for hops := 0; root.InReplyToID != 0 && byID[root.InReplyToID] != nil && hops < 100; hops++ {
			root = byID[root.InReplyToID]
		}
		th := threads[root.ID]
		if th == nil {
			th = &Thread{}
			if k := KeyOf(root.Body); k != "" && root.InReplyToID == 0 && c.ours(root.User, login) {
				th.Key, th.At = k, AtOf(root.Body)
			}
			threads[root.ID] = th
			roots = append(roots, root.ID)
		}
		th.Replies = append(th.Replies, Reply{Author: cm.User.Login, Body: cm.Body, URL: cm.HTMLURL, Date: cm.CreatedAt})
	}
	out := make([]Thread, 0, len(roots))
	for _, id := range roots {
		th := threads[id]
		sort.SliceStable(th.Replies, func(i, j int) bool { return th.Replies[i].Date.Before(th.Replies[j].Date) })
		out = append(out, *th)
	}
	return out, nil
}

// eachReviewComment calls fn with each review comment of the pull
// request: those Threads listed last, taken once, else a listing.
func (c *Client) eachReviewComment(ctx context.Context, fn func(json.RawMessage) error) error {
	if listed := c.listed; listed != nil {
		c.listed = nil
		for _, raw := range listed {
			if err := fn(raw); err != nil {
				return err
			}
		}
		return nil
	}
	return c.rest().each(ctx, c.url(c.prPath("pulls", "comments")), fn)
}

// writeRoles are the repository roles GitHub's permission endpoint names
// (role_name, and permission for the older roles) that may push.
var writeRoles = map[string]bool{"admin": true, "maintain": true, "write": true}

// CanWrite implements [ReplyHost]: GET
// /repos/{owner}/{repo}/collaborators/{username}/permission says admin,
// maintain or write. A user GitHub does not know (404) may not.
func (c *Client) CanWrite(ctx context.Context, r *Reply) (bool, error) {
	var out struct {
		Permission string `json:"permission"`
		RoleName   string `json:"role_name"`
	}
	err := c.do(ctx, http.MethodGet, fmt.Sprintf("/repos/%s/%s/collaborators/%s/permission", c.Owner, c.Repo, url.PathEscape(r.Author)), nil, &out)
	var ae *APIError
	if errors.As(err, &ae) && ae.Status == http.StatusNotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return writeRoles[out.RoleName] || writeRoles[out.Permission], nil
}

// gitLabDiscussion is what recap reads of a merge request's discussion
// (GET /projects/:id/merge_requests/:iid/discussions).
type gitLabDiscussion struct {
	ID    string `json:"id"`
	Notes []struct {
		ID     int64  `json:"id"`
		Body   string `json:"body"`
		System bool   `json:"system"`
		Author struct {
			ID       int64  `json:"id"`
			Username string `json:"username"`
		} `json:"author"`
		CreatedAt time.Time `json:"created_at"`
	} `json:"notes"`
}

// Threads implements [ReplyHost]: the merge request's discussions with
// replies, the first note being the comment, the next ones its replies;
// each reply links to the merge request's page at its note.
func (g *GitLab) Threads(ctx context.Context, login string) ([]Thread, error) {
	var out []Thread
	err := g.rest().each(ctx, g.url(g.mrPath("discussions")), func(raw json.RawMessage) error {
		var d gitLabDiscussion
		if err := json.Unmarshal(raw, &d); err != nil {
			return err
		}
		if len(d.Notes) < 2 {
			return nil
		}
		th := Thread{}
		if first := d.Notes[0]; first.Author.Username == login && !first.System {
			th.Key, th.At = KeyOf(first.Body), AtOf(first.Body)
		}
		for _, n := range d.Notes[1:] {
			if n.System {
				continue
			}
			th.Replies = append(th.Replies, Reply{Author: n.Author.Username, AuthorID: n.Author.ID, Body: n.Body, Date: n.CreatedAt,
				URL: "#note_" + fmt.Sprint(n.ID)})
		}
		out = append(out, th)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the merge request's discussions: %w", err)
	}
	if len(out) > 0 {
		var mr struct {
			WebURL string `json:"web_url"`
		}
		if err := g.do(ctx, http.MethodGet, fmt.Sprintf("/projects/%s/merge_requests/%d", url.PathEscape(g.Project), g.MR), nil, &mr); err != nil {
			return nil, fmt.Errorf("reading the merge request: %w", err)
		}
		for i := range out {
			for j := range out[i].Replies {
				out[i].Replies[j].URL = mr.WebURL + out[i].Replies[j].URL
			}
		}
	}
	return out, nil
}

// gitLabDeveloper is GitLab's access level of the Developer role, the
// least that may push to a project's branches.
const gitLabDeveloper = 30

// CanWrite implements [ReplyHost]: GET
// /projects/:id/members/all/:user_id (members inherited from groups
// too) gives an access level of Developer (30) or above. Someone who is
// no member (404) may not.
func (g *GitLab) CanWrite(ctx context.Context, r *Reply) (bool, error) {
	if r.AuthorID == 0 {
		return false, nil
	}
	var m struct {
		AccessLevel int `json:"access_level"`
	}
	err := g.do(ctx, http.MethodGet, fmt.Sprintf("/projects/%s/members/all/%d", url.PathEscape(g.Project), r.AuthorID), nil, &m)
	var ge *GitLabError
	if errors.As(err, &ge) && ge.Status == http.StatusNotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return m.AccessLevel >= gitLabDeveloper, nil
}
