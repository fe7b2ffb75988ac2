package triage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
)

// Source reads a file of the repository by its repository-relative path
// (a content.Root's FS, or the files at a revision).
type Source = fs.FS

// How says how an entry matched a finding, best first.
type How int

// The ways an entry matches a finding (docs/triage.md, "Matching").
const (
	// ByLocation: the same location fingerprint and message.
	ByLocation How = iota + 1
	// ByLocationOnly: the same location fingerprint, the message the
	// same but for its numbers (a count or a length the tool puts in its
	// message changed: "found 123" for "found 119"; not a number written
	// on the line, which tells two findings of the line apart: "'100' is
	// a magic number." beside "'119' is a magic number."). A message that
	// changed otherwise is another finding, which the entry does not
	// cover.
	ByLocationOnly
	// ByLocationMoved: the same hash of the line and its neighbours, once
	// in the file, though equal lines before it came or went.
	ByLocationMoved
	// ByHistory: the finding's line is the decided one as git carries
	// it from the entry's commit to the file now (see history), the
	// message the same (or but for numbers not written on the line, as
	// ByLocationOnly), where neither the location (the code copied in
	// the file) nor the line's text (not once in the file) tells.
	ByHistory
	// ByLineText: the fingerprint changed (a neighbour line was edited),
	// but the finding's line reads as the entry's Line, once in the file,
	// and the message is the same (or the same but for numbers not
	// written on the line, as ByLocationOnly).
	ByLineText
	// ByMessage: without the file's text (no source, a finding without a
	// line), the same path, rule and message.
	ByMessage
)

// A Matcher tells which entry of a triage file covers each finding of a
// run. A finding costs a lookup of its path (a comparison with the last
// named path a finding had, most often) and of its rule among that path's entries; the
// ones some entry may cover are compared with the entries of their path (or of the path
// their file was renamed from), then with the entries whose file is gone:
// first by the text of the finding's line, then by its location
// fingerprint, worked out only for a line that reads as an entry's. Each
// file is read once, at its first finding some entry may cover. Safe for
// concurrent use once made (FollowRenames first).
type Matcher struct {
	src fs.FS
	now time.Time

	entries []Entry
	byRule  map[ruleKey]*ruleEntries
	byFile  map[string]*fileEntries     // the entries at a path now, by rule
	orphans bool                        // some entry's file is gone
	last    atomic.Pointer[fileEntries] // the entries of the last named path a finding had
	path    []string                    // entry → its path now (Path, or where git says it was renamed to)
	lines   []entryLine                 // entry → its Line, to compare

	mu   sync.Mutex
	used []int // entry → findings it matched
	// unread counts, by entry made at a line, the findings it covered by
	// their message alone, their file not read (larger than
	// MaxSourceSize, or no regular file); unreadAt is the first's path.
	unread   map[int]int
	unreadAt string
	near     []*Near // entry → a finding at its location that another message kept from matching
	// undecided are findings that matched none of the entries of their
	// file and rule, kept when the matcher follows lines through git:
	// the one on the line an entry's decided line was edited into is
	// what to decide again (editedNear); kept only when asked (TellEdited).
	undecided  []undecided
	tellEdited bool
	editedDone int // len(undecided)+1 when editedNear last looked
	// addedSince is, of each entry whose file git says was deleted since
	// its commit (no rename; nil for the others), the files added since:
	// of HEAD's files (headFiles) it matches those alone, by the whole
	// location; a file not committed yet, as without git.
	addedSince []map[string]bool
	headFiles  map[string]bool
	// gitSub is the root's place in its git repository (Follow: "" for
	// the top level): the entries' paths are the root's, git's the top
	// level's.
	gitSub     string
	found      []string               // entry → the path of the first finding it matched in another file than its own
	files      map[string]*sourceFile // the files held, and those that cannot be read (nil)
	held       heldFiles              // the files held, least recently asked about first: their text at most bound bytes, or the minHeld asked about last
	bound      int                    // maxHeld, or what ReadAhead reads
	bytes      int                    // the bytes of their text
	spare      []*sourceFile          // files let go, whose buffers the next reads fill
	tick       uint64                 // calls of file, to tell the least recently asked about
	reads      int                    // files read
	hist       *history               // where decided lines went since their commits (Follow); nil: not asked
	digests    map[string]*digest     // the files read, by what deciding asks of them
	dbuf       []byte                 // the text of the file digested last (digestFor)
	dsf        sourceFile             // its lines, when quickDigest cannot tell
	readAhead  map[string]bool        // the files ReadAhead reads
	orphanWant *wanted                // the entries whose file is gone, as digests look for them (orphansWanted)
	ahead      []string               // the paths of the entries' files there, to read ahead
	aheadBytes int64                  // and their bytes
	// lastFile is the file held asked about last.
	lastFile *sourceFile
	cands    []int // decide's buffer
	// byMsg indexes by message the entries of a file and rule that are
	// many (see messageCands), made when a finding first asks.
	byMsg map[msgKey]*msgIndex
}

// Near is a finding of an entry's tool and rule at the entry's location
// whose message is another (a method renamed in SpotBugs' message): not
// covered, as another finding on the line may be, but what to decide
// again when the entry matches nothing.
type Near struct {
	ID      reports.FindingID
	Path    string
	Line    int
	Message string
	// Code, when the decided line itself was edited since (git's diff
	// replaces it with this line, much of its text kept), is that line
	// now, white space folded: the finding is on the edited line.
	Code string
	// Fingerprint is the finding's, when its report was read with them
	// (a name analysis.triage takes, as ids of a command do not).
	Fingerprint string
}

// undecided is a finding no entry of its file and rule matched.
type undecided struct {
	id               reports.FindingID
	tool, rule, path string
	line             int
	message          string
	fingerprint      string
}

// maxUndecided bounds the findings a matcher keeps as undecided.
const maxUndecided = 1 << 16

type ruleKey struct{ tool, rule string }

// ruleEntries are the entries of one rule whose file is gone and not
// known renamed.
type ruleEntries struct{ orphans []int }

// fileEntries are the entries of one path, by rule. The last path some
// entry names that a finding had is kept (Matcher.last): a report lists a
// file's findings together, so the next finding's path is most often
// that one, told by a comparison rather than a lookup.
type fileEntries struct {
	path string
	// The entries by rule: a few rules in a list, looked through (most
	// files' entries are of a few rules, and a finding of a file some
	// entry names then costs no hash of its tool and rule), more in a map.
	few   []ruleList
	rules map[ruleKey][]int
	// digest is the file's digest once made (Matcher.digests'), looked
	// up without hashing its path (m.mu held).
	digest *digest
	// plain says that each entry has a Line and this path as its own
	// (none renamed): one whose Line a finding's line does not read as
	// does not match it (see digest.foundAt).
	plain bool
}

// ruleList is the entries of one rule of a file.
type ruleList struct {
	ruleKey
	entries []int
}

// maxFew is the most rules a file's entries are listed by in a list.
const maxFew = 8

// add lists entry i, of rule rk.
func (fe *fileEntries) add(rk ruleKey, i int) {
	if fe.rules != nil {
		fe.rules[rk] = append(fe.rules[rk], i)
		return
	}
	for k := range fe.few {
		if fe.few[k].ruleKey == rk {
			fe.few[k].entries = append(fe.few[k].entries, i)
			return
		}
	}
	if len(fe.few) < maxFew {
		fe.few = append(fe.few, ruleList{rk, []int{i}})
		return
	}
	fe.rules = make(map[ruleKey][]int, len(fe.few)+1)
	for _, l := range fe.few {
		fe.rules[l.ruleKey] = l.entries
	}
	fe.few = nil
	fe.rules[rk] = []int{i}
}

// of returns the entries of that tool and rule.
func (fe *fileEntries) of(tool, rule string) []int {
	if fe.rules != nil {
		return fe.rules[ruleKey{tool, rule}]
	}
	for k := range fe.few {
		if l := &fe.few[k]; l.rule == rule && l.tool == tool {
			return l.entries
		}
	}
	return nil
}

