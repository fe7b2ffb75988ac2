//go:build !unix

package content

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"time"
)

// lockStale is the age past which a lock file is taken for one a writer
// left behind when it died.
const lockStale = time.Minute

// lock makes the lock file dir/.recap.lock inside the root (O_EXCL),
// waiting at most LockWait; unlock removes it.
func (r *Root) lock(dir string) (unlock func(), err error) {
	name := path.Join(dir, ".recap.lock")
	deadline := time.Now().Add(LockWait)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		f, err := r.r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			f.Close()
			return func() { _ = r.r.Remove(name) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, r.pathError(err)
		}
		if st, serr := r.r.Stat(name); serr == nil && time.Since(st.ModTime()) > lockStale {
			_ = r.r.Remove(name)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("locking %s: %w", dir, ErrLocked)
		}
		time.Sleep(wait)
	}
}
