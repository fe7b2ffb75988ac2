package cli

import (
	"fmt"
	"os"
	"strings"
	"time"

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

// namedPaths keeps, by tool (lower case), the paths the findings name.
type namedPaths struct {
	byTool         map[string]map[string]bool
	lastTool, last string
}

func (n *namedPaths) add(f *reports.Finding) {
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

// checkoutSlack is how much later than a report a file must have changed
// to be judged changed since: a checkout (a clone of a repository that
// holds its reports) writes both within seconds, in no set order.
const checkoutSlack = 30 * time.Second

// outdated says why a stale entry (its path now pathNow) may only look
// stale because the reports of its tool are older than the code: its file
// is gone (renamed, moved) and they still have findings in it, or its
// file changed after the oldest of them was written. "" when neither.
func (r *triageRepo) outdated(e *triage.Entry, pathNow string) string {
	tool := strings.ToLower(e.Tool)
	for _, p := range []string{e.Path, pathNow} {
		if _, err := r.croot.Stat(p); err != nil && r.named.byTool[tool][p] {
			return fmt.Sprintf("%s is gone, and the reports of %s still have findings in it", render.InertLine(p), render.InertLine(e.Tool))
		}
	}
	if st, err := r.croot.Stat(pathNow); err == nil {
		if w, ok := r.written[tool]; ok && st.ModTime().After(w.at.Add(checkoutSlack)) {
			return fmt.Sprintf("%s changed after %s was written", render.InertLine(pathNow), render.InertLine(w.path))
		}
	}
	return ""
}

// outdatedNote says how many stale entries prune kept because their
// reports are older than the code, with the first reason: "" for none.
func outdatedNote(n int, first string) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %s kept: the reports are older than the code (%s): run the tools again, or --force removes %s",
		english.Plural(n, "stale entry", "stale entries"), first, itOrThem(n))
}
