// Package review turns the findings on a pull request's changed lines into a
// review: a Markdown summary and at most 30 inline comments, each anchored on
// a line the diff's hunks show, and posts it to a code host (GitHub's pull
// requests, GitLab's merge requests: a Host, host.go) through their REST
// APIs without posting a comment twice; it makes GitHub's check run and the
// Actions job summary of the same findings too.
//
//	req := review.Build(review.Input{View: v, Outside: n, Files: files, Index: idx})
//	json.NewEncoder(os.Stdout).Encode(req) // GitHub's "create a review" request
package review

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/render"
)

// Limits that shape a review (docs/ci.md).
const (
	// MaxComments is the most inline comments in one review; the rest are
	// listed in the body.
	MaxComments = 30
	// MaxBody is GitHub's limit for a review body or comment, in characters.
	MaxBody = 65536
)

// Markers recap leaves in what it posts, to find it again on a re-run.
const (
	SummaryMarker = "<!-- recap:summary -->"
	markerPrefix  = "<!-- recap:fp="
	atPrefix      = "<!-- recap:at="
)

// Request is GitHub's "create a review for a pull request" request body
// (POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews).
type Request struct {
	CommitID string    `json:"commit_id,omitempty"`
	Body     string    `json:"body"`
	Event    string    `json:"event"`
	Comments []Comment `json:"comments"`

	// What Build made it of, to list the findings of refused comments in
	// the body (BodyWith) and to place comments on a host's diff.
	in     *Input
	listed []summarize.FindingView
	byKey  map[string]summarize.FindingView
}

// Comment is one inline comment of a review, on a line of the head side,
// or on the lines StartLine..Line (a comment that suggests a change to them).
type Comment struct {
	Path      string `json:"path"`
	StartLine int    `json:"start_line,omitempty"`
	StartSide string `json:"start_side,omitempty"`
	Line      int    `json:"line"`
	Side      string `json:"side"`
	Body      string `json:"body"`
	// Key identifies the finding across runs (its fingerprint and its
	// occurrence); it is in Body as a hidden marker too.
	Key string `json:"-"`
}

// Input is what a review is made of.
type Input struct {
	// View holds the findings on changed lines: the summary counts them, its
	// page (up to 200, in view order) lists the first of them.
	View *summarize.View
	// Outside counts the findings of the reports that are not on changed lines.
	Outside int
	// Files is the diff, with git's hunks; Index its changed lines.
	Files []diff.File
	Index *diff.Index
	// CommitID is the head commit the lines refer to, "" to leave it to GitHub.
	CommitID string
	// NotInHead counts the findings on lines of the checked-out merge
	// commit that the pull request's head has not (the base branch brought
	// them): they cannot be commented on.
	NotInHead int
	// Lines, when the reports were made on another commit than the head (a
	// merge commit), is the map their lines were carried onto the head
	// through (pipeline.Changes.Lines): a fix's lines are carried the same
	// way before it becomes a suggested change.
	Lines *diff.LineMap
	// Replied is what replies to recap's earlier comments decided
	// (replies.go): the findings its entries cover are not commented
	// again, and the body shows the entries to commit and the commands
	// ignored. Nil: none.
	Replied *Replied
	// Locate, when set, returns the location of a finding's line as the
	// triage file writes it ("" unknown): each comment carries it, so that
	// a reply to it is honoured on the finding of that code whatever moved
	// above it since (replies.go).
	Locate func(f *reports.Finding) string
}

