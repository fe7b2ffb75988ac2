package cli

import (
	"slices"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/triage"
)

// problemPass finds, in list's one pass over the inputs, the entries a
// confirmation overrules: an entry that suppresses a finding (false
// positive, won't fix…) of a problem another finding of which an entry
// confirms, so that every output shows the problem, marked confirmed
// (docs/triage.md, "How decisions are honoured"). It is the query's
// Keep.Early: the findings list's Each takes in the first pass are told
// their problems once the grouper knows them (each lead with the others
// of its problem), as the pages group them.
type problemPass struct {
	// taken are the findings Each took, in order, and whether each is a
	// result that is no finding.
	taken     []reports.FindingID
	uncounted []bool
	// decided is each finding's entry (its index in the file), expired
	// entries left out, as list's matcher decided it.
	decided map[reports.FindingID]int
	entries []triage.Entry
	// overruled is, of each overruled entry, the first entry that
	// confirms a finding of its problem.
	overruled map[int]int
	// picked, when not nil, are the findings a decision is being taken
	// on (decide): beside keeps, of each, the other findings of its
	// problem when one of them is decided, for decide to tell a decision
	// that a confirmation overrules, or that overrules another.
	picked map[reports.FindingID]bool
	beside map[reports.FindingID][]reports.FindingID
}

// newProblemPass returns the pass that finds the overruled entries of f,
// nil when none can be: no entry confirms, or none suppresses.
func newProblemPass(f *triage.File) *problemPass {
	var confirms, suppresses bool
	for i := range f.Entries {
		st := f.Entries[i].State
		confirms = confirms || st == triage.Confirmed
		suppresses = suppresses || st.Suppresses()
	}
	if !confirms || !suppresses {
		return nil
	}
	return &problemPass{decided: map[reports.FindingID]int{}, entries: f.Entries, overruled: map[int]int{}}
}

// take notes a finding Each took.
func (p *problemPass) take(f *reports.Finding) {
	p.taken = append(p.taken, f.ID)
	p.uncounted = append(p.uncounted, f.Uncounted())
}

// Settle implements pipeline.Early: each problem's findings, by the
// decisions on them.
func (p *problemPass) Settle(fate func(id reports.FindingID, baseline string, suppressed, uncounted bool) (drop bool, state string, t *reports.Triage, also []reports.Also)) error {
	for i, id := range p.taken {
		drop, _, _, also := fate(id, "", false, p.uncounted[i])
		if drop || len(also) == 0 {
			continue // a duplicate (its lead tells its problem), or a problem of one finding
		}
		members := make([]reports.FindingID, 0, 1+len(also))
		members = append(members, id)
		for _, a := range also {
			members = append(members, a.ID)
		}
		p.notePicked(members)
		confirmed := -1
		for _, m := range members {
			if idx, ok := p.decided[m]; ok && p.entries[idx].State == triage.Confirmed {
				confirmed = idx
				break
			}
		}
		if confirmed < 0 {
			continue
		}
		for _, m := range members {
			if idx, ok := p.decided[m]; ok && p.entries[idx].State.Suppresses() {
				if _, seen := p.overruled[idx]; !seen {
					p.overruled[idx] = confirmed
				}
			}
		}
	}
	p.taken, p.uncounted = nil, nil
	return nil
}

// notePicked keeps, of each picked finding among a problem's members,
// the others, when one of them is decided (decide).
func (p *problemPass) notePicked(members []reports.FindingID) {
	if p.picked == nil {
		return
	}
	var picked, decided bool
	for _, m := range members {
		_, d := p.decided[m]
		picked, decided = picked || p.picked[m], decided || (d && !p.picked[m])
	}
	if !picked || !decided {
		return
	}
	for i, m := range members {
		if p.picked[m] {
			p.beside[m] = append(slices.Clone(members[:i]), members[i+1:]...)
		}
	}
}

// Restart implements pipeline.Early; a query with no triage of its own
// (list decides with its own matcher) does not start again.
func (p *problemPass) Restart() error {
	p.taken, p.uncounted = p.taken[:0], p.uncounted[:0]
	clear(p.beside)
	return nil
}
