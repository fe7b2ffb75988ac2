package render

import (
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// TriagedLine says what the triage decisions did to the view's counts
// (docs/triage.md): "5 triaged (1 high): 3 false positive, 1 won't fix,
// 1 accepted risk, not counted", the confirmed and expired decisions, and
// the decisions that matched no finding; "" when none of these.
func TriagedLine(t *summarize.TriagedCounts) string {
	if t == nil {
		return ""
	}
	line := t.Text()
	if line != "" {
		if t.Shown {
			line += ", shown but in no gate"
		} else {
			line += ", not counted"
		}
	}
	add := func(s string) {
		if line != "" {
			line += "; "
		}
		line += s
	}
	if t.Confirmed > 0 {
		s := english.Plural(t.Confirmed, "finding", "findings") + " triaged confirmed"
		if n := t.Overruled; n > 0 {
			s += " (" + english.Plural(n, "finding", "findings") + " decided otherwise too: the decisions on " + itsOrTheir(n) + " problem disagree)"
		}
		add(s)
	}
	if t.Expired > 0 {
		add(english.Plural(t.Expired, "finding", "findings") + " back: " + itsOrTheir(t.Expired) + " triage expired")
	}
	if n := t.Unmatched; n > 0 {
		in := ""
		if t.UnmatchedChanged {
			in = " in the files changed"
		}
		if t.UnmatchedOlder != "" {
			// The reports are older than the code: the one thing to do.
			add(english.Plural(n, "decision", "decisions") + in + " " + english.Verb(n, "matches", "match") + " no finding, the reports older than the code: " + t.UnmatchedOlder + ": run the tools again (recap triage check says which)")
		} else {
			add(english.Plural(n, "decision", "decisions") + in + " " + english.Verb(n, "matches", "match") + " no finding (fixed, edited, or the reports are older than the code): recap triage check says which")
		}
	}
	return line
}

// TriageNote is a finding's decision in plain text on one line, as an
// annotation or an issue marks it: "confirmed: reason", "triage expired
// 2026-10-01: reason".
func TriageNote(t *reports.Triage) string {
	return PlainText(text.CutBytes(OneLine(t.Note()), MaxAnnotationMessage/4))
}

// itsOrTheir is the possessive of n things.
func itsOrTheir(n int) string {
	if n == 1 {
		return "its"
	}
	return "their"
}
