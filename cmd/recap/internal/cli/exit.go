package cli

import (
	"errors"
	"fmt"
)

// Exit codes (docs/cli.md, "Exit codes").
const (
	exitOK    = 0 // fine
	exitGate  = 1 // a quality gate failed (--fail-on)
	exitUsage = 2 // a usage error, or an input could not be read
)

// exitError carries the exit code for an error; its message, if any, has
// been printed or is printed by Main.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageError marks a mistake in the command line.
func usageError(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// errInputs: an input could not be read; the view was printed, errors included.
var errInputs = &exitError{code: exitUsage}

func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitUsage // cobra's own errors are about the command line
}
