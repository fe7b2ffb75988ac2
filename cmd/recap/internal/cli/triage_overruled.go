package cli

import (
	"context"
	"slices"

	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/triage"
)

// overruled finds the entries that a confirmation overrules: a finding
// an entry suppresses (false positive, won't fix…) is one problem with a
// finding an entry confirms, so that every output shows the problem,
// marked confirmed (docs/triage.md, "One decision per problem"). Of each
// such entry (its index in sts), it returns the index of the first
// confirming entry. decided is each finding's entry, by its id, as the
// list's own pass over the inputs matched them (expired entries left
// out); the problems are those of a second pass, grouped as the pages
// group them. No second pass is made when no entry confirms a finding
// and another suppresses one, nor when an input is standard input (read
// once): unchecked says so.
func (r *triageRepo) overruled(ctx context.Context, inputs []string, decided map[reports.FindingID]int, sts []triage.Status) (out map[int]int, unchecked bool, err error) {
	var confirms, suppresses bool
	for _, idx := range decided {
		st := sts[idx].Entry.State
		confirms = confirms || st == triage.Confirmed
		suppresses = suppresses || st.Suppresses()
	}
	if !confirms || !suppresses {
		return nil, false, nil
	}
	if slices.Contains(inputs, "-") {
		return nil, true, nil
	}
	if len(inputs) == 0 {
		inputs = []string{searchedRoot(r.root)}
	}
	q := &pipeline.Query{
		// Read as the list's pass read them: the same ids.
		Reports: pipeline.Files{Paths: inputs, Options: parsers.ReadOptions{Root: r.root, Format: r.format, Uncounted: true}},
		Config:  r.cfg,
		Classes: grouping.ClassOf,
	}
	out = map[int]int{}
	q.Keep.Each = func(f *reports.Finding, _ string) error {
		if f.Detail == nil || len(f.Detail.Also) == 0 || f.Uncounted() {
			return nil // a problem of one finding: nothing to disagree with
		}
		confirmed := -1
		for _, id := range problemOf(f) {
			if idx, ok := decided[id]; ok && sts[idx].Entry.State == triage.Confirmed {
				confirmed = idx
				break
			}
		}
		if confirmed < 0 {
			return nil
		}
		for _, id := range problemOf(f) {
			if idx, ok := decided[id]; ok && sts[idx].Entry.State.Suppresses() {
				if _, seen := out[idx]; !seen {
					out[idx] = confirmed
				}
			}
		}
		return nil
	}
	if _, err := pipeline.Run(ctx, q); err != nil {
		return nil, false, queryError(err)
	}
	return out, false, nil
}

// problemOf is the ids of the findings of f's problem: f's, then those of
// the others, in the order the problem lists them.
func problemOf(f *reports.Finding) []reports.FindingID {
	ids := []reports.FindingID{f.ID}
	for _, a := range f.Detail.Also {
		ids = append(ids, a.ID)
	}
	return ids
}