// Build makes the review: the first MaxComments findings (most important
// first) whose anchor is inside one of the diff's hunks become inline
// comments; the others are listed in the body, which starts with the
// summary.
func Build(in Input) *Request {
	anchors := NewAnchors(in.Files)
	req := &Request{CommitID: in.CommitID, Event: "COMMENT", Comments: []Comment{}, in: &in, byKey: map[string]summarize.FindingView{}}
	var listed []summarize.FindingView
	seen := map[string]int{}
	for _, f := range in.View.Findings {
		seen[f.Fingerprint]++
		key := f.Fingerprint + "#" + strconv.Itoa(seen[f.Fingerprint])
		if in.Replied.covers(key) {
			continue // decided in a reply: not commented again
		}
		line, ok := anchorLine(&f.Finding, in.Index, anchors)
		if !ok || len(req.Comments) == MaxComments {
			listed = append(listed, f)
			continue
		}
		c := Comment{Path: f.Path, Line: line, Side: "RIGHT", Key: key}
		suggest, from, to, ok := suggestion(&f.Finding, in.Files, anchors, in.Lines)
		if ok {
			c.Line = to
			if from < to {
				c.StartLine, c.StartSide = from, "RIGHT"
			}
		}
		c.Body = commentBody(&f, key, suggest)
		if in.Locate != nil {
			if at := in.Locate(&f.Finding); at != "" {
				c.Body += atPrefix + markerKey(at) + " -->\n"
			}
		}
		req.Comments = append(req.Comments, c)
		req.byKey[key] = f
	}
	req.listed = listed
	req.Body = summaryBody(in, len(req.Comments), nil, listed)
	sortComments(req.Comments)
	return req
}

// BodyWith is the body with the findings of the refused comments listed
// first among those not commented inline, each with the host's reason;
// the body itself when none was refused.
func (r *Request) BodyWith(refused []Refusal) string {
	if len(refused) == 0 {
		return r.Body
	}
	if r.in == nil { // not made by Build: the refused are named at the end
		return r.Body + "\n**Not commented inline** (the code host refused their lines): " + render.MarkdownText(RefusedText(refused)) + "\n"
	}
	var first []refusedFinding
	for _, rf := range refused {
		if f, ok := r.byKey[rf.Comment.Key]; ok {
			first = append(first, refusedFinding{f, rf.Reason})
		}
	}
	return summaryBody(*r.in, len(r.Comments)-len(refused), first, r.listed)
}

// BodyNoComments is the body for a review whose comments were not
// posted (a read-only token): no inline comment, every finding of the
// comments listed with the others, so that it says what was written.
func (r *Request) BodyNoComments() string {
	if r.in == nil {
		if len(r.Comments) == 0 {
			return r.Body
		}
		return r.Body + "\n**Not commented inline** (the token cannot comment): " +
			english.Plural(len(r.Comments), "finding", "findings") + " meant for inline comments.\n"
	}
	all := make([]summarize.FindingView, 0, len(r.Comments)+len(r.listed))
	for _, c := range r.Comments {
		if f, ok := r.byKey[c.Key]; ok {
			all = append(all, f)
		}
	}
	return summaryBody(*r.in, 0, nil, append(all, r.listed...))
}

// Files is the diff the review's comments are on (nil when the request
// was not made by Build).
func (r *Request) Files() []diff.File {
	if r.in == nil {
		return nil
	}
	return r.in.Files
}

// refusedFinding is the finding of a refused comment and the host's reason.
type refusedFinding struct {
	f      summarize.FindingView
	reason string
}

// anchorLine is the first line of the finding's range that changed and that
// a hunk of the diff shows.
func anchorLine(f *reports.Finding, idx *diff.Index, a *Anchors) (int, bool) {
	if f.Path == "" || f.Line <= 0 {
		return 0, false
	}
	end := max(f.EndLine, f.Line)
	for _, n := range idx.Lines(f.Path) {
		if n >= f.Line && n <= end && a.Valid(f.Path, n) {
			return n, true
		}
	}
	if a.Valid(f.Path, f.Line) {
		return f.Line, true
	}
	return 0, false
}

// Anchors are the lines of the head side that a diff's hunks show, where
// GitHub accepts a review comment; any other line makes it refuse the whole
// review (422).
type Anchors struct {
	ranges map[string][][2]int // path → [start, end] of each hunk's new side
}

// NewAnchors indexes the hunks of files.
func NewAnchors(files []diff.File) *Anchors {
	a := &Anchors{ranges: map[string][][2]int{}}
	for _, f := range files {
		if f.NewPath == "" {
			continue
		}
		for _, h := range f.Hunks {
			if h.NewLines > 0 {
				a.ranges[f.NewPath] = append(a.ranges[f.NewPath], [2]int{h.NewStart, h.NewStart + h.NewLines - 1})
			}
		}
	}
	return a
}

