package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/inputs"
	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
)

// maxMatches bounds the files one list of paths or globs may name.
const maxMatches = 1000

// Bounds of the searches for reports under the root (docs/reliability.md,
// "Limits"): a report larger than DefaultMaxReportBytes (gzip undone) is
// read only when a path names it, and a walk visits at most
// DefaultMaxWalkFiles files and directories in at most DefaultMaxWalkTime.
const (
	DefaultMaxReportBytes = 512 << 20
	DefaultMaxWalkFiles   = 200_000
	DefaultMaxWalkTime    = 5 * time.Second
)

// root is the directory the server serves; every path given to it is
// confined there by construction: files are opened, looked at and listed
// through a content.Root (os.Root), never checked first and opened after.
type root struct {
	dir string        // absolute, as given (cleaned)
	fs  *content.Root // the directory, opened

	maxReport    int64         // reports larger are left out of searches
	maxWalkFiles int           // entries a walk visits at most
	maxWalkTime  time.Duration // time a walk takes at most

	// repo is the git repository that holds the directory, opened with
	// it at start (diff.Open: its directories opened once, read through
	// them after), or repoErr why there is none: every call reads that
	// repository, never the one a path leads to later.
	repo    *diff.Repo
	repoErr error

	// door looks at the root's files (inputs.Door), each once for its
	// size and modification time, whatever the call.
	door *inputs.Door
}

func newRoot(dir string) (*root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, errors.New(dir + ": not a directory")
	}
	fsys, err := content.OpenRoot(abs)
	if err != nil {
		return nil, err
	}
	r := &root{dir: abs, fs: fsys, door: inputs.New(fsys.Open, parsers.Look),
		maxReport: DefaultMaxReportBytes, maxWalkFiles: DefaultMaxWalkFiles, maxWalkTime: DefaultMaxWalkTime}
	r.repo, r.repoErr = diff.Open(abs)
	return r, nil
}

// changes are the changes of the root's repository, the one opened at
// start, that c names; an error when there was none.
func (r *root) changes(c pipeline.Changes) (*pipeline.Changes, error) {
	if r.repoErr != nil {
		if errors.Is(r.repoErr, diff.ErrNotRepository) {
			return nil, fmt.Errorf("%w (the server looks for the repository once, when it starts)", r.repoErr)
		}
		return nil, r.repoErr
	}
	c.Root, c.Repo = r.dir, r.repo
	return &c, nil
}

// file is one file under the root.
type file struct {
	abs, rel string // rel: slash-separated, relative to the root
	info     fs.FileInfo
}

// resolve places p (relative to the root, or absolute inside it) and
// looks at it inside the root: a path that leaves it by name, or that a
// symbolic link leads out of, is refused without looking at what is
// outside.
func (r *root) resolve(p string) (file, error) {
	if strings.TrimSpace(p) == "" {
		return file{}, toolErrorf(CodeBadArgument, "an empty path: give a path relative to the root %s", r.dir)
	}
	rel, err := r.fs.Rel(p)
	if err != nil {
		return file{}, toolErrorf(CodeOutsideRoot, "%s is outside the root %s: give a path inside it", cut(p), r.dir)
	}
	st, err := r.fs.Stat(rel)
	if err != nil {
		return file{}, r.pathError(p, rel, err)
	}
	if !st.IsDir() {
		if err := content.Regular(st); err != nil { // a FIFO would block the call
			return file{}, toolErrorf(CodeBadArgument, "%s: %v", cut(p), err)
		}
	}
	return file{abs: r.abs(rel), rel: rel, info: st}, nil
}

// abs is the absolute path of rel, for keys and the reports' placing.
func (r *root) abs(rel string) string { return filepath.Join(r.dir, filepath.FromSlash(rel)) }

