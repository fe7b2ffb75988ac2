package review

import (
	"context"
	"fmt"
	"strings"

	"github.com/recap-dev/recap/internal/english"
)

// A Host is a code host that recap posts a review to: GitHub's pull
// requests ([Client], github.go) and GitLab's merge requests ([GitLab],
// gitlab.go). [Post] does the rest, the same for every host: it learns who
// recap posts as, leaves out the comments posted before, moves the comments
// the host refuses into the summary, and makes or updates the summary. A
// new host is one file with a type that implements Host, and its
// environment in the command line.
type Host interface {
	// Name is the host's name in messages ("GitHub"); Target names the
	// pull or merge request ("acme/shop#5", "acme/shop!7").
	Name() string
	Target() string
	// Words are the host's words for an inline comment and the summary
	// ("inline comment", "summary comment").
	Words() (comment, summary string)
	// Login is the account the token posts as: only its comments'
	// markers count (anyone can write one).
	Login(ctx context.Context) (string, error)
	// Earlier reads what login posted on the request before: the keys of
	// its inline comments, and its summary.
	Earlier(ctx context.Context, login string) (*Earlier, error)
	// PostComments posts comments (none posted before) on the lines of the
	// review's diff. It returns the comments the host refused for their
	// place, with the host's reason, and an error when posting failed
	// otherwise; posted counts what was posted, error or not.
	PostComments(ctx context.Context, r *Request, comments []Comment) (posted int, refused []Refusal, err error)
	// PostSummary makes the summary, or updates earlier's.
	PostSummary(ctx context.Context, earlier *Earlier, body string) (*Summary, error)
}

// Earlier is what recap's account posted on a pull request before.
type Earlier struct {
	// Keys are the keys of its inline comments (see [KeyOf]); At, by key,
	// the locations those that carry one were made on (see [AtOf]).
	Keys map[string]bool
	At   map[string]map[string]bool
	// SummaryID is its summary's id, 0 when there is none.
	SummaryID int64
}

// noteAt notes that a comment of key k was made on the code at location
// at ("" for a comment without one).
func (e *Earlier) noteAt(k, at string) {
	if at == "" {
		return
	}
	if e.At == nil {
		e.At = map[string]map[string]bool{}
	}
	if e.At[k] == nil {
		e.At[k] = map[string]bool{}
	}
	e.At[k][at] = true
}

// repost says whether cm, whose key was posted before, is posted again:
// a reply to the earlier comment could not be honoured because the code
// it answered changed since (Replied.Repost), and no comment of its key
// was made on the code as it is now: the reviewer gets a comment to reply
// to.
func (e *Earlier) repost(cm Comment, in *Input) bool {
	if in == nil || in.Replied == nil || !in.Replied.Repost[cm.Key] {
		return false
	}
	at := AtOf(cm.Body)
	return at != "" && !e.At[cm.Key][at]
}

// Summary is the summary a host took.
type Summary struct {
	ID      int64
	URL     string // "" when the host gives none
	Updated bool   // it was there before, and was updated in place
	// Author is the account the host says wrote it ("" when not said).
	Author string
}

// Refusal is an inline comment the host would not take where it is, and
// the host's reason; the comment's finding is listed in the summary
// instead.
type Refusal struct {
	Comment Comment
	Reason  string
}

// Posted says what [Post] did.
type Posted struct {
	// Host and Target are the host's name and the request's.
	Host, Target string
	// Login is the account recap took itself for.
	Login string
	// Comments were posted inline, Skipped posted by an earlier run;
	// Refused were refused by the host and listed in the summary instead.
	Comments, Skipped int
	Refused           []Refusal
	// Summary is the summary made or updated; nil when it was not.
	Summary *Summary

	comment, summary string // the host's words
}

// Post posts req to h: the inline comments that login did not post before,
// then the summary, made or updated in place, listing the comments the host
// refused (so that one comment on a line the host will not take does not
// lose the review). The error says what was posted when it comes after
// something was.
func Post(ctx context.Context, h Host, req *Request) (*Posted, error) {
	done := &Posted{Host: h.Name(), Target: h.Target()}
	done.comment, done.summary = h.Words()
	login, err := h.Login(ctx)
	if err != nil {
		return nil, fmt.Errorf("finding the account the token posts as: %w; nothing was posted", err)
	}
	done.Login = login
	earlier, err := h.Earlier(ctx, login)
	if err != nil {
		return nil, fmt.Errorf("reading what was posted before: %w; nothing was posted", err)
	}
	var fresh []Comment
	for _, cm := range req.Comments {
		if earlier.Keys[cm.Key] && !earlier.repost(cm, req.in) {
			done.Skipped++
			continue
		}
		fresh = append(fresh, cm)
	}
	comment, summary := done.comment, done.summary
	if len(fresh) > 0 {
		n, refused, err := h.PostComments(ctx, req, fresh)
		done.Comments, done.Refused = n, refused
		if err != nil {
			if n == 0 {
				return nil, fmt.Errorf("posting %s: %w; nothing was posted", english.Plural(len(fresh), comment, comment+"s"), err)
			}
			return done, fmt.Errorf("posted %s of %d, then: %w; the summary was not posted", english.Plural(n, comment, comment+"s"), len(fresh), err)
		}
	}
	s, err := h.PostSummary(ctx, earlier, req.BodyWith(done.Refused))
	if err != nil {
		return done, fmt.Errorf("%s, but the %s was not: %w", done.Said(), summary, err)
	}
	done.Summary = s
	return done, nil
}

// Said says what was posted, in the host's words: "posted 3 inline
// comments (2 posted before, skipped)".
func (p *Posted) Said() string {
	var b strings.Builder
	comment, summary := p.comment, p.summary
	if p.Comments > 0 {
		fmt.Fprintf(&b, "posted %s", english.Plural(p.Comments, comment, comment+"s"))
	} else {
		fmt.Fprintf(&b, "no new %s", comment)
	}
	if p.Skipped > 0 {
		fmt.Fprintf(&b, " (%d posted before, skipped)", p.Skipped)
	}
	if n := len(p.Refused); n > 0 {
		fmt.Fprintf(&b, "; %s refused by %s, listed in the %s instead", english.Plural(n, comment, comment+"s"), p.Host, summary)
	}
	if s := p.Summary; s != nil {
		verb := "posted"
		if s.Updated {
			verb = "updated"
		}
		fmt.Fprintf(&b, "; %s the %s", verb, summary)
		if s.URL != "" {
			b.WriteString(" " + s.URL)
		} else if s.ID != 0 {
			fmt.Fprintf(&b, " %d", s.ID)
		}
	}
	return b.String()
}

// RefusedText lists refusals as "path:line (reason)".
func RefusedText(rs []Refusal) string {
	parts := make([]string, 0, len(rs))
	for _, r := range rs {
		parts = append(parts, fmt.Sprintf("%s:%d (%s)", r.Comment.Path, r.Comment.Line, r.Reason))
	}
	return strings.Join(parts, ", ")
}
