package cli

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"slices"

	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/review"
	"github.com/recap-dev/recap/triage"
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

// repliesReplace returns the entries of the triage file (file, its
// decided files read through fsys, git's history at root) that the
// replies' entries replace: those recap triage check calls changed for
// the finding a reply decided (its decided line edited since, or its
// message changed), which recap triage would replace. It reads the
// reports once more, for the findings of the replies' files; nil when
// there is none, or they cannot be read.
func repliesReplace(ctx context.Context, q *pipeline.Query, file *triage.File, fsys fs.FS, root string, entries []triage.Entry) []review.ReplacedEntry {
	files, ok := q.Reports.(pipeline.Files)
	if !ok || file == nil || len(file.Entries) == 0 || len(entries) == 0 {
		return nil
	}
	paths := map[string]bool{}
	for _, e := range entries {
		paths[e.Path] = true
	}
	now := triageNow()
	old := triage.NewMatcher(file, fsys, now)
	old.TellEdited()
	followed(old, root, io.Discard) // the run's matcher says what could not be followed
	replies := triage.NewMatcher(&triage.File{Version: 1, Entries: entries}, fsys, now)
	decided := map[reports.FindingID]bool{} // the findings the replies decide
	opts := files.Options
	opts.Wrap, opts.Stdin = nil, nil
	_, err := pipeline.Files{Paths: files.Paths, Options: opts}.Read(ctx, func(f *reports.Finding) bool { return paths[f.Path] }, func(f *reports.Finding) error {
		g := *f
		if q.Config != nil {
			q.Config.Apply(&g)
		}
		old.Decide(&g)
		if replies.Decide(&g) != nil && !g.ID.IsZero() {
			decided[g.ID] = true
		}
		return nil
	})
	if err != nil {
		return nil
	}
	var out []review.ReplacedEntry
	for _, st := range old.Statuses() {
		if c := st.Changed; c != nil && decided[c.ID] {
			out = append(out, review.ReplacedEntry{Entry: st.Entry, Edited: c.Code != ""})
		}
	}
	return out
}
