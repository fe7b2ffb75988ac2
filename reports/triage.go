package reports

import "strings"

// Triage is what people decided of a finding (docs/triage.md), as views
// show it: the decision's state, why, by whom, when, until when, a link,
// and whether it has expired (the finding is then shown again, saying so).
type Triage struct {
	// State is the triage file's word: false-positive, wont-fix,
	// accepted-risk, used-in-tests or confirmed.
	State  string `json:"state"`
	Reason string `json:"reason"`
	By     string `json:"by,omitempty"`
	Date   string `json:"date,omitempty"`
	Until  string `json:"until,omitempty"`
	Link   string `json:"link,omitempty"`
	// Expired says that Until has come: the decision no longer holds.
	Expired bool `json:"expired,omitempty"`
	// Via is the id of the finding the decision is about when it covers
	// this one because both report one problem (docs/formats.md,
	// "Duplicates"); no id when it is about this finding.
	Via FindingID `json:"via,omitzero"`
	// Overrules is the state of the finding's own decision when a
	// confirmation of another finding of its problem marks it instead
	// (Via): the two decisions disagree, and the problem is shown until
	// they agree.
	Overrules string `json:"overrules,omitempty"`
	// OverrulesOthers, of a confirmation, are the decisions of other
	// findings of its problem that it overrules (their own, which
	// suppress), but the marked finding's own (Overrules): the
	// decisions that disagree are in sight on the finding shown,
	// whichever finding of the problem leads it.
	OverrulesOthers []Overruled `json:"overrulesOthers,omitempty"`
	// Of is the finding the decision is about as its entry names it
	// (recap's SARIF carries it with Via, for the decision to come back
	// on that finding); empty when not known.
	Of DecidedFinding `json:"-"`
}

// Suppressed reports whether the decision leaves its finding out of
// pages, gates and reviews: every state but confirmed, while it has not
// expired.
func (t *Triage) Suppressed() bool {
	return t != nil && !t.Expired && t.State != "" && t.State != "confirmed"
}

// Note is the decision in a few words, as outputs mark a finding with it:
// "false positive: reason", "confirmed: reason", "triage expired
// 2026-10-01: reason"; a decision on another finding of the problem
// (Via) names that finding's tool and rule: "confirmed: reason (decided
// on the problem's PMD UseEqualsToCompareStrings finding)".
func (t *Triage) Note() string {
	if t == nil {
		return ""
	}
	if t.Expired {
		return "triage expired " + t.Until + ": " + t.Reason
	}
	note := TriageLabel(t.State) + ": " + t.Reason
	var more []string
	if !t.Via.IsZero() {
		// Named by its tool and rule, not its id: a note that annotations
		// and review comments carry stays the same while the decision
		// does, as the reports' ids need not.
		of := "another finding of the problem"
		if t.Of.Tool != "" && t.Of.Rule != "" {
			of = "the problem's " + t.Of.Tool + " " + ShortRule(t.Of.Tool, t.Of.Rule) + " finding"
		}
		more = append(more, "decided on "+of)
	}
	if t.Overrules != "" {
		more = append(more, "over its own decision: "+TriageLabel(t.Overrules))
	}
	for _, o := range t.OverrulesOthers {
		of := "another finding of the problem's"
		if o.Tool != "" && o.Rule != "" {
			of = "the problem's " + o.Tool + " " + ShortRule(o.Tool, o.Rule) + " finding's"
		}
		more = append(more, "over "+of+" decision: "+TriageLabel(o.State))
	}
	if len(more) > 0 {
		note += " (" + strings.Join(more, "; ") + ")"
	}
	return note
}

// Overruled is a decision a confirmation overrules: the finding's (its id,
// tool and rule) and its state.
type Overruled struct {
	ID    FindingID `json:"id"`
	Tool  string    `json:"tool,omitempty"`
	Rule  string    `json:"rule,omitempty"`
	State string    `json:"state"`
}

// TriageLabel is a triage state in words ("false positive", "won't fix").
func TriageLabel(state string) string {
	switch state {
	case "wont-fix":
		return "won't fix"
	case "accepted-risk":
		return "accepted risk"
	case "false-positive":
		return "false positive"
	case "used-in-tests":
		return "used in tests"
	}
	return state
}
