package cli

import (
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"time"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/triage"
)

// A report older than the code it reports on makes entries look stale
// that are not: their findings moved (lines added above, the file
// renamed) and the report still has them where they were. Such an entry
// is kept by prune (unless --force) and named by check and list.

// reportWritten is the oldest report of a tool among the inputs.
type reportWritten struct {
	path string
	at   time.Time
}

// noteReports notes, for each tool of the inputs (lower case), its oldest
// report (standard input has no time: it is not judged).
func (r *triageRepo) noteReports(ins []reports.Input) {
	if r.written == nil {
		r.written = map[string]reportWritten{}
	}
	for _, in := range ins {
		if in.LeftOut || in.Path == "-" || in.Error != "" && in.Findings == 0 {
			continue
		}
		st, err := os.Stat(in.Path)
		if err != nil {
			continue
		}
		for _, t := range strings.Split(in.Tool, ", ") {
			t = strings.ToLower(t)
			if t == "" || strings.HasPrefix(t, "and ") {
				continue
			}
			if w, ok := r.written[t]; !ok || st.ModTime().Before(w.at) {
				r.written[t] = reportWritten{path: in.Path, at: st.ModTime()}
			}
		}
	}
}

// namedPaths keeps, by tool (lower case), the paths the findings name,
// and of the findings in the files the entries name now (watch), their
// lines and messages.
type namedPaths struct {
	byTool         map[string]map[string]bool
	lastTool, last string
	watch          map[string]bool
	found          map[findingKey][]placed
}

// findingKey is a tool (lower case), a rule and a path.
type findingKey struct{ tool, rule, path string }

// placed is a finding's line and message.
type placed struct {
	line    int
	message string
}

// maxWatched bounds the findings kept of one rule in one file.
const maxWatched = 256

func (n *namedPaths) add(f *reports.Finding) {
	if n.watch[f.Path] && f.Line > 0 {
		if n.found == nil {
			n.found = map[findingKey][]placed{}
		}
		k := findingKey{strings.ToLower(f.Tool), f.Rule, f.Path}
		if l := n.found[k]; len(l) < maxWatched {
			n.found[k] = append(l, placed{f.Line, strings.Clone(f.Message)})
		}
	}
	if f.Tool == n.lastTool && f.Path == n.last {
		return
	}
	n.lastTool, n.last = f.Tool, f.Path
	if n.byTool == nil {
		n.byTool = map[string]map[string]bool{}
	}
	t := strings.ToLower(f.Tool)
	if n.byTool[t] == nil {
		n.byTool[t] = map[string]bool{}
	}
	n.byTool[t][f.Path] = true
}

// watchEntries names the files of the entries now, whose findings' lines
// and messages are kept.
func (r *triageRepo) watchEntries(m *triage.Matcher) {
	r.named.watch = map[string]bool{}
	for _, s := range m.Statuses() {
		r.named.watch[s.Path] = true
	}
}

// checkoutSlack is how much later than a report a file must have changed
// to be judged changed since: a checkout (a clone of a repository that
// holds its reports) writes both within seconds, in no set order.
const checkoutSlack = 30 * time.Second

// outdated says why a stale entry (its path now pathNow) may only look
// stale because the reports of its tool are older than the code: its file
// is gone (renamed, moved) and they still have findings in it; or they
// have a finding of its rule and message at the line where the entry's
// line was when it was decided (its commit), which reads otherwise now;
// or its file changed after the oldest of them was written. "" when none.
func (r *triageRepo) outdated(e *triage.Entry, pathNow string) string {
	tool := strings.ToLower(e.Tool)
	for _, p := range []string{e.Path, pathNow} {
		if _, err := r.croot.Stat(p); err != nil && r.named.byTool[tool][p] {
			return fmt.Sprintf("%s is gone, and the reports of %s still have findings in it", render.InertLine(p), render.InertLine(e.Tool))
		}
	}
	if line := r.movedSince(e, pathNow); line > 0 {
		return fmt.Sprintf("the report of %s has its finding at %s:%d, where its line was when it was decided; the line is elsewhere now", render.InertLine(e.Tool), render.InertLine(pathNow), line)
	}
	if st, err := r.croot.Stat(pathNow); err == nil {
		if w, ok := r.written[tool]; ok && st.ModTime().After(w.at.Add(checkoutSlack)) {
			return fmt.Sprintf("%s changed after %s was written", render.InertLine(pathNow), render.InertLine(w.path))
		}
	}
	return ""
}

// movedSince returns the line of a finding of e's tool, rule and message
// in its file that reads as e's line in the file at e's commit (where the
// finding was when it was decided) but not in the file now: the report
// describes the code of then, not of now. 0 when there is none, or the
// commit's file cannot be read (no git, a shallow clone).
func (r *triageRepo) movedSince(e *triage.Entry, pathNow string) int {
	found := r.named.found[findingKey{strings.ToLower(e.Tool), e.Rule, pathNow}]
	if e.Commit == "" || e.Line == "" || len(found) == 0 {
		return 0
	}
	then := r.fileAt(e.Commit, e.Path)
	if then == nil {
		return 0
	}
	now, err := readCapped(r.croot, pathNow)
	if err != nil {
		return 0
	}
	for _, p := range found {
		if triage.SameMessage(e.Message, p.message) && triage.LineReads(then, p.line, e.Line) && !triage.LineReads(now, p.line, e.Line) {
			return p.line
		}
	}
	return 0
}

// fileAt returns the file at path (relative to the root) in commit, nil
// when it cannot be read.
func (r *triageRepo) fileAt(commit, p string) []byte {
	if r.git == nil {
		repo, err := diff.Open(r.root)
		if err != nil {
			return nil
		}
		r.git = repo
		r.opened = map[string]func(string) (io.ReadCloser, int64, error){}
	}
	open, ok := r.opened[commit]
	if !ok {
		open, _ = r.git.OpenAt(commit) // nil: not in this clone
		r.opened[commit] = open
	}
	if open == nil {
		return nil
	}
	rc, _, err := open(path.Join(r.git.Sub(r.root), p))
	if err != nil {
		return nil
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, triage.MaxSourceSize+1))
	if err != nil || len(b) > triage.MaxSourceSize {
		return nil
	}
	return b
}

// readCapped reads a file of the root of at most triage.MaxSourceSize.
func readCapped(root *content.Root, p string) ([]byte, error) {
	f, _, err := root.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, triage.MaxSourceSize+1))
	if err == nil && len(b) > triage.MaxSourceSize {
		err = fmt.Errorf("%s: more than %d MiB", p, triage.MaxSourceSize>>20)
	}
	return b, err
}

// outdatedNote says how many stale entries prune kept because their
// reports are older than the code (listed above it): "" for none.
func outdatedNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %s kept: the reports are older than the code (run the tools again, or --force removes %s)",
		english.Plural(n, "stale entry", "stale entries"), itOrThem(n))
}

// entryPlace names an entry's file: its path, or where it is now when
// git says it was renamed ("new (was old)").
func entryPlace(p, now string) string {
	if now == "" || now == p {
		return render.InertLine(p)
	}
	return render.InertLine(now) + " (was " + render.InertLine(p) + ")"
}