// Hunk returns the head-side lines of the hunk of path that shows line.
func (a *Anchors) Hunk(path string, line int) (from, to int, ok bool) {
	for _, r := range a.ranges[path] {
		if line >= r[0] && line <= r[1] {
			return r[0], r[1], true
		}
	}
	return 0, 0, false
}

// Valid reports whether line of path (head side) is inside a hunk.
func (a *Anchors) Valid(path string, line int) bool {
	for _, r := range a.ranges[path] {
		if line >= r[0] && line <= r[1] {
			return true
		}
	}
	return false
}

// commentBody is one finding as an inline comment, its key hidden in it,
// with the change it suggests (a suggestion block, or "").
func commentBody(f *summarize.FindingView, key, suggest string) string {
	var b strings.Builder
	rule := ruleName(&f.Finding)
	if u, ok := linkURI(f.HelpURI); ok {
		rule = "[" + rule + "](<" + u + ">)"
	}
	fmt.Fprintf(&b, "%s · %s %s", render.ImportanceHead(&f.Finding), render.MarkdownText(f.Tool), rule)
	if f.Category != "" && f.Category != reports.CategoryOther {
		fmt.Fprintf(&b, " · %s", render.MarkdownText(f.Category))
	}
	if f.Baseline == reports.BaselineNew {
		b.WriteString(" · _new_")
	}
	fmt.Fprintf(&b, "\n\n%s\n\n", render.MarkdownText(text.CutBytes(f.Message, 4000)))
	if also := render.AlsoMarkdown(f.AlsoReportedBy); also != "" {
		fmt.Fprintf(&b, "%s.\n\n", also)
	}
	if f.Triage != nil { // confirmed, or a decision expired
		fmt.Fprintf(&b, "_Triage: %s._\n\n", render.MarkdownText(render.TriageNote(f.Triage)))
	}
	if suggest != "" {
		if d := f.Detail.Fix.Description; d != "" {
			fmt.Fprintf(&b, "Suggested fix: %s\n\n", render.MarkdownText(text.CutBytes(d, 1000)))
		}
		b.WriteString(suggest)
	}
	fmt.Fprintf(&b, "%s%s -->\n", markerPrefix, markerKey(key))
	return b.String()
}

// markerKey keeps a key from ending its HTML comment early.
func markerKey(key string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '>' || r == '<' || r < 0x20 {
			return '_'
		}
		return r
	}, key)
}

// linkURI is a rule's help URI fit for a Markdown link: http or https, with
// nothing that could end the link's destination.
func linkURI(s string) (string, bool) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.ContainsAny(s, "<> \t\r\n\"'`\\") {
		return "", false
	}
	return s, true
}

// AtOf returns the location hidden in a comment body recap posted (see
// Input.Locate), or "".
func AtOf(body string) string { return markerValue(body, atPrefix) }

// KeyOf returns the key hidden in a comment body recap posted, or "".
func KeyOf(body string) string { return markerValue(body, markerPrefix) }

// markerValue is what the first of recap's markers of that prefix in body
// holds, "" for none.
func markerValue(body, prefix string) string {
	i := strings.Index(body, prefix)
	if i < 0 {
		return ""
	}
	rest := body[i+len(prefix):]
	j := strings.Index(rest, " -->")
	if j < 0 {
		return ""
	}
	return rest[:j]
}

