package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Signals returns a context that ends on SIGINT or SIGTERM, its cause the
// signal (see [Main]): readers stop at their next chunk and recap exits
// 128 + the signal's number. What is still running a second later (a read
// blocked on a pipe) is cut short with that code, as is a second signal.
// stop releases the signal handling.
func Signals() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	stopped.Store(nil)
	sigs := make(chan os.Signal, 2)
	// A signal recap was started ignoring (nohup, a shell's background
	// job) stays ignored: Notify would take it up.
	for _, s := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		if !signal.Ignored(s) {
			signal.Notify(sigs, s)
		}
	}
	done := make(chan struct{})
	go func() {
		var first syscall.Signal
		select {
		case s := <-sigs:
			first = s.(syscall.Signal)
			stopped.Store(&signalError{first})
			cancel(&signalError{first})
		case <-done:
			return
		}
		select {
		case <-sigs: // a second one: the user insists
		case <-time.After(grace()):
		case <-done:
			return
		}
		fmt.Fprintf(os.Stderr, "recap: %v\n", &signalError{first})
		removeLeftovers()
		os.Exit(128 + int(first))
	}()
	return ctx, func() { signal.Stop(sigs); close(done); cancel(nil) }
}

// stopped is the signal that stopped recap, nil before one came.
var stopped atomic.Pointer[signalError]

// leftovers are the files recap is writing that a run cut short by a
// signal must not leave behind (the file --output's is written into,
// before it is renamed): removed before os.Exit.
var leftovers struct {
	sync.Mutex
	names map[string]bool
}

// leaveNothing adds name to the files removed should recap be cut short;
// done takes it off.
func leaveNothing(name string) (done func()) {
	leftovers.Lock()
	defer leftovers.Unlock()
	if leftovers.names == nil {
		leftovers.names = map[string]bool{}
	}
	leftovers.names[name] = true
	return func() {
		leftovers.Lock()
		defer leftovers.Unlock()
		delete(leftovers.names, name)
	}
}

// removeLeftovers removes the files leaveNothing was given and not taken
// off.
func removeLeftovers() {
	leftovers.Lock()
	defer leftovers.Unlock()
	for name := range leftovers.names {
		os.Remove(name)
	}
}

// serving is set while recap serves (recap mcp), whose graceful shutdown
// takes up to 5 s.
var serving atomic.Bool

// grace is how long recap may take to stop after a signal: a second for a
// command that reads, more for a server that shuts down its sessions.
func grace() time.Duration {
	if serving.Load() {
		return 6 * time.Second
	}
	return time.Second
}

// signalError is the cause of a context ended by a signal.
type signalError struct{ sig syscall.Signal }

func (e *signalError) Error() string { return "stopped by " + signalName(e.sig) }

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return fmt.Sprint(s)
}

// signalCode is the exit code of a run a signal stopped: 128 + the signal's
// number, as a shell reports it (130 for SIGINT, 143 for SIGTERM).
func signalCode(ctx context.Context) (int, error, bool) {
	var se *signalError
	if errors.As(context.Cause(ctx), &se) {
		return 128 + int(se.sig), se, true
	}
	return 0, nil, false
}
