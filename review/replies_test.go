package review

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/recap-dev/recap/internal/githubtest"
	"github.com/recap-dev/recap/internal/gitlabtest"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/triage"
)

// sourceOf is a repository of the files the findings of in are in, each
// line its own text, for the entries' location fingerprints.
func sourceOf(in Input) fstest.MapFS {
	fsys := fstest.MapFS{}
	for _, f := range in.View.Findings {
		if _, ok := fsys[f.Path]; ok {
			continue
		}
		var b strings.Builder
		for i := 1; i <= 60; i++ {
			fmt.Fprintf(&b, "line %d of %s;\n", i, f.Path)
		}
		fsys[f.Path] = &fstest.MapFile{Data: []byte(b.String())}
	}
	return fsys
}

// findIn is a FindFunc over the view's findings.
func findIn(in Input) FindFunc {
	return func(_ context.Context, want map[string]bool) (map[string][]reports.Finding, error) {
		out := map[string][]reports.Finding{}
		for _, f := range in.View.Findings {
			if base := FingerprintBase(f.Fingerprint); want[base] {
				out[base] = append(out[base], f.Finding)
			}
		}
		return out, nil
	}
}

// replyCase is a reply to one of the first run's comments and what
// becomes of it.
type replyCase struct {
	name    string
	comment int    // the index of the comment replied to (its thread)
	by      string // the author's login
	body    string
	state   triage.State // the entry made; "" for none
	ignored string       // what the body says of it; "" for nothing
	others  bool         // the reply is to another user's comment carrying a copy of recap's marker
}

var replyCases = []replyCase{
	{name: "a writer's reply", comment: 0, by: "maria", body: "/recap false-positive the value is validated upstream", state: triage.FalsePositive},
	{name: "a maintainer's, the state in words", comment: 1, by: "omar", body: "> quoted text\n\n/recap used in tests only the tests build this\nsecond line", state: triage.UsedInTests},
	{name: "a reader's reply", comment: 2, by: "mallory", body: "/recap wont-fix not worth it", ignored: "ignored a reply by @\u200dmallory: no write access"},
	{name: "a reply to another user's comment", comment: 3, by: "maria", body: "/recap false-positive copied marker", others: true,
		ignored: "ignored a reply by @\u200dmaria: not a reply to one of recap's comments"},
	{name: "an unknown state", comment: 4, by: "maria", body: "/recap maybe later", ignored: "is no state: write /recap STATE REASON, STATE one of false-positive, wont-fix, accepted-risk, used-in-tests or confirmed"},
	{name: "no reason", comment: 5, by: "maria", body: "/recap accepted-risk", ignored: "no reason after accepted-risk"},
	{name: "no command", comment: 6, by: "maria", body: "thanks, fixing it"},
}

