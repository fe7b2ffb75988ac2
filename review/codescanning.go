package review

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
)

// A DismissedAlert is a code scanning alert people dismissed on GitHub
// (GET /repos/{owner}/{repo}/code-scanning/alerts?state=dismissed): what
// recap needs to keep the decision in the repository's triage file.
type DismissedAlert struct {
	Number int `json:"number"`
	// Rule is the alert's rule id (rule.id), Tool its tool's name (tool.name).
	Rule string
	Tool string
	// Reason is GitHub's dismissed_reason: "false positive", "won't fix"
	// or "used in tests"; Comment the dismissed_comment.
	Reason  string
	Comment string
	// By is the login of who dismissed it, At when (RFC 3339).
	By string
	At string
	// URL is the alert's page (html_url).
	URL string
	// Path and Line are where its most recent instance is
	// (most_recent_instance.location), Message that instance's message.
	Path    string
	Line    int
	Message string
}

// DismissedAlerts lists the repository's dismissed code scanning alerts,
// 100 a page (within MaxPages).
func (c *Client) DismissedAlerts(ctx context.Context) ([]DismissedAlert, error) {
	var out []DismissedAlert
	u := c.url(fmt.Sprintf("/repos/%s/%s/code-scanning/alerts?state=dismissed", url.PathEscape(c.Owner), url.PathEscape(c.Repo)))
	err := c.rest().each(ctx, u, func(raw json.RawMessage) error {
		var a struct {
			Number           int     `json:"number"`
			HTMLURL          string  `json:"html_url"`
			DismissedReason  *string `json:"dismissed_reason"`
			DismissedComment *string `json:"dismissed_comment"`
			DismissedAt      *string `json:"dismissed_at"`
			DismissedBy      *struct {
				Login string `json:"login"`
			} `json:"dismissed_by"`
			Rule struct {
				ID   *string `json:"id"`
				Name string  `json:"name"`
			} `json:"rule"`
			Tool struct {
				Name string `json:"name"`
			} `json:"tool"`
			Instance struct {
				Location struct {
					Path      string `json:"path"`
					StartLine int    `json:"start_line"`
				} `json:"location"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
			} `json:"most_recent_instance"`
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return fmt.Errorf("an alert that is not the JSON expected: %w", err)
		}
		d := DismissedAlert{Number: a.Number, URL: a.HTMLURL, Tool: a.Tool.Name, Rule: a.Rule.Name,
			Path: a.Instance.Location.Path, Line: a.Instance.Location.StartLine, Message: a.Instance.Message.Text}
		if a.Rule.ID != nil && *a.Rule.ID != "" {
			d.Rule = *a.Rule.ID
		}
		if a.DismissedReason != nil {
			d.Reason = *a.DismissedReason
		}
		if a.DismissedComment != nil {
			d.Comment = *a.DismissedComment
		}
		if a.DismissedAt != nil {
			d.At = *a.DismissedAt
		}
		if a.DismissedBy != nil {
			d.By = a.DismissedBy.Login
		}
		out = append(out, d)
		return nil
	})
	return out, err
}
