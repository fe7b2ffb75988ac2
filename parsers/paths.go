package parsers

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
)

// placer turns the paths tools write (absolute, Windows, file: URIs, relative)
// into repository-relative forward-slash paths. A path it cannot place stays as
// given, slashes normalized, and is counted for one warning on the input.
//
// A report made elsewhere (on CI, under /home/runner/work/repo/repo) is placed
// too: for an absolute path outside the root, the placer looks for the
// longest tail of it (two components at least) that exists under the root,
// and learns the head as the report's root; later paths under that head are
// mapped by prefix alone. Each learned mapping is reported as a warning.
//
// A lone base name is too weak a match to learn a root from
// (/abs/elsewhere/.eslintrc.json), but once the report's other paths have
// taught the placer its root (/abs/elsewhere), it places such a file too:
// a path whose base name is a file at the repository's root is held
// (place returns it as given, not counted), the parser holds its findings
// (heldFindings), and settle places it at the end of the report.
//
// Whether a path exists is asked of fsys, the repository's file system
// (a content.Root's, confined to the repository by construction, unless a
// test gives another): the placer never looks at the host outside the
// repository, whatever paths a report holds or links the repository has.
type placer struct {
	roots        []string // the root, and its symlink-resolved form when different; slash form, no trailing slash
	fsys         fs.FS    // the repository; nil without a root
	outside      int
	firstOutside string
	learned      []string        // report-side roots mapped onto roots[0]
	failedDirs   map[string]bool // directories whose paths matched nothing under the root
	dirs         map[string]bool // absolute directories: whether the repository has one of their tails
	gone         map[string]int  // absolute directories: their files not found under the root
	held         map[string]bool // absolute paths whose base name is a file at the root, until settled
	last         lastPlace       // the last path placed: a report lists a file's findings together
	top          *topNames       // what the root holds, read at the first look; nil until then
}

// topNames is what the repository's root directory holds, read once by
// a placer: a tail tried for a report made elsewhere
// (spring-web/src/main/…, src/main/…, main/java/…) whose first name the
// root does not have is no file of the repository, without a look at it
// (a report of 4,808 files made on CI cost 36,000 failed opens). A name
// the root lists as a directory or a regular file is answered from the
// list when that settles it; anything else (a link, a name that differs
// from a listed one in case alone, a name not in ASCII, a root of more
// than maxTopNames names or one that could not be read) is asked of the
// file system, as before.
type topNames struct {
	types  map[string]fs.FileMode // listed names: their type bits
	folded map[string]bool        // listed names, lower-cased
}

// maxTopNames bounds the root's names a placer lists: past it, every
// name is asked of the file system.
const maxTopNames = 1 << 14

// listTop reads the root's names; a root that cannot be listed, or holds
// more than maxTopNames, gives a topNames that settles nothing.
func listTop(fsys fs.FS) *topNames {
	t := &topNames{}
	f, err := fsys.Open(".")
	if err != nil {
		return t
	}
	defer f.Close()
	d, ok := f.(fs.ReadDirFile)
	if !ok {
		return t
	}
	list, err := d.ReadDir(maxTopNames + 1)
	if (err != nil && !errors.Is(err, io.EOF)) || len(list) > maxTopNames {
		return t
	}
	t.types, t.folded = make(map[string]fs.FileMode, len(list)), make(map[string]bool, len(list))
	for _, e := range list {
		t.types[e.Name()] = e.Type()
		t.folded[strings.ToLower(e.Name())] = true
	}
	return t
}