// found is the file rel a search found, of info, as the search keeps it:
// its path relative to the root is the end of its absolute path, and its
// name the end of that, one string for the three (a call that reads
// 200,000 reports keeps them while it lasts).
func (r *root) found(rel string, info fs.FileInfo) file {
	abs := r.abs(rel)
	if strings.HasSuffix(abs, rel) && filepath.FromSlash(rel) == rel {
		rel = abs[len(abs)-len(rel):]
	}
	return file{abs: abs, rel: rel, info: compactInfo(info, rel[strings.LastIndexByte(rel, '/')+1:])}
}

// pathError gives the error of looking at p (rel under the root) its code
// and a sentence: a link out, a root gone, a missing file.
func (r *root) pathError(p, rel string, err error) error {
	switch {
	case errors.Is(err, content.ErrLinkOutside):
		return toolErrorf(CodeOutsideRoot, "%s %s %s: give a path inside it", cut(p), r.fs.LinkOutside(rel, "the root"), r.dir)
	case !r.fs.Exists():
		return r.gone()
	case errors.Is(err, fs.ErrNotExist):
		return toolErrorf(CodeNotFound, "%s does not exist under the root %s: check the path (it is relative to the root)", cut(p), r.dir)
	case errors.Is(err, content.ErrNotRegular):
		return toolErrorf(CodeBadArgument, "%s: %v", cut(p), content.PathErr(err))
	}
	return toolErrorf(CodeNotFound, "%s: %v", cut(p), content.PathErr(err))
}

// gone is the error of a call made after the root was deleted or moved.
func (r *root) gone() error {
	return toolErrorf(CodeNotFound, "the root %s is gone (deleted or moved since the server started): start the server again on an existing directory", r.dir)
}

// hasGlob reports whether p has glob characters.
func hasGlob(p string) bool { return strings.ContainsAny(p, "*?[") }

// checkPattern refuses a glob that could only match outside the root, by
// the root's own judgement of names (content.Root.Rel), and an absolute
// one.
func (r *root) checkPattern(p string) error {
	if _, err := r.fs.Rel(p); err != nil || filepath.IsAbs(p) || path.IsAbs(filepath.ToSlash(p)) {
		return toolErrorf(CodeOutsideRoot, "the pattern %s leaves the root %s: give a pattern relative to it", p, r.dir)
	}
	return nil
}

// found is what a search for reports or files found.
type found struct {
	files []file
	// big are reports over the root's maxReport bytes that a search (a
	// directory, a glob, the default search) left out: only a path that
	// names one reads it.
	big []file
	// stopped says why a walk stopped before its end ("" when it went
	// through): it visited maxWalkFiles entries, or took maxWalkTime.
	stopped string
	// own are recap's own outputs the search found: made from other
	// reports, they are not read (named, its SARIF and Code Quality report
	// are).
	own []ownFile
	// runs are, by the kept file's absolute path, the notes of the files
	// left out as its tool's run in another format (sameRuns).
	runs map[string][]string
	// skipped counts the directories a walk could not search.
	skipped skips
}

// ownFile is an output of recap a search found, and which.
type ownFile struct {
	file
	own parsers.Own
}

func (f *found) add(g found) {
	f.files = append(f.files, g.files...)
	f.big = append(f.big, g.big...)
	f.own = append(f.own, g.own...)
	if f.stopped == "" {
		f.stopped = g.stopped
	}
	if f.skipped.n == 0 {
		f.skipped = g.skipped
	} else {
		f.skipped.n += g.skipped.n
	}
}

