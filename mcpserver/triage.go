package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"time"

	"github.com/recap-dev/recap/triage"
)

// triageNow is the day triage expiries are judged on.
var triageNow = time.Now

// triage reads the root's triage file (docs/triage.md) at each call,
// through the root, and returns a matcher of its decisions that reads the
// findings' files through the root, with a key that changes with its
// content and the day (decisions expire); nil and "" when there is none
// or it is empty.
func (s *Server) triage() (*triage.Matcher, string, error) {
	fsys := s.root.fs.FS()
	rel := s.triagePath()
	data, err := fs.ReadFile(fsys, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", toolErrorf(CodeBadArgument, "triage: %v", err)
	}
	f, err := triage.Parse(rel, data)
	if err != nil {
		return nil, "", toolErrorf(CodeBadArgument, "triage: %v (fix the file, see docs/triage.md)", err)
	}
	if len(f.Entries) == 0 {
		return nil, "", nil
	}
	now := triageNow()
	sum := sha256.Sum256(data)
	m := triage.NewMatcher(f, fsys, now)
	// An entry whose file is gone follows it where git says it went
	// since the entry's commit; failing that, it matches its location in
	// any file, as without a commit.
	_ = m.Follow(context.Background(), s.root.dir)
	return m, rel + " " + hex.EncodeToString(sum[:]) + " " + now.UTC().Format(triage.DateLayout), nil
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
