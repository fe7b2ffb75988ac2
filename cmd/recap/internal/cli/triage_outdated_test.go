package cli

import (
	"testing"

	"github.com/recap-dev/recap/triage"
)

// TestEntryNames: entries of one rule on lines of one text in one file are
// told apart by their location; the others are named by their line.
func TestEntryNames(t *testing.T) {
	e := func(line, loc string) triage.Entry {
		return triage.Entry{Tool: "PMD", Rule: "CloseResource", Path: "src/A.java", Line: line, Location: loc, State: triage.AcceptedRisk, Reason: "r"}
	}
	list := []triage.Status{
		{Entry: e("Statement s = c.createStatement();", "5acf9d30aa11bb22:1")},
		{Entry: e("Statement s = c.createStatement();", "625be9a9cc33dd44:1")},
		{Entry: e("Connection c = open();", "0123456789abcdef:1"), Path: "src/B.java"},
	}
	names := entryNames(list)
	for i, want := range []string{
		`PMD CloseResource src/A.java "Statement s = c.createStatement();" at 5acf9d30aa11bb22:1`,
		`PMD CloseResource src/A.java "Statement s = c.createStatement();" at 625be9a9cc33dd44:1`,
		`PMD CloseResource src/B.java (was src/A.java) "Connection c = open();"`,
	} {
		if got := names[list[i].Entry.Key()]; got != want {
			t.Errorf("entry %d: %q, want %q", i, got, want)
		}
	}
}
