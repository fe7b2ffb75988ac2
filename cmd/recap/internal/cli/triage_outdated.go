package cli

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/triage"
)

// A report older than the code it reports on makes entries look stale
// that are not: their findings moved (lines added above, the file
// renamed) and the report still has them where they were. Such an entry
// is kept by prune (unless --force) and named by check and list.

// reportInfo is what is known of when a report was made.
type reportInfo struct {
	path string    // as given
	at   time.Time // its modification time
	// committed: the report is in HEAD and unchanged in the working tree;
	// base is then the commit that gave it its content (the code it
	// describes is that commit's), "" when the history does not reach it
	// (a shallow clone).
	committed bool
	base      string
	// then, of an uncommitted report, is the commit HEAD was at when it
	// was written: the code it describes is that commit's, with the work
	// not committed then.
	then string
}

// maxIntroduced bounds the commits looked through for the one that gave
// a committed report its content.
const maxIntroduced = 2000

// noteReports notes, for each tool of the inputs (lower case), its
// reports (standard input has no time nor commit: it is not judged).
func (r *triageRepo) noteReports(ins []reports.Input) {
	if r.reports == nil {
		r.reports = map[string][]reportInfo{}
	}
	for _, in := range ins {
		if in.LeftOut || in.Path == "-" || in.Error != "" && in.Findings == 0 {
			continue
		}
		st, err := os.Stat(in.Path)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		info := reportInfo{path: in.Path, at: st.ModTime()}
		if g := r.repo(); g != nil {
			if abs, err := filepath.Abs(in.Path); err == nil {
				if rel, err := filepath.Rel(g.Root, abs); err == nil && filepath.IsLocal(rel) && g.Unchanged(filepath.ToSlash(rel)) {
					info.committed = true
					info.base, _ = g.Introduced(filepath.ToSlash(rel), maxIntroduced)
				}
			}
			if !info.committed {
				info.then, _ = g.HeadAt(info.at, maxIntroduced)
			}
		}
		for _, t := range strings.Split(in.Tool, ", ") {
			t = strings.ToLower(t)
			if t == "" || strings.HasPrefix(t, "and ") {
				continue
			}
			r.reports[t] = append(r.reports[t], info)
		}
	}
}

// repo is the git repository of the root, opened once; nil outside one.
func (r *triageRepo) repo() *diff.Repo {
	if r.git == nil && !r.noGit {
		g, err := diff.Open(r.root)
		if err != nil {
			r.noGit = true
			return nil
		}
		r.git, r.opened = g, map[string]func(string) (io.ReadCloser, int64, error){}
	}
	return r.git
}

// namedPaths keeps, by tool (lower case), the paths the findings name,
// and of the findings in the files the entries name now (watch), their
// lines and messages. A report lists a file's findings together: most
// findings cost a comparison with the last one's tool and path.
type namedPaths struct {
	byTool  map[string]map[string]bool
	counts  map[string]*toolCounts
	watch   map[string]bool
	found   map[findingKey][]placed
	tails   map[string]map[string]bool // by tool: the tails of the paths not placed (see names)
	last    struct{ tool, path string }
	tool    string      // the last tool, lower case
	cur     *toolCounts // its counts
	outside bool        // the last path is not in the repository
	watched bool        // the last path is watched
}

// toolCounts are a tool's findings, and those whose path is not in the
// repository (kept as the report gives it).
type toolCounts struct{ findings, outside int }

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
	if f.Tool != n.last.tool || f.Path != n.last.path || n.cur == nil {
		n.next(f)
	}
	n.cur.findings++
	if n.outside {
		n.cur.outside++
	}
	if n.watched && f.Line > 0 {
		k := findingKey{n.tool, f.Rule, f.Path}
		if l := n.found[k]; len(l) < maxWatched {
			n.found[k] = append(l, placed{f.Line, strings.Clone(f.Message)})
		}
	}
}

// next notes the tool and path of f, another than the last finding's.
func (n *namedPaths) next(f *reports.Finding) {
	if n.counts == nil {
		n.counts, n.byTool, n.found = map[string]*toolCounts{}, map[string]map[string]bool{}, map[findingKey][]placed{}
	}
	if f.Tool != n.last.tool || n.cur == nil {
		n.tool = strings.ToLower(f.Tool)
		if n.cur = n.counts[n.tool]; n.cur == nil {
			n.cur = &toolCounts{}
			n.counts[n.tool] = n.cur
			n.byTool[n.tool] = map[string]bool{}
		}
	}
	n.last.tool, n.last.path = f.Tool, f.Path
	n.outside, n.watched = outsideRepo(f.Path), n.watch[f.Path]
	n.byTool[n.tool][f.Path] = true
}