// checkReplied checks what Replies made of replyCases, and the second
// run's review built with it: the findings decided are not commented
// again nor listed, the body shows their entries and the replies ignored.
func checkReplied(t *testing.T, in Input, first *Request, r *Replied, urls map[string]string, day string) {
	t.Helper()
	byKey := map[string]reports.Finding{}
	for _, c := range first.Comments {
		byKey[c.Key] = first.byKey[c.Key].Finding
	}
	want := map[string]replyCase{}
	for _, rc := range replyCases {
		if rc.state != "" {
			f := byKey[first.Comments[rc.comment].Key]
			want[f.Path+":"+f.Rule+":"+fmt.Sprint(f.Line)] = rc
		}
	}
	if len(r.Entries) != len(want) {
		t.Fatalf("%d entries, want %d: %+v", len(r.Entries), len(want), r.Entries)
	}
	src := sourceOf(in)
	for _, e := range r.Entries {
		var rc replyCase
		var f reports.Finding
		for k, c := range want {
			if strings.HasPrefix(k, e.Path+":"+e.Rule+":") {
				rc, f = c, byKey[first.Comments[c.comment].Key]
			}
		}
		b, _ := src.ReadFile(f.Path)
		if e.State != rc.state || e.By != rc.by || e.Tool != f.Tool || e.Location != triage.Locations(b)[f.Line-1] || e.Link != urls[rc.name] ||
			e.Date != day || e.Reason == "" {
			t.Errorf("%s: entry %+v", rc.name, e)
		}
	}
	second := Build(Input{View: in.View, Outside: in.Outside, Files: in.Files, Index: in.Index, Replied: r})
	for _, rc := range replyCases {
		key := first.Comments[rc.comment].Key
		covered := false
		for _, c := range second.Comments {
			covered = covered || c.Key == key
		}
		if rc.state != "" && covered {
			t.Errorf("%s: its finding is commented again", rc.name)
		}
		if rc.state == "" && !covered {
			t.Errorf("%s: its finding is no longer commented", rc.name)
		}
		if rc.ignored != "" && !strings.Contains(second.Body, rc.ignored) {
			t.Errorf("%s: the body does not say %q:\n%s", rc.name, rc.ignored, second.Body)
		}
	}
	if !strings.Contains(second.Body, "#### Triaged by replies (2)") || !strings.Contains(second.Body, "reason: the value is validated upstream") ||
		!strings.Contains(second.Body, "by: maria") || !strings.Contains(second.Body, "under `entries:` in `.recap/triage.yml`") {
		t.Errorf("the body does not show the entries to commit:\n%s", second.Body)
	}
	if u := urls["a reader's reply"]; strings.HasPrefix(u, "http") && !strings.Contains(second.Body, "no write access ([the reply](<"+u+">))") {
		t.Errorf("the ignored reply is not linked (%s):\n%s", u, second.Body)
	}
	if strings.Count(second.Body, "ignored a reply") != 4 {
		t.Errorf("%d replies said ignored, want 4:\n%s", strings.Count(second.Body, "ignored a reply"), second.Body)
	}
}

// TestRepliesGitHub: replies to recap's review comments on GitHub, against
// the stand-in that checks every request against GitHub's OpenAPI
// description, each reply a real review comment payload.
func TestRepliesGitHub(t *testing.T) {
	in := fixture(12)
	s := githubtest.New(t, "acme", "shop", 7, hunksOf(in.Files))
	s.Roles = map[string]string{"maria": "write", "omar": "maintain", "mallory": "triage"}
	// Each comment carries its finding's location: the replies are
	// honoured on the findings of that code.
	in.Locate = func(f *reports.Finding) string { return triage.EntryFor(f, sourceOf(in)).Location }
	first := Build(in)
	if !strings.Contains(first.Comments[0].Body, atPrefix) || AtOf(first.Comments[0].Body) == "" {
		t.Fatalf("a comment without its location:\n%s", first.Comments[0].Body)
	}
	ctx := context.Background()
	idOf := postFirst(t, s, first)
	urls := map[string]string{}
	for _, rc := range replyCases {
		to := idOf[first.Comments[rc.comment].Key]
		if rc.others {
			// bob's comment quotes recap's marker: a reply to it is no reply to recap.
			s.ReviewComments = append(s.ReviewComments, githubtest.Comment{ID: 900, Path: "A.java", Line: 10, Side: "RIGHT", User: githubtest.By("bob"),
				Body: "see " + markerPrefix + first.Comments[rc.comment].Key + " -->", HTMLURL: "https://github.com/acme/shop/pull/7#discussion_r900"})
			to = 900
		}
		urls[rc.name] = s.Reply(t, to, githubtest.By(rc.by), rc.body).HTMLURL
	}
	r, err := Replies(ctx, newClient(s), findIn(in), sourceOf(in))
	if err != nil {
		t.Fatal(err)
	}
	_, _, _, errs := s.Snapshot()
	if len(errs) > 0 {
		t.Fatalf("protocol errors: %v", errs)
	}
	checkReplied(t, in, first, r, urls, "2026-11-27")
	asked := 0
	for _, q := range s.Requests {
		if strings.HasSuffix(q, "/permission") {
			asked++
		}
	}
	if asked != 3 { // maria, omar, mallory: each once
		t.Errorf("%d permission requests, want 3: %v", asked, s.Requests)
	}
}

