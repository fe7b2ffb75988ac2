// Package cli is recap's command line: flags and validation, one call into
// the library packages, and errors mapped to exit codes. main is its only caller.
package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/spf13/cobra"
)

// MemoryLimit is the Go runtime's soft memory limit for a command
// (unless $GOMEMLIMIT is set): a run that holds much (200,000 inputs'
// statuses, a large diff's index) stays under recap's bound of 256 MiB of
// peak RSS.
const MemoryLimit = 176 << 20

// IO is what a command reads and writes; tests give buffers.
type IO struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// Main runs recap with args and returns the process exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if os.Getenv("GOMEMLIMIT") == "" {
		// recap's work is bounded well under this (docs/reliability.md);
		// near it the collector works harder rather than letting garbage
		// double what is held. The MCP server sets its own bound.
		debug.SetMemoryLimit(MemoryLimit)
	}
	streams := &IO{In: stdin, Out: stdout, ErrOut: stderr}
	root := newRoot(streams)
	if len(args) > 0 && len(args[0]) > maxEcho {
		// cobra's suggestion of a command compares every name with the
		// argument, in time of its length: no name is near one this long
		root.DisableSuggestions = true
	}
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	// A command that a signal stopped (a read) fails with the signal's
	// code; one that finished (a server shut down cleanly) exits 0.
	if code, sig, ok := signalCode(ctx); ok && err != nil {
		fmt.Fprintf(stderr, "recap: %v\n", sig)
		return code
	}
	if err != nil && err.Error() != "" {
		// Several mistakes (a file's, joined), each on a line of its own.
		for line := range strings.Lines(cutEchoes(err.Error(), args)) {
			if line = strings.TrimRight(line, "\n"); line != "" {
				fmt.Fprintf(stderr, "recap: %s\n", render.InertLine(line))
			}
		}
	}
	return exitCode(err)
}

func newRoot(streams *IO) *cobra.Command {
	root := &cobra.Command{
		Use:   "recap",
		Short: "Summary-first views of static-analysis reports and git diffs",
		Long: `recap reads static-analysis reports and git diffs and prints small,
summary-first views: counts by severity and category first, then the details
that fit.

Report formats: ` + parsers.FormatTitles("and") + ` (SARIF of any tool)
Output formats: ` + render.Help(render.Findings),
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return usageError("%v", err)
	})
	root.AddCommand(newSummary(streams), newFindings(streams), newReview(streams), newDiff(streams), newTokens(streams), newMCP(streams), newTriage(streams), newVersion(streams))
	return root
}
