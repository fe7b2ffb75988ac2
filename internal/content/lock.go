package content

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"time"
)

// LockStale is the age past which a lock file is taken for one a writer
// left when it stopped.
const LockStale = 2 * time.Minute

// lock makes the lock file rel + ".lock" inside the root (O_EXCL, so that
// one writer at a time has it; the same lock file package triage's
// writers of the command line take), waiting at most LockWait; unlock
// removes it. A lock file older than LockStale is removed and taken.
func (r *Root) lock(rel string) (unlock func(), err error) {
	name := rel + ".lock"
	deadline := time.Now().Add(LockWait)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		f, err := r.r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, _ = f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
			f.Close()
			return func() { _ = r.r.Remove(name) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, r.pathError(err)
		}
		if st, serr := r.r.Lstat(name); serr == nil && time.Since(st.ModTime()) > LockStale {
			_ = r.r.Remove(name) // left by a writer that stopped
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s: %w for more than %s (remove %s if none is running)", rel, ErrLocked, LockWait, name)
		}
		time.Sleep(wait)
	}
}
