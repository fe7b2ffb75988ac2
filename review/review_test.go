package review

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/gfmtest"
	"github.com/recap-dev/recap/internal/githubtest"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// fixture: A.java changed on lines 10-12 (a hunk of 4-15) and 40 (hunk
// 37-43); n findings on changed lines plus one whose range only ends on a
// changed line.
func fixture(n int) Input {
	files := []diff.File{{OldPath: "A.java", NewPath: "A.java", Status: diff.Modified, Changed: []int{10, 11, 12, 40},
		Hunks: []diff.Hunk{{OldStart: 4, OldLines: 9, NewStart: 4, NewLines: 12}, {OldStart: 37, OldLines: 7, NewStart: 37, NewLines: 7}}}}
	c := summarize.NewCollector()
	c.KeepPage(0, summarize.MaxLimit)
	for i := 0; i < n; i++ {
		f := reports.Finding{ID: reports.ID("t", i), Tool: "PMD", Rule: fmt.Sprintf("R%02d", i%40), Category: "Design",
			Severity: reports.Severities[i%3], Path: "A.java", Line: []int{10, 11, 12, 40}[i%4],
			Message: fmt.Sprintf("problem %d <b>", i), HelpURI: "https://pmd.example/r"}
		f.Fingerprint = reports.Fingerprint(f, nil)
		c.Add(f)
	}
	span := reports.Finding{ID: reports.ID("tspan", 1), Tool: "PMD", Rule: "GodClass", Severity: reports.SeverityError, Path: "A.java", Line: 1, EndLine: 11, Message: "whole class"}
	span.Fingerprint = reports.Fingerprint(span, nil)
	c.Add(span)
	return Input{View: c.View(nil), Outside: 7, Files: files, Index: diff.NewIndex(files)}
}

func TestBuild(t *testing.T) {
	for _, n := range []int{0, 3, 29, 100, 199} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			in := fixture(n)
			req := Build(in)
			a := NewAnchors(in.Files)
			if want := min(n+1, MaxComments); len(req.Comments) != want {
				t.Errorf("%d inline comments, want %d", len(req.Comments), want)
			}
			keys := map[string]bool{}
			for _, c := range req.Comments {
				if !a.Valid(c.Path, c.Line) || c.Side != "RIGHT" || KeyOf(c.Body) != c.Key || keys[c.Key] {
					t.Errorf("comment %+v: anchor outside the hunks, or key not in the body or twice", c)
				}
				keys[c.Key] = true
				if c.Line == 1 {
					t.Errorf("the GodClass finding (lines 1-11) is anchored on line 1, outside the hunks; want 10")
				}
			}
			if !strings.HasPrefix(req.Body, SummaryMarker) || !strings.Contains(req.Body, "7 more findings in the reports are outside the changed lines") {
				t.Errorf("body does not start with the summary:\n%s", req.Body)
			}
			if listed := n + 1 - len(req.Comments); listed > 0 && !strings.Contains(req.Body, fmt.Sprintf("Not commented inline (%d)", listed)) {
				t.Errorf("body does not list the %d findings left out of the inline comments:\n%s", listed, req.Body)
			}
			if strings.Contains(req.Body, "<b>") || len(req.Body) > MaxBody {
				t.Errorf("body unescaped or too long (%d)", len(req.Body))
			}
		})
	}
}

func TestBodyWithinGitHubLimit(t *testing.T) {
	in := fixture(199)
	for i := range in.View.Findings {
		in.View.Findings[i].Message = strings.Repeat("very long message ", 100)
	}
	in.View.Summary.Total = 5000
	req := Build(in)
	if len([]rune(req.Body)) > MaxBody || !strings.Contains(req.Body, "more\n") {
		t.Errorf("body of %d characters, or no count of what was left out", len([]rune(req.Body)))
	}
}

func newClient(s *githubtest.Server) *Client {
	return &Client{APIURL: s.URL, Token: s.Token, Owner: s.Owner, Repo: s.Repo, PR: s.PR, UserAgent: "recap-test", WriteInterval: -1}
}

func hunksOf(files []diff.File) map[string][][2]int {
	out := map[string][][2]int{}
	for _, f := range files {
		for _, h := range f.Hunks {
			out[f.NewPath] = append(out[f.NewPath], [2]int{h.NewStart, h.NewStart + h.NewLines - 1})
		}
	}
	return out
}

