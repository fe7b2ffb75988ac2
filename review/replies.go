package review

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/triage"
)

// ReplyCommand is the word that starts a reply recap reads: "/recap
// false-positive the id is checked by the caller" (docs/triage.md, "Pull
// requests").
const ReplyCommand = "/recap"

// maxReplyReason bounds the reason taken from a reply, in characters.
const maxReplyReason = 2000

// Bounds of what replies cost a run, which anyone who may comment can
// shape: MaxReplyAuthors is the most authors whose write access one run
// asks the host (one request each); the replies of the others are ignored
// and said. The summary shows at most maxRepliesYAML bytes of entries and
// maxIgnoredShown ignored replies, counting the rest.
const (
	MaxReplyAuthors = 30
	maxRepliesYAML  = 24 << 10
	maxIgnoredShown = 20
)

// A ReplyHost is a [Host] whose inline comments people reply to: recap
// reads the replies to its own comments, and asks whether their authors
// may write to the repository.
type ReplyHost interface {
	Host
	// Threads lists the threads of the request's inline comments that
	// have replies, their replies oldest first; login is the account
	// recap posts as.
	Threads(ctx context.Context, login string) ([]Thread, error)
	// CanWrite reports whether a reply's author may write to the
	// repository (GitHub: admin, maintain or write; GitLab: Developer or
	// above).
	CanWrite(ctx context.Context, r *Reply) (bool, error)
}

// Thread is an inline comment and the replies to it.
type Thread struct {
	// Key is the key of recap's marker in the comment (see [KeyOf]), ""
	// when the comment is not recap's: written by another account, or
	// without a marker.
	Key string
	// At is the location of the finding's line hidden in the comment (see
	// [AtOf]), "" in a comment an earlier recap posted.
	At      string
	Replies []Reply
}

// Reply is a reply in a thread.
type Reply struct {
	Author   string // the login or username
	AuthorID int64  // GitLab's user id
	Body     string
	URL      string
	Date     time.Time
}

// Ignored is a reply recap read as a command and did not honour, and why.
type Ignored struct {
	Author, URL string
	Why         string
}

// Replied is what the replies to recap's comments decided, for a review:
// the entries to commit, and the commands ignored.
type Replied struct {
	Entries []triage.Entry
	Ignored []Ignored
	// Keys are the keys of the comments whose findings the entries are
	// of: the review does not comment on them again.
	Keys map[string]bool
	// Repost are the keys of the comments a reply to which could not be
	// honoured because the code it answered changed since: the review
	// comments on their findings again, once, on the code as it is.
	Repost map[string]bool
	// Replaced are the triage file's entries the entries replace: those
	// recap triage check calls changed for a finding a reply decided
	// (its decided line edited since, or its message changed), which
	// recap triage would replace. The body says to remove them.
	Replaced []ReplacedEntry
}

// A ReplacedEntry is an entry of the triage file a reply's decision
// replaces; Edited: its decided line was edited (else its finding's
// message changed).
type ReplacedEntry struct {
	Entry  triage.Entry
	Edited bool
}

// FindFunc reads the findings whose fingerprints are asked from the run's
// reports, by the fingerprint without its occurrence
// ("0123456789abcdef" of "0123456789abcdef:2", see [FingerprintBase]),
// in the reports' order: every occurrence of an identity asked.
type FindFunc func(ctx context.Context, fingerprints map[string]bool) (map[string][]reports.Finding, error)

