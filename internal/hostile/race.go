package hostile

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// A Flipper swaps a file between a regular file and a symbolic link to a
// file outside the root, as fast as it can, until stopped: the race a
// reader that checks a path and then opens it loses (the check sees the
// file, the open follows the link). Each swap is a rename over the path,
// so that the path always exists.
type Flipper struct {
	stop  chan struct{}
	once  sync.Once
	done  sync.WaitGroup
	swaps atomic.Int64
	err   error
}

// Secret is the text of the file outside the root that a Flipper's link
// leads to: a reader that shows it leaked.
const Secret = "SECRET-LINE-1\nSECRET-LINE-2\nSECRET-LINE-3\nSECRET-LINE-4\n"

// Flip starts swapping path (a file under a root) between a regular file
// holding body and a link to outside, a file holding Secret (made beside
// the root, so that a relative link leads out through ..).
func Flip(path, body, outside string) (*Flipper, error) {
	if err := os.WriteFile(outside, []byte(Secret), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		return nil, err
	}
	target, err := filepath.Rel(filepath.Dir(path), outside)
	if err != nil {
		return nil, err
	}
	f := &Flipper{stop: make(chan struct{})}
	tmpFile, tmpLink := path+".flip-file", path+".flip-link"
	f.done.Add(1)
	go func() {
		defer f.done.Done()
		for {
			select {
			case <-f.stop:
				os.Remove(tmpFile)
				os.Remove(tmpLink)
				return
			default:
			}
			os.Remove(tmpLink)
			if err := os.Symlink(target, tmpLink); err != nil {
				f.err = err
				return
			}
			if err := os.Rename(tmpLink, path); err != nil {
				f.err = err
				return
			}
			if err := os.WriteFile(tmpFile, []byte(body), 0o644); err != nil {
				f.err = err
				return
			}
			if err := os.Rename(tmpFile, path); err != nil {
				f.err = err
				return
			}
			f.swaps.Add(1)
		}
	}()
	return f, nil
}

// Stop stops the swapping, leaves path a regular file, and gives the
// number of swaps made and the first error.
func (f *Flipper) Stop() (int64, error) {
	f.once.Do(func() { close(f.stop) })
	f.done.Wait()
	return f.swaps.Load(), f.err
}
