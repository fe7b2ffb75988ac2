package cli

import (
	"context"
	"fmt"
	"slices"

	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/review"
)

// replies reads the replies to recap's inline comments on the pull or
// merge request the review is posted to (docs/triage.md, "Pull
// requests"): each "/recap STATE REASON" by someone who may write to the
// repository becomes a triage entry of the comment's finding, for this
// run. It is called before the query runs: the entries are the triage
// the run honours beside the triage file's, and the review's body shows
// them to commit. Nil when the review is not posted, or when the replies
// could not be read (said on standard error: the review goes on without
// them).
func (rr *reviewRun) replies(ctx context.Context, q *pipeline.Query) *review.Replied {
	h, ok := rr.host.(review.ReplyHost)
	files, isFiles := q.Reports.(pipeline.Files)
	if !ok || !isFiles {
		return nil
	}
	if slices.Contains(files.Paths, "-") {
		fmt.Fprintf(rr.streams.ErrOut, "recap: warning: review: the replies to recap's comments are not read when the reports come on standard input (they would be read twice)\n")
		return nil
	}
	root, err := content.OpenRoot(files.Options.Root)
	if err != nil {
		fmt.Fprintf(rr.streams.ErrOut, "recap: warning: review: the replies to recap's comments were not read: %v\n", err)
		return nil
	}
	// The findings of the replies, read from the reports once more, only
	// when a reply is honoured.
	find := func(ctx context.Context, want map[string]bool) (map[string][]reports.Finding, error) {
		opts := files.Options
		opts.Wrap, opts.Stdin = nil, nil
		out := map[string][]reports.Finding{}
		_, err := pipeline.Files{Paths: files.Paths, Options: opts}.Read(ctx, func(*reports.Finding) bool { return true }, func(f *reports.Finding) error {
			if base := review.FingerprintBase(f.Fingerprint); want[base] {
				g := *f
				if q.Config != nil {
					q.Config.Apply(&g)
				}
				out[base] = append(out[base], g)
			}
			return nil
		})
		return out, err
	}
	r, err := review.Replies(ctx, h, find, root.FS())
	if err != nil {
		fmt.Fprintf(rr.streams.ErrOut, "recap: warning: review: the replies to recap's comments were not read: %v; the review goes on without them\n", err)
		return nil
	}
	// The locations were read from the checkout: its commit is where a
	// rename is followed from.
	if len(r.Entries) > 0 {
		if c := headCommit(files.Options.Root); c != "" {
			for i := range r.Entries {
				r.Entries[i].Commit = c
			}
		}
	}
	return r
}