// TestPostTwice: the first run posts a review with every inline comment and
// the summary; the second posts no comment again and updates the summary.
func TestPostTwice(t *testing.T) {
	in := fixture(40)
	s := githubtest.New(t, "acme", "shop", 7, hunksOf(in.Files))
	// 150 comments of other reviewers: the listing takes two pages.
	for i := 0; i < 150; i++ {
		s.ReviewComments = append(s.ReviewComments, githubtest.Comment{ID: int64(i + 1), Path: "A.java", Line: 10, Body: "a person's comment"})
	}
	req := Build(in)
	done, err := newClient(s).Post(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	rc, ic, reviews, errs := s.Snapshot()
	if len(errs) > 0 {
		t.Fatalf("protocol errors: %v", errs)
	}
	if done.Comments != MaxComments || reviews != 1 || len(rc) != 150+MaxComments || len(ic) != 1 || done.Summary.Updated {
		t.Fatalf("first run: %+v; %d reviews, %d review comments, %d issue comments", done, reviews, len(rc), len(ic))
	}

	in.View.Summary.Total++ // something changed in the summary
	req = Build(in)
	done, err = newClient(s).Post(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	rc, ic, reviews, _ = s.Snapshot()
	if done.Comments != 0 || done.Skipped != MaxComments || reviews != 1 || len(rc) != 150+MaxComments || len(ic) != 1 || !done.Summary.Updated {
		t.Fatalf("second run: %+v; %d reviews, %d review comments, %d issue comments", done, reviews, len(rc), len(ic))
	}
	if ic[0].Body != req.Body {
		t.Error("the summary comment was not updated")
	}
}

// TestPostErrors: every failure says what happened and what was posted.
func TestPostErrors(t *testing.T) {
	in := fixture(5)
	once := func(status int, body string, h http.Header, match string) func(*http.Request) (int, string, http.Header) {
		done := false
		return func(r *http.Request) (int, string, http.Header) {
			if done || !strings.Contains(r.Method+" "+r.URL.Path, match) {
				return 0, "", nil
			}
			done = true
			return status, body, h
		}
	}
	reset := time.Date(2026, 11, 22, 23, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		fail    func(*http.Request) (int, string, http.Header)
		badLine bool
		want    []string // in the error
		posted  int      // reviews posted
	}{
		{"rate limit", once(403, `{"message":"API rate limit exceeded for installation ID 1."}`,
			http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {fmt.Sprint(reset.Unix())}}, "GET"),
			false, []string{"403", "rate limit is used up until 23:00:00 UTC", "nothing was posted"}, 0},
		{"server error on a listing, retried", once(502, `{"message":"Server Error"}`, nil, "GET"), false, nil, 1},
		{"server error on the review", once(500, `{"message":"Server Error"}`, nil, "POST /repos/acme/shop/pulls"), false,
			[]string{"500", "nothing was posted", "re-run later"}, 0},
		{"summary refused after the review", once(403, `{"message":"Resource not accessible by integration"}`, nil, "POST /repos/acme/shop/issues"), false,
			[]string{"posted 6 inline comments, but the summary comment was not", "issues: write"}, 1},
		{"bad token", once(401, `{"message":"Bad credentials"}`, nil, "GET"), false, []string{"401", "check GITHUB_TOKEN"}, 0},
		{"secondary rate limit without Retry-After", once(403, `{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}`,
			http.Header{"X-Ratelimit-Remaining": {"4990"}, "X-Ratelimit-Reset": {fmt.Sprint(reset.Unix())}}, "POST"),
			false, []string{"403", "secondary rate limit", "not the hourly limit", "wait at least a minute", "re-run after 12:01:00 UTC", "nothing was posted"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := githubtest.New(t, "acme", "shop", 7, hunksOf(in.Files))
			s.Fail = tc.fail
			req := Build(in)
			if tc.badLine {
				req.Comments[0].Line = 25 // between the hunks
			}
			c := newClient(s)
			c.Now = func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }
			_, err := c.Post(context.Background(), req)
			_, _, reviews, errs := s.Snapshot()
			if len(errs) > 0 {
				t.Errorf("protocol errors: %v", errs)
			}
			if err != nil && strings.Contains(err.Error(), "used up until") && !strings.Contains(tc.name, "rate limit") {
				t.Errorf("not a used-up hourly limit: %v", err)
			}
			if reviews != tc.posted {
				t.Errorf("%d reviews posted, want %d", reviews, tc.posted)
			}
			if tc.want == nil {
				if err != nil {
					t.Errorf("error %v, want none", err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestReviewInertOnGitHub: report text in the review's body and comments
// (Javadoc tags, issue references, Markdown links and images, HTML, a
// planted marker) renders on GitHub as text: no link, image, mention,
// reference or hidden comment but recap's own markers.
func TestReviewInertOnGitHub(t *testing.T) {
	hostile := []string{"Missing @param tag and @return", "Annotated with @Test; see #123", "Fixed in acme/shop#5",
		"[x](javascript:alert(1))", "![](https://e.x/a.png)", "<img src=x>", "<!-- recap:fp=x -->", "a ` backtick", "a | pipe",
		"cf. GH-12 and gh-7", "since a5c3785ed8d6a35868bc169f07e40e889087fd2e", "short 9ba1224", "user@a5c3785ed8d6a35868bc169f07e40e889087fd2e"}
	files := []diff.File{{OldPath: "A.java", NewPath: "A.java", Status: diff.Modified, Changed: []int{10, 11, 12, 40},
		Hunks: []diff.Hunk{{OldStart: 4, OldLines: 9, NewStart: 4, NewLines: 12}}}}
	c := summarize.NewCollector()
	c.KeepPage(0, summarize.MaxLimit)
	for i := 0; i < MaxComments+len(hostile); i++ { // the last ones are listed in the body
		m := hostile[i%len(hostile)]
		f := reports.Finding{ID: reports.ID("n", i), Tool: "PMD", Rule: "R@" + m, Category: "C " + m, Severity: reports.SeverityWarning,
			Path: "A.java", Line: 10 + i%3, Message: m, HelpURI: []string{"javascript:alert(1)", "https://pmd.example/r"}[i%2]}
		f.Fingerprint = reports.Fingerprint(f, nil)
		c.Add(f)
	}
	in := Input{View: c.View([]reports.Input{{Path: "@me/#1.sarif", Error: "cannot read @me/#1.sarif: [x](javascript:1)"}}),
		Files: files, Index: diff.NewIndex(files)}
	req := Build(in)
	check := func(what, md string, markers []string, texts []string) {
		doc := gfmtest.Render(t, md)
		for _, p := range gfmtest.Problems(doc) {
			if !strings.Contains(p, `<a href="https://pmd.example/r">`) { // recap's own link to the rule's help
				t.Errorf("%s: %s", what, p)
			}
		}
		if got := gfmtest.Comments(doc); !cmp.Equal(got, markers) {
			t.Errorf("%s: HTML comments %q, want %q", what, got, markers)
		}
		text := gfmtest.Text(doc)
		for _, s := range texts {
			if !strings.Contains(text, s) {
				t.Errorf("%s: the text does not read %q:\n%s", what, s, text)
			}
		}
	}
	check("body", req.Body, []string{" recap:summary "}, hostile[len(hostile)-2:])
	for i, cm := range req.Comments {
		check(fmt.Sprintf("comment %d", i), cm.Body, []string{" recap:fp=" + cm.Key + " "}, nil)
		if KeyOf(cm.Body) != cm.Key {
			t.Errorf("comment %d: key %q, want %q", i, KeyOf(cm.Body), cm.Key)
		}
	}
}

// TestRetryAfter: a secondary rate limit (403 with Retry-After) is waited
// out and the request tried again, within MaxTries and MaxRetryWait; past
// them the error names the time Retry-After gives, not the hourly reset
// that X-RateLimit-Reset gives in the same answer.
func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	hourly := now.Add(47 * time.Minute)
	for _, tc := range []struct {
		name    string
		after   []string // Retry-After of the answers to POST …/reviews, in order ("" answers normally)
		slept   []time.Duration
		reviews int
		want    string
	}{
		{"waited once", []string{"30"}, []time.Duration{30 * time.Second}, 1, ""},
		{"waited twice", []string{"20", "40"}, []time.Duration{20 * time.Second, 40 * time.Second}, 1, ""},
		{"three tries", []string{"1", "1", "1"}, []time.Duration{time.Second, time.Second}, 0,
			"wait 1s (Retry-After): re-run after 12:00:03 UTC"},
		{"over the wait bound", []string{"90"}, nil, 0, "wait 1m30s (Retry-After): re-run after 12:01:30 UTC"},
		{"bound spent", []string{"50", "20"}, []time.Duration{50 * time.Second}, 0, "re-run after 12:01:10 UTC"},
		{"an HTTP date", []string{now.Add(10 * time.Second).Format(http.TimeFormat)}, []time.Duration{10 * time.Second}, 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := fixture(3)
			s := githubtest.New(t, "acme", "shop", 7, hunksOf(in.Files))
			n := 0
			s.Fail = func(r *http.Request) (int, string, http.Header) {
				if r.Method != "POST" || !strings.HasSuffix(r.URL.Path, "/reviews") || n >= len(tc.after) || tc.after[n] == "" {
					return 0, "", nil
				}
				n++
				return 403, `{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}`,
					http.Header{"Retry-After": {tc.after[n-1]}, "X-Ratelimit-Remaining": {"4000"}, "X-Ratelimit-Reset": {fmt.Sprint(hourly.Unix())}}
			}
			clock := now
			var slept []time.Duration
			c := newClient(s)
			c.Now = func() time.Time { return clock }
			c.Sleep = func(_ context.Context, d time.Duration) error {
				slept = append(slept, d)
				clock = clock.Add(d)
				return nil
			}
			_, err := c.Post(context.Background(), Build(in))
			_, _, reviews, errs := s.Snapshot()
			if len(errs) > 0 {
				t.Errorf("protocol errors: %v", errs)
			}
			if !cmp.Equal(slept, tc.slept) || reviews != tc.reviews {
				t.Errorf("slept %v, %d reviews; want %v, %d", slept, reviews, tc.slept, tc.reviews)
			}
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "12:47")):
				t.Errorf("error %v, want one saying %q (and not the hourly reset)", err, tc.want)
			}
		})
	}
}

// TestMarkersOfOthers: markers count only in comments of the account recap
// posts as: a comment by someone else that carries recap's summary marker is
// not overwritten, nor does one carrying an inline comment's marker hide
// recap's comment. Both kinds of token: GITHUB_TOKEN (GET /user refused,
// github-actions[bot]) and a personal token (GET /user).
func TestMarkersOfOthers(t *testing.T) {
	for _, poster := range []githubtest.User{githubtest.ActionsBot, githubtest.By("octocat")} {
		t.Run(poster.Login, func(t *testing.T) {
			in := fixture(2)
			req := Build(in)
			s := githubtest.New(t, "acme", "shop", 7, hunksOf(in.Files))
			s.Poster = poster
			mallory := githubtest.By("mallory")
			other := githubtest.ActionsBot // the other kind of account than recap's
			if poster == githubtest.ActionsBot {
				other = githubtest.By("octocat")
			}
			for _, u := range []githubtest.User{mallory, other} {
				s.IssueComments = append(s.IssueComments, githubtest.Comment{ID: int64(len(s.IssueComments) + 1), Body: SummaryMarker + "\nplanted", User: u})
				for _, cm := range req.Comments {
					s.ReviewComments = append(s.ReviewComments, githubtest.Comment{ID: int64(len(s.ReviewComments) + 100), Path: cm.Path, Line: cm.Line,
						Body: "planted " + markerPrefix + cm.Key + " -->", User: u})
				}
			}
			done, err := newClient(s).Post(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			rc, ic, _, errs := s.Snapshot()
			if len(errs) > 0 {
				t.Errorf("protocol errors: %v", errs)
			}
			if done.Login != poster.Login || done.Comments != len(req.Comments) || done.Skipped != 0 || done.Summary.Updated || len(ic) != 3 ||
				len(rc) != 3*len(req.Comments) {
				t.Fatalf("posted %+v; %d review comments, %d issue comments", done, len(rc), len(ic))
			}
			for _, c := range ic[:2] {
				if !strings.HasSuffix(c.Body, "planted") {
					t.Errorf("%s's comment was overwritten: %q", c.User.Login, c.Body)
				}
			}
			// A second run finds its own comments only.
			done, err = newClient(s).Post(context.Background(), req)
			if err != nil || done.Skipped != len(req.Comments) || !done.Summary.Updated || done.Summary.ID != ic[2].ID {
				t.Errorf("second run: %+v, %v", done, err)
			}
		})
	}
}

// TestSuggestion: a fix becomes a suggested change only when it changes
// the finding's file alone, on lines one hunk shows that the finding's own
// lines overlap; the block's fence outlasts the text's backticks; the
// lines come from the hunk (CR dropped).
func TestSuggestion(t *testing.T) {
	files := []diff.File{{NewPath: "a.md", Hunks: []diff.Hunk{{NewStart: 1, NewLines: 4, Lines: []diff.Line{
		{Kind: diff.Context, New: 1, Text: "# Title\r"}, {Kind: diff.Delete, Old: 2, Text: "old"}, {Kind: diff.Add, New: 2, Text: "use `x` here\r"},
		{Kind: diff.Add, New: 3, Text: "and ```y```"}, {Kind: diff.Context, New: 4, Text: "end"}}}}}}
	a := NewAnchors(files)
	fix := func(r ...reports.Replacement) *reports.Detail {
		return &reports.Detail{Fix: &reports.Fix{Replacements: r}}
	}
	tests := map[string]struct {
		f        reports.Finding
		block    string
		from, to int
	}{
		"one line": {reports.Finding{Path: "a.md", Line: 2, Detail: fix(reports.Replacement{Path: "a.md", Line: 2, Column: 5, EndColumn: 8, Text: "`y`"})},
			"```suggestion\nuse `y` here\n```\n\n", 2, 2},
		"two lines, backticks": {reports.Finding{Path: "a.md", Line: 3, Detail: fix(reports.Replacement{Path: "a.md", Line: 2, EndLine: 3, Text: "````z````"})},
			"`````suggestion\n````z````\n`````\n\n", 2, 3},
		"another file":               {reports.Finding{Path: "a.md", Line: 2, Detail: fix(reports.Replacement{Path: "b.md", Line: 2, Text: "x"})}, "", 0, 0},
		"past the hunk":              {reports.Finding{Path: "a.md", Line: 4, Detail: fix(reports.Replacement{Path: "a.md", Line: 4, EndLine: 5, Text: "x"})}, "", 0, 0},
		"not on the finding's lines": {reports.Finding{Path: "a.md", Line: 3, Detail: fix(reports.Replacement{Path: "a.md", Line: 1, Text: "# T"})}, "", 0, 0},
		"does not fit the lines":     {reports.Finding{Path: "a.md", Line: 2, Detail: fix(reports.Replacement{Path: "a.md", Line: 2, Column: 40, EndColumn: 41, Text: "x"})}, "", 0, 0},
		"no fix":                     {reports.Finding{Path: "a.md", Line: 2, Detail: &reports.Detail{}}, "", 0, 0},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			block, from, to, ok := suggestion(&tc.f, files, a, nil)
			if ok != (tc.block != "") || block != tc.block || from != tc.from || to != tc.to {
				t.Errorf("suggestion = %q, %d-%d, %v; want %q, %d-%d", block, from, to, ok, tc.block, tc.from, tc.to)
			}
		})
	}
}

// TestPostRefusedAnchor: GitHub refuses a review for one comment on a line
// it cannot place (422 "Line could not be resolved", without saying which
// comment): recap finds it by halves, posts the others, and lists the
// refused finding in the summary with GitHub's reason. Two refused comments
// are both found; past MaxRefusedTries the rest are refused together.
func TestPostRefusedAnchor(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n        int   // findings
		bad      []int // comments moved off GitHub's diff
		reviews  int
		refused  int
		together bool
	}{
		{"one of six", 5, []int{0}, 2, 1, false},
		{"one of thirty: 6 refused requests, 5 reviews", 40, []int{11}, 5, 1, false},
		{"two of thirty", 40, []int{3, 17}, 8, 2, false},
		{"all of thirty", 40, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29}, 0, 30, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := fixture(tc.n)
			s := githubtest.New(t, "acme", "shop", 7, hunksOf(in.Files))
			req := Build(in)
			for _, i := range tc.bad {
				req.Comments[i].Line = 25 + i%3 // between the hunks: GitHub cannot place it
			}
			done, err := newClient(s).Post(context.Background(), req)
			rc, ic, reviews, errs := s.Snapshot()
			if err != nil || len(errs) > 0 {
				t.Fatalf("%v; protocol errors %v", err, errs)
			}
			if reviews != tc.reviews || len(done.Refused) != tc.refused || done.Comments != len(req.Comments)-tc.refused || len(rc) != done.Comments {
				t.Fatalf("%d reviews, %d comments posted, %d refused; want %d reviews, %d refused", reviews, len(rc), len(done.Refused), tc.reviews, tc.refused)
			}
			together := false
			for _, r := range done.Refused {
				if !strings.Contains(r.Reason, "Line could not be resolved") || !tc.together && strings.Contains(r.Reason, "together") {
					t.Errorf("reason %q", r.Reason)
				}
				together = together || strings.Contains(r.Reason, "together")
			}
			if together != tc.together {
				t.Errorf("refused together: %v, want %v", together, tc.together)
			}
			body := ic[0].Body
			if !strings.Contains(body, fmt.Sprintf("Not commented inline (%d)", tc.refused+tc.n+1-len(req.Comments))) ||
				strings.Count(body, "not placed: GitHub answered 422") != tc.refused ||
				!strings.Contains(body, fmt.Sprintf("%d inline comment", done.Comments)) {
				t.Errorf("summary:\n%s", body)
			}
		})
	}
}

