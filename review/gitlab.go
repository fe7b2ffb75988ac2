package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/summarize/render"
)

// GitLab is a [Host] for one merge request, through GitLab's REST API
// (v4): the inline comments as merge-request discussions anchored on the
// diff with GitLab's position object, and the summary as a note that later
// runs update in place. It posts no comment twice: each carries its
// finding's key in a hidden marker, which counts only in a note of the
// account recap posts as.
type GitLab struct {
	// APIURL is the API's root, https://gitlab.com/api/v4 ($CI_API_V4_URL).
	APIURL string
	// Token authenticates as PRIVATE-TOKEN (a personal, project or group
	// access token, $GITLAB_TOKEN), or as JOB-TOKEN when JobToken is set
	// ($CI_JOB_TOKEN).
	Token    string
	JobToken bool
	// Project is the project's id or its path ($CI_PROJECT_ID); MR the
	// merge request's iid ($CI_MERGE_REQUEST_IID).
	Project string
	MR      int
	// HeadSHA is the commit the comments' lines are of: the merge request's
	// diff version whose head it is gives the position's SHAs ("" takes
	// the latest version).
	HeadSHA string
	// Account is the account recap posts as, whose markers count. "" learns
	// it from GET /user; a job token cannot call /user: the command line
	// gives $GITLAB_USER_LOGIN, the user a job token acts for.
	Account   string
	UserAgent string
	HTTP      *http.Client
	// RetryWait is the pause before a GET that failed with 5xx is tried
	// again; Sleep waits (nil: a timer).
	RetryWait time.Duration
	Sleep     func(ctx context.Context, d time.Duration) error
	// WriteInterval is the least time between two writes (0: none; GitLab
	// documents no pause between writes, its limits are per minute).
	WriteInterval time.Duration
	// Version is the merge request diff version the positions are on,
	// once PostComments has read it.
	Version MRVersion

	waited time.Duration
	pace   pacer
}

// Name implements [Host].
func (g *GitLab) Name() string { return "GitLab" }

// Target implements [Host]: PROJECT!IID.
func (g *GitLab) Target() string { return fmt.Sprintf("%s!%d", g.Project, g.MR) }

// Words implements [Host].
func (g *GitLab) Words() (comment, summary string) { return "discussion", "summary note" }

// Post posts req to the merge request (see [Post]).
func (g *GitLab) Post(ctx context.Context, req *Request) (*Posted, error) {
	if g.Token == "" {
		return nil, errors.New("no token: set GITLAB_TOKEN (a project access token with the api scope) or run in GitLab CI ($CI_JOB_TOKEN)")
	}
	g.waited = 0
	return Post(ctx, g, req)
}

// MRVersion is a merge request diff version (GET …/versions).
type MRVersion struct {
	ID             int64  `json:"id"`
	HeadCommitSHA  string `json:"head_commit_sha"`
	BaseCommitSHA  string `json:"base_commit_sha"`
	StartCommitSHA string `json:"start_commit_sha"`
}

// Position is GitLab's position of a diff note on a text line: the three
// SHAs of the diff version, the file's paths before and after, and the
// line after the change (an added line), or both lines (an unchanged one).
type Position struct {
	BaseSHA      string `json:"base_sha"`
	StartSHA     string `json:"start_sha"`
	HeadSHA      string `json:"head_sha"`
	PositionType string `json:"position_type"`
	NewPath      string `json:"new_path"`
	OldPath      string `json:"old_path"`
	NewLine      int    `json:"new_line,omitempty"`
	OldLine      int    `json:"old_line,omitempty"`
}

// GitLabPositions finds the position of each line a comment may sit on:
// the added and unchanged lines of the diff's hunks, by new path and line.
type GitLabPositions struct {
	lines map[string]map[int]Position // SHAs left out
}

