package review

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/gitlabtest"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// mrDiff changes lines 10-12 of A.java (context 7-9 and 13-15), adds B.java
// and renames C.java to D.java with a change on line 2.
const mrDiff = `diff --git a/A.java b/A.java
--- a/A.java
+++ b/A.java
@@ -7,7 +7,9 @@ class A {
 seven
 eight
 nine
-ten
+TEN
+ten and a half
+eleven
 twelve
 thirteen
 fourteen
diff --git a/B.java b/B.java
new file mode 100644
--- /dev/null
+++ b/B.java
@@ -0,0 +1,2 @@
+class B {
+}
diff --git a/C.java b/D.java
similarity index 90%
rename from C.java
rename to D.java
--- a/C.java
+++ b/D.java
@@ -1,3 +1,3 @@
 class D {
-  int x;
+  int y;
 }
`

const (
	glBase  = "1111111111111111111111111111111111111111"
	glStart = "2222222222222222222222222222222222222222"
	glHead  = "3333333333333333333333333333333333333333"
)

func gitLabFixture(t *testing.T, n int) (Input, []diff.File) {
	t.Helper()
	files, err := diff.Parse("mr.diff", strings.NewReader(mrDiff))
	if err != nil {
		t.Fatal(err)
	}
	c := summarize.NewCollector()
	c.KeepPage(0, summarize.MaxLimit)
	places := []struct {
		path string
		line int
	}{{"A.java", 10}, {"A.java", 11}, {"A.java", 8}, {"B.java", 1}, {"D.java", 2}, {"D.java", 3}}
	for i := 0; i < n; i++ {
		pl := places[i%len(places)]
		f := reports.Finding{ID: reports.ID("t", i), Tool: "PMD", Rule: fmt.Sprintf("R%02d", i), Category: "Design", Severity: reports.Severities[i%3],
			Path: pl.path, Line: pl.line, Message: fmt.Sprintf("finding %d: see !12, ~bug, %%\"v1\", $7, &3, ^alert#1 and @alice", i)}
		f.Fingerprint = reports.Fingerprint(f, nil)
		c.Add(f)
	}
	return Input{View: c.View(nil), Outside: 3, Files: files, Index: diff.NewContextIndex(files)}, files
}

func newGitLab(s *gitlabtest.Server) *GitLab {
	return &GitLab{APIURL: s.URL + "/api/v4", Token: s.Token, Project: s.Project, MR: s.MR, HeadSHA: glHead, UserAgent: "recap-test"}
}