// all returns the entries of every rule.
func (fe *fileEntries) all() []int {
	var all []int
	for _, l := range fe.few {
		all = append(all, l.entries...)
	}
	for _, l := range fe.rules {
		all = append(all, l...)
	}
	return all
}

// NewMatcher returns a matcher of f's entries, reading source files
// through src (nil: matching without location fingerprints, by path and
// message), with now as the day expiries are judged on.
func NewMatcher(f *File, src fs.FS, now time.Time) *Matcher {
	m := &Matcher{src: src, now: now, files: map[string]*sourceFile{}, digests: map[string]*digest{}, bound: maxHeld}
	if f != nil {
		m.entries = f.Entries
	}
	m.used = make([]int, len(m.entries))
	m.near = make([]*Near, len(m.entries))
	m.found = make([]string, len(m.entries))
	m.path = make([]string, len(m.entries))
	m.lines = make([]entryLine, len(m.entries))
	for i := range m.entries {
		m.lines[i] = newEntryLine(m.entries[i].Line)
	}
	for i := range m.entries {
		m.path[i] = m.entries[i].Path
	}
	m.index()
	return m
}

// index files each entry under its path now, or among its rule's orphans
// when its file is gone from src.
func (m *Matcher) index() {
	m.byRule, m.byFile, m.orphans, m.orphanWant = map[ruleKey]*ruleEntries{}, map[string]*fileEntries{}, false, nil
	m.last.Store(nil)
	gone := m.gone()
	for i := range m.entries {
		e := &m.entries[i]
		rk := ruleKey{e.Tool, e.Rule}
		re := m.byRule[rk]
		if re == nil {
			re = &ruleEntries{}
			m.byRule[rk] = re
		}
		p := m.path[i]
		if m.src != nil && p != "" {
			if gone[p] {
				re.orphans = append(re.orphans, i)
				m.orphans = true
				continue
			}
		}
		fe := m.byFile[p]
		if fe == nil {
			fe = &fileEntries{path: p, plain: p != ""}
			m.byFile[p] = fe
		}
		fe.add(rk, i)
		fe.plain = fe.plain && e.Line != "" && e.Path == p
	}
}

// gone tells, of each path of an entry, whether its file is gone from
// src: Stat of it fails. A source that tells of many names at once
// (content.Root's) is asked so.
func (m *Matcher) gone() map[string]bool {
	gone := map[string]bool{}
	if m.src == nil {
		return gone
	}
	var paths []string
	for _, p := range m.path {
		if _, ok := gone[p]; !ok && p != "" {
			gone[p] = false
			paths = append(paths, p)
		}
	}
	var infos []fs.FileInfo
	if sa, ok := m.src.(interface{ StatAll([]string) []fs.FileInfo }); ok {
		infos = sa.StatAll(paths)
	} else {
		infos = make([]fs.FileInfo, len(paths))
		for i, p := range paths {
			if st, err := fs.Stat(m.src, p); err == nil {
				infos[i] = st
			}
		}
	}
	m.ahead, m.aheadBytes = m.ahead[:0], 0
	for i, p := range paths {
		st := infos[i]
		gone[p] = st == nil
		// Regular files only: a FIFO or a device is not opened unless a
		// finding asks about it (and then refused).
		if st != nil && st.Mode().IsRegular() && st.Size() <= MaxSourceSize {
			m.ahead = append(m.ahead, p)
			m.aheadBytes += st.Size()
		}
	}
	return gone
}

// ReadAhead reads the files of the entries on a goroutine of its own
// while the findings are read, when they come to at most maxAhead, and
// keeps of each its digest (see digest), not its text: a run whose
// decisions name a thousand files read them, one at a time, on the
// goroutine that reads the findings, and a second core sat idle
// meanwhile. Deciding a finding of a file read ahead asks its digest, and
// reads the text only for what the digest cannot tell. A file asked about
// before the read-ahead reached it is read then, as without it, and the
// read-ahead passes it by. Call it once, after FollowRenames; the
// goroutine ends once it has read them.
func (m *Matcher) ReadAhead() {
	ahead := m.aheadBytes + int64(len(m.ahead)) // a file's buffer is a byte longer
	if m.src == nil || len(m.ahead) == 0 || ahead > maxAhead {
		return
	}
	paths := slices.Clone(m.ahead)
	slices.Sort(paths)
	m.mu.Lock()
	m.readAhead = make(map[string]bool, len(paths))
	for _, p := range paths {
		m.readAhead[p] = true
	}
	gone := m.orphansWanted()
	m.mu.Unlock()
	own := make([]*fileEntries, len(paths))
	for i, p := range paths {
		own[i] = m.byFile[p]
	}
	go func() {
		var buf []byte
		sf := &sourceFile{}
		for k, p := range paths {
			// A file asked about before the read-ahead reached it has
			// its digest already (or is refused: unreadable).
			m.mu.Lock()
			_, asked := m.files[p]
			_, dug := m.digests[p]
			m.mu.Unlock()
			if dug || asked || own[k] == nil {
				continue
			}
			b, err := readSource(m.src, p, func(n int) []byte {
				if cap(buf) < n {
					buf = make([]byte, 0, n)
				}
				return buf[:0]
			})
			if err != nil {
				continue // asked about, it is read again, and refused then
			}
			buf = b[:0]
			d := m.digestText(b, sf, m.wantedOf(own[k].all()), gone)
			d.own = own[k]
			m.mu.Lock()
			if _, dug := m.digests[p]; !dug { // or made meanwhile by the finding that asked
				m.digests[p] = d
				m.reads++
			}
			m.mu.Unlock()
		}
	}()
}