// settles reports what the listing says of rel: whether rel is a
// regular file (dir false) or a directory (dir true) of the repository,
// and whether that answer is sure; not sure, rel is asked of the file
// system.
func (t *topNames) settles(rel string, dir bool) (is, sure bool) {
	if t.types == nil || rel == "." {
		return false, false
	}
	first, _, nested := strings.Cut(rel, "/")
	for i := 0; i < len(first); i++ {
		if first[i] >= utf8.RuneSelf {
			return false, false // a file system may normalize or fold it
		}
	}
	typ, listed := t.types[first]
	switch {
	case !listed && t.folded[strings.ToLower(first)]:
		return false, false // a file system that folds case may have it
	case !listed:
		return false, true
	case typ&fs.ModeSymlink != 0 || typ&^fs.ModeDir != 0:
		return false, false // a link, or a name not a file or a directory
	case !nested && typ.IsDir():
		return dir, true
	case !nested:
		return !dir, true
	case !typ.IsDir():
		return false, true // under a regular file
	}
	return false, false
}

// lastPlace is a path placed and what place made of it: the next finding
// of the same file is placed without a look at the repository (a path
// outside it cost a stat a finding).
type lastPlace struct {
	name, placed string
	learned      int  // the roots learned by then
	unplaced     bool // counted as not placed
}

// newPlacer returns a placer for the repository at root, whose files fsys
// holds (nil: none are looked up).
func newPlacer(root string, fsys fs.FS) *placer {
	p := &placer{}
	if root == "" {
		return p
	}
	p.fsys = fsys
	add := func(r string) {
		r = strings.TrimSuffix(filepath.ToSlash(filepath.Clean(r)), "/")
		for _, have := range p.roots {
			if have == r {
				return
			}
		}
		p.roots = append(p.roots, r)
	}
	add(root)
	if real, err := filepath.EvalSymlinks(root); err == nil {
		add(real)
	}
	return p
}

// place makes a file system path (not a URI) repository-relative.
func (p *placer) place(name string) string {
	if last := &p.last; name != "" && name == last.name && len(p.learned) == last.learned {
		if last.unplaced {
			p.unplaced(last.placed)
		}
		return last.placed
	}
	outside := p.outside
	placed := p.placeOnce(name)
	p.last = lastPlace{name: name, placed: placed, learned: len(p.learned), unplaced: p.outside > outside}
	return placed
}