// NewGitLabPositions indexes files' hunks.
func NewGitLabPositions(files []diff.File) *GitLabPositions {
	p := &GitLabPositions{lines: map[string]map[int]Position{}}
	for _, f := range files {
		if f.NewPath == "" {
			continue
		}
		old := f.OldPath
		if old == "" {
			old = f.NewPath // GitLab wants both paths, the new one for an added file
		}
		m := map[int]Position{}
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				switch l.Kind {
				case diff.Add:
					m[l.New] = Position{PositionType: "text", NewPath: f.NewPath, OldPath: old, NewLine: l.New}
				case diff.Context:
					m[l.New] = Position{PositionType: "text", NewPath: f.NewPath, OldPath: old, NewLine: l.New, OldLine: l.Old}
				}
			}
		}
		p.lines[f.NewPath] = m
	}
	return p
}

// At is the position of line of path, false when the diff shows no such line.
func (p *GitLabPositions) At(path string, line int) (Position, bool) {
	pos, ok := p.lines[path][line]
	return pos, ok
}

// Login implements [Host]: the account recap posts as (see GitLab.Account).
func (g *GitLab) Login(ctx context.Context) (string, error) {
	if g.Account != "" {
		return g.Account, nil
	}
	if g.JobToken {
		return "", errors.New("a job token cannot read GET /user: give --gitlab-login (GitLab CI sets $GITLAB_USER_LOGIN)")
	}
	name, err := g.rest().user(ctx, g.url("/user"), "username")
	if err != nil {
		return "", err
	}
	g.Account = name
	return name, nil
}

// Earlier implements [Host]: the keys of login's notes, and its summary
// note.
func (g *GitLab) Earlier(ctx context.Context, login string) (*Earlier, error) {
	e := &Earlier{Keys: map[string]bool{}}
	summary, err := g.notes(ctx, login, e)
	if err != nil {
		return nil, fmt.Errorf("reading the merge request's notes: %w", err)
	}
	if summary != nil {
		e.SummaryID = summary.ID
	}
	return e, nil
}

// PostComments implements [Host]: a discussion per comment, anchored with
// the position of its line in the diff version of HeadSHA. GitLab takes
// one discussion a request, so a refused one (400, a position GitLab does
// not find in its diff) does not stop the others.
func (g *GitLab) PostComments(ctx context.Context, r *Request, comments []Comment) (int, []Refusal, error) {
	v, err := g.version(ctx)
	if err != nil {
		return 0, nil, fmt.Errorf("reading the merge request's diff versions: %w", err)
	}
	g.Version = v
	positions := NewGitLabPositions(r.Files())
	posted := 0
	var refused []Refusal
	for _, cm := range comments {
		pos, ok := positions.At(cm.Path, cm.Line)
		if !ok {
			refused = append(refused, Refusal{Comment: cm, Reason: "not a line of the diff"})
			continue
		}
		pos.BaseSHA, pos.StartSHA, pos.HeadSHA = v.BaseCommitSHA, v.StartCommitSHA, v.HeadCommitSHA
		body := struct {
			Body     string   `json:"body"`
			Position Position `json:"position"`
		}{GitLabBody(cm.Body), pos}
		err := g.do(ctx, http.MethodPost, g.mrPath("discussions"), body, nil)
		var ge *GitLabError
		switch {
		case err == nil:
			posted++
		case errors.As(err, &ge) && ge.Status == http.StatusBadRequest:
			refused = append(refused, Refusal{Comment: cm, Reason: "GitLab answered 400: " + ge.Message})
		default:
			return posted, refused, err
		}
	}
	return posted, refused, nil
}

// PostSummary implements [Host]: the summary note, edited in place when
// earlier has one.
func (g *GitLab) PostSummary(ctx context.Context, earlier *Earlier, body string) (*Summary, error) {
	var out gitLabNote
	payload := map[string]string{"body": GitLabBody(body)}
	if earlier != nil && earlier.SummaryID != 0 {
		if err := g.do(ctx, http.MethodPut, fmt.Sprintf("%s/%d", g.mrPath("notes"), earlier.SummaryID), payload, &out); err != nil {
			return nil, err
		}
		return &Summary{ID: out.ID, Updated: true, Author: out.Author.Username}, nil
	}
	if err := g.do(ctx, http.MethodPost, g.mrPath("notes"), payload, &out); err != nil {
		return nil, err
	}
	return &Summary{ID: out.ID, Author: out.Author.Username}, nil
}

