package diff

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
	"github.com/recap-dev/recap/internal/content"
)

// objectCache is the bytes of git objects a Repo keeps read, counted with
// what each holds beside its content (go-git's default is 96 MiB of
// content): objects larger than MaxDiffBytes are streamed and never kept.
const objectCache = 32 << 20

// Repo is a git repository read with go-git: no git binary is needed,
// but to fetch what a partial clone lacks (partial.go).
type Repo struct {
	repo *git.Repository
	// objects is the object cache of the revision diffs' storages, kept
	// across calls (see Repo.storage).
	objects cache.Object
	// bases is the cache of objects read from the pack files (see
	// packStore), kept across calls too.
	bases *baseCache
	// Root is the top level of the working tree, as it was opened (for
	// messages and the placing of paths: nothing is read by it).
	Root string
	// opened are the directories the Repo reads through; top is the
	// working tree's.
	opened *opened
	shared *opened // a Reopen's: r's, not closed by it
	top    *os.Root
	// dir is the directory Open was given (absolute), sub its place in
	// the working tree then (see Repo.Sub).
	dir, sub string
	// ChangedLines makes Revisions and WorkingTree also fill each file's
	// Changed lines, with a second, whitespace-blind diff of the whole file,
	// for NewIndex. Without it the index looks at each hunk alone.
	ChangedLines bool
	// after is what ChangedAfter keeps across its calls.
	after *afterState
}

// afterState is what ChangedAfter keeps across its calls: the storage it
// reads through, the first-parent lines it walked, the trees it decoded.
// A Repo's copies share it.
type afterState struct {
	mu    sync.Mutex // a ChangedAfter at a time
	st    *storage
	lines map[string]afterLine
	trees map[plumbing.Hash]*object.Tree
}

// Open opens the repository that holds dir (dir or a directory above it),
// once: its top level, its git directory and the common directory of a
// linked worktree are opened as directories ([os.Root]) when it is found,
// and everything the Repo reads after (objects, references, the index, the
// working tree, submodules) is read through them, never by path again. A
// directory renamed away and replaced by a link to another repository
// after Open is not read: the Repo goes on reading the one it opened.
// Close releases the directories.
func Open(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	top, err := findTop(abs)
	if errors.Is(err, ErrNotRepository) {
		return nil, repoErrorf(ErrNotRepository, "%s is not inside a git repository", dir)
	}
	if err != nil {
		return nil, err
	}
	o := &opened{}
	r, err := o.open(top)
	if err != nil {
		o.close()
		if errors.Is(err, fs.ErrNotExist) {
			return nil, repoErrorf(ErrNotRepository, "%s is not inside a git repository", dir)
		}
		return nil, fmt.Errorf("opening the git repository at %s: %w", top, err)
	}
	return &Repo{repo: r, Root: top, objects: newObjectLRU(objectCache), bases: newBaseCache(objectCache), opened: o, top: o.roots[0], after: &afterState{},
		dir: abs, sub: below(top, abs)}, nil
}

// Sub is dir's place in the working tree, slash-separated ("" for the top
// level, or a directory outside it): the diff's files under it are
// dir's. For the directory Open was given it is what it was then.
func (r *Repo) Sub(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil && abs == r.dir {
		return r.sub
	}
	return below(r.Root, dir)
}

// below is dir relative to top, their links resolved; "" when dir is top
// or not under it.
func below(top, dir string) string {
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	rel, err := filepath.Rel(top, dir)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// findTop is the directory at or above abs that holds .git, as git finds
// it (a file is looked from its directory).
func findTop(abs string) (string, error) {
	p := abs
	if st, err := os.Stat(p); err == nil && !st.IsDir() {
		p = filepath.Dir(p)
	}
	for {
		if _, err := os.Stat(filepath.Join(p, git.GitDirName)); err == nil {
			return p, nil
		} else if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return "", fmt.Errorf("opening the git repository at %s: %w", p, err)
		}
		up := filepath.Dir(p)
		if up == p {
			return "", repoErrorf(ErrNotRepository, "%s is not inside a git repository", abs)
		}
		p = up
	}
}