// FollowRenames asks git where the files of the entries whose file is
// gone went: for each entry with a Commit, the renames from that commit
// to the working tree (committed since or not, as git diff COMMIT HEAD
// shows them, with git's rename detection, then the working tree's). An entry so followed matches
// findings at the new path; the others whose file is gone are matched by
// their location in any file. Call it before Decide.
func (m *Matcher) FollowRenames(ctx context.Context, repo *diff.Repo) error {
	if repo == nil {
		return nil
	}
	commits := map[string]bool{}
	for _, re := range m.byRule {
		for _, i := range re.orphans {
			if c := m.entries[i].Commit; c != "" {
				commits[c] = true
			}
		}
	}
	if len(commits) == 0 {
		return nil
	}
	names := make([]string, 0, len(commits))
	for c := range commits {
		names = append(names, c)
	}
	sort.Strings(names)
	// A commit the repository has not, and is no shallow clone's (a
	// branch squashed or rebased away, a pull request's merge commit),
	// is stood in for by the commits since the entry's day.
	absent := map[string]bool{}
	if !repo.Shallow() {
		kept := names[:0]
		for _, c := range names {
			if _, err := repo.Commit(c); err != nil {
				absent[c] = true
			} else {
				kept = append(kept, c)
			}
		}
		names = kept
	}
	standIn := map[string][]string{}
	// git diff COMMIT HEAD finds renames by similarity; the working tree
	// against HEAD pairs a deleted and an added file of one content.
	var work map[string]string
	if files, err := repo.WorkingTree(ctx); err == nil {
		work = m.renamesOf(files)
	}
	renames := map[string]map[string]string{}
	added := map[string]map[string]bool{} // by commit, the files added since
	var firstErr error
	since := func(c string) map[string]string {
		if r, ok := renames[c]; ok {
			return r
		}
		files, err := repo.Between(ctx, c, "HEAD")
		if err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("following renames since %s: %w", c, err)
			}
			renames[c] = nil
			return nil
		}
		r := m.renamesOf(files)
		added[c] = map[string]bool{}
		for _, f := range files {
			if p, ok := fromGit(m.gitSub, f.NewPath); ok && f.Status == diff.Added {
				added[c][p] = true
			}
		}
		for from, to := range r {
			if again, ok := work[to]; ok {
				r[from] = again
			}
		}
		for from, to := range work {
			if _, ok := r[from]; !ok {
				r[from] = to
			}
		}
		renames[c] = r
		return r
	}
	for _, c := range names {
		since(c)
	}
	moved := false
	type follow struct {
		to string
		ok bool
	}
	followed := map[[2]string]follow{} // by commit and path: followByCommits' answers
	var deleted []int                  // the entries whose file git says was deleted, not renamed
	judgedBy := map[int]string{}       // and the commit git said it since
	for _, re := range m.byRule {
		for _, i := range re.orphans {
			e := &m.entries[i]
			// The first of commits that has the file: where its rename is
			// followed from; judged when git's renames since it are known.
			firstWith := func(commits []string) (to string, ok bool, judged string) {
				for _, c := range commits {
					if repo.Has(c, m.inGit(e.Path)) {
						r := since(c)
						to, ok = r[e.Path]
						if r == nil {
							c = ""
						}
						return to, ok, c
					}
				}
				return "", false, ""
			}
			var to string
			var ok bool
			judged := "" // the commit whose renames since say where the file went
			switch {
			case absent[e.Commit]:
				// Stood in for by the commits since its day.
				ins := standIns(repo, e, standIn)
				to, ok, judged = firstWith(ins)
				if judged == "" && len(ins) > 0 && since(ins[0]) != nil {
					// None of them has its file: the files there before
					// its day (the first of them) are others.
					judged = ins[0]
				}
			case renames[e.Commit] == nil:
				// git could not tell (a shallow clone's commit)
			case repo.Has(e.Commit, m.inGit(e.Path)):
				to, ok = renames[e.Commit][e.Path]
				judged = e.Commit
				if !ok {
					// One diff since finds no rename when the file grew
					// past git's similarity since: the commit that renamed
					// it may, as git log --follow finds it (each file and
					// commit once, maxFollowed of them a run).
					k := [2]string{e.Commit, e.Path}
					f, asked := followed[k]
					if !asked && len(followed) < maxFollowed {
						f.to, f.ok = m.followByCommits(ctx, repo, e.Commit, e.Path)
						followed[k] = f
					}
					if to, ok = f.to, f.ok; ok {
						if again, moved := work[to]; moved {
							to = again
						}
					}
				}
			default:
				// Decided before the file was committed: followed from
				// the first commit after the entry's that has it.
				after, _ := repo.After(e.Commit, maxAfter, maxBack)
				to, ok, judged = firstWith(after)
				if judged == "" {
					// No commit since has it (never committed, or named
					// wrong): the files there at its commit are others,
					// as for a file deleted since.
					judged = e.Commit
				}
			}
			if ok {
				m.path[i] = to
				moved = true
			} else if judged != "" {
				deleted, judgedBy[i] = append(deleted, i), judged
			}
		}
	}
	if len(deleted) > 0 {
		// git tells where a committed file went: the files of HEAD are
		// not where these went. A file not committed yet (moved by hand,
		// untracked or only staged) is not git's to tell: it is matched
		// by its code, as without git.
		if files, err := repo.Files("HEAD"); err == nil {
			m.headFiles = make(map[string]bool, len(files))
			for p := range files {
				if p, ok := fromGit(m.gitSub, p); ok {
					m.headFiles[p] = true
				}
			}
			m.addedSince = make([]map[string]bool, len(m.entries))
			for _, i := range deleted {
				m.addedSince[i] = added[judgedBy[i]]
			}
		}
	}
	if moved {
		m.index()
	}
	return firstErr
}

// Follow has the matcher follow the code through the git repository
// that holds dir: the entries whose file is gone where git says it went
// since the entry's commit (FollowRenames: a matcher without one opens no
// repository), and, where a location fingerprint cannot tell, the
// decided line itself (see history). Outside a git repository the
// entries whose file is gone match in any file, as without a commit.
func (m *Matcher) Follow(ctx context.Context, dir string) error {
	if m.withCommit() {
		m.hist = &history{dir: dir, files: map[histKey]*histFile{}, lines: map[int]int{}, from: map[int]histAt{}, after: map[string][]string{}, missing: map[int]bool{}, since: map[string][]string{}, squashed: map[int]bool{},
			unfetched: map[int]bool{}, unfetchable: map[histKey]bool{}, ambiguous: map[int][2]int{}, stepped: map[int]int{}, stepsAfter: map[stepsKey][]string{}}
	}
	if !m.goneWithCommit() {
		return nil
	}
	repo, err := diff.Open(dir)
	if errors.Is(err, diff.ErrNotRepository) {
		m.hist = nil
		return nil
	}
	if err != nil {
		return fmt.Errorf("following renames: %w", err)
	}
	defer repo.Close()
	m.gitSub = repo.Sub(dir)
	return m.FollowRenames(ctx, repo)
}

// Squashed counts the entries whose decided line was asked of git (a
// copy of the code, or a neighbour changed) but whose commit is in no
// branch of this repository, no shallow clone, while no commit of HEAD's
// line since the day of the decision has the decided code as it was (a
// branch squashed or rebased since, the line's neighbours changed on
// it): their lines are not followed.
func (m *Matcher) Squashed() int {
	return m.histCount(func(h *history) map[int]bool { return h.squashed })
}

// Unfollowed counts the entries whose decided line was asked of git (a
// copy of the code, or a neighbour changed) but whose commit the
// repository does not have (a shallow clone).
func (m *Matcher) Unfollowed() int {
	return m.histCount(func(h *history) map[int]bool { return h.missing })
}