// version is the diff version whose head is HeadSHA, else the latest.
func (g *GitLab) version(ctx context.Context) (MRVersion, error) {
	var latest, match MRVersion
	err := g.rest().each(ctx, g.url(g.mrPath("versions")), func(raw json.RawMessage) error {
		var v MRVersion
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		if latest.ID == 0 || v.ID > latest.ID {
			latest = v
		}
		if g.HeadSHA != "" && v.HeadCommitSHA == g.HeadSHA && v.ID > match.ID {
			match = v
		}
		return nil
	})
	switch {
	case err != nil:
		return MRVersion{}, err
	case match.ID != 0:
		return match, nil
	case latest.ID == 0:
		return MRVersion{}, errors.New("the merge request has no diff version yet")
	case g.HeadSHA != "":
		return MRVersion{}, fmt.Errorf("no diff version of the merge request has the head %.12s (the latest has %.12s): the branch moved on since this pipeline started; re-run it on the latest commit", g.HeadSHA, latest.HeadCommitSHA)
	}
	return latest, nil
}

// gitLabNote is what recap reads of a note.
type gitLabNote struct {
	ID     int64  `json:"id"`
	Body   string `json:"body"`
	Type   string `json:"type"`
	System bool   `json:"system"`
	Author struct {
		Username string `json:"username"`
	} `json:"author"`
}

// notes reads into e the keys of the comments login posted (and their
// locations), and returns its summary note.
func (g *GitLab) notes(ctx context.Context, login string, e *Earlier) (*gitLabNote, error) {
	var summary *gitLabNote
	err := g.rest().each(ctx, g.url(g.mrPath("notes")+"?sort=asc&order_by=created_at"), func(raw json.RawMessage) error {
		var n gitLabNote
		if err := json.Unmarshal(raw, &n); err != nil {
			return err
		}
		if n.System || n.Author.Username != login {
			return nil
		}
		if k := KeyOf(n.Body); k != "" {
			e.Keys[k] = true
			e.noteAt(k, AtOf(n.Body))
		}
		if summary == nil && n.Type != "DiffNote" && strings.Contains(n.Body, SummaryMarker) {
			summary = &n
		}
		return nil
	})
	return summary, err
}

// mrPath is /projects/{id}/merge_requests/{iid}/{what}.
func (g *GitLab) mrPath(what string) string {
	return fmt.Sprintf("/projects/%s/merge_requests/%d/%s", url.PathEscape(g.Project), g.MR, what)
}

func (g *GitLab) url(path string) string {
	return strings.TrimRight(g.APIURL, "/") + path
}

func (g *GitLab) do(ctx context.Context, method, path string, in, out any) error {
	_, err := g.rest().send(ctx, method, g.url(path), in, out)
	return err
}

// rest is the REST call set-up of GitLab: its token header and its errors.
func (g *GitLab) rest() *restCall {
	g.pace.interval = g.WriteInterval
	return &restCall{http: g.HTTP, userAgent: g.UserAgent, retryWait: g.RetryWait, clock: &clock{sleep: g.Sleep}, waited: &g.waited, pace: &g.pace,
		header: func(req *http.Request) {
			if g.JobToken {
				req.Header.Set("JOB-TOKEN", g.Token)
			} else {
				req.Header.Set("PRIVATE-TOKEN", g.Token)
			}
			req.Header.Set("Accept", "application/json")
		},
		refused: func(resp *http.Response, body []byte) (time.Duration, error) {
			e := gitLabError(resp.Request.Method, resp.Request.URL.String(), resp, body, g.JobToken)
			return e.RetryAfter, e
		},
	}
}

