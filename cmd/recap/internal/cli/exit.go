package cli

import (
	"errors"
	"fmt"
	"github.com/spf13/cobra"
)

// Exit codes (docs/cli.md, "Exit codes"). When more than one applies, the
// first of these wins: 2 (what was read is incomplete), then 3 (what was
// posted is incomplete), then 1 (the verdict on a complete run); every
// message is on stderr all the same.
const (
	exitOK    = 0 // fine
	exitGate  = 1 // a quality gate failed (--fail-on, --max-new)
	exitUsage = 2 // a usage error, or an input could not be read
	exitPost  = 3 // recap review --post could not post everything
)

// exitError carries the exit code for an error; its message, if any, has
// been printed or is printed by Main.
type exitError struct {
	code int
	err  error
}

// Error is "" when the message was printed already.
func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageError marks a mistake in the command line.
func usageError(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// errInputs: an input could not be read; the view was printed, and the
// errors on stderr.
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

// needInputs is the Args check of a command that reads reports (what):
// with none given, the error says what to give, with an example.
func needInputs(what, example string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return nil
		}
		return usageError("%s: give %s, for example: %s", cmd.Name(), what, example)
	}
}