// Replies reads the replies to recap's inline comments on h's request
// and makes each command "/recap STATE REASON" by someone who may write to
// the repository a triage entry of the comment's finding (found through
// find, its location read through src): by the reply's author, with its
// reason, dated the day of the reply, linking to it. In a thread, the
// last command honoured wins. A command by someone who may not write, to
// a comment that is not recap's, or that does not read (an unknown state,
// no reason) is ignored and said; a finding no longer in the reports
// needs no entry. Nothing is written to the repository.
func Replies(ctx context.Context, h ReplyHost, find FindFunc, src fs.FS) (*Replied, error) {
	login, err := h.Login(ctx)
	if err != nil {
		return nil, fmt.Errorf("finding the account the token posts as: %w", err)
	}
	threads, err := h.Threads(ctx, login)
	if err != nil {
		return nil, fmt.Errorf("reading the replies to recap's comments: %w", err)
	}
	out := &Replied{Keys: map[string]bool{}, Repost: map[string]bool{}}
	type decided struct {
		reply  Reply
		state  triage.State
		reason string
		at     string
	}
	byKey := map[string]decided{}
	writers := map[string]bool{}
	unasked := map[string]error{} // the authors the host could not say of
	for _, th := range threads {
		for _, r := range th.Replies {
			if r.Author == login {
				continue
			}
			state, reason, isCmd, err := ParseReply(r.Body)
			switch {
			case !isCmd:
				continue
			case th.Key == "":
				out.Ignored = append(out.Ignored, Ignored{Author: r.Author, URL: r.URL, Why: "not a reply to one of recap's comments"})
				continue
			case err != nil:
				out.Ignored = append(out.Ignored, Ignored{Author: r.Author, URL: r.URL, Why: err.Error()})
				continue
			}
			can, known := writers[r.Author]
			if !known && len(writers) == MaxReplyAuthors {
				out.Ignored = append(out.Ignored, Ignored{Author: r.Author, URL: r.URL,
					Why: fmt.Sprintf("not checked: more than %d people replied with %s commands", MaxReplyAuthors, ReplyCommand)})
				continue
			}
			if !known {
				if can, err = h.CanWrite(ctx, &r); err != nil {
					// That author's replies wait for the next run; the
					// others' are honoured.
					unasked[r.Author] = err
				}
				writers[r.Author] = can
			}
			if err := unasked[r.Author]; err != nil {
				out.Ignored = append(out.Ignored, Ignored{Author: r.Author, URL: r.URL,
					Why: "not checked: the host did not say whether they may write (" + text.CutBytes(err.Error(), 200) + "); the next run asks again"})
				continue
			}
			if !can {
				out.Ignored = append(out.Ignored, Ignored{Author: r.Author, URL: r.URL, Why: "no write access"})
				continue
			}
			// Comments of one key on other code (the code changed, and
			// recap commented again) are threads of their own.
			byKey[th.Key+"\x00"+th.At] = decided{r, state, reason, th.At}
		}
	}
	if len(byKey) == 0 {
		return out, nil
	}
	// The findings of the fingerprints asked, of every occurrence: the
	// code commented on is found by its location, which follows it when
	// lines were added above, where the occurrence does not.
	want := map[string]bool{}
	for k := range byKey {
		k, _, _ = strings.Cut(k, "\x00")
		fp, _ := splitKey(k)
		want[fp] = true
		want[FingerprintBase(fp)] = true
	}
	found, err := find(ctx, want)
	if err != nil {
		return nil, fmt.Errorf("reading the findings of the replies: %w", err)
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	changed := map[string][]Ignored{} // by key: replies to code changed since
	entryAt := map[string]int{}       // an entry's key → its index in out.Entries
	var entryDate []time.Time
	for _, bk := range keys {
		d := byKey[bk]
		k, _, _ := strings.Cut(bk, "\x00")
		fp, n := splitKey(k)
		var f *reports.Finding
		var e triage.Entry
		if d.at != "" {
			// The finding of the fingerprint's identity at the code
			// commented on.
			list := found[FingerprintBase(fp)]
			for i := range list {
				if x := triage.EntryFor(&list[i], src); x.Location == d.at {
					f, e = &list[i], x
					break
				}
			}
			if f == nil {
				if len(list) > 0 {
					changed[k] = append(changed[k], Ignored{Author: d.reply.Author, URL: d.reply.URL,
						Why: "the code it answered changed since the comment: reply to recap's comment on it now"})
				}
				continue // fixed, or no longer in the reports: nothing to decide
			}
		} else {
			var list []reports.Finding
			for _, x := range found[FingerprintBase(fp)] {
				if x.Fingerprint == fp {
					list = append(list, x)
				}
			}
			if len(list) == 0 {
				continue // fixed, or no longer in the reports: nothing to decide
			}
			f = &list[min(n, len(list))-1]
			e = triage.EntryFor(f, src)
		}
		e.State, e.Reason, e.By, e.Link = d.state, d.reason, d.reply.Author, d.reply.URL
		if !d.reply.Date.IsZero() {
			e.Date = d.reply.Date.UTC().Format(triage.DateLayout)
		}
		// One finding decided in two threads (an earlier comment, and
		// one on the code as it is): the later reply wins.
		if i, ok := entryAt[e.Key()]; ok {
			if d.reply.Date.After(entryDate[i]) {
				out.Entries[i], entryDate[i] = e, d.reply.Date
			}
		} else {
			entryAt[e.Key()] = len(out.Entries)
			out.Entries, entryDate = append(out.Entries, e), append(entryDate, d.reply.Date)
		}
		out.Keys[k] = true
	}
	// A reply to code changed since, whose finding no later reply decided:
	// said, and the finding commented on again.
	for _, k := range slices.Sorted(maps.Keys(changed)) {
		if !out.Keys[k] {
			out.Ignored = append(out.Ignored, changed[k]...)
			out.Repost[k] = true
		}
	}
	return out, nil
}

// FingerprintBase is a finding's fingerprint without its occurrence
// ("0123456789abcdef:3" → "0123456789abcdef").
func FingerprintBase(fp string) string {
	base, _, _ := strings.Cut(fp, ":")
	return base
}

// splitKey splits a comment's key ("fingerprint#n") into the finding's
// fingerprint and n (1 when none).
func splitKey(key string) (string, int) {
	fp, num, ok := strings.Cut(key, "#")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 1 {
		n = 1
	}
	return fp, n
}

// ParseReply reads a reply's command: its first line that is not quoted
// (">") or blank starts with ReplyCommand, then the state (one to three
// words, as [triage.ParseState] reads them: false-positive, "false
// positive", wontfix), then the reason, the rest of the reply with its
// white space folded. isCmd is false for a reply that is no command; err
// says what is wrong with one that is, with the words that work.
func ParseReply(body string) (state triage.State, reason string, isCmd bool, err error) {
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	for len(lines) > 0 && (strings.TrimSpace(lines[0]) == "" || strings.HasPrefix(strings.TrimSpace(lines[0]), ">")) {
		lines = lines[1:]
	}
	if len(lines) == 0 {
		return "", "", false, nil
	}
	words := strings.Fields(strings.Join(lines, "\n"))
	if len(words) == 0 || !strings.EqualFold(words[0], ReplyCommand) {
		return "", "", false, nil
	}
	words = words[1:]
	usage := "write " + ReplyCommand + " STATE REASON, STATE one of " + triage.StatesText() + ", and REASON why (" +
		ReplyCommand + " false-positive the value is checked by the caller)"
	if len(words) == 0 {
		return "", "", true, fmt.Errorf("no state and no reason: %s", usage)
	}
	for n := 1; n <= min(3, len(words)); n++ {
		if s, ok := triage.ParseState(strings.Join(words[:n], " ")); ok {
			reason = text.CutRunes(strings.Join(words[n:], " "), maxReplyReason)
			if reason == "" {
				return "", "", true, fmt.Errorf("no reason after %s: %s", s, usage)
			}
			return s, reason, true, nil
		}
	}
	return "", "", true, fmt.Errorf("%q is no state: %s", text.CutRunes(words[0], 40), usage)
}

// covers reports whether the finding of the comment of key was decided
// in a reply: the review does not comment on it again.
func (r *Replied) covers(key string) bool { return r != nil && r.Keys[key] }

// writeReplies writes what the replies decided into a review's body: the
// entries to commit to the triage file, in a YAML block (its fence longer
// than any run of its character in the entries, so that no reason ends
// it), and the commands ignored, each with its author and why.
func writeReplies(b *strings.Builder, r *Replied) {
	if r == nil || len(r.Entries)+len(r.Ignored) == 0 {
		return
	}
	if n := len(r.Entries); n > 0 {
		entries := append([]triage.Entry(nil), r.Entries...)
		(&triage.File{Entries: entries}).Sort()
		var yaml strings.Builder
		shown, unwritable := 0, 0
		for _, e := range entries {
			y, err := triage.EntriesYAML(e)
			if err != nil {
				unwritable++ // (a reason the file cannot hold)
				continue
			}
			if yaml.Len()+len(y) > maxRepliesYAML {
				break
			}
			yaml.WriteString(y)
			shown++
		}
		fence := strings.Repeat("~", max(3, longestRun(yaml.String(), '~')+1))
		what, these, decision := fmt.Sprintf("%d findings were", n), "these entries", "the decisions"
		if n == 1 {
			what, these, decision = "A finding was", "this entry", "the decision"
		}
		fmt.Fprintf(b, "#### Triaged by replies (%d)\n\n%s decided in replies, honoured by this review and not commented again. "+
			"To keep %s for every run, add %s under `entries:` in `%s` and commit it:\n\n%syaml\n%s%s\n\n",
			n, what, decision, these, triage.DefaultPath, fence, yaml.String(), fence)
		if unwritable > 0 {
			fmt.Fprintf(b, "%s not shown: the triage file cannot hold what the reply says; decide it with recap triage.\n\n", english.Plural(unwritable, "entry", "entries"))
		}
		if shown+unwritable < n {
			fmt.Fprintf(b, "%s more not shown, to keep the summary within the host's size: the replies keep them.\n\n", english.Plural(n-shown-unwritable, "entry", "entries"))
		}
		writeReplaced(b, r.Replaced, n)
	}
	for i, ig := range r.Ignored {
		if i == maxIgnoredShown {
			fmt.Fprintf(b, "- … and %s ignored\n", english.Plural(len(r.Ignored)-i, "more reply", "more replies"))
			break
		}
		link := ""
		if u, ok := linkURI(ig.URL); ok {
			link = " ([the reply](<" + u + ">))" // which reply, when one person wrote several
		}
		fmt.Fprintf(b, "- ignored a reply by %s: %s%s\n", render.MarkdownText("@"+ig.Author), render.MarkdownText(text.CutBytes(ig.Why, 400)), link)
	}
	if len(r.Ignored) > 0 {
		b.WriteString("\n")
	}
}

// writeReplaced names the entries of the triage file that the replies'
// entries replace, to remove when committing them.
func writeReplaced(b *strings.Builder, list []ReplacedEntry, decisions int) {
	if len(list) == 0 {
		return
	}
	subject, these, them, now := "It replaces", "an entry", "remove it", "this one"
	if decisions > 1 {
		subject, now = "They replace", "them"
	}
	if len(list) > 1 {
		these, them = english.Plural(len(list), "entry", "entries"), "remove them"
	}
	fmt.Fprintf(b, "%s %s of `%s` that `recap triage check` calls changed: %s when committing %s (or run `recap triage prune` after):\n\n", subject, these, triage.DefaultPath, them, now)
	for i, r := range list {
		if i == maxIgnoredShown {
			fmt.Fprintf(b, "- … and %d more\n", len(list)-i)
			break
		}
		e := r.Entry
		what := "its decided line was edited since"
		if !r.Edited {
			what = "its finding's message changed since"
		}
		fmt.Fprintf(b, "- %s %s at %s, on %s, %s (%s): %s\n", render.MarkdownText(e.Tool), render.MarkdownText(reports.ShortRule(e.Tool, e.Rule)), render.MarkdownText(e.Path),
			render.MarkdownText(strconv.Quote(text.CutRunes(e.Line, 80))), e.State, render.MarkdownText(strconv.Quote(text.CutRunes(strings.Join(strings.Fields(e.Reason), " "), 80))), what)
	}
	b.WriteString("\n")
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}