// GitLabError is an answer of GitLab's API that is not a success.
type GitLabError struct {
	Method, URL string
	Status      int
	Message     string
	RetryAfter  time.Duration
	jobToken    bool
}

func (e *GitLabError) Error() string {
	what := fmt.Sprintf("GitLab answered %d to %s %s", e.Status, e.Method, e.URL)
	if e.Message != "" {
		what += ": " + e.Message
	}
	switch {
	case e.Status == http.StatusTooManyRequests:
		return what + "; GitLab's rate limit is reached: re-run later"
	case e.Status == http.StatusUnauthorized && e.jobToken:
		return what + "; GitLab does not let CI_JOB_TOKEN write merge-request notes: set GITLAB_TOKEN to a project access token with the api scope"
	case e.Status == http.StatusUnauthorized:
		return what + "; check GITLAB_TOKEN (a token with the api scope, sent as PRIVATE-TOKEN)"
	case e.Status == http.StatusForbidden:
		return what + "; the token's account may not comment on this merge request: give it the Reporter role or above"
	case e.Status == http.StatusNotFound:
		return what + "; check the project ($CI_PROJECT_ID, --gitlab-project) and the merge request ($CI_MERGE_REQUEST_IID, --mr), and that the token can see them"
	case e.Status == http.StatusBadRequest && strings.Contains(e.Message, "line_code"):
		return what + "; GitLab refuses a discussion on a line outside the merge request's diff: give recap the merge request's base ($CI_MERGE_REQUEST_DIFF_BASE_SHA) and reports made on its head"
	case e.Status >= 500:
		return what + "; GitLab failed, re-run later (comments already posted are not posted again)"
	}
	return what
}

var htmlTags = regexp.MustCompile(`<[^>]*>`)

func gitLabError(method, u string, resp *http.Response, body []byte, jobToken bool) *GitLabError {
	e := &GitLabError{Method: method, URL: redact(u), Status: resp.StatusCode, jobToken: jobToken}
	var msg struct {
		Message any    `json:"message"`
		Error   string `json:"error"`
	}
	if json.Unmarshal(body, &msg) == nil {
		switch m := msg.Message.(type) {
		case string:
			e.Message = m
		case nil:
			e.Message = msg.Error
		default:
			b, _ := json.Marshal(m)
			e.Message = string(b)
		}
	} else if len(body) > 0 {
		e.Message = htmlTags.ReplaceAllString(string(body), " ")
	}
	e.Message = render.OneLine(text.CutBytes(e.Message, 300))
	if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
		e.RetryAfter = d
	}
	return e
}

// GitLabBody makes a body recap wrote for GitHub inert on GitLab too. The
// report text in it is already inert for GitHub (render.MarkdownText); GitLab also links
// !123 (merge requests), &123 (epics), %milestones, ~labels, $snippets,
// ^alerts, *iteration:1, [vulnerability:1] and [[wiki]] links, and it
// finds them in the text after entities are decoded (&#126;bug is ~bug),
// so each sigil is judged by what it and the next character decode to: a
// zero-width joiner after it breaks the reference. A line that starts
// with / (a quick action) starts with an entity instead. GitLab also links
// a URL of any scheme (scheme://, after entities are decoded): a
// zero-width joiner before its ":" breaks it, as in the Code Quality
// report (render.GitLabText). Link destinations
// (the rule's help), HTML comments (recap's markers) and recap's ~~~
// code blocks (the triage entries to commit) are kept as they are.
func GitLabBody(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/16)
	lineStart := true
	for i := 0; i < len(s); {
		if n := fencedBlock(s[i:]); lineStart && n > 0 {
			b.WriteString(s[i : i+n]) // code: GitLab references nothing in it
			i += n
			continue
		}
		if n := keptWhole(s[i:]); n > 0 {
			b.WriteString(s[i : i+n])
			i += n
			lineStart = false
			continue
		}
		c, n := decodeAt(s, i)
		if lineStart && c == '/' {
			b.WriteString("&#47;")
			i += n
			lineStart = false
			continue
		}
		if c == ':' && decodeAll(s[i+n:], 2) == "//" && !strings.HasSuffix(b.String(), zwj) {
			// GitLab links any scheme:// in the text, entities decoded
			// (https&#58;// is https://), as its Code Quality view does.
			b.WriteString(zwj)
		}
		b.WriteString(s[i : i+n])
		i += n
		lineStart = c == '\n'
		if i < len(s) && breaksAfter(c, n > 1, s[i:]) {
			b.WriteString(zwj)
		}
	}
	return b.String()
}

