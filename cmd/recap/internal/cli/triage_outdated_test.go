package cli

import (
	"testing"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/triage"
)

// TestEntryNames: entries of one rule on lines of one text in one file are
// told apart by their location, and at one location by their messages;
// the others are named by their line.
func TestEntryNames(t *testing.T) {
	e := func(line, loc string) triage.Entry {
		return triage.Entry{Tool: "PMD", Rule: "CloseResource", Path: "src/A.java", Line: line, Location: loc, State: triage.AcceptedRisk, Reason: "r"}
	}
	list := []triage.Status{
		{Entry: e("Statement s = c.createStatement();", "5acf9d30aa11bb22:1")},
		{Entry: e("Statement s = c.createStatement();", "625be9a9cc33dd44:1")},
		{Entry: e("Connection c = open();", "0123456789abcdef:1"), Path: "src/B.java"},
		{Entry: e("void f(int a, int b) {", "fedcba9876543210:1")},
		{Entry: e("void f(int a, int b) {", "fedcba9876543210:1")},
	}
	list[3].Entry.Message, list[4].Entry.Message = "Parameter a should be final", "Parameter b should be final"
	names := entryNames(list)
	for i, want := range []string{
		`PMD CloseResource src/A.java "Statement s = c.createStatement();" at 5acf9d30aa11bb22:1`,
		`PMD CloseResource src/A.java "Statement s = c.createStatement();" at 625be9a9cc33dd44:1`,
		`PMD CloseResource src/B.java (was src/A.java) "Connection c = open();"`,
		`PMD CloseResource src/A.java "void f(int a, int b) {" at fedcba9876543210:1 saying "Parameter a should be final"`,
		`PMD CloseResource src/A.java "void f(int a, int b) {" at fedcba9876543210:1 saying "Parameter b should be final"`,
	} {
		if got := names[list[i].Entry.Key()]; got != want {
			t.Errorf("entry %d: %q, want %q", i, got, want)
		}
	}
}

// TestNamedPaths: the paths a tool's findings name, placed or by the tail
// of a path not placed, and the share not placed.
func TestNamedPaths(t *testing.T) {
	var n namedPaths
	n.watch = map[string]bool{"src/A.java": true}
	for _, f := range []reports.Finding{
		{Tool: "PMD", Path: "src/A.java", Line: 3, Rule: "R", Message: "m"},
		{Tool: "PMD", Path: "src/A.java", Line: 5, Rule: "R", Message: "m2"},
		{Tool: "PMD", Path: "/ci/r/src/Gone.java", Line: 1, Rule: "R"},
		{Tool: "Checkstyle", Path: "src/B.java", Line: 1, Rule: "C"},
	} {
		n.add(&f)
	}
	for _, c := range []struct {
		tool, path string
		want       bool
	}{{"pmd", "src/A.java", true}, {"pmd", "src/Gone.java", true}, {"pmd", "Gone.java", true}, {"pmd", "rc/Gone.java", false}, {"pmd", "src/B.java", false}, {"checkstyle", "src/B.java", true}} {
		if got := n.names(c.tool, c.path); got != c.want {
			t.Errorf("names(%q, %q) = %v", c.tool, c.path, got)
		}
	}
	if c := n.counts["pmd"]; c == nil || c.findings != 3 || c.outside != 1 {
		t.Errorf("PMD's counts: %+v", c)
	}
	if got := n.found[findingKey{"pmd", "R", "src/A.java"}]; len(got) != 2 || got[1].line != 5 {
		t.Errorf("the watched file's findings: %+v", got)
	}
}