// TestRepliesGitLab: replies in the discussions recap started on a GitLab
// merge request, by members of the project (Developer or above may
// write) and by others.
func TestRepliesGitLab(t *testing.T) {
	in, _ := gitLabFixture(t, 12)
	s := gitlabtest.New(t, "acme/shop", 7, mrDiff, glBase, glStart, glHead)
	people := map[string]gitlabtest.User{}
	for _, name := range []string{"maria", "omar", "mallory", "bob"} {
		people[name] = gitlabtest.User{ID: int64(len(people)+1) * 77, Username: name, Name: name, State: "active", WebURL: "https://gitlab.example/" + name}
	}
	s.Members = map[int64]int{people["maria"].ID: 30, people["omar"].ID: 40, people["mallory"].ID: 20}
	// Each comment carries its finding's location: the replies are
	// honoured on the findings of that code.
	in.Locate = func(f *reports.Finding) string { return triage.EntryFor(f, sourceOf(in)).Location }
	first := Build(in)
	if !strings.Contains(first.Comments[0].Body, atPrefix) || AtOf(first.Comments[0].Body) == "" {
		t.Fatalf("a comment without its location:\n%s", first.Comments[0].Body)
	}
	ctx := context.Background()
	if _, err := newGitLab(s).Post(ctx, first); err != nil {
		t.Fatal(err)
	}
	notes, _, _ := s.Snapshot()
	idOf := map[string]int64{}
	for _, n := range notes {
		if k := KeyOf(n.Body); k != "" {
			idOf[k] = n.ID
		}
	}
	urls := map[string]string{}
	for _, rc := range replyCases {
		to := idOf[first.Comments[rc.comment].Key]
		if rc.others {
			// bob's discussion quotes recap's marker: a reply in it is no reply to recap.
			s.AddNote("see "+markerPrefix+first.Comments[rc.comment].Key+" -->", people["bob"], true)
			notes, _, _ := s.Snapshot()
			to = notes[len(notes)-1].ID
		}
		n := s.Reply(t, to, people[rc.by], rc.body)
		urls[rc.name] = fmt.Sprintf("https://gitlab.example/acme/shop/-/merge_requests/7#note_%d", n.ID)
	}
	r, err := Replies(ctx, newGitLab(s), findIn(in), sourceOf(in))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, errs := s.Snapshot(); len(errs) > 0 {
		t.Fatalf("protocol errors: %v", errs)
	}
	checkReplied(t, in, first, r, urls, "2026-11-23")
	second := Build(Input{View: in.View, Outside: in.Outside, Files: in.Files, Index: in.Index, Replied: r})
	if body := GitLabBody(second.Body); !strings.Contains(body, "link: https://gitlab.example/acme/shop/-/merge_requests/7#note_") {
		t.Errorf("the entries' block is not kept as it is on GitLab:\n%s", body)
	}
}

// TestParseReply: the commands a reply may hold, and what is said of the
// others.
func TestParseReply(t *testing.T) {
	for _, tc := range []struct {
		body   string
		state  triage.State
		reason string
		cmd    bool
		err    string
	}{
		{"/recap false-positive checked by the caller", triage.FalsePositive, "checked by the caller", true, ""},
		{"/RECAP Won't fix   legacy\ncode", triage.WontFix, "legacy code", true, ""},
		{"/recap false positive two words", triage.FalsePositive, "two words", true, ""},
		{"/recap wontfix x", triage.WontFix, "x", true, ""},
		{"> /recap confirmed quoted\n\n/recap confirmed real", triage.Confirmed, "real", true, ""},
		{"/recap", "", "", true, "no state and no reason"},
		{"/recap confirmed", "", "", true, "no reason after confirmed"},
		{"/recap nope because", "", "", true, `"nope" is no state`},
		{"/recaps false-positive x", "", "", false, ""},
		{"please /recap false-positive x", "", "", false, ""},
		{"", "", "", false, ""},
	} {
		t.Run(tc.body, func(t *testing.T) {
			state, reason, cmd, err := ParseReply(tc.body)
			if state != tc.state || reason != tc.reason || cmd != tc.cmd || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseReply(%q) = %q, %q, %v, %v; want %q, %q, %v, %q", tc.body, state, reason, cmd, err, tc.state, tc.reason, tc.cmd, tc.err)
			}
		})
	}
}