func (p *placer) placeOnce(name string) string {
	if name == "" {
		return ""
	}
	s := strings.ReplaceAll(name, `\`, "/")
	s = strings.TrimPrefix(s, "**/") // Checkstyle's Ant task writes glob-prefixed paths
	if isWindowsAbs(s) {
		return p.elsewhere(s[:2] + path.Clean(s[2:]))
	}
	if strings.HasPrefix(s, "//") {
		return p.unplaced(s)
	}
	if strings.HasPrefix(s, "/") {
		clean := path.Clean(s)
		for _, r := range p.roots {
			if r == "/" {
				return strings.TrimPrefix(clean, "/")
			}
			if strings.HasPrefix(clean, r+"/") {
				return clean[len(r)+1:]
			}
		}
		return p.elsewhere(clean)
	}
	clean := path.Clean(s)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return p.unplaced(clean)
	}
	return clean
}

// elsewhere places an absolute path that is not under the root, through a
// learned report root or by finding its tail under the root.
func (p *placer) elsewhere(abs string) string {
	if len(p.roots) == 0 {
		return p.unplaced(abs)
	}
	for _, l := range p.learned {
		if strings.HasPrefix(abs, l+"/") {
			return abs[len(l)+1:]
		}
	}
	dir := path.Dir(abs)
	if !p.failedDirs[dir] {
		// Try each tail from the longest, by slicing at the separators:
		// linear in the path, and at most maxTailTries stat calls.
		tries := 0
		for i := strings.IndexByte(abs[1:], '/') + 1; i > 0 && tries < maxTailTries; tries++ {
			tail := abs[i+1:]
			if !strings.Contains(tail, "/") {
				break // a lone base name is too weak a match to learn a root from
			}
			if p.exists(tail) {
				p.learned = append(p.learned, abs[:i])
				return tail
			}
			next := strings.IndexByte(tail, '/')
			i += next + 1
		}
		// A file gone from a directory the repository has (renamed or
		// deleted since the report: the report's first file, before its
		// root is learned) leaves the directory's other files to teach the
		// report's root, up to a bound of files gone from it.
		if !p.knownDir(dir) || p.goneFrom(dir) > maxGoneFromDir {
			if p.failedDirs == nil || len(p.failedDirs) >= maxPlaced {
				p.failedDirs = map[string]bool{} // bounded: forgotten, not grown
			}
			p.failedDirs[dir] = true
		}
	}
	// The report's other paths may teach its root: a file at the
	// repository's root is held until then.
	if p.held[abs] || len(p.held) < maxHeld && p.exists(path.Base(abs)) {
		if p.held == nil {
			p.held = map[string]bool{}
		}
		p.held[abs] = true
		return abs
	}
	return p.unplaced(abs)
}

// maxGoneFromDir bounds the files gone from one directory whose tails
// are looked for: past it, the directory's files are not looked for again
// (a hostile report of countless files in one directory costs no more).
const maxGoneFromDir = 64

// goneFrom counts one more file of dir not found under the root.
func (p *placer) goneFrom(dir string) int {
	if p.gone == nil || len(p.gone) >= maxPlaced {
		p.gone = map[string]int{} // bounded: forgotten, not grown
	}
	p.gone[dir]++
	return p.gone[dir]
}

// knownDir reports whether a tail of the absolute directory dir, two
// components at least, is a directory of the repository: a file of it
// that is not there was there when the report was made, or is another's.
func (p *placer) knownDir(dir string) bool {
	if known, ok := p.dirs[dir]; ok {
		return known
	}
	found := false
	tries := 0
	for i := strings.IndexByte(dir[1:], '/') + 1; i > 0 && tries < maxTailTries; tries++ {
		tail := dir[i+1:]
		if !strings.Contains(tail, "/") {
			break // a lone name is too weak a match
		}
		if p.isDir(tail) {
			found = true
			break
		}
		i += strings.IndexByte(tail, '/') + 1
	}
	if p.dirs == nil || len(p.dirs) >= maxPlaced {
		p.dirs = map[string]bool{} // bounded: forgotten, not grown
	}
	p.dirs[dir] = found
	return found
}

// isDir reports whether rel (repository-relative, slash form) is a
// directory of the repository.
func (p *placer) isDir(rel string) bool {
	if p.fsys == nil || !fs.ValidPath(rel) {
		return false
	}
	if is, sure := p.listed(rel, true); sure {
		return is
	}
	st, err := fs.Stat(p.fsys, rel)
	return err == nil && st.IsDir()
}

// exists reports whether rel (repository-relative, slash form) is a regular
// file of the repository.
func (p *placer) exists(rel string) bool {
	if p.fsys == nil || !fs.ValidPath(rel) {
		return false
	}
	if is, sure := p.listed(rel, false); sure {
		return is
	}
	st, err := fs.Stat(p.fsys, rel)
	return err == nil && st.Mode().IsRegular()
}

// listed is what the root's names say of rel (see topNames), the root
// listed at the first look.
func (p *placer) listed(rel string, dir bool) (is, sure bool) {
	if p.top == nil {
		p.top = listTop(p.fsys)
	}
	return p.top.settles(rel, dir)
}

// locate returns the repository-relative path of a file that a tool names
// (absolute, or relative to the root) when that file exists in the
// repository, learning the report's root as place does; false otherwise,
// without counting the path as unplaced. It never asks the host about a path
// outside the repository.
func (p *placer) locate(name string) (string, bool) {
	if p.fsys == nil || name == "" {
		return "", false
	}
	s := strings.ReplaceAll(name, `\`, "/")
	if !strings.HasPrefix(s, "/") && !isWindowsAbs(s) {
		clean := path.Clean(s)
		return clean, p.exists(clean)
	}
	if isWindowsAbs(s) {
		s = s[:2] + path.Clean(s[2:])
	} else {
		s = path.Clean(s)
		for _, r := range p.roots {
			if r == "/" {
				rel := strings.TrimPrefix(s, "/")
				return rel, p.exists(rel)
			}
			if strings.HasPrefix(s, r+"/") {
				rel := s[len(r)+1:]
				return rel, p.exists(rel)
			}
		}
	}
	for _, l := range p.learned {
		if strings.HasPrefix(s, l+"/") {
			rel := s[len(l)+1:]
			return rel, p.exists(rel)
		}
	}
	tries := 0
	for i := strings.IndexByte(s[1:], '/') + 1; i > 0 && tries < maxTailTries; tries++ {
		tail := s[i+1:]
		if !strings.Contains(tail, "/") {
			break // a lone base name is too weak a match
		}
		if p.exists(tail) {
			p.learned = append(p.learned, s[:i])
			return tail, true
		}
		i += strings.IndexByte(tail, '/') + 1
	}
	return "", false
}

// isHeld reports whether p is a path place held (see placer).
func (p *placer) isHeld(path string) bool { return p.held[path] }

// settle places a held path with the report roots learned by now, or counts
// it as not placed.
func (p *placer) settle(abs string) string {
	for _, l := range p.learned {
		if strings.HasPrefix(abs, l+"/") {
			return abs[len(l)+1:]
		}
	}
	return p.unplaced(abs)
}

// maxHeld bounds the paths a placer holds, and the findings a parser holds
// for them (heldFindings): past it, they are not placed.
const maxHeld = 10000

// heldFindings holds the findings whose path the placer holds, until the
// end of the report; their order among the others changes, not their
// content (ids number findings in the order they are emitted).
type heldFindings struct {
	p    *placer
	list []heldFinding
}

type heldFinding struct {
	f       reports.Finding
	partial map[string]string
}

// emit passes f on to e, or holds it.
func (h *heldFindings) emit(e Emit, f reports.Finding, partial map[string]string) error {
	if f.Path != "" && h.p.isHeld(f.Path) {
		if len(h.list) < maxHeld {
			h.list = append(h.list, heldFinding{f, partial})
			return nil
		}
		f.Path = h.p.settle(f.Path)
	}
	return e(f, partial)
}

// end emits the held findings when the report ended (err nil) or broke
// off (a *ParseError: a report cut short keeps every finding read before
// the cut), and returns the reading's error; any other error is emit's
// own, and stops.
func (h *heldFindings) end(e Emit, err error) error {
	var pe *ParseError
	if err != nil && !errors.As(err, &pe) {
		return err
	}
	if ferr := h.flush(e); ferr != nil {
		return ferr
	}
	return err
}

// flush places the held findings' paths and emits them.
func (h *heldFindings) flush(e Emit) error {
	list := h.list
	h.list = nil
	for _, x := range list {
		x.f.Path = h.p.settle(x.f.Path)
		if err := e(x.f, x.partial); err != nil {
			return err
		}
	}
	return nil
}

// maxTailTries bounds the tails tried for one path: real source trees are
// not deeper than this, and a hostile path must not cost a stat per component.
const maxTailTries = 32

func (p *placer) unplaced(s string) string {
	p.outside++
	if p.firstOutside == "" {
		p.firstOutside = s
	}
	return s
}

// finish adds the one warning about unplaced paths to in.
func (p *placer) finish(in *reports.Input) {
	for _, l := range p.learned {
		in.Warn(fmt.Sprintf("paths under %s (where the report was made) were mapped onto the repository", l))
	}
	if p.outside == 0 {
		return
	}
	where := "no repository root was given"
	if len(p.roots) > 0 {
		where = "outside the repository root " + p.roots[0]
	}
	in.Warn(fmt.Sprintf("%s %s; kept as given (first: %s)", english.Plural(p.outside, "finding path is", "finding paths are"), where, p.firstOutside))
}

func isWindowsAbs(s string) bool {
	return len(s) >= 3 && content.HasDrive(s) && (s[2] == '/' || s[2] == '\\')
}

// uriPath turns a SARIF artifact URI (§3.4.3) into a file system path:
// "file:///home/a/x.java" → "/home/a/x.java", "file:/C:/x.java" → "C:/x.java",
// "file:src/x.java" → "src/x.java", "src/x%20y.java" → "src/x y.java".
// ok is false for URIs of another scheme and for ones that do not parse.
func uriPath(uri string) (p string, ok bool) {
	if isWindowsAbs(uri) {
		return uri, true
	}
	if !strings.Contains(uri, ":") {
		if u, err := url.PathUnescape(uri); err == nil {
			return u, true
		}
		return uri, true
	}
	u, err := url.Parse(uri)
	if err != nil {
		return uri, false
	}
	if u.Scheme == "" && u.Host == "" { // a relative reference with a colon after a slash: "a/C:/b"
		return u.Path, true
	}
	if !strings.EqualFold(u.Scheme, "file") {
		return uri, false
	}
	switch {
	case u.Opaque != "": // file:relative/path
		if s, err := url.PathUnescape(u.Opaque); err == nil {
			return s, true
		}
		return u.Opaque, true
	case u.Host != "" && u.Host != "localhost":
		if u.Path == "" || u.Path == "/" { // file://name.ext: a relative name written as a host
			return u.Host, true
		}
		return "//" + u.Host + u.Path, true // UNC
	}
	s := u.Path
	if len(s) >= 4 && s[0] == '/' && isWindowsAbs(s[1:]) {
		s = s[1:]
	}
	return s, true
}

// joinURI resolves a relative URI reference against a base file path.
func joinURI(base, rel string) string {
	if rel == "" {
		return base
	}
	if strings.HasPrefix(rel, "/") || isWindowsAbs(rel) {
		return rel
	}
	return strings.TrimSuffix(base, "/") + "/" + rel
}

// messageText makes one message of a tool's text: each line's leading and
// trailing space trimmed, stack-trace lines and blank lines at the start
// and end dropped, runs of blank lines made one, the line breaks kept (a
// view that shows one line folds them), and at most maxMessage characters.
func messageText(s string) string {
	s = strings.TrimSpace(s)
	if strings.IndexByte(s, '\n') < 0 && strings.IndexByte(s, '\r') < 0 {
		return text.CutRunes(s, maxMessage)
	}
	var b strings.Builder
	blank := false
	for _, line := range strings.Split(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"), "\n") { // a lone CR breaks a line too
		t := strings.TrimSpace(line)
		switch {
		case isStackLine(t):
			continue
		case t == "":
			blank = b.Len() > 0
			continue
		case blank:
			b.WriteString("\n\n")
		case b.Len() > 0:
			b.WriteByte('\n')
		}
		blank = false
		b.WriteString(t)
	}
	return text.CutRunes(b.String(), maxMessage)
}

// maxMessage bounds a message: a finding is a pointer to a problem, and a view
// must fit a context window.
const maxMessage = 1000

func isStackLine(t string) bool {
	return strings.HasPrefix(t, "at ") && strings.HasSuffix(t, ")") ||
		strings.HasPrefix(t, "... ") && strings.HasSuffix(t, " more") ||
		strings.HasPrefix(t, "Caused by: ") || strings.HasPrefix(t, "Suppressed: ")
}

// firstLine is the first non-empty line of s, for warnings.
func firstLine(s string) string {
	for _, line := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if t := strings.TrimSpace(line); t != "" {
			return text.CutRunes(t, 300)
		}
	}
	return ""
}

// orMessage returns the first non-empty of msg and the alternatives, or a
// placeholder: a finding always says something.
func orMessage(msg string, alts ...string) string {
	if msg != "" {
		return msg
	}
	for _, m := range alts {
		if m != "" {
			return m
		}
	}
	return "(no message)"
}
