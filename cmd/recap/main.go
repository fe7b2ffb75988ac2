// Command recap turns static-analysis reports and git diffs into small,
// summary-first views for AI agents, CI logs and pull-request reviews.
package main

import (
	"os"

	"github.com/recap-dev/recap/cmd/recap/internal/cli"
)

func main() {
	ctx, stop := cli.Signals()
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