// TestPacing: writes are at least WriteInterval apart, reads are not
// paced, and the first write does not wait; with the real clock the
// stand-in sees the gaps.
func TestPacing(t *testing.T) {
	in := fixture(3)
	s := githubtest.New(t, "acme", "shop", 7, hunksOf(in.Files))
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	var slept []time.Duration
	c := newClient(s)
	c.WriteInterval = time.Second
	c.Now = func() time.Time { now = now.Add(100 * time.Millisecond); return now } // each look at the clock: 100 ms later
	c.Sleep = func(_ context.Context, d time.Duration) error { slept = append(slept, d); now = now.Add(d); return nil }
	if _, err := c.Post(context.Background(), Build(in)); err != nil {
		t.Fatal(err)
	}
	// The review (first write, no wait), then the summary: one wait of a
	// second less the time the clock moved from the review's end.
	if len(slept) != 1 || slept[0] >= time.Second || slept[0] < 500*time.Millisecond {
		t.Errorf("slept %v", slept)
	}

	s = githubtest.New(t, "acme", "shop", 7, hunksOf(in.Files))
	c = newClient(s)
	c.WriteInterval = 150 * time.Millisecond
	run := BuildCheck(checkFixture(120, 0)) // 3 writes
	if _, err := c.PostCheck(context.Background(), run, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Post(context.Background(), Build(in)); err != nil { // 2 more
		t.Fatal(err)
	}
	times := s.WriteTimes()
	if len(times) != 5 {
		t.Fatalf("%d writes", len(times))
	}
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap < 150*time.Millisecond {
			t.Errorf("write %d came %v after the one before, want at least 150ms", i, gap)
		}
	}
}

