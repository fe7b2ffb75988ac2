package githubtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// ExamplesPath is GitHub's webhook payload examples, from the npm package
// @octokit/webhooks-examples (package.json).
const ExamplesPath = "node_modules/@octokit/webhooks-examples/api.github.com/index.json"

// PullRequestEvent says which real pull_request payload to replay and what
// to put in it.
type PullRequestEvent struct {
	Action      string // "opened" or "synchronize"
	Owner, Repo string
	Number      int
	Head, Base  string // commit hashes
	// Fork makes the head a branch of another account's fork.
	Fork bool
}

// EventFile writes the payload of a real pull_request event of GitHub's
// examples, with the repository, number and commits of e, as the file
// $GITHUB_EVENT_PATH names in Actions; it skips the test when the
// examples are not installed.
func EventFile(t testing.TB, e PullRequestEvent) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(reportstest.RepoRoot(t), filepath.FromSlash(ExamplesPath)))
	if err != nil {
		t.Skipf("GitHub's webhook examples are not installed (npm install puts %s there): %v", ExamplesPath, err)
	}
	var all []struct {
		Name     string           `json:"name"`
		Examples []map[string]any `json:"examples"`
	}
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatalf("%s: %v", ExamplesPath, err)
	}
	var ev map[string]any
	for _, w := range all {
		if w.Name != "pull_request" {
			continue
		}
		for _, ex := range w.Examples {
			if ex["action"] == e.Action {
				ev = ex
				break
			}
		}
	}
	if ev == nil {
		t.Fatalf("%s has no pull_request %s example", ExamplesPath, e.Action)
	}
	full := e.Owner + "/" + e.Repo
	pr := ev["pull_request"].(map[string]any)
	ev["number"] = e.Number
	pr["number"] = e.Number
	pr["url"] = fmt.Sprintf("https://api.github.com/repos/%s/pulls/%d", full, e.Number)
	repo := ev["repository"].(map[string]any)
	repo["full_name"], repo["name"] = full, e.Repo
	repo["owner"].(map[string]any)["login"] = e.Owner
	head, base := pr["head"].(map[string]any), pr["base"].(map[string]any)
	head["sha"], base["sha"] = e.Head, e.Base
	base["repo"] = repo
	head["repo"] = repo
	if e.Fork {
		fork := map[string]any{}
		for k, v := range repo {
			fork[k] = v
		}
		fork["full_name"], fork["fork"] = "contributor/"+e.Repo, true
		fork["owner"] = map[string]any{"login": "contributor", "id": 99, "type": "User"}
		head["repo"] = fork
		head["label"] = "contributor:patch-1"
		head["user"] = fork["owner"]
		ev["sender"] = fork["owner"]
	}
	out, err := json.MarshalIndent(ev, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
