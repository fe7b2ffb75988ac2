package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/triage"
)

// triageNow is the day triage expiries are judged on.
var triageNow = time.Now

// triageLoad is the root's triage file (docs/triage.md) as a call read
// it: its decisions, the key that names them (its place, its content's
// hash, the day: decisions expire) and the day they are judged on.
type triageLoad struct {
	file *triage.File
	key  string
	now  time.Time
}

// parsedTriage is the triage file parsed last, by its place and its
// content's hash: a call looks at the file, reads and hashes it unless it
// is the one read last, unchanged, and parses it only when its bytes
// changed (10,000 decisions, 3.7 MB, take some 50 ms to parse and 7 ms to
// read and hash, where a warm page takes a few).
type parsedTriage struct {
	mu   sync.Mutex
	rel  string
	sum  [sha256.Size]byte
	file *triage.File
	// st is the file's stamp when it was read, at read (the time just
	// before): a file of the same stamp (its device and inode, size,
	// modification and change times) is taken as unchanged only when its
	// times were at least unchangedAfter before read, as git trusts its
	// index (a write within the same tick of the clock would leave them
	// as they were), and only where the system gives a change time, which
	// every write, rename and change of mode moves and no one can set
	// back (cp -p and touch set a modification time back).
	st   stamp
	read time.Time
}

// unchangedAfter is how long before a triage file was read its times
// must be for its stamp to say it is unchanged (see parsedTriage; a
// variable for tests).
var unchangedAfter = 2 * time.Second

// unchanged reports whether st, the triage file's stamp now, says that it
// is the one p read last, unchanged.
func (p *parsedTriage) unchanged(rel string, st stamp) bool {
	before := p.read.Add(-unchangedAfter).UnixNano()
	return p.file != nil && p.rel == rel && st == p.st && st.ctime != 0 && st.ctime < before && st.mtime < before
}

// triageReads, triageParses and triageMatchers count the triage files
// read and parsed and the matchers made (for tests).
var triageReads, triageParses, triageMatchers atomic.Int64

// triageFile reads the root's triage file at each call, through the
// root; nil when there is none or it is empty.
func (s *Server) triageFile() (*triageLoad, error) {
	rel := s.triagePath()
	p := &s.parsed
	p.mu.Lock()
	defer p.mu.Unlock()
	read := time.Now()
	h, err := s.root.fs.FS().Open(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if errors.Is(err, content.ErrOutside) || errors.Is(err, content.ErrLinkOutside) {
		return nil, toolErrorf(CodeOutsideRoot, "triage: the triage file %s %s %s: no decision can be honoured (make it a file inside the root)", rel, s.root.fs.LinkOutside(rel, "the root"), s.root.dir)
	}
	if errors.Is(err, content.ErrNotRegular) {
		return nil, s.notRegular(rel)
	}
	if err != nil {
		return nil, toolErrorf(CodeBadArgument, "triage: %v", err)
	}
	defer h.Close()
	st, err := h.Stat()
	if err != nil {
		return nil, toolErrorf(CodeBadArgument, "triage: %v", err)
	}
	if !p.unchanged(rel, stampOf(st)) {
		triageReads.Add(1)
		data, err := io.ReadAll(io.LimitReader(h, triage.MaxSize+1))
		if err != nil {
			return nil, toolErrorf(CodeBadArgument, "triage: %v", err)
		}
		sum := sha256.Sum256(data)
		if p.file == nil || p.rel != rel || p.sum != sum {
			triageParses.Add(1)
			f, err := triage.ParseOwned(rel, data) // data is not used after
			if err != nil {
				p.file = nil
				return nil, toolErrorf(CodeParseError, "triage: %v (fix the file, see docs/triage.md)", err)
			}
			p.rel, p.sum, p.file = rel, sum, f
		}
		p.st, p.read = stampOf(st), read
	}
	if len(p.file.Entries) == 0 {
		return nil, nil
	}
	now := triageNow()
	return &triageLoad{file: p.file, key: rel + " " + hex.EncodeToString(p.sum[:]) + " " + now.UTC().Format(triage.DateLayout), now: now}, nil
}

// matcher returns a matcher of l's decisions that reads the findings'
// files through the root (nil for nil l). It is made by the call that
// decides findings: a page of a result already made needs none.
func (s *Server) matcher(l *triageLoad) *triage.Matcher {
	return s.matcherOf(l, false)
}

// matcherOf is matcher's, telling the entries whose decided line was
// edited (triage.Matcher.TellEdited) when edited is set.
func (s *Server) matcherOf(l *triageLoad, edited bool) *triage.Matcher {
	if l == nil {
		return nil
	}
	triageMatchers.Add(1)
	f := *l.file // the parsed file is shared by the calls: each matcher has its own entries
	f.Entries = slices.Clone(l.file.Entries)
	m := triage.NewMatcher(&f, s.root.fs.FS(), l.now)
	if edited {
		m.TellEdited()
	}
	// An entry whose file is gone follows it where git says it went
	// since the entry's commit; failing that, it matches its location in
	// any file, as without a commit.
	_ = m.Follow(context.Background(), s.root.dir)
	return m
}

// triage returns a matcher of the root's triage file's decisions and the
// key that names them (see triageFile); nil and "" when there is none.
func (s *Server) triage() (*triage.Matcher, string, error) {
	l, err := s.triageFile()
	if l == nil || err != nil {
		return nil, "", err
	}
	return s.matcher(l), l.key, nil
}

// triageRel is the triage file's place under the root: the root's
// .recap.yml's triage key, else triage.DefaultPath (a configuration that
// cannot be read is reported by the call's own reading of it).
func (s *Server) triageRel() string {
	if cfg, _, err := s.config(); err == nil && cfg != nil && cfg.Triage != "" {
		return cfg.Triage
	}
	return triage.DefaultPath
}

// notRegular is the error of a triage file at rel that is not a regular
// file, saying what it is.
func (s *Server) notRegular(rel string) *ToolError {
	kind := "a special file"
	if st, err := s.root.fs.Stat(rel); err == nil {
		kind = content.Kind(st.Mode())
	}
	return toolErrorf(CodeParseError, "triage: %s: not a regular file (%s): a triage file is a file (nothing was read or written)", rel, kind)
}