// TestReviewInertOnGitLab: the same hostile report text, made inert for
// GitLab (GitLabBody) and rendered with cmark-gfm as GitLab renders
// Markdown: the text GitLab's reference filters read (entities decoded,
// code and links aside) holds none of GitLab's references, and reads as
// the report wrote it.
func TestReviewInertOnGitLab(t *testing.T) {
	hostile := []string{"see !12 and project!3", "labels ~bug ~\"needs review\" ~42 and ~group::scoped", "milestones %v1.2 %\"Sprint 3\" %7",
		"snippet $7, epic &3 and group&4", "alert ^alert#1", "issue #5 and @alice", "iteration *iteration:9", "[vulnerability:1] and [[Wiki Page]]",
		"commit 9ba12248 and 9ba12248...b19a04f5", "written as entities: &#126;bug &#33;12 &amp;3", "/merge", "/approve",
		"https://evil.example/x", "javascript://%0aalert(1)", "ftp://files.example/a", "custom-scheme://open?x=1", "entity https&#58;//evil.example", "HTTPS://LOUD.example", "javascript:alert(1)", "s3://bucket/key"}
	files := []diff.File{{OldPath: "A.java", NewPath: "A.java", Status: diff.Modified, Changed: []int{10, 11, 12},
		Hunks: []diff.Hunk{{OldStart: 4, OldLines: 9, NewStart: 4, NewLines: 12}}}}
	c := summarize.NewCollector()
	c.KeepPage(0, summarize.MaxLimit)
	for i := 0; i < MaxComments+len(hostile); i++ {
		m := hostile[i%len(hostile)]
		f := reports.Finding{ID: reports.ID("n", i), Tool: "PMD", Rule: "R" + m, Category: "C " + m, Severity: reports.SeverityWarning,
			Path: "A.java", Line: 10 + i%3, Message: m}
		f.Fingerprint = reports.Fingerprint(f, nil)
		c.Add(f)
	}
	req := Build(Input{View: c.View(nil), Files: files, Index: diff.NewIndex(files)})
	bodies := []string{GitLabBody(req.Body)}
	for _, cm := range req.Comments {
		bodies = append(bodies, GitLabBody(cm.Body))
	}
	for i, md := range bodies {
		doc := gfmtest.Render(t, md)
		for _, p := range gfmtest.GitLabReferences(doc) {
			t.Errorf("body %d: %s", i, p)
		}
		for _, line := range strings.Split(md, "\n") {
			if strings.HasPrefix(line, "/") {
				t.Errorf("body %d: a quick action line %q", i, line)
			}
		}
	}
	text := gfmtest.Text(gfmtest.Render(t, strings.Join(bodies, "\n\n")))
	for _, m := range hostile {
		if !strings.Contains(text, m) {
			t.Errorf("the summary does not read %q:\n%s", m, text)
		}
	}
	// The check can fail: a body with live references is caught.
	if len(gfmtest.GitLabReferences(gfmtest.Render(t, "see &#126;bug, !12 and [[Home]]"))) != 3 {
		t.Error("GitLabReferences misses references written as entities")
	}
	if n := len(gfmtest.GitLabReferences(gfmtest.Render(t, "go to custom-scheme://x, ftp&#58;//y and javascript&#58;//x"))); n != 3 {
		t.Errorf("GitLabReferences finds %d of 3 autolinks of any scheme", n)
	}
	if len(gfmtest.Problems(gfmtest.Render(t, "GH-12 a5c3785ed8d6a35868bc169f07e40e889087fd2e"))) != 2 {
		t.Error("Problems misses GH-12 or a SHA")
	}
}