// FuzzParseReply: a reply of any text is read without a panic; a command
// it accepts has a known state and a reason on one line, within bounds.
func FuzzParseReply(f *testing.F) {
	for _, s := range []string{"/recap false-positive checked", "/recap", "/recap won't fix x\ny", "> q\n/recap used in tests t", "/recap \u00a0confirmed\u2028r", "thanks"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		state, reason, cmd, err := ParseReply(body)
		if !cmd && (err != nil || state != "" || reason != "") {
			t.Fatalf("no command, but %q %q %v", state, reason, err)
		}
		if cmd && err == nil && (!state.Valid() || reason == "" || strings.ContainsAny(reason, "\n\r\t") || len([]rune(reason)) > maxReplyReason) {
			t.Fatalf("accepted %q with state %q reason %q", body, state, reason)
		}
	})
}

// TestRepliesBounded: a pull request where 100 people reply with commands
// (anyone who may comment can): one run asks GitHub about
// MaxReplyAuthors of them, ignores the others saying why, and the summary
// stays within GitHub's size, listing some and counting the rest.
func TestRepliesBounded(t *testing.T) {
	in := fixture(3)
	s := githubtest.New(t, "acme", "shop", 7, hunksOf(in.Files))
	// Each comment carries its finding's location: the replies are
	// honoured on the findings of that code.
	in.Locate = func(f *reports.Finding) string { return triage.EntryFor(f, sourceOf(in)).Location }
	first := Build(in)
	if !strings.Contains(first.Comments[0].Body, atPrefix) || AtOf(first.Comments[0].Body) == "" {
		t.Fatalf("a comment without its location:\n%s", first.Comments[0].Body)
	}
	ctx := context.Background()
	if _, err := newClient(s).Post(ctx, first); err != nil {
		t.Fatal(err)
	}
	posted, _, _, _ := s.Snapshot()
	for i := range 100 {
		s.Reply(t, posted[i%len(posted)].ID, githubtest.By(fmt.Sprintf("user%03d", i)), "/recap wont-fix "+strings.Repeat("because ", 300))
	}
	r, err := Replies(ctx, newClient(s), findIn(in), sourceOf(in))
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	for _, q := range s.Requests {
		if strings.HasSuffix(q, "/permission") {
			asked++
		}
	}
	if asked != MaxReplyAuthors || len(r.Ignored) != 100 || len(r.Entries) != 0 {
		t.Errorf("%d permission requests (want %d), %d ignored, %d entries", asked, MaxReplyAuthors, len(r.Ignored), len(r.Entries))
	}
	body := Build(Input{View: in.View, Outside: in.Outside, Files: in.Files, Index: in.Index, Replied: r}).Body
	if len(body) > MaxBody || strings.Count(body, "ignored a reply by") != maxIgnoredShown || !strings.Contains(body, "… and 80 more replies ignored") {
		t.Errorf("a body of %d bytes, %d replies listed:\n%.3000s", len(body), strings.Count(body, "ignored a reply by"), body)
	}
}

// threadsHost is a ReplyHost of given threads, every author a writer.
type threadsHost struct {
	Host
	threads []Thread
}

