//go:build unix

package content

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lock takes an exclusive flock on the directory dir inside the root,
// waiting at most LockWait; the lock ends with the process too.
func (r *Root) lock(dir string) (unlock func(), err error) {
	d, err := r.r.OpenFile(dir, os.O_RDONLY|syscall.O_NONBLOCK|oDirectory, 0)
	if err != nil {
		return nil, r.pathError(err)
	}
	deadline := time.Now().Add(LockWait)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		err = syscall.Flock(int(d.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				_ = syscall.Flock(int(d.Fd()), syscall.LOCK_UN)
				d.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) || time.Now().After(deadline) {
			d.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				err = ErrLocked
			}
			return nil, fmt.Errorf("locking %s: %w", dir, err)
		}
		time.Sleep(wait)
	}
}