// TestAppTokenPostsOnce: a GitHub App's installation token (GET /user
// refused, the comments posted as <app-slug>[bot]) run twice against the
// OpenAPI-validating stand-in posts each comment and the summary once: the
// second run skips every comment and updates the summary. A person's
// planted summary marker is still left alone.
func TestAppTokenPostsOnce(t *testing.T) {
	app := githubtest.User{Login: "recap-app[bot]", ID: 9001, Type: "Bot"}
	for _, login := range []string{"", app.Login} { // learned, or given (--github-login)
		t.Run("login="+login, func(t *testing.T) {
			in := fixture(2)
			req := Build(in)
			s := githubtest.New(t, "acme", "shop", 7, hunksOf(in.Files))
			s.Poster = app
			s.IssueComments = append(s.IssueComments, githubtest.Comment{ID: 1, Body: SummaryMarker + "\nplanted", User: githubtest.By("mallory")})
			for run := 1; run <= 2; run++ {
				c := newClient(s)
				c.Account = login
				done, err := c.Post(context.Background(), req)
				if err != nil {
					t.Fatalf("run %d: %v", run, err)
				}
				if run == 2 && (done.Comments != 0 || done.Skipped != len(req.Comments) || !done.Summary.Updated) {
					t.Errorf("run 2 posted again: %+v", done)
				}
			}
			rc, ic, _, errs := s.Snapshot()
			if len(errs) > 0 {
				t.Errorf("protocol errors: %v", errs)
			}
			if len(rc) != len(req.Comments) || len(ic) != 2 || !strings.HasSuffix(ic[0].Body, "planted") {
				t.Errorf("after two runs: %d review comments (want %d), %d issue comments (want 2: the planted one kept, one summary)", len(rc), len(req.Comments), len(ic))
			}
		})
	}
}
