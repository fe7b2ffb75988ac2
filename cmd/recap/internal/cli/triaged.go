package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/triage"
	"github.com/spf13/cobra"
)

// registerTriage registers --triage, which every command that reads
// reports takes.
func (c *commonFlags) registerTriage(cmd *cobra.Command) {
	cmd.Flags().StringVar(&c.triage, "triage", "", "the triage file: what was decided of findings, honoured by every output (default: "+triage.DefaultPath+" at the repository root; see docs/triage.md)")
}

// registerTriaged registers --triaged, of the commands that show findings
// and counts (summary, findings).
func (o *reportOptions) registerTriaged(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.triaged, "triaged", "exclude", "the findings a triage decision covers: left out of pages and counts, counted apart (exclude), shown marked (include), or alone (only); no gate counts them")
}

// triageNow is the day triage expiries are judged on.
var triageNow = time.Now

// loadTriage sets q's triage: the matcher of the triage file (--triage,
// else the repository's own, which may be absent), reading the findings'
// source through the repository root, and the mode.
func (c *commonFlags) loadTriage(q *pipeline.Query, root string, errOut io.Writer) error {
	var f *triage.File
	r, err := content.OpenRoot(root)
	if err != nil {
		return usageError("%v", err)
	}
	// The root stays open while the command runs: the matcher reads the
	// findings' files as they come.
	if c.triage != "" {
		// A regular file of at most triage.MaxSize: a FIFO or a device is
		// refused, not read.
		if _, err := os.Stat(c.triage); err != nil {
			return usageError("--triage: %v", err)
		}
		if f, err = triage.LoadFile(c.triage); err != nil {
			return usageError("--triage: %v", err)
		}
	} else {
		rel := triage.DefaultPath
		if q.Config != nil && q.Config.Triage != "" {
			rel = q.Config.Triage // .recap.yml's triage key
		}
		if f, err = triage.Load(r.FS(), rel); err != nil {
			return usageError("%v", err)
		}
	}
	c.triageFile, c.triageFS, c.triageRoot = f, r.FS(), root
	if len(f.Entries) == 0 {
		return nil
	}
	q.Triage = followed(triage.NewMatcher(f, r.FS(), triageNow()), root, errOut)
	q.Triage.ReadAhead()
	return nil
}

// followed is m with the entries whose file is gone followed where git
// says it went (renamed since the entry's commit): without it, such an
// entry matches its location in any file, and so a copy of its line in
// another file. What stops it is a warning on errOut.
func followed(m *triage.Matcher, root string, errOut io.Writer) *triage.Matcher {
	if err := m.Follow(context.Background(), root); err != nil {
		fmt.Fprintf(errOut, "recap: warning: triage: %s\n", render.InertLine(err.Error()))
	}
	return m
}

// triagedMode is --triaged as a mode; SARIF carries every finding, the
// triaged ones as suppressed results, unless only those are asked.
func (o *reportOptions) triagedMode(format render.Format) (pipeline.TriagedMode, error) {
	m, err := pipeline.ParseTriagedMode(o.triaged)
	if err != nil {
		return m, usageError("--%v", err)
	}
	if _, ok := format.View.(render.SARIF); ok && m == pipeline.TriagedExclude {
		m = pipeline.TriagedInclude
	}
	return m, nil
}