// opened are the directories a Repo opened, the top level first.
type opened struct {
	roots        []*os.Root
	repoFS, wtFS billy.Filesystem // the git directory (and common one), the working tree
}

func (o *opened) add(r *os.Root) *os.Root { o.roots = append(o.roots, r); return r }

func (o *opened) close() {
	for _, r := range o.roots {
		r.Close()
	}
}

// maxGitFile bounds a .git file and a commondir file read.
const maxGitFile = 4096

// open opens the working tree at top, its git directory (.git, or the
// directory a .git file names) and the common directory a linked
// worktree's git directory names, and go-git's repository over them.
func (o *opened) open(top string) (*git.Repository, error) {
	wt, err := os.OpenRoot(top)
	if err != nil {
		return nil, err
	}
	o.add(wt)
	dot, dotPath, err := gitDir(wt, top)
	if err != nil {
		return nil, err
	}
	o.add(dot)
	var repoFS billy.Filesystem = rootFS{r: dot, base: dotPath}
	if b, err := readSmall(dot, "commondir"); err == nil {
		common := strings.TrimSpace(string(b))
		if !filepath.IsAbs(common) {
			common = filepath.Join(dotPath, common)
		}
		c, err := os.OpenRoot(common)
		if err != nil {
			return nil, fmt.Errorf("the common directory of %s: %w", dotPath, err)
		}
		o.add(c)
		repoFS = dotgit.NewRepositoryFilesystem(repoFS, rootFS{r: c, base: common})
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	o.repoFS, o.wtFS = repoFS, rootFS{r: wt, base: top}
	return o.repository()
}

// repository is a go-git repository over the opened directories.
func (o *opened) repository() (*git.Repository, error) {
	return git.Open(filesystem.NewStorage(o.repoFS, cache.NewObjectLRUDefault()), o.wtFS)
}

// Reopen gives a Repo of its own over the directories r opened (go-git's
// repositories are not safe for concurrent use): a server that opened its
// repository once at start reopens it for each call, and reads the same
// directories whatever became of their paths since. Closing it closes
// nothing; r's Close does.
func (r *Repo) Reopen() (*Repo, error) {
	o := r.opened
	if o == nil {
		o = r.shared
	}
	g, err := o.repository()
	if err != nil {
		return nil, fmt.Errorf("opening the git repository at %s again: %w", r.Root, err)
	}
	return &Repo{repo: g, Root: r.Root, objects: r.objects, bases: r.bases, top: r.top, dir: r.dir, sub: r.sub, shared: o}, nil
}

// gitDir opens the git directory of the working tree wt (at top): .git,
// or the directory a .git file names ("gitdir: PATH").
func gitDir(wt *os.Root, top string) (*os.Root, string, error) {
	st, err := wt.Stat(git.GitDirName)
	if err != nil {
		return nil, "", err
	}
	if st.IsDir() {
		r, err := wt.OpenRoot(git.GitDirName)
		return r, filepath.Join(top, git.GitDirName), err
	}
	b, err := readSmall(wt, git.GitDirName)
	if err != nil {
		return nil, "", err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	target, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return nil, "", fmt.Errorf("%s: a .git file that names no gitdir", filepath.Join(top, git.GitDirName))
	}
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(top, target)
	}
	r, err := os.OpenRoot(target)
	return r, target, err
}

// readSmall reads a small file of r (a .git file, commondir).
func readSmall(r *os.Root, name string) ([]byte, error) {
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxGitFile+1))
	if err == nil && len(b) > maxGitFile {
		err = fmt.Errorf("%s: over %d bytes", name, maxGitFile)
	}
	return b, err
}

// Close releases the directories the repository was opened with; a Repo
// is not read after.
func (r *Repo) Close() error {
	if a := r.after; a != nil {
		a.mu.Lock()
		if a.st != nil {
			a.st.close()
			a.st = nil
		}
		a.mu.Unlock()
	}
	if r.opened != nil {
		r.opened.close()
	}
	return nil
}