func (h threadsHost) Login(context.Context) (string, error) { return "recap-bot", nil }
func (h threadsHost) Threads(context.Context, string) ([]Thread, error) {
	return h.threads, nil
}
func (h threadsHost) CanWrite(context.Context, *Reply) (bool, error) { return true, nil }

// TestRepliesFollowTheCode: a reply to the comment on one of several
// findings of one identity (three methods without Javadoc: one rule, one
// message, their fingerprints told apart by their occurrence) is honoured
// on the finding of the code commented on, found by the location the
// comment carries, after a method is added above them (the occurrences
// shift); a comment without one (an earlier recap's) keeps its
// occurrence; code changed since is said, not decided.
func TestRepliesFollowTheCode(t *testing.T) {
	const before = "class A {\n    public void add(String item) {\n    }\n    public long total(int count) {\n    }\n}\n"
	const after = "class A {\n    public void clear() {\n    }\n    public void add(String item) {\n    }\n    public long total(int count) {\n    }\n}\n"
	finding := func(line, occ int) reports.Finding {
		return reports.Finding{Tool: "Checkstyle", Rule: "MissingJavadocMethod", Path: "A.java", Line: line, Message: "Missing a Javadoc comment.",
			Fingerprint: fmt.Sprintf("0123456789abcdef:%d", occ)}
	}
	// Commented on total() (line 4, the second occurrence) before clear()
	// was added: total() is at line 6 now, the third.
	at := triage.Locations([]byte(before))[3]
	now := []reports.Finding{finding(2, 1), finding(4, 2), finding(6, 3)}
	find := func(_ context.Context, want map[string]bool) (map[string][]reports.Finding, error) {
		out := map[string][]reports.Finding{}
		for _, f := range now {
			if b := FingerprintBase(f.Fingerprint); want[b] {
				out[b] = append(out[b], f)
			}
		}
		return out, nil
	}
	reply := Reply{Author: "maria", Body: "/recap used-in-tests total() is only called from tests", URL: "https://example.com/r/1"}
	for _, tc := range []struct {
		name, at, src string
		line          int    // the line of the entry's finding; 0: none
		ignored       string // why the reply is not honoured
	}{
		{"the location", at, after, 6, ""},
		{"an earlier recap's comment: its occurrence", "", after, 4, ""},
		{"the code changed", at, strings.Replace(after, "total(int count)", "sum(int count)", 1), 0, "the code it answered changed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := threadsHost{threads: []Thread{{Key: "0123456789abcdef:2#1", At: tc.at, Replies: []Reply{reply}}}}
			r, err := Replies(context.Background(), h, find, fstest.MapFS{"A.java": &fstest.MapFile{Data: []byte(tc.src)}})
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(tc.src, "\n")
			switch {
			case tc.line == 0 && (len(r.Entries) != 0 || len(r.Ignored) != 1 || !strings.Contains(r.Ignored[0].Why, tc.ignored)):
				t.Errorf("entries %+v, ignored %+v", r.Entries, r.Ignored)
			case tc.line > 0 && (len(r.Entries) != 1 || r.Entries[0].Line != strings.TrimSpace(lines[tc.line-1])):
				t.Errorf("entries %+v, want the finding at line %d (%q)", r.Entries, tc.line, lines[tc.line-1])
			}
		})
	}
}