// expand turns paths and globs into the files they name: a file as is, a
// directory searched for reports when reportsOnly (else refused), a glob
// matched against the files under the root (directories that searches skip
// are left out). Each file is confined to the root. With reportsOnly, a
// search leaves out reports over maxReport bytes (found.big).
func (r *root) expand(paths []string, reportsOnly bool, maxReport int64) (found, error) {
	var out found
	seen := map[string]bool{}
	add := func(f file) error {
		if seen[f.abs] {
			return nil
		}
		seen[f.abs] = true
		if len(out.files) >= maxMatches {
			return toolErrorf(CodeTooLarge, "the paths name more than %d files: give narrower paths or globs", maxMatches)
		}
		out.files = append(out.files, f)
		return nil
	}
	for _, p := range paths {
		if !hasGlob(p) {
			f, err := r.resolve(p)
			if err != nil {
				return found{}, err
			}
			if !f.info.IsDir() {
				if err := add(f); err != nil {
					return found{}, err
				}
				continue
			}
			if !reportsOnly {
				return found{}, toolErrorf(CodeBadArgument, "%s is a directory: give files, or a glob such as %s/**/*.java", cut(p), cut(strings.TrimSuffix(p, "/")))
			}
			g, err := r.discover(f.rel, maxReport)
			if err != nil {
				return found{}, err
			}
			if len(g.files) == 0 {
				return found{}, noReport(p, g, r)
			}
			for _, h := range g.files {
				if err := add(h); err != nil {
					return found{}, err
				}
			}
			g.files = nil
			out.add(g)
			continue
		}
		if err := r.checkPattern(p); err != nil {
			return found{}, err
		}
		clean := path.Clean(filepath.ToSlash(p))
		globs, err := reports.CompileGlobs([]string{clean})
		if err != nil {
			return found{}, toolErrorf(CodeBadArgument, "the pattern %s: %v", cut(p), err)
		}
		n := 0
		var big []file
		stopped, skipped, err := r.walk(r.globBase(clean), func(rel string, d fs.DirEntry) error {
			if !globs.Match(rel) {
				return nil
			}
			f, err := r.resolve(rel)
			if err != nil {
				return nil // a symlink out of the root, or gone: not a match
			}
			if reportsOnly {
				if _, ok := r.sniff(f); !ok {
					return nil
				}
				if r.contentSize(f) > maxReport {
					big = append(big, f)
					return nil
				}
			}
			n++
			return add(f)
		})
		if err != nil {
			return found{}, err
		}
		if n == 0 {
			what := "file"
			if reportsOnly {
				what = "report"
			}
			switch {
			case len(big) > 0 || reportsOnly && (stopped != "" || skipped.n > 0):
				return found{}, noReport(p, found{big: big, stopped: stopped, skipped: skipped}, r)
			case stopped != "":
				return found{}, toolErrorf(CodeTooLarge, "no file matching %s found before the search stopped (%s): give a narrower glob, starting with a directory (src/**/*.java)", cut(p), stopped)
			case skipped.n > 0:
				return found{}, toolErrorf(CodeNotFound, "no file under the root matches %s, where %s", cut(p), skipped)
			}
			return found{}, toolErrorf(CodeNotFound, "no %s under the root matches %s: check the pattern (** spans directories)", what, cut(p))
		}
		out.add(found{big: big, stopped: stopped, skipped: skipped})
	}
	return out, nil
}

// noReport is the error of a search that found no report to read under
// where: it says why (reports too large, a walk stopped) and what to do.
func noReport(where string, g found, r *root) error {
	switch {
	case len(g.big) > 0:
		return toolErrorf(CodeTooLarge, "the reports found under %s are over %s, which a search leaves out: %s; give the path of one in reports to read it",
			cut(where), sizeName(r.maxReport), bigNames(g.big, r))
	case g.stopped != "":
		return toolErrorf(CodeNotFound, "no %s report found under %s before the search stopped (%s): give reports (their paths, or globs under a directory such as build/**/*.sarif)",
			parsers.FormatTitles("or"), cut(where), g.stopped)
	case g.skipped.n > 0:
		return toolErrorf(CodeNotFound, "no %s report found under %s, where %s: give the report's path in reports",
			parsers.FormatTitles("or"), cut(where), g.skipped)
	}
	return toolErrorf(CodeNotFound, "no %s report under %s: run the analysis first, or give the report's path", parsers.FormatTitles("or"), cut(where))
}

// bigNames lists reports left out for their size, with their sizes, at
// most 5.
func bigNames(big []file, r *root) string {
	var names []string
	for i, f := range big {
		if i == 5 {
			names = append(names, fmt.Sprintf("and %d more", len(big)-5))
			break
		}
		names = append(names, fmt.Sprintf("%s (%s)", cut(f.rel), sizeName(r.contentSize(f))))
	}
	return strings.Join(names, ", ")
}