// ByMessageUnread counts the entries made at a line (with a location or a
// line text) that covered findings by their message alone, their file not
// read (larger than MaxSourceSize, or no regular file), and the findings
// they covered: each covers every finding of its rule and message there.
// first is the first such finding's path.
func (m *Matcher) ByMessageUnread() (entries, findings int, first string) {
	if m == nil {
		return 0, 0, ""
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, n := range m.unread {
		entries++
		findings += n
	}
	return entries, findings, m.unreadAt
}

// Ambiguous counts the entries that cover a finding by their location,
// whole, while git's line diff says the decided line is another line of
// the same text (see how): they may cover a copy.
// It returns the first of them (in the file's order) as the two lines,
// "path:5 by its location, :11 by git's".
func (m *Matcher) Ambiguous() (n int, first string) {
	if m == nil {
		return 0, ""
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.hist == nil {
		return 0, ""
	}
	firstIdx := -1
	for idx := range m.hist.ambiguous {
		if m.used[idx] > 0 {
			n++
			if firstIdx < 0 || idx < firstIdx {
				firstIdx = idx
			}
		}
	}
	if n == 0 {
		return 0, ""
	}
	a := m.hist.ambiguous[firstIdx]
	return n, m.path[firstIdx] + ":" + strconv.Itoa(a[0]) + " by its location, :" + strconv.Itoa(a[1]) + " by git's"
}

// Unfetched counts the entries whose decided line was asked of git (a
// copy of the code, or a neighbour changed) but whose file at its commit
// a partial clone lacks and git could not fetch, and returns the first
// error of git's: their lines are not followed.
func (m *Matcher) Unfetched() (int, error) {
	if m == nil {
		return 0, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.hist == nil || len(m.hist.unfetched) == 0 {
		return 0, nil
	}
	return len(m.hist.unfetched), m.hist.fetchErr
}

// histCount counts the entries of one of the history's sets; 0 without a
// matcher or a history.
func (m *Matcher) histCount(set func(*history) map[int]bool) int {
	if m == nil {
		return 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.hist == nil {
		return 0
	}
	return len(set(m.hist))
}

// withCommit reports whether some entry has a commit.
func (m *Matcher) withCommit() bool {
	for i := range m.entries {
		if m.entries[i].Commit != "" {
			return true
		}
	}
	return false
}

// goneWithCommit reports whether some entry whose file is gone has a
// commit to follow its file from.
func (m *Matcher) goneWithCommit() bool {
	for _, re := range m.byRule {
		for _, i := range re.orphans {
			if m.entries[i].Commit != "" {
				return true
			}
		}
	}
	return false
}

// maxHops bounds the renames followByCommits follows one file through,
// and maxFollowed the files a run follows so.
const (
	maxHops     = 8
	maxFollowed = 64
)

// followByCommits follows the file at p, as commit c has it, through the
// commits of HEAD's first-parent line since, each renaming commit on its
// own (as git log --follow does): at the first commit that has it at p no
// more, git's rename detection between that commit and the one before
// says where it went, and so on. It returns the file's path in HEAD; ok
// false when a commit deleted it, or when that cannot be told.
func (m *Matcher) followByCommits(ctx context.Context, repo *diff.Repo, c, p string) (string, bool) {
	for hop := range maxHops {
		changed, more, err := repo.ChangedAfter(c, []string{m.inGit(p)}, maxSteps, maxBack)
		if err != nil || more {
			return "", false
		}
		gone := ""
		for _, x := range changed {
			if !repo.Has(x, m.inGit(p)) {
				gone = x
				break
			}
		}
		if gone == "" {
			// There still in HEAD: where it went (its own path, gone
			// from the working tree alone, is the working tree's to tell).
			return p, hop > 0
		}
		commit, err := repo.Commit(gone)
		if err != nil || commit.NumParents() == 0 {
			return "", false
		}
		files, err := repo.Between(ctx, commit.ParentHashes[0].String(), gone)
		if err != nil {
			return "", false
		}
		to, ok := m.renamesOf(files)[p]
		if !ok {
			return "", false // deleted there
		}
		c, p = gone, to
	}
	return "", false
}

// renamesOf returns old path → new path of the renamed files, as the
// root names them (those under it).
func (m *Matcher) renamesOf(files []diff.File) map[string]string {
	r := map[string]string{}
	for _, f := range files {
		if f.Status == diff.Renamed {
			from, ok1 := fromGit(m.gitSub, f.OldPath)
			to, ok2 := fromGit(m.gitSub, f.NewPath)
			if ok1 && ok2 {
				r[from] = to
			}
		}
	}
	return r
}

// inGit is p, a path of the root, as git names it (see gitSub).
func (m *Matcher) inGit(p string) string {
	if m.gitSub != "" && p != "" {
		return path.Join(m.gitSub, p)
	}
	return p
}

// Names reports whether some entry names path (as its file's path now):
// a decision on a finding of another file comes from an entry whose file
// is gone.
func (m *Matcher) Names(path string) bool {
	if m == nil {
		return false
	}
	_, ok := m.byFile[path]
	return ok
}

// EachRule calls each with the tool and rule of each rule of the entries
// at path now (none for a path no entry names).
func (m *Matcher) EachRule(path string, each func(tool, rule string)) {
	fe := m.byFile[path]
	if fe == nil {
		return
	}
	for _, l := range fe.few {
		each(l.tool, l.rule)
	}
	for rk := range fe.rules {
		each(rk.tool, rk.rule)
	}
}

// Orphaned reports whether some entry's file is gone: its decision may
// be on a finding of any file.
func (m *Matcher) Orphaned() bool { return m != nil && m.orphans }

// Len returns the number of entries.
func (m *Matcher) Len() int {
	if m == nil {
		return 0
	}
	return len(m.entries)
}

// Decide returns the decision that covers f, nil when no entry does.
func (m *Matcher) Decide(f *reports.Finding) *Decision {
	if m == nil || len(m.entries) == 0 {
		return nil
	}
	var fe *fileEntries
	if lf := m.last.Load(); lf != nil && lf.path == f.Path {
		fe = lf
	} else if fe = m.byFile[f.Path]; fe != nil {
		m.last.Store(fe) // no allocation: a finding no entry names costs lookups only
	}
	return m.decide(f, fe)
}

// A Decider decides the findings of one caller, one after the other (not
// concurrently): it remembers the last path a finding had, whether an
// entry names it or not, so that the findings of a file no entry names,
// listed together as reports list them, cost a comparison of their path
// and no lookup.
type Decider struct {
	m    *Matcher
	path string
	fe   *fileEntries
	set  bool
}

// Decider returns a decider of m's entries (FollowRenames first).
func (m *Matcher) Decider() *Decider { return &Decider{m: m} }

// Decide returns the decision that covers f, nil when no entry does, as
// Matcher.Decide does.
func (d *Decider) Decide(f *reports.Finding) *Decision {
	m := d.m
	if m == nil || len(m.entries) == 0 {
		return nil
	}
	if !d.set || d.path != f.Path {
		d.path, d.fe, d.set = f.Path, m.byFile[f.Path], true
	}
	return m.decide(f, d.fe)
}

// decide returns the decision that covers f, whose path's entries are fe
// (nil: none).
func (m *Matcher) decide(f *reports.Finding, fe *fileEntries) *Decision {
	var cands, orphans []int
	if fe != nil {
		cands = fe.of(f.Tool, f.Rule)
	}
	if m.orphans {
		if re := m.byRule[ruleKey{f.Tool, f.Rule}]; re != nil {
			orphans = re.orphans
		}
	}
	if len(cands) == 0 && len(orphans) == 0 {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	// The file read ahead is asked by its digest; its text is read only
	// when the digest cannot tell.
	var sf *sourceFile
	var d *digest
	if fe != nil && fe.digest != nil {
		d = fe.digest
	} else if d = m.digests[f.Path]; fe != nil {
		fe.digest = d
	}
	read := false
	text := func() *sourceFile {
		if !read {
			sf, read = m.file(f.Path), true
		}
		return sf
	}
	if d == nil && fe != nil && (digestRead || m.readAhead[f.Path]) {
		// Asked about first (or before the read-ahead reached it): its
		// digest made now, so that the findings of the other reports in
		// it, which ask about it at their own pace, do not read it again.
		d = m.digestFor(f.Path, fe)
	}
	best, bestHow := -1, How(0)
	try := func(list []int, orphan bool) {
		for _, i := range list {
			how, ok := How(0), false
			if d != nil && f.Path != "" {
				how, ok = m.howDigested(i, f, d, orphan)
			}
			if !ok {
				how = m.how(i, f, text(), orphan)
			}
			if (how == ByLocationMoved || how == ByLineText) && !orphan && m.anotherLine(i, f.Line, text) {
				// The decided line's neighbours changed, and git says this
				// line, of the same text, was another then (the decided
				// code deleted, a copy of it left).
				how = 0
			}
			if orphan && m.addedSince != nil && m.addedSince[i] != nil && m.headFiles[f.Path] && (how > ByLocationOnly || !m.addedSince[i][f.Path]) {
				// git says its file was deleted: a file committed since
				// matches by the whole location alone, and one that was
				// there then (another file) not at all.
				how = 0
			}
			if how != 0 && (best < 0 || how < bestHow) {
				best, bestHow = i, how
			}
		}
	}
	tried := cands
	if d != nil && d.own == fe && fe.plain && len(cands) > 1 && f.Line >= 1 && f.Line <= d.n {
		// The others' Lines are not the finding's line's text.
		m.cands = d.foundAt(f.Line-1, cands, m.cands)
		tried = m.cands
	}
	if len(cands) > manyByMessage && (f.Line < 1 || d == nil && text() == nil) {
		// Only a message can match: the entries of another one are not
		// compared.
		m.cands = m.messageCands(fe, f, cands, m.cands)
		tried = m.cands
	}
	try(tried, false)
	if best < 0 || bestHow > ByLocationOnly {
		try(orphans, true)
	}
	if best < 0 {
		if m.tellEdited && m.hist != nil && len(cands) > 0 && f.Line >= 1 && !f.ID.IsZero() && len(m.undecided) < maxUndecided {
			m.undecided = append(m.undecided, undecided{f.ID, f.Tool, f.Rule, f.Path, f.Line, f.Message, f.Fingerprint})
		}
		return nil
	}
	// A finding another entry covers (decided again after its message
	// changed) leaves the entries it was near to stale.
	for _, list := range [2][]int{cands, orphans} {
		for _, i := range list {
			if n := m.near[i]; n != nil && n.ID == f.ID {
				m.near[i] = nil
			}
		}
	}
	m.used[best]++
	e := &m.entries[best]
	if bestHow == ByMessage && f.Line >= 1 && (e.Location != "" || e.Line != "") {
		// Made at a line the file's text would have told apart from
		// the others of its message: it covers them all.
		if m.unread == nil {
			m.unread = map[int]int{}
			m.unreadAt = f.Path
		}
		m.unread[best]++
	}
	if f.Path != m.path[best] && m.found[best] == "" {
		m.found[best] = f.Path // an entry whose file is gone, matched in another (moved, not committed)
	}
	return &Decision{Entry: e, Index: best, Expired: e.Expired(m.now), How: bestHow, Path: m.path[best]}
}

// manyByMessage is the most entries of a file and rule a finding that
// only a message can match (it has no line, or its file cannot be read)
// is compared with one by one; with more, by an index of their messages
// (messageCands). Without it, 7,000 entries and 20,000 findings without
// a line, of one rule and file, took minutes.
const manyByMessage = 32

// msgKey is a file's entries of a rule.
type msgKey struct {
	fe *fileEntries
	ruleKey
}

// msgIndex is the entries of a file and rule by their messages, white
// space folded (as sameMessage compares them): whole (exact), or cut
// short ("…": prefix, by the folded text before it, whose lengths are
// lens), and those whose message no key tells (other): decided in
// another file (renamed since: their message names the old one).
type msgIndex struct {
	exact  map[string][]int
	prefix map[string][]int
	lens   []int
	other  []int
}

// messageCands returns, in order, into buf, those of cands (fe's
// entries of f's rule) whose message may be f's: the same, white space
// folded, one cut short whose text before "…" begins it, or one no key
// tells. A finding costs a lookup for each length of text before "…"
// among the entries, not a comparison with each entry.
func (m *Matcher) messageCands(fe *fileEntries, f *reports.Finding, cands, buf []int) []int {
	key := msgKey{fe, ruleKey{f.Tool, f.Rule}}
	x := m.byMsg[key]
	if x == nil {
		x = &msgIndex{exact: map[string][]int{}, prefix: map[string][]int{}}
		for _, i := range cands {
			switch e := &m.entries[i]; {
			case e.Message == "":
				// matches by no message
			case e.Path != fe.path:
				x.other = append(x.other, i)
			case strings.HasSuffix(e.Message, "…"):
				k := foldSpace(strings.TrimSuffix(e.Message, "…"))
				if x.prefix[k] == nil {
					x.lens = append(x.lens, len(k))
				}
				x.prefix[k] = append(x.prefix[k], i)
			default:
				k := foldSpace(e.Message)
				x.exact[k] = append(x.exact[k], i)
			}
		}
		slices.Sort(x.lens)
		x.lens = slices.Compact(x.lens)
		if m.byMsg == nil {
			m.byMsg = map[msgKey]*msgIndex{}
		}
		m.byMsg[key] = x
	}
	msg := foldSpace(f.Message)
	buf = append(append(buf[:0], x.exact[msg]...), x.other...)
	for _, n := range x.lens {
		if n > len(msg) {
			break
		}
		buf = append(buf, x.prefix[msg[:n]]...)
	}
	slices.Sort(buf)
	return slices.Compact(buf)
}

// how says how e matches f (0: not at all). An orphan (an entry whose
// file is gone) matches by the location or the line text only.
func (m *Matcher) how(idx int, f *reports.Finding, sf *sourceFile, orphan bool) How {
	e := &m.entries[idx]
	if sf == nil || f.Line < 1 || f.Line > sf.n() || e.Location == "" && e.Line == "" {
		return m.byMessage(e, f, sf != nil, orphan)
	}
	i := f.Line - 1
	// Every way below needs the finding's line to read as the entry's
	// (a location hashes the line first): most entries stop here.
	if e.Line != "" && !lineIs(sf.line(i), m.lines[idx]) {
		// A class renamed with its file: its line names the file's old
		// name ("public class OrderService {"), as messages do.
		if moved(e, f) && m.sameMessage(e, f) {
			if rl := renamedMessage(e.Line, e.Path, f.Path); rl != e.Line && lineIs(sf.line(i), newEntryLine(rl)) && sf.unique(i) {
				return ByLineText
			}
		}
		return 0
	}
	sameMsg := m.sameMessage(e, f)
	if e.Location != "" {
		loc := sf.location(i)
		stepped := false // git, step by step, says this line is the decided one
		if m.hist != nil && e.Commit != "" && (e.Location == loc || sameHash(e.Location, loc)) && !sf.unique(i) {
			// The decided line's text is on another line too: followed
			// step by step through the commits since, git tells which is
			// the decided one, when no step is ambiguous.
			if st, told := m.stepwise(idx, sf); told && st > 0 { // gone at a step (-1): the location, whole, tells below
				if st != f.Line {
					return 0
				}
				stepped = true
			}
		}
		if stepped {
			// told above
		} else if m.hist != nil && e.Commit != "" && (e.Location == loc && sf.windowCount(i) > 1 || e.Location != loc && sameHash(e.Location, loc) && !sf.unique(i)) {
			// The decided code is in the file more than once: a copy
			// pasted above it takes the occurrence the location counts,
			// and a copy of it decided before (its occurrence another)
			// looks moved once the decided line's neighbours changed.
			// Git tells which is the decided one, when it can.
			if at, ok := m.lineNow(idx, sf); ok && at != f.Line {
				return 0
			}
		} else if m.hist != nil && e.Commit != "" && e.Location == loc && !sf.unique(i) {
			// The decided line's text is on another line too, whose
			// neighbours changed, and git's line diff says that one was
			// decided: the decided block moved whole below a changed copy
			// of it left in its place, or a copy of it (pasted since)
			// kept its neighbours while the decided one's changed. The
			// files tell these apart no more than git's diff does (nor
			// did the steps above): the location, whole, wins, and the
			// decision is told ambiguous. Unless the diff carries the
			// decided line's whole window then (the line and its
			// neighbours, each kept, only parted by lines added): the
			// decided code is all still there, and the lines of this
			// location are a copy of it pasted since, new code.
			if at, ok := m.lineNow(idx, sf); ok && at != f.Line {
				if m.windowKept(idx) {
					return 0
				}
				m.hist.ambiguous[idx] = [2]int{f.Line, at}
			}
		}
		if !stepped && m.hist != nil && e.Commit != "" && e.Location == loc && m.editedSince(idx, sf.blobHash()) {
			// The file changed since the decision: a copy of the decided
			// code written before may have its location now (the decided
			// line changed or deleted since). Git, step by step, tells.
			if st, told := m.stepwise(idx, sf); told && st != f.Line {
				return 0
			}
		}
		switch {
		case e.Location == loc && sameMsg:
			return ByLocation
		case e.Location == loc && m.numbersOnly(e, f, sf.line(i)):
			return ByLocationOnly
		}
		h, _ := SplitLocation(e.Location)
		if lh, _ := SplitLocation(loc); lh == h && sameMsg && sf.windowCount(i) == 1 {
			if !m.stillThere(idx, sf, f.Line, orphan) {
				return 0
			}
			return ByLocationMoved
		}
		if e.Location == loc && !sameMsg {
			m.noteChanged(idx, f)
		}
	}
	// The message the same, or the same but for numbers not written on
	// the line (a count, a line number: "overwritten on line 30" for 29,
	// a line added below), as ByLocationOnly.
	msgOK := sameMsg || e.Message != "" && m.numbersOnly(e, f, sf.line(i))
	if e.Line != "" && msgOK && e.Message != "" {
		if sf.unique(i) {
			if !m.stillThere(idx, sf, f.Line, orphan) {
				return 0
			}
			return ByLineText
		}
		if m.hist != nil && e.Commit != "" {
			if st, told := m.stepwise(idx, sf); told {
				if st == f.Line {
					return ByHistory
				}
				return 0 // another line, or gone at a step (-1): not the one diff since
			}
		}
		if at, ok := m.lineNow(idx, sf); ok && at == f.Line && !m.locatedElsewhere(idx, sf, i) {
			return ByHistory
		}
	}
	if e.Line != "" && e.Message != "" && !msgOK && sf.unique(i) && m.decidedHere(idx, sf, f.Line) {
		m.noteChanged(idx, f)
	}
	return 0
}

// numbersOnly says whether f's message is entry e's but for numbers, none
// of them written on line (the finding's).
func (m *Matcher) numbersOnly(e *Entry, f *reports.Finding, line []byte) bool {
	return !numbersOnLine(e.Message, f.Message, line) &&
		(sameButNumbers(e.Message, f.Message) || moved(e, f) && sameButNumbers(renamedMessage(e.Message, e.Path, f.Path), f.Message))
}

// stillThere says whether line (1-based) of sf, the one line of its
// file that reads as entry idx's line (or has its window), may be the
// decided line: unless git, following the decided line step by step
// through the commits since that changed the file (stepwise), says it is
// another line, or that a commit deleted or changed it (the line of its
// text left is a copy written before or since: another finding). Asked
// only of a file whose bytes are not those of the entry's commit; an
// entry whose file is gone (orphan) is told as before.
func (m *Matcher) stillThere(idx int, sf *sourceFile, line int, orphan bool) bool {
	e := &m.entries[idx]
	if orphan || m.hist == nil || e.Commit == "" || e.Path == "" || !m.editedSince(idx, sf.blobHash()) {
		return true
	}
	st, told := m.stepwise(idx, sf)
	return !told || st == line
}

// decidedHere says whether line (1-based) of sf, the one line of the file
// that reads as entry idx's line, is the decided line, for the entry to
// be told changed there (another message of its rule on it): without
// git, its text alone says so; with the entry's commit, git must carry
// the decided line onto it, step by step or by the line diff since. A
// line of the decided text written elsewhere since (the decided code
// fixed, another method with the same call left) is another finding,
// not the decided one with its message changed.
func (m *Matcher) decidedHere(idx int, sf *sourceFile, line int) bool {
	e := &m.entries[idx]
	if m.hist == nil || e.Commit == "" || e.Path == "" {
		return true
	}
	if st, told := m.stepwise(idx, sf); told {
		return st == line
	}
	at, ok := m.lineNow(idx, sf)
	return ok && at == line
}

// byMessage says whether e covers f by its message (ByMessage, else 0),
// f's file read or not: only a finding without a line, or one whose file
// cannot be read, is matched so. A finding on a line of a file read is
// matched by that line or not at all, and one past the file's end (a
// report older than the code, line breaks the tool counts and recap does
// not) by nothing: an entry without a location or a line (decided on a
// finding without one, or written so) covering it would cover every
// finding of its rule and message in the file, those to come too.
func (m *Matcher) byMessage(e *Entry, f *reports.Finding, read, orphan bool) How {
	if orphan || e.Message == "" || read && f.Line >= 1 || !m.sameMessage(e, f) {
		return 0
	}
	return ByMessage
}

// sameHash reports whether two location fingerprints hash the same
// code, whatever their occurrences.
func sameHash(a, b string) bool {
	ha, _ := SplitLocation(a)
	hb, _ := SplitLocation(b)
	return ha == hb
}

// sameMessage reports whether e's message is f's: as it is, or, when f
// is in another file than e was decided in (the file renamed or moved),
// with the file's old name and package in it taken for the new ones, as a
// class renamed with its file is named in tools' messages (SpotBugs:
// "com.example.shop.OrderRepository.itemsOf(String) passes…").
func (m *Matcher) sameMessage(e *Entry, f *reports.Finding) bool {
	return sameMessage(e.Message, f.Message) || moved(e, f) && sameMessage(renamedMessage(e.Message, e.Path, f.Path), f.Message)
}

// moved reports whether f is in another file than e was decided in.
func moved(e *Entry, f *reports.Finding) bool { return f.Path != e.Path && e.Message != "" }

// renamedMessage returns msg with the names of the file from (its name
// without extension, and its directories that differ, dotted as a
// package) replaced, as whole words, by those of to.
func renamedMessage(msg, from, to string) string {
	fromDir, fromFile := path.Split(from)
	toDir, toFile := path.Split(to)
	fromStem := strings.TrimSuffix(fromFile, path.Ext(fromFile))
	toStem := strings.TrimSuffix(toFile, path.Ext(toFile))
	if fromDir != toDir {
		a := strings.Split(strings.Trim(fromDir, "/"), "/")
		b := strings.Split(strings.Trim(toDir, "/"), "/")
		common := 0
		for common < len(a) && common < len(b) && a[common] == b[common] {
			common++
		}
		// Into a package below or above: the last directory in common
		// names the change ("shop" → "shop.db").
		if (common == len(a) || common == len(b)) && common > 0 {
			common--
		}
		if x, y := a[common:], b[common:]; len(x) > 0 && len(y) > 0 && x[0] != "" && y[0] != "" {
			msg = replaceWord(msg, strings.Join(x, "."), strings.Join(y, "."))
		}
	}
	if fromStem != toStem && fromStem != "" && toStem != "" {
		msg = replaceWord(msg, fromStem, toStem)
	}
	return msg
}

// replaceWord replaces old in s by new where it is a whole word: neither
// preceded nor followed by a letter, a digit or an underscore.
func replaceWord(s, old, new string) string {
	if old == "" || old == new {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, old)
		if i < 0 {
			if b.Len() == 0 {
				return s
			}
			b.WriteString(s)
			return b.String()
		}
		end := i + len(old)
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if (i == 0 || !isWordRune(before)) && (end == len(s) || !isWordRune(after)) {
			b.WriteString(s[:i])
			b.WriteString(new)
		} else {
			b.WriteString(s[:end])
		}
		s = s[end:]
	}
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// maxHeld bounds the text of the source files the matcher holds: past
// it, the file asked about least recently is let go (read again if asked
// about again) and its buffers take the next file read, so that a run
// whose entries name thousands of files neither holds nor allocates them
// all (a report lists a file's findings together). It was 16 MiB: a run
// whose decisions name 4,561 files (27 MB) read them 6,465 times, and
// held so much more that its heap, and the memory the system gave it,
// grew with it; at 4 MiB it reads some more and is 8 to 10 points faster
// (docs/performance.md).
const maxHeld = 4 << 20

// maxAhead bounds the text ReadAhead reads: the files of the entries are
// read ahead when they fit in it, and then held, all of them.
const maxAhead = 16 << 20

// minHeld is how many of the files asked about last are held whatever
// their size: reports read at once ask about their files in turns, and
// two large files asked about by turns must not be read again each turn.
const minHeld = 4

// digestFor makes and keeps the digest of the file at path, whose entries
// are fe: of its text held, else read (into a buffer reused, not held);
// nil when it cannot be read (the text is then asked for, and the file
// held as unreadable).
func (m *Matcher) digestFor(path string, fe *fileEntries) *digest {
	if m.src == nil || path == "" {
		return nil
	}
	own, gone := m.wantedOf(fe.all()), m.orphansWanted()
	var d *digest
	if sf, held := m.files[path]; held {
		if sf == nil {
			return nil
		}
		d = m.stamp(m.digestOf(sf, own, gone), sf.src)
	} else {
		b, err := readSource(m.src, path, func(n int) []byte {
			if cap(m.dbuf) < n {
				m.dbuf = make([]byte, 0, n)
			}
			return m.dbuf[:0]
		})
		if err != nil {
			return nil
		}
		m.dbuf = b[:0]
		m.reads++
		d = m.digestText(b, &m.dsf, own, gone)
	}
	d.own = fe
	m.digests[path] = d
	return d
}

// file returns path's text and what is known of it, read when not held;
// nil when it cannot be read.
func (m *Matcher) file(path string) *sourceFile {
	if m.src == nil || path == "" {
		return nil
	}
	m.tick++
	if sf := m.lastFile; sf != nil && sf.path == path {
		// The file asked about last, as a report lists a file's
		// findings together: no lookup, already the last held.
		sf.used = m.tick
		return sf
	}
	if sf, ok := m.files[path]; ok {
		m.lastFile = sf
		if sf != nil {
			m.held.toBack(sf)
			sf.used = m.tick
		}
		return sf
	}
	for m.bytes > m.bound && m.held.n >= minHeld {
		m.letGo()
	}
	b, err := readSource(m.src, path, m.buffer)
	var sf *sourceFile
	if err == nil {
		sf = m.recycled(b)
	}
	m.hold(path, sf)
	m.lastFile = sf
	return sf
}

// hold keeps sf, the file at path read (nil: it cannot be read).
func (m *Matcher) hold(path string, sf *sourceFile) {
	m.reads++
	m.files[path] = sf
	if sf == nil {
		return
	}
	sf.path, sf.used = path, m.tick
	m.held.push(sf)
	m.bytes += cap(sf.src)
}

// letGo lets the least recently asked about file go, into the spares.
func (m *Matcher) letGo() {
	sf := m.held.first
	if sf == m.lastFile {
		m.lastFile = nil
	}
	m.held.remove(sf)
	m.bytes -= cap(sf.src)
	delete(m.files, sf.path)
	if len(m.spare) == maxSpare {
		copy(m.spare, m.spare[1:])
		m.spare = m.spare[:maxSpare-1]
	}
	m.spare = append(m.spare, sf)
}

// heldFiles are the files held, in the order they were last asked about
// (a list through the files: asking moves a file to the back, letting go
// takes the first, neither looks through the others).
type heldFiles struct {
	first, last *sourceFile
	n           int
}

func (h *heldFiles) push(sf *sourceFile) {
	sf.prev, sf.next = h.last, nil
	if h.last != nil {
		h.last.next = sf
	} else {
		h.first = sf
	}
	h.last = sf
	h.n++
}

func (h *heldFiles) remove(sf *sourceFile) {
	if sf.prev != nil {
		sf.prev.next = sf.next
	} else {
		h.first = sf.next
	}
	if sf.next != nil {
		sf.next.prev = sf.prev
	} else {
		h.last = sf.prev
	}
	sf.prev, sf.next = nil, nil
	h.n--
}

// toBack moves sf, held, to the back: asked about last.
func (h *heldFiles) toBack(sf *sourceFile) {
	if h.last != sf {
		h.remove(sf)
		h.push(sf)
	}
}

// maxSpare is how many files let go keep their buffers: a read most
// often follows one file let go, and a buffer that fits no file read
// since is soon dropped (at most maxSpare of MaxSourceSize held so).
const maxSpare = 2

// buffer returns a buffer of at least n bytes for a file's text: a
// spare's, or a new one.
func (m *Matcher) buffer(n int) []byte {
	for _, sf := range m.spare {
		if cap(sf.src) >= n && sf.src != nil {
			b := sf.src[:0]
			sf.src = nil
			return b
		}
	}
	return make([]byte, 0, n)
}

// recycled returns a sourceFile of src, with the line starts and keys of
// a spare, if one is left, to fill.
func (m *Matcher) recycled(src []byte) *sourceFile {
	for i, sf := range m.spare {
		if sf.src == nil { // its buffer taken: this file's
			m.spare = slices.Delete(m.spare, i, i+1)
			*sf = sourceFile{starts: sf.starts[:0], keys: sf.keys[:0]}
			return sf.fill(src)
		}
	}
	return newSourceFile(src)
}

func newBuffer(n int) []byte { return make([]byte, 0, n) }

// MaxSourceSize is the largest source file the matcher reads: a finding
// in a larger file is matched without its text (by path and message).
const MaxSourceSize = 16 << 20

// readSource reads a regular file of at most MaxSourceSize bytes, judged
// on the file opened (a FIFO or a device is refused, never read).
func readSource(src fs.FS, path string, buffer func(n int) []byte) ([]byte, error) {
	f, err := src.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > MaxSourceSize {
		return nil, fmt.Errorf("%s: not a regular file of at most %d MiB", path, MaxSourceSize>>20)
	}
	// Read in one buffer of the size the file has (one byte more, to see
	// a file that grew): growing a buffer would copy the file over again.
	b := buffer(int(st.Size()) + 1)
	for len(b) < cap(b) {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF || err == nil && n > 0 && int64(len(b)) == st.Size() {
			// At its end: a file that grew since it was looked at would
			// have filled the byte more (no read again to be told so).
			return asText(b), nil
		}
		if err != nil {
			return nil, err
		}
	}
	rest, err := io.ReadAll(io.LimitReader(f, MaxSourceSize+1-int64(len(b))))
	if err == nil && len(b)+len(rest) > MaxSourceSize {
		err = fmt.Errorf("%s: more than %d MiB", path, MaxSourceSize>>20)
	}
	return asText(append(b, rest...)), err
}

// asText is a source file's text as the triage file can write its lines:
// b itself when it is UTF-8 (most files: one pass, no copy), else each
// byte of what is not read as ISO-8859-1 (Latin-1) does, as the character
// of its number (a legacy source's "caf\xe9" reads "café"), so that an
// entry's line is written, and matches the file the same way again.
func asText(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	out := make([]byte, 0, len(b)+len(b)/8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			out = utf8.AppendRune(out, rune(b[0]))
			b = b[1:]
			continue
		}
		out, b = append(out, b[:n]...), b[n:]
	}
	return out
}

// Stale returns the entries that matched no finding of the calls so far.
func (m *Matcher) Stale() []Entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Entry
	for i, u := range m.used {
		if u == 0 {
			out = append(out, m.entries[i])
		}
	}
	return out
}

// Expired returns the entries whose Until has come.
func (m *Matcher) Expired() []Entry {
	var out []Entry
	for i := range m.entries {
		if m.entries[i].Expired(m.now) {
			out = append(out, m.entries[i])
		}
	}
	return out
}

// A Status is what a matcher found of one entry: how many findings it
// matched, where its file is now, and whether it has expired.
type Status struct {
	Entry   Entry
	Matched int
	// Path is the entry's file now: its Path, where git says the file
	// was renamed to, or, for an entry whose file is gone, the file of the
	// first finding it matched.
	Path    string
	Expired bool
	// Changed, of an entry that matched nothing, is a finding of its tool
	// and rule at its location whose message is another now: the
	// finding to decide again, rather than an entry to prune.
	Changed *Near
	// Squashed says that the entry's decided line was asked of git, but
	// its commit is in no branch of this repository, nor its code as it
	// was in a commit since (see Matcher.Squashed).
	Squashed bool
	// Unfollowed says that the entry's decided line was asked of git (a
	// copy of its code, or a neighbour changed) but the repository does
	// not have its commit (a shallow clone).
	Unfollowed bool
	// Unfetched says that the entry's decided line was asked of git, but
	// its file at its commit is not in this partial clone and git could
	// not fetch it (see Matcher.Unfetched).
	Unfetched bool
}

// TellEdited has Statuses tell the entries whose decided line was edited
// since their commit (Status.Changed, with its Code): the matcher then
// keeps the findings no entry of their file and rule matched (at most
// maxUndecided of them), for the commands that tell each entry's state;
// the others keep none. Before the first call of Decide.
func (m *Matcher) TellEdited() { m.tellEdited = true }

// Unmatched counts the entries that matched no finding of the calls of
// Decide so far, of those count counts, given each with its path now
// (Statuses without making them).
func (m *Matcher) Unmatched(count func(e *Entry, path string) bool) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for i := range m.entries {
		if m.used[i] == 0 && count(&m.entries[i], m.path[i]) {
			n++
		}
	}
	return n
}

// Statuses returns the status of every entry, in the file's order, after
// the calls of Decide so far.
func (m *Matcher) Statuses() []Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.editedNear()
	out := make([]Status, len(m.entries))
	for i := range m.entries {
		out[i] = Status{Entry: m.entries[i], Matched: m.used[i], Path: m.path[i], Expired: m.entries[i].Expired(m.now), Unfollowed: m.hist != nil && m.hist.missing[i], Squashed: m.hist != nil && m.hist.squashed[i],
			Unfetched: m.hist != nil && m.hist.unfetched[i]}
		if m.used[i] == 0 {
			out[i].Changed = m.near[i]
		}
		if out[i].Path == out[i].Entry.Path && m.found[i] != "" {
			out[i].Path = m.found[i] // its file moved where git does not say (not committed)
		}
	}
	return out
}

// MaxMessage is the most characters of a finding's message an entry keeps
// (cut with "…"; a cut message matches the messages it begins).
const MaxMessage = 500

// sameMessage reports whether an entry's message is the finding's ("" is
// any message).
func sameMessage(entry, finding string) bool {
	if entry == "" || entry == finding {
		return true
	}
	if eqFolded(entry, finding) {
		return true
	}
	cut, ok := strings.CutSuffix(entry, "…")
	return ok && strings.HasPrefix(foldSpace(finding), foldSpace(cut))
}

// numbersOnLine reports whether a number of the finding's message that the
// entry's does not have (at the same place) is written on the finding's
// line: a literal of the code ("'100' is a magic number." on a line of 100
// and 119), which tells findings apart, not a count that changed ("found
// 119" for "found 123").
func numbersOnLine(entry, finding string, line []byte) bool {
	a, b := foldSpace(entry), foldSpace(finding)
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			if a[si:i] != b[sj:j] && hasNumber(line, b[sj:j]) {
				return true
			}
			continue
		}
		i, j = i+1, j+1
	}
	return false
}