// TestRepliesToChangedCode: a reply to a comment whose code changed since
// (its finding's line edited) is said ignored, and the finding is
// commented on again, once, on the code as it is, for the reviewer to
// reply there; a reply there is honoured, and the earlier one no longer
// said. Against GitHub's stand-in.
func TestRepliesToChangedCode(t *testing.T) {
	in := fixture(12)
	s := githubtest.New(t, "acme", "shop", 7, hunksOf(in.Files))
	s.Roles = map[string]string{"maria": "write"}
	src := sourceOf(in)
	in.Locate = func(f *reports.Finding) string { return triage.EntryFor(f, src).Location }
	ctx := context.Background()
	first := Build(in)
	if _, err := newClient(s).Post(ctx, first); err != nil {
		t.Fatal(err)
	}
	posted, _, _, _ := s.Snapshot()
	target := first.Comments[0]
	var id int64
	for _, c := range posted {
		if KeyOf(c.Body) == target.Key {
			id = c.ID
		}
	}
	s.Reply(t, id, githubtest.By("maria"), "/recap false-positive checked upstream")
	// The finding's line is edited.
	f := first.byKey[target.Key].Finding
	b, _ := src.ReadFile(f.Path)
	lines := strings.Split(string(b), "\n")
	lines[f.Line-1] = "edited " + lines[f.Line-1]
	src[f.Path] = &fstest.MapFile{Data: []byte(strings.Join(lines, "\n"))}
	run := func() (*Replied, *Posted) {
		t.Helper()
		r, err := Replies(ctx, newClient(s), findIn(in), src)
		if err != nil {
			t.Fatal(err)
		}
		again := in
		again.Replied = r
		p, err := newClient(s).Post(ctx, Build(again))
		if err != nil {
			t.Fatal(err)
		}
		return r, p
	}
	r, p := run()
	if len(r.Entries) != 0 || !r.Repost[target.Key] || len(r.Ignored) != 1 || !strings.Contains(r.Ignored[0].Why, "the code it answered changed") {
		t.Fatalf("replied %+v", r)
	}
	if p.Comments != 1 {
		t.Fatalf("%d comments posted, want the finding's again: %+v", p.Comments, p)
	}
	// Once: the next run comments on nothing again.
	if _, p := run(); p.Comments != 0 {
		t.Errorf("%d comments posted again", p.Comments)
	}
	// A reply to the new comment is honoured; the earlier one is not said.
	posted, _, _, _ = s.Snapshot()
	var newID int64
	for _, c := range posted {
		if KeyOf(c.Body) == target.Key && c.ID != id {
			newID = c.ID
		}
	}
	s.Reply(t, newID, githubtest.By("maria"), "/recap false-positive checked upstream, still")
	r, _ = run()
	if len(r.Entries) != 1 || r.Entries[0].Reason != "checked upstream, still" || len(r.Ignored) != 0 {
		t.Errorf("after the reply to the new comment: %+v", r)
	}
}

// TestRepliesPermissionUnavailable: the host fails to say whether one
// author may write (500, after its retry): that author's reply is said not
// checked, for the next run; the other writers' replies are honoured.
func TestRepliesPermissionUnavailable(t *testing.T) {
	in := fixture(12)
	s := githubtest.New(t, "acme", "shop", 7, hunksOf(in.Files))
	s.Roles = map[string]string{"maria": "write", "omar": "unavailable"}
	first := Build(in)
	ctx := context.Background()
	idOf := postFirst(t, s, first)
	s.Reply(t, idOf[first.Comments[0].Key], githubtest.By("maria"), "/recap false-positive the value is validated upstream")
	s.Reply(t, idOf[first.Comments[1].Key], githubtest.By("omar"), "/recap wont-fix not worth it")
	r, err := Replies(ctx, newClient(s), findIn(in), sourceOf(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Entries) != 1 || r.Entries[0].By != "maria" || len(r.Ignored) != 1 || r.Ignored[0].Author != "omar" ||
		!strings.Contains(r.Ignored[0].Why, "not checked: the host did not say whether they may write") {
		t.Errorf("entries %+v\nignored %+v", r.Entries, r.Ignored)
	}
}

// postFirst posts the first run's review to the stand-in and returns the
// ids of its comments by their keys.
func postFirst(t *testing.T, s *githubtest.Server, first *Request) map[string]int64 {
	t.Helper()
	if _, err := newClient(s).Post(context.Background(), first); err != nil {
		t.Fatal(err)
	}
	posted, _, _, _ := s.Snapshot()
	idOf := map[string]int64{}
	for _, c := range posted {
		idOf[KeyOf(c.Body)] = c.ID
	}
	return idOf
}
