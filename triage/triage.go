package triage

import (
	"strings"
	"time"
)

// DefaultPath is the triage file's place in the repository, unless the
// configuration (.recap.yml's triage key) names another.
const DefaultPath = ".recap/triage.yml"

// A State is what people decided of a finding.
type State string

// The states, as the file writes them.
const (
	FalsePositive State = "false-positive"
	WontFix       State = "wont-fix"
	AcceptedRisk  State = "accepted-risk"
	UsedInTests   State = "used-in-tests"
	Confirmed     State = "confirmed"
)

// States lists every state, in the order summaries count them.
var States = []State{FalsePositive, WontFix, AcceptedRisk, UsedInTests, Confirmed}

// Valid reports whether s is one of States.
func (s State) Valid() bool {
	for _, t := range States {
		if s == t {
			return true
		}
	}
	return false
}

// Suppresses reports whether a finding in state s is left out of pages,
// gates and reviews: every state but Confirmed.
func (s State) Suppresses() bool { return s.Valid() && s != Confirmed }

// Label is the state in words, as summaries write it ("false positive",
// "won't fix").
func (s State) Label() string {
	switch s {
	case WontFix:
		return "won't fix"
	case AcceptedRisk:
		return "accepted risk"
	}
	return strings.ReplaceAll(string(s), "-", " ")
}

// ParseState reads a state as a user writes it: the file's word, or its
// label, any case ("false-positive", "False positive", "wontfix").
func ParseState(s string) (State, bool) {
	k := strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', ' ', '\'':
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(s)))
	for _, t := range States {
		if strings.ReplaceAll(string(t), "-", "") == k {
			return t, true
		}
	}
	return "", false
}

// An Entry is one decision: the finding it is about, what a human needs to
// recognise it, and what was decided, by whom, when and why.
type Entry struct {
	// Tool, Rule and Path are the finding's tool, rule and
	// repository-relative path, as recap gives them.
	Tool string `yaml:"tool" json:"tool"`
	Rule string `yaml:"rule" json:"rule"`
	Path string `yaml:"path" json:"path"`
	// Location is the finding's location fingerprint ([Locations]):
	// "hash:occurrence", "" for a finding without a line.
	Location string `yaml:"location,omitempty" json:"location,omitempty"`
	// Line is the text of the finding's line when it was decided (trimmed),
	// Message the tool's message then.
	Line    string `yaml:"line,omitempty" json:"line,omitempty"`
	Message string `yaml:"message,omitempty" json:"message,omitempty"`
	State   State  `yaml:"state" json:"state"`
	Reason  string `yaml:"reason" json:"reason"`
	By      string `yaml:"by,omitempty" json:"by,omitempty"`
	// Date is the day of the decision, Until the day it expires (the
	// finding comes back from that day on), both YYYY-MM-DD.
	Date  string `yaml:"date,omitempty" json:"date,omitempty"`
	Until string `yaml:"until,omitempty" json:"until,omitempty"`
	Link  string `yaml:"link,omitempty" json:"link,omitempty"`
	// Commit is the commit the finding was decided on, when known: the
	// matcher follows renames from it.
	Commit string `yaml:"commit,omitempty" json:"commit,omitempty"`
}

// DateLayout is the layout of Date and Until.
const DateLayout = "2006-01-02"

// Expired reports whether e's Until has come at now (the day of Until
// itself is expired).
func (e *Entry) Expired(now time.Time) bool {
	if e.Until == "" {
		return false
	}
	u, err := time.Parse(DateLayout, e.Until)
	if err != nil {
		return false
	}
	return !now.UTC().Before(u)
}

// Key is the entry's identity in the file: two entries of one key are one
// decision (the later replaces the earlier).
func (e *Entry) Key() string {
	return e.Tool + "\x00" + e.Rule + "\x00" + e.Path + "\x00" + e.Location + "\x00" + foldSpace(e.Message)
}

// A Decision is what the triage says of one finding: the entry that covers
// it, and whether that entry has expired (the finding is then shown again,
// saying so).
type Decision struct {
	Entry *Entry
	// Index is the entry's place in the file (Matcher.Statuses' order).
	Index   int
	Expired bool
	// How says how the entry matched the finding.
	How How
	// Path is where the entry's file is now: its Path, or the path git
	// says it was renamed to.
	Path string
}

// Suppresses reports whether the decision leaves its finding out.
func (d *Decision) Suppresses() bool {
	return d != nil && !d.Expired && d.Entry.State.Suppresses()
}

func foldSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