// TestGitLabPositions: an added line has new_line alone, an unchanged one
// both lines (which differ below the change), an added file its own path as
// old_path, a renamed one its old path; a removed line is no anchor.
func TestGitLabPositions(t *testing.T) {
	_, files := gitLabFixture(t, 0)
	p := NewGitLabPositions(files)
	for _, tc := range []struct {
		path string
		line int
		want Position
		ok   bool
	}{
		{"A.java", 10, Position{PositionType: "text", NewPath: "A.java", OldPath: "A.java", NewLine: 10}, true},
		{"A.java", 8, Position{PositionType: "text", NewPath: "A.java", OldPath: "A.java", NewLine: 8, OldLine: 8}, true},
		{"A.java", 14, Position{PositionType: "text", NewPath: "A.java", OldPath: "A.java", NewLine: 14, OldLine: 12}, true},
		{"A.java", 20, Position{}, false},
		{"B.java", 2, Position{PositionType: "text", NewPath: "B.java", OldPath: "B.java", NewLine: 2}, true},
		{"D.java", 2, Position{PositionType: "text", NewPath: "D.java", OldPath: "C.java", NewLine: 2}, true},
		{"D.java", 3, Position{PositionType: "text", NewPath: "D.java", OldPath: "C.java", NewLine: 3, OldLine: 3}, true},
		{"C.java", 2, Position{}, false},
	} {
		got, ok := p.At(tc.path, tc.line)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s:%d: %+v, %v; want %+v, %v", tc.path, tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

// TestGitLabBody: GitLab's references and quick actions are broken in
// report text; recap's own markup, its markers and its links stay.
func TestGitLabBody(t *testing.T) {
	z := "\u200d"
	for _, tc := range []struct{ in, want string }{
		{"see !12, ~bug, %\"v1\", $7, ^alert", "see !" + z + "12, ~" + z + "bug, %" + z + "\"v1\", $" + z + "7, ^" + z + "alert"},
		{"epic &amp;3 and &amp; alone", "epic &amp;" + z + "3 and &amp; alone"},
		{"/merge\n/approve now\nnot /close", "&#47;merge\n&#47;approve now\nnot /close"},
		{"[`R`](<https://x.org/a%20b?c=1&d=~e>) <!-- recap:fp=ab#1 -->", "[`R`](<https://x.org/a%20b?c=1&d=~e>) <!-- recap:fp=ab#1 -->"},
		{"100% sure, 5 ! = 6", "100% sure, 5 ! = 6"},
		{"!" + z + "12 stays", "!" + z + "12 stays"},
	} {
		if got := GitLabBody(tc.in); got != tc.want {
			t.Errorf("GitLabBody(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// TestPostGitLab: against GitLab's stand-in: a fresh run starts a
// discussion per inline comment (at most 30) with GitLab's position and
// makes the summary note; a re-run posts nothing twice and updates the
// summary note in place; markers in other people's notes do not count.
func TestPostGitLab(t *testing.T) {
	in, _ := gitLabFixture(t, 40)
	s := gitlabtest.New(t, "acme/shop", 7, mrDiff, glBase, glStart, glHead)
	// Someone quotes recap's markers: neither hides a comment nor is taken
	// for the summary.
	req := Build(in)
	s.AddNote("copied: "+SummaryMarker+" "+markerPrefix+req.Comments[0].Key+" -->", gitlabtest.Person("mallory"), false)
	for i := 0; i < 120; i++ {
		s.AddNote(fmt.Sprintf("a person's note %d", i), gitlabtest.Person("bob"), false)
	}
	g1 := newGitLab(s)
	done, err := g1.Post(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	notes, discussions, errs := s.Snapshot()
	if len(errs) > 0 {
		t.Fatalf("protocol errors: %v", errs)
	}
	if done.Comments != MaxComments || discussions != MaxComments || done.Summary.Updated || done.Login != gitlabtest.Bot.Username ||
		g1.Version.HeadCommitSHA != glHead {
		t.Fatalf("first run: %+v, %d discussions", done, discussions)
	}
	var diffNotes []gitlabtest.Note
	var summary *gitlabtest.Note
	for i, n := range notes {
		if n.Type != nil && *n.Type == "DiffNote" {
			diffNotes = append(diffNotes, n)
		} else if n.Author.Username == gitlabtest.Bot.Username {
			summary = &notes[i]
		}
	}
	if len(diffNotes) != MaxComments || summary == nil || !strings.HasPrefix(summary.Body, SummaryMarker) {
		t.Fatalf("%d diff notes, summary %v", len(diffNotes), summary)
	}
	for _, n := range diffNotes {
		p := n.Position
		if p.BaseSHA != glBase || p.StartSHA != glStart || p.HeadSHA != glHead || p.PositionType != "text" || p.NewLine == nil {
			t.Errorf("position %+v", p)
		}
		if strings.Contains(n.Body, "!12") || strings.Contains(n.Body, "~bug") || strings.Contains(n.Body, "@alice") || KeyOf(n.Body) == "" {
			t.Errorf("a live reference or no marker in %q", n.Body)
		}
	}

	in.View.Summary.Total++
	req = Build(in)
	done, err = newGitLab(s).Post(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	notes2, discussions, _ := s.Snapshot()
	if done.Comments != 0 || done.Skipped != MaxComments || !done.Summary.Updated || discussions != MaxComments || len(notes2) != len(notes) {
		t.Fatalf("re-run: %+v, %d discussions, %d notes (was %d)", done, discussions, len(notes2), len(notes))
	}
	for _, n := range notes2 {
		if n.ID == summary.ID && n.Body != GitLabBody(req.Body) {
			t.Error("the summary note was not updated")
		}
	}
}

// TestPostGitLabRefused: what GitLab refuses, and what recap says: a
// comment off the diff (GitLab's 400, the others still posted, exit 3 by
// the error), a job token (401 on notes: set GITLAB_TOKEN), a token in the
// wrong header, a missing merge request, a head no diff version has.
func TestPostGitLabRefused(t *testing.T) {
	in, _ := gitLabFixture(t, 6)
	req := Build(in)

	s := gitlabtest.New(t, "acme/shop", 7, mrDiff, glBase, glStart, glHead)
	s.Fail = func(r *http.Request) (int, string) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/discussions") && strings.Contains(gitlabtest.Body(r), `"new_path":"B.java"`) {
			return 400, `{"message":"400 Bad request - Note {:line_code=>[\"can't be blank\", \"must be a valid line code\"]}"}`
		}
		return 0, ""
	}
	done, err := newGitLab(s).Post(context.Background(), req)
	notes, _, _ := s.Snapshot()
	summary := notes[len(notes)-1].Body
	if err != nil || done == nil || done.Comments != 5 || len(done.Refused) != 1 || done.Refused[0].Comment.Path != "B.java" || done.Summary == nil ||
		!strings.Contains(done.Refused[0].Reason, "must be a valid line code") ||
		!strings.Contains(summary, "<code>B.java:1</code>") || !strings.Contains(summary, "not placed: GitLab answered 400") ||
		!strings.Contains(summary, "5 inline comments") {
		t.Errorf("off the diff: %v (%+v)\n%s", err, done, summary)
	}
	if !strings.Contains(done.Said(), "1 discussion refused by GitLab, listed in the summary note instead") {
		t.Errorf("said %q", done.Said())
	}

	// A diff that is not the merge request's: the stand-in refuses the
	// line (GitLab's 400), recap lists the finding in the summary.
	s = gitlabtest.New(t, "acme/shop", 7, mrDiff, glBase, glStart, glHead)
	other, err := diff.Parse("other.diff", strings.NewReader("diff --git a/A.java b/A.java\n--- a/A.java\n+++ b/A.java\n@@ -29,3 +29,3 @@\n 29\n-30\n+thirty\n 31\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := summarize.NewCollector()
	c.KeepPage(0, 10)
	f := reports.Finding{ID: reports.ID("x", 1), Tool: "PMD", Rule: "R", Severity: reports.SeverityError, Path: "A.java", Line: 30, Message: "off"}
	f.Fingerprint = reports.Fingerprint(f, nil)
	c.Add(f)
	one := Build(Input{View: c.View(nil), Files: other, Index: diff.NewIndex(other)})
	done, err = newGitLab(s).Post(context.Background(), one)
	if err != nil || len(done.Refused) != 1 || !strings.Contains(done.Refused[0].Reason, `Note {:line_code=>["can't be blank", "must be a valid line code"]}`) {
		t.Errorf("a line off the diff: %v %+v", err, done)
	}

	s = gitlabtest.New(t, "acme/shop", 7, mrDiff, glBase, glStart, glHead)
	g := newGitLab(s)
	g.Token, g.JobToken, g.Account = s.JobToken, true, "alice"
	_, err = g.Post(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "GitLab answered 401") || !strings.Contains(err.Error(), "set GITLAB_TOKEN to a project access token") {
		t.Errorf("job token: %v", err)
	}
	s.JobTokenNotes = true // a GitLab that lets job tokens comment: the notes are alice's
	done, err = g.Post(context.Background(), req)
	if notes, _, errs := s.Snapshot(); err != nil || done.Comments != 6 || len(errs) > 0 || notes[len(notes)-1].Author.Username != "alice" {
		t.Errorf("job token allowed: %v, %+v, %v", err, done, errs)
	}
	g.Account = ""
	if _, err := g.Post(context.Background(), req); err == nil || !strings.Contains(err.Error(), "give --gitlab-login") {
		t.Errorf("job token without a login: %v", err)
	}

	s = gitlabtest.New(t, "acme/shop", 7, mrDiff, glBase, glStart, glHead)
	g = newGitLab(s)
	g.Token = s.JobToken // a job token sent as PRIVATE-TOKEN
	if _, err := g.Post(context.Background(), req); err == nil || !strings.Contains(err.Error(), "GitLab answered 401 to GET") ||
		!strings.Contains(err.Error(), "check GITLAB_TOKEN") || !strings.Contains(err.Error(), "nothing was posted") {
		t.Errorf("wrong header: %v", err)
	}

	g = newGitLab(s)
	g.MR = 8
	if _, err := g.Post(context.Background(), req); err == nil || !strings.Contains(err.Error(), "GitLab answered 404") || !strings.Contains(err.Error(), "CI_MERGE_REQUEST_IID") {
		t.Errorf("another merge request: %v", err)
	}
	if _, _, errs := s.Snapshot(); len(errs) != 1 { // the stand-in notes the unknown merge request
		t.Errorf("protocol errors %v", errs)
	}

	s = gitlabtest.New(t, "acme/shop", 7, mrDiff, glBase, glStart, glHead)
	g = newGitLab(s)
	g.HeadSHA = "4444444444444444444444444444444444444444"
	if _, err := g.Post(context.Background(), req); err == nil || !strings.Contains(err.Error(), "no diff version of the merge request has the head 444444444444") {
		t.Errorf("an old head: %v", err)
	}
	if notes, _, _ := s.Snapshot(); len(notes) != 0 {
		t.Errorf("%d notes posted for an old head", len(notes))
	}
}

// TestGitLabErrorText: GitLab's error bodies, a string, an object or
// Grape's "error", become one line.
func TestGitLabErrorText(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"message":"404 Project Not Found"}`, "404 Project Not Found"},
		{`{"message":{"note":["can't be blank"]}}`, `{"note":["can't be blank"]}`},
		{`{"error":"position[base_sha] is missing"}`, "position[base_sha] is missing"},
		{"<html><body>Bad\ngateway</body></html>", "Bad gateway"},
	} {
		e := gitLabError("POST", "https://gitlab.example/api/v4/x?private_token=secret", &http.Response{StatusCode: 400, Header: http.Header{}}, []byte(tc.body), false)
		if diff := cmp.Diff(tc.want, e.Message); diff != "" || strings.Contains(e.Error(), "secret") {
			t.Errorf("%s: (-want +got)\n%s%s", tc.body, diff, e.Error())
		}
	}
}
