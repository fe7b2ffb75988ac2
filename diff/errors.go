package diff

import (
	"errors"
	"fmt"
)

// Kinds of repository errors, for errors.Is: every error of [Open],
// [Repo.Commit], [Repo.Revisions], [Repo.WorkingTree] and
// [Repo.WorkingTreeSince] of one of these kinds wraps it, and its message
// says what to do.
var (
	// ErrNotRepository: the directory is not inside a git repository.
	ErrNotRepository = errors.New("not a git repository")
	// ErrUnknownRevision: no branch, tag or commit has that name here.
	ErrUnknownRevision = errors.New("unknown revision")
	// ErrBadRevision: a form recap does not take (a range, a reflog entry, empty).
	ErrBadRevision = errors.New("unsupported revision")
	// ErrShallow: the history needed is missing from a shallow clone.
	ErrShallow = errors.New("not in this shallow clone")
	// ErrNoMergeBase: the two revisions share no history.
	ErrNoMergeBase = errors.New("no merge base")
)

// repoError is an error of a kind above with its own message.
type repoError struct {
	kind error
	msg  string
}

func (e *repoError) Error() string { return e.msg }
func (e *repoError) Unwrap() error { return e.kind }

func repoErrorf(kind error, format string, args ...any) error {
	return &repoError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// recovered turns a panic of a library under diff (go-git reading a
// broken repository) into an error, so that none reaches the user.
func recovered(err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("reading the repository failed: %v (please report it: it is a bug)", p)
	}
}