// countsLine is how the review's, the check run's and the job summary's
// bodies count the findings: by impact first, the most important first,
// then by the levels the annotations and comments show (the impact's,
// [reports.Finding.Level]; the tool's own severity stays in the JSON), and
// those about security: "**1** high · **4** medium · **7** low (as
// levels: 1 error, 4 warning, 7 note) in 1 file; **1** about security". Without impacts, by
// level alone (the tool's severity, then).
func countsLine(s *summarize.Summary) string {
	sev := fmt.Sprintf("as levels: %d error, %d warning, %d note", s.ByLevel.Error, s.ByLevel.Warning, s.ByLevel.Note)
	var parts []string
	for _, i := range reports.Impacts {
		if n := s.ByImpact.Of(i); n > 0 {
			parts = append(parts, fmt.Sprintf("**%d** %s", n, i))
		}
	}
	line := fmt.Sprintf("**%d** error · **%d** warning · **%d** note", s.ByLevel.Error, s.ByLevel.Warning, s.ByLevel.Note)
	if len(parts) > 0 {
		line = strings.Join(parts, " · ") + " (" + sev + ")"
	}
	line += " in " + s.FilesText()
	if sec := s.Security; sec != nil && sec.Findings > 0 {
		line += fmt.Sprintf("; **%d** about security", sec.Findings)
	}
	if s.Excluded > 0 {
		line += "; " + english.Plural(s.Excluded, "finding", "findings") + " excluded by the configuration"
	}
	if t := render.TriagedLine(s.Triaged); t != "" {
		line += "; " + render.MarkdownText(t) // a path may hold Markdown's characters
	}
	return line
}

// summaryBody is the review's Markdown body: the counts first, then the
// findings on changed lines that are not commented inline, as many as fit.
func summaryBody(in Input, comments int, refused []refusedFinding, listed []summarize.FindingView) string {
	s := in.View.Summary
	var b strings.Builder
	b.WriteString(SummaryMarker + "\n")
	fmt.Fprintf(&b, "### recap: %s on changed lines\n\n", english.Plural(s.Total, "finding", "findings"))
	fmt.Fprintf(&b, "%s; %d inline %s.", countsLine(&s),
		comments, map[bool]string{true: "comment", false: "comments"}[comments == 1])
	writeProblems(&b, &s, "commented or listed")
	fmt.Fprintf(&b, " %s in the reports %s outside the changed lines (not listed).\n\n",
		english.Plural(in.Outside, "more finding", "more findings"), map[bool]string{true: "is", false: "are"}[in.Outside == 1])
	if in.NotInHead > 0 {
		fmt.Fprintf(&b, "%s on lines of the merge commit that the pull request's head has not (from the base branch): not commented.\n\n",
			english.Plural(in.NotInHead, "finding is", "findings are"))
	}
	writeCounts(&b, in.View)
	writeNotAnalysed(&b, in.View, in.Index)
	writeReplies(&b, in.Replied)
	problems, _, _ := render.ProblemCounts(&s)
	notShown := max(problems-len(in.View.Findings), 0) // beyond the page (the duplicates are named by their problem's finding)
	if len(listed)+len(refused) > 0 {
		fmt.Fprintf(&b, "#### Not commented inline (%d)\n\n", len(listed)+len(refused)+notShown)
		tail := "\n_Listed in full by `recap findings --changed-only`._\n"
		room := MaxBody - b.Len() - len(tail) - 200
		lines := make([]string, 0, len(refused)+len(listed))
		for _, r := range refused {
			lines = append(lines, listLine(&r.f, " _(not placed: "+render.MarkdownText(text.CutBytes(r.reason, 200))+")_"))
		}
		for i := range listed {
			lines = append(lines, listLine(&listed[i], ""))
		}
		for i, line := range lines {
			if b.Len()+len(line) > room {
				notShown += len(lines) - i
				break
			}
			b.WriteString(line)
		}
		if notShown > 0 {
			fmt.Fprintf(&b, "- … and %d more\n", notShown)
		}
		b.WriteString(tail)
	}
	return b.String()
}

// listLine is a finding as a line of the summary's list, note after it.
func listLine(f *summarize.FindingView, note string) string {
	if also := render.AlsoReportedBy(f.AlsoReportedBy); also != "" {
		note = " _(" + render.MarkdownText(also) + ")_" + note
	}
	if f.Triage != nil {
		note = " _(" + render.MarkdownText(render.TriageNote(f.Triage)) + ")_" + note
	}
	return fmt.Sprintf("- %s <code>%s</code> %s %s: %s%s\n", render.ImportanceHead(&f.Finding), render.MarkdownText(location(&f.Finding)),
		render.MarkdownText(f.Tool), ruleName(&f.Finding), render.MarkdownText(text.CutBytes(render.PlainText(f.Message), 300)), note)
}

func location(f *reports.Finding) string {
	if f.Line > 0 {
		return f.Path + ":" + strconv.Itoa(f.Line)
	}
	return f.Path
}