// fencedBlock is the length of a code block fenced with ~~~ (or a
// longer run of ~) at the start of s, up to its closing fence's line
// included; 0 when s starts with none. Report text has no such fence
// (render.MarkdownText writes ~ as an entity): it is recap's own, the
// triage entries of a review body (replies.go), whose text GitLab shows as
// it is and a person copies.
func fencedBlock(s string) int {
	n := 0
	for n < len(s) && s[n] == '~' {
		n++
	}
	if n < 3 {
		return 0
	}
	end := strings.Index(s, "\n"+s[:n]+"\n")
	if end < 0 {
		return 0
	}
	return end + 1 + n + 1
}

// keptWhole is the length of a link destination ("](<…>)") or an HTML
// comment at the start of s, which GitLabBody copies as they are; 0 when
// s starts with neither.
func keptWhole(s string) int {
	for _, k := range [][2]string{{"](<", ">)"}, {"<!--", "-->"}} {
		if strings.HasPrefix(s, k[0]) {
			if end := strings.Index(s, k[1]); end >= 0 {
				return end + len(k[1])
			}
			return len(s)
		}
	}
	return 0
}

// breaksAfter reports whether the character c (written as an entity when
// entity) starts a GitLab reference with the text rest after it.
func breaksAfter(c byte, entity bool, rest string) bool {
	if strings.HasPrefix(rest, zwj) {
		return false
	}
	next, _ := decodeAt(rest, 0)
	word := next == '_' || next >= '0' && next <= '9' || next|0x20 >= 'a' && next|0x20 <= 'z' || next >= 0x80
	switch {
	case strings.IndexByte("@#!&%~$^", c) >= 0:
		return word || next == '"'
	case c == '[' && entity: // report text's [: recap's own links stay
		return word || next == '['
	case c == '*' && entity:
		return strings.HasPrefix(decodeAll(rest, 10), "iteration")
	}
	return false
}

// decodeAt is the character at s[i], decoding an entity there (&amp;
// &lt; &gt; &quot; &#NN;), and the bytes it takes; an entity of a
// character past ASCII, or not one, is its first byte.
func decodeAt(s string, i int) (byte, int) {
	if s[i] != '&' {
		return s[i], 1
	}
	end := strings.IndexByte(s[i:min(len(s), i+8)], ';')
	if end < 0 {
		return '&', 1
	}
	switch name := s[i+1 : i+end]; {
	case name == "amp":
		return '&', end + 1
	case name == "lt":
		return '<', end + 1
	case name == "gt":
		return '>', end + 1
	case name == "quot":
		return '"', end + 1
	case strings.HasPrefix(name, "#"):
		if n, err := strconv.Atoi(name[1:]); err == nil && n > 0 && n < 0x80 {
			return byte(n), end + 1
		}
	}
	return '&', 1
}

// decodeAll decodes the first n characters of s.
func decodeAll(s string, n int) string {
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < n; {
		c, k := decodeAt(s, i)
		b.WriteByte(c)
		i += k
	}
	return b.String()
}

// zwj is the zero-width joiner that breaks a reference: it does not show,
// and it is not a word character, so no reference pattern matches across
// it (render.MarkdownText uses the same).
const zwj = "\u200d"
