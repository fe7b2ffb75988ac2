package content

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"
)

// MaxUpdateBytes bounds the file an [Root.Update] reads: a file recap
// writes (a triage file) is small; a larger one is refused, not read.
const MaxUpdateBytes = 16 << 20

// LockWait is how long [Root.Update] waits for another writer's lock
// before it gives up.
const LockWait = 10 * time.Second

// ErrLocked: another writer held the lock longer than LockWait.
var ErrLocked = errors.New("another writer holds the lock")

// Update changes the file at name (see [Root.Rel]) inside the root, as one
// of several writers may at once, each seeing the others' changes: it
// makes the directories on the way inside the root, takes the file's
// lock (the lock file name + ".lock", made exclusively beside it; see
// LockStale), reads the file under the lock (nil when it does not exist), calls change with it, writes what
// change returns to a temporary file in the same directory and renames it
// over name, then releases the lock. A reader sees the old content or the
// new, never a part. Every step goes through the root: nothing outside it
// is made, read or replaced, and a symbolic link on the way that leads
// out is refused (ErrLinkOutside). change returning an error, or the
// file's content as it is, writes nothing.
func (r *Root) Update(name string, change func(old []byte) ([]byte, error)) error {
	rel, err := r.Rel(name)
	if err != nil || rel == "." {
		return &fs.PathError{Op: "write", Path: name, Err: cmpErr(err, ErrOutside)}
	}
	dir := path.Dir(rel)
	if dir != "." {
		if err := r.r.MkdirAll(dir, 0o755); err != nil {
			if strings.Contains(err.Error(), "path escapes from parent") { // os.Root's own, nested in MkdirAll's
				return &fs.PathError{Op: "mkdir", Path: dir, Err: ErrLinkOutside}
			}
			return r.pathError(err)
		}
	}
	unlock, err := r.lock(rel)
	if err != nil {
		return err
	}
	defer unlock()
	old, err := r.readSmall(rel)
	if err != nil {
		return err
	}
	data, err := change(old)
	if err != nil || old != nil && bytes.Equal(data, old) {
		return err
	}
	return r.replace(rel, data)
}

func cmpErr(err, def error) error {
	if err != nil {
		return err
	}
	return def
}

// readSmall reads the regular file rel, nil when it does not exist.
func (r *Root) readSmall(rel string) ([]byte, error) {
	f, st, err := r.Open(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > MaxUpdateBytes {
		return nil, fmt.Errorf("%s: %d bytes, over the %d MiB recap rewrites", rel, st.Size(), MaxUpdateBytes>>20)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxUpdateBytes+1))
	if err == nil && len(b) > MaxUpdateBytes {
		err = fmt.Errorf("%s: over the %d MiB recap rewrites", rel, MaxUpdateBytes>>20)
	}
	return b, err
}

// replace writes data to a new temporary file beside rel and renames it
// over rel; the temporary file is removed when anything fails.
func (r *Root) replace(rel string, data []byte) error {
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := path.Join(path.Dir(rel), "."+path.Base(rel)+"."+hex.EncodeToString(rnd[:])+".tmp")
	f, err := r.r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return r.pathError(err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.r.Rename(tmp, rel)
	}
	if err != nil {
		_ = r.r.Remove(tmp)
		return r.pathError(err)
	}
	return nil
}