// Commit resolves rev (a branch, tag, commit hash, HEAD~N, …) to a commit.
// What git would not take as a commit is refused with a message that
// says why: a range, a reflog form, a file (REV:PATH), a tree or a blob
// (REV^{tree}); an unknown revision, or one that a shallow clone lacks,
// gets an error that says what to do.
func (r *Repo) Commit(rev string) (*object.Commit, error) {
	if err := checkRevision(rev); err != nil {
		return nil, err
	}
	h, err := r.repo.ResolveRevision(plumbing.Revision(rev))
	if err == nil {
		var c *object.Commit
		if c, err = r.repo.CommitObject(*h); err == nil {
			return c, nil
		}
	} else if plumbing.IsHash(rev) {
		hh := plumbing.NewHash(rev)
		h = &hh
	}
	if h != nil {
		if o, oerr := r.repo.Storer.EncodedObject(plumbing.AnyObject, *h); oerr == nil && o.Type() != plumbing.CommitObject && o.Type() != plumbing.TagObject {
			return nil, repoErrorf(ErrBadRevision, "revision %q names a %s, not a commit: give a branch, tag or commit", rev, o.Type())
		}
	}
	if from := r.borrowed(); from != "" {
		return nil, repoErrorf(ErrUnknownRevision, "revision %q is not among the repository's own objects: it borrows objects from %s (objects/info/alternates: a clone made with --shared or --reference), and recap reads nothing outside the repository; make the objects its own (git repack -a -d, then remove objects/info/alternates)", rev, from)
	}
	if r.shallow() {
		return nil, repoErrorf(ErrShallow, "revision %q is not in this shallow clone: fetch the full history (git fetch --unshallow, or fetch-depth: 0 in actions/checkout)", rev)
	}
	return nil, repoErrorf(ErrUnknownRevision, "unknown revision %q: give a branch, tag, commit or HEAD~N that exists here (fetch it first if it is on a remote only)", rev)
}

// checkRevision refuses the forms of a revision that name no commit, or
// that go-git would misread (it takes HEAD:path and HEAD^{tree} for HEAD).
func checkRevision(rev string) error {
	switch {
	case rev == "":
		return repoErrorf(ErrBadRevision, "empty revision")
	case rev == ".." || strings.HasPrefix(rev, "../") || strings.Contains(rev, "/../") || strings.HasSuffix(rev, "/..") || strings.HasPrefix(rev, "./"):
		return repoErrorf(ErrUnknownRevision, "unknown revision %q: that is a path, not a revision; give a branch, tag, commit or HEAD~N", rev)
	case strings.Contains(rev, ".."):
		return repoErrorf(ErrBadRevision, "revision %q is a range: give the two ends separately (--base and --head)", rev)
	case strings.Contains(rev, "@{"):
		return repoErrorf(ErrBadRevision, "revision %q: reflog forms (@{…}) are not supported; give a branch, tag or commit", rev)
	case strings.HasPrefix(rev, ":/"):
		return repoErrorf(ErrBadRevision, "revision %q: finding a commit by its message (:/text) is not supported; give a branch, tag or commit", rev)
	case strings.Contains(rev, ":"):
		return repoErrorf(ErrBadRevision, "revision %q names a file (REV:PATH), not a commit: give a branch, tag or commit", rev)
	}
	for rest := rev; ; {
		i := strings.Index(rest, "^{")
		if i < 0 {
			break
		}
		end := strings.IndexByte(rest[i:], '}')
		if end < 0 {
			return repoErrorf(ErrBadRevision, "revision %q: ^{ without its }", rev)
		}
		switch kind := rest[i+2 : i+end]; {
		case kind == "" || kind == "commit" || strings.HasPrefix(kind, "/"):
		default:
			return repoErrorf(ErrBadRevision, "revision %q peels to a %s, not a commit: give a branch, tag or commit (REV^{commit} or REV)", rev, kind)
		}
		rest = rest[i+end+1:]
	}
	return nil
}