// hasNumber reports whether n is written in line as a number of its own
// (no digit before or after it).
func hasNumber(line []byte, n string) bool {
	for at := 0; at < len(line); {
		k := bytes.Index(line[at:], []byte(n))
		if k < 0 {
			return false
		}
		k += at
		end := k + len(n)
		if (k == 0 || !isDigit(line[k-1])) && (end == len(line) || !isDigit(line[end])) {
			return true
		}
		at = k + 1
	}
	return false
}

// sameButNumbers reports whether two messages read the same once each run
// of digits is taken for any other ("found 123" and "found 119"), white
// space folded.
func sameButNumbers(a, b string) bool {
	a, b = foldSpace(a), foldSpace(b)
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		da, db := isDigit(a[i]), isDigit(b[j])
		switch {
		case da && db:
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
		case a[i] != b[j]:
			return false
		default:
			i, j = i+1, j+1
		}
	}
	return i == len(a) && j == len(b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// eqFolded reports whether a and b are equal once their runs of white
// space are folded to one space and trimmed, as foldSpace does, without
// copying them.
func eqFolded(a, b string) bool {
	i, j := 0, 0
	for {
		i, j = skipFieldSpace(a, i), skipFieldSpace(b, j)
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		// one field of each
		for i < len(a) && j < len(b) && !isFieldSpace(a, i) && !isFieldSpace(b, j) {
			if a[i] != b[j] {
				return false
			}
			i, j = i+1, j+1
		}
		if (i < len(a) && !isFieldSpace(a, i)) || (j < len(b) && !isFieldSpace(b, j)) {
			return false // one field is longer
		}
	}
}

func isFieldSpace(s string, i int) bool {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiSpace[c]
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsSpace(r)
}

func skipFieldSpace(s string, i int) int {
	for i < len(s) && isFieldSpace(s, i) {
		if s[i] < utf8.RuneSelf {
			i++
		} else {
			_, n := utf8.DecodeRuneInString(s[i:])
			i += n
		}
	}
	return i
}

var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// EntryFor returns a new entry for f (its state, reason and the rest left
// for the caller to fill), its location and line read through src.
func EntryFor(f *reports.Finding, src fs.FS) Entry {
	e, _ := EntryOf(f, src)
	return e
}

// NoSuchLineError says that a finding's line is past the end of its file
// as it is: an entry made there would have neither location nor line, and
// cover every finding of its rule and message in the file.
type NoSuchLineError struct {
	Path        string
	Line, Lines int
}

func (e *NoSuchLineError) Error() string {
	return fmt.Sprintf("its line %d is not in %s, of %d lines (a report older than the code?)", e.Line, e.Path, e.Lines)
}

// NoSuchFileError says that a finding on a line of a file is of a file
// the checkout does not have (renamed or deleted since its report): an
// entry made of it would have neither location nor line, and cover every
// finding of its rule and message in a file of that path added later.
type NoSuchFileError struct{ Path string }

func (e *NoSuchFileError) Error() string {
	return fmt.Sprintf("its file %s is not in the checkout (renamed or deleted since the report?)", e.Path)
}

// EntryOf is EntryFor, with a *NoSuchLineError when f's file reads and
// f's line is past its end, and a *NoSuchFileError when f is on a line of
// a file src does not have.
func EntryOf(f *reports.Finding, src fs.FS) (Entry, error) {
	e := Entry{Tool: f.Tool, Rule: f.Rule, Path: f.Path, Message: text.CutRunes(foldSpace(f.Message), MaxMessage)}
	if src != nil && f.Line > 0 && f.Path != "" {
		b, err := readSource(src, f.Path, newBuffer)
		if errors.Is(err, fs.ErrNotExist) {
			return e, &NoSuchFileError{Path: f.Path}
		}
		if err == nil {
			sf := newSourceFile(b)
			if f.Line > sf.n() {
				return e, &NoSuchLineError{Path: f.Path, Line: f.Line, Lines: sf.n()}
			}
			e.Location = sf.location(f.Line - 1)
			e.Line = LineText(b, f.Line)
		}
	}
	return e, nil
}

// CheckoutSlack is how much later than a report that is in HEAD as it is
// a file must have changed to be judged changed since by a commit: a
// checkout writes such a report and the code in no set order.
const CheckoutSlack = 30 * time.Second

// CommittedSince reports whether a finding's file, path (relative to the
// directory root, its information st, as HEAD has it), was changed by a
// commit made after its report was written at: then, the commit HEAD was
// at, at that time (diff.Repo.HeadAt; "" unknown), holds it otherwise.
// checkedOut says the report is in HEAD as it is: a checkout may have
// written it, and the file then changed CheckoutSlack after it at least
// (a report the tools wrote, git did not: a pull a second after them
// counts).
func CommittedSince(repo *diff.Repo, root, path string, st fs.FileInfo, at time.Time, then string, checkedOut bool) bool {
	slack := time.Duration(0)
	if checkedOut {
		slack = CheckoutSlack
	}
	if repo == nil || st == nil || then == "" || !st.ModTime().After(at.Add(slack)) {
		return false
	}
	top, err := filepath.Rel(repo.Root, filepath.Join(root, filepath.FromSlash(path)))
	if err != nil || !filepath.IsLocal(top) {
		return false
	}
	same, err := repo.SameFile(then, "HEAD", filepath.ToSlash(top))
	return err == nil && !same
}

// StashedSince reports whether a finding's file, path (relative to the
// directory root, its information st, as HEAD has it), changed after its
// report was written at, and a stash made since holds it otherwise: the
// report described the work git stash took away.
func StashedSince(repo *diff.Repo, root, path string, st fs.FileInfo, at time.Time) bool {
	if repo == nil || st == nil || !st.ModTime().After(at) {
		return false
	}
	top, err := filepath.Rel(repo.Root, filepath.Join(root, filepath.FromSlash(path)))
	return err == nil && filepath.IsLocal(top) && repo.StashedAfter(at, filepath.ToSlash(top))
}

// EditedSince reports whether a finding's file, path (relative to the
// directory root, its information st), may hold other code than its
// report, written at, describes: it changed after the report was written,
// and is not as the commit checked out has it (repo; nil without git),
// which a checkout writes in no set order beside its reports. A decision
// on such a finding would name the code now at the report's line.
func EditedSince(repo *diff.Repo, root, path string, st fs.FileInfo, at time.Time) bool {
	if st == nil || !st.ModTime().After(at) {
		return false
	}
	if repo == nil {
		return true
	}
	top, err := filepath.Rel(repo.Root, filepath.Join(root, filepath.FromSlash(path)))
	return err != nil || !filepath.IsLocal(top) || !repo.Unchanged(filepath.ToSlash(top))
}