// names reports whether the findings of tool name the repository's path
// p: as it is, or as the end of a path not placed in the repository (a
// report made elsewhere whose first file is gone keeps that file's path as
// it gives it).
func (n *namedPaths) names(tool, p string) bool {
	if n.byTool[tool][p] {
		return true
	}
	if n.tails == nil {
		n.tails = map[string]map[string]bool{}
	}
	tails, ok := n.tails[tool]
	if !ok { // once a tool: every tail of its paths not placed
		tails = map[string]bool{}
		for q := range n.byTool[tool] {
			if outsideRepo(q) {
				for i := strings.IndexByte(q, '/'); i >= 0; i = nextSlash(q, i) {
					tails[q[i+1:]] = true
				}
			}
		}
		n.tails[tool] = tails
	}
	return tails[p]
}

// nextSlash returns the index of the next '/' of q after i, -1 for none.
func nextSlash(q string, i int) int {
	j := strings.IndexByte(q[i+1:], '/')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// outsideRepo reports whether a finding's path is not in the repository:
// kept as the report gives it, absolute or above the root.
func outsideRepo(p string) bool {
	return strings.HasPrefix(p, "/") || strings.HasPrefix(p, "../") || p == ".." || content.HasDrive(p)
}

// watchEntries names the files of the entries now, whose findings' lines
// and messages are kept.
func (r *triageRepo) watchEntries(m *triage.Matcher) {
	r.named.watch = map[string]bool{}
	for _, s := range m.Statuses() {
		r.named.watch[s.Path] = true
	}
}

// checkoutSlack is how much later than a committed report a file must
// have changed to be judged changed since: a checkout (a clone of a
// repository that holds its reports) writes both within seconds, in no
// set order. A report the tools wrote has none.
const checkoutSlack = triage.CheckoutSlack

// outdated says why a stale entry (its path now pathNow) may only look
// stale because the reports of its tool are older than the code, "" when
// nothing says so:
//   - its file is gone (renamed, moved) while they still have findings in
//     it;
//   - a committed report's commit is not in this clone (a shallow one):
//     nothing can be told;
//   - its file changed after the commit that gave a committed report its
//     content, unless the report was written here after the file last
//     changed (the tools run again, giving the same bytes);
//   - an uncommitted report written before the file last changed has a
//     finding of its rule and message where its finding was in the code
//     the report describes (that of the commit
//     HEAD was at when it was written, by HEAD's reflog, else the commits'
//     times; or, made before the entry's commit, that commit's), another
//     line now, while its code is still in the file, elsewhere;
//   - an uncommitted report was written before its file changed (by the
//     files' times).
func (r *triageRepo) outdated(e *triage.Entry, pathNow string) string {
	tool := strings.ToLower(e.Tool)
	if c := r.named.counts[tool]; c != nil && c.outside > 0 && 2*c.outside >= c.findings {
		return fmt.Sprintf("%d of the %d findings of the reports of %s are outside the repository: made on another checkout, or before files moved", c.outside, c.findings, render.InertLine(e.Tool))
	}
	for _, p := range []string{e.Path, pathNow} {
		if _, err := r.croot.Stat(p); err != nil && r.named.names(tool, p) {
			return fmt.Sprintf("%s is gone, and the reports of %s still have findings in it", render.InertLine(p), render.InertLine(e.Tool))
		}
	}
	infos := r.reports[tool]
	st, statErr := r.croot.Stat(pathNow)
	for _, in := range infos {
		if !in.committed {
			continue
		}
		if in.base == "" {
			return fmt.Sprintf("%s is committed, but this clone is shallow: the commit it was made at cannot be told (git fetch --unshallow), nor whether it is older than the code", render.InertLine(in.path))
		}
		if statErr == nil && in.at.After(st.ModTime().Add(checkoutSlack)) {
			continue // written here after the file last changed: it describes the file as it is
		}
		if r.changedSince(in.base, e.Path, pathNow) {
			return fmt.Sprintf("%s changed after commit %s, the one %s was made at", render.InertLine(pathNow), shortHash(in.base), render.InertLine(in.path))
		}
	}
	for _, in := range infos {
		if in.committed || statErr == nil && in.at.After(st.ModTime()) {
			continue // written after the file last changed: it describes the file as it is
		}
		bases := []string{in.then} // HEAD when it was written
		if e.Commit != "" && !in.at.After(r.commitTime(e.Commit).Add(checkoutSlack)) {
			bases = append(bases, e.Commit) // made before the decision: the code decided on
		}
		for _, base := range bases {
			if base == "" {
				continue
			}
			if line, now := r.movedSince(e, pathNow, base); line > 0 {
				return fmt.Sprintf("%s has its finding at %s:%d, where its line was in the code it describes; the line is at %d now", render.InertLine(in.path), render.InertLine(pathNow), line, now)
			}
		}
	}
	if st, err := r.croot.Stat(pathNow); err == nil {
		for _, in := range infos {
			if !in.committed && st.ModTime().After(in.at) { // the tools wrote it, not a checkout: no slack
				return fmt.Sprintf("%s changed after %s was written", render.InertLine(pathNow), render.InertLine(in.path))
			}
		}
	}
	return ""
}

// changedSince reports whether the entry's file (now at pathNow, at
// oldPath before a rename) is another now than in commit base, line
// endings aside: a report made at base does not describe it.
func (r *triageRepo) changedSince(base, oldPath, pathNow string) bool {
	k := base + "\x00" + oldPath + "\x00" + pathNow // the entries of a file ask once
	if changed, ok := r.changed[k]; ok {
		return changed
	}
	changed := r.fileChanged(base, oldPath, pathNow)
	if r.changed == nil {
		r.changed = map[string]bool{}
	}
	r.changed[k] = changed
	return changed
}

func (r *triageRepo) fileChanged(base, oldPath, pathNow string) bool {
	then := r.fileAt(base, pathNow)
	if then == nil && oldPath != pathNow {
		then = r.fileAt(base, oldPath)
	}
	now, err := readCapped(r.croot, pathNow)
	if then == nil || err != nil {
		return true
	}
	return !bytes.Equal(bytes.ReplaceAll(then, []byte("\r\n"), []byte("\n")), bytes.ReplaceAll(now, []byte("\r\n"), []byte("\n")))
}

// shortHash is a commit's hash as people quote it.
func shortHash(h string) string { return h[:min(len(h), 12)] }

// commitTime is when commit was made, the zero time when it cannot be read.
func (r *triageRepo) commitTime(commit string) time.Time {
	if g := r.repo(); g != nil {
		if c, err := g.Commit(commit); err == nil {
			return c.Committer.When
		}
	}
	return time.Time{}
}

// movedSince returns the line of a finding of e's tool, rule and message
// in its file where e's finding was in the file at commit base (its
// location fingerprint there), whose line is not e's now, while e's code is
// still in the file now, elsewhere: the report describes the code of base,
// not of now, and the finding moved. 0 when there is none, or base's file
// cannot be read. now is where e's line is now.
func (r *triageRepo) movedSince(e *triage.Entry, pathNow, base string) (line, now int) {
	found := r.named.found[findingKey{strings.ToLower(e.Tool), e.Rule, pathNow}]
	if e.Line == "" && e.Location == "" || len(found) == 0 {
		return 0, 0
	}
	then := r.fileAt(base, pathNow)
	if then == nil && pathNow != e.Path {
		then = r.fileAt(base, e.Path) // renamed since
	}
	if then == nil {
		return 0, 0
	}
	src, err := readCapped(r.croot, pathNow)
	if err != nil {
		return 0, 0
	}
	now = triage.LineOf(src, e)
	if now == 0 {
		return 0, 0 // its code is gone: fixed, or changed
	}
	for _, p := range found {
		if p.line != now && triage.SameMessage(e.Message, p.message) && triage.At(then, p.line, e) && !triage.At(src, p.line, e) {
			return p.line, now
		}
	}
	return 0, 0
}

// fileAt returns the file at path (relative to the root) in commit, nil
// when it cannot be read.
func (r *triageRepo) fileAt(commit, p string) []byte {
	g := r.repo()
	if g == nil {
		return nil
	}
	open, ok := r.opened[commit]
	if !ok {
		open, _ = g.OpenAt(commit) // nil: not in this clone
		r.opened[commit] = open
	}
	if open == nil {
		return nil
	}
	rc, _, err := open(path.Join(g.Sub(r.root), p))
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

// Why an entry that matched nothing may only look stale.
type staleKind int

const (
	staleOutdated  staleKind = iota // its reports are older than its code
	staleShallow                    // this shallow clone cannot follow it
	staleSquashed                   // its commit is in no branch, its code as it was in no commit since
	staleUnfetched                  // its code at its commit is not in this partial clone, and git could not fetch it
)

// staleWhy says why an entry that matched nothing may not be stale, ""
// when nothing says so, and which kind of reason it is: its decided line
// could not be followed in this shallow clone, or its commit is in no
// branch of the repository, or its reports are older than its code.
func (r *triageRepo) staleWhy(s triage.Status) (string, staleKind) {
	if s.Unfollowed {
		return "its commit is not in this shallow clone (git fetch --unshallow): where its code was copied, or its neighbours changed, it cannot be followed", staleShallow
	}
	if s.Unfetched {
		return "its code at its commit is not in this partial clone, and git could not fetch it (the warning says why): where its code was copied, or its neighbours changed, it cannot be followed", staleUnfetched
	}
	if s.Squashed {
		return "its commit is in no branch of this repository, nor its code as it was in a commit since (a branch squashed or rebased after the code changed): where its code was copied, or its neighbours changed, it cannot be followed", staleSquashed
	}
	return r.outdated(&s.Entry, s.Path), staleOutdated
}

// outdatedNote says how many stale entries prune kept because their
// reports are older than the code, how many because this shallow clone
// cannot follow them and how many because their commit is in no branch
// (each listed above it): "" for none.
func outdatedNote(outdated, shallow, squashed, unfetched int) string {
	note := ""
	if outdated > 0 {
		note += fmt.Sprintf("; %s kept: the reports may be older than the code (run the tools again, or --force removes %s)",
			english.Plural(outdated, "stale entry", "stale entries"), itOrThem(outdated))
	}
	if shallow > 0 {
		note += fmt.Sprintf("; %s kept: this clone is shallow and cannot follow %s (git fetch --unshallow, or --force removes %s)",
			english.Plural(shallow, "stale entry", "stale entries"), itOrThem(shallow), itOrThem(shallow))
	}
	if squashed > 0 {
		note += fmt.Sprintf("; %s kept: %s commit is in no branch and %s code cannot be followed (decide %s again where %s finding is shown, or --force removes %s)",
			english.Plural(squashed, "stale entry", "stale entries"), itsOrTheir(squashed), itsOrTheir(squashed), itOrThem(squashed), itsOrTheir(squashed), itOrThem(squashed))
	}
	if unfetched > 0 {
		note += fmt.Sprintf("; %s kept: this partial clone could not fetch %s code (give git access to the remote, or --force removes %s)",
			english.Plural(unfetched, "stale entry", "stale entries"), itsOrTheir(unfetched), itOrThem(unfetched))
	}
	return note
}

// entryPlace names an entry's file: its path, or where it is now when
// git says it was renamed ("new (was old)").
func entryPlace(p, now string) string {
	if now == "" || now == p {
		return render.InertLine(p)
	}
	return render.InertLine(now) + " (was " + render.InertLine(p) + ")"
}

// entryName names an entry for a line of its own: its tool, rule, file
// (where it is now, see entryPlace) and the text of its line, which tells
// apart the entries of one rule in one file.
func entryName(e *triage.Entry, now string) string {
	s := render.InertLine(e.Tool) + " " + render.InertLine(reports.ShortRule(e.Tool, e.Rule)) + " " + entryPlace(e.Path, now)
	if e.Line != "" {
		s += fmt.Sprintf(" %q", text.CutRunes(e.Line, 60))
	}
	return s
}

// entryNames names each entry (by key) as entryName does, with its
// location fingerprint after the names two entries share (two lines of one
// text in one file).
func entryNames(list []triage.Status) map[string]string {
	names := make(map[string]string, len(list))
	seen := map[string]int{}
	for i := range list {
		n := entryName(&list[i].Entry, list[i].Path)
		names[list[i].Entry.Key()] = n
		seen[n]++
	}
	for i := range list {
		e := &list[i].Entry
		if n := names[e.Key()]; seen[n] > 1 && e.Location != "" {
			names[e.Key()] = n + " at " + render.InertLine(e.Location)
		}
	}
	// Entries of one rule at one place (two parameters of one line not
	// final): their messages tell them apart.
	clear(seen)
	for _, n := range names {
		seen[n]++
	}
	for i := range list {
		e := &list[i].Entry
		if n := names[e.Key()]; seen[n] > 1 && e.Message != "" {
			names[e.Key()] = fmt.Sprintf("%s saying %q", n, render.InertLine(text.CutRunes(e.Message, 120)))
		}
	}
	return names
}

// editedSince tells the findings whose file was edited after the reports
// of their tool were written, and not committed: the report's line of
// such a finding may hold other code now (lines added above it), and an
// entry made there would name that code, and the context shown there is
// other code than the tool read. A file as HEAD has it is not judged: a
// checkout writes the reports and the code in no set order.
type editedSince struct {
	root   string                            // the repository's directory, absolute
	stat   func(string) (fs.FileInfo, error) // a file of the repository, by its path relative to root
	repo   func() *diff.Repo                 // the repository, nil without git
	byTag  map[string]reportInfo             // by the tag of its findings' ids: each report
	latest map[string]reportInfo             // by tool (lower case): its newest report, for a finding of no report known
	judged map[string]string                 // by path and report: why, "" when not edited since
	// committed judges a file as HEAD has it too: changed in a commit
	// made after the report was written (HEAD then, by its reflog or the
	// commits' times, holds it otherwise). then is that commit, by report.
	committed bool
	then      map[string]string
	// checkedOut says, by report, that it is in HEAD as it is (a checkout
	// may have written it with the code: triage.CommittedSince).
	checkedOut map[string]bool
}

func newEditedSince(r *triageRepo) *editedSince {
	return newEditedSinceOf(r.root, r.croot.Stat, r.repo, r.inputs)
}

// newEditedSinceOf is an editedSince of the reports inputs (a run's
// Inputs, in order) over the repository at root.
func newEditedSinceOf(root string, stat func(string) (fs.FileInfo, error), repo func() *diff.Repo, inputs []reports.Input) *editedSince {
	e := &editedSince{root: root, stat: stat, repo: repo, byTag: map[string]reportInfo{}, latest: map[string]reportInfo{}, judged: map[string]string{}}
	names := make([]string, len(inputs))
	for i, in := range inputs {
		names[i] = in.Path
	}
	tags := parsers.InputTags(names)
	for i, in := range inputs {
		if in.LeftOut || in.Error != "" && in.Findings == 0 {
			continue
		}
		e.addReport(in.Path, tags[i], in.Tool)
	}
	return e
}

// addReport notes the report at path, whose findings' ids have the tag,
// of the tools named (", " between them; "" when not known yet).
// Standard input has no time: it is not judged.
func (e *editedSince) addReport(path, tag, tools string) {
	if path == "-" {
		return
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return
	}
	e.byTag[tag] = reportInfo{path: path, at: st.ModTime()}
	for _, t := range strings.Split(tools, ", ") {
		if t = strings.ToLower(t); t == "" || strings.HasPrefix(t, "and ") {
			continue
		}
		if l, ok := e.latest[t]; !ok || st.ModTime().After(l.at) {
			e.latest[t] = reportInfo{path: path, at: st.ModTime()}
		}
	}
}

// why says why f's line in its file may not be the code its report
// describes, "" when nothing says so.
func (e *editedSince) why(f *reports.Finding) string {
	in, ok := e.byTag[f.ID.Tag] // its own report
	if !ok {
		in, ok = e.latest[strings.ToLower(f.Tool)]
	}
	if !ok || f.Path == "" {
		return ""
	}
	k := in.path + "\x00" + f.Path
	if w, ok := e.judged[k]; ok {
		return w
	}
	w := ""
	if st, err := e.stat(f.Path); err == nil && st.ModTime().After(in.at) {
		switch repo := e.repo(); {
		case triage.EditedSince(repo, e.root, f.Path, st, in.at):
			w = fmt.Sprintf("%s changed after %s was written", render.InertLine(f.Path), render.InertLine(in.path))
		case e.committed && repo != nil && e.committedSince(repo, in, f.Path, st):
			w = fmt.Sprintf("%s changed after %s was written (committed since)", render.InertLine(f.Path), render.InertLine(in.path))
		case e.committed && triage.StashedSince(repo, e.root, f.Path, st, in.at):
			w = fmt.Sprintf("%s changed after %s was written (stashed since)", render.InertLine(f.Path), render.InertLine(in.path))
		}
	}
	e.judged[k] = w
	return w
}

// committedSince reports whether the file p (as HEAD has it, its
// information st) was changed by a commit made after in was written
// (triage.CommittedSince), HEAD then found once a report.
func (e *editedSince) committedSince(repo *diff.Repo, in reportInfo, p string, st fs.FileInfo) bool {
	if e.then == nil {
		e.then = map[string]string{}
	}
	then, ok := e.then[in.path]
	if !ok {
		then, _ = repo.HeadAt(in.at, maxIntroduced)
		e.then[in.path] = then
		if e.checkedOut == nil {
			e.checkedOut = map[string]bool{}
		}
		e.checkedOut[in.path] = inHead(repo, in.path)
	}
	return triage.CommittedSince(repo, e.root, p, st, in.at, then, e.checkedOut[in.path])
}

// inHead says whether the file at path (as given: relative to the working
// directory, or absolute) is in repo's HEAD as it is in the working tree.
func inHead(repo *diff.Repo, path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(repo.Root, abs)
	return err == nil && filepath.IsLocal(rel) && repo.Unchanged(filepath.ToSlash(rel))
}