// borrowed returns the first directory the repository's
// objects/info/alternates names, "" when it has none. go-git reads
// alternates through the opened directories (an absolute path is taken
// inside them), so their objects are not found: the error says why.
func (r *Repo) borrowed() string {
	o := r.opened
	if o == nil {
		o = r.shared
	}
	if o == nil || o.repoFS == nil {
		return ""
	}
	f, err := o.repoFS.Open("objects/info/alternates")
	if err != nil {
		return ""
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, maxGitFile))
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return ""
}

func (r *Repo) shallow() bool {
	s, err := r.repo.Storer.Shallow()
	return err == nil && len(s) > 0
}

// ErrBinary: the file is not text.
var ErrBinary = errors.New("binary file")

// OpenAt returns a function that opens files of revision rev by their
// repository-relative paths, with their sizes, for code context as it was
// at that revision; a binary file gives [ErrBinary], a symbolic link or a
// submodule an error (a link has no lines: its target is not read). The
// reader streams the blob (one larger than MaxDiffBytes is never held
// whole): the caller reads as much of it as it needs.
func (r *Repo) OpenAt(rev string) (func(path string) (io.ReadCloser, int64, error), error) {
	c, err := r.Commit(rev)
	if err != nil {
		return nil, err
	}
	s := r.repo.Storer
	if fs, ok := s.(*filesystem.Storage); ok {
		s = filesystem.NewStorageWithOptions(fs.Filesystem(), cache.NewObjectLRU(4*cache.MiByte), filesystem.Options{LargeObjectThreshold: MaxDiffBytes})
	}
	if c, err = object.GetCommit(s, c.Hash); err != nil {
		return nil, fmt.Errorf("revision %q: %w", rev, err)
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("revision %q: %w", rev, err)
	}
	short := c.Hash.String()[:12]
	return func(p string) (_ io.ReadCloser, _ int64, err error) {
		defer recovered(&err)
		clean := path.Clean(p)
		if p == "" || path.IsAbs(clean) || strings.HasPrefix(clean, "../") || clean == ".." {
			return nil, 0, fmt.Errorf("%s is not inside the repository", p)
		}
		e, err := tree.FindEntry(clean)
		if err != nil {
			if errors.Is(err, object.ErrFileNotFound) || errors.Is(err, object.ErrDirectoryNotFound) || errors.Is(err, object.ErrEntryNotFound) ||
				errors.Is(err, plumbing.ErrObjectNotFound) { // a path through a file or a link
				return nil, 0, fmt.Errorf("%s is not in revision %s (%s)", p, rev, short)
			}
			return nil, 0, err
		}
		switch {
		case e.Mode == filemode.Symlink:
			return nil, 0, fmt.Errorf("%s is a symbolic link in revision %s (%s): a link has no lines", p, rev, short)
		case e.Mode == filemode.Submodule:
			return nil, 0, fmt.Errorf("%s is a submodule in revision %s (%s)", p, rev, short)
		case !e.Mode.IsFile():
			return nil, 0, fmt.Errorf("%s is a directory in revision %s (%s)", p, rev, short)
		}
		b, err := object.GetBlob(s, e.Hash)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			// A partial clone's: git fetches it.
			if remote := r.promisor(); remote != "" {
				if err = r.fetch(context.Background(), remote, []plumbing.Hash{e.Hash}); err != nil {
					at := fmt.Sprintf("in revision %s (%s)", rev, short)
					if strings.HasPrefix(rev, short) {
						at = "at " + short
					}
					return nil, 0, fmt.Errorf("%s %s: %w", p, at, err)
				}
				if fs, ok := s.(*filesystem.Storage); ok {
					fs.Reindex()
				}
				b, err = object.GetBlob(s, e.Hash)
			}
		}
		if err != nil {
			return nil, 0, err
		}
		head, err := b.Reader()
		if err != nil {
			return nil, 0, err
		}
		buf := make([]byte, 8000)
		n, err := io.ReadFull(head, buf)
		head.Close()
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			return nil, 0, err
		}
		if content.IsBinary(buf[:n]) {
			return nil, 0, ErrBinary
		}
		rd, err := b.Reader()
		if err != nil {
			return nil, 0, err
		}
		return rd, b.Size, nil
	}, nil
}