// ruleName is the rule as code.
func ruleName(f *reports.Finding) string {
	return "<code>" + render.MarkdownText(render.DisplayRule(f.Rule, f.RuleName)) + "</code>"
}

// sortComments orders comments by path and line, as GitHub lists them.
func sortComments(cs []Comment) {
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].Path != cs[j].Path {
			return cs[i].Path < cs[j].Path
		}
		return cs[i].Line < cs[j].Line
	})
}

// writeProblems says, after a headline of findings, how many problems
// they are when some repeat another's problem (docs/formats.md,
// "Duplicates"), and that each is shown once (how: "annotated",
// "commented", "listed"); nothing when none does.
func writeProblems(b *strings.Builder, s *summarize.Summary, how string) {
	note := render.ProblemsNote(s)
	if note == "" {
		return
	}
	fmt.Fprintf(b, " They are %s: each problem is %s once, naming the other tools that reported it.", note, how)
}

// writeCounts writes what a review's summary and a check run's say after
// their headline: results suppressed in the reports, the counts against the
// baseline, the inputs not read, and the findings by category, report text
// made inert.
func writeCounts(b *strings.Builder, v *summarize.View) {
	s := &v.Summary
	if n := render.Suppressed(v); n > 0 {
		fmt.Fprintf(b, "%s suppressed in the reports, not counted.\n\n", english.Plural(n, "result", "results"))
	}
	if bl := s.Baseline; bl != nil {
		fmt.Fprintf(b, "Against the baseline: **%d** new%s · **%d** unchanged · **%d** fixed.\n\n", bl.New, render.NewProblemsNote(bl), bl.Unchanged, bl.Fixed)
	}
	var failed []string
	for _, inp := range v.Inputs {
		if inp.Error != "" {
			failed = append(failed, render.MarkdownText(inp.Error))
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(b, "**Not read:** %s\n\n", strings.Join(failed, "; "))
	}
	if len(s.TopCategories) > 0 {
		b.WriteString("| category | findings |\n|:--|--:|\n")
		for _, c := range s.TopCategories {
			fmt.Fprintf(b, "| %s | %d |\n", render.MarkdownText(c.Name), c.Count)
		}
		b.WriteString("\n")
	}
}

// maxNotAnalysedListed bounds the files a summary names as not analysed.
const maxNotAnalysedListed = 20

// writeNotAnalysed names the files the tools could not analyse (PMD's
// processing errors: a file it could not parse), whose findings are
// missing, not absent: with idx, the changed files, counting the others;
// without, every one. Report text is made inert.
func writeNotAnalysed(b *strings.Builder, v *summarize.View, idx *diff.Index) {
	var lines []string
	others := 0
	for _, in := range v.Inputs {
		for _, n := range in.NotAnalysed {
			if idx != nil && !idx.Changed(n.Path) {
				others++
				continue
			}
			line := "- " + render.MarkdownText(n.Path) + " (" + render.MarkdownText(in.Tool)
			if r := strings.TrimSpace(n.Reason); r != "" {
				line += ": " + render.MarkdownText(text.CutBytes(r, 200))
			}
			lines = append(lines, line+")\n")
		}
	}
	if len(lines)+others == 0 {
		return
	}
	what := "file"
	if idx != nil {
		what = "changed file"
	}
	if len(lines) > 0 {
		fmt.Fprintf(b, "**Not analysed: %s** — a tool could not analyse %s, so %s findings are missing:\n\n",
			english.Plural(len(lines), what, what+"s"), map[bool]string{true: "it", false: "them"}[len(lines) == 1],
			map[bool]string{true: "its", false: "their"}[len(lines) == 1])
		for i, line := range lines {
			if i == maxNotAnalysedListed {
				fmt.Fprintf(b, "- … and %d more\n", len(lines)-i)
				break
			}
			b.WriteString(line)
		}
		b.WriteString("\n")
	}
	if others > 0 {
		fmt.Fprintf(b, "%s that %s not changed could not be analysed either.\n\n", english.Plural(others, "file", "files"),
			map[bool]string{true: "is", false: "are"}[others == 1])
	}
}
