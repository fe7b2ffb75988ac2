package githubtest

import (
	"net/http"
	"strings"
	"testing"

	_ "github.com/recap-dev/recap/internal/reportstest"
)

// TestSpecCatches: the stand-in finds the mistakes GitHub would refuse or
// ignore, from GitHub's OpenAPI description.
func TestSpecCatches(t *testing.T) {
	if _, err := LoadSpec(t); err != nil {
		t.Skipf("%v", err)
	}
	for _, tc := range []struct {
		method, path, body string
		want               string // in the errors; "" for none
	}{
		{"POST", "/repos/acme/shop/pulls/7/reviews", `{"body":"b","event":"COMMENT","comments":[{"path":"A.java","line":3,"side":"RIGHT","body":"x"}]}`, ""},
		{"POST", "/repos/acme/shop/pulls/7/reviews", `{"body":"b","event":"COMMENT","comments":[{"path":"A.java","line":3,"body":"x","key":"k"}]}`, `field "key" is not a field of the schema`},
		{"POST", "/repos/acme/shop/pulls/7/reviews", `{"body":"b","event":"COMMENTED"}`, "is not one of"},
		{"POST", "/repos/acme/shop/pulls/7/reviews", `{"body":"b","comments":[{"line":3,"body":"x"}]}`, `required field "path" is missing`},
		{"POST", "/repos/acme/shop/pulls/7/reviews", `{"body":"b","comments":[{"path":"A","line":"3","body":"x"}]}`, "want a number"},
		{"GET", "/repos/acme/shop/pulls/7/comments?per_page=100&page=2", ``, ""},
		{"GET", "/repos/acme/shop/pulls/7/comments?per_page=all", ``, "is not an integer"},
		{"GET", "/repos/acme/shop/pulls/7/comments?limit=100", ``, `query parameter "limit" is not a parameter of pulls/list-review-comments`},
		{"GET", "/repos/acme/shop/pulls/seven/comments", ``, "pull_number=\"seven\" is not an integer"},
		{"PATCH", "/repos/acme/shop/issues/comments/12", `{"body":"b"}`, ""},
		{"PATCH", "/repos/acme/shop/issues/comments/12", `{"body":"b","state":"x"}`, `field "state" is not a field of the schema`},
		{"POST", "/repos/acme/shop/pulls/7/summary", `{}`, "is not an operation of GitHub's REST API"},
		{"GET", "/user", ``, ""},
	} {
		t.Run(tc.method+" "+tc.path+" "+tc.body, func(t *testing.T) {
			s := New(t, "acme", "shop", 7, map[string][][2]int{"A.java": {{1, 10}}, "A": {{1, 10}}})
			s.Poster = By("octocat")
			s.IssueComments = []Comment{{ID: 12, Body: "x", User: s.Poster}}
			req, _ := http.NewRequest(tc.method, s.URL+tc.path, strings.NewReader(tc.body))
			req.Header.Set("Authorization", "Bearer "+s.Token)
			req.Header.Set("Accept", "application/vnd.github+json")
			req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
			req.Header.Set("User-Agent", "t")
			if tc.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			_, _, _, errs := s.Snapshot()
			got := strings.Join(errs, "\n")
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("errors:\n%s\nwant %q", got, tc.want)
			}
		})
	}
}