// sizeName writes a size in bytes for a message: 512 MiB, 3.5 GiB.
func sizeName(n int64) string {
	switch {
	case n >= 1<<30:
		return strings.TrimSuffix(strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64), ".0") + " GiB"
	case n >= 1<<20:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// globBase is the directory a glob's walk starts from (relative to the
// root): the part of the pattern before its first segment with a glob
// character, when that is a directory inside the root; else the root.
func (r *root) globBase(clean string) string {
	segs := strings.Split(clean, "/")
	var fixed []string
	for _, s := range segs[:len(segs)-1] {
		if hasGlob(s) {
			break
		}
		fixed = append(fixed, s)
	}
	if len(fixed) == 0 {
		return "."
	}
	f, err := r.resolve(strings.Join(fixed, "/"))
	if err != nil || !f.info.IsDir() {
		return "."
	}
	return f.rel
}

// maxWalkDepth bounds the directories a walk goes down: a source tree is
// not deeper, and each level costs a walk of the path from the root.
const maxWalkDepth = 64

// walk calls fn for each regular file (and symlink) under dir (relative to
// the root), skipping the directories that report searches skip. It lists
// the directories inside the root by construction (a link to a directory
// is not followed), visits at most r.maxWalkFiles entries and takes at most
// r.maxWalkTime: past either it stops, and says so (stopped). Directories
// it could not list, or did not go down (deeper than maxWalkDepth), are
// counted in skipped, the first named, so that a search that found nothing
// says why.
func (r *root) walk(dir string, fn func(rel string, d fs.DirEntry) error) (stopped string, skipped skips, err error) {
	stop, err := inputs.Walk{FS: r.fs.FS(), Dir: dir,
		Bounds: inputs.Bounds{Entries: r.maxWalkFiles, Time: r.maxWalkTime, Depth: maxWalkDepth},
		File:   fn,
		Error: func(p string, err error) error {
			if p == dir {
				return r.pathError(dir, dir, err)
			}
			skipped.add(p, content.PathErr(err).Error())
			return nil // unreadable or too deep: skipped, counted
		},
	}.Run()
	switch stop.Why {
	case inputs.Entries:
		stopped = fmt.Sprintf("it visited %d files and directories, its bound", r.maxWalkFiles)
	case inputs.Took:
		stopped = fmt.Sprintf("it took %s, its bound, and visited %d files and directories", r.maxWalkTime, stop.Visited)
	}
	return stopped, skipped, err
}

// skips counts the directories a walk left out, and names the first.
type skips struct {
	n          int
	first, why string
}

func (s *skips) add(p, why string) {
	if s.n == 0 {
		s.first, s.why = p, why
	}
	s.n++
}

// String says what was left out, for a message: "2 directories could not
// be searched (first: a/b: permission denied)"; "" for none.
func (s skips) String() string {
	if s.n == 0 {
		return ""
	}
	return fmt.Sprintf("%s (first: %s: %s)", english.Plural(s.n, "directory could not be searched", "directories could not be searched"), cut(s.first), s.why)
}

// discover finds the reports under dir (relative to the root): files
// with a report's extension whose content is a report, those over
// maxReport bytes apart (found.big). Sniffing is cached by size and
// modification time, so a second search only lists the directories.
func (r *root) discover(dir string, maxReport int64) (found, error) {
	var out found
	stopped, skipped, err := r.walk(dir, func(rel string, d fs.DirEntry) error {
		if !d.Type().IsRegular() || !parsers.HasReportExt(d.Name()) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		f := r.found(rel, info)
		format, ok := r.sniff(f)
		// recap's outputs: its SARIF and Code Quality report, and its JSON,
		// which is no report.
		if ok && (format == parsers.FormatSARIF || format == parsers.FormatCodeClimate) || !ok && strings.HasSuffix(strings.ToLower(rel), ".json") {
			if own, is := r.recapOutput(f); is {
				out.own = append(out.own, ownFile{f, own})
				return nil
			}
		}
		if !ok {
			return nil
		}
		if r.contentSize(f) > maxReport {
			out.big = append(out.big, f)
		} else {
			out.files = append(out.files, f)
		}
		return nil
	})
	out.stopped, out.skipped = stopped, skipped
	sort.Slice(out.files, func(i, j int) bool { return out.files[i].rel < out.files[j].rel })
	sort.Slice(out.big, func(i, j int) bool { return out.big[i].rel < out.big[j].rel })
	return out, err
}

// recapOutput reports whether f is an output of recap, and which
// ([inputs.RecapOutput]), known by size and time.
func (r *root) recapOutput(f file) (parsers.Own, bool) { return r.door.Own(f.rel, f.info) }

// sniff detects a file's report format, known by size and time.
func (r *root) sniff(f file) (parsers.Format, bool) {
	kind, format := r.door.Kind(f.rel, f.info)
	return parsers.Format(format), kind == inputs.Report
}

// contentSize is what a search's bound on a report's size compares: the
// larger of the file's size and its content's (gzip's record of it,
// [inputs.Door.ContentSize]), the bytes a read of it takes in.
func (r *root) contentSize(f file) int64 {
	n, _ := r.door.ContentSize(f.rel, f.info)
	return max(n, f.info.Size())
}

// dedupe keeps one of the files whose content is the same (the same bytes
// once gzip is undone): the first. copies names, by the kept file's
// absolute path, the files left out as its copies. Only files of the same
// content size are hashed, so that reports that differ cost a stat.
func (r *root) dedupe(files []file) (kept []file, copies map[string][]string) {
	if len(files) < 2 {
		return files, nil
	}
	items := make([]inputs.Item, len(files))
	for i, f := range files {
		items[i] = inputs.Item{Name: f.rel, Key: f.abs, Info: f.info}
	}
	c := r.door.Once(items)
	if len(c.Keep) == len(files) {
		return files, nil
	}
	copies = map[string][]string{}
	for k, i := range c.Keep {
		kept = append(kept, files[i])
		for _, l := range c.Left[k] {
			copies[files[i].abs] = append(copies[files[i].abs], files[l.Item].rel)
		}
	}
	return kept, copies
}

// open opens a file of the root for code context (a summarize.FileSource
// reads a bounded prefix of it), inside the root by construction; the
// error says why a file is not shown (outside, a link out, not a regular
// file, missing).
func (r *root) open(p string) (io.ReadCloser, int64, error) {
	rel, err := r.fs.Rel(p)
	if err != nil {
		return nil, 0, errors.New("outside the root")
	}
	fh, st, err := r.fs.Open(rel)
	switch {
	case errors.Is(err, content.ErrLinkOutside):
		return nil, 0, fmt.Errorf("%s %s", p, r.fs.LinkOutside(rel, "the root"))
	case err != nil:
		return nil, 0, content.PathErr(err)
	}
	return fh, st.Size(), nil
}

// openReport opens a report named relative to the root, inside it (a
// parsers.ReadOptions' Open).
func (r *root) openReport(rel string) (*os.File, fs.FileInfo, error) { return r.fs.Open(rel) }

// readOptions are what every read of a report under the root shares: its
// paths placed in the root, looked up and opened inside it.
func (r *root) readOptions(ctx context.Context) parsers.ReadOptions {
	sources, _ := ctx.Value(sourcesKey{}).(*parsers.SourceIndex)
	return parsers.ReadOptions{Root: r.dir, FS: r.fs.FS(), Open: r.openReport, Sources: sources}
}

// sourcesKey is the context key of a call's index of the root's files, where
// SpotBugs source paths are looked for: the reports a call reads walk the
// root once (a later call walks it again, and sees the files made since).
type sourcesKey struct{}

// withSources gives a call its index of the root's files.
func withSources(ctx context.Context) context.Context {
	return context.WithValue(ctx, sourcesKey{}, &parsers.SourceIndex{})
}
