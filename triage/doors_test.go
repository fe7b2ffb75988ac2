package triage

import (
	"strings"
	"testing"
	"time"
)

// TestEntriesYAML: the entries' YAML reads back, under entries:, as the
// same entries, sorted as the file sorts them; pasted under entries: of a
// file recap wrote, it reads back as both; it is the file's own text.
func TestEntriesYAML(t *testing.T) {
	es := []Entry{
		{Tool: "PMD", Rule: "B", Path: "b.java", Location: "0123456789abcdef:1", State: WontFix, Reason: "it: has ~~~ and #, and 'quotes'", Date: "2026-11-28"},
		{Tool: "PMD", Rule: "A", Path: "a.java", Message: "no line", State: FalsePositive, Reason: "r", Link: "https://x.example/#note_1"},
	}
	y, err := EntriesYAML(es...)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse("y", []byte("version: 1\nentries:\n"+y))
	if err != nil || len(f.Entries) != 2 || f.Entries[0] != es[1] || f.Entries[1] != es[0] {
		t.Fatalf("%v: %+v\n%s", err, f, y)
	}
	written, err := (&File{Entries: []Entry{{Tool: "SpotBugs", Rule: "C", Path: "c.java", State: Confirmed, Reason: "r", Date: "2026-11-01"}}}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	both, err := Parse("pasted", append(written, y...))
	if err != nil || len(both.Entries) != 3 {
		t.Fatalf("pasted under the entries of a written file: %v\n%s%s", err, written, y)
	}
	if out, err := both.Marshal(); err != nil || !strings.Contains(string(out), y) {
		t.Errorf("the entries' YAML is not the file's text of them: %v\n%s\nin\n%s", err, y, out)
	}
	for _, line := range strings.Split(strings.TrimRight(y, "\n"), "\n") {
		if !strings.HasPrefix(line, "  - ") && !strings.HasPrefix(line, "    ") {
			t.Errorf("a line that starts neither an item nor a key of one: %q", line)
		}
	}
}

// TestCheckDecision: the words a door takes, and what it says of others.
func TestCheckDecision(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		state, reason, until string
		want                 State
		err                  string
	}{
		{"false-positive", "r", "", FalsePositive, ""},
		{"Won't fix", "r", "2026-11-29", WontFix, ""},
		{"maybe", "r", "", "", "none of false-positive, wont-fix, accepted-risk, used-in-tests or confirmed"},
		{"confirmed", "  ", "", "", "a reason is required"},
		{"confirmed", "r", "2026-11-28", "", "has come already"},
		{"confirmed", "r", "28/11/2026", "", "YYYY-MM-DD"},
	} {
		got, err := CheckDecision(tc.state, tc.reason, tc.until, now)
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("CheckDecision(%q, %q, %q) = %q, %v; want %q, %q", tc.state, tc.reason, tc.until, got, err, tc.want, tc.err)
		}
	}
}

// TestWith: decisions joined to a file's replace its entries of the same
// finding and leave the file as it was.
func TestWith(t *testing.T) {
	f := &File{Name: "t.yml", Version: 1, Entries: []Entry{{Tool: "T", Rule: "R", Path: "p", Location: "l:1", State: WontFix, Reason: "old"}}}
	g := With(f, Entry{Tool: "T", Rule: "R", Path: "p", Location: "l:1", State: FalsePositive, Reason: "new"}, Entry{Tool: "T", Rule: "S", Path: "p", State: Confirmed, Reason: "x"})
	if len(g.Entries) != 2 || g.Entries[0].Reason != "new" || len(f.Entries) != 1 || f.Entries[0].Reason != "old" {
		t.Errorf("With: %+v; the file now %+v", g.Entries, f.Entries)
	}
	if h := With(nil, g.Entries...); len(h.Entries) != 2 {
		t.Errorf("With(nil): %+v", h.Entries)
	}
}
